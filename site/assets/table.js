// energyboard: click-to-sort and filters for the leaderboard table.
// Progressive enhancement: without this script the table is complete, in
// its default order.
(function () {
  "use strict";
  var table = document.querySelector("table.sortable");
  if (!table) return;
  var tbody = table.tBodies[0];
  var rows = Array.prototype.slice.call(tbody.rows);
  rows.forEach(function (r, i) { r.dataset.order = String(i); });
  var heads = Array.prototype.slice.call(table.tHead.rows[0].cells);

  function value(row, col) {
    var cell = row.cells[col];
    if (!cell) return "";
    var v = cell.getAttribute("data-v");
    return v !== null ? parseFloat(v) : cell.textContent.trim().toLowerCase();
  }

  function sortBy(col, dir) {
    var sorted = rows.slice().sort(function (a, b) {
      var x = value(a, col), y = value(b, col);
      var c = typeof x === "number" && typeof y === "number" ? x - y : String(x).localeCompare(String(y));
      if (c === 0) c = Number(a.dataset.order) - Number(b.dataset.order);
      return dir === "ascending" ? c : -c;
    });
    sorted.forEach(function (r) { tbody.appendChild(r); });
    heads.forEach(function (h, i) {
      if (i === col) h.setAttribute("aria-sort", dir); else h.removeAttribute("aria-sort");
      var b = h.querySelector("button.sort");
      if (b) b.textContent = i === col ? (dir === "ascending" ? "▲" : "▼") : "↕";
    });
  }

  heads.forEach(function (h, i) {
    var label = h.textContent.replace(/\s+/g, " ").trim();
    var b = document.createElement("button");
    b.type = "button";
    b.className = "sort";
    b.textContent = "↕";
    b.setAttribute("aria-label", "Sort by " + label);
    b.addEventListener("click", function () {
      var next = h.getAttribute("aria-sort") === "ascending" ? "descending" : "ascending";
      sortBy(i, next);
    });
    h.appendChild(b);
  });
  var energy = heads.findIndex(function (h) { return h.dataset.key === "wh_per_million_output_tokens"; });
  if (energy >= 0) heads[energy].setAttribute("aria-sort", "ascending");
  if (energy >= 0) heads[energy].querySelector("button.sort").textContent = "▲";

  var form = document.querySelector("form.filters");
  if (!form) return;
  form.hidden = false;
  var out = form.querySelector("output");
  function apply() {
    var gpu = form.elements.gpu.value, arch = form.elements.arch.value, shown = 0;
    rows.forEach(function (r) {
      var ok = (!gpu || r.dataset.gpu === gpu) && (!arch || r.dataset.arch === arch);
      r.hidden = !ok;
      if (ok) shown += 1;
    });
    if (out) out.textContent = shown + " of " + rows.length + " rows shown";
  }
  form.addEventListener("change", apply);
  form.addEventListener("submit", function (e) { e.preventDefault(); });
  apply();
})();
