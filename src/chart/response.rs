//! The histogram of energy per response of one configuration.

use plotters::element::Rectangle;
use plotters::style::Color;

use super::axis::Axis;
use super::draw::{self, Frame, Header, TEXT_PX};
use super::layout::Align;
use super::style::{Role, gpu_slot};
use super::{Chart, DataTable, svg};
use crate::analyse::response::ResponseEnergy;
use crate::columns::JOULES;
use crate::fmt;

/// The unit a histogram of energy per response is drawn in: joules, on
/// every page (the about page's unit policy: one unit a quantity), however
/// long the answers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ResponseUnit {
    Joules,
}

impl ResponseUnit {
    /// The unit for a histogram whose edges (J) are `edges_j`: joules,
    /// whatever their size.
    pub fn for_edges(_edges_j: &[f64]) -> Self {
        Self::Joules
    }

    /// `j` joules in this unit.
    pub fn of(self, j: f64) -> f64 {
        j
    }

    pub fn symbol(self) -> &'static str {
        crate::columns::tokens::JOULES_PER_RESPONSE.unit
    }

    /// `j` joules written in this unit, without the symbol: one decimal,
    /// thousands grouped (the page format of energy per response).
    pub fn text(self, j: f64) -> String {
        fmt::grouped_fixed(j, 1)
    }
}

/// Where the label of mark `k` (the median's or the p90's line, at the x
/// of `xs`) goes in a plot from `x0` to `x1`: right of its line, else
/// left, whichever stays in the plot and crosses the other line; right
/// when neither does, left when only that stays in the plot.
fn mark_label_place(x0: f64, x1: f64, xs: [i32; 2], k: usize, label: &str) -> (i32, Align) {
    let (x, other) = (xs[k], f64::from(xs[1 - k]));
    let w = super::layout::text_width(label, TEXT_PX) + 8.0;
    let right = (f64::from(x), f64::from(x) + w);
    let left = (f64::from(x) - w, f64::from(x));
    let clear = |(a, b): (f64, f64)| a >= x0 && b <= x1 && !(a < other && other < b);
    if clear(right) {
        (x + 5, Align::Start)
    } else if clear(left) || right.1 > x1 {
        (x - 5, Align::End)
    } else {
        (x + 5, Align::Start)
    }
}

/// One GPU's histogram of energy per response, as
/// [`response_histogram`] draws it.
#[derive(Debug, Clone, Copy)]
pub struct ResponseHistogram<'a> {
    /// The chart's file, e.g. `energy-per-response-h100.svg`.
    pub file_name: &'a str,
    /// The model's name.
    pub model: &'a str,
    pub gpu: &'a str,
    /// The configuration, as a reader reads it ("B200 ×1 at 64").
    pub setup: &'a str,
    /// Whether it is the GPU's best configuration (the description says
    /// so), or one the reader chose.
    pub best: bool,
    pub joules_per_token: f64,
    pub response: &'a ResponseEnergy,
    pub unit: ResponseUnit,
    /// The top of the linear energy axis at least, J.
    pub x_max_j: f64,
    /// Where a log energy axis starts, J; `None` for a linear axis.
    pub log_from_j: Option<f64>,
}

/// The histogram of `response` for the configuration `setup` on `gpu`
/// (`file_name`, e.g. `energy-per-response-h100.svg`), in `unit`: one bar
/// per bin on a linear energy axis from zero to at least `x_max_j` joules
/// (the same for every GPU of a model, so their histograms compare by eye),
/// or, with `log_from_j`, on a log energy axis from that many joules (for a
/// long tail), with the median and 90th percentile marked.
pub fn response_histogram(h: ResponseHistogram<'_>) -> Result<Chart, draw::DrawError> {
    let description = histogram_description(&h);
    let table = histogram_table(h.response, h.unit);
    let ResponseHistogram {
        file_name,
        model,
        gpu,
        response: r,
        unit,
        x_max_j,
        log_from_j,
        ..
    } = h;
    let sym = unit.symbol();
    let scale = if log_from_j.is_some() {
        ", log scale"
    } else {
        ""
    };
    let title = format!("Energy per response on {gpu}{scale}: {model}");
    let slot = gpu_slot(gpu);
    let x_max = unit.of(r.edges_j.last().copied().unwrap_or(1.0).max(x_max_j));
    let y_max = r.counts.iter().copied().max().unwrap_or(1) as f64;
    let x = log_from_j.map_or_else(
        || Axis::from_zero(x_max),
        |lo| Axis::log(unit.of(lo), x_max),
    );
    let x_desc = format!("Energy per response ({sym}{scale})");
    let header = Header::new(&title, Vec::new());
    let frame = Frame::new(
        header,
        x,
        Axis::from_zero(y_max),
        x_desc,
        "Responses per bin".to_owned(),
        300,
    );
    let median_label = format!("median {} {sym}", unit.text(r.median_j));
    let p90_label = format!("p90 {} {sym}", unit.text(r.p90_j));
    let doc = draw::render(&frame, &[], 8 * 1024, |_, p| {
        let x_lo = frame.x.lo;
        let (_, base) = p.px(x_lo, 0.0);
        for (i, &count) in r.counts.iter().enumerate() {
            if count == 0 || unit.of(r.edges_j[i + 1]) <= x_lo {
                continue;
            }
            let (x0, top) = p.px(unit.of(r.edges_j[i]).max(x_lo), count as f64);
            let (x1, _) = p.px(unit.of(r.edges_j[i + 1]), 0.0);
            // A bin of a few responses beside one of thousands rounds to
            // no height: draw it a pixel high, so every non-empty bin shows.
            p.root.draw(&Rectangle::new(
                [(x0, top.min(base - 1)), (x1.max(x0 + 1), base)],
                Role::Bar(slot).color().filled(),
            ))?;
        }
        let y0 = p.area.y0 as i32;
        let marks = [(r.median_j, &median_label, 10), (r.p90_j, &p90_label, 28)];
        let xs = marks.map(|(value, _, _)| p.px(unit.of(value), 0.0).0);
        for &x in &xs {
            draw::line(p.root, &[(x, y0), (x, base)], Role::Ink, 2)?;
        }
        for (k, (_, label, dy)) in marks.into_iter().enumerate() {
            let (at, align) = mark_label_place(p.area.x0, p.area.x1, xs, k, label);
            draw::text(p.root, label, (at, y0 + dy), draw::TextStyle::label(align))?;
        }
        Ok(())
    })?;
    Ok(Chart::new(
        file_name.to_owned(),
        title,
        description,
        &doc,
        table,
        None,
    ))
}

/// What a histogram of energy per response draws, for its description.
fn histogram_description(h: &ResponseHistogram<'_>) -> String {
    let (r, unit, gpu, setup) = (h.response, h.unit, h.gpu, h.setup);
    let sym = unit.symbol();
    format!(
        "Histogram of the GPU energy per response of the {}{gpu} configuration ({setup}): {} \
            responses in {} bins from {} to {} {sym}, each bin's output lengths × {} {JOULES} \
            per output token; {}. Median {} {sym}, 90th percentile {} {sym}, marked by vertical \
            lines.",
        if h.best { "best " } else { "" },
        fmt::grouped(r.total as f64),
        r.counts.len(),
        unit.text(r.edges_j.first().copied().unwrap_or(0.0)),
        unit.text(r.edges_j.last().copied().unwrap_or(0.0)),
        fmt::joules_per_token(h.joules_per_token),
        if h.log_from_j.is_some() {
            "log x scale (bins keep their widths in energy, so they narrow to the right), linear \
                y scale"
        } else {
            "linear scales"
        },
        unit.text(r.median_j),
        unit.text(r.p90_j),
    )
}

/// A histogram's data table: each bin's edges and count.
fn histogram_table(r: &ResponseEnergy, unit: ResponseUnit) -> DataTable {
    let sym = unit.symbol();
    let bins = r.edges_j.windows(2).zip(&r.counts);
    let rows = bins.map(|(e, c)| vec![unit.text(e[0]), unit.text(e[1]), fmt::grouped(*c as f64)]);
    let headers = vec![
        format!("From ({sym})"),
        format!("To ({sym})"),
        "Responses".to_owned(),
    ];
    DataTable {
        headers,
        rows: rows.collect(),
    }
}

/// One model's line on [`response_overlay`].
#[derive(Debug, Clone)]
pub struct OverlaySeries<'a> {
    /// The model's index in its workload: its group is `<g class="rm mK">`.
    pub index: usize,
    /// Its rank by energy on the compare page: the lowest are drawn on
    /// top.
    pub rank: usize,
    /// Its colour and marker: its site-wide look.
    pub look: usize,
    pub model: String,
    /// The GPU of the configuration drawn.
    pub gpu: String,
    /// The configuration drawn, in words.
    pub setup: String,
    pub response: &'a ResponseEnergy,
    /// Whose measurement it is, on a site of several sources: the group
    /// gets the class `from-<key>`, the tooltip the source's name, and the
    /// median marker is hollow for another source than the first.
    pub whose: Option<super::Whose>,
}

/// The compare page's overlay of energy per response ([`response_overlay`]).
#[derive(Debug, Clone)]
pub struct ResponseOverlay {
    /// The SVG, to place inline: one `<g class="rm mK">` per model.
    pub svg: String,
    /// Title (also the SVG's `<title>`).
    pub title: String,
    /// What it shows (also the SVG's `<desc>`).
    pub description: String,
    /// The unit of energy drawn (J or Wh).
    pub unit: ResponseUnit,
}

/// Share of responses (%) at or below energy `x` J, the responses of each
/// bin spread evenly across it (as [`crate::analyse::response::quantile`]
/// takes them).
fn share_at_or_below(r: &ResponseEnergy, x: f64) -> f64 {
    if r.total == 0 {
        return 0.0;
    }
    let mut below = 0.0;
    for (i, &c) in r.counts.iter().enumerate() {
        let (lo, hi) = (r.edges_j[i], r.edges_j[i + 1]);
        if x >= hi {
            below += c as f64;
        } else {
            if x > lo && hi > lo {
                below += c as f64 * (x - lo) / (hi - lo);
            }
            break;
        }
    }
    100.0 * below / r.total as f64
}

/// The energy-per-response distributions of several models overlaid: for
/// each, the share of its measured responses (%) that used at most each
/// energy, on a log energy axis shared by all (energies per response span
/// orders of magnitude between models), with the model's marker at its
/// median. Each model is a group of its own, so a page can show any set.
pub fn response_overlay(series: &[OverlaySeries<'_>]) -> Result<ResponseOverlay, draw::DrawError> {
    let top = series
        .iter()
        .filter_map(|s| s.response.edges_j.last().copied())
        .fold(0.0, f64::max);
    let unit = ResponseUnit::for_edges(&[top]);
    let sym = unit.symbol();
    // The lowest energy drawn: the lowest positive bin edge.
    let low = series
        .iter()
        .flat_map(|s| s.response.edges_j.iter().copied())
        .filter(|e| *e > 0.0)
        .fold(f64::INFINITY, f64::min);
    let (lo, hi) = if low.is_finite() && top > low {
        (unit.of(low), unit.of(top))
    } else {
        (1.0, 10.0)
    };
    let title = "Energy per response of the chosen models";
    let (source_keys, sources_note) =
        super::site::source_keys(series.iter().map(|s| s.whose.as_ref()), false, "models");
    let header = Header::new(title, source_keys);
    let x_desc = format!("Energy per response ({sym}, log scale)");
    let y_desc = "Responses at or below (%)".to_owned();
    let frame = Frame::new(
        header,
        Axis::log(lo, hi),
        Axis::percent(),
        x_desc,
        y_desc,
        330,
    );
    let doc = draw::render(&frame, &[], 16 * 1024, |_, p| {
        // Highest energy rank first, so the lowest lie on top.
        let mut order: Vec<&OverlaySeries<'_>> = series.iter().collect();
        order.sort_by_key(|s| std::cmp::Reverse(s.rank));
        for s in order {
            overlay_curve(p, s, unit)?;
        }
        Ok(())
    })?;
    let description = format!(
        "The distribution of GPU energy per response of each chosen model (of the {} models with \
            an output-length histogram), drawn for its lowest-energy configuration within the \
            deadline (its GPU and setup are in the table below): for each energy per response \
            on the x axis, the share of the model's measured responses that used at most that \
            much (each response's output length × the configuration's energy per output token; \
            the responses of a bin taken as spread evenly across it). Energy per response in \
            {sym}, log x scale, linear y scale. Each model has the colour and marker shown \
            beside its name in the list of models; its marker sits at its median (50 \
            %).{sources_note}",
        fmt::grouped(series.len() as f64),
    );
    Ok(ResponseOverlay {
        svg: svg::finish(&doc, title, &description, Some("")),
        title: title.to_owned(),
        description,
        unit,
    })
}

/// One model's curve on the overlay: the share of its responses at or
/// below each energy, in a group named by its figures, its marker at its
/// median.
fn overlay_curve(p: &draw::Plot<'_, '_>, s: &OverlaySeries<'_>, unit: ResponseUnit) -> draw::Draw {
    let sym = unit.symbol();
    let (x0, x1) = (p.area.x0, p.area.x1);
    let r = s.response;
    let (from_class, from_tip) = s.whose.as_ref().map_or_else(Default::default, |w| {
        (
            format!(" from-{}", svg::xml_escape(&w.key)),
            format!(" · source: {}", w.name),
        )
    });
    p.root.draw(&svg::Markup(&format!(
        "<g class=\"rm m{}{from_class}\">\n<title>{}</title>\n",
        s.index,
        svg::xml_escape(&format!(
            "{}{from_tip}, {} ({}): median {} {sym}, p90 {} {sym}",
            s.model,
            s.gpu,
            s.setup,
            unit.text(r.median_j),
            unit.text(r.p90_j)
        ))
    )))?;
    // Sampled every 2 px along the axis, so the curve is smooth on
    // a log scale whatever the bins' widths.
    let first = r.edges_j.iter().copied().find(|e| *e > 0.0).unwrap_or(1.0);
    let last = r.edges_j.last().copied().unwrap_or(first);
    let (left, _) = p.px(unit.of(first), 0.0);
    let (right, _) = p.px(unit.of(last), 0.0);
    let steps = ((right - left).max(1) / 2).max(1);
    let mut pts: Vec<(i32, i32)> = (0..=steps)
        .map(|step| {
            let joules = first * (last / first).powf(f64::from(step) / f64::from(steps));
            p.px(unit.of(joules), share_at_or_below(r, joules))
        })
        .collect();
    pts.dedup();
    pts.retain(|(x, _)| f64::from(*x) >= x0 - 1.0 && f64::from(*x) <= x1 + 1.0);
    draw::line(p.root, &pts, Role::Line(s.look), 2)?;
    let (at, filled) = (
        p.px(unit.of(r.median_j), 50.0),
        !super::Whose::open(s.whose.as_ref()),
    );
    draw::marker(p.root, at, s.look, Role::Point(s.look), filled, false)?;
    p.root.draw(&svg::Markup("</g>\n"))
}
