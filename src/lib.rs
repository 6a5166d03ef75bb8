//! energyboard: a static site generator for a mirror of the ML.ENERGY
//! Leaderboard.
//!
//! The pipeline runs one way, one module per stage:
//! [`load`] (files → validated models) → [`analyse`] (pure figures) →
//! [`chart`] (SVG strings) → [`render`] (pages in memory, streamed to a
//! [`write::PageSink`]) → [`write`] (the only stage that touches `site/`).

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
pub mod serve;
pub mod synth;
pub mod workload;
pub mod write;

use std::path::PathBuf;
use std::time::{Duration, Instant};

use anyhow::Result;

/// What a build reads and where it writes.
#[derive(Debug, Clone)]
pub struct BuildOptions {
    /// Folder of model files.
    pub data_dir: PathBuf,
    /// Folder of static assets (CSS, JS) that override the built-in ones
    /// file by file; a missing folder means the built-in assets alone.
    pub static_dir: PathBuf,
    /// Output folder.
    pub out_dir: PathBuf,
    /// Replace a non-empty output folder that energyboard did not create.
    pub force: bool,
    /// Absolute URL the site is published at, e.g.
    /// `https://user.github.io/repo/`; used only for canonical links,
    /// the sitemap and link previews.
    pub base_url: Option<String>,
    /// Workload names, descriptions and order (`[[workloads]]` in the
    /// settings file).
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
            workloads: Vec::new(),
            footprint: None,
        }
    }
}

/// Settings kept in the repository (`energyboard.toml`); the command line
/// overrides them.
#[derive(Debug, Clone, Default, PartialEq, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Config {
    /// Absolute URL the site is published at; empty for none.
    #[serde(default)]
    pub base_url: String,
    /// Workloads in the order the site lists them, with their names and
    /// descriptions; workloads not listed follow, by id.
    #[serde(default)]
    pub workloads: Vec<workload::WorkloadSettings>,
    /// Grid carbon intensity (`[carbon_intensity]`), optional.
    #[serde(default)]
    pub carbon_intensity: Option<footprint::CarbonIntensity>,
    /// Electricity price (`[electricity_price]`), optional.
    #[serde(default)]
    pub electricity_price: Option<footprint::ElectricityPrice>,
    /// Facility overhead (`[facility_overhead]`), optional.
    #[serde(default)]
    pub facility_overhead: Option<footprint::FacilityOverhead>,
}

/// Largest settings file accepted, in bytes.
pub const MAX_CONFIG_BYTES: u64 = 1024 * 1024;

impl Config {
    /// Reads `path`; a missing file gives the defaults. Like a model file,
    /// it must be a regular file (not a device or a pipe, which could be
    /// endless or never answer) of at most [`MAX_CONFIG_BYTES`].
    pub fn load(path: &std::path::Path) -> Result<Self> {
        use anyhow::Context;
        use std::io::Read;
        let meta = match std::fs::metadata(path) {
            Ok(meta) => meta,
            Err(err) if err.kind() == std::io::ErrorKind::NotFound => return Ok(Self::default()),
            Err(err) => {
                return Err(err).with_context(|| format!("{}: cannot read", path.display()));
            }
        };
        if !meta.is_file() {
            anyhow::bail!(
                "{}: is not a regular file (a folder, device, pipe or socket?); --config needs a settings file",
                path.display()
            );
        }
        let mut raw = Vec::new();
        std::fs::File::open(path)
            .and_then(|f| f.take(MAX_CONFIG_BYTES + 1).read_to_end(&mut raw))
            .with_context(|| format!("{}: cannot read", path.display()))?;
        if raw.len() as u64 > MAX_CONFIG_BYTES {
            anyhow::bail!(
                "{}: is larger than {} kB; a settings file holds a few lines",
                path.display(),
                MAX_CONFIG_BYTES / 1024
            );
        }
        let text = String::from_utf8(raw)
            .with_context(|| format!("{}: is not UTF-8 text", path.display()))?;
        let config: Self = toml::from_str(&text)
            .with_context(|| format!("{}: invalid settings", path.display()))?;
        config.footprint(path)?;
        Ok(config)
    }

    /// The carbon and cost settings, checked; `path` names the file in
    /// the error, which lists every bad key.
    pub fn footprint(&self, path: &std::path::Path) -> Result<Option<footprint::Footprint>> {
        footprint::Footprint::from_settings(
            self.carbon_intensity.clone(),
            self.electricity_price.clone(),
            self.facility_overhead.clone(),
        )
        .map_err(|bad| {
            let lines: Vec<String> = bad
                .iter()
                .map(|b| format!("  {}: {b}", path.display()))
                .collect();
            anyhow::anyhow!(
                "{} problem{} in the settings:\n{}",
                bad.len(),
                if bad.len() == 1 { "" } else { "s" },
                lines.join("\n")
            )
        })
    }

    /// The base URL, if one is set.
    pub fn base_url(&self) -> Option<String> {
        let url = self.base_url.trim();
        (!url.is_empty()).then(|| url.to_owned())
    }
}

/// Checks a base URL: `http://` or `https://`, a host (letters, digits,
/// `-`, `.`, and an optional `:port`, or an `[IPv6]` address), then an
/// optional path; no user name, query, fragment, spaces or control
/// characters, which would make the canonical links wrong or unsafe.
pub fn check_base_url(url: &str) -> Result<()> {
    let url = url.trim();
    if url.is_empty() {
        return Ok(());
    }
    let example = "e.g. https://user.github.io/repo/";
    let lower = url.to_ascii_lowercase();
    let Some(rest) = ["https://", "http://"]
        .iter()
        .find_map(|scheme| lower.strip_prefix(scheme).map(|_| &url[scheme.len()..]))
    else {
        anyhow::bail!("--base-url {url:?}: must be an absolute http(s) URL, {example}");
    };
    if let Some(c) = url
        .chars()
        .find(|c| c.is_control() || c.is_whitespace() || "\"<>\\^`{|}".contains(*c))
    {
        anyhow::bail!("--base-url {url:?}: may not contain {c:?}; {example}");
    }
    if url.contains(['?', '#']) {
        anyhow::bail!("--base-url {url:?}: may not have a query or fragment; {example}");
    }
    let host = rest.split('/').next().unwrap_or("");
    let name = if host.starts_with('[') {
        host.split_once(']').map_or("", |(h, _)| h)
    } else {
        host.split(':').next().unwrap_or("")
    };
    let name_ok = !name.is_empty()
        && !name.starts_with(['.', '-'])
        && name
            .chars()
            .all(|c| c.is_alphanumeric() || matches!(c, '-' | '.' | '[' | ':'));
    let port_ok = host
        .rsplit_once("]:")
        .map(|(_, p)| p)
        .or_else(|| (!host.starts_with('[')).then(|| host.split_once(':').map(|(_, p)| p))?)
        .is_none_or(|p| !p.is_empty() && p.parse::<u16>().is_ok());
    if !name_ok || !port_ok {
        anyhow::bail!("--base-url {url:?}: needs a host name after the scheme, {example}");
    }
    Ok(())
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
    if let Some(url) = &opts.base_url {
        check_base_url(url)?;
    }
    let mut data = load::load_data_dir(&opts.data_dir)?;
    let workloads = workload::group_data(&mut data, &opts.workloads);
    let assets = assets::site_assets(&opts.static_dir)?;
    let site = render::Mirror::new(&data, &workloads, opts.base_url.as_deref())?
        .with_footprint(opts.footprint.as_ref());
    let models = data.models.len() + data.diffusion.len();
    let sink = open()?;
    progress.begin(models);
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base_urls_need_a_host() {
        for good in [
            "https://user.github.io/repo/",
            "http://127.0.0.1:8000/",
            "https://example.org",
            "HTTPS://Example.org/a/b",
            "http://[::1]:8080/x/",
        ] {
            assert!(check_base_url(good).is_ok(), "{good}");
        }
        for bad in [
            "https://",
            "https:///repo/",
            "http://:80/",
            "https://user@evil.example/",
            "https://a b/",
            "https://x.org/?q=1",
            "https://x.org/#top",
            "https://x.org:99999/",
            "https://x.org/\"onload",
            "ftp://x.org/",
            "//x.org/",
            "https://\u{0}/",
        ] {
            assert!(check_base_url(bad).is_err(), "{bad}");
        }
    }

    #[cfg(unix)]
    #[test]
    fn settings_that_are_not_a_regular_file_are_refused() {
        for path in ["/dev/zero", "/dev/null", "/"] {
            let err = Config::load(std::path::Path::new(path)).unwrap_err();
            assert!(
                err.to_string().contains("is not a regular file"),
                "{path}: {err}"
            );
        }
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("fifo");
        assert!(
            std::process::Command::new("mkfifo")
                .arg(&fifo)
                .status()
                .unwrap()
                .success()
        );
        assert!(Config::load(&fifo).is_err());
        let big = dir.path().join("big.toml");
        std::fs::write(&big, format!("# {}\n", "x".repeat(2 << 20))).unwrap();
        assert!(
            Config::load(&big)
                .unwrap_err()
                .to_string()
                .contains("larger than")
        );
        assert_eq!(
            Config::load(&dir.path().join("missing.toml")).unwrap(),
            Config::default()
        );
    }
}
