// energyboard: the compare page keeps the reader's choice of models and
// GPUs in its address (?models=a,b&gpus=h100), so a link opens the same
// comparison. Without this script the checkboxes still show and hide the
// models (CSS :has()), starting from the lowest-energy ones.
(function () {
  "use strict";
  var box = document.getElementById("pick");
  if (!box) return;
  var all = function (name) { return [].slice.call(box.querySelectorAll("input[name=" + name + "]")); };
  var models = all("models"), gpus = all("gpus");
  var hint = document.getElementById("pick-link");
  if (hint) hint.hidden = false;
  var params = new URLSearchParams(location.search);
  function take(list, name) {
    var v = params.get(name);
    if (v === null) return;
    var want = v.split(",");
    list.forEach(function (b) { b.checked = want.indexOf(b.value) >= 0; });
  }
  take(models, "models");
  take(gpus, "gpus");
  function values(list) {
    return list.filter(function (b) { return b.checked; }).map(function (b) { return b.value; }).join(",");
  }
  var tools = document.getElementById("pick-tools");
  function every(on) {
    models.forEach(function (b) { b.checked = on; });
    box.dispatchEvent(new Event("change"));
  }
  if (tools) {
    tools.hidden = false;
    document.getElementById("pick-clear").addEventListener("click", function () { every(false); });
    document.getElementById("pick-all").addEventListener("click", function () { every(true); });
  }
  // Each chart's own legend: the chosen models it draws, with their marks.
  var charts = [].slice.call(document.querySelectorAll("figure.chart .chart-inline"));
  var legends = [];
  function drawLegend() {
    charts.forEach(function (chart, n) {
      if (!legends[n]) {
        legends[n] = document.createElement("ul");
        legends[n].className = "legend";
        legends[n].setAttribute("aria-label", "Legend: the models shown");
        chart.parentNode.insertBefore(legends[n], chart);
      }
      var legend = legends[n];
      legend.textContent = "";
      // A model of a source the page's filter (#only-<source>) hides is
      // not drawn either.
      var only = /^#only-([a-z0-9-]+)$/.exec(location.hash);
      models.filter(function (b) {
        return b.checked && (!only || b.closest(".from-" + only[1])) && chart.querySelector(".m" + b.id.replace("pick-", ""));
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
  drawLegend();
  box.addEventListener("change", drawLegend);
  window.addEventListener("hashchange", drawLegend);
  box.addEventListener("change", function () {
    var p = new URLSearchParams(location.search);
    p.set("models", values(models));
    if (gpus.every(function (b) { return b.checked; })) p.delete("gpus"); else p.set("gpus", values(gpus));
    history.replaceState(null, "", location.pathname + "?" + p.toString().replace(/%2C/g, ",") + location.hash);
  });
})();
