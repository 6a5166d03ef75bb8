//! What the reader's controls need (issue 14): the latency-limit control
//! of a leaderboard and of a model page, with the small block of data it
//! embeds, and the compare page's chooser of models and GPUs.
//!
//! The limit control's data lists, per model and GPU, only the
//! configurations [`crate::analyse::limit_candidates`] finds (those that are the cheapest
//! within some limit up to the deadline), cheapest first by the analysis's
//! own order; `static/limit.js` shows the first one within the reader's
//! limit, which is what [`crate::analyse::cheapest_within`] picks.

use serde::Serialize;

use super::{PageKind, Site, row_anchor};
use crate::analyse::{LeaderboardRow, ModelAnalysis};
use crate::chart::KeyOf;
use crate::columns::Record;
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
    /// What the page then shows: "for each model and GPU, the cheapest
    /// configuration within it".
    pub shows: &'static str,
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

fn control<F: PageKind>(site: &Site<'_, F>, data: String, shows: &'static str) -> LimitControl {
    let words = site.words();
    let phrase = format!("{} limit", words.latency_short);
    let label = fmt::capitalised(&phrase);
    let tokens = site.workload.measure == Measure::Tokens;
    LimitControl {
        param: limit_param(site.workload.measure),
        label,
        phrase,
        shows,
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
    /// The same in a sentence, e.g. "median ITL".
    phrase: &'static str,
    /// The energy's unit, e.g. "Wh/M tok".
    energy: &'static str,
}

fn head<F: PageKind>(site: &Site<'_, F>) -> Head {
    let words = site.words();
    let latency = fmt::capitalised(words.latency_short);
    Head {
        param: limit_param(site.workload.measure),
        unit: words.latency_unit,
        max: site.workload.deadline,
        latency,
        phrase: words.latency_short,
        energy: words.energy_unit,
    }
}

/// A leaderboard's data, column by column (what compresses best: a
/// 50-model leaderboard's block is about 6 KB gzip): per row of the table
/// (`data-row`), its candidates' latencies, energies, row anchors and setups.
/// A figure's text is left for the script to write when it is the number
/// as JSON writes it, padded with zeros (and grouped by thousands where the
/// page groups); a setup is a prefix shared by the row's series plus the
/// load. Where that would not give the page's text, the text is there.
#[derive(Serialize)]
struct LeaderboardData {
    #[serde(flatten)]
    head: Head,
    /// Decimals and grouping of the energy and of the latency.
    figures: [(usize, bool); 2],
    /// The setup's load, around the number: (before, after).
    load: (&'static str, &'static str),
    rows: Vec<RowData>,
}

/// One leaderboard row's candidates, column by column.
#[derive(Serialize, Default)]
struct RowData {
    /// Setup prefixes, e.g. "1 × B200, BF16".
    p: Vec<String>,
    /// Latencies.
    l: Vec<f64>,
    /// Energies.
    e: Vec<f64>,
    /// Row anchors on the model page.
    a: Vec<String>,
    /// Each candidate's prefix, by index in `p`.
    s: Vec<usize>,
    /// Loads.
    n: Vec<u32>,
    /// Texts the script would not write itself: candidate index →
    /// [energy, latency, setup], each `None` when the script's own is right.
    #[serde(skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    t: std::collections::BTreeMap<usize, [Option<String>; 3]>,
}

/// `value` as `static/limit.js` writes it (`figure`): the shortest text that
/// reads back as the number (as JSON and JavaScript write it), its
/// fraction padded with zeros to `decimals`, its whole part grouped by
/// thousands when `grouped`; `None` when that cannot give `decimals`
/// decimals (an exponent, or more digits).
fn script_figure(value: f64, decimals: usize, grouped: bool) -> Option<String> {
    // JavaScript writes these with an exponent; Rust does not.
    if !value.is_finite() || value.abs() >= 1e21 || value.abs() < 1e-6 {
        return None;
    }
    let text = format!("{value}");
    let (whole, frac) = text.split_once('.').unwrap_or((&text, ""));
    if frac.len() > decimals {
        return None;
    }
    let mut out = if grouped {
        fmt::grouped_fixed(whole.parse::<f64>().ok()?, 0)
    } else {
        whole.to_owned()
    };
    if decimals > 0 {
        out.push('.');
        out.push_str(frac);
        out.extend(std::iter::repeat_n('0', decimals - frac.len()));
    }
    Some(out)
}

/// The text of a figure for the data: `None` when the script writes
/// `page` itself from `value`.
fn text_unless_derived(
    value: f64,
    (decimals, grouped): (usize, bool),
    page: String,
) -> Option<String> {
    (script_figure(value, decimals, grouped).as_deref() != Some(page.as_str())).then_some(page)
}

/// The limit control of a workload's leaderboard, for its rows.
pub fn leaderboard_control<F: PageKind>(
    site: &Site<'_, F>,
    rows: &[LeaderboardRow],
) -> LimitControl {
    let tokens = site.workload.measure == Measure::Tokens;
    // fmt::wh_per_million and fmt::ms; fmt::joules_per_item and
    // fmt::seconds.
    let figures = if tokens {
        [(2, false), (1, false)]
    } else {
        [(2, true), (3, true)]
    };
    let load = if tokens {
        (", ", " seqs")
    } else {
        (", batch ", "")
    };
    let rows = rows
        .iter()
        .map(|&r| {
            let (m, c) = site.row(r);
            let mut row = RowData::default();
            let candidates = site.analyses[r.model].candidates_on(c.gpu());
            for (k, &i) in candidates.iter().enumerate() {
                let c = &m.configurations()[i];
                let setup = F::compare_setup(c);
                let suffix = format!("{}{}{}", load.0, c.load(), load.1);
                let prefix = setup.strip_suffix(&suffix).unwrap_or(&setup).to_owned();
                let p = row.p.iter().position(|x| *x == prefix).unwrap_or_else(|| {
                    row.p.push(prefix.clone());
                    row.p.len() - 1
                });
                let texts = [
                    text_unless_derived(c.energy(), figures[0], F::energy_figure(c)),
                    text_unless_derived(c.latency(), figures[1], F::latency_text(c.latency())),
                    (format!("{prefix}{suffix}") != setup).then_some(setup),
                ];
                if texts.iter().any(Option::is_some) {
                    row.t.insert(k, texts);
                }
                row.l.push(c.latency());
                row.e.push(c.energy());
                row.a.push(row_anchor(m.slug(), c.row_id()));
                row.s.push(p);
                row.n.push(c.load());
            }
            row
        })
        .collect();
    let data = script_json(&LeaderboardData {
        head: head(site),
        figures,
        load,
        rows,
    });
    control(
        site,
        data,
        "for each model and GPU, the cheapest configuration within it (or none)",
    )
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
pub fn model_control<F: PageKind>(
    site: &Site<'_, F>,
    m: &F,
    a: &ModelAnalysis<KeyOf<F>>,
) -> LimitControl {
    let tables = F::tables(site.workload.measure);
    let gpus = m
        .gpus()
        .iter()
        .map(|gpu| {
            let list = a
                .candidates_on(gpu)
                .iter()
                .map(|&i| {
                    let c = &m.configurations()[i];
                    (
                        c.latency(),
                        row_anchor(m.slug(), c.row_id()),
                        F::config_summary(c),
                        F::budget_text(c),
                        super::kind::card_figures(
                            &tables,
                            &Record {
                                workload: &site.workload.id,
                                model: m,
                                config: c,
                                rank: None,
                            },
                        ),
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
    control(
        site,
        data,
        "in the cards and in a row of its own in the table of limits, the cheapest configuration on each GPU within it (or none)",
    )
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

#[cfg(test)]
mod tests {
    use super::script_figure;
    use crate::fmt;

    #[test]
    fn the_script_writes_a_figure_as_the_page_does_or_is_given_the_text() {
        // Same text: the data leaves it out.
        assert_eq!(
            script_figure(28.5, 2, false).unwrap(),
            fmt::wh_per_million(28.5)
        );
        assert_eq!(script_figure(39.05, 2, false).unwrap(), "39.05");
        assert_eq!(script_figure(41.0, 1, false).unwrap(), fmt::ms(41.0));
        assert_eq!(
            script_figure(342_623.06, 2, true).unwrap(),
            fmt::joules_per_item(342_623.06)
        );
        assert_eq!(script_figure(7.755, 3, true).unwrap(), fmt::seconds(7.755));
        assert_eq!(script_figure(1234.5, 3, true).unwrap(), "1,234.500");
        // More digits than the page shows, or an exponent: the text is
        // given instead.
        assert_eq!(script_figure(1.005, 2, false), None);
        assert_eq!(script_figure(1e21, 2, false), None);
        assert_eq!(script_figure(1e-7, 2, false), None);
    }
}
