//! The latency-limit control of a leaderboard and of a model page, with the
//! small block of data it embeds.
//!
//! The limit control's data lists, per model and GPU, only the
//! configurations [`crate::analyse::limit_candidates`] finds (those that are the cheapest
//! within some limit up to the deadline), cheapest first by the analysis's
//! own order; `static/limit.js` shows the first one within the reader's
//! limit, which is what [`crate::analyse::cheapest_within`] picks.

use anyhow::{Context, Result};
use askama::Template;
use serde::Serialize;

use super::views::{Cell, Fact};
use super::{Site, kind, leaderboard_row, row_anchor};
use crate::analyse::{LeaderboardRow, ModelAnalysis};
use crate::columns::Shown;
use crate::fmt;
use crate::model::{Measure, ModelFile};

/// The latency-limit control as a page shows it (`limit_control.html`).
#[derive(Debug, Clone)]
pub struct LimitControl {
    /// The URL parameter: `itl` (ms) or `latency` (s).
    pub param: &'static str,
    /// The input's label, e.g. "Median ITL limit".
    pub label: String,
    /// The same in a sentence, e.g. "median ITL limit".
    pub phrase: String,
    /// What the page then shows: "for each model and GPU, the cheapest
    /// configuration within it".
    pub shows: &'static str,
    /// The latency's unit, "ms" or "s".
    pub unit: &'static str,
    /// The largest limit: the deadline.
    pub max: String,
    pub step: &'static str,
    /// The data, as JSON.
    pub data: String,
    /// A leaderboard's other candidates' rows, a document of their own
    /// ([`LIMIT_ROWS`]) fetched when a limit is first set, or "".
    pub rows: String,
}

/// The file beside a leaderboard that holds its other limit candidates'
/// rows: fetched only when the reader sets a limit, so a first visit does
/// not download them (a third of the chat leaderboard's bytes).
pub const LIMIT_ROWS: &str = "limit-rows.html";

/// The limit rows' file of leaderboard page `number` (from 1):
/// [`LIMIT_ROWS`] beside the first page, `limit-rows-<number>.html` beside
/// the others.
pub fn limit_rows_file(number: usize) -> String {
    if number <= 1 {
        LIMIT_ROWS.to_owned()
    } else {
        format!("limit-rows-{number}.html")
    }
}

/// Whether `file` (a file name) is one of [`limit_rows_file`]'s: read by
/// the page's script, not by readers, so marked `noindex` and left out of
/// the sitemap.
pub fn is_limit_rows_file(file: &str) -> bool {
    file.strip_suffix(".html")
        .and_then(|stem| stem.strip_prefix("limit-rows"))
        .is_some_and(|rest| {
            rest.is_empty()
                || rest
                    .strip_prefix('-')
                    .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
        })
}

/// The limit script's data: what it needs to know of the page, then `rows`.
#[derive(Serialize)]
struct Data<T> {
    param: &'static str,
    unit: &'static str,
    /// The deadline: the largest limit.
    max: f64,
    /// The latency's name in a table header, e.g. "Median ITL".
    latency: String,
    /// The same in a sentence, e.g. "median ITL".
    phrase: &'static str,
    /// The energy's unit, e.g. "Wh/M tok".
    energy: &'static str,
    #[serde(flatten)]
    rows: T,
}

fn control(site: &Site<'_>, rows: impl Serialize, shows: &'static str) -> Result<LimitControl> {
    let words = site.words();
    let phrase = format!("{} limit", words.latency_short);
    let (param, step) = match site.workload.measure {
        Measure::Tokens => ("itl", "1"),
        Measure::Diffusion(_) => ("latency", "0.5"),
    };
    let data = Data {
        param,
        unit: words.latency_unit,
        max: site.workload.deadline,
        latency: fmt::capitalised(words.latency_short),
        phrase: words.latency_short,
        energy: words.energy_unit,
        rows,
    };
    Ok(LimitControl {
        param,
        label: fmt::capitalised(&phrase),
        phrase,
        shows,
        unit: words.latency_unit,
        max: fmt::limit_ms(site.workload.deadline),
        step,
        // `<`, `>` and `&` escaped, so no text of the data can close the
        // `<script>` element.
        data: serde_json::to_string(&data)
            .context("serialising a limit control's data")?
            .replace('<', "\\u003c")
            .replace('>', "\\u003e")
            .replace('&', "\\u0026"),
        rows: String::new(),
    })
}

/// A leaderboard's data: per row of the table (in the built order), its
/// candidates' latencies, cheapest first, and which of them the built row
/// shows (`None` when none: then the row shows the deadline's pick alone).
/// Every other candidate's cells are in [`LIMIT_ROWS`], made by the same
/// code as the table's rows.
#[derive(Serialize)]
struct LeaderboardData {
    /// "within 500 ms": the deadline as the caption words it.
    within: String,
    /// Where the other candidates' rows are, relative to the page.
    spare: String,
    rows: Vec<LimitRow>,
}

/// One row of a leaderboard's table as the limit script sees it.
#[derive(Serialize)]
struct LimitRow {
    /// The latency of each of the row's limit candidates, cheapest first.
    latencies: Vec<f64>,
    /// Which candidate the built row shows, or `None` when none (the row
    /// then shows the deadline's pick alone).
    shown: Option<usize>,
}

/// A leaderboard row's cells for one of its other limit candidates
/// (`limit_rows.html`): all but the first (the model, which is the same).
pub struct SpareRow {
    /// The row's position in the built table.
    pub row: usize,
    /// The candidate's position in the row's list.
    pub k: usize,
    pub cells: Vec<Cell>,
}

#[derive(Template)]
#[template(path = "limit_rows.html")]
struct SpareRows {
    workload: String,
    rows: Vec<SpareRow>,
}

/// The limit control of a leaderboard page showing `rows` of the
/// workload's leaderboard (of `columns`), and the other candidates' cells,
/// made as the table's, for the file `spare` beside the page: each page of
/// a leaderboard of several carries its own rows' data only.
pub fn leaderboard_control(
    site: &Site<'_>,
    rows: &[LeaderboardRow],
    spare_file: &str,
    columns: &[Shown],
) -> Result<LimitControl> {
    let mut spare = Vec::new();
    let rows = rows
        .iter()
        .enumerate()
        .map(|(row, &r)| {
            let (_, c) = site.row(r);
            let candidates = site.analyses[r.model].candidates_on(&c.gpu);
            let base = candidates.iter().position(|&i| i == r.config);
            let latencies = candidates
                .iter()
                .enumerate()
                .map(|(k, &config)| {
                    let r = LeaderboardRow { config, ..r };
                    if Some(k) != base {
                        let cells = leaderboard_row(site, r, "", columns).cells.split_off(1);
                        spare.push(SpareRow { row, k, cells });
                    }
                    site.row(r).1.latency()
                })
                .collect();
            LimitRow {
                latencies,
                shown: base,
            }
        })
        .collect();
    let data = LeaderboardData {
        within: format!("within {}", site.deadline()),
        spare: spare_file.to_owned(),
        rows,
    };
    let mut control = control(
        site,
        data,
        "for each model and GPU, the cheapest configuration within it, in the same table (rows \
            with none are hidden)",
    )?;
    control.rows = SpareRows {
        workload: site.workload.name.clone(),
        rows: spare,
    }
    .render()
    .context("rendering the limit's rows")?;
    Ok(control)
}

/// One limit candidate of a model page: what its card and its cell in the
/// table of limits show.
#[derive(Serialize)]
struct PageCandidate {
    /// Its latency, in the control's unit.
    latency: f64,
    /// The id of its row in the page's table.
    anchor: String,
    /// Its setup in words, e.g. "2 × H100, max concurrency 64".
    setup: String,
    /// Its cell in the table of limits.
    budget: String,
    /// Its card's figures.
    figures: Vec<Fact>,
}

/// The limit candidates of a model on one GPU, cheapest first.
#[derive(Serialize)]
struct GpuCandidates {
    gpu: String,
    candidates: Vec<PageCandidate>,
}

/// A model page's data: per GPU of the file (the order of its cards), the
/// GPU and its candidates.
#[derive(Serialize)]
struct ModelData {
    gpus: Vec<GpuCandidates>,
}

pub fn model_control(site: &Site<'_>, m: &ModelFile, a: &ModelAnalysis) -> Result<LimitControl> {
    let tables = kind::tables(site.workload.measure);
    let gpus = m
        .gpus
        .iter()
        .map(|gpu| {
            let list = a
                .candidates_on(gpu)
                .iter()
                .map(|&i| {
                    let c = &m.configurations[i];
                    PageCandidate {
                        latency: c.latency(),
                        anchor: row_anchor(&m.slug, &c.row_id),
                        setup: kind::config_summary(c),
                        budget: kind::budget_text(c),
                        figures: kind::card_figures(&tables, m, c),
                    }
                })
                .collect();
            GpuCandidates {
                gpu: gpu.clone(),
                candidates: list,
            }
        })
        .collect();
    control(
        site,
        ModelData { gpus },
        "in the cards and in a row of its own in the table of limits, the cheapest configuration \
            on each GPU within it (or none)",
    )
}
