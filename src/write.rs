//! Writing: the only stage that touches the output folder.
//!
//! A build goes into a fresh folder beside the target (`.site.tmp-XXXXXX`) and
//! is swapped in only when every page was written, so a failed build leaves
//! the previous site exactly as it was. A marker file says the folder is
//! ours and what wrote it (`build` a site, the benchmarks' `energyboard-synth` a data folder); a
//! non-empty folder without a marker of the same kind is refused unless
//! `--force`. Some folders are never replaced, `--force` or not
//! ([`guard_output`]).
//!
//! One build at a time writes into a target (the operating system's lock
//! on a file beside it, [`crate::stage`]), the leftovers of a killed build
//! (staging folders with the marker) are removed by the next, and
//! Ctrl-C ([`stop_on_ctrl_c`]) ends a build between two files, leaving the
//! target as it was.

use std::fs;
use std::path::{Component, Path, PathBuf};

use crate::stage::Stage;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};

use anyhow::{Context, Result, bail};

/// Name of the marker file energyboard leaves in every folder it builds.
pub const MARKER: &str = ".energyboard";

/// Files and folders at the top of a built site that a rebuild keeps: they
/// are the user's, placed there for the host (GitHub Pages' custom domain,
/// `/.well-known/` for domain verification and security.txt).
pub const KEPT_IN_SITE: [&str; 2] = ["CNAME", ".well-known"];

/// What wrote a folder, as its marker says.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Made {
    /// A site, written by `energyboard build` (or `serve`).
    Site,
    /// Model files, written by `energyboard-synth`: a data folder.
    Data,
}

impl Made {
    /// The marker file's text, whose first line names the kind.
    fn marker(self) -> &'static str {
        match self {
            Self::Site => {
                "energyboard site\nThis folder was built by `energyboard build`; a rebuild \
                 replaces it whole, keeping only CNAME and .well-known/.\n"
            }
            Self::Data => {
                "energyboard data\nThese model files were written by `energyboard-synth`; \
                 a new run replaces the folder whole. It is a data folder, not a site.\n"
            }
        }
    }

    /// The kind as a message names it.
    fn described(self) -> &'static str {
        match self {
            Self::Site => "a site built by `energyboard build`",
            Self::Data => "a data folder written by `energyboard-synth`",
        }
    }

    /// The kind a marker's text names; `None` if energyboard did not write it.
    fn from_marker(text: &str) -> Option<Self> {
        let first = text.lines().next()?;
        // The marker of versions that knew only sites.
        if first.starts_with("This folder was built by energyboard") {
            return Some(Self::Site);
        }
        [Self::Site, Self::Data]
            .into_iter()
            .find(|m| m.marker().lines().next() == Some(first))
    }
}

/// The kind of energyboard folder `dir` is, by its marker.
pub fn made_by(dir: &Path) -> Option<Made> {
    let path = dir.join(MARKER);
    let meta = fs::symlink_metadata(&path).ok()?;
    if !meta.is_file() || meta.len() > 4096 {
        return None;
    }
    Made::from_marker(&fs::read_to_string(path).ok()?)
}

static STOP: AtomicBool = AtomicBool::new(false);

/// The first Ctrl-C (or SIGTERM) stops every build in this process before
/// its next file (an import before it moves its files in), leaving the
/// output folder as it was and no staging folder behind; a second one ends
/// the process at once (the next run cleans up after it).
pub fn stop_on_ctrl_c() -> Result<()> {
    ctrlc::set_handler(|| {
        if STOP.swap(true, Ordering::SeqCst) {
            std::process::exit(130);
        }
    })
    .map_err(|err| anyhow::anyhow!("cannot catch Ctrl-C: {err}"))
}

/// Fails when a stop was requested; called between steps that may be abandoned.
pub fn stop_point() -> Result<()> {
    if STOP.load(Ordering::Relaxed) {
        bail!("interrupted; the output folder is as it was");
    }
    Ok(())
}

/// What writes one file's bytes, handed to [`PageSink::put_streamed`].
pub type Body<'a> = dyn FnMut(&mut dyn std::io::Write) -> Result<()> + 'a;

/// Receives the pages of a site, one file at a time.
pub trait PageSink: Sync {
    /// Stores at `rel`, a `/`-separated path inside the site, what `write`
    /// writes, without holding it all in memory; returns the byte count.
    fn put_streamed(&self, rel: &str, write: &mut Body) -> Result<u64>;

    fn put(&self, rel: &str, bytes: &[u8]) -> Result<()> {
        self.put_streamed(rel, &mut |out| Ok(std::io::Write::write_all(out, bytes)?))?;
        Ok(())
    }

    /// Publishes the input file `from` unchanged at `rel`, only if its bytes
    /// are still those that were validated: `len` bytes with the
    /// [`crate::load::content_digest`] `digest`. The file is read again, not
    /// kept in memory since validation (at 10,000 models that would be
    /// hundreds of megabytes).
    fn copy_file(&self, rel: &str, from: &Path, len: u64, digest: u64) -> Result<()> {
        let bytes = fs::read(from).with_context(|| format!("cannot read {}", from.display()))?;
        let now = bytes.len() as u64;
        if now != len || crate::load::content_digest(&bytes) != digest {
            bail!(
                "{}: changed while the site was being built ({len} bytes validated, now {now} \
                    bytes{}); build again",
                from.display(),
                if now == len {
                    " with other contents"
                } else {
                    ""
                }
            );
        }
        self.put(rel, &bytes)
    }
}

/// Writes a site into a staging folder, then swaps it in on [`SiteWriter::commit`].
#[derive(Debug)]
pub struct SiteWriter {
    target: PathBuf,
    stage: Stage,
    made: Made,
    counted: CountingSink,
}

/// What a finished build wrote.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct WriteSummary {
    /// Files written (the marker not counted).
    pub files: usize,
    pub bytes: u64,
    /// Files of the previous folder that the new one does not have (and
    /// that were not kept, see [`KEPT_IN_SITE`]), `/`-separated, in name
    /// order; at most [`REMOVED_LISTED`] of them.
    pub removed: Vec<String>,
    /// How many files were removed in all.
    pub removed_total: usize,
}

/// How many removed files a [`WriteSummary`] names.
pub const REMOVED_LISTED: usize = 20;

/// Where a build may write: `out` is checked against the folders it must
/// never replace, whatever `--force` says. `inputs` are the folders the
/// build reads (data, static); those that do not exist are skipped.
///
/// Refused: an `out` that is, is inside, or contains an input; that is or
/// contains the current folder or the home folder; that is the root; that
/// is a git work tree (has `.git`) or, when it is not already an
/// energyboard folder, contains one anywhere.
pub fn guard_output(out: &Path, inputs: &[&Path]) -> Result<()> {
    guard_folder("--out", out, inputs)
}

/// [`guard_output`] for any folder energyboard writes into, named in
/// messages by its option `flag` (`--out`, `--data`).
pub fn guard_folder(flag: &str, out: &Path, inputs: &[&Path]) -> Result<()> {
    let out_real = resolved(out)?;
    let shown = out.display();
    if out_real.parent().is_none() {
        bail!("{shown}: is the root folder; choose another {flag}");
    }
    for input in inputs {
        let Ok(input_real) = input.canonicalize() else {
            continue;
        };
        let input = input.display();
        if out_real == input_real {
            bail!(
                "{shown}: is the input folder {input}; energyboard would write over it. Choose \
                    another {flag}"
            );
        }
        if out_real.starts_with(&input_real) {
            bail!("{shown}: is inside the input folder {input}; choose an {flag} outside it");
        }
        if input_real.starts_with(&out_real) {
            bail!(
                "{shown}: contains the input folder {input}; energyboard would write over it. \
                    Choose another {flag}"
            );
        }
    }
    let cwd = std::env::current_dir().and_then(|d| d.canonicalize());
    if cwd.is_ok_and(|cwd| cwd.starts_with(&out_real)) {
        bail!(
            "{shown}: is the current folder or contains it; energyboard would write over it. \
             Choose another {flag}"
        );
    }
    let home = std::env::var_os("HOME").and_then(|h| PathBuf::from(h).canonicalize().ok());
    if home.is_some_and(|home| home.starts_with(&out_real)) {
        bail!("{shown}: is the home folder or contains it; choose another {flag}");
    }
    if out_real.is_dir() {
        // A folder of ours holds no repositories: look at its top only.
        let depth = if made_by(&out_real).is_some() {
            1
        } else {
            usize::MAX
        };
        if let Some(git) = find_git(&out_real, depth) {
            bail!(
                "{shown}: {} a git work tree ({}); energyboard would write over it. Choose \
                    another {flag}",
                if git == out_real { "is" } else { "contains" },
                git.display()
            );
        }
    }
    Ok(())
}

/// The first folder at or under `dir` (to `depth` levels) with a `.git`; links not followed.
fn find_git(dir: &Path, depth: usize) -> Option<PathBuf> {
    walkdir::WalkDir::new(dir)
        .max_depth(depth)
        .into_iter()
        .filter_map(Result::ok)
        .find(|e| e.file_name() == ".git")
        .and_then(|e| e.path().parent().map(Path::to_path_buf))
}

/// `path` made absolute with every existing part resolved (symbolic links,
/// `..`), the parts that do not exist yet appended as written.
fn resolved(path: &Path) -> Result<PathBuf> {
    let abs =
        std::path::absolute(path).with_context(|| format!("cannot resolve {}", path.display()))?;
    for existing in abs.ancestors() {
        if let Ok(mut out) = existing.canonicalize() {
            for part in abs
                .strip_prefix(existing)
                .unwrap_or(Path::new(""))
                .components()
            {
                match part {
                    Component::ParentDir => {
                        out.pop();
                    }
                    Component::Normal(name) => out.push(name),
                    _ => {}
                }
            }
            return Ok(out);
        }
    }
    Ok(abs)
}

/// Whether `dir` may be replaced by a build writing `made`: it does not
/// exist, is empty, or carries energyboard's marker of the same kind.
/// `force` overrides (but see [`guard_output`] for what it never does).
pub fn check_target(dir: &Path, made: Made, force: bool) -> Result<()> {
    match fs::symlink_metadata(dir) {
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => Ok(()),
        Err(err) => Err(err).with_context(|| format!("cannot inspect {}", dir.display())),
        Ok(meta) if !meta.is_dir() => {
            bail!(
                "{}: exists and is not a folder; choose another --out",
                dir.display()
            )
        }
        Ok(_) => {
            let mut entries =
                fs::read_dir(dir).with_context(|| format!("cannot read {}", dir.display()))?;
            if force || entries.next().is_none() {
                return Ok(());
            }
            match made_by(dir) {
                Some(kind) if kind == made => Ok(()),
                Some(other) => bail!(
                    "{}: is {}, not {}; refusing to replace it. Choose another --out, \
                     or pass --force to replace it",
                    dir.display(),
                    other.described(),
                    made.described()
                ),
                None => bail!(
                    "{}: is not empty and was not built by energyboard (no {MARKER} marker); \
                     refusing to replace it. Choose another --out, or pass --force to replace it",
                    dir.display()
                ),
            }
        }
    }
}

impl SiteWriter {
    /// Prepares a staging folder beside `target`, after checking that the
    /// target may be replaced ([`guard_output`] against `inputs`, then
    /// [`check_target`]) and taking the lock beside it.
    pub fn begin(target: &Path, made: Made, force: bool, inputs: &[&Path]) -> Result<Self> {
        stop_point()?;
        guard_output(target, inputs)?;
        check_target(target, made, force)?;
        let name = target
            .file_name()
            .and_then(|n| n.to_str())
            .filter(|n| *n != "..")
            .with_context(|| format!("{}: --out must name a folder", target.display()))?;
        let parent = match target.parent() {
            Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
            _ => PathBuf::from("."),
        };
        fs::create_dir_all(&parent)
            .with_context(|| format!("cannot create {}", parent.display()))?;
        let (stage, leftovers) = Stage::begin(&parent, name, target, "build again")?;
        // Under the lock, a staging folder of ours (marked) is a stopped build's.
        for leftover in leftovers {
            if made_by(&leftover).is_some() {
                let _ = fs::remove_dir_all(&leftover);
            }
        }
        let writer = Self {
            target: target.to_path_buf(),
            stage,
            made,
            counted: CountingSink::default(),
        };
        // The marker first: a killed build's leftover is then known as ours.
        let staging = writer.stage.path();
        fs::write(staging.join(MARKER), made.marker())
            .with_context(|| format!("cannot write the marker in {}", staging.display()))?;
        Ok(writer)
    }

    /// Swaps the staging folder in for the target and returns what was written.
    pub fn commit(mut self) -> Result<WriteSummary> {
        stop_point()?;
        // Re-check: the target may have changed while we built.
        check_target(&self.target, self.made, true)?;
        let mut summary = std::mem::take(&mut self.counted).summary();
        let staging = self.stage.path().to_path_buf();
        if self.target.exists() {
            if self.made == Made::Site {
                for kept in KEPT_IN_SITE {
                    let from = self.target.join(kept);
                    let to = staging.join(kept);
                    if fs::symlink_metadata(&from).is_ok() && fs::symlink_metadata(&to).is_err() {
                        crate::stage::copy_tree(&from, &to)?;
                    }
                }
            }
            // Named after this run's staging folder, so a folder left by a
            // build that crashed here cannot block the next one.
            let mut old = staging.clone().into_os_string();
            old.push(".old");
            let old = PathBuf::from(old);
            fs::rename(&self.target, &old)
                .with_context(|| format!("cannot move the old {} aside", self.target.display()))?;
            if let Err(err) = fs::rename(&staging, &self.target) {
                // Put the old site back so nothing is lost.
                let _ = fs::rename(&old, &self.target);
                return Err(err).with_context(|| {
                    format!("cannot move the new site into {}", self.target.display())
                });
            }
            self.stage.keep();
            list_removed(&old, &self.target, &mut summary);
            fs::remove_dir_all(&old)
                .with_context(|| format!("cannot remove the old site at {}", old.display()))?;
        } else {
            fs::rename(&staging, &self.target).with_context(|| {
                format!("cannot move the new site into {}", self.target.display())
            })?;
            self.stage.keep();
        }
        Ok(summary)
    }
}

/// Adds to `summary` the files under `old` that `new` does not have.
fn list_removed(old: &Path, new: &Path, summary: &mut WriteSummary) {
    for entry in walkdir::WalkDir::new(old)
        .sort_by_file_name()
        .into_iter()
        .filter_map(Result::ok)
    {
        if entry.file_type().is_dir() || entry.depth() == 0 {
            continue;
        }
        let Ok(rel) = entry.path().strip_prefix(old) else {
            continue;
        };
        if rel == Path::new(MARKER) || fs::symlink_metadata(new.join(rel)).is_ok() {
            continue;
        }
        summary.removed_total += 1;
        if summary.removed.len() < REMOVED_LISTED {
            let parts: Vec<_> = rel
                .components()
                .map(|c| c.as_os_str().to_string_lossy().into_owned())
                .collect();
            summary.removed.push(parts.join("/"));
        }
    }
}

impl PageSink for SiteWriter {
    fn put_streamed(&self, rel: &str, write: &mut Body) -> Result<u64> {
        stop_point()?;
        let path = self.stage.path().join(safe_relative(rel)?);
        if let Some(dir) = path.parent() {
            fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
        }
        let file =
            fs::File::create(&path).with_context(|| format!("cannot write {}", path.display()))?;
        let out = std::io::BufWriter::with_capacity(1 << 16, file);
        self.counted
            .stream(out, write)
            .with_context(|| format!("cannot write {}", path.display()))
    }
}

/// Counts the bytes that pass through to `inner`.
struct CountingWriter<W> {
    inner: W,
    bytes: u64,
}

impl<W: std::io::Write> std::io::Write for CountingWriter<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let n = self.inner.write(buf)?;
        self.bytes += n as u64;
        Ok(n)
    }
    fn flush(&mut self) -> std::io::Result<()> {
        self.inner.flush()
    }
}

/// A page path as a path inside the site ([`crate::stage::relative_path`]).
fn safe_relative(rel: &str) -> Result<PathBuf> {
    crate::stage::relative_path(rel)
        .with_context(|| format!("internal error: page path {rel:?} would leave the site folder"))
}

/// Counts pages without keeping them; for `check` (and inside [`SiteWriter`]).
#[derive(Debug, Default)]
pub struct CountingSink {
    files: AtomicUsize,
    bytes: AtomicU64,
}

impl CountingSink {
    /// Counts one file, what `write` writes through to `inner`; returns its byte count.
    fn stream(&self, inner: impl std::io::Write, write: &mut Body) -> Result<u64> {
        let mut out = CountingWriter { inner, bytes: 0 };
        write(&mut out)?;
        std::io::Write::flush(&mut out)?;
        self.files.fetch_add(1, Ordering::Relaxed);
        self.bytes.fetch_add(out.bytes, Ordering::Relaxed);
        Ok(out.bytes)
    }

    pub fn summary(self) -> WriteSummary {
        WriteSummary {
            files: self.files.into_inner(),
            bytes: self.bytes.into_inner(),
            ..WriteSummary::default()
        }
    }
}

impl PageSink for CountingSink {
    fn put_streamed(&self, rel: &str, write: &mut Body) -> Result<u64> {
        safe_relative(rel)?;
        self.stream(std::io::sink(), write)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn page_paths_cannot_escape() {
        assert!(safe_relative("models/a/index.html").is_ok());
        assert!(safe_relative("../x").is_err());
        assert!(safe_relative("/etc/passwd").is_err());
        assert!(safe_relative("a/../../b").is_err());
        assert!(safe_relative("").is_err());
    }
}
