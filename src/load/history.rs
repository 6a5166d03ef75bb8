//! Superseded model files: `history/<workload>/<slug>/<version>.json` in a
//! data folder (the leaderboard's, or a source's `sources/<id>/`), each the
//! model file as it was in that data version. They are loaded and checked
//! like every model file, apart from the current ones (two versions of one
//! model share its slug), and render the model's permanent version pages.

use std::path::{Component, Path};

use super::{LoadedModel, Problem, problem, read_model_file, sources};
use crate::model::{HISTORY_DIR, SOURCES_DIR};

/// A model file of an earlier data version.
#[derive(Debug, Clone)]
pub struct PastVersion {
    /// The data version whose figures it holds (its file name), e.g.
    /// `2025-12-17`.
    pub version: String,
    pub model: LoadedModel,
}

/// The folders of `path` below `data_dir`, as text.
fn parts(data_dir: &Path, path: &Path) -> Vec<String> {
    let Ok(rel) = path.strip_prefix(data_dir) else {
        return Vec::new();
    };
    rel.components()
        .map(|c| match c {
            Component::Normal(s) => s.to_string_lossy().into_owned(),
            _ => String::new(),
        })
        .collect()
}

/// Whether `path` lies in a history folder: `history/…` or
/// `sources/<id>/history/…` below `data_dir`.
pub(super) fn is_history_file(data_dir: &Path, path: &Path) -> bool {
    let parts = parts(data_dir, path);
    parts.first().is_some_and(|p| p == HISTORY_DIR)
        || (parts.len() > 3 && parts[0] == SOURCES_DIR && parts[2] == HISTORY_DIR)
}

/// Reads, parses and checks one superseded model file: a model file like
/// any other, at `…history/<workload>/<slug>/<YYYY-MM-DD>.json`, whose
/// workload and slug are its folders'. `alone` names the source whose
/// folder is loaded by itself, as for every model file
/// (`sources::check_source`).
pub(super) fn read_past_version(
    data_dir: &Path,
    path: &Path,
    alone: Option<&str>,
) -> Result<PastVersion, Vec<Problem>> {
    let parts = parts(data_dir, path);
    let inside = parts
        .iter()
        .position(|p| p == HISTORY_DIR)
        .map_or(&parts[..0], |i| &parts[i + 1..]);
    let [workload, slug, name] = inside else {
        return Err(vec![problem(
            path,
            "(file)",
            format!(
                "is in {HISTORY_DIR}/ but not at \
                    {HISTORY_DIR}/<workload>/<slug>/<YYYY-MM-DD>.json; energyboard import \
                    writes superseded files there, move it"
            ),
        )]);
    };
    let version = name.strip_suffix(".json").unwrap_or(name);
    if !super::limits::is_iso_date(version) {
        return Err(vec![problem(
            path,
            "(file name)",
            format!(
                "{version:?} is not a data version; a superseded file is named YYYY-MM-DD.json"
            ),
        )]);
    }
    let model = read_model_file(path)?;
    if let Some(p) = sources::check_source(data_dir, path, &model.file, alone) {
        return Err(vec![p]);
    }
    if model.workload != *workload || model.file.slug != *slug {
        return Err(vec![problem(
            path,
            "slug",
            format!(
                "the file is model {:?} of workload {:?}, but its folder says {slug:?} of \
                    {workload:?}",
                model.file.slug, model.workload
            ),
        )]);
    }
    Ok(PastVersion {
        version: version.to_owned(),
        model,
    })
}
