//! What the reader's controls need (issue 14): the latency-limit control
//! of a leaderboard and of a model page, with the small block of data it
//! embeds, and the compare page's chooser of models and GPUs.
//!
//! The limit control's data lists, per model and GPU, only the
//! configurations [`limit_candidates`] finds (those that are the cheapest
//! within some limit up to the deadline), cheapest first by the analysis's
//! own order; `static/limit.js` shows the first one within the reader's
//! limit, which is what [`crate::analyse::cheapest_within`] picks.

use serde::Serialize;

use super::{PageKind, Site, Words, row_anchor};
use crate::analyse::{LeaderboardRow, limit_candidates};
use crate::fmt;
use crate::model::Measured;
use crate::workload::Measure;

/// The latency-limit control as a page shows it (`limit_control.html`).
#[derive(Debug, Clone)]
pub struct LimitControl {
    /// The URL parameter: `itl` (ms) or `latency` (s).
    pub param: &'static str,
    /// The input's label, e.g. "Median ITL limit".
    pub label: String,
    /// The same in a sentence, e.g. "median ITL limit".
    pub phrase: String,
    /// The latency's unit, "ms" or "s".
    pub unit: &'static str,
    /// The largest limit: the deadline.
    pub max: String,
    /// Step of the slider.
    pub step: &'static str,
    /// The data, as JSON safe inside `<script>`.
    pub data: String,
}

/// The URL parameter of a workload's latency limit.
pub fn limit_param(measure: Measure) -> &'static str {
    match measure {
        Measure::Tokens => "itl",
        Measure::Diffusion(_) => "latency",
    }
}

/// JSON that may sit inside a `<script>` element: `<`, `>` and `&` written
/// as escapes, so no text of the data can close the element.
fn script_json(value: &impl Serialize) -> String {
    let json = serde_json::to_string(value).expect("plain data serialises");
    json.replace('<', "\\u003c")
        .replace('>', "\\u003e")
        .replace('&', "\\u0026")
}

fn control<F: PageKind>(site: &Site<'_, F>, data: String) -> LimitControl {
    let words = site.words();
    let phrase = format!("{} limit", words.latency_short);
    let mut label = phrase.clone();
    if let Some(first) = label.get_mut(..1) {
        first.make_ascii_uppercase();
    }
    let tokens = site.workload.measure == Measure::Tokens;
    LimitControl {
        param: limit_param(site.workload.measure),
        label,
        phrase,
        unit: words.latency_unit,
        max: fmt::limit_ms(site.workload.deadline),
        step: if tokens { "1" } else { "0.5" },
        data,
    }
}

/// What the limit script needs to know of the page, besides its rows.
#[derive(Serialize)]
struct Head {
    /// URL parameter.
    param: &'static str,
    /// Unit of the latency.
    unit: &'static str,
    /// The deadline: the largest limit.
    max: f64,
    /// The latency's name in a table header, e.g. "Median ITL".
    latency: String,
    /// The energy's unit, e.g. "Wh/M tok".
    energy: &'static str,
}

fn head<F: PageKind>(site: &Site<'_, F>) -> Head {
    let words = site.words();
    let mut latency = words.latency_short.to_owned();
    if let Some(first) = latency.get_mut(..1) {
        first.make_ascii_uppercase();
    }
    Head {
        param: limit_param(site.workload.measure),
        unit: words.latency_unit,
        max: site.workload.deadline,
        latency,
        energy: words.energy_unit,
    }
}

/// The candidates of model `m` on `gpu`, up to its deadline.
fn candidates<F: PageKind>(m: &F, gpu: &str) -> Vec<usize> {
    limit_candidates(m.configurations(), m.deadline(), |c| c.gpu() == gpu)
}

/// A leaderboard's data: per row (in the table's order, `data-row`), its
/// candidates as `[latency, energy, energy text, row anchor, setup,
/// latency text]`.
#[derive(Serialize)]
struct LeaderboardData {
    #[serde(flatten)]
    head: Head,
    rows: Vec<Vec<(f64, f64, String, String, String, String)>>,
}

/// The limit control of a workload's leaderboard, for its rows.
pub fn leaderboard_control<F: PageKind>(
    site: &Site<'_, F>,
    rows: &[LeaderboardRow],
) -> LimitControl {
    let rows = rows
        .iter()
        .map(|&r| {
            let (m, c) = site.row(r);
            candidates(m, c.gpu())
                .into_iter()
                .map(|i| {
                    let c = &m.configurations()[i];
                    (
                        c.latency(),
                        c.energy(),
                        F::energy_figure(c),
                        row_anchor(m.slug(), c.row_id()),
                        F::compare_setup(c),
                        latency_text(site.words(), c.latency()),
                    )
                })
                .collect()
        })
        .collect();
    let data = script_json(&LeaderboardData {
        head: head(site),
        rows,
    });
    control(site, data)
}

/// A latency in its page format: "41.9" ms or "7.755" s.
fn latency_text(words: Words, value: f64) -> String {
    if words.latency_unit == "ms" {
        fmt::ms(value)
    } else {
        fmt::seconds(value)
    }
}

/// One candidate of a model page: `[latency, row anchor, setup, budget
/// text, card figures]`.
type PageCandidate = (f64, String, String, String, Vec<(String, String)>);

/// A model page's data: per GPU of the file (the order of its cards), the
/// GPU and its candidates.
#[derive(Serialize)]
struct ModelData {
    #[serde(flatten)]
    head: Head,
    gpus: Vec<(String, Vec<PageCandidate>)>,
}

/// The limit control of a model page.
pub fn model_control<F: PageKind>(site: &Site<'_, F>, m: &F) -> LimitControl {
    let gpus = m
        .gpus()
        .iter()
        .map(|gpu| {
            let list = candidates(m, gpu)
                .into_iter()
                .map(|i| {
                    let c = &m.configurations()[i];
                    (
                        c.latency(),
                        row_anchor(m.slug(), c.row_id()),
                        F::config_summary(c),
                        F::budget_text(c),
                        F::card_figures(c),
                    )
                })
                .collect();
            (gpu.clone(), list)
        })
        .collect();
    let data = script_json(&ModelData {
        head: head(site),
        gpus,
    });
    control(site, data)
}

/// The compare link of a model page: the model with its nearest peers by
/// parameter count (total parameters), at most `n` of them, nearest first
/// (ties: the smaller model, then the slug).
pub fn size_peers<F: PageKind>(site: &Site<'_, F>, m: &F, n: usize) -> Vec<String> {
    let mut others: Vec<(&F, f64)> = site
        .models
        .iter()
        .map(|lm| &lm.file)
        .filter(|o| o.slug() != m.slug())
        .map(|o| (o, (o.params_b() - m.params_b()).abs()))
        .collect();
    others.sort_by(|a, b| {
        a.1.total_cmp(&b.1)
            .then(a.0.params_b().total_cmp(&b.0.params_b()))
            .then_with(|| a.0.slug().cmp(b.0.slug()))
    });
    std::iter::once(m.slug().to_owned())
        .chain(others.into_iter().take(n).map(|(o, _)| o.slug().to_owned()))
        .collect()
}
