//! Charts: analysed data in, standalone SVG strings out. Charts know nothing
//! about pages.
//!
//! Every chart is drawn with plotters (no system fonts) on a backend of our
//! own, [`svg`], that writes the published SVG in one pass: sentinel
//! colours become classes coloured by an embedded `<style>` with a
//! dark-mode palette, the root gets a `viewBox` but no fixed size, and
//! `<title>`/`<desc>` come first. The output is byte for byte what
//! plotters' own SVG backend plus a rewrite of its output used to give.
//!
//! Classes a reader (or a test) can rely on, with `N` the series index:
//! `pN` filled data point (first run), `hN` open data point (repeated run),
//! `sN` series line, `b` ring around a best point, `fr` Pareto frontier,
//! `dl` deadline line, `l` data label, `cN` bar, `wN`/`nN`/`qN` latency
//! stem, p90 dot and p99 cap.

mod axis;
mod draw;
mod layout;
mod model_page;
mod response;
mod site;
mod style;
pub mod svg;

use crate::analyse::ModelAnalysis;
use crate::model::{Measurements, ModelFile, Words};

pub use crate::model::ITL_PERCENTILES;
pub use model_page::{Ctx, Metric, PageCharts};

pub use response::{
    OverlaySeries, ResponseOverlay, ResponseUnit, response_histogram, response_overlay,
};
pub use site::{BarScale, FrontierPicker, GroupedBar, MAX_BARS, MAX_FRONTIERS};
pub(crate) use style::gpu_slot;

/// A chart's data as a plain table, shown under the chart for readers who
/// cannot see it.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct DataTable {
    /// Column headers, each with its unit.
    pub headers: Vec<String>,
    /// Rows of formatted cells.
    pub rows: Vec<Vec<String>>,
}

/// One chart: an SVG file that sits next to its page.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Chart {
    /// File name next to the page, e.g. `energy-vs-concurrency.svg`.
    pub file_name: String,
    /// Short title; also the SVG `<title>`.
    pub title: String,
    /// One or two sentences saying what the chart shows; also the SVG
    /// `<desc>` and the image's alt text.
    pub description: String,
    /// The SVG document.
    pub svg: String,
    /// The data drawn.
    pub table: DataTable,
}

/// One bar of a best-energy bar chart.
#[derive(Debug, Clone, PartialEq)]
pub struct BarEntry {
    /// Model name.
    pub model: String,
    /// GPU type.
    pub gpu: String,
    /// Best Wh per million output tokens on that GPU.
    pub wh_per_million: f64,
}

impl BarEntry {
    /// One bar per GPU on which `m` has a best configuration.
    pub fn best_of<'a>(m: &'a ModelFile, a: &'a ModelAnalysis) -> impl Iterator<Item = Self> + 'a {
        a.best_per_gpu.iter().filter_map(move |(gpu, best)| {
            best.map(|i| Self {
                model: m.name.clone(),
                gpu: gpu.clone(),
                wh_per_million: m.configurations[i].wh_per_million_output_tokens,
            })
        })
    }
}

/// The five charts of a model page, in this order. A per-token model's are
/// `energy-vs-concurrency.svg`, `latency-vs-concurrency.svg`,
/// `throughput-vs-concurrency.svg`, `power-vs-concurrency.svg` and
/// `time-energy-tradeoff.svg`; a diffusion model's are drawn against batch
/// size (`energy-vs-batch-size.svg`, …) and end with the same
/// `time-energy-tradeoff.svg`. Empty for a model without configurations.
pub fn model_charts<M: PageCharts>(m: &M, a: &ModelAnalysis) -> Vec<Chart> {
    model_page::model_charts(m, a)
}

/// The time–energy chart again at the p90, p95 and p99 inter-token latency
/// (`time-energy-tradeoff-p90.svg`, …, in [`ITL_PERCENTILES`] order), for
/// per-token models; empty for a diffusion model.
pub fn percentile_charts<M: PageCharts>(m: &M, a: &ModelAnalysis) -> Vec<Chart> {
    model_page::percentile_charts(m, a)
}

/// Sorted horizontal bars of best energy, lowest first, coloured and marked
/// by GPU, for the leaderboard (`best-energy.svg`) and GPU pages. Past
/// [`MAX_BARS`] entries only the lowest are drawn (and tabled), and the
/// title and description say so.
pub fn best_energy_bars(file_name: &str, title: &str, entries: &[BarEntry]) -> Chart {
    site::best_energy_bars(file_name, title, entries)
}

/// Every model's Pareto frontier on one ITL-vs-energy chart
/// (`frontiers.svg`), one series per model in the order given. Past
/// [`MAX_FRONTIERS`] models, only those with the lowest energy within
/// their deadline are drawn (and tabled), and the title and description
/// say so.
pub fn compare_frontiers<M: Measurements>(words: &Words, models: &[(&M, &ModelAnalysis)]) -> Chart {
    site::compare_frontiers(words, models)
}

/// Every model's Pareto frontier on one chart, one group per model, for
/// the compare page to show any set of them: see [`FrontierPicker`].
pub fn frontier_picker<M: Measurements>(
    words: &Words,
    models: &[(&M, &ModelAnalysis)],
) -> FrontierPicker {
    site::frontier_picker(words, models)
}

/// Horizontal bars in the order given, coloured by series (e.g. one colour
/// per workload), each labelled with `value_text` of its value, on a
/// `scale` axis named `axis` (the axis title adds "log scale" to a log
/// one). `what` opens the description ("Energy per response of …"). Past
/// [`MAX_BARS`] bars only the first are drawn, and the title and
/// description say so; the data table lists every bar.
pub fn grouped_bars(
    file_name: &str,
    title: &str,
    axis: &str,
    what: &str,
    bars: &[GroupedBar],
    scale: BarScale,
    value_text: fn(f64) -> String,
) -> Chart {
    site::grouped_bars(file_name, title, axis, what, bars, scale, value_text)
}

/// Every configuration of every model of a workload on one chart
/// (`all-configurations.svg`), latency against energy, one colour and
/// marker per model; each point links to `href(model, configuration)`
/// (relative to the chart's file) and names itself in a `<title>` tooltip.
/// Shown in an `<iframe>`, so its tooltips and links work without script.
pub fn configuration_scatter<M: Measurements>(
    words: &Words,
    models: &[(&M, &ModelAnalysis)],
    href: impl Fn(&M, &M::Config) -> String,
) -> Chart {
    site::configuration_scatter(words, models, href)
}
