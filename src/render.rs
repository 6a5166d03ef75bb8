//! Rendering: analysed data and SVG strings in, pages out. Pages are streamed
//! to a [`PageSink`] as they are made (models in parallel); this module never
//! writes a file itself.
//!
//! Every link is relative (through a `root` prefix, as mdBook's
//! `path_to_root`), so the site works under any sub-path and from disk.

mod downloads;
mod model_page;
mod overview;
mod site_pages;
mod views;

use model_page::render_model;
use site_pages::{
    render_about, render_compare, render_gpu_pages, render_leaderboard, render_not_found,
    render_seo_files,
};

use std::collections::{BTreeMap, BTreeSet};

use anyhow::{Context, Result};
use askama::Template;
use rayon::prelude::*;

use crate::analyse::{LeaderboardRow, ModelAnalysis, analyse_model, leaderboard};
use crate::chart::BarEntry;
use crate::columns::{Column, column};
use crate::fmt;
use crate::load::{Asset, LoadedModel};
use crate::model::{Configuration, ModelFile, row_anchor, url_segment};
use crate::workload::{LEGACY_WORKLOAD, Workload};
use crate::write::PageSink;

pub use downloads::{configurations_csv, leaderboard_csv};
use views::{Attr, Cell, Header, Row};

/// One workload's part of the site: its leaderboard, model pages, GPU
/// pages and comparison, all under [`Site::prefix`].
#[derive(Debug)]
pub struct Site<'a> {
    /// The workload's models, ordered by slug.
    pub models: &'a [LoadedModel],
    /// One analysis per model, same order.
    pub analyses: Vec<ModelAnalysis>,
    /// Leaderboard rows, best first.
    pub leaderboard: Vec<LeaderboardRow>,
    /// Every GPU type measured, in first-seen order over the models.
    pub gpus: Vec<String>,
    /// Absolute base URL, ending in `/`, when known.
    pub base_url: Option<String>,
    /// Provenance and headline facts of this workload's files.
    pub info: SiteInfo,
    /// The workload.
    pub workload: Workload,
    /// The workload's folder, e.g. `workloads/gpqa/`.
    pub prefix: String,
    /// Whether this is [`LEGACY_WORKLOAD`], whose charts, badges and data
    /// files are also written at the addresses the site used before it had
    /// workloads.
    pub legacy: bool,
    /// Every workload, for the tabs.
    pub tabs: Vec<Tab>,
}

/// The whole site: every workload, and the pages that span them.
#[derive(Debug)]
pub struct Mirror<'a> {
    /// Every loaded model, grouped by workload.
    pub models: &'a [LoadedModel],
    /// One part per workload, in the site's order.
    pub workloads: Vec<Site<'a>>,
    /// For each model slug: (workload index, index in that workload's
    /// models), in workload order.
    pub slugs: BTreeMap<String, Vec<(usize, usize)>>,
    /// Every GPU type, in first-seen order over the workloads.
    pub gpus: Vec<String>,
    /// Absolute base URL, ending in `/`, when known.
    pub base_url: Option<String>,
    /// Provenance over every file.
    pub info: SiteInfo,
    /// Every workload, for the tabs.
    pub tabs: Vec<Tab>,
}

/// A workload tab: plain links between the workloads' leaderboards.
#[derive(Debug, Clone)]
pub struct Tab {
    /// Workload id.
    pub id: String,
    /// Display name.
    pub name: String,
    /// Path of its leaderboard from the site root.
    pub path: String,
}

/// A tab as one page shows it.
#[derive(Debug, Clone)]
pub struct TabView {
    /// Display name.
    pub name: String,
    /// Link from the page.
    pub href: String,
    /// `aria-current` value: `page` on the workload's own leaderboard,
    /// `true` elsewhere in the workload, empty otherwise.
    pub current: &'static str,
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
                let mut limits: Vec<f64> = files().map(|f| f.itl_deadline_ms).collect();
                limits.sort_by(f64::total_cmp);
                limits.dedup();
                let shown: Vec<String> = limits
                    .iter()
                    .map(|l| format!("{} ms", fmt::limit_ms(*l)))
                    .collect();
                if shown.len() == 1 {
                    shown.join("")
                } else {
                    format!("each workload's own deadline ({})", shown.join(", "))
                }
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

/// The base URL, checked and ending in `/`.
fn normalise_base_url(base_url: Option<&str>) -> Result<Option<String>> {
    match base_url.map(str::trim).filter(|u| !u.is_empty()) {
        None => Ok(None),
        Some(u) => {
            anyhow::ensure!(
                u.starts_with("https://") || u.starts_with("http://"),
                "--base-url {u:?}: must be an absolute http(s) URL, e.g. https://user.github.io/repo/"
            );
            Ok(Some(format!("{}/", u.trim_end_matches('/'))))
        }
    }
}

fn gpus_of<'m>(models: impl Iterator<Item = &'m LoadedModel>) -> Vec<String> {
    let mut gpus: Vec<String> = Vec::new();
    for m in models {
        for g in &m.file.gpus {
            if !gpus.contains(g) {
                gpus.push(g.clone());
            }
        }
    }
    gpus
}

impl<'a> Site<'a> {
    /// Analyses one workload's models.
    fn new(
        models: &'a [LoadedModel],
        workload: &Workload,
        base_url: Option<String>,
        tabs: Vec<Tab>,
    ) -> Self {
        let analyses: Vec<ModelAnalysis> =
            models.par_iter().map(|m| analyse_model(&m.file)).collect();
        let pairs: Vec<(&ModelFile, &ModelAnalysis)> =
            models.iter().map(|m| &m.file).zip(&analyses).collect();
        let leaderboard = leaderboard(&pairs);
        Self {
            info: SiteInfo::new(models),
            gpus: gpus_of(models.iter()),
            models,
            analyses,
            leaderboard,
            base_url,
            prefix: workload.dir(),
            legacy: workload.id == LEGACY_WORKLOAD,
            workload: workload.clone(),
            tabs,
        }
    }

    fn absolute(&self, path: &str) -> Option<String> {
        self.base_url.as_ref().map(|b| format!("{b}{path}"))
    }

    /// `rel` inside the workload's folder.
    fn path(&self, rel: &str) -> String {
        format!("{}{rel}", self.prefix)
    }

    /// The deadline, e.g. "500 ms".
    pub fn deadline(&self) -> String {
        format!("{} ms", fmt::limit_ms(self.workload.deadline_ms))
    }
}

impl<'a> Mirror<'a> {
    /// Analyses every workload's models. `models` must be grouped as
    /// `workloads` say ([`crate::workload::group_by_workload`]).
    pub fn new(
        models: &'a [LoadedModel],
        workloads: &[Workload],
        base_url: Option<&str>,
    ) -> Result<Self> {
        let base_url = normalise_base_url(base_url)?;
        let tabs: Vec<Tab> = workloads
            .iter()
            .map(|w| Tab {
                id: w.id.clone(),
                name: w.name.clone(),
                path: format!("{}index.html", w.dir()),
            })
            .collect();
        let sites: Vec<Site<'a>> = workloads
            .iter()
            .map(|w| Site::new(&models[w.models.clone()], w, base_url.clone(), tabs.clone()))
            .collect();
        let slugs = crate::workload::by_slug(models, workloads)
            .into_iter()
            .map(|(slug, at)| {
                let at = at
                    .into_iter()
                    .map(|(w, i)| (w, i - workloads[w].models.start))
                    .collect();
                (slug, at)
            })
            .collect();
        Ok(Self {
            info: SiteInfo::new(models),
            gpus: gpus_of(sites.iter().flat_map(|s| s.models.iter())),
            models,
            workloads: sites,
            slugs,
            base_url,
            tabs,
        })
    }

    /// The legacy workload's part, when the data has it.
    fn legacy(&self) -> Option<&Site<'a>> {
        self.workloads.iter().find(|s| s.legacy)
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
    /// Relative path from the page to its workload's folder (the site root
    /// for pages outside a workload).
    pub home: String,
    /// The workload tabs.
    pub tabs: Vec<TabView>,
    /// Where a `#fragment` this page does not have is sent: the page that
    /// held it before the site had workloads (a small inline script).
    pub forward: Option<String>,
}

const SITE_NAME: &str = "energyboard";

/// The frame of a page at `path` (from the site root).
fn page_meta(
    base_url: Option<&str>,
    info: &SiteInfo,
    tabs: &[Tab],
    path: &str,
    title: &str,
    description: String,
    nav: &'static str,
) -> PageMeta {
    let depth = path.matches('/').count();
    let root = if depth == 0 {
        "./".to_owned()
    } else {
        "../".repeat(depth)
    };
    let canonical_path = path.strip_suffix("index.html").unwrap_or(path);
    let tabs = tabs
        .iter()
        .map(|t| TabView {
            name: t.name.clone(),
            href: format!("{root}{}", t.path),
            current: if path == t.path {
                "page"
            } else if path.starts_with(t.path.trim_end_matches("index.html")) {
                "true"
            } else {
                ""
            },
        })
        .collect();
    PageMeta {
        home: root.clone(),
        root,
        title: if title.is_empty() {
            format!("{SITE_NAME}: AI inference energy leaderboard")
        } else {
            format!("{title} · {SITE_NAME}")
        },
        description,
        canonical: base_url.map(|b| format!("{b}{canonical_path}")),
        nav,
        script: false,
        footer: format!(
            "Data: {} {}, data version {}, retrieved {}. Licence: {}.",
            info.source_name, info.source_version, info.data_versions, info.retrieved, info.licence
        ),
        inline_css: None,
        tabs,
        forward: None,
    }
}

impl Site<'_> {
    /// The frame of the workload page at `rel` inside the workload's
    /// folder; `meta.home` links to the workload's root.
    fn meta(&self, rel: &str, title: &str, description: String, nav: &'static str) -> PageMeta {
        let path = self.path(rel);
        let title = if title.is_empty() {
            format!("{} leaderboard", self.workload.name)
        } else {
            format!("{title} · {}", self.workload.name)
        };
        let mut meta = page_meta(
            self.base_url.as_deref(),
            &self.info,
            &self.tabs,
            &path,
            &title,
            description,
            nav,
        );
        meta.home = format!("{}{}", meta.root, self.prefix);
        meta
    }
}

impl Mirror<'_> {
    fn meta(&self, path: &str, title: &str, description: String, nav: &'static str) -> PageMeta {
        page_meta(
            self.base_url.as_deref(),
            &self.info,
            &self.tabs,
            path,
            title,
            description,
            nav,
        )
    }
}

/// Renders every page of the site into `sink`.
pub fn render_site(
    mirror: &Mirror<'_>,
    assets: &[Asset],
    sink: &dyn PageSink,
    progress: &dyn crate::Progress,
) -> Result<RenderCounts> {
    for a in assets {
        sink.put(&format!("assets/{}", a.rel), &a.bytes)?;
    }
    sink.put(".nojekyll", b"")?;

    let jobs: Vec<(&Site<'_>, usize)> = mirror
        .workloads
        .iter()
        .flat_map(|s| (0..s.models.len()).map(move |i| (s, i)))
        .collect();
    let per_model: Vec<(RenderCounts, Vec<downloads::FileEntry>)> = jobs
        .par_iter()
        .map(|&(site, i)| {
            let m = &site.models[i];
            let counts = render_model(site, m, &site.analyses[i], sink)?;
            let files = downloads::publish_model_files(site, m, sink)?;
            progress.advance();
            Ok((counts, files))
        })
        .collect::<Result<_>>()?;
    let (model_counts, model_files): (Vec<RenderCounts>, Vec<Vec<downloads::FileEntry>>) =
        per_model.into_iter().unzip();

    let mut counts = model_counts
        .into_iter()
        .fold(RenderCounts::default(), |x, y| x + y);
    for site in &mirror.workloads {
        counts = counts + render_leaderboard(site, sink)?;
        counts = counts + render_gpu_pages(site, sink)?;
        counts = counts + render_compare(site, sink)?;
    }
    counts = counts + overview::render_front(mirror, sink)?;
    counts = counts + overview::render_model_overviews(mirror, sink)?;
    counts = counts + overview::render_gpu_hubs(mirror, sink)?;
    counts = counts + overview::render_compare_hub(mirror, sink)?;
    counts = counts + render_about(mirror, sink)?;
    counts = counts + downloads::render_downloads(mirror, &model_files, sink)?;
    counts = counts + render_not_found(mirror, assets, sink)?;
    render_seo_files(mirror, sink)?;
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
    let home = format!("{root}{}", site.prefix);
    let page = format!("{home}{}index.html", model_dir(&m.slug));
    let cells = columns
        .iter()
        .map(|&key| match key {
            "model" => Cell {
                header: true,
                ..link(m.name.clone(), format!("{page}#{}", gpu_anchor(&c.gpu)))
            },
            "gpu" => link(
                c.gpu.clone(),
                format!("{home}gpus/{}/index.html", gpu_segment(&c.gpu)),
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
