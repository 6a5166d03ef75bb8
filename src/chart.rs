//! Charts: analysed data in, standalone SVG strings out. Charts know nothing
//! about pages.

use crate::analyse::ModelAnalysis;
use crate::model::ModelFile;

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

/// The five charts of a model page.
pub fn model_charts(_m: &ModelFile, _a: &ModelAnalysis) -> Vec<Chart> {
    Vec::new()
}

/// Sorted horizontal bars of best energy, for the leaderboard and GPU pages.
pub fn best_energy_bars(file_name: &str, title: &str, _entries: &[BarEntry]) -> Chart {
    placeholder(file_name, title)
}

fn placeholder(file_name: &str, title: &str) -> Chart {
    Chart {
        file_name: file_name.to_owned(),
        title: title.to_owned(),
        description: title.to_owned(),
        svg: format!(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 800 400\"><title>{title}</title><desc>{title}</desc></svg>"
        ),
        table: DataTable::default(),
    }
}

/// Every model's Pareto frontier on one ITL-vs-energy chart.
pub fn compare_frontiers(_models: &[(&ModelFile, &ModelAnalysis)]) -> Chart {
    placeholder("frontiers.svg", "Frontiers")
}
