//! Which source a model file belongs to: the leaderboard's files sit
//! anywhere in the data folder except `sources/`, another source's under
//! `sources/<id>/` (a data folder of its own: `<workload>/<slug>.json` and
//! its `changes.json`), and each file's `source.id` says the same.

use std::path::{Component, Path};

use super::{Problem, problem};
use crate::model::{LEADERBOARD_KEY, ModelFile};

/// The id of the source whose folder holds `path` (`sources/<id>/…` below
/// `data_dir`, at least one folder deeper), or `None` for the leaderboard.
pub(super) fn source_folder(data_dir: &Path, path: &Path) -> Option<String> {
    let rel = path.strip_prefix(data_dir).ok()?;
    let parts: Vec<&str> = rel
        .components()
        .map(|c| match c {
            Component::Normal(s) => s.to_str().unwrap_or(""),
            _ => "",
        })
        .collect();
    (parts.len() >= 3 && parts[0] == crate::model::SOURCES_DIR).then(|| parts[1].to_owned())
}

/// Whether `path` is a source's change history, `sources/<id>/changes.json`.
pub(super) fn is_source_history(data_dir: &Path, path: &Path) -> bool {
    path.strip_prefix(data_dir).is_ok_and(|rel| {
        rel.components().count() == 3 && rel.starts_with(crate::model::SOURCES_DIR)
    }) && path
        .file_name()
        .is_some_and(|n| n == crate::changes::FILE_NAME)
}

/// A file under `sources/<id>/` (or in a source's folder loaded `alone`)
/// must say `source.id` `<id>`, and its slug starts `<id>--`; a file
/// elsewhere is the leaderboard's, so it may name no source and its slug no
/// source prefix (no `--`): a source's attribution is its folder.
pub(super) fn check_source(
    data_dir: &Path,
    path: &Path,
    file: &ModelFile,
    alone: Option<&str>,
) -> Option<Problem> {
    let source = &file.source;
    let folder = source_folder(data_dir, path).or_else(|| alone.map(str::to_owned));
    if let Some(id) = source.id.as_deref().filter(|id| !is_valid_source_id(id)) {
        return Some(problem(path, "source.id", not_a_source_id(id)));
    }
    if folder.is_none() && file.slug.contains("--") {
        return Some(problem(
            path,
            "slug",
            format!(
                "{:?} has a source's prefix (<id>--); only a file under sources/<id>/ may have \
                    one, and a leaderboard slug has no \"--\"",
                file.slug
            ),
        ));
    }
    if folder == source.id {
        return None;
    }
    let message = match (&folder, &source.id) {
        (Some(want), None) => format!(
            "is missing: a file under sources/{want}/ belongs to the source {want:?}; add \
                \"id\": {want:?} (energyboard import --source {want} writes it)"
        ),
        (Some(want), Some(id)) => {
            format!("is {id:?}, but the file is under sources/{want}/; the two must agree")
        }
        (None, Some(id)) => format!(
            "is {id:?}, but the file is not under sources/{id}/; a source's files live in its \
                own folder, so a leaderboard file names no source"
        ),
        (None, None) => return None,
    };
    Some(problem(path, "source.id", message))
}

/// Whether `id` can name a source: a slug without a double hyphen (which
/// separates it from the model's own slug in `<id>--<slug>`), at most 32
/// characters, not `leaderboard`.
pub fn is_valid_source_id(id: &str) -> bool {
    super::is_valid_slug(id)
        && id.len() <= 32
        && !id.contains("--")
        && !id.ends_with('-')
        && id != LEADERBOARD_KEY
}

/// Why `id` cannot name a source, for a message.
pub(super) fn not_a_source_id(id: &str) -> String {
    format!(
        "{id:?} cannot be a source id; use lower-case letters, digits and single hyphens, at \
            most 32 characters, not {LEADERBOARD_KEY:?}"
    )
}
