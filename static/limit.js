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
    for (var i = 0; i < list.length; i++) if (list[i].latency <= limit) return list[i];
    return null;
  }
  function make(tag, text, attrs) {
    var e = document.createElement(tag);
    if (text !== undefined && text !== null) e.textContent = text;
    for (var k in attrs || {}) e.setAttribute(k, attrs[k]);
    return e;
  }
  function none(limit) { return "none within " + limit + " " + data.unit; }

  // The limit acts on the leaderboard's own table: each row (a model on a
  // GPU) shows its cheapest configuration within the limit, whose cells
  // are in the file beside the page, data.spare (the same cells as the
  // table's, so the chosen columns, sorting, filters and compare apply),
  // fetched when a limit is first set; a row with none within the limit
  // is hidden, and counted. The table says which limit it shows in
  // data-limit once its rows are in place.
  function leaderboard() {
    var rows = [].slice.call(board.tBodies[0].rows);
    // Each row's cells by candidate: the built row's are its own.
    var sets = rows.map(function (r, i) {
      var own = {};
      own[data.rows[i].shown === null ? -1 : data.rows[i].shown] = [].slice.call(r.cells, 1);
      return own;
    });
    var spare = null;
    function fetchSpare(then) {
      if (!spare) spare = fetch(data.spare).then(function (r) {
        if (!r.ok) throw new Error(data.spare + ": " + r.status);
        return r.text();
      }).then(function (html) {
        var doc = new DOMParser().parseFromString(html, "text/html");
        [].forEach.call(doc.querySelectorAll("tr[data-row]"), function (t) {
          sets[Number(t.dataset.row)][Number(t.dataset.k)] = [].slice.call(document.adoptNode(t).cells);
        });
      });
      spare.then(then, function () {
        status.textContent = "The rows for a limit could not be loaded; the table shows the deadline's picks.";
      });
    }
    var caption = board.caption, captionText = caption ? caption.textContent : "";
    var within = document.getElementById("within"), withinText = within ? within.textContent : "";
    var chart = document.getElementById("chart-best-energy"), chartNote = null;
    function use(r, cells) {
      if (r.cells[1] === cells[0]) return;
      while (r.cells.length > 1) r.removeChild(r.cells[1]);
      cells.forEach(function (c) { r.appendChild(c); });
    }
    var apply = function (limit) {
      var found = 0, unit = limit === null ? "" : limit + " " + data.unit;
      rows.forEach(function (r, i) {
        var l = data.rows[i].latencies, base = data.rows[i].shown === null ? -1 : data.rows[i].shown, k = base;
        if (limit !== null) {
          k = -2;
          for (var j = 0; j < l.length; j++) if (l[j] <= limit) { k = j; break; }
        }
        if (k === -2) { r.dataset.out = "1"; use(r, sets[i][base]); return; }
        delete r.dataset.out;
        found += 1;
        use(r, sets[i][k] || sets[i][base]);
      });
      // The summary, the caption and the chart say which limit applies:
      // the bar chart shows the deadline's picks, so it steps aside.
      if (within) within.textContent = limit === null || limit === data.max ? withinText : unit + " (your limit; the deadline is " + withinText + ")";
      if (caption) caption.textContent = limit === null ? captionText : captionText.replace(data.within, "within " + unit);
      board.dataset.limit = unit;
      if (chart && !chartNote) {
        chartNote = make("p", "The bar chart of the deadline's picks is hidden while a limit applies; the table above has the limit's figures.", { "class": "hint" });
        chart.parentNode.insertBefore(chartNote, chart);
      }
      if (chart) { chart.hidden = limit !== null; chartNote.hidden = limit === null; }
      board.dispatchEvent(new Event("rows"));
      if (limit === null) return "";
      return "Each row shows its cheapest configuration within " + unit + (found < rows.length
        ? "; " + (rows.length - found) + " of the " + rows.length + " model and GPU pairs have none, and are hidden."
        : "; every model and GPU pair has one.");
    };
    var latest = null, loaded = false;
    return function (limit) {
      latest = limit;
      if (limit === null || loaded) return apply(limit);
      fetchSpare(function () {
        loaded = true;
        if (latest === limit) status.textContent = apply(limit);
      });
      return "Loading the rows for " + limit + " " + data.unit + "…";
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
        var gpu = data.gpus[k].gpu, c = pick(data.gpus[k].candidates, limit);
        card.appendChild(title);
        card.appendChild(make("p", "Within " + limit + " " + data.unit + ":", { "class": "hint" }));
        if (!c) {
          card.appendChild(make("p", "No " + gpu + " configuration: " + none(limit) + "."));
          return;
        }
        found += 1;
        card.appendChild(make("p", c.setup));
        var dl = card.appendChild(make("dl"));
        c.figures.forEach(function (f) { dl.appendChild(make("dt", f.term)); dl.appendChild(make("dd", f.value)); });
        card.appendChild(make("p")).appendChild(make("a", "See this row in the " + gpu + " table", { href: "#" + c.anchor }));
      });
      if (limit === null) return "";
      if (budgets) {
        chosen = make("tr", null, { "class": "chosen" });
        var th = chosen.appendChild(make("th", "≤ " + limit + " (chosen)", { scope: "row", "class": "num" }));
        th.dataset.limit = String(limit);
        data.gpus.forEach(function (g) {
          var c = pick(g.candidates, limit), td = chosen.appendChild(make("td"));
          if (c) td.appendChild(make("a", c.budget, { href: "#" + c.anchor })); else td.textContent = none(limit);
        });
        budgets.tBodies[0].insertBefore(chosen, budgets.tBodies[0].firstChild);
      }
      return found + " of " + cards.length + " GPUs have a configuration within " + limit + " " + data.unit + ".";
    };
  }

  var show = board ? leaderboard() : modelPage();

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
