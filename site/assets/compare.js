// energyboard: the compare page keeps the reader's choice of models and
// GPUs, and the order of its table of configurations, in its address
// (?models=a,b&gpus=h100&sort=-energy), so a link opens the same
// comparison. A model the address names that another page of a long list
// holds is brought in from that page (pages.json says which). Hovering,
// focusing or tapping a point of the chart shows its figures in a box.
// Without this script the checkboxes still show and hide the models (CSS
// :has()), starting from the lowest-energy ones, each point keeps its
// tooltip and link, and the table stays in its built order.
(function () {
  "use strict";
  var box = document.getElementById("pick");
  if (!box) return;
  var all = function (name) { return [].slice.call(box.querySelectorAll("input[name=" + name + "]")); };
  var gpus = all("gpus");
  var hint = document.getElementById("pick-link");
  if (hint) hint.hidden = false;
  var params = new URLSearchParams(location.search);
  function take(list, name) {
    var v = params.get(name);
    if (v === null) return;
    var want = v.split(",");
    list.forEach(function (b) { b.checked = want.indexOf(b.value) >= 0; });
  }
  function values(list) {
    return list.filter(function (b) { return b.checked; }).map(function (b) { return b.value; }).join(",");
  }
  var tools = document.getElementById("pick-tools");
  function every(on) {
    all("models").forEach(function (b) { b.checked = on; });
    box.dispatchEvent(new Event("change"));
  }
  if (tools) {
    tools.hidden = false;
    document.getElementById("pick-clear").addEventListener("click", function () { every(false); });
    document.getElementById("pick-all").addEventListener("click", function () { every(true); });
  }

  // The chart's wide drawing comes in a <template>, so that a phone's page
  // holds one drawing; a window of 64rem and up (now, or once widened)
  // brings it out, and the stylesheet then shows it instead of the phone's.
  var wide = window.matchMedia ? window.matchMedia("(min-width: 64rem)") : null;
  function wideTemplate(doc) { return doc.querySelector("#chart-frontiers .chart-inline.wide > template"); }
  function widen() {
    var t = wideTemplate(document);
    if (t && wide && wide.matches) t.parentNode.replaceChild(document.importNode(t.content, true), t);
  }
  widen();
  if (wide && wide.addEventListener) wide.addEventListener("change", widen);
  // The chart's drawings in a document, the phone's first, the wide one
  // whether brought out or still in its template.
  function drawings(doc) {
    var t = wideTemplate(doc);
    return [].slice.call(doc.querySelectorAll("#chart-frontiers .chart-inline svg"))
      .concat(t ? [].slice.call(t.content.querySelectorAll("svg")) : []);
  }

  // Each chart's own legend: the chosen models it draws, with their marks.
  var figures = [].slice.call(document.querySelectorAll("figure.chart"))
    .filter(function (f) { return f.querySelector(".chart-inline"); });
  var legends = [];
  function drawLegend() {
    figures.forEach(function (figure, n) {
      if (!legends[n]) {
        legends[n] = document.createElement("ul");
        legends[n].className = "legend";
        legends[n].setAttribute("aria-label", "Legend: the models shown");
        // Below the drawing, not above it: a legend written in above it
        // would push the chart down once the page has shown it (a layout
        // shift; Lighthouse's CLS on the comparison was 0.08).
        var drawn = figure.querySelectorAll(".chart-inline");
        figure.insertBefore(legends[n], drawn[drawn.length - 1].nextSibling);
      }
      var legend = legends[n];
      legend.textContent = "";
      // A model of a source the page's filter (#only-<source>) hides is
      // not drawn either.
      var only = /^#only-([a-z0-9-]+)$/.exec(location.hash);
      all("models").filter(function (b) {
        return b.checked && (!only || b.closest(".from-" + only[1])) && figure.querySelector(".m" + b.id.replace("pick-", ""));
      }).forEach(function (b) {
        var li = document.createElement("li");
        var key = b.parentNode.querySelector("svg");
        var source = b.getAttribute("data-source");
        if (key) li.appendChild(key.cloneNode(true));
        li.appendChild(document.createTextNode(" " + b.parentNode.textContent.trim() + (source ? " · " + source : "")));
        legend.appendChild(li);
      });
    });
  }

  function remember(key, value) {
    var p = new URLSearchParams(location.search);
    if (value === null) p.delete(key); else p.set(key, value);
    var q = p.toString().replace(/%2C/g, ",");
    history.replaceState(null, "", location.pathname + (q ? "?" + q : "") + location.hash);
  }
  box.addEventListener("change", drawLegend);
  window.addEventListener("hashchange", drawLegend);
  box.addEventListener("change", function () {
    remember("models", values(all("models")));
    remember("gpus", gpus.every(function (b) { return b.checked; }) ? null : values(gpus));
  });

  // Models of other pages the address names: their checkbox, drawings and
  // rows, copied from their page, and the rule that hides them unticked.
  var adopted = document.createElement("style");
  document.head.appendChild(adopted);
  function adopt(other, slugs) {
    var ours = drawings(document), theirs = drawings(other);
    ours.forEach(function (svg, n) {
      var style = theirs[n] && theirs[n].querySelector("style");
      if (style) svg.insertBefore(document.importNode(style, true), svg.querySelector("style"));
    });
    slugs.forEach(function (slug) {
      var input = [].slice.call(other.querySelectorAll("#pick input[name=models]"))
        .filter(function (b) { return b.value === slug; })[0];
      if (!input) return;
      var k = input.id.replace("pick-", "");
      var from = input.closest("fieldset[class^=from-]");
      var list = (from && box.querySelector("fieldset." + from.className + " ul.picks")) || box.querySelector("ul.picks");
      list.appendChild(document.importNode(input.closest("li"), true));
      ours.forEach(function (svg, n) {
        var g = theirs[n] && theirs[n].querySelector("g.m" + k);
        if (g) svg.appendChild(document.importNode(g, true));
      });
      ["chart-frontiers-data", "compare"].forEach(function (id) {
        var body = document.querySelector("#" + id + " tbody");
        if (!body) return;
        [].slice.call(other.querySelectorAll("#" + id + " tbody tr.m" + k)).forEach(function (tr) {
          body.appendChild(document.importNode(tr, true));
        });
      });
      adopted.textContent += "main:has(#pick-" + k + ":not(:checked)) .m" + k + "{display:none}";
    });
  }
  function bringIn() {
    var named = (params.get("models") || "").split(",").filter(Boolean);
    var here = all("models").map(function (b) { return b.value; });
    var missing = named.filter(function (s) { return here.indexOf(s) < 0; });
    var index = box.getAttribute("data-pages");
    if (!missing.length || !index || !window.fetch || !window.DOMParser) return Promise.resolve();
    return fetch(index).then(function (r) { return r.json(); }).then(function (pages) {
      var files = {};
      missing.forEach(function (s) {
        var n = pages.models[s];
        if (n === undefined) return;
        (files[pages.pages[n]] = files[pages.pages[n]] || []).push(s);
      });
      return Promise.all(Object.keys(files).map(function (file) {
        return fetch(file).then(function (r) { return r.text(); }).then(function (html) {
          adopt(new DOMParser().parseFromString(html, "text/html"), files[file]);
        });
      }));
    }).catch(function () { /* the page's own models stay */ });
  }

  // Click-to-sort for the table of configurations, kept as ?sort=key
  // (ascending) or ?sort=-key (descending).
  var table = document.getElementById("chart-frontiers-data");
  var heads = table ? [].slice.call(table.tHead.rows[0].cells) : [];
  function value(row, col) {
    var cell = row.cells[col];
    if (!cell) return "";
    var v = cell.getAttribute("data-v");
    return v !== null ? parseFloat(v) : cell.textContent.trim().toLowerCase();
  }
  function sortBy(col, dir) {
    var body = table.tBodies[0];
    var rows = [].slice.call(body.rows);
    rows.forEach(function (r, i) { if (!r.dataset.order) r.dataset.order = String(i); });
    rows.sort(function (a, b) {
      var x = value(a, col), y = value(b, col);
      var c = typeof x === "number" && typeof y === "number" ? x - y : String(x).localeCompare(String(y));
      if (c === 0) c = Number(a.dataset.order) - Number(b.dataset.order);
      return dir === "ascending" ? c : -c;
    }).forEach(function (r) { body.appendChild(r); });
    heads.forEach(function (h, i) {
      if (i === col) h.setAttribute("aria-sort", dir); else h.removeAttribute("aria-sort");
      h.querySelector("button.sort").textContent = i !== col ? "↕" : dir === "ascending" ? "▲" : "▼";
    });
  }
  heads.forEach(function (h, i) {
    var b = document.createElement("button");
    b.type = "button";
    b.className = "sort";
    b.textContent = "↕";
    b.setAttribute("aria-label", "Sort by " + h.textContent.replace(/\s+/g, " ").trim());
    b.addEventListener("click", function () {
      var dir = h.getAttribute("aria-sort") === "ascending" ? "descending" : "ascending";
      sortBy(i, dir);
      remember("sort", (dir === "descending" ? "-" : "") + h.dataset.key);
    });
    h.appendChild(b);
  });
  function sortAsAsked() {
    var asked = params.get("sort");
    if (!asked || !table) return;
    var key = asked.replace(/^-/, "");
    var col = heads.findIndex(function (h) { return h.dataset.key === key; });
    if (col >= 0) sortBy(col, asked.charAt(0) === "-" ? "descending" : "ascending");
  }
  var sortHint = document.getElementById("sort-hint");
  if (sortHint && table) sortHint.textContent += " A column head's button sorts the table by it.";

  // The box of figures of a point: its model, setup and figures (its
  // tooltip's three parts) and a link to its row; a second tap (or Enter)
  // follows the point's own link.
  var SVG_NS = "http://www.w3.org/2000/svg";
  var tip = null, shown = null, pressed = false;
  function hide() {
    if (tip) tip.parentNode.removeChild(tip);
    tip = null;
    shown = null;
  }
  function make(tag, attrs, text) {
    var e = document.createElementNS(SVG_NS, tag);
    for (var k in attrs) e.setAttribute(k, attrs[k]);
    if (text) e.textContent = text;
    return e;
  }
  function show(p) {
    if (shown === p) return;
    hide();
    var svg = p.ownerSVGElement;
    var title = p.querySelector("title").textContent;
    var first = title.indexOf(": "), last = title.lastIndexOf(": ");
    var lines = [title.slice(0, first), title.slice(first + 2, last), title.slice(last + 2)];
    tip = make("g", { "class": "tip", role: "status" });
    var rect = make("rect", { "class": "tipbox", rx: 4 });
    tip.appendChild(rect);
    var texts = lines.map(function (line, i) {
      var t = make("text", { "class": "t", "font-size": 13, "font-weight": i === 0 ? "bold" : "normal" }, line);
      tip.appendChild(t);
      return t;
    });
    var link = make("a", { href: p.getAttribute("href") });
    var go = make("text", { "class": "t tiplink", "font-size": 13 }, "Go to its row \u203a");
    link.appendChild(go);
    tip.appendChild(link);
    texts.push(go);
    svg.appendChild(tip);
    var width = 16 + Math.max.apply(null, texts.map(function (t) { return t.getComputedTextLength(); }));
    var height = texts.length * 18 + 10;
    var view = svg.viewBox.baseVal, at = p.getBBox();
    var x = at.x + at.width / 2 + 12, y = at.y + at.height / 2 + 12;
    if (x + width > view.width - 4) x = Math.max(4, at.x - width - 12);
    if (y + height > view.height - 4) y = Math.max(4, at.y - height - 12);
    [["x", x], ["y", y], ["width", width], ["height", height]].forEach(function (a) { rect.setAttribute(a[0], a[1]); });
    texts.forEach(function (t, i) {
      t.setAttribute("x", x + 8);
      t.setAttribute("y", y + 22 + 18 * i);
    });
    shown = p;
  }
  var chart = document.getElementById("chart-frontiers");
  if (chart) {
    var point = function (e) { return e.target.closest && e.target.closest("a.pt"); };
    chart.addEventListener("pointerdown", function (e) { if (point(e)) pressed = true; });
    chart.addEventListener("click", function (e) {
      var p = point(e);
      pressed = false;
      if (p && shown !== p) {
        e.preventDefault();
        show(p);
      } else if (!p && !(e.target.closest && e.target.closest(".tip"))) hide();
    });
    chart.addEventListener("focusin", function (e) { var p = point(e); if (p && !pressed) show(p); });
    chart.addEventListener("pointerover", function (e) {
      var p = point(e);
      if (p && e.pointerType === "mouse") show(p);
    });
    document.addEventListener("keydown", function (e) { if (e.key === "Escape") hide(); });
  }

  bringIn().then(function () {
    take(all("models"), "models");
    take(gpus, "gpus");
    drawLegend();
    sortAsAsked();
  });
})();
