// The model page's script. Its chosen configuration (issue 42): the
// histogram of energy per response under the time–energy chart follows
// the configuration the reader chooses, by hovering, focusing or tapping a point of the chart
// (which tells the page, templates/scatter.js), by going to a row's anchor
// (`#h100-2-256`, a link of the chart's box, a best card or the budget
// table) or by clicking a row of a configuration table. The page states
// each configuration's figures (`#chosen-data`: the folder of their
// histograms and, by row anchor, the caption's fields); each histogram is
// a file of its own, loaded when chosen. Without script the figure stays
// hidden and the best configurations' histograms above stand.
//
// It also hands the page's theme to the charts shown in frames
// (`iframe[data-themed]`), in their address's fragment (`#theme=dark`).
(function () {
  var doc = document;
  var root = doc.documentElement;
  var frames = Array.prototype.slice.call(doc.querySelectorAll("iframe[data-themed]"));

  function theme() {
    var t = root.getAttribute("data-theme");
    frames.forEach(function (f) {
      var base = f.getAttribute("src").split("#")[0];
      var src = t ? base + "#theme=" + t : base;
      if (f.getAttribute("src") !== src) f.setAttribute("src", src);
    });
  }
  theme();
  if (window.MutationObserver) {
    new MutationObserver(theme).observe(root, { attributes: true, attributeFilter: ["data-theme"] });
  }

  var figure = doc.getElementById("chosen-response");
  var el = doc.getElementById("chosen-data");
  if (!figure || !el) return;
  var data;
  try {
    data = JSON.parse(el.textContent);
  } catch (e) {
    return;
  }
  var img = figure.querySelector("img");
  var file = figure.querySelector(".chart-file a");
  var chosenRow = null;

  function has(row) {
    return Object.prototype.hasOwnProperty.call(data.rows, row);
  }

  // Shows configuration `row`'s histogram and figures.
  function choose(row) {
    if (!has(row)) return;
    var c = data.rows[row];
    figure.querySelectorAll("[data-field]").forEach(function (span) {
      span.textContent = c[span.getAttribute("data-field")];
    });
    var src = data.dir + row + ".svg";
    img.setAttribute("src", src);
    img.setAttribute("alt", img.getAttribute("data-alt") + c.setup);
    file.setAttribute("href", src);
    if (chosenRow) chosenRow.classList.remove("chosen");
    chosenRow = doc.getElementById(row);
    if (chosenRow) chosenRow.classList.add("chosen");
    figure.hidden = false;
  }

  function fromHash() {
    var row = location.hash.slice(1);
    if (has(row)) choose(row);
  }

  window.addEventListener("message", function (e) {
    var from = frames.some(function (f) { return f.contentWindow === e.source; });
    var row = e.data && e.data.chosen;
    if (!from || typeof row !== "string" || !has(row)) return;
    if (e.data.go) {
      if (location.hash === "#" + row) doc.getElementById(row).scrollIntoView();
      else location.hash = row;
    }
    choose(row);
  });
  window.addEventListener("hashchange", fromHash);
  doc.querySelectorAll("#configurations tr[id]").forEach(function (tr) {
    tr.addEventListener("click", function (e) {
      if (!e.target.closest("a")) choose(tr.id);
    });
  });
  figure.hidden = false;
  fromHash();
})();
