//! energyboard: a static site generator for a mirror of the ML.ENERGY
//! Leaderboard.
//!
//! The pipeline runs one way, one module per stage:
//! [`load`] (files → validated models) → [`analyse`] (pure figures) →
//! [`chart`] (SVG strings) → [`render`] (pages in memory, streamed to a
//! [`write::PageSink`]) → [`write`] (the only stage that touches `site/`).

pub mod analyse;
pub mod chart;
pub mod columns;
pub mod fmt;
pub mod load;
pub mod model;
pub mod render;
pub mod serve;
pub mod synth;
pub mod write;

use std::path::PathBuf;
use std::time::{Duration, Instant};

use anyhow::Result;

/// What a build reads and where it writes.
#[derive(Debug, Clone)]
pub struct BuildOptions {
    /// Folder of model files.
    pub data_dir: PathBuf,
    /// Folder of static assets (CSS, JS) copied into the site.
    pub static_dir: PathBuf,
    /// Output folder.
    pub out_dir: PathBuf,
    /// Replace a non-empty output folder that energyboard did not create.
    pub force: bool,
    /// Absolute URL the site is published at, e.g.
    /// `https://user.github.io/repo/`; used only for canonical links,
    /// the sitemap and link previews.
    pub base_url: Option<String>,
}

impl Default for BuildOptions {
    fn default() -> Self {
        Self {
            data_dir: PathBuf::from("data"),
            static_dir: PathBuf::from("static"),
            out_dir: PathBuf::from("site"),
            force: false,
            base_url: None,
        }
    }
}

/// Settings kept in the repository (`energyboard.toml`); the command line
/// overrides them.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Config {
    /// Absolute URL the site is published at; empty for none.
    #[serde(default)]
    pub base_url: String,
}

impl Config {
    /// Reads `path`; a missing file gives the defaults.
    pub fn load(path: &std::path::Path) -> Result<Self> {
        use anyhow::Context;
        match std::fs::read_to_string(path) {
            Ok(text) => toml::from_str(&text)
                .with_context(|| format!("{}: invalid settings", path.display())),
            Err(err) if err.kind() == std::io::ErrorKind::NotFound => Ok(Self::default()),
            Err(err) => Err(err).with_context(|| format!("{}: cannot read", path.display())),
        }
    }

    /// The base URL, if one is set.
    pub fn base_url(&self) -> Option<String> {
        let url = self.base_url.trim();
        (!url.is_empty()).then(|| url.to_owned())
    }
}

/// What a build or check produced.
#[derive(Debug, Clone)]
pub struct BuildSummary {
    /// Models built.
    pub models: usize,
    /// HTML pages written.
    pub pages: usize,
    /// SVG charts written.
    pub charts: usize,
    /// All files written.
    pub files: usize,
    /// Bytes written.
    pub bytes: u64,
    /// Files in the data folder that were not model files.
    pub skipped: Vec<PathBuf>,
    /// Files of the previous site the new one does not have, in name
    /// order (at most [`write::REMOVED_LISTED`]).
    pub removed: Vec<String>,
    /// How many files of the previous site were removed in all.
    pub removed_total: usize,
    /// Wall time taken.
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

/// Told how far a build has got; for a progress bar on a terminal.
pub trait Progress: Sync {
    /// Rendering starts; `models` model pages will follow.
    fn begin(&self, _models: usize) {}
    /// One more model's pages and charts are written.
    fn advance(&self) {}
    /// Rendering is over (successfully or not).
    fn finish(&self) {}
}

/// Reports nothing.
#[derive(Debug, Clone, Copy, Default)]
pub struct NoProgress;

impl Progress for NoProgress {}

/// Loads, validates and analyses the data, renders every page and swaps the
/// new site into `out_dir`. On any error the previous site is untouched.
pub fn build(opts: &BuildOptions) -> Result<BuildSummary> {
    build_with_progress(opts, &NoProgress)
}

/// [`build`], reporting progress.
pub fn build_with_progress(opts: &BuildOptions, progress: &dyn Progress) -> Result<BuildSummary> {
    // Refuse a forbidden --out before the data are read (checked again
    // when the writer begins).
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
    let data = load::load_data_dir(&opts.data_dir)?;
    let assets = load::load_static_dir(&opts.static_dir)?;
    let site = render::Site::new(&data.models, opts.base_url.as_deref())?;
    let sink = open()?;
    progress.begin(data.models.len());
    let counts = render::render_site(&site, &assets, &sink, progress);
    progress.finish();
    let counts = counts?;
    let written = close(sink)?;
    Ok(BuildSummary {
        models: data.models.len(),
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
