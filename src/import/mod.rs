//! `energyboard import`: turns the ML.ENERGY Leaderboard's published data
//! (`public/data` of github.com/ml-energy/leaderboard: `index.json`,
//! `tasks/<task>.json`, `models/<model>__<task>.json`) into model files
//! under `data/<workload>/<slug>.json`, and records what changed in
//! `data/changes.json`.
//!
//! Stages: [`upstream`] reads the published folder (or downloads the
//! repository archive), [`convert`] maps task rows to documents (a port of
//! `tests/fixtures/convert_upstream.py`), [`changelog`] compares the data
//! before and after, and this module stages the result, validates it with
//! the normal loader and swaps it in.
//!
//! Safety: the import writes only files it owns, listed with their digests
//! in the ownership manifest `data/.energyboard-import.json`; a file in the
//! way that it did not write, or one of its own that was edited since,
//! stops it with an error before anything is written; a failed import
//! leaves `data/` as it was.

pub mod changelog;
pub mod convert;
pub mod editorial;
pub mod upstream;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::changes::{self, ChangeEntry, ChangeHistory};
use convert::{Converted, ImportDates};
use editorial::Editorial;
use upstream::Upstream;

/// The ownership manifest, hidden at the top of the data folder.
pub const MANIFEST: &str = ".energyboard-import.json";

/// What an import reads and where it writes.
#[derive(Debug, Clone)]
pub struct ImportOptions {
    /// A folder holding upstream's `public/data`, or an https URL of the
    /// repository's `.tar.gz` archive.
    pub from: String,
    /// The data folder written into.
    pub data_dir: PathBuf,
    /// The editorial settings file.
    pub editorial: PathBuf,
    /// `source.retrieved` (default: today, the only use of the clock).
    pub retrieved: Option<String>,
    /// `updated` (default: the retrieved date).
    pub updated: Option<String>,
    /// `data_version` (default: the retrieved date).
    pub data_version: Option<String>,
    /// Date of upstream's last commit to its task files, when known; only
    /// picks the wording of `source.compiled_evidence`.
    pub tasks_committed: Option<String>,
}

/// What an import did.
#[derive(Debug, Clone, Default)]
pub struct ImportReport {
    /// The upstream data version imported (`index.json` `last_updated`).
    pub upstream_version: String,
    /// Files added, relative to the data folder.
    pub added: Vec<String>,
    /// Files whose bytes changed.
    pub changed: Vec<String>,
    /// Files removed (the import's own, no longer published upstream).
    pub removed: Vec<String>,
    /// Model files written in all (unchanged ones kept as they were).
    pub models: usize,
    /// Warnings of the conversion, each naming the upstream file.
    pub warnings: Vec<String>,
    /// The entry appended to `changes.json`, when anything changed.
    pub entry: Option<ChangeEntry>,
}

impl ImportReport {
    /// Whether the import changed nothing (and wrote nothing).
    pub fn is_unchanged(&self) -> bool {
        self.added.is_empty() && self.changed.is_empty() && self.removed.is_empty()
    }

    /// The change-log entry as Markdown (a pull-request body), or a line
    /// saying nothing changed.
    pub fn summary_markdown(&self) -> String {
        match &self.entry {
            Some(e) => changelog::markdown(e),
            None if self.is_unchanged() => format!(
                "## ML.ENERGY Leaderboard data {}\n\nNothing changed.\n",
                self.upstream_version
            ),
            None => format!(
                "## ML.ENERGY Leaderboard data {}\n\nNo figure changed; {} file(s) rewritten (texts or dates).\n",
                self.upstream_version,
                self.added.len() + self.changed.len() + self.removed.len()
            ),
        }
    }
}

impl std::fmt::Display for ImportReport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.is_unchanged() {
            return write!(
                f,
                "nothing changed: data {} is already imported ({} model files); nothing written",
                self.upstream_version, self.models
            );
        }
        writeln!(
            f,
            "imported data {}: {} model files; {} added, {} changed, {} removed",
            self.upstream_version,
            self.models,
            self.added.len(),
            self.changed.len(),
            self.removed.len()
        )?;
        for (word, list) in [
            ("added", &self.added),
            ("changed", &self.changed),
            ("removed", &self.removed),
        ] {
            for path in list.iter().take(40) {
                writeln!(f, "  {word} {path}")?;
            }
            if list.len() > 40 {
                writeln!(f, "  … and {} more {word}", list.len() - 40)?;
            }
        }
        writeln!(f)?;
        write!(f, "{}", self.summary_markdown())
    }
}

/// The manifest: every file the import wrote, with its digest.
#[derive(Debug, Clone, Default, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
struct Manifest {
    /// `"1"`.
    version: String,
    /// What wrote the files.
    written_by: String,
    /// The upstream data version of the last import.
    #[serde(default)]
    upstream_version: Option<String>,
    /// Relative path → `fnv1a64:<hex>` of the bytes written.
    files: BTreeMap<String, String>,
}

/// A stable digest of a file's bytes (FNV-1a, 64 bits, with the length):
/// stable across Rust releases, unlike `std`'s hasher, and enough to tell
/// that a file was edited by hand (not a defence against crafted
/// collisions, which only the data folder's own owner could aim).
fn digest(bytes: &[u8]) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in bytes {
        h ^= u64::from(*b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    format!("fnv1a64:{h:016x}:{}", bytes.len())
}

/// Today's date (UTC), `YYYY-MM-DD`: the default `retrieved`.
pub fn today() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    civil_date(i64::try_from(secs / 86_400).unwrap_or(0))
}

/// The calendar date `days` after 1970-01-01 (Howard Hinnant's
/// `civil_from_days`).
fn civil_date(days: i64) -> String {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!("{y:04}-{m:02}-{d:02}")
}

fn check_date(flag: &str, value: &str) -> Result<()> {
    if !crate::load::limits::is_iso_date(value) {
        bail!("{flag} {value:?}: not a date; write a real calendar date as YYYY-MM-DD");
    }
    Ok(())
}

/// A model document as the files hold it: JSON with two-space indents, no
/// newline at the end (as the seed files).
fn file_bytes(doc: &Value) -> Result<Vec<u8>> {
    serde_json::to_vec_pretty(doc).context("cannot write a model document")
}

/// Converts every task of `upstream` (errors of all tasks together).
fn convert_all(
    upstream: &Upstream,
    editorial: &Editorial,
    editorial_path: &Path,
    dates: &ImportDates,
) -> Result<(BTreeMap<String, Value>, Vec<String>)> {
    let mut files = BTreeMap::new();
    let mut warnings = Vec::new();
    let mut errors = Vec::new();
    for task in &upstream.tasks {
        let Some(ed) = editorial.workloads.get(task) else {
            errors.push(format!(
                "tasks/{task}.json: the workload {task:?} has no entry in {} (workloads.{task}: name, description, deadline and texts); add one to import it",
                editorial_path.display()
            ));
            continue;
        };
        let doc = match upstream.task(task) {
            Ok(doc) => doc,
            Err(err) => {
                errors.push(format!("{err:#}"));
                continue;
            }
        };
        let Converted {
            docs,
            warnings: w,
            errors: e,
        } = match ed.kind {
            None => convert::convert_token_task(task, &doc, upstream, editorial, dates),
            Some(kind) => {
                convert::convert_diffusion_task(task, &doc, upstream, editorial, dates, kind)
            }
        };
        warnings.extend(w);
        errors.extend(e);
        for (slug, doc) in docs {
            files.insert(format!("{task}/{slug}.json"), doc);
        }
    }
    if !errors.is_empty() {
        let shown = errors.len().min(crate::load::MAX_PROBLEMS_SHOWN);
        let mut text = format!(
            "the published data at {} cannot be imported ({} problem{}; nothing written):",
            upstream.root.display(),
            errors.len(),
            if errors.len() == 1 { "" } else { "s" }
        );
        for e in &errors[..shown] {
            text.push_str("\n  ");
            text.push_str(e);
        }
        if errors.len() > shown {
            text.push_str(&format!("\n  … and {} more", errors.len() - shown));
        }
        bail!(text);
    }
    Ok((files, warnings))
}

/// Whether two model documents differ only in their dates (`updated`,
/// `data_version`, `source.retrieved`): a re-import of the same data on
/// another day then keeps the file as it is.
fn same_but_dates(old: &Value, new: &Value) -> bool {
    let mut new = new.clone();
    for key in ["updated", "data_version"] {
        if let Some(v) = old.get(key) {
            new[key] = v.clone();
        }
    }
    if let (Some(v), Some(source)) = (
        old.get("source").and_then(|s| s.get("retrieved")),
        new.get_mut("source"),
    ) {
        source["retrieved"] = v.clone();
    }
    *old == new
}

/// Reads a file of the data folder, `None` when it does not exist.
fn read_existing(path: &Path) -> Result<Option<Vec<u8>>> {
    match std::fs::symlink_metadata(path) {
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(err) => Err(err).with_context(|| format!("{}: cannot read", path.display())),
        Ok(meta) if !meta.is_file() => bail!(
            "{}: is in the way of the import and is not a regular file (a folder or a link?); energyboard import writes only plain files it made",
            path.display()
        ),
        Ok(_) => std::fs::read(path)
            .map(Some)
            .with_context(|| format!("{}: cannot read", path.display())),
    }
}

fn read_manifest(data_dir: &Path) -> Result<Option<Manifest>> {
    let path = data_dir.join(MANIFEST);
    let Some(bytes) = read_existing(&path)? else {
        return Ok(None);
    };
    let manifest: Manifest = serde_json::from_slice(&bytes).with_context(|| {
        format!(
            "{}: the import's ownership manifest cannot be read; restore it from version control",
            path.display()
        )
    })?;
    if manifest.version != "1" {
        bail!(
            "{}: version {:?}; this program reads version \"1\"",
            path.display(),
            manifest.version
        );
    }
    for rel in manifest.files.keys() {
        if !safe_relative(rel) {
            bail!(
                "{}: files: {rel:?} is not a path inside the data folder",
                path.display()
            );
        }
    }
    Ok(Some(manifest))
}

/// Whether `rel` is a plain relative path of normal segments (no `..`, no
/// absolute path, no hidden segment).
fn safe_relative(rel: &str) -> bool {
    !rel.is_empty()
        && rel
            .split('/')
            .all(|seg| !seg.is_empty() && !seg.starts_with('.') && !seg.contains('\\'))
}

/// Whether the data folder holds any model file (a `*.json` outside hidden
/// folders).
fn has_model_files(data_dir: &Path) -> bool {
    walkdir::WalkDir::new(data_dir)
        .into_iter()
        .filter_entry(|e| e.depth() == 0 || !e.file_name().to_string_lossy().starts_with('.'))
        .filter_map(Result::ok)
        .any(|e| {
            e.file_type().is_file()
                && e.path().extension().is_some_and(|x| x == "json")
                && !(e.depth() == 1 && e.file_name() == changes::FILE_NAME)
        })
}

/// Copies the data folder's visible files into `to` (the staging tree).
fn copy_tree(from: &Path, to: &Path) -> Result<()> {
    for entry in walkdir::WalkDir::new(from)
        .follow_links(true)
        .sort_by_file_name()
        .into_iter()
        .filter_entry(|e| e.depth() == 0 || !e.file_name().to_string_lossy().starts_with('.'))
    {
        let entry = entry.with_context(|| format!("{}: cannot read", from.display()))?;
        let rel = entry.path().strip_prefix(from).unwrap_or(entry.path());
        let target = to.join(rel);
        if entry.file_type().is_dir() {
            std::fs::create_dir_all(&target)
                .with_context(|| format!("{}: cannot stage", target.display()))?;
        } else if entry.file_type().is_file() {
            std::fs::copy(entry.path(), &target)
                .with_context(|| format!("{}: cannot stage", entry.path().display()))?;
        }
    }
    Ok(())
}

fn write_file(path: &Path, bytes: &[u8]) -> Result<()> {
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent)
            .with_context(|| format!("{}: cannot make the folder", parent.display()))?;
    }
    std::fs::write(path, bytes).with_context(|| format!("{}: cannot write", path.display()))
}

/// The loaded data of a folder, for the change log; an empty set when it
/// holds no model files yet.
fn load_for_changes(dir: &Path, what: &str) -> Result<crate::load::DataSet> {
    if !dir.is_dir() || !has_model_files(dir) {
        let mut data = crate::load::DataSet::default();
        let history = dir.join(changes::FILE_NAME);
        if history.is_file() {
            data.changes = Some(
                crate::load::read_changes_file(&history)
                    .map_err(|p| anyhow::anyhow!("{}", crate::load::Problems(p)))?,
            );
        }
        return Ok(data);
    }
    crate::load::load_data_dir(dir).map_err(|p| anyhow::anyhow!("{what}: {p}"))
}

/// Runs an import. On any error `data/` is left as it was.
pub fn import(opts: &ImportOptions) -> Result<ImportReport> {
    let retrieved = opts.retrieved.clone().unwrap_or_else(today);
    check_date("--retrieved", &retrieved)?;
    for (flag, value) in [
        ("--updated", &opts.updated),
        ("--data-version", &opts.data_version),
        ("--tasks-committed", &opts.tasks_committed),
    ] {
        if let Some(v) = value {
            check_date(flag, v)?;
        }
    }
    let editorial = Editorial::load(&opts.editorial)?;
    let download = tempfile::tempdir().context("cannot make a temporary folder")?;
    let (root, source_label) = if opts.from.contains("://") {
        (
            upstream::fetch_archive(&opts.from, download.path())?,
            opts.from.clone(),
        )
    } else {
        (
            PathBuf::from(&opts.from),
            "a local copy of github.com/ml-energy/leaderboard public/data".to_owned(),
        )
    };
    let upstream = Upstream::open(&root)?;
    let dates = ImportDates {
        compiled: upstream.last_updated.clone(),
        retrieved: retrieved.clone(),
        updated: opts.updated.clone().unwrap_or_else(|| retrieved.clone()),
        data_version: opts
            .data_version
            .clone()
            .unwrap_or_else(|| retrieved.clone()),
        tasks_committed: opts.tasks_committed.clone(),
    };
    let (docs, warnings) = convert_all(&upstream, &editorial, &opts.editorial, &dates)?;

    let data_dir = &opts.data_dir;
    if data_dir.exists() && !data_dir.is_dir() {
        bail!("--data {}: is not a folder", data_dir.display());
    }
    let manifest = read_manifest(data_dir)?.unwrap_or_else(|| Manifest {
        version: "1".into(),
        written_by: "energyboard import".into(),
        ..Manifest::default()
    });

    // Ownership: every file of the manifest must still be what the import
    // wrote; nothing in the way of a new file may be someone else's.
    let mut foreign = Vec::new();
    let mut current: BTreeMap<String, Vec<u8>> = BTreeMap::new();
    for (rel, want) in &manifest.files {
        if let Some(bytes) = read_existing(&data_dir.join(rel))? {
            if digest(&bytes) != *want {
                foreign.push(format!(
                    "{}: was changed after energyboard import wrote it; restore it (e.g. git checkout) or move it away, then import again",
                    data_dir.join(rel).display()
                ));
            }
            current.insert(rel.clone(), bytes);
        }
    }
    let mut new_files: BTreeMap<String, Vec<u8>> = BTreeMap::new();
    for (rel, doc) in &docs {
        let path = data_dir.join(rel);
        let existing = if manifest.files.contains_key(rel) {
            current.get(rel).cloned()
        } else {
            if read_existing(&path)?.is_some() {
                foreign.push(format!(
                    "{}: is in the way: energyboard import did not write it (it is not in {}); move it away, then import again",
                    path.display(),
                    MANIFEST
                ));
            }
            None
        };
        let mut bytes = file_bytes(doc)?;
        if let Some(old) = existing {
            if serde_json::from_slice::<Value>(&old).is_ok_and(|v| same_but_dates(&v, doc)) {
                bytes = old;
            }
        }
        new_files.insert(rel.clone(), bytes);
    }
    let history_path = data_dir.join(changes::FILE_NAME);
    if !manifest.files.contains_key(changes::FILE_NAME) && read_existing(&history_path)?.is_some() {
        foreign.push(format!(
            "{}: is in the way: energyboard import did not write it (it is not in {}); move it away, then import again",
            history_path.display(),
            MANIFEST
        ));
    }
    if !foreign.is_empty() {
        bail!(
            "nothing imported, {} file{} in the way:\n  {}",
            foreign.len(),
            if foreign.len() == 1 { "" } else { "s" },
            foreign.join("\n  ")
        );
    }

    let mut report = ImportReport {
        upstream_version: upstream.last_updated.clone(),
        models: new_files.len(),
        warnings,
        ..ImportReport::default()
    };
    for (rel, bytes) in &new_files {
        match current.get(rel) {
            None => report.added.push(rel.clone()),
            Some(old) if old != bytes => report.changed.push(rel.clone()),
            Some(_) => {}
        }
    }
    for rel in current.keys() {
        if rel != changes::FILE_NAME && !new_files.contains_key(rel) {
            report.removed.push(rel.clone());
        }
    }
    if report.is_unchanged() {
        return Ok(report);
    }

    // Stage: the whole data folder with the changes applied, in a hidden
    // folder inside it (the loader skips hidden folders), then validate
    // it with the normal loader.
    let created = !data_dir.exists();
    std::fs::create_dir_all(data_dir)
        .with_context(|| format!("{}: cannot make the data folder", data_dir.display()))?;
    let result = stage_and_swap(
        opts,
        &manifest,
        &new_files,
        &mut report,
        &source_label,
        &retrieved,
    );
    if result.is_err() && created {
        let _ = std::fs::remove_dir(data_dir);
    }
    result.map(|()| report)
}

fn stage_and_swap(
    opts: &ImportOptions,
    manifest: &Manifest,
    new_files: &BTreeMap<String, Vec<u8>>,
    report: &mut ImportReport,
    source_label: &str,
    retrieved: &str,
) -> Result<()> {
    let data_dir = &opts.data_dir;
    let staging = tempfile::Builder::new()
        .prefix(".energyboard-import-")
        .tempdir_in(data_dir)
        .with_context(|| format!("{}: cannot make a staging folder", data_dir.display()))?;
    let tree = staging.path().join("data");
    copy_tree(data_dir, &tree)?;
    for rel in report.added.iter().chain(&report.changed) {
        write_file(&tree.join(rel), &new_files[rel])?;
    }
    for rel in &report.removed {
        std::fs::remove_file(tree.join(rel))
            .with_context(|| format!("{rel}: cannot remove from the staging folder"))?;
    }
    let after = crate::load::load_data_dir(&tree).map_err(|problems| {
        let text = problems
            .to_string()
            .replace(&tree.display().to_string(), &data_dir.display().to_string());
        anyhow::anyhow!("the imported data would not be valid (nothing written): {text}")
    })?;
    let before = load_for_changes(
        data_dir,
        "the data folder as it is now does not load, so no change log can be computed; fix it first",
    )?;

    let entry = ChangeEntry {
        upstream_version: report.upstream_version.clone(),
        previous_upstream_version: manifest.upstream_version.clone(),
        imported: retrieved.to_owned(),
        source: source_label.to_owned(),
        ..changelog::diff(&changelog::snapshot(&before), &changelog::snapshot(&after))
    };
    let mut files: BTreeMap<String, String> = new_files
        .iter()
        .map(|(rel, bytes)| (rel.clone(), digest(bytes)))
        .collect();
    if let Some(d) = manifest.files.get(changes::FILE_NAME) {
        files.insert(changes::FILE_NAME.to_owned(), d.clone());
    }
    if !entry.is_empty() {
        let mut history = before.changes.as_ref().map_or_else(
            || ChangeHistory {
                version: "1".into(),
                entries: Vec::new(),
            },
            |c| c.history.clone(),
        );
        history.entries.push(entry.clone());
        let problems =
            crate::load::validate_history(std::path::Path::new(changes::FILE_NAME), &history);
        if let Some(p) = problems.first() {
            bail!(
                "the change history would not be valid (nothing written): {}: {}",
                p.field,
                p.message
            );
        }
        let mut bytes =
            serde_json::to_vec_pretty(&history).context("cannot write the change history")?;
        bytes.push(b'\n');
        write_file(&tree.join(changes::FILE_NAME), &bytes)?;
        files.insert(changes::FILE_NAME.to_owned(), digest(&bytes));
        if before.changes.is_some() {
            report.changed.push(changes::FILE_NAME.to_owned());
        } else {
            report.added.push(changes::FILE_NAME.to_owned());
        }
        report.entry = Some(entry);
    }
    let new_manifest = Manifest {
        version: "1".into(),
        written_by: "energyboard import".into(),
        upstream_version: Some(report.upstream_version.clone()),
        files,
    };
    let mut manifest_bytes =
        serde_json::to_vec_pretty(&new_manifest).context("cannot write the manifest")?;
    manifest_bytes.push(b'\n');
    write_file(&staging.path().join("manifest"), &manifest_bytes)?;

    swap_in(data_dir, staging.path(), &tree, report)
}

/// Moves the staged files into the data folder; any failure moves back
/// what was moved, so the folder ends as it was.
fn swap_in(data_dir: &Path, staging: &Path, tree: &Path, report: &ImportReport) -> Result<()> {
    let backup = staging.join("backup");
    // (target, backup copy if the target existed)
    let mut done: Vec<(PathBuf, Option<PathBuf>)> = Vec::new();
    let mut step = |rel: &str, replace: bool| -> Result<()> {
        let target = data_dir.join(rel);
        let saved = backup.join(rel);
        let had = target.exists();
        if had {
            if let Some(parent) = saved.parent() {
                std::fs::create_dir_all(parent)?;
            }
            std::fs::rename(&target, &saved)
                .with_context(|| format!("{}: cannot move aside", target.display()))?;
        }
        done.push((target.clone(), had.then_some(saved)));
        if replace {
            if let Some(parent) = target.parent() {
                std::fs::create_dir_all(parent)?;
            }
            std::fs::rename(tree.join(rel), &target)
                .with_context(|| format!("{}: cannot move in", target.display()))?;
        }
        Ok(())
    };
    let mut result = Ok(());
    for rel in report.added.iter().chain(&report.changed) {
        result = step(rel, true);
        if result.is_err() {
            break;
        }
    }
    if result.is_ok() {
        for rel in &report.removed {
            result = step(rel, false);
            if result.is_err() {
                break;
            }
        }
    }
    if result.is_ok() {
        result = std::fs::rename(staging.join("manifest"), data_dir.join(MANIFEST))
            .with_context(|| format!("{}: cannot write", data_dir.join(MANIFEST).display()));
    }
    if let Err(err) = result {
        for (target, saved) in done.into_iter().rev() {
            let _ = std::fs::remove_file(&target);
            if let Some(saved) = saved {
                let _ = std::fs::rename(&saved, &target);
            }
        }
        return Err(err.context("the import was rolled back; data/ is as it was"));
    }
    // Workload folders left empty by removed files go too.
    for rel in &report.removed {
        if let Some(parent) = data_dir.join(rel).parent() {
            if parent != data_dir {
                let _ = std::fs::remove_dir(parent);
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn civil_dates() {
        assert_eq!(civil_date(0), "1970-01-01");
        assert_eq!(civil_date(20_454), "2026-01-01");
        assert_eq!(civil_date(11_016), "2000-02-29");
    }

    #[test]
    fn digests_are_stable() {
        assert_eq!(digest(b""), "fnv1a64:cbf29ce484222325:0");
        assert_eq!(digest(b"a"), "fnv1a64:af63dc4c8601ec8c:1");
    }

    #[test]
    fn manifest_paths_stay_inside() {
        assert!(safe_relative("gpqa/x.json"));
        for bad in [
            "",
            "../x.json",
            "/etc/passwd",
            "a//b",
            ".hidden",
            "a/../b",
            "a\\b",
        ] {
            assert!(!safe_relative(bad), "{bad}");
        }
    }
}
