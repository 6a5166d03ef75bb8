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

/// Loads, validates and analyses the data, renders every page and swaps the
/// new site into `out_dir`. On any error the previous site is untouched.
pub fn build(opts: &BuildOptions) -> Result<BuildSummary> {
    let start = Instant::now();
    let data = load::load_data_dir(&opts.data_dir)?;
    let assets = load::load_static_dir(&opts.static_dir)?;
    let site = render::Site::new(&data.models, opts.base_url.as_deref())?;
    let writer = write::SiteWriter::begin(&opts.out_dir, opts.force)?;
    let counts = render::render_site(&site, &assets, &writer)?;
    let written = writer.commit()?;
    Ok(BuildSummary {
        models: data.models.len(),
        pages: counts.pages,
        charts: counts.charts,
        files: written.files,
        bytes: written.bytes,
        skipped: data.skipped,
        elapsed: start.elapsed(),
    })
}

/// Loads, validates, analyses and renders in memory without writing.
pub fn check(opts: &BuildOptions) -> Result<BuildSummary> {
    let start = Instant::now();
    let data = load::load_data_dir(&opts.data_dir)?;
    let assets = load::load_static_dir(&opts.static_dir)?;
    let site = render::Site::new(&data.models, opts.base_url.as_deref())?;
    let sink = write::CountingSink::default();
    let counts = render::render_site(&site, &assets, &sink)?;
    Ok(BuildSummary {
        models: data.models.len(),
        pages: counts.pages,
        charts: counts.charts,
        files: sink.files.into_inner(),
        bytes: sink.bytes.into_inner(),
        skipped: data.skipped,
        elapsed: start.elapsed(),
    })
}
