//! The five charts of a model page.

use super::axis::{Axis, tick_label};
use super::draw::{self, Draw, Frame, Header, Key, Plot, RING, TEXT_PX};
use super::layout::{self, Align, Rect};
use super::style::Role;
use super::{Chart, DataTable, svg};
use crate::analyse::ModelAnalysis;
use crate::fmt;
use crate::model::{Configuration, ModelFile};

/// Height of an x–y chart below its header.
const BODY: i32 = 340;

/// A model with its analysis and, per configuration, its series and whether
/// it is the first run at its concurrency in that series.
struct Ctx<'a> {
    m: &'a ModelFile,
    a: &'a ModelAnalysis,
    series_of: Vec<usize>,
    first_run: Vec<bool>,
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
                let seqs = m.configurations[i].max_num_seqs;
                first_run[i] = !seen.contains(&seqs);
                seen.push(seqs);
            }
        }
        Ctx {
            m,
            a,
            series_of,
            first_run,
        }
    }

    fn c(&self, i: usize) -> &Configuration {
        &self.m.configurations[i]
    }

    fn label(&self, i: usize) -> &str {
        &self.a.curves[self.series_of[i]].label
    }

    /// Configurations in drawing order: series by series, each by
    /// concurrency then run.
    fn ordered(&self) -> impl Iterator<Item = (usize, usize)> + '_ {
        self.a
            .curves
            .iter()
            .enumerate()
            .flat_map(|(si, s)| s.points.iter().map(move |&i| (si, i)))
    }

    fn series_keys(&self, lines: bool) -> Vec<Key> {
        let mut keys: Vec<Key> = self
            .a
            .curves
            .iter()
            .enumerate()
            .map(|(si, s)| {
                if lines {
                    Key::Series(si, s.label.clone())
                } else {
                    Key::Marker(si, s.label.clone())
                }
            })
            .collect();
        if self.first_run.iter().any(|f| !f) {
            keys.push(Key::Repeat);
        }
        keys
    }

    fn has_best(&self) -> bool {
        self.a.best_per_gpu.iter().any(|(_, b)| b.is_some())
    }

    fn deadline(&self) -> String {
        fmt::limit_ms(self.m.itl_deadline_ms)
    }

    /// "B200 ×1 at 384: 39.05 Wh/M; no H100 setup meets the deadline".
    fn best_list(&self, value: impl Fn(&Configuration) -> String) -> String {
        let parts: Vec<String> = self
            .a
            .best_per_gpu
            .iter()
            .map(|(gpu, best)| match best {
                Some(i) => format!(
                    "{} at {}, {}",
                    self.label(*i),
                    self.c(*i).max_num_seqs,
                    value(self.c(*i))
                ),
                None => format!("no {gpu} setup meets it"),
            })
            .collect();
        parts.join("; ")
    }

    fn row_start(&self, i: usize) -> Vec<String> {
        let c = self.c(i);
        vec![
            self.label(i).to_owned(),
            c.max_num_seqs.to_string(),
            c.repeat.to_string(),
        ]
    }

    fn best_cell(&self, i: usize) -> String {
        if self.a.is_best(i) {
            format!("best on {}", self.c(i).gpu)
        } else {
            String::new()
        }
    }
}

const BEST_KEY: &str = "best: lowest energy within deadline, per GPU";
const SETUP: &str = "GPU setup";
const CONCURRENCY: &str = "Concurrency (max_num_seqs)";
const RUN: &str = "Run";
const BEST: &str = "Marked best (lowest energy within deadline)";
const ENERGY: &str = "Energy (Wh per million output tokens)";

/// How one measured quantity is charted against concurrency.
struct Metric {
    file: &'static str,
    what: &'static str,
    axis: &'static str,
    unit: &'static str,
    value: fn(&Configuration) -> f64,
    format: fn(f64) -> String,
    kind: Kind,
}

/// Which quantity a concurrency chart shows; decides its scale and its
/// description.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// Log when the values span more than 10×, else linear from zero.
    Energy,
    /// Log, with p90/p99 and the deadline.
    Latency,
    /// Linear from zero.
    Throughput,
    /// Linear from zero.
    Power,
}

fn wh(c: &Configuration) -> f64 {
    c.wh_per_million_output_tokens
}

fn itl(c: &Configuration) -> f64 {
    c.median_itl_ms
}

const METRICS: [Metric; 4] = [
    Metric {
        file: "energy-vs-concurrency.svg",
        what: "energy per output token vs concurrency",
        axis: ENERGY,
        unit: "Wh/M",
        value: wh,
        format: fmt::wh_per_million,
        kind: Kind::Energy,
    },
    Metric {
        file: "latency-vs-concurrency.svg",
        what: "inter-token latency vs concurrency",
        axis: "Median inter-token latency (ms)",
        unit: "ms",
        value: itl,
        format: fmt::ms,
        kind: Kind::Latency,
    },
    Metric {
        file: "throughput-vs-concurrency.svg",
        what: "throughput vs concurrency",
        axis: "Throughput (output tokens/s)",
        unit: "tok/s",
        value: |c| c.tokens_per_second,
        format: fmt::grouped,
        kind: Kind::Throughput,
    },
    Metric {
        file: "power-vs-concurrency.svg",
        what: "GPU power vs concurrency",
        axis: "GPU power (W, all GPUs used)",
        unit: "W",
        value: |c| c.gpu_power_watts_total,
        format: fmt::grouped,
        kind: Kind::Power,
    },
];

/// The five charts of a model page, in page order.
pub(crate) fn model_charts(m: &ModelFile, a: &ModelAnalysis) -> Vec<Chart> {
    if m.configurations.is_empty() {
        return Vec::new();
    }
    let cx = Ctx::new(m, a);
    let mut charts: Vec<Chart> = METRICS
        .iter()
        .map(|metric| concurrency_chart(&cx, metric))
        .collect();
    charts.push(tradeoff_chart(&cx));
    charts
}

fn min_max(values: impl Iterator<Item = f64>) -> (f64, f64) {
    values.fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), v| {
        (lo.min(v), hi.max(v))
    })
}

fn concurrency_chart(cx: &Ctx<'_>, metric: &Metric) -> Chart {
    let configs = &cx.m.configurations;
    let latency = metric.kind == Kind::Latency;
    let (lo, hi) = min_max(configs.iter().map(metric.value));
    let y_axis = match metric.kind {
        Kind::Energy => Axis::auto(lo, hi),
        Kind::Throughput | Kind::Power => Axis::from_zero(hi),
        Kind::Latency => {
            let (_, p99) = min_max(configs.iter().map(|c| c.p99_itl_ms));
            Axis::log(lo, hi.max(p99).max(cx.m.itl_deadline_ms))
        }
    };
    let (smin, smax) = min_max(configs.iter().map(|c| f64::from(c.max_num_seqs)));
    let x_axis = Axis::powers_of_two(smin, smax);
    let mut keys = cx.series_keys(true);
    if latency {
        keys.push(Key::Spread);
    }
    if cx.has_best() {
        keys.push(Key::Best(BEST_KEY.to_owned()));
    }
    let title = format!("{}: {}", cx.m.name, metric.what);
    let log_note = if y_axis.is_log() {
        "log scales"
    } else {
        "log x scale"
    };
    let frame = Frame {
        header: Header::new(&title, keys),
        x: x_axis,
        y: y_axis,
        x_desc: "Concurrency (max_num_seqs)".to_owned(),
        y_desc: metric.axis.to_owned(),
        body: BODY,
        y_area: None,
        x_ticks: |v| fmt::fixed(v, 0),
    };
    let doc = draw::render_xy(&frame, 16 * 1024, |p| {
        let pos = |p: &Plot<'_, '_>, i: usize, v: f64| p.px(f64::from(configs[i].max_num_seqs), v);
        if latency {
            deadline_hline(p, cx.m.itl_deadline_ms, &cx.deadline())?;
        }
        for (si, s) in cx.a.curves.iter().enumerate() {
            let pts: Vec<(i32, i32)> = s
                .points
                .iter()
                .filter(|&&i| cx.first_run[i])
                .map(|&i| pos(p, i, (metric.value)(&configs[i])))
                .collect();
            draw::line(p.root, &pts, Role::Line(si), 2)?;
            p.placer.add_line(&pts);
        }
        if latency {
            let n_series = draw::count(cx.a.curves.len());
            for (si, i) in cx.ordered() {
                let c = &configs[i];
                // Stems of different series side by side, 5 px apart.
                let dx = (2 * draw::count(si) - (n_series - 1)) * 5 / 2;
                let (x, ym) = pos(p, i, c.median_itl_ms);
                let (_, y90) = pos(p, i, c.p90_itl_ms);
                let (_, y99) = pos(p, i, c.p99_itl_ms);
                let xs = x + dx;
                draw::line(p.root, &[(xs, ym), (xs, y99)], Role::Stem(si), 1)?;
                p.placer.add_line(&[(xs, ym), (xs, y99)]);
                p.root.draw(&plotters::element::Circle::new(
                    (xs, y90),
                    2,
                    plotters::style::Color::filled(&Role::P90(si).color()),
                ))?;
                draw::line(p.root, &[(xs - 4, y99), (xs + 4, y99)], Role::P99(si), 2)?;
                p.placer.occupy(Rect::around((xs, y99), 3.0));
            }
        }
        for (si, i) in cx.ordered() {
            let at = pos(p, i, (metric.value)(&configs[i]));
            draw::marker(p.root, at, si, Role::Point(si), cx.first_run[i])?;
            p.placer.occupy(Rect::around(at, 6.0));
        }
        best_rings_and_labels(
            p,
            cx,
            |p, i| pos(p, i, (metric.value)(&configs[i])),
            |c| {
                format!(
                    "{} best: {} {}",
                    c.gpu,
                    (metric.format)((metric.value)(c)),
                    metric.unit
                )
            },
        )
    });
    let description = match metric.kind {
        Kind::Latency => {
            let (lo, hi) = min_max(configs.iter().map(itl));
            let under = configs.iter().filter(|c| c.under_itl_deadline).count();
            format!(
                "Median inter-token latency of {} at each concurrency, one line per GPU setup, with p90 and p99 above each point ({log_note}). Medians run from {} to {} ms; {under} of {} configurations meet the {} ms deadline.",
                cx.m.name,
                fmt::ms(lo),
                fmt::ms(hi),
                configs.len(),
                cx.deadline()
            )
        }
        Kind::Energy => format!(
            "Energy per million output tokens of {} at each concurrency, one line per GPU setup ({log_note}). Lowest within the {} ms median ITL deadline: {}.",
            cx.m.name,
            cx.deadline(),
            cx.best_list(|c| format!(
                "{} Wh/M",
                fmt::wh_per_million(c.wh_per_million_output_tokens)
            ))
        ),
        Kind::Power => format!(
            "Measured GPU power of {}, summed over the GPUs used, at each concurrency, one line per GPU setup ({log_note}). It ranges from {} to {} W.",
            cx.m.name,
            fmt::grouped(lo),
            fmt::grouped(hi)
        ),
        Kind::Throughput => {
            let top = configs
                .iter()
                .enumerate()
                .max_by(|a, b| (metric.value)(a.1).total_cmp(&(metric.value)(b.1)))
                .map_or(0, |(i, _)| i);
            format!(
                "Output tokens per second of {}, all GPUs together, at each concurrency, one line per GPU setup ({log_note}). Highest: {} at {}, {} tokens/s.",
                cx.m.name,
                cx.label(top),
                configs[top].max_num_seqs,
                fmt::grouped(configs[top].tokens_per_second)
            )
        }
    };
    let mut headers = vec![SETUP.to_owned(), CONCURRENCY.to_owned(), RUN.to_owned()];
    if latency {
        headers.extend(["Median ITL (ms)", "p90 ITL (ms)", "p99 ITL (ms)"].map(str::to_owned));
    } else {
        headers.push(metric.axis.to_owned());
    }
    headers.push(BEST.to_owned());
    let rows = cx
        .ordered()
        .map(|(_, i)| {
            let c = &configs[i];
            let mut row = cx.row_start(i);
            if latency {
                row.extend([
                    fmt::ms(c.median_itl_ms),
                    fmt::ms(c.p90_itl_ms),
                    fmt::ms(c.p99_itl_ms),
                ]);
            } else {
                row.push((metric.format)((metric.value)(c)));
            }
            row.push(cx.best_cell(i));
            row
        })
        .collect();
    Chart {
        file_name: metric.file.to_owned(),
        svg: svg::finish(&doc, &title, &description),
        title,
        description,
        table: DataTable { headers, rows },
    }
}

/// A horizontal deadline line across the plot, labelled at its right end.
fn deadline_hline(p: &mut Plot<'_, '_>, ms: f64, label: &str) -> Draw {
    let (_, y) = p.px(1.0, ms);
    let (x0, x1) = (p.area.x0 as i32, p.area.x1 as i32);
    draw::line(p.root, &[(x0, y), (x1, y)], Role::Deadline, 2)?;
    deadline_label(p, label, (x1 - 6, y - 12))
}

/// A vertical deadline line down the plot, labelled near its top.
fn deadline_vline(p: &mut Plot<'_, '_>, ms: f64, label: &str) -> Draw {
    let (x, _) = p.px(ms, 1.0);
    let (y0, y1) = (p.area.y0 as i32, p.area.y1 as i32);
    draw::line(p.root, &[(x, y0), (x, y1)], Role::Deadline, 2)?;
    deadline_label(p, label, (x - 6, y0 + 12))
}

/// "deadline N ms", right-aligned at `at`; its box is kept free of other
/// labels.
fn deadline_label(p: &mut Plot<'_, '_>, label: &str, at: (i32, i32)) -> Draw {
    let text = format!("deadline {label} ms");
    p.placer.occupy_label(super::layout::label_box(
        &text,
        TEXT_PX,
        super::layout::Placement {
            x: at.0,
            y: at.1,
            align: Align::End,
        },
    ));
    draw::text(p.root, &text, at, TEXT_PX, Align::End, Role::Label, false)
}

/// Rings the best configuration per GPU and labels it, after every other
/// obstacle has been registered with the placer.
fn best_rings_and_labels(
    p: &mut Plot<'_, '_>,
    cx: &Ctx<'_>,
    pos: impl Fn(&Plot<'_, '_>, usize) -> (i32, i32),
    label: impl Fn(&Configuration) -> String,
) -> Draw {
    let best: Vec<usize> = cx.a.best_per_gpu.iter().filter_map(|(_, b)| *b).collect();
    for &i in &best {
        let at = pos(p, i);
        draw::ring(p.root, at)?;
        p.placer.occupy(Rect::around(at, f64::from(RING + 1)));
    }
    let mut placed = Vec::new();
    for &i in &best {
        let at = pos(p, i);
        let text = label(cx.c(i));
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
        draw::text(
            p.root,
            text,
            (pl.x, pl.y),
            TEXT_PX,
            pl.align,
            Role::Label,
            false,
        )?;
    }
    Ok(())
}

fn tradeoff_chart(cx: &Ctx<'_>) -> Chart {
    let m = cx.m;
    let a = cx.a;
    let configs = &m.configurations;
    let (ilo, ihi) = min_max(configs.iter().map(itl));
    let (elo, ehi) = min_max(configs.iter().map(wh));
    let mut keys = cx.series_keys(false);
    keys.push(Key::Frontier);
    if cx.has_best() {
        keys.push(Key::Best(BEST_KEY.to_owned()));
    }
    let title = format!("{}: time–energy trade-off", m.name);
    let frame = Frame {
        header: Header::new(&title, keys),
        x: Axis::log(ilo, ihi.max(m.itl_deadline_ms)),
        y: Axis::auto(elo, ehi),
        x_desc: "Median inter-token latency (ms)".to_owned(),
        y_desc: ENERGY.to_owned(),
        body: BODY,
        y_area: None,
        x_ticks: tick_label,
    };
    let doc = draw::render_xy(&frame, 16 * 1024, |p| {
        let pos = |p: &Plot<'_, '_>, i: usize| p.px(itl(&configs[i]), wh(&configs[i]));
        deadline_vline(p, m.itl_deadline_ms, &cx.deadline())?;
        let front: Vec<(i32, i32)> = a.frontier.iter().map(|&i| pos(p, i)).collect();
        draw::line(p.root, &front, Role::Frontier, 2)?;
        p.placer.add_line(&front);
        for (si, i) in cx.ordered() {
            let at = pos(p, i);
            draw::marker(p.root, at, si, Role::Point(si), cx.first_run[i])?;
            p.placer.occupy(Rect::around(at, 6.0));
        }
        best_rings_and_labels(p, cx, pos, |c| {
            format!(
                "{} best: {} Wh/M",
                c.gpu,
                fmt::wh_per_million(c.wh_per_million_output_tokens)
            )
        })
    });
    let description = format!(
        "Each configuration of {} as median inter-token latency against energy per million output tokens ({}), with the Pareto frontier of {} configurations drawn as a line and the {} ms deadline as a dashed line. Lowest energy within the deadline: {}.",
        m.name,
        super::axis::scales_note(&frame.x, &frame.y),
        a.frontier.len(),
        cx.deadline(),
        cx.best_list(|c| {
            format!(
                "{} Wh/M at {} ms",
                fmt::wh_per_million(c.wh_per_million_output_tokens),
                fmt::ms(c.median_itl_ms)
            )
        })
    );
    let headers = [
        SETUP,
        CONCURRENCY,
        RUN,
        "Median ITL (ms)",
        ENERGY,
        "On the Pareto frontier",
        BEST,
    ]
    .map(str::to_owned)
    .to_vec();
    let rows = cx
        .ordered()
        .map(|(_, i)| {
            let c = &configs[i];
            let mut row = cx.row_start(i);
            row.extend([
                fmt::ms(c.median_itl_ms),
                fmt::wh_per_million(c.wh_per_million_output_tokens),
                if a.is_on_frontier(i) { "yes" } else { "" }.to_owned(),
                cx.best_cell(i),
            ]);
            row
        })
        .collect();
    Chart {
        file_name: "time-energy-tradeoff.svg".to_owned(),
        svg: svg::finish(&doc, &title, &description),
        title,
        description,
        table: DataTable { headers, rows },
    }
}
