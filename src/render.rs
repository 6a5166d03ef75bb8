//! Rendering: analysed data and SVG strings in, pages out. Pages are streamed
//! to a [`PageSink`] as they are made (models in parallel); this module never
//! writes a file itself.
//!
//! Every link is relative (through a `root` prefix, as mdBook's
//! `path_to_root`), so the site works under any sub-path and from disk.

mod changes;
mod compare;
mod downloads;
mod kind;
mod model_page;
mod overview;
mod reader;
mod site_pages;
mod versions;
mod views;

pub use crate::analyse::ModelId;
pub use downloads::LISTED_MODELS;
pub use kind::{Tables, Words};
pub use site_pages::{PAGE_ROWS, leaderboard_page_file};

use compare::render_compare;
use model_page::render_model;
use site_pages::{
    render_about, render_gpu_pages, render_leaderboard, render_not_found, render_seo_files,
};

use std::collections::{BTreeMap, BTreeSet};

use anyhow::{Context, Result};
use askama::Template;
use rayon::prelude::*;

use crate::analyse::footprint_basis::footprint_bases;
use crate::analyse::versions::ModelVersion;
use crate::analyse::{Analysed, LeaderboardRow, ModelAnalysis, WorkloadAnalysis};
use crate::columns::{Align, Column, ColumnSet, Link, Record, Shown};
use crate::fmt;
use crate::footprint::Footprint;
use crate::load::{Asset, DataSet, LoadedModel, PastVersion};
use crate::model::{Configuration, Measure, ModelFile, row_anchor, url_segment};
use crate::workload::{LEGACY_WORKLOAD, Workload};
use crate::write::{Body, PageSink};

use views::{Cell, Header, Row};

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
    pub workload: &'a Workload,
    /// The workload's folder, e.g. `workloads/gpqa/`.
    pub prefix: String,
    /// Every workload of the site, one tab each.
    pub tabs: &'a [Workload],
    /// Whether the site has an Atom feed of its changes (pages link it).
    pub feed: bool,
    /// Each model's recorded best-figure changes in this workload, by
    /// slug, newest first; `None` when the site has no change history.
    pub history: Option<BTreeMap<String, Vec<changes::BestHistory<'a>>>>,
    /// Carbon and cost settings; `None` shows energy alone.
    pub footprint: Option<Footprint>,
    /// Each model's versions by slug, oldest first, the current one last
    /// ([`crate::analyse::versions::model_versions`]): what its version
    /// pages show.
    pub versions: BTreeMap<&'a str, Vec<ModelVersion<'a>>>,
}

/// The whole site: every workload, and the pages that span them.
#[derive(Debug)]
pub struct Mirror<'a> {
    /// One part per workload, in the site's order.
    pub workloads: Vec<Site<'a>>,
    /// For each model slug: where it is measured, in workload order.
    pub slugs: BTreeMap<String, Vec<ModelId>>,
    /// Every GPU type, in first-seen order over the workloads.
    pub gpus: Vec<String>,
    pub base_url: Option<String>,
    /// The repository the site is built from, e.g.
    /// `https://github.com/user/repo` (`repository` in the settings).
    pub repository: Option<String>,
    /// Provenance over every file.
    pub info: SiteInfo,
    pub tabs: &'a [Workload],
    /// The change history, when the data folder has one.
    pub changes: Option<&'a crate::load::LoadedChanges>,
    /// The other sources' change histories, by source id
    /// (`sources/<id>/changes.json`).
    pub source_changes: &'a [crate::load::SourceChanges],
    /// Whether the site has an Atom feed of its changes: it needs a base
    /// URL (an Atom id is an absolute address) and one entry at least.
    pub feed: bool,
    pub footprint: Option<Footprint>,
}

/// A workload's tab as one page shows it: a plain link to its leaderboard.
#[derive(Debug, Clone)]
pub struct TabView {
    pub name: String,
    /// Link from the page.
    pub href: String,
    /// `aria-current` value: `page` on the workload's own leaderboard,
    /// `true` elsewhere in the workload, empty otherwise.
    pub current: &'static str,
}

/// Provenance shared by the pages: where the numbers come from. A text
/// field holds the files' distinct values, joined by "; " (the caveats,
/// sentences, by a space), but the URL, licence evidence, method,
/// selection, citation and note are the first file's.
#[derive(Debug, Clone, Default)]
pub struct SiteInfo {
    pub source_name: String,
    pub source_url: String,
    pub publisher: String,
    pub source_version: String,
    pub licence: String,
    pub licence_evidence: Vec<String>,
    pub data_versions: String,
    pub released: String,
    pub compiled: String,
    pub retrieved: String,
    pub caveat: String,
    pub workload: String,
    pub method: String,
    pub selection: String,
    pub cite: String,
    pub cite_url: String,
    /// Note on which configurations are published.
    pub configurations_note: String,
    /// Every source of the files, the leaderboard's first, then by id;
    /// pages mark and filter by source only when there are two or more.
    pub sources: Vec<SourceMark>,
}

/// One source of measurements as pages name it.
#[derive(Debug, Clone, Default, PartialEq, Eq, PartialOrd, Ord)]
pub struct SourceMark {
    /// `leaderboard` for the leaderboard's files, else the source's id: a
    /// row's class (`from-<key>`) and its filter's anchor (`#only-<key>`).
    pub key: String,
    pub name: String,
    pub url: String,
    pub licence: String,
    pub retrieved: String,
    pub version: String,
    pub data_versions: String,
}

/// The keys of the sources a page marks and filters by: every source's on a
/// site of two or more, none on a site of one.
fn filtered_source_keys(sources: &[SourceMark]) -> Vec<&str> {
    if sources.len() < 2 {
        return Vec::new();
    }
    sources.iter().map(|s| s.key.as_str()).collect()
}

/// The CSS of the source filter (`templates/source_filter.css`).
#[derive(Template)]
#[template(path = "source_filter.css", escape = "none")]
struct SourceFilterStyle<'a> {
    source_keys: Vec<&'a str>,
}

/// The CSS of the source filter of a page whose rows, cards and chart
/// series come from `sources` (nothing for one source): the link
/// `#only-<key>` hides everything of another source (class `from-<key>`),
/// without JavaScript, and keeps the choice in the address.
pub(crate) fn source_filter_style(sources: &[SourceMark]) -> askama::Result<String> {
    SourceFilterStyle {
        source_keys: filtered_source_keys(sources),
    }
    .render()
}

/// The CSS that swaps a page's charts of every source for each source's
/// alone (`templates/source_views.css`).
#[derive(Template)]
#[template(path = "source_views.css", escape = "none")]
struct SourceViewsStyle<'a> {
    source_keys: Vec<&'a str>,
    /// The page has a latency limit, which hides the bar chart of the
    /// deadline's picks: each source's too.
    limit_hides_source_bars: bool,
}

/// The CSS that swaps a page's charts of every source (class
/// `every-source`) for the charts of one source alone (`only-source
/// from-<key>`, hidden at first) when the reader shows that source alone
/// (`#only-<key>`); nothing for one source. With `limit`, the page's
/// latency limit hides each source's bar chart of the deadline's picks
/// with the chart of all of them.
pub(crate) fn source_views_style(sources: &[SourceMark], limit: bool) -> askama::Result<String> {
    SourceViewsStyle {
        source_keys: filtered_source_keys(sources),
        limit_hides_source_bars: limit,
    }
    .render()
}

impl SourceMark {
    pub fn of(source: &crate::model::Source) -> Self {
        Self {
            key: source.key().to_owned(),
            name: source.name.clone(),
            url: source.url.clone(),
            licence: source.licence.clone(),
            retrieved: source.retrieved.clone(),
            version: source.version.clone(),
            data_versions: String::new(),
        }
    }
}

/// The distinct values of `field` over `files`, in order, joined by `sep`.
fn distinct(files: &[&ModelFile], field: fn(&ModelFile) -> &str, sep: &str) -> String {
    let set: BTreeSet<&str> = files.iter().map(|f| field(f)).collect();
    set.into_iter().collect::<Vec<_>>().join(sep)
}

impl SiteInfo {
    fn new(files: &[&ModelFile]) -> Self {
        let Some(first) = files.first() else {
            return Self::default();
        };
        let s = &first.source;
        Self {
            source_name: distinct(files, |f| &f.source.name, "; "),
            source_url: s.url.clone(),
            publisher: distinct(files, |f| &f.source.publisher, "; "),
            source_version: distinct(files, |f| &f.source.version, "; "),
            licence: distinct(files, |f| &f.source.licence, "; "),
            licence_evidence: s.licence_evidence.clone(),
            data_versions: distinct(files, |f| &f.data_version, "; "),
            released: distinct(files, |f| &f.source.released, "; "),
            compiled: distinct(files, |f| &f.source.compiled, "; "),
            retrieved: distinct(files, |f| &f.source.retrieved, "; "),
            // Caveats are sentences: one after the other.
            caveat: distinct(files, |f| &f.caveat, " "),
            workload: distinct(files, |f| &f.source.workload, "; "),
            method: s.method.clone(),
            selection: s.selection.clone(),
            cite: s.cite.clone(),
            cite_url: s.cite_url.clone(),
            configurations_note: s.configurations.clone().unwrap_or_default(),
            sources: {
                // Each source's mark and its distinct dates and versions.
                let mut by_source: BTreeMap<Option<&str>, Vec<&ModelFile>> = BTreeMap::new();
                for &f in files {
                    by_source.entry(f.source.id.as_deref()).or_default().push(f);
                }
                by_source
                    .into_values()
                    .map(|fs| SourceMark {
                        retrieved: distinct(&fs, |f| &f.source.retrieved, "; "),
                        version: distinct(&fs, |f| &f.source.version, "; "),
                        data_versions: distinct(&fs, |f| &f.data_version, "; "),
                        ..SourceMark::of(&fs[0].source)
                    })
                    .collect()
            },
        }
    }

    /// How charts mark a file of `source`; `None` when these pages show one.
    fn whose(&self, source: &crate::model::Source) -> Option<crate::chart::Whose> {
        if self.sources.len() < 2 {
            return None;
        }
        let key = source.key();
        let rank = self.sources.iter().position(|s| s.key == key)?;
        Some(crate::chart::Whose {
            rank,
            key: key.to_owned(),
            name: self.sources[rank].name.clone(),
        })
    }
}

/// Every GPU type of `files`, in first-seen order.
fn gpus_of(files: &[&ModelFile]) -> Vec<String> {
    let mut seen = BTreeSet::new();
    files
        .iter()
        .flat_map(|m| &m.gpus)
        .filter(|g| seen.insert(*g))
        .cloned()
        .collect()
}

impl Site<'_> {
    pub fn slug(&self, i: usize) -> &str {
        &self.models[i].file.slug
    }

    pub fn has_row(&self, i: usize, row_id: &str) -> bool {
        self.models[i]
            .file
            .configurations
            .iter()
            .any(|c| c.row_id == row_id)
    }

    fn files_and_analyses(&self) -> Vec<Analysed<'_>> {
        self.models
            .iter()
            .zip(&self.analyses)
            .map(|(m, analysis)| Analysed {
                file: &m.file,
                analysis,
            })
            .collect()
    }

    /// The frame of the workload page at `rel` inside the workload's
    /// folder; `meta.home` links to the workload's root.
    fn meta(&self, rel: &str, title: &str, description: String, nav: &'static str) -> PageMeta {
        let path = self.path(rel);
        let title = if title.is_empty() {
            format!("{} leaderboard", self.workload.name)
        } else {
            format!("{title} · {}", self.workload.name)
        };
        let frame = (self.base_url.as_deref(), &self.info, self.tabs, self.feed);
        let mut meta = page_meta(frame, &path, &title, description, nav);
        meta.home = format!("{}{}", meta.root, self.prefix);
        meta
    }

    /// Headers of a table of best rows ([`leaderboard_row`]) with `columns`
    /// (of the workload's `tables`), sorted by the headline as built; carbon
    /// and cost columns are shown when the settings give them.
    fn best_table_headers(&self, tables: &Tables, columns: &[Shown], root: &str) -> Vec<Header> {
        let per = if self.workload.measure == Measure::Tokens {
            "M tok"
        } else {
            self.words().item
        };
        let footprint = self.footprint.as_ref();
        let mut headers: Vec<Header> = columns
            .iter()
            .filter_map(|col| match col {
                Shown::Figure(c) => Some(Header {
                    sorted: c.key == tables.headline.key,
                    ..header(&tables.set, c, root)
                }),
                // Per the headline energy's basis ("M tok", "image"), when
                // the settings give it.
                Shown::Footprint(k) => footprint.and_then(|f| f.column_unit(*k, per)).map(|unit| {
                    let plain = Header::plain(k.label(), &unit, true, k.key());
                    plain.defined(root, "footprint", k.definition())
                }),
            })
            .collect();
        if self.mixed() {
            // Last, as in the CSV files: on a phone the figures come first
            // (a source's model names carry its label).
            headers.push(source_header(root));
        }
        headers
    }

    /// Whether the workload's pages mark and filter rows by source.
    fn mixed(&self) -> bool {
        self.info.sources.len() > 1
    }

    /// The absolute URL of `path` (from the site root), or `path` itself
    /// when the build has no base URL.
    fn absolute(&self, path: &str) -> String {
        format!("{}{path}", self.base_url.as_deref().unwrap_or_default())
    }

    /// "Name: 39.05 Wh per million output tokens on H100": `c`, a best
    /// configuration of `m`, in a sentence.
    fn best_text(&self, m: &ModelFile, c: &Configuration) -> String {
        let energy = self.words().energy_long;
        format!(
            "{}: {} {energy} on {}",
            m.name,
            kind::energy_figure(c),
            c.gpu
        )
    }

    fn path(&self, rel: &str) -> String {
        format!("{}{rel}", self.prefix)
    }

    /// Whether this is [`LEGACY_WORKLOAD`] (see [`Site::put_file`]).
    fn legacy(&self) -> bool {
        self.workload.id == LEGACY_WORKLOAD
    }

    /// Writes a file of the workload (a chart, a badge) at `rel` inside its
    /// folder. The legacy workload's files are written at `rel` itself too:
    /// their address before the site had workloads.
    fn put_file(&self, sink: &dyn PageSink, rel: &str, bytes: &[u8]) -> Result<()> {
        sink.put(&self.path(rel), bytes)?;
        if self.legacy() {
            sink.put(rel, bytes)?;
        }
        Ok(())
    }

    /// The deadline with its unit, e.g. "500 ms" or "30 s".
    pub fn deadline(&self) -> String {
        format!(
            "{} {}",
            fmt::limit_ms(self.workload.deadline),
            self.words().latency_unit
        )
    }

    fn words(&self) -> &'static Words {
        Words::of(self.workload.measure)
    }

    /// The versions of the model `lm`, oldest first (empty for a model of
    /// another workload).
    fn versions_of(&self, lm: &LoadedModel) -> &[ModelVersion<'_>] {
        self.versions
            .get(lm.file.slug.as_str())
            .map_or(&[], Vec::as_slice)
    }

    fn row(&self, r: LeaderboardRow) -> (&ModelFile, &Configuration) {
        let m = &self.models[r.model].file;
        (m, &m.configurations[r.config])
    }
}

impl<'a> Mirror<'a> {
    fn meta(&self, path: &str, title: &str, description: String, nav: &'static str) -> PageMeta {
        let frame = (self.base_url.as_deref(), &self.info, self.tabs, self.feed);
        page_meta(frame, path, title, description, nav)
    }

    /// The file of the model `id`.
    pub fn file(&self, id: ModelId) -> &'a ModelFile {
        &self.workloads[id.part].models[id.index].file
    }

    /// Every model of the site, workload by workload.
    pub fn model_ids(&self) -> Vec<ModelId> {
        self.workloads
            .iter()
            .enumerate()
            .flat_map(|(part, p)| (0..p.models.len()).map(move |index| ModelId { part, index }))
            .collect()
    }

    /// The site's parts, from the data, grouped as `workloads` say
    /// ([`crate::workload::group`]), and its analysis
    /// ([`crate::analyse::analyse_data`], one per workload, same order).
    /// `base_url` is checked and normalised already
    /// ([`crate::settings::base_url`]).
    pub fn new(
        data: &'a DataSet,
        workloads: &'a [Workload],
        analysed: Vec<WorkloadAnalysis>,
        base_url: Option<String>,
    ) -> Self {
        assert_eq!(workloads.len(), analysed.len(), "one analysis per workload");
        // Each history with its source: none for the leaderboard's.
        let histories: Vec<SourceHistory<'_>> = data
            .changes
            .iter()
            .map(|c| SourceHistory {
                source: None,
                history: &c.history,
            })
            .chain(data.source_changes.iter().map(|s| SourceHistory {
                source: Some(s.source.as_str()),
                history: &s.changes.history,
            }))
            .collect();
        let feed = base_url.is_some() && histories.iter().any(|h| !h.history.entries.is_empty());
        let parts: Vec<Site<'a>> = workloads
            .iter()
            .zip(analysed)
            .map(|(workload, a)| {
                let files: Vec<&ModelFile> = workload.models.iter().map(|m| &m.file).collect();
                Site {
                    info: SiteInfo::new(&files),
                    gpus: gpus_of(&files),
                    models: &workload.models,
                    analyses: a.models,
                    leaderboard: a.leaderboard,
                    base_url: base_url.clone(),
                    prefix: workload.dir(),
                    workload,
                    tabs: workloads,
                    feed,
                    // Each source's slugs are its own (`<id>--<slug>`), so
                    // the histories never meet.
                    history: (!histories.is_empty()).then(|| {
                        histories
                            .iter()
                            .flat_map(|h| changes::best_history(h.history, &workload.id, h.source))
                            .collect()
                    }),
                    footprint: None,
                    versions: versions_of(data, &histories, workload),
                }
            })
            .collect();
        let mut slugs: BTreeMap<String, Vec<ModelId>> = BTreeMap::new();
        for (part, site) in parts.iter().enumerate() {
            for index in 0..site.models.len() {
                slugs
                    .entry(site.slug(index).to_owned())
                    .or_default()
                    .push(ModelId { part, index });
            }
        }
        let files: Vec<&ModelFile> = parts
            .iter()
            .flat_map(|p| p.models.iter().map(|m| &m.file))
            .collect();
        Self {
            info: SiteInfo::new(&files),
            gpus: gpus_of(&files),
            workloads: parts,
            slugs,
            base_url,
            repository: None,
            tabs: workloads,
            changes: data.changes.as_ref(),
            source_changes: &data.source_changes,
            feed,
            footprint: None,
        }
    }

    /// Shows carbon and cost beside the energy figures, from `footprint`
    /// (nothing changes with `None`).
    #[must_use]
    pub fn with_footprint(mut self, footprint: Option<&Footprint>) -> Self {
        self.footprint = footprint.cloned();
        self.workloads
            .iter_mut()
            .for_each(|part| part.footprint = footprint.cloned());
        self
    }

    /// Names the repository the site is built from (`None` leaves it to
    /// the base URL, when that is a GitHub Pages address).
    #[must_use]
    pub fn with_repository(mut self, repository: Option<&str>) -> Self {
        self.repository = repository.map(str::to_owned);
        self
    }

    /// How the site-wide charts mark `m`'s source; `None` for one source.
    fn whose(&self, m: &ModelFile) -> Option<crate::chart::Whose> {
        self.info.whose(&m.source)
    }

    /// The legacy workload's part, when the data has it.
    fn legacy(&self) -> Option<&Site<'a>> {
        self.workloads.iter().find(|s| s.legacy())
    }

    /// Whether the measure of any workload passes the test `measure`.
    fn has(&self, measure: impl Fn(Measure) -> bool) -> bool {
        self.workloads.iter().any(|w| measure(w.workload.measure))
    }
}

#[derive(Debug, Clone, Copy, Default)]
pub struct RenderCounts {
    pub pages: usize,
    pub charts: usize,
}

impl RenderCounts {
    pub const ONE_PAGE: Self = Self {
        pages: 1,
        charts: 0,
    };
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
#[derive(Debug, Clone, Default)]
pub struct PageMeta {
    /// Relative path from the page to the site root, e.g. `../../`.
    pub root: String,
    pub title: String,
    /// The meta description (also used for link previews).
    pub description: String,
    /// Canonical absolute URL, when a base URL is known.
    pub canonical: Option<String>,
    /// Which navigation entry is this page.
    pub nav: &'static str,
    /// Whether the page loads the table script.
    pub script: bool,
    /// Further `assets/` scripts the page loads (deferred), e.g. `limit.js`.
    pub scripts: Vec<&'static str>,
    /// CSS of the page alone, in the head (the compare page's rules that
    /// show the chosen models); empty for none. Made by the program, never
    /// from data.
    pub head_style: String,
    pub footer: String,
    /// CSS to inline instead of linking the stylesheet (the 404 page, which
    /// is served at any depth).
    pub inline_css: Option<String>,
    /// Relative path from the page to its workload's folder (the site root
    /// for pages outside a workload).
    pub home: String,
    pub tabs: Vec<TabView>,
    /// Where a `#fragment` this page does not have is sent: the page that
    /// held it before the site had workloads (a small inline script).
    pub forward: Option<String>,
    /// Link from the page to the Atom feed, if any (`<link rel="alternate">`).
    pub feed: Option<String>,
}

const SITE_NAME: &str = "energyboard";

/// The frame of a page at `path` (from the site root), of a [`Site`] or of
/// the [`Mirror`]: its base URL (for canonical links), provenance (for the
/// footer), tabs, and whether it has a feed.
fn page_meta(
    (base_url, info, tabs, feed): (Option<&str>, &SiteInfo, &[Workload], bool),
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
        .map(|w| {
            let dir = w.dir();
            TabView {
                name: w.name.clone(),
                href: format!("{root}{dir}index.html"),
                current: match path.strip_prefix(&dir) {
                    Some("index.html") => "page",
                    Some(_) => "true",
                    None => "",
                },
            }
        })
        .collect();
    let feed = feed.then(|| format!("{root}{}", changes::FEED_PATH));
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
        footer: if info.sources.len() > 1 {
            // Each source's versions, dates and licence apart, so no
            // reader takes one source's licence for another's.
            let each: Vec<String> = info
                .sources
                .iter()
                .map(|s| {
                    format!(
                        "{} {}, data version {}, retrieved {}, licence {}",
                        s.name, s.version, s.data_versions, s.retrieved, s.licence
                    )
                })
                .collect();
            format!("Data: {}.", each.join("; "))
        } else {
            format!(
                "Data: {} {}, data version {}, retrieved {}. Licence: {}.",
                info.source_name,
                info.source_version,
                info.data_versions,
                info.retrieved,
                info.licence
            )
        },
        tabs,
        feed,
        ..PageMeta::default()
    }
}

/// Told how far rendering has got; for a progress bar on a terminal.
pub trait Progress: Sync {
    /// Rendering starts; `models` model pages will follow.
    fn begin(&self, _models: usize) {}
    /// One more model's pages and charts are written.
    fn advance(&self) {}
    /// Rendering is over (successfully or not).
    fn finish(&self) {}
}

#[derive(Debug, Clone, Copy, Default)]
pub struct NoProgress;

impl Progress for NoProgress {}

/// Renders every page of the site into `sink`: the assets, each model's
/// pages ([`render_models`]) and the site-wide pages
/// ([`render_site_wide`]).
pub fn render_site(
    mirror: &Mirror<'_>,
    assets: &[Asset],
    sink: &dyn PageSink,
    progress: &dyn Progress,
) -> Result<RenderCounts> {
    for a in assets {
        sink.put(&format!("assets/{}", a.rel), &a.bytes)?;
    }
    // The GitHub Pages marker.
    sink.put(".nojekyll", b"")?;
    let pages = ListedPages::new(sink);
    // The model pages and the pages that list models side by side: the
    // listings are a few large tasks and the models many small ones, which
    // together keep every core busy to the end.
    let (models, listings) = rayon::join(
        || render_models(mirror, &mirror.model_ids(), &pages, progress),
        || render_listings(mirror, assets, &pages),
    );
    let models = models?;
    let (listed, site_files) = listings?;
    let counts = listed + downloads::render_downloads(mirror, site_files, &models, &pages)?;
    render_seo_files(mirror, &pages.into_sorted(), sink)?;
    Ok(models.iter().fold(counts, |sum, m| sum + m.counts))
}

/// A sink that hands every file on and notes the address of each page a
/// reader may land on from a search, so that `sitemap.xml` lists every page
/// written (the leaderboards' and comparisons' further pages, the
/// downloads' listings, version pages), not a second account of them.
struct ListedPages<'s> {
    sink: &'s dyn PageSink,
    addresses: std::sync::Mutex<Vec<String>>,
}

impl<'s> ListedPages<'s> {
    fn new(sink: &'s dyn PageSink) -> Self {
        Self {
            sink,
            addresses: std::sync::Mutex::new(Vec::new()),
        }
    }

    /// The addresses noted, in path order: the same for every build of the
    /// same data, whatever order the threads wrote in.
    fn into_sorted(self) -> Vec<String> {
        let mut addresses = self
            .addresses
            .into_inner()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        addresses.sort_unstable();
        addresses
    }
}

/// The address a sitemap gives the page at `rel`, if it lists it: HTML
/// pages, an `index.html` by its folder, but not the 404 page nor the
/// latency-limit rows that a leaderboard's script reads (marked `noindex`).
fn listed_address(rel: &str) -> Option<&str> {
    let file = rel.rsplit('/').next().unwrap_or(rel);
    if !file.ends_with(".html") || rel == site_pages::NOT_FOUND || reader::is_limit_rows_file(file)
    {
        return None;
    }
    Some(rel.strip_suffix("index.html").unwrap_or(rel))
}

impl PageSink for ListedPages<'_> {
    fn put_streamed(&self, rel: &str, write: &mut Body) -> Result<u64> {
        let written = self.sink.put_streamed(rel, write)?;
        if let Some(address) = listed_address(rel) {
            self.addresses
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner)
                .push(address.to_owned());
        }
        Ok(written)
    }

    fn copy_file(&self, rel: &str, from: &std::path::Path, len: u64, digest: u64) -> Result<()> {
        self.sink.copy_file(rel, from, len, digest)
    }
}

/// What rendering one model gave besides its files.
#[derive(Debug, Clone)]
pub struct ModelOutput {
    pub counts: RenderCounts,
    /// What its downloads' listing needs.
    files: downloads::Published,
}

/// Renders the pages, charts and data files of the models `ids` into
/// `sink`, in parallel; one [`ModelOutput`] per id, same order.
pub fn render_models(
    mirror: &Mirror<'_>,
    ids: &[ModelId],
    sink: &dyn PageSink,
    progress: &dyn Progress,
) -> Result<Vec<ModelOutput>> {
    ids.par_iter()
        .map(|&id| {
            let site = &mirror.workloads[id.part];
            let m = &site.models[id.index];
            let a = &site.analyses[id.index];
            let counts =
                render_model(site, m, a, sink)? + versions::render_versions(site, m, a, sink)?;
            let files = downloads::publish_model_files(site, m, sink)?;
            progress.advance();
            Ok(ModelOutput { counts, files })
        })
        .collect()
}

/// Renders the pages that list models rather than show one: each workload's,
/// then the site-wide ones. The downloads page lists `models`, the output of
/// every model in [`Mirror::model_ids`] order.
pub fn render_site_wide(
    mirror: &Mirror<'_>,
    assets: &[Asset],
    models: &[ModelOutput],
    sink: &dyn PageSink,
) -> Result<RenderCounts> {
    let (listed, site_files) = render_listings(mirror, assets, sink)?;
    Ok(listed + downloads::render_downloads(mirror, site_files, models, sink)?)
}

/// The pages of [`render_site_wide`] but the downloads page, which also
/// lists the models' own files: each workload's pages, then the site-wide
/// ones, and the site-wide downloads.
fn render_listings(
    mirror: &Mirror<'_>,
    assets: &[Asset],
    sink: &dyn PageSink,
) -> Result<(RenderCounts, downloads::SiteFiles)> {
    // Each workload's pages as a task of their own: they read the
    // workload's analysis only, and write files no other workload writes.
    let (workloads, site_wide) = rayon::join(
        || {
            mirror
                .workloads
                .par_iter()
                .map(|site| {
                    Ok(render_leaderboard(site, sink)?
                        + render_gpu_pages(site, sink)?
                        + render_compare(site, sink)?)
                })
                .collect::<Result<Vec<RenderCounts>>>()
        },
        || -> Result<(RenderCounts, downloads::SiteFiles)> {
            let counts = overview::render_front(mirror, sink)?
                + overview::render_model_overviews(mirror, sink)?
                + overview::render_gpu_hubs(mirror, sink)?
                + overview::render_compare_hub(mirror, sink)?
                + render_about(mirror, sink)?
                + changes::render_changes(mirror, sink)?
                + render_not_found(mirror, assets, sink)?;
            Ok((counts, downloads::write_site_wide_files(mirror, sink)?))
        },
    );
    let (site_wide, site_files) = site_wide?;
    let counts = workloads?.into_iter().fold(site_wide, |sum, c| sum + c);
    Ok((counts, site_files))
}

/// A change history with its source's id (`None` for the leaderboard's).
#[derive(Clone, Copy)]
struct SourceHistory<'a> {
    source: Option<&'a str>,
    history: &'a crate::changes::ChangeHistory,
}

/// The versions of each model of `workload`, by slug, from its
/// source's change history (of `histories`) and the superseded files of
/// `data`.
fn versions_of<'a>(
    data: &'a DataSet,
    histories: &[SourceHistory<'a>],
    workload: &'a Workload,
) -> BTreeMap<&'a str, Vec<ModelVersion<'a>>> {
    let mut past: BTreeMap<&str, Vec<&PastVersion>> = BTreeMap::new();
    for p in data
        .history
        .iter()
        .filter(|p| p.model.workload == workload.id)
    {
        past.entry(p.model.file.slug.as_str()).or_default().push(p);
    }
    workload
        .models
        .iter()
        .map(|lm| {
            let source = lm.file.source.id.as_deref();
            let log = histories
                .iter()
                .find(|h| h.source == source)
                .map(|h| h.history);
            let own = past
                .get(lm.file.slug.as_str())
                .map_or(&[][..], Vec::as_slice);
            let versions = crate::analyse::versions::model_versions(log, own, lm);
            (lm.file.slug.as_str(), versions)
        })
        .collect()
}

fn put_page(sink: &dyn PageSink, path: &str, page: &impl Template) -> Result<()> {
    let html = page.render().with_context(|| format!("rendering {path}"))?;
    sink.put(path, html.as_bytes())
}

fn model_dir(slug: &str) -> String {
    format!("models/{slug}/")
}

/// The configuration `c`'s row on its model's page, from the workload's
/// folder: where a chart's point or a table's cell links.
fn configuration_href(m: &ModelFile, c: &Configuration) -> String {
    let mut href = model_dir(&m.slug);
    href.push_str("index.html#");
    href.push_str(&row_anchor(&m.slug, &c.row_id));
    href
}

/// The GPU's page folder, e.g. `gpus/h100/`.
fn gpu_dir(gpu: &str) -> String {
    format!("gpus/{}/", url_segment(gpu))
}

fn gpu_anchor(gpu: &str) -> String {
    format!("gpu-{}", url_segment(gpu))
}

/// The header of column `c` of `set`, linking to its definition on the
/// about page.
fn header(set: &ColumnSet, c: &Column, root: &str) -> Header {
    let plain = Header::plain(c.label, c.unit, c.align == Align::Number, c.key);
    plain.defined(root, &set.anchor(c), c.definition)
}

/// The cell of column `c` of `config`: the figure in its page format, with
/// its raw value for sorting.
fn column_cell(c: &Column, model: &ModelFile, config: &Configuration) -> Cell {
    let value = c.value(&Record::of(model, config));
    let text = value.page();
    // The sort script reads a figure from its text where the text is the
    // whole value, so the attribute is left out there.
    let shown: Option<f64> = if text.contains(',') {
        text.replace(',', "").parse().ok()
    } else {
        text.parse().ok()
    };
    // The raw value reads back as the figure (it is written to), so it is
    // compared as a number, and written only when it is needed.
    let sort = match value.number() {
        Some(raw) if shown == Some(raw) => None,
        _ => value.sort_key(),
    };
    Cell {
        text,
        sort,
        num: c.align == Align::Number,
        ..Cell::default()
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
/// cells of `columns` (see [`Site::best_table_headers`]). `home` is the
/// path from the page to the workload's folder ("" on the leaderboard
/// itself), so its many links stay short.
fn leaderboard_row(site: &Site<'_>, r: LeaderboardRow, home: &str, columns: &[Shown]) -> Row {
    let (m, c) = site.row(r);
    let page = format!("{home}{}index.html", model_dir(&m.slug));
    let mut cells: Vec<Cell> = columns
        .iter()
        .filter_map(|col| match col {
            Shown::Figure(col) => {
                let mut cell = column_cell(col, m, c);
                cell.href = match col.link {
                    Link::None => None,
                    Link::Model => Some(format!("{page}#{}", gpu_anchor(&c.gpu))),
                    Link::Gpu => Some(format!("{home}{}index.html", gpu_dir(&c.gpu))),
                    Link::Row => Some(format!("{page}#{}", row_anchor(&m.slug, &c.row_id))),
                };
                Some(cell)
            }
            Shown::Footprint(k) => site.footprint.as_ref().and_then(|f| {
                f.column_value(*k, footprint_bases(c)[0].wh)
                    .map(|v| num(fmt::significant(v, 3), v))
            }),
        })
        .enumerate()
        .map(|(i, cell)| Cell {
            header: i == 0,
            // Aligned by the page's style, column by column
            // (`ColumnChooser::style`).
            num: false,
            ..cell
        })
        .collect();
    let mut class = String::new();
    if site.mixed() {
        cells.push(link(&m.source.name, m.source.url.clone()));
        class = format!("from-{}", m.source.key());
    }
    Row {
        id: None,
        class,
        cells,
    }
}

/// The head of a table's Source column, on pages that mix sources.
fn source_header(root: &str) -> Header {
    let plain = Header::plain("Source", "", false, views::SOURCE_KEY);
    plain.defined(root, "sources", "Whose measurement the row is")
}

/// The sentence beside carbon and cost figures: the assumptions, and why
/// the figures are floors.
pub(crate) fn footprint_note(f: &Footprint) -> String {
    format!(
        "Carbon and cost are the measured GPU energy converted at: {}. They count the GPUs alone \
            (no host CPUs, memory, networking, storage, idle servers or making the hardware), \
            so they are floors, not estimates of the whole footprint.",
        f.assumptions()
    )
}
