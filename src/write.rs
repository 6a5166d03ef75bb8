//! Writing: the only stage that touches the output folder.
//!
//! A build goes into a fresh folder beside the target (`.site.tmp-<pid>`) and
//! is swapped in only when every page was written, so a failed build leaves
//! the previous site exactly as it was. A marker file says the folder is
//! ours; a non-empty folder without it is refused unless `--force`.

use std::fs;
use std::path::{Component, Path, PathBuf};
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};

use anyhow::{Context, Result, bail};

/// Name of the marker file energyboard leaves in every folder it builds.
pub const MARKER: &str = ".energyboard";

const MARKER_TEXT: &str = "This folder was built by energyboard; a rebuild replaces it whole.\n";

/// Receives the pages of a site, one file at a time.
pub trait PageSink: Sync {
    /// Stores `bytes` at `rel`, a `/`-separated path inside the site.
    fn put(&self, rel: &str, bytes: &[u8]) -> Result<()>;

    /// Stores at `rel` what `write` writes, without holding it all in memory
    /// where the sink can avoid it. Returns the number of bytes.
    fn put_streamed(
        &self,
        rel: &str,
        write: &mut dyn FnMut(&mut dyn std::io::Write) -> Result<()>,
    ) -> Result<u64> {
        let mut buf = Vec::new();
        write(&mut buf)?;
        self.put(rel, &buf)?;
        Ok(buf.len() as u64)
    }

    /// Publishes the input file `from` unchanged at `rel`. It must still be
    /// `len` bytes long, as when it was validated.
    fn copy_file(&self, rel: &str, from: &Path, len: u64) -> Result<()> {
        let bytes = fs::read(from).with_context(|| format!("cannot read {}", from.display()))?;
        ensure_unchanged(from, bytes.len() as u64, len)?;
        self.put(rel, &bytes)
    }
}

fn ensure_unchanged(from: &Path, now: u64, then: u64) -> Result<()> {
    if now != then {
        bail!(
            "{}: changed while the site was being built ({then} bytes, now {now}); build again",
            from.display()
        );
    }
    Ok(())
}

/// Writes a site into a staging folder, then swaps it in on [`SiteWriter::commit`].
#[derive(Debug)]
pub struct SiteWriter {
    target: PathBuf,
    staging: PathBuf,
    files: AtomicUsize,
    bytes: AtomicU64,
    committed: bool,
}

/// What a finished build wrote.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WriteSummary {
    /// Files written (the marker not counted).
    pub files: usize,
    /// Bytes written.
    pub bytes: u64,
}

/// Whether `dir` may be replaced by a build: it does not exist, is empty,
/// or carries energyboard's marker. `force` overrides.
pub fn check_target(dir: &Path, force: bool) -> Result<()> {
    match fs::symlink_metadata(dir) {
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => Ok(()),
        Err(err) => Err(err).with_context(|| format!("cannot inspect {}", dir.display())),
        Ok(meta) if !meta.is_dir() => bail!(
            "{}: exists and is not a folder; choose another --out",
            dir.display()
        ),
        Ok(_) => {
            let mut entries =
                fs::read_dir(dir).with_context(|| format!("cannot read {}", dir.display()))?;
            let empty = entries.next().is_none();
            if empty || force || dir.join(MARKER).is_file() {
                Ok(())
            } else {
                bail!(
                    "{}: is not empty and was not built by energyboard (no {MARKER} marker); \
                     refusing to replace it. Choose another --out, or pass --force to replace it",
                    dir.display()
                )
            }
        }
    }
}

impl SiteWriter {
    /// Prepares a staging folder beside `target`, after checking that the
    /// target may be replaced.
    pub fn begin(target: &Path, force: bool) -> Result<Self> {
        check_target(target, force)?;
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
        let staging = parent.join(format!(".{name}.tmp-{}", std::process::id()));
        if staging.exists() {
            fs::remove_dir_all(&staging)
                .with_context(|| format!("cannot clear {}", staging.display()))?;
        }
        fs::create_dir(&staging).with_context(|| format!("cannot create {}", staging.display()))?;
        Ok(Self {
            target: target.to_path_buf(),
            staging,
            files: AtomicUsize::new(0),
            bytes: AtomicU64::new(0),
            committed: false,
        })
    }

    /// Swaps the staging folder in for the target and returns what was written.
    pub fn commit(mut self) -> Result<WriteSummary> {
        fs::write(self.staging.join(MARKER), MARKER_TEXT)
            .with_context(|| format!("cannot write the marker in {}", self.staging.display()))?;
        // Re-check: the target may have changed while we built.
        check_target(&self.target, true)?;
        if self.target.exists() {
            // Named after this run's staging folder, so a folder left by a
            // build that crashed here cannot block the next one.
            let mut old = self.staging.clone().into_os_string();
            old.push(".old");
            let old = PathBuf::from(old);
            fs::rename(&self.target, &old)
                .with_context(|| format!("cannot move the old {} aside", self.target.display()))?;
            if let Err(err) = fs::rename(&self.staging, &self.target) {
                // Put the old site back so nothing is lost.
                let _ = fs::rename(&old, &self.target);
                return Err(err).with_context(|| {
                    format!("cannot move the new site into {}", self.target.display())
                });
            }
            fs::remove_dir_all(&old)
                .with_context(|| format!("cannot remove the old site at {}", old.display()))?;
        } else {
            fs::rename(&self.staging, &self.target).with_context(|| {
                format!("cannot move the new site into {}", self.target.display())
            })?;
        }
        self.committed = true;
        Ok(WriteSummary {
            files: self.files.load(Ordering::Relaxed),
            bytes: self.bytes.load(Ordering::Relaxed),
        })
    }
}

impl PageSink for SiteWriter {
    fn put(&self, rel: &str, bytes: &[u8]) -> Result<()> {
        let path = self.staging.join(safe_relative(rel)?);
        if let Some(dir) = path.parent() {
            fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
        }
        fs::write(&path, bytes).with_context(|| format!("cannot write {}", path.display()))?;
        self.count(bytes.len() as u64);
        Ok(())
    }

    fn put_streamed(
        &self,
        rel: &str,
        write: &mut dyn FnMut(&mut dyn std::io::Write) -> Result<()>,
    ) -> Result<u64> {
        let path = self.staging.join(safe_relative(rel)?);
        if let Some(dir) = path.parent() {
            fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
        }
        let file =
            fs::File::create(&path).with_context(|| format!("cannot write {}", path.display()))?;
        let mut out = CountingWriter {
            inner: std::io::BufWriter::with_capacity(1 << 16, file),
            bytes: 0,
        };
        write(&mut out)?;
        std::io::Write::flush(&mut out)
            .with_context(|| format!("cannot write {}", path.display()))?;
        self.count(out.bytes);
        Ok(out.bytes)
    }

    fn copy_file(&self, rel: &str, from: &Path, len: u64) -> Result<()> {
        let path = self.staging.join(safe_relative(rel)?);
        if let Some(dir) = path.parent() {
            fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
        }
        let copied = fs::copy(from, &path)
            .with_context(|| format!("cannot copy {} to {}", from.display(), path.display()))?;
        ensure_unchanged(from, copied, len)?;
        self.count(copied);
        Ok(())
    }
}

impl SiteWriter {
    fn count(&self, bytes: u64) {
        self.files.fetch_add(1, Ordering::Relaxed);
        self.bytes.fetch_add(bytes, Ordering::Relaxed);
    }
}

impl Drop for SiteWriter {
    fn drop(&mut self) {
        if !self.committed {
            // The staging folder is ours alone; the target is untouched.
            let _ = fs::remove_dir_all(&self.staging);
        }
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

/// Checks that a page path stays inside the site.
pub fn safe_relative(rel: &str) -> Result<PathBuf> {
    let path = Path::new(rel);
    if rel.is_empty() || !path.components().all(|c| matches!(c, Component::Normal(_))) {
        bail!("internal error: page path {rel:?} would leave the site folder");
    }
    Ok(path.to_path_buf())
}

/// Counts pages without keeping them; for `check`.
#[derive(Debug, Default)]
pub struct CountingSink {
    /// Files seen.
    pub files: AtomicUsize,
    /// Bytes seen.
    pub bytes: AtomicU64,
}

impl CountingSink {
    /// What was counted.
    pub fn summary(self) -> WriteSummary {
        WriteSummary {
            files: self.files.into_inner(),
            bytes: self.bytes.into_inner(),
        }
    }
}

impl PageSink for CountingSink {
    fn put(&self, rel: &str, bytes: &[u8]) -> Result<()> {
        safe_relative(rel)?;
        self.files.fetch_add(1, Ordering::Relaxed);
        self.bytes.fetch_add(bytes.len() as u64, Ordering::Relaxed);
        Ok(())
    }

    fn put_streamed(
        &self,
        rel: &str,
        write: &mut dyn FnMut(&mut dyn std::io::Write) -> Result<()>,
    ) -> Result<u64> {
        safe_relative(rel)?;
        let mut out = CountingWriter {
            inner: std::io::sink(),
            bytes: 0,
        };
        write(&mut out)?;
        self.files.fetch_add(1, Ordering::Relaxed);
        self.bytes.fetch_add(out.bytes, Ordering::Relaxed);
        Ok(out.bytes)
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

    #[test]
    fn refuses_a_foreign_non_empty_folder() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("out");
        fs::create_dir(&out).unwrap();
        fs::write(out.join("notes.txt"), "mine").unwrap();
        let err = SiteWriter::begin(&out, false).unwrap_err().to_string();
        assert!(err.contains("not built by energyboard"), "{err}");
        assert_eq!(fs::read_to_string(out.join("notes.txt")).unwrap(), "mine");
    }

    #[test]
    fn dropped_build_leaves_target_alone() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("site");
        let w = SiteWriter::begin(&out, false).unwrap();
        w.put("index.html", b"one").unwrap();
        w.commit().unwrap();
        let w = SiteWriter::begin(&out, false).unwrap();
        w.put("index.html", b"two").unwrap();
        drop(w);
        assert_eq!(fs::read(out.join("index.html")).unwrap(), b"one");
        let names: Vec<_> = fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names, vec![std::ffi::OsString::from("site")]);
    }
}
