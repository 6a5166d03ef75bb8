//! One writer at a time, a staging folder to write into, and the one path
//! check: what `write` (a site, swapped in whole) and `import` (model files,
//! swapped in one by one under a journal) share.
//!
//! The folder `name` in `parent` has its lock `.name.lock` and its staging
//! folders `.name.tmp-XXXXXX` beside it. The lock is the operating system's
//! (`flock` on Linux), so a killed writer never leaves a stale one; while a
//! run holds it, every staging folder of that name is a leftover of a run
//! that was stopped, which [`Stage::begin`] hands to the caller to clean.
//!
//! Also the one reader of a file the user names or the data holds
//! ([`read_bounded`]): a regular file only, of bounded size, opened so that
//! a pipe never makes it wait.

use std::fs;
use std::path::{Component, Path, PathBuf};

use anyhow::{Context, Result, bail};

/// A held lock on a folder; let go (and its file removed) when dropped.
#[derive(Debug)]
pub struct Lock {
    path: PathBuf,
    // Locked; the kernel lets go when the file is closed (dropped).
    _file: fd_lock::RwLock<fs::File>,
}

impl Lock {
    /// Takes the lock file `path` for `folder`, or says that another
    /// energyboard is writing it (`again`: what to do once it is done,
    /// e.g. "build again").
    pub fn take(path: &Path, folder: &Path, again: &str) -> Result<Self> {
        // A holder that lets go removes the file: a lock taken on the
        // removed file guards nothing, so it is taken again on the new one
        // (a few times; a folder that busy is being written).
        for _ in 0..16 {
            let handle = open_no_follow(path)?;
            let opened = handle.metadata().ok();
            let mut file = fd_lock::RwLock::new(handle);
            match file.try_write() {
                // Held until the file is closed, not until the guard goes.
                Ok(guard) => std::mem::forget(guard),
                Err(err) if err.kind() == std::io::ErrorKind::WouldBlock => break,
                Err(err) => {
                    return Err(err).with_context(|| format!("cannot lock {}", path.display()));
                }
            }
            if opened.is_some_and(|m| same_file(&m, path)) {
                return Ok(Self {
                    path: path.to_path_buf(),
                    _file: file,
                });
            }
        }
        bail!(
            "{}: another energyboard is writing this folder; wait for it to finish and {again}",
            folder.display()
        )
    }
}

impl Drop for Lock {
    fn drop(&mut self) {
        // Removed while still held, so nobody takes the old file after us;
        // the lock goes with the file, closed right after.
        let _ = fs::remove_file(&self.path);
    }
}

/// Opens (or makes) the lock file `path`, never through a symbolic link: a
/// link there, even a dangling one, would make a file wherever it points.
fn open_no_follow(path: &Path) -> Result<fs::File> {
    let mut options = fs::OpenOptions::new();
    options.read(true).write(true).create(true).truncate(false);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::custom_flags(&mut options, libc::O_NOFOLLOW);
    #[cfg(not(unix))]
    if fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink()) {
        bail!(
            "{}: is a symbolic link; a lock file is never followed, remove it",
            path.display()
        );
    }
    options.open(path).map_err(|err| {
        if fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink()) {
            anyhow::anyhow!(
                "{}: is a symbolic link; a lock file is never followed, remove it and try again",
                path.display()
            )
        } else {
            anyhow::Error::new(err).context(format!("cannot create {}", path.display()))
        }
    })
}

/// Whether the file opened (`opened`: its metadata) is still the one at `path`.
#[cfg(unix)]
fn same_file(opened: &fs::Metadata, path: &Path) -> bool {
    use std::os::unix::fs::MetadataExt;
    fs::symlink_metadata(path)
        .is_ok_and(|now| now.dev() == opened.dev() && now.ino() == opened.ino())
}

#[cfg(not(unix))]
fn same_file(_opened: &fs::Metadata, path: &Path) -> bool {
    path.exists()
}

/// A run's lock on a folder and its fresh staging folder beside it. The
/// staging folder is removed when this is dropped, unless [`Stage::keep`]
/// took it.
#[derive(Debug)]
pub struct Stage {
    dir: tempfile::TempDir,
    // Dropped after `dir`: the staging folder goes before the lock.
    _lock: Lock,
}

impl Stage {
    /// Takes the lock of the folder `name` in `parent` and makes a staging
    /// folder beside it; also returns the staging folders that stopped runs
    /// left there (none of them is in use while the lock is held).
    pub fn begin(
        parent: &Path,
        name: &str,
        folder: &Path,
        again: &str,
    ) -> Result<(Self, Vec<PathBuf>)> {
        let lock = Lock::take(&parent.join(lock_name(name)), folder, again)?;
        let leftovers = leftovers(parent, name);
        Ok((Self::within(lock, parent, name)?, leftovers))
    }

    /// Makes a staging folder in `parent` under a `lock` already held (one
    /// lock may guard several folders, as the data folder's guards each
    /// source's).
    pub fn within(lock: Lock, parent: &Path, name: &str) -> Result<Self> {
        let dir = tempfile::Builder::new()
            .prefix(&staging_prefix(name))
            .tempdir_in(parent)
            .with_context(|| format!("cannot create a staging folder in {}", parent.display()))?;
        Ok(Self { dir, _lock: lock })
    }

    pub fn path(&self) -> &Path {
        self.dir.path()
    }

    /// Keeps the staging folder from being removed (it was renamed into
    /// place); the lock is held until this is dropped.
    pub fn keep(&mut self) {
        self.dir.disable_cleanup(true);
    }
}

/// The lock file of the folder `name`, beside it: `.name.lock`.
pub fn lock_name(name: &str) -> String {
    format!(".{name}.lock")
}

/// How the staging folders of the folder `name` begin: `.name.tmp-`.
pub fn staging_prefix(name: &str) -> String {
    format!(".{name}.tmp-")
}

/// The staging folders of `name` that stopped runs left in `parent`
/// (folders, not links), in name order; call it holding the lock.
pub fn leftovers(parent: &Path, name: &str) -> Vec<PathBuf> {
    let prefix = staging_prefix(name);
    let mut leftovers: Vec<PathBuf> = fs::read_dir(parent)
        .into_iter()
        .flatten()
        .filter_map(Result::ok)
        .filter(|e| {
            e.file_name()
                .to_str()
                .is_some_and(|n| n.starts_with(&prefix))
        })
        .map(|e| e.path())
        .filter(|p| fs::symlink_metadata(p).is_ok_and(|m| m.is_dir()))
        .collect();
    leftovers.sort();
    leftovers
}

/// Why [`read_bounded`] did not read a file.
#[derive(Debug)]
pub enum Unread {
    /// Nothing is at the path.
    Missing,
    /// A folder, device, pipe or socket: something that may be endless or
    /// never answer.
    NotRegular,
    /// Larger than the limit (its size, as far as it was read).
    TooLarge(u64),
    /// The operating system's error.
    Io(std::io::Error),
}

impl std::fmt::Display for Unread {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Missing => write!(f, "does not exist"),
            Self::NotRegular => {
                write!(
                    f,
                    "is not a regular file (a folder, device, pipe or socket?)"
                )
            }
            Self::TooLarge(size) => write!(f, "is {:.1} MB, too large", *size as f64 / 1e6),
            Self::Io(err) => write!(f, "cannot read: {err}"),
        }
    }
}

/// The one reader of a file the program is handed (`--config`,
/// `--editorial`, `--from`'s members, data files): a regular file of at
/// most `max` bytes, or why not. The file is opened without waiting (a pipe
/// has no writer to wait for) and checked through the open handle, so it
/// cannot be swapped for a device between the check and the read; symbolic
/// links are followed (to a regular file).
pub fn read_bounded(path: &Path, max: u64) -> Result<Vec<u8>, Unread> {
    use std::io::Read;
    let mut options = fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::custom_flags(&mut options, libc::O_NONBLOCK);
    let file = options.open(path).map_err(|err| match err.kind() {
        std::io::ErrorKind::NotFound => Unread::Missing,
        _ => Unread::Io(err),
    })?;
    let meta = file.metadata().map_err(Unread::Io)?;
    if !meta.is_file() {
        return Err(Unread::NotRegular);
    }
    if meta.len() > max {
        return Err(Unread::TooLarge(meta.len()));
    }
    // At most one byte past the limit, in case the file grew since.
    let mut raw = Vec::with_capacity(meta.len() as usize);
    file.take(max + 1)
        .read_to_end(&mut raw)
        .map_err(Unread::Io)?;
    if raw.len() as u64 > max {
        return Err(Unread::TooLarge(raw.len() as u64));
    }
    Ok(raw)
}

/// The one path check: `rel`, a `/`-separated path, as a path that stays
/// inside the folder it is joined to (no absolute path, no `.` or `..`, no
/// empty segment, no backslash or NUL). `None` otherwise.
pub fn relative_path(rel: &str) -> Option<PathBuf> {
    let plain = !rel.is_empty()
        && rel
            .split('/')
            .all(|seg| !seg.is_empty() && seg != "." && seg != ".." && !seg.contains(['\\', '\0']));
    let path = Path::new(rel);
    (plain && path.components().all(|c| matches!(c, Component::Normal(_))))
        .then(|| path.to_path_buf())
}

/// Copies the file or folder `from` to `to`, regular files and folders
/// only: a symbolic link or special file is not followed or copied.
pub fn copy_tree(from: &Path, to: &Path) -> Result<()> {
    for entry in walkdir::WalkDir::new(from).sort_by_file_name() {
        let entry = entry.with_context(|| format!("cannot read {}", from.display()))?;
        let rel = entry.path().strip_prefix(from).unwrap_or(Path::new(""));
        let dest = if rel.as_os_str().is_empty() {
            to.to_path_buf()
        } else {
            to.join(rel)
        };
        if entry.file_type().is_dir() {
            fs::create_dir_all(&dest)
                .with_context(|| format!("cannot create {}", dest.display()))?;
        } else if entry.file_type().is_file() {
            fs::copy(entry.path(), &dest)
                .with_context(|| format!("cannot copy {}", entry.path().display()))?;
        }
    }
    Ok(())
}
