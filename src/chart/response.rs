//! The histogram of energy per response of one configuration.

use plotters::element::Rectangle;
use plotters::style::Color;

use super::axis::{Axis, tick_label};
use super::draw::{self, Frame, Header, TEXT_PX};
use super::layout::Align;
use super::style::{Role, gpu_slot};
use super::{Chart, DataTable, svg};
use crate::analyse::response::ResponseEnergy;
use crate::fmt;

/// The unit a histogram of energy per response is drawn in: joules, or
/// watt-hours when its top edge reaches 1 Wh (3,600 J).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ResponseUnit {
    /// Joules.
    Joules,
    /// Watt-hours.
    WattHours,
}

impl ResponseUnit {
    /// The unit for a histogram whose edges (J) are `edges_j`.
    pub fn for_edges(edges_j: &[f64]) -> Self {
        if edges_j.last().copied().unwrap_or(0.0) >= 3600.0 {
            Self::WattHours
        } else {
            Self::Joules
        }
    }

    /// `j` joules in this unit.
    pub fn of(self, j: f64) -> f64 {
        match self {
            Self::Joules => j,
            Self::WattHours => j / 3600.0,
        }
    }

    /// The unit's symbol.
    pub fn symbol(self) -> &'static str {
        match self {
            Self::Joules => "J",
            Self::WattHours => "Wh",
        }
    }

    /// `j` joules written in this unit, without the symbol: J with one
    /// decimal, Wh with four (the page formats of energy per response).
    pub fn text(self, j: f64) -> String {
        match self {
            Self::Joules => fmt::grouped_fixed(j, 1),
            Self::WattHours => fmt::wh_per_response(j / 3600.0),
        }
    }
}

/// The histogram of `r` for the configuration `setup` on `gpu`
/// (`file_name`, e.g. `energy-per-response-h100.svg`), in `unit`: one bar
/// per bin on linear axes from zero to at least `x_max_j` joules (the same
/// for every GPU of a model, so their histograms compare by eye), with the
/// median and 90th percentile marked.
#[allow(clippy::too_many_arguments)]
pub fn response_histogram(
    file_name: &str,
    model: &str,
    gpu: &str,
    setup: &str,
    joules_per_token: f64,
    r: &ResponseEnergy,
    unit: ResponseUnit,
    x_max_j: f64,
) -> Chart {
    let sym = unit.symbol();
    let title = format!("Energy per response on {gpu}: {model}");
    let slot = gpu_slot(gpu);
    let x_max = unit.of(r.edges_j.last().copied().unwrap_or(1.0).max(x_max_j));
    let y_max = r.counts.iter().copied().max().unwrap_or(1) as f64;
    let frame = Frame {
        header: Header::new(&title, Vec::new()),
        x: Axis::from_zero(x_max),
        y: Axis::from_zero(y_max),
        x_desc: format!("Energy per response ({sym})"),
        y_desc: "Responses per bin".to_owned(),
        body: 300,
        y_area: None,
        x_ticks: tick_label,
    };
    let median = unit.of(r.median_j);
    let p90 = unit.of(r.p90_j);
    let median_label = format!("median {} {sym}", unit.text(r.median_j));
    let p90_label = format!("p90 {} {sym}", unit.text(r.p90_j));
    let doc = draw::render_xy(&frame, 8 * 1024, |p| {
        let (_, base) = p.px(0.0, 0.0);
        for (i, &count) in r.counts.iter().enumerate() {
            if count == 0 {
                continue;
            }
            let (x0, top) = p.px(unit.of(r.edges_j[i]), count as f64);
            let (x1, _) = p.px(unit.of(r.edges_j[i + 1]), 0.0);
            // A bin of a few responses beside one of thousands rounds to
            // no height: draw it a pixel high, so every non-empty bin shows.
            p.root.draw(&Rectangle::new(
                [(x0, top.min(base - 1)), (x1.max(x0 + 1), base)],
                Role::Bar(slot).color().filled(),
            ))?;
        }
        let y0 = p.area.y0 as i32;
        for (value, label, dy) in [(median, &median_label, 10), (p90, &p90_label, 28)] {
            let (x, _) = p.px(value, 0.0);
            draw::line(p.root, &[(x, y0), (x, base)], Role::Ink, 2)?;
            // Right of the line, unless that runs past the plot.
            let room = p.area.x1 - f64::from(x);
            let (at, align) = if room > super::layout::text_width(label, TEXT_PX) + 8.0 {
                (x + 5, Align::Start)
            } else {
                (x - 5, Align::End)
            };
            draw::text(
                p.root,
                label,
                (at, y0 + dy),
                TEXT_PX,
                align,
                Role::Label,
                false,
            )?;
        }
        Ok(())
    });
    let description = format!(
        "Histogram of the GPU energy per response of the best {gpu} configuration ({setup}): {} responses in {} bins from {} to {} {sym}, each bin's output lengths × {} J per output token; linear scales. Median {} {sym}, 90th percentile {} {sym}, marked by vertical lines.",
        fmt::grouped(r.total as f64),
        r.counts.len(),
        unit.text(r.edges_j.first().copied().unwrap_or(0.0)),
        unit.text(r.edges_j.last().copied().unwrap_or(0.0)),
        fmt::joules_per_token(joules_per_token),
        unit.text(r.median_j),
        unit.text(r.p90_j),
    );
    let rows = r
        .counts
        .iter()
        .enumerate()
        .map(|(i, c)| {
            vec![
                unit.text(r.edges_j[i]),
                unit.text(r.edges_j[i + 1]),
                fmt::grouped(*c as f64),
            ]
        })
        .collect();
    Chart {
        file_name: file_name.to_owned(),
        svg: svg::finish(&doc, &title, &description),
        title,
        description,
        table: DataTable {
            headers: vec![
                format!("From ({sym})"),
                format!("To ({sym})"),
                "Responses".to_owned(),
            ],
            rows,
        },
    }
}
