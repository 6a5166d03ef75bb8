//! Rendering: analysed data and SVG strings in, pages out. Pages are streamed
//! to a [`PageSink`] as they are made (models in parallel); this module never
//! writes a file itself.
//!
//! Every link is relative (through a `root` prefix, as mdBook's
//! `path_to_root`), so the site works under any sub-path and from disk.

mod downloads;
mod views;

use std::collections::BTreeSet;

use anyhow::{Context, Result};
use askama::Template;
use rayon::prelude::*;

use crate::analyse::{LeaderboardRow, ModelAnalysis, analyse_model, leaderboard};
use crate::chart::{self, BarEntry, Chart};
use crate::columns::{COLUMNS, Column, column};
use crate::fmt;
use crate::load::{Asset, LoadedModel};
use crate::model::{Configuration, ModelFile, row_anchor, url_segment};
use crate::write::PageSink;

pub use downloads::{configurations_csv, leaderboard_csv};
use views::{
    Attr, Cell, ChartView, Header, Row, RowGroup, TableView, chart_view, table_html,
    table_html_from_rows,
};

/// Everything the pages are made from.
#[derive(Debug)]
pub struct Site<'a> {
    /// The loaded models, ordered by slug.
    pub models: &'a [LoadedModel],
    /// One analysis per model, same order.
    pub analyses: Vec<ModelAnalysis>,
    /// Leaderboard rows, best first.
    pub leaderboard: Vec<LeaderboardRow>,
    /// Every GPU type measured, in first-seen order over the models.
    pub gpus: Vec<String>,
    /// Absolute base URL, ending in `/`, when known.
    pub base_url: Option<String>,
    /// Site-wide provenance and headline facts.
    pub info: SiteInfo,
}

/// Provenance shared by the pages: where the numbers come from.
#[derive(Debug, Clone, Default)]
pub struct SiteInfo {
    /// Source name(s).
    pub source_name: String,
    /// Source URL (of the first model; all seed files agree).
    pub source_url: String,
    /// Publisher.
    pub publisher: String,
    /// Source version.
    pub source_version: String,
    /// Licence.
    pub licence: String,
    /// Evidence for the licence.
    pub licence_evidence: Vec<String>,
    /// Data versions, joined.
    pub data_versions: String,
    /// Dates: released, compiled, retrieved.
    pub released: String,
    /// Compile date of the source data.
    pub compiled: String,
    /// Retrieval date for this mirror.
    pub retrieved: String,
    /// The caveat(s), joined.
    pub caveat: String,
    /// The latency deadline(s), formatted, e.g. "500 ms".
    pub deadline: String,
    /// Workload measured.
    pub workload: String,
    /// Measurement method.
    pub method: String,
    /// Selection rule in the source's words.
    pub selection: String,
    /// Paper citation.
    pub cite: String,
    /// Paper URL.
    pub cite_url: String,
    /// Note on which configurations are published.
    pub configurations_note: String,
}

fn distinct<'a>(values: impl Iterator<Item = &'a str>) -> String {
    let set: BTreeSet<&str> = values.collect();
    set.into_iter().collect::<Vec<_>>().join("; ")
}

impl SiteInfo {
    fn new(models: &[LoadedModel]) -> Self {
        let files = || models.iter().map(|m| &m.file);
        let Some(first) = models.first() else {
            return Self::default();
        };
        let s = &first.file.source;
        Self {
            source_name: distinct(files().map(|f| f.source.name.as_str())),
            source_url: s.url.clone(),
            publisher: distinct(files().map(|f| f.source.publisher.as_str())),
            source_version: distinct(files().map(|f| f.source.version.as_str())),
            licence: distinct(files().map(|f| f.source.licence.as_str())),
            licence_evidence: s.licence_evidence.clone(),
            data_versions: distinct(files().map(|f| f.data_version.as_str())),
            released: distinct(files().map(|f| f.source.released.as_str())),
            compiled: distinct(files().map(|f| f.source.compiled.as_str())),
            retrieved: distinct(files().map(|f| f.source.retrieved.as_str())),
            caveat: distinct(files().map(|f| f.caveat.as_str())),
            deadline: {
                let set: BTreeSet<String> = files()
                    .map(|f| format!("{} ms", fmt::limit_ms(f.itl_deadline_ms)))
                    .collect();
                set.into_iter().collect::<Vec<_>>().join(" or ")
            },
            workload: distinct(files().map(|f| f.source.workload.as_str())),
            method: s.method.clone(),
            selection: s.selection.clone(),
            cite: s.cite.clone(),
            cite_url: s.cite_url.clone(),
            configurations_note: s.configurations.clone().unwrap_or_default(),
        }
    }
}

impl<'a> Site<'a> {
    /// Analyses every model and the site as a whole.
    pub fn new(models: &'a [LoadedModel], base_url: Option<&str>) -> Result<Self> {
        let analyses: Vec<ModelAnalysis> =
            models.par_iter().map(|m| analyse_model(&m.file)).collect();
        let pairs: Vec<(&ModelFile, &ModelAnalysis)> =
            models.iter().map(|m| &m.file).zip(&analyses).collect();
        let leaderboard = leaderboard(&pairs);
        let mut gpus: Vec<String> = Vec::new();
        for m in models {
            for g in &m.file.gpus {
                if !gpus.contains(g) {
                    gpus.push(g.clone());
                }
            }
        }
        let base_url = match base_url.map(str::trim).filter(|u| !u.is_empty()) {
            None => None,
            Some(u) => {
                anyhow::ensure!(
                    u.starts_with("https://") || u.starts_with("http://"),
                    "--base-url {u:?}: must be an absolute http(s) URL, e.g. https://user.github.io/repo/"
                );
                Some(format!("{}/", u.trim_end_matches('/')))
            }
        };
        Ok(Self {
            info: SiteInfo::new(models),
            models,
            analyses,
            leaderboard,
            gpus,
            base_url,
        })
    }

    fn absolute(&self, path: &str) -> Option<String> {
        self.base_url.as_ref().map(|b| format!("{b}{path}"))
    }
}

/// What was rendered.
#[derive(Debug, Clone, Copy, Default)]
pub struct RenderCounts {
    /// HTML pages.
    pub pages: usize,
    /// SVG charts.
    pub charts: usize,
}

impl std::ops::Add for RenderCounts {
    type Output = Self;
    fn add(self, o: Self) -> Self {
        Self {
            pages: self.pages + o.pages,
            charts: self.charts + o.charts,
        }
    }
}

/// The frame every page shares (see `templates/base.html`).
#[derive(Debug, Clone)]
pub struct PageMeta {
    /// Relative path from the page to the site root, e.g. `../../`.
    pub root: String,
    /// The `<title>`.
    pub title: String,
    /// The meta description (also used for link previews).
    pub description: String,
    /// Canonical absolute URL, when a base URL is known.
    pub canonical: Option<String>,
    /// Which navigation entry is this page.
    pub nav: &'static str,
    /// Whether the page loads the table script.
    pub script: bool,
    /// Footer facts.
    pub footer: String,
    /// CSS to inline instead of linking the stylesheet (the 404 page, which
    /// is served at any depth).
    pub inline_css: Option<String>,
}

const SITE_NAME: &str = "energyboard";

impl Site<'_> {
    fn meta(&self, path: &str, title: &str, description: String, nav: &'static str) -> PageMeta {
        let depth = path.matches('/').count();
        let root = if depth == 0 {
            "./".to_owned()
        } else {
            "../".repeat(depth)
        };
        let canonical_path = path.strip_suffix("index.html").unwrap_or(path);
        PageMeta {
            root,
            title: if title.is_empty() {
                format!("{SITE_NAME}: LLM inference energy leaderboard")
            } else {
                format!("{title} · {SITE_NAME}")
            },
            description,
            canonical: self.absolute(canonical_path),
            nav,
            script: false,
            footer: format!(
                "Data: {} {}, data version {}, retrieved {}. Licence: {}.",
                self.info.source_name,
                self.info.source_version,
                self.info.data_versions,
                self.info.retrieved,
                self.info.licence
            ),
            inline_css: None,
        }
    }
}

/// Renders every page of the site into `sink`.
pub fn render_site(
    site: &Site<'_>,
    assets: &[Asset],
    sink: &dyn PageSink,
    progress: &dyn crate::Progress,
) -> Result<RenderCounts> {
    for a in assets {
        sink.put(&format!("assets/{}", a.rel), &a.bytes)?;
    }
    sink.put(".nojekyll", b"")?;

    let per_model: Vec<(RenderCounts, Vec<downloads::FileEntry>)> = site
        .models
        .par_iter()
        .zip(&site.analyses)
        .map(|(m, a)| {
            let counts = render_model(site, m, a, sink)?;
            let files = downloads::publish_model_files(m, sink)?;
            progress.advance();
            Ok((counts, files))
        })
        .collect::<Result<_>>()?;
    let (model_counts, model_files): (Vec<RenderCounts>, Vec<Vec<downloads::FileEntry>>) =
        per_model.into_iter().unzip();

    let mut counts = model_counts
        .into_iter()
        .fold(RenderCounts::default(), |x, y| x + y);
    counts = counts + render_leaderboard(site, sink)?;
    counts = counts + render_gpu_pages(site, sink)?;
    counts = counts + render_compare(site, sink)?;
    counts = counts + render_about(site, sink)?;
    counts = counts + downloads::render_downloads(site, &model_files, sink)?;
    counts = counts + render_not_found(site, assets, sink)?;
    render_seo_files(site, sink)?;
    Ok(counts)
}

fn put_page(sink: &dyn PageSink, path: &str, page: &impl Template) -> Result<()> {
    let html = page.render().with_context(|| format!("rendering {path}"))?;
    sink.put(path, html.as_bytes())
}

fn model_dir(slug: &str) -> String {
    format!("models/{slug}/")
}

/// The GPU's page folder name, e.g. `h100`.
pub fn gpu_segment(gpu: &str) -> String {
    url_segment(gpu)
}

fn gpu_anchor(gpu: &str) -> String {
    format!("gpu-{}", url_segment(gpu))
}

fn header(key: &str, root: &str) -> Header {
    let c: &Column = column(key);
    Header {
        label: c.label.to_owned(),
        unit: c.unit.to_owned(),
        href: Some(format!("{root}about/index.html#col-{}", c.key)),
        num: matches!(
            c.unit,
            "count"
                | "seqs"
                | "#"
                | "Wh/M tok"
                | "J/tok"
                | "Wh"
                | "J"
                | "tok/Wh"
                | "ms"
                | "tok/s"
                | "W"
                | "tok"
                | "req"
                | "B"
        ),
        key: c.key.to_owned(),
    }
}

fn gpu_setup(c: &Configuration) -> String {
    let par = c.parallelism();
    if par == "none" {
        format!("{} × {}", c.num_gpus, c.gpu)
    } else {
        format!("{} × {}, {}", c.num_gpus, c.gpu, par)
    }
}

fn config_summary(c: &Configuration) -> String {
    format!(
        "{}, {}, max concurrency {}",
        gpu_setup(c),
        c.precision,
        c.max_num_seqs
    )
}

// ---------------------------------------------------------------- leaderboard

#[derive(Template)]
#[template(path = "index.html")]
struct LeaderboardPage<'a> {
    meta: PageMeta,
    info: &'a SiteInfo,
    table: String,
    chart: Option<ChartView>,
    gpus: Vec<String>,
    archs: Vec<String>,
    model_count: usize,
    top: String,
}

/// Columns of the leaderboard, in order.
const LEADERBOARD_COLUMNS: [&str; 16] = [
    "model",
    "gpu",
    "num_gpus",
    "parallelism",
    "precision",
    "max_num_seqs",
    "wh_per_million_output_tokens",
    "joules_per_output_token",
    "wh_per_response",
    "median_itl_ms",
    "p99_itl_ms",
    "tokens_per_second",
    "gpu_power_watts",
    "params_billion",
    "active_params_billion",
    "architecture",
];

/// Columns of a GPU page: the leaderboard's, less the GPU and the model
/// facts.
const GPU_PAGE_COLUMNS: [&str; 12] = [
    "model",
    "num_gpus",
    "parallelism",
    "precision",
    "max_num_seqs",
    "wh_per_million_output_tokens",
    "joules_per_output_token",
    "wh_per_response",
    "median_itl_ms",
    "p99_itl_ms",
    "tokens_per_second",
    "gpu_power_watts",
];

fn render_leaderboard(site: &Site<'_>, sink: &dyn PageSink) -> Result<RenderCounts> {
    let path = "index.html";
    let headline = site.leaderboard.first().map(|r| {
        let m = &site.models[r.model].file;
        let c = &m.configurations[r.config];
        format!(
            "{}: {} Wh per million output tokens on {}",
            m.name,
            fmt::wh_per_million(c.wh_per_million_output_tokens),
            c.gpu
        )
    });
    let description = format!(
        "Measured GPU energy of LLM inference for {} models: the lowest-energy configuration per model and GPU under a {} median inter-token latency.{}",
        site.models.len(),
        site.info.deadline,
        headline
            .as_ref()
            .map(|h| format!(" Lowest: {h}."))
            .unwrap_or_default()
    );
    let mut meta = site.meta(path, "", description, "leaderboard");
    meta.script = true;
    let root = meta.root.clone();
    let headers: Vec<Header> = LEADERBOARD_COLUMNS
        .iter()
        .map(|k| header(k, &root))
        .collect();
    let table = TableView {
        id: "leaderboard".into(),
        caption: format!(
            "Best configuration per model and GPU: lowest Wh per million output tokens with median ITL within {}. Sorted by energy, lowest first.",
            site.info.deadline
        ),
        headers,
        groups: Vec::new(),
        sortable: true,
    };
    let table = table_html_from_rows(
        &table,
        site.leaderboard
            .iter()
            .map(|r| leaderboard_row(site, *r, &root, &LEADERBOARD_COLUMNS)),
    )?;
    let bars: Vec<BarEntry> = site
        .leaderboard
        .iter()
        .map(|r| bar_entry(site, *r))
        .collect();
    let chart = if bars.is_empty() {
        None
    } else {
        let c = chart::best_energy_bars("best-energy.svg", "Best energy per model and GPU", &bars);
        sink.put(&c.file_name, c.svg.as_bytes())?;
        Some(chart_view(&c))
    };
    let mut archs: Vec<String> = site
        .models
        .iter()
        .map(|m| m.file.architecture.clone())
        .collect();
    archs.sort();
    archs.dedup();
    let page = LeaderboardPage {
        meta,
        info: &site.info,
        table,
        chart,
        gpus: site.gpus.clone(),
        archs,
        model_count: site.models.len(),
        top: headline.unwrap_or_default(),
    };
    put_page(sink, path, &page)?;
    Ok(RenderCounts {
        pages: 1,
        charts: usize::from(page.chart.is_some()),
    })
}

fn bar_entry(site: &Site<'_>, r: LeaderboardRow) -> BarEntry {
    let m = &site.models[r.model].file;
    let c = &m.configurations[r.config];
    BarEntry {
        model: m.name.clone(),
        gpu: c.gpu.clone(),
        wh_per_million: c.wh_per_million_output_tokens,
    }
}

fn num(text: String, sort: f64) -> Cell {
    Cell {
        text,
        sort: Some(format!("{sort}")),
        num: true,
        ..Cell::default()
    }
}

fn text(text: impl Into<String>) -> Cell {
    Cell {
        text: text.into(),
        ..Cell::default()
    }
}

fn link(text: impl Into<String>, href: String) -> Cell {
    Cell {
        text: text.into(),
        href: Some(href),
        ..Cell::default()
    }
}

/// One leaderboard row: a model's best configuration on one GPU, with the
/// cells of `columns`.
fn leaderboard_row(site: &Site<'_>, r: LeaderboardRow, root: &str, columns: &[&str]) -> Row {
    let m = &site.models[r.model].file;
    let c = &m.configurations[r.config];
    let page = format!("{root}{}index.html", model_dir(&m.slug));
    let cells = columns
        .iter()
        .map(|&key| match key {
            "model" => Cell {
                header: true,
                ..link(m.name.clone(), format!("{page}#{}", gpu_anchor(&c.gpu)))
            },
            "gpu" => link(
                c.gpu.clone(),
                format!("{root}gpus/{}/index.html", gpu_segment(&c.gpu)),
            ),
            "wh_per_million_output_tokens" => Cell {
                href: Some(format!("{page}#{}", row_anchor(&m.slug, &c.row_id))),
                ..figure_cell(key, m, c)
            },
            _ => figure_cell(key, m, c),
        })
        .collect();
    Row {
        id: None,
        class: String::new(),
        attrs: vec![
            Attr {
                name: "data-gpu".into(),
                value: c.gpu.clone(),
            },
            Attr {
                name: "data-arch".into(),
                value: m.architecture.clone(),
            },
        ],
        cells,
    }
}

/// The cell of column `key` (see [`crate::columns`]) for configuration `c`
/// of model `m`: the figure in its page format, with its raw value for
/// sorting.
///
/// # Panics
/// On a key that is not a figure column: a programming error the page
/// tests catch.
fn figure_cell(key: &str, m: &ModelFile, c: &Configuration) -> Cell {
    let whole = |v: u32| num(v.to_string(), f64::from(v));
    match key {
        "num_gpus" => whole(c.num_gpus),
        "max_num_seqs" => whole(c.max_num_seqs),
        "repeat" => whole(c.repeat),
        "parallelism" => text(c.parallelism()),
        "precision" => text(c.precision.clone()),
        "architecture" => text(m.architecture.clone()),
        "wh_per_million_output_tokens" => num(
            fmt::wh_per_million(c.wh_per_million_output_tokens),
            c.wh_per_million_output_tokens,
        ),
        "joules_per_output_token" => num(
            fmt::joules_per_token(c.joules_per_output_token),
            c.joules_per_output_token,
        ),
        "wh_per_response" => num(
            fmt::wh_per_response(c.wh_per_response()),
            c.wh_per_response(),
        ),
        "median_itl_ms" => num(fmt::ms(c.median_itl_ms), c.median_itl_ms),
        "p90_itl_ms" => num(fmt::ms(c.p90_itl_ms), c.p90_itl_ms),
        "p95_itl_ms" => num(fmt::ms(c.p95_itl_ms), c.p95_itl_ms),
        "p99_itl_ms" => num(fmt::ms(c.p99_itl_ms), c.p99_itl_ms),
        "tokens_per_second" => num(fmt::grouped(c.tokens_per_second), c.tokens_per_second),
        "gpu_power_watts" => num(
            fmt::grouped(c.gpu_power_watts_total),
            c.gpu_power_watts_total,
        ),
        "avg_output_tokens" => num(fmt::grouped(c.avg_output_tokens), c.avg_output_tokens),
        "avg_running_batch" => num(fmt::fixed(c.avg_running_batch, 1), c.avg_running_batch),
        "params_billion" => num(fmt::params_b(m.params_b), m.params_b),
        "active_params_billion" => num(fmt::params_b(m.active_params_b), m.active_params_b),
        other => panic!("no figure column {other:?}"),
    }
}

// ---------------------------------------------------------------- model page

#[derive(Template)]
#[template(path = "model.html")]
struct ModelPage<'a> {
    meta: PageMeta,
    m: &'a ModelFile,
    facts: Vec<(String, String)>,
    gpu_links: Vec<(String, String)>,
    best_cards: Vec<BestCard>,
    budget_table: String,
    charts: Vec<ChartView>,
    config_tables: Vec<(String, String, String)>,
    deadline: String,
    licence_evidence: Vec<String>,
    bibtex: String,
    json_href: String,
    csv_href: String,
    badge_src: String,
    badge_markdown: String,
    badge_html: String,
    chart_snippets: Vec<(String, String, String)>,
    no_base_url: bool,
}

struct BestCard {
    gpu: String,
    anchor: String,
    row_href: String,
    setup: String,
    figures: Vec<(String, String)>,
    found: bool,
}

fn render_model(
    site: &Site<'_>,
    lm: &LoadedModel,
    a: &ModelAnalysis,
    sink: &dyn PageSink,
) -> Result<RenderCounts> {
    let m = &lm.file;
    let dir = model_dir(&m.slug);
    let path = format!("{dir}index.html");
    let deadline = format!("{} ms", fmt::limit_ms(m.itl_deadline_ms));

    let overall = a.best_overall.map(|i| &m.configurations[i]);
    let description = match overall {
        Some(c) => format!(
            "{}: {} Wh per million output tokens on {}, best under a {} median ITL. Measured GPU energy, latency, throughput and power for {} configurations.",
            m.name,
            fmt::wh_per_million(c.wh_per_million_output_tokens),
            c.gpu,
            deadline,
            m.configurations.len()
        ),
        None => format!(
            "{}: no configuration meets the {} median ITL deadline. Measured GPU energy, latency, throughput and power for {} configurations.",
            m.name,
            deadline,
            m.configurations.len()
        ),
    };
    let meta = site.meta(&path, &m.name, description, "");
    let root = meta.root.clone();

    let mut precisions: Vec<&str> = m
        .configurations
        .iter()
        .map(|c| c.precision.as_str())
        .collect();
    precisions.sort_unstable();
    precisions.dedup();
    let facts = vec![
        ("Model ID".to_owned(), m.model_id.clone()),
        (
            "Parameters".to_owned(),
            format!(
                "{} B total, {} B active",
                fmt::params_b(m.params_b),
                fmt::params_b(m.active_params_b)
            ),
        ),
        ("Architecture".to_owned(), m.architecture.clone()),
        ("Precisions measured".to_owned(), precisions.join(", ")),
        (
            "Configurations".to_owned(),
            format!("{} measured", m.configurations.len()),
        ),
        (
            "Latency deadline".to_owned(),
            format!("median ITL ≤ {deadline}"),
        ),
        (
            "Data version".to_owned(),
            format!("{} (file updated {})", m.data_version, m.updated),
        ),
    ];
    let gpu_links = m
        .gpus
        .iter()
        .map(|g| {
            (
                g.clone(),
                format!("{root}gpus/{}/index.html", gpu_segment(g)),
            )
        })
        .collect();

    let best_cards = a
        .best_per_gpu
        .iter()
        .map(|(gpu, best)| match best {
            Some(i) => {
                let c = &m.configurations[*i];
                BestCard {
                    gpu: gpu.clone(),
                    anchor: gpu_anchor(gpu),
                    row_href: format!("#{}", row_anchor(&m.slug, &c.row_id)),
                    setup: config_summary(c),
                    figures: vec![
                        (
                            "Energy per million tokens".into(),
                            format!(
                                "{} Wh/M tok",
                                fmt::wh_per_million(c.wh_per_million_output_tokens)
                            ),
                        ),
                        (
                            "Energy per token".into(),
                            format!("{} J/tok", fmt::joules_per_token(c.joules_per_output_token)),
                        ),
                        (
                            "Energy per response".into(),
                            format!(
                                "{} Wh ({} J)",
                                fmt::wh_per_response(c.wh_per_response()),
                                fmt::joules_per_response(c.joules_per_response())
                            ),
                        ),
                        (
                            "Tokens per Wh".into(),
                            format!("{} tok/Wh", fmt::grouped(c.tokens_per_wh())),
                        ),
                        (
                            "Median ITL".into(),
                            format!("{} ms", fmt::ms(c.median_itl_ms)),
                        ),
                        ("p99 ITL".into(), format!("{} ms", fmt::ms(c.p99_itl_ms))),
                        (
                            "Throughput".into(),
                            format!("{} tok/s", fmt::grouped(c.tokens_per_second)),
                        ),
                        (
                            "GPU power".into(),
                            format!("{} W", fmt::grouped(c.gpu_power_watts_total)),
                        ),
                    ],
                    found: true,
                }
            }
            None => BestCard {
                gpu: gpu.clone(),
                anchor: gpu_anchor(gpu),
                row_href: format!("#configs-{}", url_segment(gpu)),
                setup: format!("No {gpu} configuration meets the {deadline} deadline."),
                figures: Vec::new(),
                found: false,
            },
        })
        .collect();

    let budget_table = table_html(&budget_table(m, a))?;
    let charts_made: Vec<Chart> = chart::model_charts(m, a);
    for c in &charts_made {
        sink.put(&format!("{dir}{}", c.file_name), c.svg.as_bytes())?;
    }
    let charts: Vec<ChartView> = charts_made.iter().map(chart_view).collect();
    let config_tables = config_tables(m, a, &root)?;

    let page_url = site.absolute(&dir);
    let bibtex = bibtex(m, page_url.as_deref());
    let badge = downloads::badge_svg(m, overall);
    sink.put(&format!("{dir}badge.svg"), badge.as_bytes())?;
    let badge_url = site
        .absolute(&format!("{dir}badge.svg"))
        .unwrap_or_else(|| format!("{dir}badge.svg"));
    let page_link = page_url.clone().unwrap_or_else(|| dir.clone());
    let badge_alt = match overall {
        Some(c) => format!(
            "{}: {} Wh per million output tokens on {}",
            m.name,
            fmt::wh_per_million(c.wh_per_million_output_tokens),
            c.gpu
        ),
        None => m.name.clone(),
    };
    let chart_snippets = charts_made
        .iter()
        .map(|c| {
            let url = site
                .absolute(&format!("{dir}{}", c.file_name))
                .unwrap_or_else(|| format!("{dir}{}", c.file_name));
            (
                c.title.clone(),
                format!("![{}]({url})", c.description.replace(']', ")")),
                format!(
                    "<img src=\"{url}\" alt=\"{}\">",
                    fmt::xml_escape(&c.description)
                ),
            )
        })
        .collect();

    let page = ModelPage {
        meta,
        m,
        facts,
        gpu_links,
        best_cards,
        budget_table,
        charts,
        config_tables,
        deadline,
        licence_evidence: m.source.licence_evidence.clone(),
        bibtex,
        json_href: format!("{root}data/{}.json", m.slug),
        csv_href: format!("{root}data/{}.csv", m.slug),
        badge_src: "badge.svg".into(),
        badge_markdown: format!(
            "[![{}]({badge_url})]({page_link})",
            badge_alt.replace(']', ")")
        ),
        badge_html: format!(
            "<a href=\"{page_link}\"><img src=\"{badge_url}\" alt=\"{}\"></a>",
            fmt::xml_escape(&badge_alt)
        ),
        chart_snippets,
        no_base_url: site.base_url.is_none(),
    };
    put_page(sink, &path, &page)?;
    Ok(RenderCounts {
        pages: 1,
        charts: charts_made.len(),
    })
}

fn budget_table(m: &ModelFile, a: &ModelAnalysis) -> TableView {
    let mut headers = vec![Header {
        label: "Median ITL limit".into(),
        unit: "ms".into(),
        href: None,
        num: true,
        key: "limit".into(),
    }];
    for gpu in &m.gpus {
        headers.push(Header {
            label: format!("Cheapest on {gpu}"),
            unit: "Wh/M tok".into(),
            href: None,
            num: false,
            key: url_segment(gpu),
        });
    }
    let rows = a
        .budgets
        .iter()
        .map(|b| {
            let mut first = text(if b.is_deadline {
                format!("≤ {} (deadline)", fmt::limit_ms(b.limit_ms))
            } else {
                format!("≤ {}", fmt::limit_ms(b.limit_ms))
            });
            first.header = true;
            first.num = true;
            let mut cells = vec![first];
            for (_, best) in &b.per_gpu {
                cells.push(match best {
                    Some(i) => {
                        let c = &m.configurations[*i];
                        let mut cell = link(
                            format!(
                                "{} Wh/M — {}, {} seqs, {} ms",
                                fmt::wh_per_million(c.wh_per_million_output_tokens),
                                gpu_setup(c),
                                c.max_num_seqs,
                                fmt::ms(c.median_itl_ms)
                            ),
                            format!("#{}", row_anchor(&m.slug, &c.row_id)),
                        );
                        cell.sort = Some(format!("{}", c.wh_per_million_output_tokens));
                        cell
                    }
                    None => text(format!("none within {} ms", fmt::limit_ms(b.limit_ms))),
                });
            }
            Row {
                cells,
                ..Row::default()
            }
        })
        .collect();
    TableView {
        id: "budgets".into(),
        caption: "Cheapest configuration per GPU for each median inter-token latency limit".into(),
        headers,
        groups: vec![RowGroup { title: None, rows }],
        sortable: false,
    }
}

const CONFIG_COLUMNS: [&str; 13] = [
    "max_num_seqs",
    "wh_per_million_output_tokens",
    "joules_per_output_token",
    "wh_per_response",
    "median_itl_ms",
    "p90_itl_ms",
    "p95_itl_ms",
    "p99_itl_ms",
    "tokens_per_second",
    "gpu_power_watts",
    "avg_output_tokens",
    "avg_running_batch",
    "repeat",
];

/// One table per GPU: (GPU, anchor, table HTML). Rows grouped by series
/// (GPU count, parallelism, precision), ordered by concurrency.
fn config_tables(
    m: &ModelFile,
    a: &ModelAnalysis,
    root: &str,
) -> Result<Vec<(String, String, String)>> {
    let mut out = Vec::new();
    for gpu in &m.gpus {
        let mut headers: Vec<Header> = CONFIG_COLUMNS.iter().map(|k| header(k, root)).collect();
        headers.push(Header {
            label: "Notes".into(),
            unit: String::new(),
            href: None,
            num: false,
            key: "notes".into(),
        });
        let groups: Vec<RowGroup> = a
            .curves
            .iter()
            .filter(|s| s.key.gpu == *gpu)
            .map(|s| RowGroup {
                title: Some(format!(
                    "{}, {}",
                    gpu_setup(&m.configurations[s.points[0]]),
                    s.key.precision
                )),
                rows: s.points.iter().map(|&i| config_row(m, a, i)).collect(),
            })
            .collect();
        let anchor = format!("configs-{}", url_segment(gpu));
        let table = TableView {
            id: format!("table-{}", url_segment(gpu)),
            caption: format!(
                "Every {gpu} configuration of {}, grouped by GPU count, parallelism and precision, ordered by max concurrency",
                m.name
            ),
            headers,
            groups,
            sortable: false,
        };
        out.push((gpu.clone(), anchor, table_html(&table)?));
    }
    Ok(out)
}

fn config_row(m: &ModelFile, a: &ModelAnalysis, i: usize) -> Row {
    let c = &m.configurations[i];
    let mut notes = Vec::new();
    if a.is_best(i) {
        notes.push(format!("★ Best on {}", c.gpu));
    }
    if a.is_on_frontier(i) {
        notes.push("◆ Pareto frontier".to_owned());
    }
    if c.repeat > 1 {
        notes.push(format!("↻ Repeat run {}", c.repeat));
    }
    if !c.under_itl_deadline {
        notes.push("Over deadline".to_owned());
    }
    let mut class = Vec::new();
    if a.is_best(i) {
        class.push("best");
    }
    if a.is_on_frontier(i) {
        class.push("frontier");
    }
    if c.repeat > 1 {
        class.push("repeat");
    }
    let mut cells: Vec<Cell> = CONFIG_COLUMNS
        .iter()
        .map(|&key| figure_cell(key, m, c))
        .collect();
    cells[0].header = true;
    cells.push(text(notes.join("; ")));
    Row {
        id: Some(row_anchor(&m.slug, &c.row_id)),
        class: class.join(" "),
        attrs: Vec::new(),
        cells,
    }
}

fn bibtex(m: &ModelFile, url: Option<&str>) -> String {
    let year = m.data_version.get(..4).unwrap_or("");
    let mut s = format!(
        "@misc{{energyboard-{slug},\n  title        = {{{{{name}}}: GPU energy of LLM inference (mirror of the {src})}},\n  author       = {{{{{publisher}}}}},\n  year         = {{{year}}},\n",
        slug = m.slug,
        name = bib_escape(&m.name),
        src = bib_escape(&m.source.name),
        publisher = bib_escape(&m.source.publisher),
    );
    if let Some(url) = url {
        s.push_str(&format!("  howpublished = {{\\url{{{url}}}}},\n"));
    }
    s.push_str(&format!(
        "  note         = {{Data version {}; source {} {}; retrieved {}}}\n}}",
        bib_escape(&m.data_version),
        bib_escape(&m.source.name),
        bib_escape(&m.source.version),
        bib_escape(&m.source.retrieved)
    ));
    s
}

fn bib_escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for ch in s.chars() {
        match ch {
            '{' | '}' | '%' | '&' | '$' | '#' | '_' => {
                out.push('\\');
                out.push(ch);
            }
            _ => out.push(ch),
        }
    }
    out
}

// ---------------------------------------------------------------- GPU pages

#[derive(Template)]
#[template(path = "gpu.html")]
struct GpuPage {
    meta: PageMeta,
    gpu: String,
    table: String,
    chart: Option<ChartView>,
    count: usize,
    deadline: String,
}

fn render_gpu_pages(site: &Site<'_>, sink: &dyn PageSink) -> Result<RenderCounts> {
    let mut counts = RenderCounts::default();
    for gpu in &site.gpus {
        let dir = format!("gpus/{}/", gpu_segment(gpu));
        let path = format!("{dir}index.html");
        let rows: Vec<LeaderboardRow> = site
            .leaderboard
            .iter()
            .copied()
            .filter(|r| site.models[r.model].file.configurations[r.config].gpu == *gpu)
            .collect();
        let headline = rows.first().map(|r| {
            let m = &site.models[r.model].file;
            format!(
                " Lowest: {} at {} Wh per million output tokens.",
                m.name,
                fmt::wh_per_million(m.configurations[r.config].wh_per_million_output_tokens)
            )
        });
        let description = format!(
            "{} models measured on {gpu}, ranked by their lowest GPU energy per output token under a {} median ITL.{}",
            rows.len(),
            site.info.deadline,
            headline.unwrap_or_default()
        );
        let meta = site.meta(&path, &format!("{gpu} GPU"), description, "");
        let root = meta.root.clone();
        let headers: Vec<Header> = GPU_PAGE_COLUMNS.iter().map(|k| header(k, &root)).collect();
        let table = TableView {
            id: "gpu-leaderboard".into(),
            caption: format!(
                "Models on {gpu}, each at its lowest-energy configuration with median ITL within {}, lowest first",
                site.info.deadline
            ),
            headers,
            groups: Vec::new(),
            sortable: false,
        };
        let table = table_html_from_rows(
            &table,
            rows.iter()
                .map(|r| leaderboard_row(site, *r, &root, &GPU_PAGE_COLUMNS)),
        )?;
        let bars: Vec<BarEntry> = rows.iter().map(|r| bar_entry(site, *r)).collect();
        let chart = if bars.is_empty() {
            None
        } else {
            let c = chart::best_energy_bars(
                "best-energy.svg",
                &format!("Best energy per model on {gpu}"),
                &bars,
            );
            sink.put(&format!("{dir}{}", c.file_name), c.svg.as_bytes())?;
            counts.charts += 1;
            Some(chart_view(&c))
        };
        let page = GpuPage {
            meta,
            gpu: gpu.clone(),
            table,
            chart,
            count: rows.len(),
            deadline: site.info.deadline.clone(),
        };
        put_page(sink, &path, &page)?;
        counts.pages += 1;
    }
    Ok(counts)
}

// ---------------------------------------------------------------- compare

#[derive(Template)]
#[template(path = "compare.html")]
struct ComparePage {
    meta: PageMeta,
    table: String,
    chart: Option<ChartView>,
    deadline: String,
}

fn render_compare(site: &Site<'_>, sink: &dyn PageSink) -> Result<RenderCounts> {
    let path = "compare/index.html";
    let description = format!(
        "All {} models side by side: the lowest GPU energy per output token on each GPU under a {} median ITL, and every model's time–energy frontier.",
        site.models.len(),
        site.info.deadline
    );
    let meta = site.meta(path, "Compare models", description, "compare");
    let root = meta.root.clone();
    let mut headers = vec![
        header("model", &root),
        header("architecture", &root),
        header("params_billion", &root),
        header("active_params_billion", &root),
    ];
    for gpu in &site.gpus {
        headers.push(Header {
            label: format!("Best on {gpu}"),
            unit: "Wh/M tok".into(),
            href: Some(format!(
                "{root}about/index.html#col-wh_per_million_output_tokens"
            )),
            num: true,
            key: url_segment(gpu),
        });
        headers.push(Header {
            label: format!("{gpu} setup"),
            unit: String::new(),
            href: None,
            num: false,
            key: format!("{}-setup", url_segment(gpu)),
        });
    }
    let rows = site.models.iter().zip(&site.analyses).map(|(lm, a)| {
        let m = &lm.file;
        let dir = format!("{root}{}", model_dir(&m.slug));
        let mut name = link(m.name.clone(), format!("{dir}index.html"));
        name.header = true;
        let mut cells = vec![
            name,
            text(m.architecture.clone()),
            num(fmt::params_b(m.params_b), m.params_b),
            num(fmt::params_b(m.active_params_b), m.active_params_b),
        ];
        for gpu in &site.gpus {
            let best = a
                .best_per_gpu
                .iter()
                .find(|(g, _)| g == gpu)
                .and_then(|(_, b)| *b);
            match best {
                Some(i) => {
                    let c = &m.configurations[i];
                    let mut cell = num(
                        fmt::wh_per_million(c.wh_per_million_output_tokens),
                        c.wh_per_million_output_tokens,
                    );
                    cell.href = Some(format!(
                        "{dir}index.html#{}",
                        row_anchor(&m.slug, &c.row_id)
                    ));
                    cells.push(cell);
                    cells.push(text(format!(
                        "{}, {}, {} seqs",
                        gpu_setup(c),
                        c.precision,
                        c.max_num_seqs
                    )));
                }
                None => {
                    let reason = if m.gpus.contains(gpu) {
                        "none within deadline"
                    } else {
                        "not measured"
                    };
                    cells.push(text("—"));
                    cells.push(text(reason));
                }
            }
        }
        Row {
            cells,
            ..Row::default()
        }
    });
    let table = TableView {
        id: "compare".into(),
        caption: format!(
            "Each model's lowest Wh per million output tokens per GPU, median ITL within {}",
            site.info.deadline
        ),
        headers,
        groups: Vec::new(),
        sortable: false,
    };
    let table = table_html_from_rows(&table, rows)?;
    let pairs: Vec<(&ModelFile, &ModelAnalysis)> = site
        .models
        .iter()
        .map(|m| &m.file)
        .zip(&site.analyses)
        .collect();
    let chart = if pairs.is_empty() {
        None
    } else {
        let c = chart::compare_frontiers(&pairs);
        sink.put(&format!("compare/{}", c.file_name), c.svg.as_bytes())?;
        Some(chart_view(&c))
    };
    let page = ComparePage {
        meta,
        table,
        chart,
        deadline: site.info.deadline.clone(),
    };
    put_page(sink, path, &page)?;
    Ok(RenderCounts {
        pages: 1,
        charts: usize::from(page.chart.is_some()),
    })
}

// ---------------------------------------------------------------- about

#[derive(Template)]
#[template(path = "about.html")]
struct AboutPage<'a> {
    meta: PageMeta,
    info: &'a SiteInfo,
    columns: &'static [Column],
    ladder: String,
}

fn render_about(site: &Site<'_>, sink: &dyn PageSink) -> Result<RenderCounts> {
    let path = "about/index.html";
    let description = "How the figures are measured and derived: what GPU energy covers and leaves out, every column's definition and unit, the selection rule, the source, its licence and how to cite it.".to_owned();
    let meta = site.meta(path, "About the data and method", description, "about");
    let ladder = crate::analyse::LATENCY_LADDER_MS
        .iter()
        .map(|l| format!("{} ms", fmt::limit_ms(*l)))
        .collect::<Vec<_>>()
        .join(", ");
    let page = AboutPage {
        meta,
        info: &site.info,
        columns: COLUMNS,
        ladder,
    };
    put_page(sink, path, &page)?;
    Ok(RenderCounts {
        pages: 1,
        charts: 0,
    })
}

// ---------------------------------------------------------------- 404, SEO

#[derive(Template)]
#[template(path = "404.html")]
struct NotFoundPage {
    meta: PageMeta,
}

fn render_not_found(
    site: &Site<'_>,
    assets: &[Asset],
    sink: &dyn PageSink,
) -> Result<RenderCounts> {
    // GitHub Pages serves 404.html at any depth, so relative links would
    // break; with a base URL the page links absolutely, and without one a
    // small script finds the site root from the page's own <script> URL.
    let mut meta = site.meta(
        "404.html",
        "Page not found",
        "This page does not exist on the energy leaderboard mirror. Start again from the leaderboard, a model page or the downloads.".to_owned(),
        "",
    );
    meta.canonical = None;
    if let Some(base) = &site.base_url {
        meta.root.clone_from(base);
    }
    meta.inline_css = assets
        .iter()
        .find(|a| a.rel == "style.css")
        .map(|a| String::from_utf8_lossy(&a.bytes).into_owned());
    let page = NotFoundPage { meta };
    put_page(sink, "404.html", &page)?;
    Ok(RenderCounts {
        pages: 1,
        charts: 0,
    })
}

fn render_seo_files(site: &Site<'_>, sink: &dyn PageSink) -> Result<()> {
    let Some(base) = &site.base_url else {
        sink.put("robots.txt", b"User-agent: *\nAllow: /\n")?;
        return Ok(());
    };
    let mut paths = vec![
        String::new(),
        "compare/".to_owned(),
        "about/".to_owned(),
        "data/".to_owned(),
    ];
    paths.extend(
        site.gpus
            .iter()
            .map(|g| format!("gpus/{}/", gpu_segment(g))),
    );
    paths.extend(site.models.iter().map(|m| model_dir(&m.file.slug)));
    let mut xml = String::from(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n",
    );
    for p in &paths {
        xml.push_str(&format!(
            "  <url><loc>{}</loc></url>\n",
            fmt::xml_escape(&format!("{base}{p}"))
        ));
    }
    xml.push_str("</urlset>\n");
    sink.put("sitemap.xml", xml.as_bytes())?;
    sink.put(
        "robots.txt",
        format!("User-agent: *\nAllow: /\nSitemap: {base}sitemap.xml\n").as_bytes(),
    )?;
    Ok(())
}
