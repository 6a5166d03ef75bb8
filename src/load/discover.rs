//! Finding the input files: the walk of the data folder (in file-name
//! order, hidden files left out, symbolic links followed), reading one
//! file's bytes under the size cap, and the static folder's assets.
//! Nothing here parses JSON.

use std::path::{Path, PathBuf};

use walkdir::WalkDir;

use super::{Asset, Problem, problem};
use crate::stage::Unread;

/// Largest model file accepted, in bytes. The seed files are about 25 kB.
pub const MAX_FILE_BYTES: u64 = 16 * 1024 * 1024;

/// What the walk of the data folder found.
#[derive(Debug, Default)]
pub(super) struct Found {
    /// The model files (`*.json`), in walk order.
    pub models: Vec<PathBuf>,
    /// The change history, `changes.json` at the top of the folder.
    pub changes: Option<PathBuf>,
    /// The other sources' change histories, `sources/<id>/changes.json`.
    pub source_changes: Vec<PathBuf>,
    /// Superseded model files, under a `history/` folder.
    pub history: Vec<PathBuf>,
    /// Files that are not `*.json`, skipped.
    pub skipped: Vec<PathBuf>,
    /// Entries that cannot be read or cannot be model files.
    pub problems: Vec<Problem>,
}

/// Walks `data_dir` recursively in file-name order, following symbolic
/// links (a loop is a problem). Hidden files and folders are ignored; other
/// files that do not end in `.json` are [`Found::skipped`]. Fails only when
/// `data_dir` itself is not a readable folder.
pub(super) fn find_files(data_dir: &Path) -> Result<Found, Problem> {
    let meta = std::fs::metadata(data_dir).map_err(|err| {
        problem(
            data_dir,
            "(folder)",
            format!("cannot read the data folder: {err}"),
        )
    })?;
    if !meta.is_dir() {
        return Err(problem(
            data_dir,
            "(folder)",
            "is not a folder; pass the folder that holds the model files with --data",
        ));
    }

    let mut found = Found::default();
    let walker = WalkDir::new(data_dir)
        .follow_links(true)
        .sort_by_file_name()
        .into_iter()
        .filter_entry(|e| e.depth() == 0 || !is_hidden(e.file_name()));
    for entry in walker {
        let entry = match entry {
            Ok(entry) => entry,
            Err(err) => {
                let path = err.path().unwrap_or(data_dir).to_path_buf();
                let message = if err.loop_ancestor().is_some() {
                    "symbolic link loop: this link points back to a folder that contains it"
                        .to_owned()
                } else if let Some(io) = err.io_error() {
                    format!("cannot read: {io}")
                } else {
                    format!("cannot read: {err}")
                };
                found.problems.push(problem(&path, "(file)", message));
                continue;
            }
        };
        if entry.depth() == 0 {
            continue;
        }
        let path = entry.path();
        let is_json = path
            .extension()
            .is_some_and(|ext| ext.eq_ignore_ascii_case("json"));
        if entry.file_type().is_dir() {
            if is_json {
                found.problems.push(problem(
                    path,
                    "(file)",
                    "is a folder, not a model file; rename it so it does not end in .json",
                ));
            }
            continue;
        }
        if !is_json {
            found.skipped.push(path.to_path_buf());
            continue;
        }
        if !entry.file_type().is_file() {
            found.problems.push(not_a_plain_file(path, "a model file"));
            continue;
        }
        if entry.depth() == 1 && entry.file_name() == crate::changes::FILE_NAME {
            found.changes = Some(path.to_path_buf());
            continue;
        }
        if super::history::is_history_file(data_dir, path) {
            found.history.push(path.to_path_buf());
            continue;
        }
        if super::sources::is_source_history(data_dir, path) {
            found.source_changes.push(path.to_path_buf());
            continue;
        }
        found.models.push(path.to_path_buf());
    }
    Ok(found)
}

fn is_hidden(name: &std::ffi::OsStr) -> bool {
    name.to_str().is_some_and(|n| n.starts_with('.'))
}

fn not_a_plain_file(path: &Path, what: &str) -> Problem {
    problem(
        path,
        "(file)",
        format!("is not a regular file (a device, pipe or socket?); {what} must be a plain file"),
    )
}

/// Reads the bytes of the file at `path`, refusing anything but a plain file
/// of at most [`MAX_FILE_BYTES`]. `what` names the file in messages ("a
/// model file", "the change history").
pub(super) fn read_capped(path: &Path, what: &str) -> Result<Vec<u8>, Problem> {
    let cannot_read = |err: std::io::Error| problem(path, "(file)", format!("cannot read: {err}"));
    let too_big = |size: u64| {
        problem(
            path,
            "(file)",
            format!(
                "is {:.1} MB; {what} may be at most {} MB",
                size as f64 / 1e6,
                MAX_FILE_BYTES / 1024 / 1024
            ),
        )
    };
    crate::stage::read_bounded(path, MAX_FILE_BYTES).map_err(|unread| match unread {
        Unread::NotRegular => not_a_plain_file(path, what),
        Unread::TooLarge(size) => too_big(size),
        Unread::Missing => cannot_read(std::io::ErrorKind::NotFound.into()),
        Unread::Io(err) => cannot_read(err),
    })
}

/// The one digest of a file's bytes (FNV-1a, 64 bits): whether a file is
/// still the one validated, and in the import's manifest whether it was
/// edited by hand. Stable across Rust releases, unlike `std`'s hasher; any
/// edit, truncation or replacement changes it (a crafted collision the user
/// could only aim at their own data).
pub fn content_digest(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h: u64, b| {
        (h ^ u64::from(*b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// Reads every non-hidden file under the static folder, in name order.
pub fn load_static_dir(static_dir: &Path) -> anyhow::Result<Vec<Asset>> {
    use anyhow::Context;
    let mut assets = Vec::new();
    let walker = WalkDir::new(static_dir)
        .sort_by_file_name()
        .into_iter()
        .filter_entry(|e| e.depth() == 0 || !is_hidden(e.file_name()));
    for entry in walker {
        let entry = entry
            .with_context(|| format!("{}: cannot read the static folder", static_dir.display()))?;
        if !entry.file_type().is_file() {
            continue;
        }
        let rel = entry
            .path()
            .strip_prefix(static_dir)
            .context("static file outside the static folder")?
            .components()
            .map(|c| c.as_os_str().to_string_lossy().into_owned())
            .collect::<Vec<_>>()
            .join("/");
        let bytes = std::fs::read(entry.path())
            .with_context(|| format!("{}: cannot read", entry.path().display()))?;
        assets.push(Asset { rel, bytes });
    }
    Ok(assets)
}
