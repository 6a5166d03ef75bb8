//! The five charts of a model page.

use std::fmt::Write as _;

use plotters::element::Circle;
use plotters::style::Color;

use super::axis::{Axis, min_max};
use super::draw::{self, Draw, Frame, Header, Key, Plot, RING, TEXT_PX};
use super::layout::{self, Rect};
use super::style::Role;
use super::{Chart, DataTable, svg};
use crate::analyse::ModelAnalysis;
use crate::columns::{Words, tokens};
use crate::fmt;
use crate::model::{Configuration, ModelFile, row_anchor, url_segment};
use crate::model::{ITL_PERCENTILES, Measure, Percentile};
use crate::select::GpuBest;

/// Height of an x–y chart below its header.
const BODY: i32 = 340;
/// Height of each panel's plot when a chart is split into panels.
const PANEL_BODY: i32 = 270;
/// Most series one panel draws: past it, a chart is split into one panel
/// per GPU (and a GPU with more series into several), on shared axes.
pub const MAX_SERIES: usize = 8;

/// One panel of a chart: its name (empty when the chart has one panel)
/// and its series, by index into the analysis' curves.
struct Panel {
    name: String,
    series: Vec<usize>,
}

/// The panels of a chart of `gpu_of` series (each series' GPU): one when
/// there are at most [`MAX_SERIES`]; else one per GPU in order of first
/// appearance, a GPU with more series split evenly into several.
fn panels(gpu_of: &[&str]) -> Vec<Panel> {
    if gpu_of.len() <= MAX_SERIES {
        return vec![Panel {
            name: String::new(),
            series: (0..gpu_of.len()).collect(),
        }];
    }
    let mut out = Vec::new();
    for (k, &gpu) in gpu_of.iter().enumerate() {
        if gpu_of[..k].contains(&gpu) {
            // Its panels are made at its first appearance.
            continue;
        }
        let series: Vec<usize> = (0..gpu_of.len()).filter(|&s| gpu_of[s] == gpu).collect();
        let parts = series.len().div_ceil(MAX_SERIES);
        let size = series.len().div_ceil(parts);
        for (k, chunk) in series.chunks(size).enumerate() {
            let name = if parts == 1 {
                gpu.to_owned()
            } else {
                format!("{gpu} ({} of {parts})", k + 1)
            };
            out.push(Panel {
                name,
                series: chunk.to_vec(),
            });
        }
    }
    out
}

/// A model with its analysis and, per configuration, its series and whether
/// it is the first run at its load in that series.
struct Ctx<'a> {
    m: &'a ModelFile,
    words: &'static Words,
    a: &'a ModelAnalysis,
    series_of: Vec<usize>,
    first_run: Vec<bool>,
    panels: Vec<Panel>,
    /// Per series, its index within its panel: its colour, marker and dash.
    style_of: Vec<usize>,
}

impl<'a> Ctx<'a> {
    fn new(m: &'a ModelFile, a: &'a ModelAnalysis) -> Self {
        let n = m.configurations.len();
        let mut series_of = vec![0; n];
        let mut first_run = vec![true; n];
        for (si, s) in a.curves.iter().enumerate() {
            let mut seen = Vec::new();
            for &i in &s.points {
                series_of[i] = si;
                let seqs = m.configurations[i].load();
                first_run[i] = !seen.contains(&seqs);
                seen.push(seqs);
            }
        }
        let gpu = |i: &usize| m.configurations[*i].gpu.as_str();
        let gpu_of: Vec<&str> = a
            .curves
            .iter()
            .map(|s| s.points.first().map_or("", gpu))
            .collect();
        let panels = panels(&gpu_of);
        let mut style_of = vec![0; a.curves.len()];
        for p in &panels {
            for (j, &si) in p.series.iter().enumerate() {
                style_of[si] = j;
            }
        }
        Ctx {
            m,
            words: Words::of(m.measure()),
            a,
            series_of,
            first_run,
            panels,
            style_of,
        }
    }

    /// Whether configuration `i` misses the deadline (drawn faded).
    fn over(&self, i: usize) -> bool {
        self.c(i).latency() > self.m.deadline()
    }

    /// Panel `k`'s configurations in drawing order, each with its series' style index.
    fn ordered_in(&self, k: usize) -> impl Iterator<Item = (usize, usize)> + '_ {
        self.panels[k].series.iter().flat_map(move |&si| {
            self.a.curves[si]
                .points
                .iter()
                .map(move |&i| (self.style_of[si], i))
        })
    }

    /// The chart's legend and the panels' headers. Each series has a key,
    /// with a line sample when it is drawn with `lines` (a chart without
    /// them draws the Pareto frontier). The keys every panel shares:
    /// repeated runs, the `spread` of the latency, the frontier, the faded
    /// markers over the deadline, the best ring. With one panel, every key
    /// is in the chart's header; with several, the shared ones are there
    /// and each panel's series in its own header. A `wide` chart
    /// ([`draw::WIDE`]) has its header's keys in a column beside the plot.
    fn legend(&self, title: &str, lines: bool, spread: bool, wide: bool) -> (Header, Vec<Header>) {
        let header = |keys: Vec<Key>| {
            if wide {
                Header::beside(title, keys, draw::WIDE)
            } else {
                Header::new(title, keys)
            }
        };
        let series_keys = |p: &Panel| -> Vec<Key> {
            p.series
                .iter()
                .map(|&si| {
                    let (j, label) = (self.style_of[si], self.a.curves[si].label.clone());
                    Key::Series {
                        idx: j,
                        label,
                        line: lines,
                        open: false,
                    }
                })
                .collect()
        };
        let over = (0..self.m.configurations.len())
            .any(|i| self.over(i))
            .then(|| {
                let unit = self.words.latency_unit;
                Key::Over(format!(
                    "over the {} {unit} deadline (faded)",
                    self.deadline()
                ))
            });
        let shared = [
            self.first_run.iter().any(|f| !f).then_some(Key::Repeat),
            spread.then_some(Key::Spread),
            (!lines).then_some(Key::Frontier),
            over,
            self.a
                .best_per_gpu
                .iter()
                .any(|b| b.best.is_some())
                .then_some(Key::Best),
        ];
        let shared = shared.into_iter().flatten();
        if self.panels.len() == 1 {
            let keys = series_keys(&self.panels[0])
                .into_iter()
                .chain(shared)
                .collect();
            (header(keys), Vec::new())
        } else {
            let heads = self
                .panels
                .iter()
                .map(|p| Header::panel(&p.name, series_keys(p)))
                .collect();
            (header(shared.collect()), heads)
        }
    }

    /// The plot height of each panel.
    fn body(&self) -> i32 {
        if self.panels.len() == 1 {
            BODY
        } else {
            PANEL_BODY
        }
    }

    fn c(&self, i: usize) -> &Configuration {
        &self.m.configurations[i]
    }

    fn label(&self, i: usize) -> &str {
        &self.a.curves[self.series_of[i]].label
    }

    /// The deadline's number, e.g. "500".
    fn deadline(&self) -> String {
        fmt::limit_ms(self.m.deadline())
    }

    /// "B200 ×1 at 384: 39.05 Wh/M; no H100 setup meets the deadline".
    fn best_list(&self, value: impl Fn(&Configuration) -> String) -> String {
        self.a
            .best_per_gpu
            .iter()
            .map(|GpuBest { gpu, best }| match best {
                Some(i) => format!(
                    "{} at {}, {}",
                    self.label(*i),
                    (self.words.load_phrase)(self.c(*i).load()),
                    value(self.c(*i))
                ),
                None => format!("no {gpu} setup meets it"),
            })
            .collect::<Vec<_>>()
            .join("; ")
    }

    /// A chart's data table: each configuration in drawing order (series
    /// by series, each by load then run) with its setup, load and run, the
    /// `figures` (headed `headers`) and whether it is marked best.
    fn table(&self, headers: Vec<String>, figures: impl Fn(usize) -> Vec<String>) -> DataTable {
        let mut all = vec![
            "GPU setup".to_owned(),
            self.words.load_axis.to_owned(),
            "Run".to_owned(),
        ];
        all.extend(headers);
        all.push("Marked best (lowest energy within deadline)".to_owned());
        let rows = self.a.curves.iter().flat_map(|s| &s.points).map(|&i| {
            let c = self.c(i);
            let mut row = vec![
                self.label(i).to_owned(),
                c.load().to_string(),
                c.repeat.to_string(),
            ];
            row.extend(figures(i));
            row.push(if self.a.is_best(i) {
                format!("best on {}", c.gpu)
            } else {
                String::new()
            });
            row
        });
        DataTable {
            headers: all,
            rows: rows.collect(),
        }
    }
}

/// How one measured quantity is charted against the load.
struct Metric {
    file: String,
    what: String,
    axis: String,
    unit: String,
    value: fn(&Configuration) -> f64,
    format: fn(f64) -> String,
    kind: Kind,
}

/// Which quantity a chart against the load shows: sets its scale and description.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// Log when the values span more than 10×, else linear from zero.
    Energy,
    /// Log, with the deadline (and p90/p99 where the data has them).
    Latency,
    /// Linear from zero.
    Throughput,
    /// Linear from zero.
    Power,
}

/// p90 and p99 of the latency, drawn above the median, where the data have
/// them ([`Configuration::itl_percentiles`]).
fn percentiles(c: &Configuration) -> Option<(f64, f64)> {
    c.itl_percentiles().map(|[p90, _, p99]| (p90, p99))
}

/// The four charts against the load of a model's page, in page order, in
/// the words of its kind: energy, latency, throughput and power against
/// the concurrency or the batch size.
fn metrics(m: &ModelFile) -> [Metric; 4] {
    type Value = fn(&Configuration) -> f64;
    let w = Words::of(m.measure());
    let load = w.load_short;
    let file = |what: &str| format!("{what}-vs-{}.svg", url_segment(load));
    let (latency, rate_axis, rate_unit, rate, rate_format): (_, _, _, Value, fn(f64) -> String) =
        match m.measure() {
            Measure::Tokens => (
                "inter-token latency",
                "Throughput (output tokens/s)".to_owned(),
                tokens::TOKENS_PER_SECOND.unit.to_owned(),
                |c| c.tokens_per_second.unwrap_or(f64::NAN),
                fmt::grouped,
            ),
            Measure::Diffusion(kind) => (
                "batch latency",
                format!("Throughput ({}/s)", kind.items()),
                format!("{}/s", kind.items()),
                |c| c.items_per_second().unwrap_or(f64::NAN),
                fmt::rate,
            ),
        };
    [
        Metric {
            file: file("energy"),
            what: format!("energy per {} vs {load}", w.item),
            axis: w.energy_axis(),
            unit: w.energy_short.to_owned(),
            value: Configuration::energy,
            format: w.energy_text,
            kind: Kind::Energy,
        },
        Metric {
            file: file("latency"),
            what: format!("{latency} vs {load}"),
            axis: w.latency_axis(),
            unit: w.latency_unit.to_owned(),
            value: Configuration::latency,
            format: w.latency_text,
            kind: Kind::Latency,
        },
        Metric {
            file: file("throughput"),
            what: format!("throughput vs {load}"),
            axis: rate_axis,
            unit: rate_unit,
            value: rate,
            format: rate_format,
            kind: Kind::Throughput,
        },
        Metric {
            file: file("power"),
            what: format!("GPU power vs {load}"),
            axis: "GPU power (W, all GPUs used)".to_owned(),
            unit: "W".to_owned(),
            value: |c| c.gpu_power_watts_total,
            format: fmt::grouped,
            kind: Kind::Power,
        },
    ]
}

/// The description of a chart against the load, in the kind's words.
fn describe(cx: &Ctx<'_>, metric: &Metric, log_note: &str, (lo, hi): (f64, f64)) -> String {
    let (w, name, configs) = (cx.words, &cx.m.name, &cx.m.configurations);
    let per = format!("at each {}, one line per GPU setup", w.load_short);
    let under = configs.iter().filter(|c| c.under_deadline()).count();
    let value = |&i: &usize| (metric.value)(&configs[i]);
    let top = (0..configs.len())
        .max_by(|a, b| value(a).total_cmp(&value(b)))
        .unwrap_or(0);
    match (metric.kind, cx.m.measure()) {
        (Kind::Energy, _) => format!(
            "{} of {name} {per} ({log_note}). Lowest within the {} {} {} deadline: {}.",
            fmt::capitalised(w.energy_per),
            cx.deadline(),
            w.latency_unit,
            w.latency_short,
            cx.best_list(|c| format!("{} {}", (w.energy_text)(c.energy()), w.energy_short))
        ),
        (Kind::Power, _) => format!(
            "Measured GPU power of {name}, summed over the GPUs used, {per} ({log_note}). It \
                ranges from {} to {} W.",
            fmt::grouped(lo),
            fmt::grouped(hi)
        ),
        (Kind::Latency, Measure::Tokens) => format!(
            "Median inter-token latency of {name} at each concurrency, one line per GPU setup, \
                with p90 and p99 above each point ({log_note}). Medians run from {} to {} \
                {latency_unit}; {under} of {} configurations meet the {} {latency_unit} \
                deadline.",
            fmt::ms(lo),
            fmt::ms(hi),
            configs.len(),
            cx.deadline(),
            latency_unit = cx.words.latency_unit,
        ),
        (Kind::Latency, Measure::Diffusion(kind)) => format!(
            "Batch latency of {name}, the time to generate one batch of {}, {per} ({log_note}). \
                It runs from {} to {} s; {under} of {} configurations meet the {} s deadline.",
            kind.items(),
            fmt::seconds(lo),
            fmt::seconds(hi),
            configs.len(),
            cx.deadline()
        ),
        (Kind::Throughput, Measure::Tokens) => format!(
            "Output tokens per second of {name}, all GPUs together, {per} ({log_note}). Highest: \
                {} at {}, {} tokens/s.",
            cx.label(top),
            configs[top].load(),
            fmt::grouped(value(&top))
        ),
        (Kind::Throughput, Measure::Diffusion(kind)) => format!(
            "{} generated per second by {name}, all GPUs together, {per} ({log_note}). Highest: \
                {} at batch size {}, {} {}/s.",
            fmt::capitalised(kind.items()),
            cx.label(top),
            configs[top].load(),
            fmt::rate(value(&top)),
            kind.items()
        ),
    }
}

/// The five charts of a model page, in this order. A per-token model's are
/// `energy-vs-concurrency.svg`, `latency-vs-concurrency.svg`,
/// `throughput-vs-concurrency.svg`, `power-vs-concurrency.svg` and
/// `time-energy-tradeoff.svg`; a diffusion model's are drawn against batch
/// size (`energy-vs-batch-size.svg`, …) and end with the same
/// `time-energy-tradeoff.svg`. Empty for a model without configurations.
pub fn model_charts(m: &ModelFile, a: &ModelAnalysis) -> Result<Vec<Chart>, draw::DrawError> {
    if m.configurations.is_empty() {
        return Ok(Vec::new());
    }
    let cx = Ctx::new(m, a);
    let mut charts: Vec<Chart> = metrics(m)
        .iter()
        .map(|metric| concurrency_chart(&cx, metric))
        .collect::<Result<_, _>>()?;
    charts.push(tradeoff_chart(&cx, None, Drawing::Phone)?);
    Ok(charts)
}

/// How the time–energy chart is drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Drawing {
    /// 400 wide, each point (at the median) a link to its row on the page
    /// beside it that shows its figures in a box.
    Phone,
    /// [`draw::WIDE`] wide, its legend beside the plot, its points as
    /// [`Drawing::Phone`]'s.
    Wide,
    /// 400 wide, without links or script: a copy away from the page its
    /// rows are on.
    Still,
}

/// `time-energy-tradeoff.svg` drawn still, without links or script: the
/// copy at the model's address before the site had workloads, which is
/// not beside the page of its rows; `None` for a model without
/// configurations.
pub fn tradeoff_still(m: &ModelFile, a: &ModelAnalysis) -> Result<Option<Chart>, draw::DrawError> {
    (!m.configurations.is_empty())
        .then(|| tradeoff_chart(&Ctx::new(m, a), None, Drawing::Still))
        .transpose()
}

/// The time–energy chart drawn [`draw::WIDE`] wide, its legend beside the
/// plot (`time-energy-tradeoff-wide.svg`), which a page shows instead of
/// `time-energy-tradeoff.svg` on a wide screen; `None` for a model without
/// configurations.
pub fn tradeoff_wide(m: &ModelFile, a: &ModelAnalysis) -> Result<Option<Chart>, draw::DrawError> {
    (!m.configurations.is_empty())
        .then(|| tradeoff_chart(&Ctx::new(m, a), None, Drawing::Wide))
        .transpose()
}

/// The time–energy chart again at the p90, p95 and p99 inter-token latency
/// (`time-energy-tradeoff-p90.svg`, …, in [`ITL_PERCENTILES`] order), for
/// per-token models; empty for a diffusion model.
pub fn percentile_charts(m: &ModelFile, a: &ModelAnalysis) -> Result<Vec<Chart>, draw::DrawError> {
    if a.percentile_frontiers.is_empty() {
        return Ok(Vec::new());
    }
    let cx = Ctx::new(m, a);
    ITL_PERCENTILES
        .iter()
        .map(|&p| tradeoff_chart(&cx, Some(p), Drawing::Still))
        .collect()
}

fn concurrency_chart(cx: &Ctx<'_>, metric: &Metric) -> Result<Chart, draw::DrawError> {
    let words = cx.words;
    let configs = &cx.m.configurations;
    let latency = metric.kind == Kind::Latency;
    let spread = latency && configs.first().is_some_and(|c| percentiles(c).is_some());
    let (lo, hi) = min_max(configs.iter().map(metric.value));
    let y_axis = match metric.kind {
        Kind::Energy => Axis::auto(lo, hi),
        Kind::Throughput | Kind::Power => Axis::from_zero(hi),
        Kind::Latency => {
            let (_, p99) = min_max(configs.iter().filter_map(|c| percentiles(c).map(|s| s.1)));
            Axis::log(lo, hi.max(p99).max(cx.m.deadline()))
        }
    };
    let (smin, smax) = min_max(configs.iter().map(|c| f64::from(c.load())));
    let x_axis = Axis::powers_of_two(smin, smax);
    let title = format!("{}: {}", &cx.m.name, metric.what);
    let (header, panel_heads) = cx.legend(&title, true, spread, false);
    let log_note = if y_axis.log {
        "log scales"
    } else {
        "log x scale"
    };
    let (x_desc, y_desc) = (words.load_axis.to_owned(), metric.axis.clone());
    let frame = Frame {
        x_ticks: |v| fmt::fixed(v, 0),
        ..Frame::new(header, x_axis, y_axis, x_desc, y_desc, cx.body())
    };
    let doc = draw::render(&frame, &panel_heads, 16 * 1024, |k, p| {
        let pos = |p: &Plot<'_, '_>, i: usize, v: f64| p.px(f64::from(configs[i].load()), v);
        let at = |p: &Plot<'_, '_>, i: usize| pos(p, i, (metric.value)(&configs[i]));
        if latency {
            draw::deadline_across(p, words, cx.m.deadline())?;
        }
        let panel = &cx.panels[k].series;
        for &si in panel {
            // One line through the first run at each load.
            let first = cx.a.curves[si].points.iter().filter(|&&i| cx.first_run[i]);
            let pts: Vec<(i32, i32)> = first.map(|&i| at(p, i)).collect();
            draw::line(p.root, &pts, Role::Line(cx.style_of[si]), 2)?;
            p.placer.add_line(&pts);
        }
        if spread {
            percentile_stems(p, cx, k)?;
        }
        let label =
            |c: &Configuration| format!("{} {}", (metric.format)((metric.value)(c)), metric.unit);
        markers_and_best(p, cx, k, at, label, None)
    })?;
    let description = describe(cx, metric, log_note, (lo, hi));
    let headers = if spread {
        [
            tokens::MEDIAN_ITL_MS,
            tokens::P90_ITL_MS,
            tokens::P99_ITL_MS,
        ]
        .map(|c| c.axis_label())
        .to_vec()
    } else {
        vec![metric.axis.clone()]
    };
    let table = cx.table(headers, |i| {
        let c = &configs[i];
        match percentiles(c).filter(|_| spread) {
            Some((p90, p99)) => [c.latency(), p90, p99].map(|v| (metric.format)(v)).to_vec(),
            None => vec![(metric.format)((metric.value)(c))],
        }
    });
    Ok(Chart::new(
        metric.file.clone(),
        title,
        description,
        &doc,
        table,
        None,
    ))
}

/// The p90 and p99 inter-token latency of each configuration of panel
/// `panel`, as a stem up from its median: a dot at the p90, a bar at the
/// p99; the stems of different series side by side, 5 px apart.
fn percentile_stems(p: &mut Plot<'_, '_>, cx: &Ctx<'_>, panel: usize) -> Draw {
    let configs = &cx.m.configurations;
    let pos = |p: &Plot<'_, '_>, i: usize, v: f64| p.px(f64::from(configs[i].load()), v);
    let n_series = draw::count(cx.panels[panel].series.len());
    for (j, i) in cx.ordered_in(panel) {
        let c = &configs[i];
        let Some((p90, p99)) = percentiles(c) else {
            continue;
        };
        let dx = (2 * draw::count(j) - (n_series - 1)) * 5 / 2;
        let (x, ym) = pos(p, i, c.latency());
        let (_, y90) = pos(p, i, p90);
        let (_, y99) = pos(p, i, p99);
        let xs = x + dx;
        draw::line(p.root, &[(xs, ym), (xs, y99)], Role::Stem(j), 1)?;
        p.placer.add_line(&[(xs, ym), (xs, y99)]);
        p.root
            .draw(&Circle::new((xs, y90), 2, Role::P90(j).color().filled()))?;
        draw::line(p.root, &[(xs - 4, y99), (xs + 4, y99)], Role::P99(j), 2)?;
        p.placer.occupy(Rect::around((xs, y99), 3.0));
    }
    Ok(())
}

/// Draws the markers of panel `panel` at `pos`, each inside the link
/// `link` opens for it (when given), then rings the best configuration per
/// GPU and labels it (with `label`), after every other obstacle has been
/// registered with the placer.
fn markers_and_best(
    p: &mut Plot<'_, '_>,
    cx: &Ctx<'_>,
    panel: usize,
    pos: impl Fn(&Plot<'_, '_>, usize) -> (i32, i32),
    label: impl Fn(&Configuration) -> String,
    link: Option<&dyn Fn(usize) -> String>,
) -> Draw {
    for (j, i) in cx.ordered_in(panel) {
        let at = pos(p, i);
        if let Some(open) = link {
            p.root.draw(&svg::Markup(&open(i)))?;
        }
        draw::marker(p.root, at, j, Role::Point(j), cx.first_run[i], cx.over(i))?;
        if link.is_some() {
            p.root.draw(&svg::Markup("</a>\n"))?;
        }
        p.placer.occupy(Rect::around(at, 6.0));
    }
    let in_panel = |&i: &usize| cx.panels[panel].series.contains(&cx.series_of[i]);
    let best: Vec<usize> =
        cx.a.best_per_gpu
            .iter()
            .filter_map(|b| b.best)
            .filter(in_panel)
            .collect();
    for &i in &best {
        let at = pos(p, i);
        draw::ring(p.root, at)?;
        p.placer.occupy(Rect::around(at, f64::from(RING + 1)));
    }
    let mut placed = Vec::new();
    for &i in &best {
        let at = pos(p, i);
        // A panel names its GPU already.
        let text = if cx.panels.len() > 1 {
            format!("best: {}", label(cx.c(i)))
        } else {
            format!("{} best: {}", cx.c(i).gpu, label(cx.c(i)))
        };
        let (pl, leader) = p.placer.place(&text, TEXT_PX, at, RING + 5);
        placed.push((at, text, pl, leader));
    }
    // Two leaders that cross read as pointing at the wrong points: swap
    // their labels when both sit on the same side.
    for a in 0..placed.len() {
        for b in a + 1..placed.len() {
            let (pa, pb) = (placed[a].2, placed[b].2);
            if let (Some(la), Some(lb)) = (placed[a].3, placed[b].3) {
                if pa.align == pb.align && layout::leaders_cross(la, lb) {
                    placed[a].2 = pb;
                    placed[b].2 = pa;
                    for k in [a, b] {
                        let (at, ref text, pl, _) = placed[k];
                        placed[k].3 =
                            layout::leader(layout::label_box(text, TEXT_PX, pl), at, RING + 5);
                    }
                }
            }
        }
    }
    for (_, text, pl, leader) in &placed {
        if let Some(ends) = leader {
            draw::line(p.root, ends, Role::Leader, 1)?;
        }
        draw::text(p.root, text, (pl.x, pl.y), draw::TextStyle::label(pl.align))?;
    }
    Ok(())
}

/// The opening of configuration `i`'s link on the time–energy chart: to
/// its row on the page beside the chart (`index.html#<row anchor>`, opened
/// in the whole window), naming the row (`data-row`, which
/// `templates/scatter.js` hands the page) and its figures, with a tooltip
/// (`<title>`) of its model, setup and figures, the three parts the box of
/// figures shows. Written into one string: a model's charts open some
/// 50 links for each of its configurations.
fn point_link(cx: &Ctx<'_>, i: usize) -> String {
    let (c, w) = (cx.c(i), cx.words);
    let anchor = row_anchor(&cx.m.slug, &c.row_id);
    let tip = format!(
        "{}: {}, {} {}, run {}: {} {} at {} {}",
        cx.m.name,
        cx.label(i),
        w.load_short,
        c.load(),
        c.repeat,
        (w.energy_text)(c.energy()),
        w.energy_short,
        (w.latency_text)(c.latency()),
        w.latency_unit
    );
    let mut link = String::with_capacity(tip.len() + 2 * anchor.len() + 160);
    link.push_str("<a href=\"index.html#");
    svg::push_escaped(&mut link, &anchor);
    let _ = write!(
        link,
        "\" target=\"_top\" class=\"pt gpu-{}\" data-row=\"{anchor}\" data-latency=\"{}\" \
            data-energy=\"{}\"><title>",
        url_segment(&c.gpu),
        fmt::shortest(c.latency()),
        fmt::shortest(c.energy()),
    );
    svg::push_escaped(&mut link, &tip);
    link.push_str("</title>\n");
    link
}

/// The description of the time–energy chart at `pct` (the median when
/// `None`), whose frontier has `frontier` configurations, on `scales`.
fn tradeoff_description(
    cx: &Ctx<'_>,
    pct: Option<Percentile>,
    frontier: usize,
    scales: &str,
) -> String {
    let (m, words) = (cx.m, cx.words);
    match pct {
        Some(p) => format!(
            "Each configuration of {} as {} inter-token latency against energy per million \
                output tokens ({scales}), with the Pareto frontier on these two ({} \
                configurations) drawn as a line. The {} {latency_unit} deadline is on the median \
                inter-token latency: configurations over it are faded, and the rings mark the \
                same best configurations as on the median chart.",
            &m.name,
            p,
            frontier,
            cx.deadline(),
            latency_unit = words.latency_unit,
        ),
        None => format!(
            "Each configuration of {} as {} against {} ({scales}), with the Pareto frontier of \
                {} configurations drawn as a line and the {} {} deadline as a dashed line. \
                Lowest energy within the deadline: {}.",
            m.name,
            words.latency,
            words.energy_per,
            frontier,
            cx.deadline(),
            words.latency_unit,
            cx.best_list(|c| {
                format!(
                    "{} {} at {} {}",
                    (words.energy_text)(c.energy()),
                    words.energy_short,
                    (words.latency_text)(c.latency()),
                    words.latency_unit
                )
            })
        ),
    }
}

/// A time–energy chart's file name, title, x-axis title and latency
/// column header.
struct TradeoffNames {
    file_name: String,
    title: String,
    x_desc: String,
    latency_header: String,
}

/// The names of the time–energy chart at `pct` (the median when `None`),
/// drawn `wide` or not.
fn tradeoff_names(m: &ModelFile, pct: Option<Percentile>, wide: bool) -> TradeoffNames {
    let words = Words::of(m.measure());
    match pct {
        Some(p) => TradeoffNames {
            file_name: format!("time-energy-tradeoff-{p}.svg"),
            title: format!("{}: time–energy trade-off at {p} ITL", &m.name),
            x_desc: format!("{p} inter-token latency ({})", words.latency_unit),
            latency_header: format!("{p} ITL ({})", words.latency_unit),
        },
        None => TradeoffNames {
            file_name: if wide {
                "time-energy-tradeoff-wide.svg"
            } else {
                "time-energy-tradeoff.svg"
            }
            .to_owned(),
            title: format!("{}: time–energy trade-off", &m.name),
            x_desc: words.latency_axis(),
            latency_header: words.latency_header(),
        },
    }
}

/// The time–energy chart: each configuration's latency (its median, or
/// with `pct` that percentile of its inter-token latency)
/// against its energy, with the Pareto frontier on those two. At the
/// median it responds unless drawn still: each point links to its row and
/// shows its figures in a box on hover, focus or tap ([`point_link`],
/// [`super::site::scatter_reader`]).
fn tradeoff_chart(
    cx: &Ctx<'_>,
    pct: Option<Percentile>,
    drawing: Drawing,
) -> Result<Chart, draw::DrawError> {
    let wide = drawing == Drawing::Wide;
    let words = cx.words;
    let m = cx.m;
    let configs = &m.configurations;
    let lat = |c: &Configuration| c.latency_at(pct);
    let frontier = pct.map_or(&cx.a.frontier, |p| &cx.a.percentile_frontiers[p.index()]);
    let (ilo, ihi) = min_max(configs.iter().map(lat));
    let (elo, ehi) = min_max(configs.iter().map(Configuration::energy));
    let TradeoffNames {
        file_name,
        title,
        x_desc,
        latency_header,
    } = tradeoff_names(m, pct, wide);
    let (header, panel_heads) = cx.legend(&title, false, false, wide);
    let interactive = pct.is_none() && drawing != Drawing::Still;
    let link = |i: usize| point_link(cx, i);
    let energy_axis = words.energy_axis();
    let x = Axis::log(
        ilo,
        if pct.is_some() {
            ihi
        } else {
            ihi.max(m.deadline())
        },
    );
    let frame = Frame::new(
        header,
        x,
        Axis::auto(elo, ehi),
        x_desc,
        energy_axis.clone(),
        // Drawn wide, the plot keeps about the proportions of a phone's.
        if wide { cx.body() * 4 / 3 } else { cx.body() },
    );
    let doc = draw::render(&frame, &panel_heads, 16 * 1024, |k, p| {
        let pos = |p: &Plot<'_, '_>, i: usize| p.px(lat(&configs[i]), configs[i].energy());
        // The deadline is on the median: a line on another percentile's
        // axis would mislead.
        if pct.is_none() {
            draw::deadlines(p, words, &[m.deadline()])?;
        }
        let front: Vec<(i32, i32)> = frontier.iter().map(|&i| pos(p, i)).collect();
        draw::line(p.root, &front, Role::Frontier, 2)?;
        p.placer.add_line(&front);
        let label = |c: &Configuration| {
            format!("{} {}", (words.energy_text)(c.energy()), words.energy_short)
        };
        let links = interactive.then_some(&link as &dyn Fn(usize) -> String);
        markers_and_best(p, cx, k, pos, label, links)?;
        if interactive && k == 0 {
            super::site::scatter_reader(p, words, &frame)?;
        }
        Ok(())
    })?;
    let scales = super::axis::scales_note(&frame.x, &frame.y);
    let description = tradeoff_description(cx, pct, frontier.len(), scales);
    let headers = vec![
        latency_header,
        energy_axis,
        "On the Pareto frontier".to_owned(),
    ];
    let table = cx.table(headers, |i| {
        let c = &configs[i];
        vec![
            (words.latency_text)(lat(c)),
            (words.energy_text)(c.energy()),
            if frontier.contains(&i) { "yes" } else { "" }.to_owned(),
        ]
    });
    let themed = interactive.then_some(super::site::SCATTER_STYLE);
    Ok(Chart::new(
        file_name,
        title,
        description,
        &doc,
        table,
        themed,
    ))
}
