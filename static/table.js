// energyboard: the column chooser keeps its choice in the address
// (?cols=a,b; without this script its boxes work by CSS alone), then
// click-to-sort, filters and compare.
(function () {
  "use strict";
  var box = document.getElementById("cols");
  if (!box) return;
  var boxes = [].slice.call(box.querySelectorAll("input[name=cols]"));
  var given = new URLSearchParams(location.search).get("cols");
  if (given !== null) {
    var want = given.split(",");
    boxes.forEach(function (b) { b.checked = want.indexOf(b.value) >= 0; });
  }
  box.addEventListener("change", function () {
    var p = new URLSearchParams(location.search);
    if (boxes.every(function (b) { return b.checked === b.defaultChecked; })) p.delete("cols");
    else p.set("cols", boxes.filter(function (b) { return b.checked; }).map(function (b) { return b.value; }).join(","));
    var q = p.toString().replace(/%2C/g, ",");
    history.replaceState(null, "", location.pathname + (q ? "?" + q : "") + location.hash);
  });
})();

// energyboard: click-to-sort and filters for the leaderboard table.
// Progressive enhancement: without this script the table is complete, in
// its default order.
(function () {
  "use strict";
  var table = document.querySelector("table.sortable");
  if (!table) return;
  var tbody = table.tBodies[0];
  var rows = Array.prototype.slice.call(tbody.rows);
  var heads = Array.prototype.slice.call(table.tHead.rows[0].cells);
  var col = function (key) { return heads.findIndex(function (h) { return h.dataset.key === key; }); };
  var gpuAt = col("gpu"), archAt = col("architecture");
  // Each row's GPU and architecture for the filters (and the limit's table).
  rows.forEach(function (r, i) {
    r.dataset.order = String(i);
    if (gpuAt >= 0) r.dataset.gpu = r.cells[gpuAt].textContent.trim();
    if (archAt >= 0) r.dataset.arch = r.cells[archAt].textContent.trim();
  });

  function value(row, col) {
    var cell = row.cells[col];
    if (!cell) return "";
    // A figure's raw value is data-v where the text rounds it; else the
    // text is the value itself.
    var v = cell.getAttribute("data-v");
    if (v !== null) return parseFloat(v);
    var t = cell.textContent.trim();
    if (heads[col].classList.contains("num") && /^-?[\d,]*\.?\d+$/.test(t)) return parseFloat(t.replace(/,/g, ""));
    return t.toLowerCase();
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
  // The column the table is sorted by as built carries aria-sort.
  heads.forEach(function (h) { if (h.getAttribute("aria-sort") === "ascending") h.querySelector("button.sort").textContent = "▲"; });

  // Each row's headline energy, for the energy budget and the summary.
  var headline = heads.findIndex(function (h) { return h.getAttribute("aria-sort") === "ascending"; });
  function energies() { rows.forEach(function (r) { if (headline >= 0) r.dataset.e = String(value(r, headline)); }); }
  energies();

  // Filters: GPU, architecture and an energy budget, kept in the address
  // (?gpu=H100&arch=MoE&budget=30). A latency limit (limit.js) changes the
  // rows' cells, marks the rows with none within it (data-out) and fires
  // "rows"; the order, the filters and the summary then follow.
  var form = document.querySelector("form.filters");
  var lowest = document.getElementById("lowest"), lowestText = lowest ? lowest.textContent : "";
  var unit = headline >= 0 ? (heads[headline].querySelector(".unit") || {}).textContent || "" : "";
  function summary(shown, narrowed) {
    if (!lowest) return;
    var limit = table.dataset.limit || "";
    if (!narrowed && !limit) { lowest.textContent = lowestText; return; }
    var top = null;
    shown.forEach(function (r) { if (!top || Number(r.dataset.e) < Number(top.dataset.e)) top = r; });
    var name = top && top.cells[0].querySelector("a");
    lowest.textContent = top
      ? " Lowest shown" + (limit ? " within " + limit : "") + ": " + (name || top.cells[0]).textContent.trim() + " on " + top.dataset.gpu + ", " + top.cells[headline].textContent.trim() + " " + unit + "."
      : " No row shown" + (limit ? " has a configuration within " + limit : "") + ".";
  }
  table.addEventListener("rows", function () {
    energies();
    var at = heads.findIndex(function (h) { return h.hasAttribute("aria-sort"); });
    if (at >= 0) sortBy(at, heads[at].getAttribute("aria-sort"));
    apply();
  });
  if (form) form.hidden = false;
  var out = form && form.querySelector("output");
  var names = form ? ["gpu", "arch", "budget"].filter(function (n) { return form.elements[n]; }) : [];
  var start = new URLSearchParams(location.search);
  names.forEach(function (n) { if (start.get(n) !== null) form.elements[n].value = start.get(n); });
  function apply() {
    var f = form ? form.elements : {};
    var gpu = f.gpu ? f.gpu.value : "", arch = f.arch ? f.arch.value : "";
    var budget = f.budget ? parseFloat(f.budget.value) : NaN, shown = [], more = 0;
    // A page of several sources shows one alone with #only-<source>
    // (CSS hides the others' rows): count only that source's.
    var only = /^#only-([a-z0-9-]+)$/.exec(location.hash);
    rows.forEach(function (r) {
      var ok = (!gpu || r.dataset.gpu === gpu) && (!arch || r.dataset.arch === arch) && !(Number(r.dataset.e) > budget);
      if (ok && r.dataset.out) more += 1;
      r.hidden = !ok || !!r.dataset.out;
      if (!r.hidden && (!only || r.classList.contains("from-" + only[1]))) shown.push(r);
    });
    var limit = table.dataset.limit || "";
    if (out) out.textContent = shown.length + " of " + rows.length + " rows shown" +
      (!limit ? "" : more ? "; " + more + " more match but have no configuration within " + limit : "; all within " + limit);
    summary(shown, !!(gpu || arch || !isNaN(budget)));
    if (!form) return;
    var p = new URLSearchParams(location.search);
    names.forEach(function (n) { if (form.elements[n].value) p.set(n, form.elements[n].value); else p.delete(n); });
    var q = p.toString().replace(/%2C/g, ",");
    history.replaceState(null, "", location.pathname + (q ? "?" + q : "") + location.hash);
  }
  if (!form) return;
  window.addEventListener("hashchange", apply);
  form.addEventListener("change", apply);
  form.addEventListener("submit", function (e) { e.preventDefault(); apply(); });
  apply();
})();

// Compare in one click: + on a row adds its model; the link above the
// table opens compare/?models=a,b; the address keeps them (?compare=).
(function () {
  "use strict";
  var table = document.getElementById("leaderboard");
  if (!table) return;
  var chosen = (new URLSearchParams(location.search).get("compare") || "").split(",").filter(Boolean);
  var bar = document.createElement("p");
  bar.className = "compare-bar";
  bar.setAttribute("aria-live", "polite");
  var go = document.createElement("a");
  var clear = document.createElement("button");
  clear.type = "button";
  clear.textContent = "Clear";
  var note = document.createElement("span");
  bar.appendChild(note);
  bar.appendChild(go);
  bar.appendChild(clear);
  table.parentNode.parentNode.insertBefore(bar, table.parentNode);
  function slugOf(row) {
    var a = row.cells[0] && row.cells[0].querySelector("a");
    var m = a && /models\/([^/]+)\//.exec(a.getAttribute("href"));
    return m ? m[1] : null;
  }
  var buttons = [];
  [].forEach.call(table.tBodies[0].rows, function (row) {
    var slug = slugOf(row);
    if (!slug) return;
    var name = row.cells[0].textContent.trim();
    var b = document.createElement("button");
    b.type = "button";
    b.className = "add";
    b.dataset.slug = slug;
    b.textContent = "+";
    b.title = "Add " + name + " to the comparison";
    b.setAttribute("aria-label", "Compare " + name);
    b.addEventListener("click", function () {
      var i = chosen.indexOf(slug);
      if (i >= 0) chosen.splice(i, 1); else chosen.push(slug);
      update();
    });
    row.cells[0].insertBefore(b, row.cells[0].firstChild);
    buttons.push(b);
  });
  clear.addEventListener("click", function () { chosen = []; update(); });
  function update() {
    buttons.forEach(function (b) {
      var on = chosen.indexOf(b.dataset.slug) >= 0;
      b.setAttribute("aria-pressed", String(on));
      b.textContent = on ? "✓" : "+";
    });
    var n = chosen.length;
    note.textContent = n ? "" : "Press + on a row to add its model to a comparison.";
    bar.classList.toggle("empty", !n);
    go.hidden = clear.hidden = !n;
    go.textContent = "Compare " + n + " model" + (n === 1 ? "" : "s") + " →";
    go.href = "compare/index.html?models=" + chosen.join(",");
    var p = new URLSearchParams(location.search);
    if (n) p.set("compare", chosen.join(",")); else p.delete("compare");
    var q = p.toString().replace(/%2C/g, ",");
    history.replaceState(null, "", location.pathname + (q ? "?" + q : "") + location.hash);
  }
  update();
})();

// A model page's filters: a GPU (its card, its column of the table of
// limits, its table of configurations) and an energy budget (the
// configurations above it hidden), kept in the address (?gpu=H100&budget=40).
// Without this script the page shows every GPU and configuration.
(function () {
  "use strict";
  var form = document.getElementById("page-filters");
  if (!form) return;
  form.hidden = false;
  var out = form.querySelector("output");
  var names = ["gpu", "budget"].filter(function (n) { return form.elements[n]; });
  var style = document.head.appendChild(document.createElement("style"));
  var ladder = document.getElementById("budgets");
  var parts = [].slice.call(document.querySelectorAll("#configurations h3[id^='configs-']")).map(function (h) {
    var wrap = h.nextElementSibling, table = wrap && wrap.querySelector("table");
    var at = table ? [].findIndex.call(table.tHead.rows[0].cells, function (c) { return c.dataset.key === form.dataset.key; }) : -1;
    return { seg: h.id.slice(8), h: h, wrap: wrap, table: table, at: at };
  });
  var start = new URLSearchParams(location.search);
  names.forEach(function (n) { if (start.get(n) !== null) form.elements[n].value = start.get(n); });
  function apply() {
    var sel = form.elements.gpu, opt = sel && sel.selectedIndex > 0 ? sel.options[sel.selectedIndex] : null;
    var seg = opt ? opt.dataset.seg : "";
    var budget = form.elements.budget ? parseFloat(form.elements.budget.value) : NaN;
    var css = "";
    document.querySelectorAll("#best .card").forEach(function (c) { c.hidden = !!seg && c.id !== "gpu-" + seg; });
    if (ladder && seg) [].forEach.call(ladder.tHead.rows[0].cells, function (c, i) {
      if (i > 0 && c.dataset.key !== seg) css += "#budgets tr>:nth-child(" + (i + 1) + "){display:none}";
    });
    style.textContent = css;
    var shown = 0, total = 0;
    parts.forEach(function (p) {
      var on = !seg || p.seg === seg;
      p.h.hidden = !on;
      if (p.wrap) p.wrap.hidden = !on;
      if (!p.table) return;
      [].forEach.call(p.table.tBodies, function (tb) {
        var left = 0;
        [].forEach.call(tb.rows, function (r) {
          if (r.classList.contains("group")) return;
          if (on) total += 1;
          var v = p.at >= 0 ? Number(r.cells[p.at].textContent.replace(/,/g, "")) : NaN;
          r.hidden = v > budget;
          if (!r.hidden) { left += 1; if (on) shown += 1; }
        });
        tb.hidden = !left;
      });
    });
    if (out) out.textContent = (seg || !isNaN(budget))
      ? shown + " of " + total + (seg ? " " + opt.value : "") + " configurations shown" + (isNaN(budget) ? "" : ", at most " + budget + " " + (form.querySelector(".unit") || {}).textContent)
      : "";
    var p = new URLSearchParams(location.search);
    names.forEach(function (n) { if (form.elements[n].value) p.set(n, form.elements[n].value); else p.delete(n); });
    var q = p.toString();
    history.replaceState(null, "", location.pathname + (q ? "?" + q : "") + location.hash);
  }
  form.addEventListener("change", apply);
  form.addEventListener("submit", function (e) { e.preventDefault(); apply(); });
  apply();
})();

// Copy a link, on a model page: a button beside the title, on each best
// card and under each chart copies the absolute address of the page, card
// or chart (the canonical address when the site has a base URL, else the
// page's own; the page and cards by the current version's permanent page),
// with the reader's choices (?itl=, ?gpu=) kept, and says
// "Link copied". Without this script each card and chart keeps its id, so
// its address is still the page's with #gpu-h100 or #chart-... added.
(function () {
  "use strict";
  var best = document.getElementById("best");
  if (!best || !best.querySelector(".cards")) return;
  var canonical = document.querySelector("link[rel=canonical]");
  var page = canonical ? canonical.href : location.href.split("#")[0].split("?")[0];
  // The page and its cards are cited by the current version's permanent
  // page (#versions' data-permalink, v/<date>/), which keeps today's
  // figures after newer imports. With the reader's choices (?itl=, ?gpu=),
  // which only the live page has, and for its charts, the live page's.
  var versions = document.querySelector("#versions[data-permalink]");
  var permanent = versions ? new URL(versions.getAttribute("data-permalink"), page).href : page;
  function address(id, live) {
    var base = live || location.search ? page : permanent;
    return base + location.search + (id ? "#" + id : "");
  }
  // A build without a base URL cites the page by its path: the reader's
  // copy of the entry gets the address of the version it cites.
  var bib = document.querySelector("#cite pre code");
  if (bib && !canonical) bib.textContent = bib.textContent.replace(/(url\s*=\s*\{)([^}]*)(\})/, function (_, a, b, c) { return a + address("") + c; });
  function copy(text) {
    if (navigator.clipboard && window.isSecureContext) return navigator.clipboard.writeText(text);
    var area = document.createElement("textarea");
    area.value = text;
    area.setAttribute("readonly", "");
    area.style.position = "fixed";
    area.style.opacity = "0";
    document.body.appendChild(area);
    area.select();
    var done = document.execCommand("copy");
    area.remove();
    return done ? Promise.resolve() : Promise.reject(new Error("copy refused"));
  }
  var said = document.createElement("span");
  said.className = "said";
  said.setAttribute("aria-live", "polite");
  document.body.appendChild(said);
  function button(what, id, place, live) {
    var b = document.createElement("button");
    b.type = "button";
    b.className = "copy-link";
    b.textContent = "Copy link";
    b.setAttribute("aria-label", "Copy link to " + what);
    b.addEventListener("click", function () {
      var url = address(id, live);
      copy(url).then(function () {
        b.textContent = "Link copied";
        said.textContent = "Link to " + what + " copied: " + url;
      }, function () {
        b.textContent = "Copy failed";
        said.textContent = "Could not copy; the link is " + url;
      });
      setTimeout(function () { b.textContent = "Copy link"; }, 4000);
    });
    place(b);
  }
  var crumbs = document.querySelector("main .crumbs");
  if (crumbs) button("this page", "", function (b) { crumbs.appendChild(document.createTextNode(" ")); crumbs.appendChild(b); });
  [].forEach.call(best.querySelectorAll(".card[id]"), function (card) {
    var h = card.querySelector("h3");
    button("the " + (h ? h.textContent.trim() : card.id) + " card", card.id, function (b) { card.insertBefore(b, card.firstChild); });
  });
  [].forEach.call(document.querySelectorAll("figure.chart[id]"), function (fig) {
    var strong = fig.querySelector("figcaption strong");
    var at = fig.querySelector(".chart-file") || fig;
    button("the chart " + (strong ? strong.textContent.replace(/\.$/, "") : fig.id), fig.id, function (b) { at.appendChild(document.createTextNode(" ")); at.appendChild(b); }, true);
  });
})();
