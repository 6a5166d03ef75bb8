//! Loading: finds every model file under the data folder, parses it into
//! typed structs and validates it. This is the only stage that reads input
//! files. Every problem names the file and the field; one run reports every
//! bad file, not only the first.
//!
//! One file, followed: [`load_data_dir`] asks `discover` for the files
//! under the folder, then for each file (in parallel) [`read_model_file`]
//! reads its bytes (`discover::read_capped`), parses them (`parse`: bytes to
//! typed structs, every error located by file, JSON path, line and column)
//! and validates them (`validate`, whatever the kind, with `limits`, and
//! `best` for the file's stated best configurations); last,
//! `validate::check_across_files` checks what no single file can.

use std::collections::BTreeSet;
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use rayon::prelude::*;

use crate::model::{ModelFile, Source, WorkloadRef};

mod best;
mod changes;
mod discover;
mod history;
mod parse;
mod sources;
mod validate;

pub mod limits;

pub use changes::{LoadedChanges, read_changes_file, validate_history};
pub use discover::{MAX_FILE_BYTES, content_digest, load_static_dir};
pub use history::PastVersion;
pub use parse::parse_model;
pub use sources::is_valid_source_id;
pub(crate) use validate::check_distribution;
pub use validate::{
    MAX_WORKLOAD_ID, RESERVED_SLUGS, is_valid_slug, is_valid_workload_id, is_web_url,
    validate_model,
};

/// One validated model file, of any kind, and where it came from.
#[derive(Debug, Clone)]
pub struct LoadedModel {
    /// The path the file was read from, as found under the data folder.
    pub path: PathBuf,
    /// The file's size in bytes when it was validated; the file itself is
    /// published unchanged on the downloads page (copied, not kept in memory).
    pub len: u64,
    /// [`content_digest`] of the bytes that were validated: the writer
    /// publishes the file only if it still has them.
    pub digest: u64,
    /// The parsed, validated contents, less `best`: the publisher's best
    /// rows are checked on loading and then dropped ([`read_model_file`]).
    pub file: ModelFile,
    /// The workload's id ([`ModelFile::workload_ref`]), a valid path segment.
    pub workload: String,
    /// The workload's display name as the file gives it.
    pub workload_name: String,
}

/// A second source's change history (`sources/<id>/changes.json`).
#[derive(Debug, Clone)]
pub struct SourceChanges {
    /// The source's id, the folder the history is in.
    pub source: String,
    pub changes: LoadedChanges,
}

/// Everything found in the data folder.
#[derive(Debug, Clone, Default)]
pub struct DataSet {
    /// Valid model files of every kind, ordered by slug, then workload id.
    pub models: Vec<LoadedModel>,
    /// Files that are not model files (not `*.json`) and were skipped.
    pub skipped: Vec<PathBuf>,
    /// The change history (`changes.json` at the top of the data folder,
    /// [`crate::changes::FILE_NAME`]), when there is one, with where it was
    /// read from so that it is published unchanged.
    pub changes: Option<LoadedChanges>,
    /// The other sources' change histories (`sources/<id>/changes.json`),
    /// each with its source's id, in id order.
    pub source_changes: Vec<SourceChanges>,
    /// The superseded model files (`history/`, and each source's), ordered
    /// by workload, slug and version.
    pub history: Vec<PastVersion>,
}

/// One problem with one file: which file, which field, what is wrong.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    /// The file (or folder) at fault.
    pub path: PathBuf,
    /// The JSON path of the field, e.g. `configurations[3].median_itl_ms`,
    /// or `(file)` for a problem with the whole file.
    pub field: String,
    pub message: String,
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}: {}: {}",
            shown(&self.path.display().to_string()),
            self.field,
            self.message
        )
    }
}

/// How many problems an error lists; the rest are counted. Fixing the
/// first fifty usually shows what is wrong with the others.
pub const MAX_PROBLEMS_SHOWN: usize = 50;

/// Every problem found in one run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problems(pub Vec<Problem>);

impl fmt::Display for Problems {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // "1 problem", "3 files".
        let counted = |n: usize, what: &str| format!("{n} {what}{}", if n == 1 { "" } else { "s" });
        let files: BTreeSet<&Path> = self.0.iter().map(|p| p.path.as_path()).collect();
        writeln!(
            f,
            "{} in {}:",
            counted(self.0.len(), "problem"),
            counted(files.len(), "file")
        )?;
        for (i, p) in self.0.iter().take(MAX_PROBLEMS_SHOWN).enumerate() {
            if i > 0 {
                writeln!(f)?;
            }
            write!(f, "  {p}")?;
        }
        if self.0.len() > MAX_PROBLEMS_SHOWN {
            let rest = &self.0[MAX_PROBLEMS_SHOWN..];
            let more_files: BTreeSet<&Path> = rest.iter().map(|p| p.path.as_path()).collect();
            write!(
                f,
                "\n  … and {} in {} not listed",
                counted(rest.len(), "more problem"),
                counted(more_files.len(), "file")
            )?;
        }
        Ok(())
    }
}

impl std::error::Error for Problems {}

/// Where a check reports each problem it finds: (field, message).
type Bad<'a> = dyn FnMut(String, String) + 'a;

fn problem(path: &Path, field: impl Into<String>, message: impl Into<String>) -> Problem {
    Problem {
        path: path.to_path_buf(),
        field: field.into(),
        message: message.into(),
    }
}

/// A name from the data as it goes into a message: as is, or quoted with
/// escapes when it holds control characters that would reach the terminal.
fn shown(name: &str) -> std::borrow::Cow<'_, str> {
    if name.chars().any(char::is_control) {
        format!("{name:?}").into()
    } else {
        name.into()
    }
}

/// Loads and validates every model file under `data_dir` (found as
/// `discover::find_files` walks), and the change history beside them.
pub fn load_data_dir(data_dir: &Path) -> Result<DataSet, Problems> {
    load_folder(data_dir, None)
}

/// Loads one source's folder alone (`<data>/sources/<id>`, or its import's
/// staged copy): every file in it must say `source.id` `id`.
pub fn load_source_dir(dir: &Path, id: &str) -> Result<DataSet, Problems> {
    load_folder(dir, Some(id))
}

/// Loads a data folder, or with `alone` one source's folder by itself.
fn load_folder(data_dir: &Path, alone: Option<&str>) -> Result<DataSet, Problems> {
    // 1. Find the files.
    let found = discover::find_files(data_dir).map_err(|p| Problems(vec![p]))?;
    let mut problems = found.problems;
    let changes = found.changes.as_deref().map(read_changes_file).transpose();
    let changes = changes.unwrap_or_else(|mut file_problems| {
        problems.append(&mut file_problems);
        None
    });
    let source_changes = read_source_changes(&found.source_changes, &mut problems);

    // 2. Read, parse and validate each file on every core, keeping walk order.
    let sources = Mutex::new(Vec::new());
    let results: Vec<Result<LoadedModel, Vec<Problem>>> = found
        .models
        .par_iter()
        .map(|path| {
            let mut model = read_model_file(path)?;
            if let Some(p) = sources::check_source(data_dir, path, &model.file, alone) {
                return Err(vec![p]);
            }
            if let Ok(mut seen) = sources.lock() {
                share_source(&mut model.file.source, &mut seen);
            }
            Ok(model)
        })
        .collect();
    let mut models = keep_loaded(results, &mut problems);

    // The superseded files, checked one by one: they share their slugs
    // with the current files, so the checks across files leave them out.
    let past: Vec<Result<PastVersion, Vec<Problem>>> = found
        .history
        .par_iter()
        .map(|path| history::read_past_version(data_dir, path, alone))
        .collect();
    let mut history = keep_loaded(past, &mut problems);
    history.sort_by(|a, b| {
        (&a.model.workload, &a.model.file.slug, &a.version).cmp(&(
            &b.model.workload,
            &b.model.file.slug,
            &b.version,
        ))
    });

    // 3. Check what no single file can: unique slugs, one kind and one
    // deadline per workload, one spelling per GPU.
    validate::check_across_files(&models, &mut problems);

    if models.is_empty() && problems.is_empty() {
        problems.push(problem(
            data_dir,
            "(folder)",
            "holds no model files (*.json); add at least one",
        ));
    }
    if !problems.is_empty() {
        return Err(Problems(problems));
    }
    models.sort_by(|a, b| (&a.file.slug, a.workload.as_str()).cmp(&(&b.file.slug, &b.workload)));
    Ok(DataSet {
        models,
        skipped: found.skipped,
        changes,
        source_changes,
        history,
    })
}

/// What loaded, in order; the problems of what did not go to `problems`.
fn keep_loaded<T>(results: Vec<Result<T, Vec<Problem>>>, problems: &mut Vec<Problem>) -> Vec<T> {
    let mut loaded = Vec::new();
    for result in results {
        match result {
            Ok(item) => loaded.push(item),
            Err(mut file_problems) => problems.append(&mut file_problems),
        }
    }
    loaded
}

/// Each second source's change history (`sources/<id>/changes.json`, the
/// folder naming the source), ordered by source.
fn read_source_changes(paths: &[PathBuf], problems: &mut Vec<Problem>) -> Vec<SourceChanges> {
    let mut source_changes = Vec::new();
    for path in paths {
        match read_changes_file(path) {
            Ok(loaded) => {
                let id = path
                    .parent()
                    .and_then(Path::file_name)
                    .map(|n| n.to_string_lossy().into_owned())
                    .unwrap_or_default();
                if sources::is_valid_source_id(&id) {
                    source_changes.push(SourceChanges {
                        source: id,
                        changes: loaded,
                    });
                } else {
                    let message = format!(
                        "is under sources/{id}/, but {}",
                        sources::not_a_source_id(&id)
                    );
                    problems.push(problem(path, "(file)", message));
                }
            }
            Err(mut file_problems) => problems.append(&mut file_problems),
        }
    }
    source_changes.sort_by(|a, b| a.source.cmp(&b.source));
    source_changes
}

/// Reads, parses and validates one model file of any kind.
pub fn read_model_file(path: &Path) -> Result<LoadedModel, Vec<Problem>> {
    let raw = discover::read_capped(path, "a model file").map_err(|p| vec![p])?;
    let mut file = parse::parse_model(path, &raw).map_err(|p| vec![p])?;
    let problems = validate::validate_model(path, &file);
    if !problems.is_empty() {
        return Err(problems);
    }
    // A site holds every model for the whole build: the publisher's best
    // rows are checked against ours and not read again (pages show the
    // analysis' own, and the published file is copied as it is), and
    // parsing grew the rows by doubling.
    file.best.clear();
    file.configurations.shrink_to_fit();
    let WorkloadRef {
        id: workload,
        name: workload_name,
    } = file.workload_ref().unwrap_or_default();
    let (len, digest) = (raw.len() as u64, content_digest(&raw));
    Ok(LoadedModel {
        path: path.to_path_buf(),
        len,
        digest,
        file,
        workload,
        workload_name,
    })
}

/// Lets a model share the `source` block of an earlier model when the two
/// are equal, as they are in every file from one publisher: at 10,000 models
/// the copies alone would take tens of megabytes.
fn share_source(source: &mut Arc<Source>, seen: &mut Vec<Arc<Source>>) {
    if let Some(same) = seen.iter().find(|s| **s == *source) {
        *source = Arc::clone(same);
    } else if seen.len() < 64 {
        seen.push(Arc::clone(source));
    }
}

/// One static asset (CSS, JS, icon) copied into the site unchanged.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Asset {
    /// `/`-separated path inside the static folder, e.g. `style.css`.
    pub rel: String,
    pub bytes: Vec<u8>,
}
