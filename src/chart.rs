//! Charts: analysed data in, standalone SVG strings out. Charts know nothing
//! about pages.
//!
//! Every chart is drawn with plotters (no system fonts) on a backend of our
//! own, [`svg`], that writes the published SVG in one pass.
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
use crate::model::ModelFile;

pub use crate::model::ITL_PERCENTILES;
pub use model_page::{model_charts, percentile_charts, tradeoff_still, tradeoff_wide};

pub use draw::DrawError;
pub use response::{
    OverlaySeries, ResponseHistogram, ResponseOverlay, ResponseUnit, response_histogram,
    response_overlay,
};
pub use site::{
    BarChart, BarScale, CompareModel, ComparePicker, CompareScale, EVERY_CONFIGURATION, GroupedBar,
    MAX_BARS, MAX_FRONTIERS, best_energy_bars, compare_frontiers, compare_picker, compare_scale,
    configuration_scatter_marked, configuration_scatters_marked, grouped_bars,
};
pub(crate) use style::gpu_slot;

/// A chart's data as a plain table, shown under the chart for readers who
/// cannot see it.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct DataTable {
    /// Column headers, each with its unit.
    pub headers: Vec<String>,
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
    pub svg: String,
    pub table: DataTable,
}

impl Chart {
    /// The chart drawn in `doc`, finished as a standalone SVG (`themed`:
    /// see [`svg::finish`]).
    fn new(
        file_name: String,
        title: String,
        description: String,
        doc: &svg::Doc,
        table: DataTable,
        themed: Option<&str>,
    ) -> Self {
        let svg = svg::finish(doc, &title, &description, themed);
        Chart {
            file_name,
            title,
            description,
            svg,
            table,
        }
    }
}

/// Whose measurement a bar or a series is, on a site that mixes sources:
/// the first source's are drawn filled, another's open (outlined bars,
/// hollow markers); each source drawn has a legend entry, and tooltips and
/// the description name it. `None` on a site of one source.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Whose {
    /// The source's place among the site's sources: 0 (the leaderboard's,
    /// when it has files) drawn filled, the others open.
    pub rank: usize,
    /// Its key ([`crate::model::Source::key`]): an inline chart's series
    /// group carries the class `from-<key>`, so a page can show one source
    /// alone.
    pub key: String,
    /// Its name, e.g. "Example Lab measurements".
    pub name: String,
}

impl Whose {
    /// Whether its bars and markers are drawn open.
    pub(crate) fn open(whose: Option<&Self>) -> bool {
        whose.is_some_and(|w| w.rank > 0)
    }
}

/// For each model given, whose measurements it holds, when they come from
/// two sources or more (else `None` for each): ranked as the site ranks
/// them, the leaderboard's first, then by source id.
pub fn whose_of<'m>(models: impl Iterator<Item = &'m ModelFile> + Clone) -> Vec<Option<Whose>> {
    let mut keys: Vec<Option<&str>> = models.clone().map(|m| m.source.id.as_deref()).collect();
    keys.sort_unstable();
    keys.dedup();
    let mixed = keys.len() > 1;
    models
        .map(|m| {
            let s = &m.source;
            mixed.then(|| Whose {
                rank: keys.iter().position(|k| *k == s.id.as_deref()).unwrap_or(0),
                key: s.key().to_owned(),
                name: s.name.clone(),
            })
        })
        .collect()
}

/// One bar of a best-energy bar chart.
#[derive(Debug, Clone, PartialEq)]
pub struct BarEntry {
    pub model: String,
    pub gpu: String,
    /// Best Wh per million output tokens on that GPU.
    pub wh_per_million: f64,
    /// Whose measurement it is, on a site of several sources.
    pub whose: Option<Whose>,
}

impl BarEntry {
    /// One bar per GPU on which `m` has a best configuration.
    pub fn best_of<'a>(m: &'a ModelFile, a: &'a ModelAnalysis) -> impl Iterator<Item = Self> + 'a {
        a.best_per_gpu.iter().filter_map(move |b| {
            b.best.map(|i| Self {
                model: m.name.clone(),
                gpu: b.gpu.clone(),
                wh_per_million: m.configurations[i].energy(),
                whose: None,
            })
        })
    }
}
