//! Reading the change history, `data/changes.json` ([`crate::changes`]):
//! parsed with located errors like a model file, then held to the same
//! limits (no control characters, bounded texts, real dates, path-safe ids,
//! finite figures within range), so that every page, the feed and the
//! download can show it as it is.

use std::path::{Path, PathBuf};

use super::discover::read_capped;
use super::limits::{
    MAX_GPU_CHARS, MAX_NAME_CHARS, MAX_ROW_ID_CHARS, MAX_SLUG_CHARS, MAX_URL_CHARS, check_text,
    is_iso_date, not_a_date, number, shorten,
};
use super::parse::{Format, parse_as};
use super::{Bad, MAX_WORKLOAD_ID, Problem, content_digest, is_valid_slug, problem};
use crate::changes::{BestChange, ChangeEntry, ChangeHistory};

/// Largest figure a history may record, in its own unit: the largest any
/// model file accepts (10¹² J per image or video).
pub const MAX_FIGURE: f64 = super::limits::MAX_JOULES_PER_ITEM;

/// The change history as read, and the file it came from (published
/// byte for byte at `data/changes.json`).
#[derive(Debug, Clone)]
pub struct LoadedChanges {
    pub path: PathBuf,
    /// Its size in bytes when validated.
    pub len: u64,
    /// [`content_digest`] of the validated bytes.
    pub digest: u64,
    pub history: ChangeHistory,
}

pub fn read_changes_file(path: &Path) -> Result<LoadedChanges, Vec<Problem>> {
    let raw = read_capped(path, "the change history").map_err(|p| vec![p])?;
    let history: ChangeHistory =
        parse_as(path, &raw, Format::ChangeHistory).map_err(|p| vec![p])?;
    let problems = validate_history(path, &history);
    if !problems.is_empty() {
        return Err(problems);
    }
    Ok(LoadedChanges {
        path: path.to_path_buf(),
        len: raw.len() as u64,
        digest: content_digest(&raw),
        history,
    })
}

/// Every problem with a parsed history, each naming its field.
pub fn validate_history(path: &Path, h: &ChangeHistory) -> Vec<Problem> {
    let mut problems = Vec::new();
    let mut bad = |field: String, message: String| problems.push(problem(path, field, message));
    if h.version != "1" {
        bad(
            "version".into(),
            format!(
                "{:?} is not a format version energyboard reads; expected \"1\"",
                shorten(&h.version)
            ),
        );
    }
    let mut previous: Option<&str> = None;
    for (i, e) in h.entries.iter().enumerate() {
        let at = format!("entries[{i}]");
        check_entry(&mut bad, &at, e);
        if let Some(before) = previous
            && is_iso_date(before)
            && is_iso_date(&e.imported)
            && e.imported.as_str() < before
        {
            bad(
                format!("{at}.imported"),
                format!(
                    "{} is before the previous entry's {before}; entries are kept oldest first",
                    e.imported
                ),
            );
        }
        previous = Some(&e.imported);
    }
    problems
}

fn check_entry(bad: &mut Bad<'_>, at: &str, e: &ChangeEntry) {
    let mut date = |field: &str, value: &str| {
        let field = format!("{at}.{field}");
        check_text(bad, &field, value, MAX_NAME_CHARS);
        if !is_iso_date(value) && !value.chars().any(char::is_control) {
            bad(field, not_a_date(value, "2026-02-16"));
        }
    };
    date("upstream_version", &e.upstream_version);
    if let Some(v) = &e.previous_upstream_version {
        date("previous_upstream_version", v);
    }
    date("imported", &e.imported);
    check_text(bad, &format!("{at}.source"), &e.source, MAX_URL_CHARS);
    for (list, ids) in [
        ("workloads_added", &e.workloads_added),
        ("workloads_removed", &e.workloads_removed),
    ] {
        for (j, id) in ids.iter().enumerate() {
            check_id(
                bad,
                &format!("{at}.{list}[{j}]"),
                id,
                "workload id",
                MAX_WORKLOAD_ID,
            );
        }
    }
    for (list, models) in [
        ("models_added", &e.models_added),
        ("models_removed", &e.models_removed),
    ] {
        for (j, m) in models.iter().enumerate() {
            let field = format!("{at}.{list}[{j}]");
            check_ref(bad, &field, &m.workload, &m.slug);
            check_filled(bad, &format!("{field}.name"), &m.name, MAX_NAME_CHARS);
        }
    }
    for (list, rows) in [
        ("configurations_added", &e.configurations_added),
        ("configurations_removed", &e.configurations_removed),
    ] {
        for (j, c) in rows.iter().enumerate() {
            let field = format!("{at}.{list}[{j}]");
            check_ref(bad, &field, &c.workload, &c.slug);
            check_filled(bad, &format!("{field}.row_id"), &c.row_id, MAX_ROW_ID_CHARS);
        }
    }
    for (j, c) in e.configurations_changed.iter().enumerate() {
        let field = format!("{at}.configurations_changed[{j}]");
        check_ref(bad, &field, &c.workload, &c.slug);
        check_filled(bad, &format!("{field}.row_id"), &c.row_id, MAX_ROW_ID_CHARS);
        for (k, name) in c.fields.iter().enumerate() {
            check_text(bad, &format!("{field}.fields[{k}]"), name, MAX_NAME_CHARS);
        }
    }
    for (j, b) in e.best_changed.iter().enumerate() {
        check_best(bad, &format!("{at}.best_changed[{j}]"), b);
    }
}

fn check_best(bad: &mut Bad<'_>, field: &str, b: &BestChange) {
    check_ref(bad, field, &b.workload, &b.slug);
    check_filled(bad, &format!("{field}.gpu"), &b.gpu, MAX_GPU_CHARS);
    if b.figure.is_empty()
        || b.figure.len() > MAX_WORKLOAD_ID
        || !b
            .figure
            .bytes()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == b'_')
    {
        bad(
            format!("{field}.figure"),
            format!(
                "{:?} is not a column key (lower-case letters, digits and _, at most \
                    {MAX_WORKLOAD_ID} characters), e.g. wh_per_million_output_tokens",
                shorten(&b.figure)
            ),
        );
    }
    check_filled(bad, &format!("{field}.unit"), &b.unit, MAX_GPU_CHARS);
    for (name, value) in [("old", b.old), ("new", b.new)] {
        if let Some(v) = value.filter(|v| !(0.0..=MAX_FIGURE).contains(v)) {
            bad(
                format!("{field}.{name}"),
                format!(
                    "{} is out of range; a best figure is at least 0 and at most {}",
                    number(v),
                    number(MAX_FIGURE)
                ),
            );
        }
    }
    if b.old.is_none() && b.new.is_none() {
        bad(
            format!("{field}.new"),
            "old and new are both null; a change has a value before or after it".into(),
        );
    }
    for (name, row) in [("old_row_id", &b.old_row_id), ("new_row_id", &b.new_row_id)] {
        if let Some(row) = row {
            check_filled(bad, &format!("{field}.{name}"), row, MAX_ROW_ID_CHARS);
        }
    }
}

/// The workload id and model slug at `{field}.workload` and `{field}.slug`.
fn check_ref(bad: &mut Bad<'_>, field: &str, workload: &str, slug: &str) {
    check_id(
        bad,
        &format!("{field}.workload"),
        workload,
        "workload id",
        MAX_WORKLOAD_ID,
    );
    check_id(
        bad,
        &format!("{field}.slug"),
        slug,
        "model slug",
        MAX_SLUG_CHARS,
    );
}

/// Reports `id` unless it is a slug of at most `max` characters.
fn check_id(bad: &mut Bad<'_>, field: &str, id: &str, what: &str, max: usize) {
    if !is_valid_slug(id) || id.len() > max {
        bad(
            field.to_owned(),
            format!(
                "{:?} is not a {what} (^[a-z0-9][a-z0-9-]*$, at most {max} characters)",
                shorten(id)
            ),
        );
    }
}

/// A text that may not be blank, checked as [`check_text`] does.
fn check_filled(bad: &mut Bad<'_>, field: &str, text: &str, max: usize) {
    check_text(bad, field, text, max);
    if text.trim().is_empty() {
        bad(field.to_owned(), "must not be empty".into());
    }
}
