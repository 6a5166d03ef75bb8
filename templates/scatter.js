// The all-configurations scatter's script, inlined into the SVG by
// chart::site (include_str!). It runs when the chart is its own document
// (an <iframe>, or opened alone; never in an <img>).
//
// The address's fragment, e.g. `#limit=50&budget=30&theme=dark`, which the
// leaderboard sets from its own `?itl=`, `?budget=` and theme switch, draws
// the reader's latency limit (a vertical line) and energy budget (a
// horizontal line), each labelled with its value, and sets the chart's
// theme. Without it the chart shows the deadline only.
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

  draw();
  window.addEventListener("hashchange", draw);
})();
