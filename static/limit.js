// energyboard: any latency limit (?itl=50, or ?latency=12 on a diffusion
// workload). Without this script the page shows the deadline's picks and
// the ladder of limits, complete.
(function () {
  "use strict";
  var form = document.getElementById("limit");
  var el = document.getElementById("limit-data");
  if (!form || !el) return;
  var data = JSON.parse(el.textContent);
  var input = document.getElementById("limit-value");
  var range = document.getElementById("limit-range");
  var status = document.getElementById("limit-status");
  var board = document.getElementById("leaderboard");
  form.hidden = false;

  // The cheapest configuration within `limit`: the first of the list whose
  // latency is within it. The list holds, cheapest first in the analysis's
  // own order (ties: fewer GPUs, lower load, first run, earlier row), only
  // the configurations that are the cheapest for some limit
  // (analyse::limit_candidates), so this is its pick.
  function pick(list, limit) {
    for (var i = 0; i < list.length; i++) if (list[i][0] <= limit) return list[i];
    return null;
  }
  function make(tag, text, attrs) {
    var e = document.createElement(tag);
    if (text !== undefined && text !== null) e.textContent = text;
    for (var k in attrs || {}) e.setAttribute(k, attrs[k]);
    return e;
  }
  function none(limit) { return "none within " + limit + " " + data.unit; }

  var show = board ? leaderboard() : modelPage();

  // A figure as the page writes it: the number padded with zeros to `d`
  // decimals, grouped by thousands when `g` (the data carries the page's
  // text wherever this would differ).
  function figure(v, f) {
    var s = String(v).split("."), whole = s[0], frac = s[1] || "";
    if (f[1]) whole = whole.replace(/\B(?=(\d{3})+$)/g, ",");
    while (frac.length < f[0]) frac += "0";
    return f[0] ? whole + "." + frac : whole;
  }

  function leaderboard() {
    var wrap = board.parentNode;
    // The rows in the built order, which is the order of data.rows.
    var rows = [].slice.call(board.tBodies[0].rows);
    rows.forEach(function (r, i) { r.setAttribute("data-row", String(i)); });
    var filters = document.querySelector("form.filters");
    var mine = make("div", null, { "class": "table-wrap", role: "region", "aria-labelledby": "leaderboard-limit-caption", tabindex: "0" });
    var table = make("table", null, { id: "leaderboard-limit" });
    var caption = make("caption", null, { id: "leaderboard-limit-caption" });
    var head = make("tr");
    [["Model"], ["GPU"], ["Setup"], ["Energy", data.energy], [data.latency, data.unit]].forEach(function (h, i) {
      var th = make("th", h[0], { scope: "col" });
      if (i > 2) th.className = "num";
      if (h[1]) { th.appendChild(document.createTextNode(" ")); th.appendChild(make("span", h[1], { "class": "unit" })); }
      head.appendChild(th);
    });
    table.appendChild(caption);
    table.appendChild(make("thead")).appendChild(head);
    var body = table.appendChild(make("tbody"));
    mine.appendChild(table);
    mine.hidden = true;
    wrap.parentNode.insertBefore(mine, wrap.nextSibling);
    // Each row's candidates as lists [latency, energy, anchor, setup,
    // energy text, latency text], cheapest first.
    var lists = data.rows.map(function (r) {
      return r.l.map(function (l, k) {
        var t = (r.t || {})[k] || [];
        return [l, r.e[k], r.a[k],
          t[2] || r.p[r.s[k]] + data.load[0] + r.n[k] + data.load[1],
          t[0] || figure(r.e[k], data.figures[0]), t[1] || figure(l, data.figures[1])];
      });
    });
    var lowest = document.getElementById("lowest"), lowestText = lowest ? lowest.textContent : "", current = null;
    var chart = document.getElementById("chart-best-energy"), chartNote = null;
    // The filters apply to the limit's rows too.
    function filter() {
      var f = filters ? filters.elements : {};
      var gpu = f.gpu ? f.gpu.value : "", arch = f.arch ? f.arch.value : "", budget = f.budget ? parseFloat(f.budget.value) : NaN;
      var shown = 0, found = 0;
      [].forEach.call(body.rows, function (r) {
        r.hidden = !((!gpu || r.dataset.gpu === gpu) && (!arch || r.dataset.arch === arch) && !(Number(r.dataset.e) > budget));
        if (!r.hidden) { shown += 1; if (r.dataset.e !== "Infinity") found += 1; }
      });
      var out = filters && filters.querySelector("output");
      if (mine.hidden) return;
      if (out) out.textContent = shown + " of " + body.rows.length + " rows shown; " + found + " with a configuration within the limit";
      var top = [].filter.call(body.rows, function (r) { return !r.hidden && r.dataset.e !== "Infinity"; })[0];
      if (lowest) lowest.textContent = top
        ? " Lowest shown within " + current + " " + data.unit + ": " + top.cells[0].textContent.trim() + " on " + top.dataset.gpu + ", " + top.cells[3].textContent + " " + data.energy + "."
        : " No row shown has a configuration within " + current + " " + data.unit + ".";
    }
    if (filters) filters.addEventListener("change", filter);
    return function (limit) {
      wrap.hidden = limit !== null;
      mine.hidden = limit === null;
      // The summary and the chart show the deadline's picks: under a
      // limit the summary names the limit's lowest, the chart steps aside.
      if (chart) chart.hidden = limit !== null;
      if (chart && !chartNote) {
        chartNote = make("p", null, { "class": "hint" });
        chart.parentNode.insertBefore(chartNote, chart);
      }
      if (chartNote) {
        chartNote.hidden = limit === null;
        chartNote.textContent = "The bar chart of the deadline's picks is hidden while a limit applies; the table above has the limit's figures.";
      }
      if (limit === null) {
        if (lowest) lowest.textContent = lowestText;
        if (filters) filters.dispatchEvent(new Event("change"));
        return "";
      }
      var found = 0;
      var made = rows.map(function (r) {
        var i = Number(r.getAttribute("data-row"));
        var c = pick(lists[i], limit);
        var tr = make("tr", null, { "data-gpu": r.dataset.gpu, "data-arch": r.dataset.arch || "", "data-row": String(i), "data-e": String(c ? c[1] : Infinity) });
        var name = r.cells[0].cloneNode(true), add = name.querySelector("button.add");
        if (add) add.remove();
        tr.appendChild(name);
        tr.appendChild(r.cells[1].cloneNode(true));
        if (c) {
          found += 1;
          tr.appendChild(make("td", c[3]));
          tr.appendChild(make("td", null, { "class": "num" }))
            .appendChild(make("a", c[4], { href: name.querySelector("a").getAttribute("href").split("#")[0] + "#" + c[2] }));
          tr.appendChild(make("td", c[5], { "class": "num" }));
        } else {
          tr.appendChild(make("td", none(limit)));
          tr.appendChild(make("td", "—", { "class": "num" }));
          tr.appendChild(make("td", "—", { "class": "num" }));
        }
        return { tr: tr, energy: c ? c[1] : Infinity, i: i };
      });
      made.sort(function (a, b) { return a.energy - b.energy || a.i - b.i; });
      body.textContent = "";
      made.forEach(function (m) { body.appendChild(m.tr); });
      current = limit;
      filter();
      caption.textContent = "Cheapest configuration per model and GPU with " + data.phrase + " within " + limit + " " + data.unit +
        ", lowest energy first; " + found + " of " + rows.length + " have one.";
      return found + " of " + rows.length + " model and GPU pairs have a configuration within " + limit + " " + data.unit + ".";
    };
  }

  function modelPage() {
    var cards = [].slice.call(document.querySelectorAll("#best .card"));
    var kept = cards.map(function (c) { return [].slice.call(c.childNodes); });
    var budgets = document.getElementById("budgets");
    var chosen = null;
    return function (limit) {
      if (chosen) { chosen.remove(); chosen = null; }
      var found = 0;
      cards.forEach(function (card, k) {
        var title = card.querySelector("h3");
        card.textContent = "";
        if (limit === null) { kept[k].forEach(function (n) { card.appendChild(n); }); return; }
        var gpu = data.gpus[k][0], c = pick(data.gpus[k][1], limit);
        card.appendChild(title);
        card.appendChild(make("p", "Within " + limit + " " + data.unit + ":", { "class": "hint" }));
        if (!c) {
          card.appendChild(make("p", "No " + gpu + " configuration: " + none(limit) + "."));
          return;
        }
        found += 1;
        card.appendChild(make("p", c[2]));
        var dl = card.appendChild(make("dl"));
        c[4].forEach(function (f) { dl.appendChild(make("dt", f[0])); dl.appendChild(make("dd", f[1])); });
        card.appendChild(make("p")).appendChild(make("a", "See this row in the " + gpu + " table", { href: "#" + c[1] }));
      });
      if (limit === null) return "";
      if (budgets) {
        chosen = make("tr", null, { "class": "chosen" });
        var th = chosen.appendChild(make("th", "≤ " + limit + " (chosen)", { scope: "row", "class": "num" }));
        th.dataset.limit = String(limit);
        data.gpus.forEach(function (g) {
          var c = pick(g[1], limit), td = chosen.appendChild(make("td"));
          if (c) td.appendChild(make("a", c[3], { href: "#" + c[1] })); else td.textContent = none(limit);
        });
        budgets.tBodies[0].insertBefore(chosen, budgets.tBodies[0].firstChild);
      }
      return found + " of " + cards.length + " GPUs have a configuration within " + limit + " " + data.unit + ".";
    };
  }

  function set(value, keepInput) {
    var limit = null, note = "";
    if (value !== null && value !== "") {
      limit = Number(value);
      if (!isFinite(limit) || limit < 0) {
        status.textContent = "Enter a number from 0 to " + data.max + " " + data.unit + ".";
        return;
      }
      if (limit > data.max) { limit = data.max; note = " Limits above the " + data.max + " " + data.unit + " deadline are capped at it."; }
    }
    if (!keepInput) input.value = limit === null ? "" : String(limit);
    range.value = String(limit === null ? data.max : limit);
    status.textContent = show(limit) + note;
    var p = new URLSearchParams(location.search);
    if (limit === null) p.delete(data.param); else p.set(data.param, String(limit));
    var q = p.toString();
    history.replaceState(null, "", location.pathname + (q ? "?" + q : "") + location.hash);
  }
  input.addEventListener("change", function () { set(input.value, true); });
  range.addEventListener("input", function () { set(range.value, false); });
  document.getElementById("limit-clear").addEventListener("click", function () { set(null, false); });
  form.addEventListener("submit", function (e) { e.preventDefault(); set(input.value, true); });
  var start = new URLSearchParams(location.search).get(data.param);
  if (start !== null) set(start, false);
})();
