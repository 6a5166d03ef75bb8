//! energyboard: a static site generator for a mirror of the ML.ENERGY
//! Leaderboard.
//!
//! The pipeline runs one way, one module per stage, in the order `run`
//! calls them: [`settings`] (checked before anything is read) →
//! [`load`] (files → validated models) → [`workload`] (grouped) →
//! [`analyse`] (pure figures, once per model) → per model, in parallel:
//! [`chart`] (SVG strings) → [`render`] (pages in memory) → [`mod@write`] (the
//! only stage that touches `site/`, streamed through a [`write::PageSink`]).
//! Nothing below this module imports from it.

pub mod analyse;
pub mod assets;
pub mod changes;
pub mod chart;
pub mod columns;
pub mod fmt;
pub mod footprint;
pub mod import;
pub mod load;
pub mod model;
pub mod render;
pub mod select;
pub mod serve;
pub mod settings;
pub mod stage;
pub mod workload;
pub mod write;

use std::path::PathBuf;
use std::time::{Duration, Instant};

use anyhow::Result;

pub use render::{NoProgress, Progress};
pub use settings::{Config, MAX_CONFIG_BYTES, check_base_url, repository_address};

/// What a build reads and where it writes.
#[derive(Debug, Clone)]
pub struct BuildOptions {
    pub data_dir: PathBuf,
    /// Folder of static assets (CSS, JS) that override the built-in ones
    /// file by file; a missing folder means the built-in assets alone.
    pub static_dir: PathBuf,
    pub out_dir: PathBuf,
    /// Replace a non-empty output folder that energyboard did not create.
    pub force: bool,
    /// Absolute URL the site is published at, e.g. `https://user.github.io/repo/`;
    /// only for canonical links, the sitemap and link previews.
    pub base_url: Option<String>,
    /// The repository the site is built from (`repository` in the
    /// settings), for the about page's link to its guide.
    pub repository: Option<String>,
    /// Workload names, descriptions and order (`[[workloads]]` in the settings).
    pub workloads: Vec<workload::WorkloadSettings>,
    /// Carbon intensity, electricity price and facility overhead, when
    /// the settings give them; `None` shows energy alone.
    pub footprint: Option<footprint::Footprint>,
}

impl Default for BuildOptions {
    fn default() -> Self {
        Self {
            data_dir: PathBuf::from("data"),
            static_dir: PathBuf::from("static"),
            out_dir: PathBuf::from("site"),
            force: false,
            base_url: None,
            repository: None,
            workloads: Vec::new(),
            footprint: None,
        }
    }
}

/// What a build or check produced.
#[derive(Debug, Clone)]
pub struct BuildSummary {
    pub models: usize,
    pub pages: usize,
    pub charts: usize,
    pub files: usize,
    pub bytes: u64,
    /// Files in the data folder that were not model files.
    pub skipped: Vec<PathBuf>,
    /// Files of the previous site the new one does not have, in name
    /// order (at most [`write::REMOVED_LISTED`]).
    pub removed: Vec<String>,
    /// How many files of the previous site were removed in all.
    pub removed_total: usize,
    pub elapsed: Duration,
}

impl std::fmt::Display for BuildSummary {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} model{}, {} pages, {} charts, {} files ({:.1} kB) in {:.2} s",
            self.models,
            if self.models == 1 { "" } else { "s" },
            self.pages,
            self.charts,
            self.files,
            self.bytes as f64 / 1000.0,
            self.elapsed.as_secs_f64()
        )
    }
}

/// Loads, validates and analyses the data, renders every page and swaps the
/// new site into `out_dir`. On any error the previous site is untouched.
pub fn build(opts: &BuildOptions) -> Result<BuildSummary> {
    build_with_progress(opts, &NoProgress)
}

/// [`build`], reporting progress.
pub fn build_with_progress(opts: &BuildOptions, progress: &dyn Progress) -> Result<BuildSummary> {
    // Refuse a forbidden --out before reading data (the writer checks again).
    write::guard_output(&opts.out_dir, &[&opts.data_dir, &opts.static_dir])?;
    run(
        opts,
        progress,
        || {
            write::SiteWriter::begin(
                &opts.out_dir,
                write::Made::Site,
                opts.force,
                &[&opts.data_dir, &opts.static_dir],
            )
        },
        write::SiteWriter::commit,
    )
}

/// Loads, validates, analyses and renders in memory without writing.
pub fn check(opts: &BuildOptions) -> Result<BuildSummary> {
    run(
        opts,
        &NoProgress,
        || Ok(write::CountingSink::default()),
        |sink| Ok(sink.summary()),
    )
}

/// The pipeline, into the sink `open` makes once the data are valid;
/// `close` finishes the sink (a build swaps its folder in here).
fn run<S: write::PageSink>(
    opts: &BuildOptions,
    progress: &dyn Progress,
    open: impl FnOnce() -> Result<S>,
    close: impl FnOnce(S) -> Result<write::WriteSummary>,
) -> Result<BuildSummary> {
    let start = Instant::now();
    let base_url = settings::base_url(opts.base_url.as_deref())?;
    // Load: every file read, parsed and validated, or every problem named.
    let mut data = load::load_data_dir(&opts.data_dir)?;
    let workloads = workload::group(std::mem::take(&mut data.models), &opts.workloads);
    let assets = assets::site_assets(&opts.static_dir)?;
    // Analyse: once per model, before anything is drawn or rendered.
    let analysed = analyse::analyse_data(&workloads);
    let site = render::Mirror::new(&data, &workloads, analysed, base_url)
        .with_footprint(opts.footprint.as_ref())
        .with_repository(opts.repository.as_deref());
    let models = workloads.iter().map(|w| w.models.len()).sum();
    let sink = open()?;
    progress.begin(models);
    // Per model, in parallel: chart → render → write; then the site-wide pages.
    let counts = render::render_site(&site, &assets, &sink, progress);
    progress.finish();
    let counts = counts?;
    let written = close(sink)?;
    Ok(BuildSummary {
        models,
        pages: counts.pages,
        charts: counts.charts,
        files: written.files,
        bytes: written.bytes,
        skipped: data.skipped,
        removed: written.removed,
        removed_total: written.removed_total,
        elapsed: start.elapsed(),
    })
}
