// The all-configurations scatter's script, inlined into the SVG by
// chart::site (include_str!). It runs when the chart is its own document
// (an <iframe>, or opened alone; never in an <img>).
//
// The address's fragment, e.g. `#gpu=H100&arch=MoE&limit=50&budget=30&theme=dark`,
// which the leaderboard sets from its own filters (`?gpu=`, `?arch=`,
// `?itl=`, `?budget=`) and theme switch, hides the points outside the
// reader's choice (class `out` on each point's link, whose classes
// `gpu-<gpu>` and `arch-<architecture>` and figures `data-latency` and
// `data-energy` the chart states), draws the latency limit (a vertical
// line) and energy budget (a horizontal line), each labelled with its
// value, and sets the chart's theme. Without it the chart shows every
// point and the deadline only.
//
// Hovering, focusing or tapping a point shows its figures in a box with a
// link to its row; a second tap (or Enter) on the same point follows its
// own link. Without script each point keeps its tooltip and link.
//
// On a model page's time–energy chart each point names its row
// (`data-row`): shown in a frame, the chart tells the page the row a
// point's figures show (`{chosen: row}`, which picks the histogram the
// page shows), and its link asks the page to go to that row
// (`{chosen: row, go: true}`) instead of loading the page again.
(function () {
  var doc = document;
  var root = doc.documentElement;
  var layer = doc.getElementById("reader");
  var SVG_NS = "http://www.w3.org/2000/svg";
  if (!layer || !window.URLSearchParams) return;

  // An axis as the chart states it on the layer: its first and last pixel,
  // then the values there (both axes are logarithmic).
  function axis(name) {
    return layer.getAttribute(name).split(" ").map(Number);
  }

  // The pixel of value `v` on axis `a`, or null when it is off the axis.
  function pixelOf(a, v) {
    var f = (Math.log(v) - Math.log(a[2])) / (Math.log(a[3]) - Math.log(a[2]));
    return f >= 0 && f <= 1 ? Math.round(a[0] + f * (a[1] - a[0])) : null;
  }

  function add(tag, attrs, text) {
    var e = doc.createElementNS(SVG_NS, tag);
    for (var k in attrs) e.setAttribute(k, attrs[k]);
    if (text) e.textContent = text;
    layer.appendChild(e);
  }

  function draw() {
    var hash = new URLSearchParams(location.hash.slice(1));
    var X = axis("data-x");
    var Y = axis("data-y");
    var theme = hash.get("theme");
    if (theme === "light" || theme === "dark") {
      root.setAttribute("data-theme", theme);
      root.style.colorScheme = theme;
    } else {
      root.removeAttribute("data-theme");
      root.style.colorScheme = "";
    }
    while (layer.firstChild) layer.removeChild(layer.firstChild);

    // A positive number from the fragment, or null.
    function number(key) {
      var v = Number(hash.get(key));
      return hash.get(key) && isFinite(v) && v > 0 ? v : null;
    }
    var limit = number("limit");
    var budget = number("budget");
    var x, y;
    if (limit !== null && (x = pixelOf(X, limit)) !== null) {
      add("line", {
        "class": "a", "stroke-width": 2, "stroke-dasharray": "2 3",
        x1: x, y1: Y[0], x2: x, y2: Y[1]
      });
      var left = x - X[0] > (X[1] - X[0]) / 2;
      add("text", {
        "class": "l", "font-size": 13, dy: "0.5ex", "text-anchor": left ? "end" : "start",
        x: left ? x - 6 : x + 6, y: Y[1] + 30
      }, "your limit " + limit + " " + layer.getAttribute("data-ux"));
    }
    if (budget !== null && (y = pixelOf(Y, budget)) !== null) {
      add("line", {
        "class": "a", "stroke-width": 2, "stroke-dasharray": "2 3",
        x1: X[0], y1: y, x2: X[1], y2: y
      });
      add("text", {
        "class": "l", "font-size": 13, dy: "0.5ex",
        x: X[0] + 6, y: y - Y[1] < 24 ? y + 12 : y - 12
      }, "your budget " + budget + " " + layer.getAttribute("data-uy"));
    }
  }

  // The lower-case, hyphenated form of a name, as the chart's classes
  // carry it (model::url_segment).
  function segment(name) {
    return name.split(/[^A-Za-z0-9]+/).filter(Boolean).join("-").toLowerCase();
  }

  var points = Array.prototype.slice.call(doc.querySelectorAll("a.pt"));

  function filter() {
    var hash = new URLSearchParams(location.hash.slice(1));
    var gpu = hash.get("gpu"), arch = hash.get("arch");
    var limit = Number(hash.get("limit")), budget = Number(hash.get("budget"));
    points.forEach(function (p) {
      var out = (gpu && !p.classList.contains("gpu-" + segment(gpu))) ||
        (arch && !p.classList.contains("arch-" + segment(arch))) ||
        (hash.get("limit") && limit > 0 && Number(p.getAttribute("data-latency")) > limit) ||
        (hash.get("budget") && budget > 0 && Number(p.getAttribute("data-energy")) > budget);
      p.classList.toggle("out", !!out);
    });
    if (shown && shown.classList.contains("out")) hide();
  }

  // Tells the page around the chart the row of point `p`, when it names
  // one and the chart is in a frame; whether it did.
  function tell(p, go) {
    var row = p.getAttribute("data-row");
    if (!row || window.parent === window) return false;
    window.parent.postMessage({ chosen: row, go: go }, "*");
    return true;
  }

  // The box of figures: the point's model, setup and figures (its
  // tooltip's three parts) and a link to its row.
  var box = null, shown = null;
  function hide() {
    if (box) box.parentNode.removeChild(box);
    box = null;
    shown = null;
  }
  function show(p) {
    if (shown === p) return;
    hide();
    var title = p.querySelector("title").textContent;
    var first = title.indexOf(": "), last = title.lastIndexOf(": ");
    var lines = [title.slice(0, first), title.slice(first + 2, last), title.slice(last + 2)];
    box = doc.createElementNS(SVG_NS, "g");
    box.setAttribute("class", "tip");
    box.setAttribute("role", "status");
    var rect = doc.createElementNS(SVG_NS, "rect");
    rect.setAttribute("class", "tipbox");
    rect.setAttribute("rx", 4);
    box.appendChild(rect);
    var texts = lines.map(function (line, i) {
      var t = doc.createElementNS(SVG_NS, "text");
      t.setAttribute("class", "t");
      t.setAttribute("font-size", 13);
      if (i === 0) t.setAttribute("font-weight", "bold");
      t.textContent = line;
      box.appendChild(t);
      return t;
    });
    var link = doc.createElementNS(SVG_NS, "a");
    link.setAttribute("href", p.getAttribute("href"));
    link.setAttribute("target", "_top");
    var go = doc.createElementNS(SVG_NS, "text");
    go.setAttribute("class", "t tiplink");
    go.setAttribute("font-size", 13);
    go.textContent = "Go to its row \u203a";
    link.appendChild(go);
    link.addEventListener("click", function (e) {
      if (tell(p, true)) e.preventDefault();
    });
    box.appendChild(link);
    texts.push(go);
    root.appendChild(box);
    var width = 0;
    texts.forEach(function (t) { width = Math.max(width, t.getComputedTextLength()); });
    width += 16;
    var height = texts.length * 18 + 10;
    var view = root.viewBox.baseVal, at = p.getBBox();
    var x = at.x + at.width / 2 + 12, y = at.y + at.height / 2 + 12;
    if (x + width > view.width - 4) x = Math.max(4, at.x - width - 12);
    if (y + height > view.height - 4) y = Math.max(4, at.y - height - 12);
    rect.setAttribute("x", x);
    rect.setAttribute("y", y);
    rect.setAttribute("width", width);
    rect.setAttribute("height", height);
    texts.forEach(function (t, i) {
      t.setAttribute("x", x + 8);
      t.setAttribute("y", y + 22 + 18 * i);
    });
    shown = p;
    tell(p, false);
  }

  // A press focuses the link too: the focus then waits for the click.
  var pressed = false;
  points.forEach(function (p) {
    p.addEventListener("pointerdown", function () { pressed = true; });
    p.addEventListener("click", function (e) {
      pressed = false;
      // The first tap shows the figures; a second follows the link.
      if (shown !== p) {
        e.preventDefault();
        show(p);
      } else if (tell(p, true)) {
        e.preventDefault();
      }
    });
    p.addEventListener("focus", function () { if (!pressed) show(p); });
    // A mouse shows the figures on hover, so its click follows the link.
    p.addEventListener("pointerenter", function (e) {
      if (e.pointerType === "mouse") show(p);
    });
  });
  doc.addEventListener("keydown", function (e) {
    if (e.key === "Escape") hide();
  });
  root.addEventListener("click", function (e) {
    if (!e.target.closest || (!e.target.closest("a.pt") && !e.target.closest(".tip"))) hide();
  });

  draw();
  filter();
  window.addEventListener("hashchange", function () {
    draw();
    filter();
  });
})();
