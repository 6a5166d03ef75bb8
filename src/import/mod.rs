//! `energyboard import`: turns the ML.ENERGY Leaderboard's published data
//! (`public/data` of github.com/ml-energy/leaderboard: `index.json`,
//! `tasks/<task>.json`, `models/<model>__<task>.json`) into model files
//! under `data/<workload>/<slug>.json`, and records what changed in
//! `data/changes.json`.
//!
//! Stages: [`upstream`] reads the published folder (or downloads the
//! repository archive), [`convert`] maps task rows to documents (rules in
//! docs/importing.md), [`changelog`] compares the data before and after,
//! and this module stages the result, validates it with the loader and
//! swaps it in.
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

use std::collections::{BTreeMap, BTreeSet};
use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::changes::{self, ChangeEntry, ChangeHistory};
use crate::model::SOURCES_DIR;
use crate::settings::SourceSettings;
use crate::stage::{self, Lock, Stage};
use convert::{Converted, ImportDates};
use editorial::Editorial;
use upstream::Upstream;

/// The ownership manifest, hidden at the top of the data folder.
pub const MANIFEST: &str = ".energyboard-import.json";

/// The name of the import's lock (`.energyboard-import.lock`) and staging
/// folders (`.energyboard-import.tmp-*`) in the data folder.
pub const STAGE_NAME: &str = "energyboard-import";

/// In the staging folder: the data as the import leaves it (`TREE`), the
/// whole data folder with it for a source's check beside the others
/// (`WHOLE`), the files it replaced (`OLD`), the plan and the new manifest.
const TREE: &str = "data";
const WHOLE: &str = "whole";
const OLD: &str = "backup";
const PLAN: &str = "plan.json";
const NEW_MANIFEST: &str = "manifest";

/// The marker written first into each staging folder, and what it says:
/// recovery uses no folder without it ([`recover`]).
const OWNER: &str = "owner";
const OWNER_TEXT: &str = "a staging folder of energyboard import\n";

/// What an import reads and where it writes.
#[derive(Debug, Clone)]
pub struct ImportOptions {
    /// A folder holding upstream's `public/data`, or an https URL of the
    /// repository's `.tar.gz` archive.
    pub from: String,
    pub data_dir: PathBuf,
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
    /// Another source than the leaderboard (`--source`, its `[[sources]]`
    /// entry): its files go to `<data>/sources/<id>/`, with their own
    /// manifest and change history, and its slugs start with `<id>--`.
    pub source: Option<SourceSettings>,
}

/// What an import did; its lists are also the plan of a swap, written to
/// the staging folder before the first move: what lets the next import
/// finish or undo a swap that was stopped ([`recover`]).
#[derive(Debug, Clone, Default, Deserialize, Serialize)]
#[serde(default)]
pub struct ImportReport {
    /// `index.json`'s `last_updated`.
    pub upstream_version: String,
    /// Files added, changed and removed (the import's own, no longer
    /// published upstream), relative to the data folder.
    pub added: Vec<String>,
    pub changed: Vec<String>,
    pub removed: Vec<String>,
    /// Model files written in all (unchanged ones kept as they were).
    pub models: usize,
    pub warnings: Vec<String>,
    /// The entry appended to `changes.json`, when anything changed.
    pub entry: Option<ChangeEntry>,
}

impl ImportReport {
    fn files(&self) -> impl Iterator<Item = &String> {
        self.added.iter().chain(&self.changed).chain(&self.removed)
    }

    /// Lists the files `new_files` adds to, changes in and removes from
    /// `current` (the change log is rewritten, never removed).
    fn list_changes(
        &mut self,
        current: &BTreeMap<String, Vec<u8>>,
        new_files: &BTreeMap<String, Vec<u8>>,
    ) {
        for (rel, bytes) in new_files {
            match current.get(rel) {
                None => self.added.push(rel.clone()),
                Some(old) if old != bytes => self.changed.push(rel.clone()),
                Some(_) => {}
            }
        }
        for rel in current.keys() {
            if rel != changes::FILE_NAME && !new_files.contains_key(rel) {
                self.removed.push(rel.clone());
            }
        }
    }

    /// Whether the import changed nothing (and wrote nothing).
    pub fn is_unchanged(&self) -> bool {
        self.files().next().is_none()
    }

    /// The change-log entry as Markdown (a pull-request body), or a line
    /// saying nothing changed. Texts from upstream cannot mention anyone or
    /// link anywhere in it ([`neutralised`]).
    pub fn summary_markdown(&self) -> String {
        let heading = format!(
            "## ML.ENERGY Leaderboard data {}\n\n",
            self.upstream_version
        );
        let files = self.files().count();
        neutralised(&match &self.entry {
            Some(e) => changelog::markdown(e),
            None if self.is_unchanged() => format!("{heading}Nothing changed.\n"),
            None => {
                format!("{heading}No figure changed; {files} file(s) rewritten (texts or dates).\n")
            }
        })
    }
}

/// Markdown in which no `@mention` pings anyone and no bare URL becomes a
/// link (GitHub autolinks `http://`, `https://` and `www.`): a zero-width
/// space goes after each `@` and inside each `://` and `www.`; the text
/// reads the same.
pub fn neutralised(markdown: &str) -> String {
    markdown
        .replace('@', "@\u{200B}")
        .replace("://", ":\u{200B}//")
        .replace("www.", "www\u{200B}.")
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
    version: String,
    written_by: String,
    /// The upstream data version of the last import.
    upstream_version: Option<String>,
    /// Relative path → `fnv1a64:<hex>` of the bytes written.
    files: BTreeMap<String, String>,
    /// `<workload>/<slug>` → the upstream model id that slug was published
    /// for, kept after the model is gone: a slug never moves to another
    /// model.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    slugs: BTreeMap<String, String>,
}

fn digest(bytes: &[u8]) -> String {
    let h = crate::load::content_digest(bytes);
    format!("fnv1a64:{h:016x}:{}", bytes.len())
}

/// Today's date (UTC), `YYYY-MM-DD`: the default `retrieved`.
pub fn today() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    civil_date(i64::try_from(secs / 86_400).unwrap_or(0))
}

/// The date `days` after 1970-01-01 (Howard Hinnant's `civil_from_days`).
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

/// Converts every task of `upstream` (errors of all tasks together).
fn convert_all(
    upstream: &Upstream,
    editorial: &Editorial,
    editorial_path: &Path,
    dates: &ImportDates,
) -> Result<Converted> {
    let mut out = Converted::default();
    for task in &upstream.tasks {
        if !editorial.workloads.contains_key(task) {
            out.errors.push(format!(
                "tasks/{task}.json: the workload {task:?} has no entry in {} (workloads.{task}: \
                    name, description, deadline and texts); add one to import it",
                editorial_path.display()
            ));
            continue;
        }
        // A task file that cannot be read at all is one error (and with any
        // error no warning is shown).
        if let Err(err) = upstream
            .task(task)
            .and_then(|doc| convert::convert_task(task, &doc, upstream, editorial, dates, &mut out))
        {
            out.errors.push(format!("{err:#}"));
        }
    }
    let errors = &out.errors;
    if !errors.is_empty() {
        let shown = errors.len().min(crate::load::MAX_PROBLEMS_SHOWN);
        let mut text = format!(
            "the published data at {} cannot be imported ({} problem{}; nothing written):\n  {}",
            upstream.root.display(),
            errors.len(),
            if errors.len() == 1 { "" } else { "s" },
            errors[..shown].join("\n  ")
        );
        if errors.len() > shown {
            text.push_str(&format!("\n  … and {} more", errors.len() - shown));
        }
        bail!(text);
    }
    Ok(out)
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
            "{}: is in the way of the import and is not a regular file (a folder or a link?); \
                energyboard import writes only plain files it made",
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
    for rel in manifest.files.keys().chain(manifest.slugs.keys()) {
        if !owned_path(rel) {
            bail!(
                "{}: files: {rel:?} is not a path inside the data folder",
                path.display()
            );
        }
    }
    Ok(Some(manifest))
}

/// Whether `rel` can be a file the import owns: a path inside the data
/// folder ([`crate::stage::relative_path`]) with no hidden segment (the
/// loader skips those, and the import's own bookkeeping lives there).
fn owned_path(rel: &str) -> bool {
    crate::stage::relative_path(rel).is_some() && !rel.split('/').any(|seg| seg.starts_with('.'))
}

/// Refuses a file to be written at `rel` when a folder on its way is a
/// link or not a folder: the import writes only into plain folders inside
/// the data folder.
fn check_folders_inside(data_dir: &Path, rel: &str) -> Result<()> {
    let mut path = data_dir.to_path_buf();
    for seg in rel
        .rsplit_once('/')
        .into_iter()
        .flat_map(|(dirs, _)| dirs.split('/'))
    {
        path.push(seg);
        match std::fs::symlink_metadata(&path) {
            Err(err) if err.kind() == std::io::ErrorKind::NotFound => return Ok(()),
            Err(err) => {
                return Err(err).with_context(|| format!("{}: cannot read", path.display()));
            }
            Ok(meta) if meta.is_dir() => {}
            Ok(_) => bail!(
                "{}: is in the way of the import and is not a plain folder (a link or a file?); \
                    energyboard import writes only into folders inside the data folder",
                path.display()
            ),
        }
    }
    Ok(())
}

/// Lays out in `tree` the data folder as the import would leave it, for
/// the loader to validate: every visible entry of `data_dir` is linked to
/// where it is, except the folders that hold a file the import writes or
/// removes (`touched`), which are made and filled the same way; the import's
/// new files are then written in. Nothing is copied.
fn overlay(data_dir: &Path, tree: &Path, touched: &[&str]) -> Result<()> {
    let data_dir = std::path::absolute(data_dir)
        .with_context(|| format!("{}: cannot resolve", data_dir.display()))?;
    let open: BTreeSet<&Path> = touched
        .iter()
        .flat_map(|rel| Path::new(rel).ancestors().skip(1))
        .filter(|p| !p.as_os_str().is_empty())
        .collect();
    let touched: BTreeSet<&Path> = touched.iter().map(Path::new).collect();
    let mut folders = vec![PathBuf::new()];
    while let Some(rel_dir) = folders.pop() {
        let here = tree.join(&rel_dir);
        std::fs::create_dir_all(&here)
            .with_context(|| format!("{}: cannot stage", here.display()))?;
        let Ok(entries) = std::fs::read_dir(data_dir.join(&rel_dir)) else {
            continue;
        };
        for entry in entries {
            let entry = entry.with_context(|| format!("{}: cannot read", data_dir.display()))?;
            let name = entry.file_name();
            if name.to_string_lossy().starts_with('.') {
                continue;
            }
            let rel = rel_dir.join(&name);
            if open.contains(rel.as_path()) {
                folders.push(rel);
            } else if !touched.contains(rel.as_path()) {
                link(&entry.path(), &tree.join(&rel))?;
            }
        }
    }
    Ok(())
}

#[cfg(unix)]
fn link(from: &Path, to: &Path) -> Result<()> {
    std::os::unix::fs::symlink(from, to).with_context(|| format!("{}: cannot stage", to.display()))
}

#[cfg(not(unix))]
fn link(from: &Path, to: &Path) -> Result<()> {
    crate::stage::copy_tree(from, to)
}

/// Writes a staged file, making its folder, and waits until it is on disk:
/// a file moved in after a power cut must hold what was validated.
fn write_file(path: &Path, bytes: &[u8]) -> Result<()> {
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent)
            .with_context(|| format!("{}: cannot make the folder", parent.display()))?;
    }
    write_durably(path, bytes)
}

/// A folder's loaded data for the change log; empty when it has no model
/// files yet (no `*.json` outside hidden folders but the change history).
fn load_for_changes(dir: &Path, source: Option<&str>) -> Result<crate::load::DataSet> {
    let has_models = walkdir::WalkDir::new(dir)
        .into_iter()
        .filter_entry(|e| e.depth() == 0 || !e.file_name().to_string_lossy().starts_with('.'))
        .filter_map(Result::ok)
        .any(|e| {
            e.file_type().is_file()
                && e.path().extension().is_some_and(|x| x == "json")
                && !(e.depth() == 1 && e.file_name() == changes::FILE_NAME)
        });
    if has_models {
        return load_dir(dir, source).map_err(|p| {
            anyhow::anyhow!(
                "the data folder as it is now does not load, so no change log can be \
                computed; fix it first: {p}"
            )
        });
    }
    let history = dir.join(changes::FILE_NAME);
    let changes = history
        .is_file()
        .then(|| crate::load::read_changes_file(&history))
        .transpose();
    let changes = changes.map_err(|p| anyhow::anyhow!("{}", crate::load::Problems(p)))?;
    Ok(crate::load::DataSet {
        changes,
        ..crate::load::DataSet::default()
    })
}

/// Runs an import. On any error `data/` is left as it was.
pub fn import(opts: &ImportOptions) -> Result<ImportReport> {
    let retrieved = opts.retrieved.clone().unwrap_or_else(today);
    for (flag, value) in [
        ("--retrieved", Some(&retrieved)),
        ("--updated", opts.updated.as_ref()),
        ("--data-version", opts.data_version.as_ref()),
        ("--tasks-committed", opts.tasks_committed.as_ref()),
    ] {
        if let Some(v) = value.filter(|v| !crate::load::limits::is_iso_date(v)) {
            bail!("{flag} {v:?}: not a date; write a real calendar date as YYYY-MM-DD");
        }
    }
    crate::write::guard_folder("--data", &opts.data_dir, &[])?;
    let mut editorial = Editorial::load(&opts.editorial)?;
    let own;
    let opts = match &opts.source {
        None => opts,
        Some(source) => {
            check_folders_inside(&opts.data_dir, &format!("{SOURCES_DIR}/{}/", source.id))?;
            own = ImportOptions {
                data_dir: opts.data_dir.join(SOURCES_DIR).join(&source.id),
                ..opts.clone()
            };
            &own
        }
    };
    let download = tempfile::tempdir().context("cannot make a temporary folder")?;
    let remote = opts.from.contains("://");
    let root = if remote {
        upstream::fetch_archive(&opts.from, download.path())?
    } else {
        PathBuf::from(&opts.from)
    };
    let mut upstream = Upstream::open(&root)?;
    let source_label = match (&opts.source, remote) {
        (None, true) => opts.from.clone(),
        (None, false) => "a local copy of github.com/ml-energy/leaderboard public/data".to_owned(),
        (Some(source), true) => format!("{} ({})", source.name, opts.from),
        (Some(source), false) => format!("{} (a local copy of its published data)", source.name),
    };
    if let Some(source) = &opts.source {
        as_source(&mut editorial, &mut upstream, source);
    }
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
    let data_dir = &opts.data_dir;
    if data_dir.exists() && !data_dir.is_dir() {
        bail!("--data {}: is not a folder", data_dir.display());
    }
    let created = !data_dir.exists();
    let new_sources_dir = data_dir
        .parent()
        .filter(|p| opts.source.is_some() && !p.exists());
    std::fs::create_dir_all(data_dir)
        .with_context(|| format!("{}: cannot make the data folder", data_dir.display()))?;
    let result = import_locked(opts, upstream, &editorial, &dates, &source_label);
    if result.is_err() && created {
        let _ = std::fs::remove_dir(data_dir);
        let _ = new_sources_dir.map(std::fs::remove_dir);
    }
    result
}

/// The import proper, holding the data folder's lock from before it reads
/// the manifest until the last file is in place.
fn import_locked(
    opts: &ImportOptions,
    mut upstream: Upstream,
    editorial: &Editorial,
    dates: &ImportDates,
    source_label: &str,
) -> Result<ImportReport> {
    let data_dir = &opts.data_dir;
    // One writer for the whole data folder, whichever source it imports:
    // every import checks the data folder as it will leave it, so none may
    // change under another.
    let root = data_root(opts);
    let lock = Lock::take(
        &root.join(stage::lock_name(STAGE_NAME)),
        root,
        "import again",
    )?;
    let recovered: Vec<String> = stopped_imports(root)
        .iter()
        .filter_map(|leftover| recover(leftover.parent().unwrap_or(root), leftover).transpose())
        .collect::<Result<_>>()?;
    let stage = Stage::within(lock, data_dir, STAGE_NAME)?;
    write_file(&stage.path().join(OWNER), OWNER_TEXT.as_bytes())?;
    let mut manifest = read_manifest(data_dir)?.unwrap_or_default();

    // Ownership: every file of the manifest must still be what the import
    // wrote; nothing in the way of a new file may be someone else's.
    let ImportedFiles {
        current,
        mut foreign,
    } = imported_files(data_dir, &manifest)?;
    keep_published_slugs(data_dir, &mut manifest, &current)?;
    upstream.published_slugs = manifest.slugs.clone();
    let Converted {
        docs, mut warnings, ..
    } = convert_all(&upstream, editorial, &opts.editorial, dates)?;
    warnings.extend(recovered);
    crate::write::stop_point()?;

    let mut new_files: BTreeMap<String, Vec<u8>> = BTreeMap::new();
    for rel in docs.keys().map(String::as_str).chain([changes::FILE_NAME]) {
        foreign.extend(in_the_way(data_dir, &manifest, rel)?);
        if let Some(doc) = docs.get(rel) {
            new_files.insert(rel.to_owned(), document_bytes(current.get(rel), doc)?);
        }
    }
    let superseded = superseded_files(&current, &new_files, &upstream.last_updated);
    for (rel, bytes) in superseded {
        foreign.extend(in_the_way(data_dir, &manifest, &rel)?);
        new_files.insert(rel, bytes);
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
        models: docs.len(),
        warnings,
        ..ImportReport::default()
    };
    report.list_changes(&current, &new_files);
    if report.is_unchanged() {
        return Ok(report);
    }
    let swap = Swap {
        opts,
        stage: &stage,
        manifest: &manifest,
        new_files: &new_files,
        source_label,
        dates,
    };
    stage_and_swap(&swap, &mut report)?;
    Ok(report)
}

/// The files of the data folder that earlier imports wrote, as they are,
/// and a problem for each that has changed since.
struct ImportedFiles {
    current: BTreeMap<String, Vec<u8>>,
    foreign: Vec<String>,
}

/// Reads every file of `manifest` that is still there, and checks it is
/// what the import wrote.
fn imported_files(data_dir: &Path, manifest: &Manifest) -> Result<ImportedFiles> {
    let mut foreign = Vec::new();
    let mut current: BTreeMap<String, Vec<u8>> = BTreeMap::new();
    for (rel, want) in &manifest.files {
        check_folders_inside(data_dir, rel)?;
        if let Some(bytes) = read_existing(&data_dir.join(rel))? {
            if digest(&bytes) != *want {
                foreign.push(format!(
                    "{}: was changed after energyboard import wrote it; restore it (e.g. git \
                        checkout) or move it away, then import again",
                    data_dir.join(rel).display()
                ));
            }
            current.insert(rel.clone(), bytes);
        }
    }
    Ok(ImportedFiles { current, foreign })
}

/// Slugs already published stay with their models: the manifest's map must
/// agree with the files it lists (a hand edit could move a slug), and
/// gains the slugs of files it did not map yet.
fn keep_published_slugs(
    data_dir: &Path,
    manifest: &mut Manifest,
    current: &BTreeMap<String, Vec<u8>>,
) -> Result<()> {
    for (key, id) in slugs_of(current) {
        match manifest.slugs.get(&key) {
            Some(said) if *said != id => bail!(
                "{}: slugs: {key:?} is {said:?}, but {} is the model {id:?}; the manifest was \
                    edited, restore it from version control",
                data_dir.join(MANIFEST).display(),
                data_dir.join(format!("{key}.json")).display()
            ),
            Some(_) => {}
            None => {
                manifest.slugs.insert(key, id);
            }
        }
    }
    Ok(())
}

/// A document's bytes as the files hold it: two-space indents, no newline
/// at the end; or the file as it is (`old`) when only its dates would
/// change.
fn document_bytes(old: Option<&Vec<u8>>, doc: &serde_json::Value) -> Result<Vec<u8>> {
    Ok(match old {
        Some(old) if serde_json::from_slice(old).is_ok_and(|v| same_but_dates(&v, doc)) => {
            old.clone()
        }
        _ => serde_json::to_vec_pretty(doc).context("cannot write a model document")?,
    })
}

/// Why the file `rel` of the data folder is in the way of the import, if it
/// is: it is there, but the import did not write it (not in `manifest`).
fn in_the_way(data_dir: &Path, manifest: &Manifest, rel: &str) -> Result<Option<String>> {
    check_folders_inside(data_dir, rel)?;
    let path = data_dir.join(rel);
    if manifest.files.contains_key(rel) || read_existing(&path)?.is_none() {
        return Ok(None);
    }
    Ok(Some(format!(
        "{}: is in the way: energyboard import did not write it (it is not in {MANIFEST}); move \
            it away, then import again",
        path.display()
    )))
}

/// The history folder as this import leaves it: every superseded file kept
/// as it is, and, for each model file whose configurations this import
/// changes, the file as it was, at `history/<workload>/<slug>/<version>.json`.
/// Its version is the data version in which those figures appeared: the
/// last one the change history records for the model (or, without one, the
/// file's own `data_version`). A file of the version being imported is not
/// kept (a version republished with other figures shows its newest).
fn superseded_files(
    current: &BTreeMap<String, Vec<u8>>,
    new_files: &BTreeMap<String, Vec<u8>>,
    importing: &str,
) -> BTreeMap<String, Vec<u8>> {
    let prefix = format!("{}/", crate::model::HISTORY_DIR);
    let mut out: BTreeMap<String, Vec<u8>> = current
        .iter()
        .filter(|(rel, _)| rel.starts_with(&prefix))
        .map(|(rel, bytes)| (rel.clone(), bytes.clone()))
        .collect();
    let history: Option<ChangeHistory> = current
        .get(changes::FILE_NAME)
        .and_then(|b| serde_json::from_slice(b).ok());
    for (rel, new) in new_files {
        let Some(old) = current.get(rel).filter(|old| *old != new) else {
            continue;
        };
        let (Some((workload, name)), Ok(old_doc), Ok(new_doc)) = (
            rel.split_once('/'),
            serde_json::from_slice::<Value>(old),
            serde_json::from_slice::<Value>(new),
        ) else {
            continue;
        };
        if old_doc.get("configurations") == new_doc.get("configurations") {
            continue;
        }
        let slug = name.strip_suffix(".json").unwrap_or(name);
        let recorded = history
            .as_ref()
            .and_then(|h| h.figure_versions(workload, slug).pop());
        let Some(version) = recorded.or_else(|| old_doc.get("data_version")?.as_str()) else {
            continue;
        };
        if version != importing {
            let path = crate::model::history_path(workload, slug, version);
            out.entry(path).or_insert_with(|| old.clone());
        }
    }
    out
}

/// Makes an import of another source's data say whose they are: its
/// `[[sources]]` entry replaces the leaderboard's name, publisher, address,
/// licence and version in the source block, and its slugs start with
/// `<id>--`, so they never take a leaderboard page's address.
fn as_source(editorial: &mut Editorial, upstream: &mut Upstream, source: &SourceSettings) {
    let common = &mut editorial.common;
    common.name.clone_from(&source.name);
    common.publisher = source
        .publisher
        .clone()
        .unwrap_or_else(|| source.name.clone());
    common.url.clone_from(&source.url);
    common.licence.clone_from(&source.licence);
    common.licence_evidence = vec![format!(
        "as stated by {} (energyboard.toml, [[sources]] id {:?})",
        common.publisher, source.id
    )];
    if let Some(cite) = &source.cite {
        common.cite.clone_from(cite);
        common.cite_url = source
            .cite_url
            .clone()
            .unwrap_or_else(|| source.url.clone());
    }
    common.version_number.clone_from(&upstream.last_updated);
    common.released.clone_from(&upstream.last_updated);
    let evidence = format!("{}'s index.json last_updated, {{compiled}}", source.name);
    common.compiled_evidence_both.clone_from(&evidence);
    common.compiled_evidence_index_only.clone_from(&evidence);
    common.compiled_evidence_differ = evidence;
    upstream.source = Some(upstream::SourceMark {
        id: source.id.clone(),
        label: source.label.clone().unwrap_or_else(|| source.name.clone()),
    });
}

/// The data folder an import of `opts` belongs to: `--data` itself, or,
/// for another source, the folder above `<data>/sources/<id>`.
fn data_root(opts: &ImportOptions) -> &Path {
    match opts.source {
        Some(_) => opts
            .data_dir
            .ancestors()
            .nth(2)
            .expect("a source's folder is <data>/sources/<id>"),
        None => &opts.data_dir,
    }
}

/// Every staging folder that a stopped import left in the data folder
/// `root` or in one of its sources' folders.
fn stopped_imports(root: &Path) -> Vec<PathBuf> {
    let mut found = stage::leftovers(root, STAGE_NAME);
    let mut sources: Vec<PathBuf> = std::fs::read_dir(root.join(SOURCES_DIR))
        .into_iter()
        .flatten()
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| std::fs::symlink_metadata(p).is_ok_and(|m| m.is_dir()))
        .collect();
    sources.sort();
    for source in &sources {
        found.extend(stage::leftovers(source, STAGE_NAME));
    }
    found
}

/// A swap's plan, written into the staging folder before the first move:
/// the files it adds, changes and removes (relative to the data folder),
/// and the digest of each file it moves aside (`before`) and moves in
/// (`after`), so that an undo touches only those very files.
#[derive(Debug, Default, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
struct SwapPlan {
    added: Vec<String>,
    changed: Vec<String>,
    removed: Vec<String>,
    before: BTreeMap<String, String>,
    after: BTreeMap<String, String>,
}

impl SwapPlan {
    fn files(&self) -> impl Iterator<Item = &String> {
        self.added.iter().chain(&self.changed).chain(&self.removed)
    }
}

/// What undoing a stopped swap does to one file.
enum Undo {
    /// Moves the file set aside (`saved`) back to `target`.
    Restore { saved: PathBuf, target: PathBuf },
    /// Removes a file the swap added.
    Delete(PathBuf),
}

/// Cleans up after an import that was stopped: a staging folder with a plan
/// whose manifest was not moved in yet is undone (every file moved back),
/// one whose manifest is in place is finished; either way it goes. Returns
/// a note when a swap was undone.
///
/// Only a folder the import made is used: one carrying its marker, and,
/// once it has a plan, holding no symbolic link, naming only paths inside
/// the data folder, and whose every file to restore or remove is the one
/// its plan records (by digest). Anything else stops the import, which
/// then has changed nothing, with a message saying what to remove.
fn recover(data_dir: &Path, leftover: &Path) -> Result<Option<String>> {
    let untrusted = |why: &str| {
        anyhow::anyhow!(
            "{}: {why}, so energyboard import does not trust it and changed nothing; move it out \
                of the data folder (e.g. rm -r {}), check {} against version control, then \
                import again",
            leftover.display(),
            leftover.display(),
            data_dir.display()
        )
    };
    let marker = crate::stage::read_bounded(&leftover.join(OWNER), 1024).ok();
    if marker.as_deref() != Some(OWNER_TEXT.as_bytes()) {
        return Err(untrusted(
            "is named like an import's staging folder but has no marker of one",
        ));
    }
    let plan_path = leftover.join(PLAN);
    let mut note = None;
    if std::fs::symlink_metadata(&plan_path).is_ok() {
        if let Some(link) = first_link(leftover) {
            return Err(untrusted(&format!(
                "holds a symbolic link ({})",
                link.display()
            )));
        }
        let bytes =
            read_existing(&plan_path).map_err(|_| untrusted("has a plan that cannot be read"))?;
        let plan: SwapPlan = bytes
            .and_then(|b| serde_json::from_slice(&b).ok())
            .ok_or_else(|| untrusted("has a plan that cannot be read"))?;
        if let Some(bad) = plan
            .files()
            .find(|rel| !owned_path(rel) || check_folders_inside(data_dir, rel).is_err())
        {
            return Err(untrusted(&format!(
                "names {bad:?}, not a file inside the data folder"
            )));
        }
        if std::fs::symlink_metadata(leftover.join(NEW_MANIFEST)).is_ok() {
            let steps = plan_undo(data_dir, leftover, &plan).map_err(|why| untrusted(&why))?;
            for step in steps {
                match step {
                    Undo::Restore { saved, target } => std::fs::rename(&saved, &target)
                        .with_context(|| format!("{}: cannot move back", target.display()))?,
                    Undo::Delete(target) => {
                        std::fs::remove_file(&target)
                            .with_context(|| format!("{}: cannot remove", target.display()))?;
                        if let Ok(rel) = target.strip_prefix(data_dir) {
                            remove_empty_parent(data_dir, &rel.to_string_lossy());
                        }
                    }
                }
            }
            note = Some(format!(
                "an import stopped while it moved its files into {} was undone (its {} files are \
                    as they were before it)",
                data_dir.display(),
                plan.files().count()
            ));
        } else {
            for rel in &plan.removed {
                remove_empty_parent(data_dir, rel);
            }
        }
    }
    std::fs::remove_dir_all(leftover).with_context(|| {
        format!(
            "{}: cannot remove a stopped import's staging folder",
            leftover.display()
        )
    })?;
    Ok(note)
}

/// The steps that undo a stopped swap, checked before any is taken: each
/// file set aside must be the one the plan says was there, and a file is
/// removed only when it is the one the swap moved in. `Err` says why not.
fn plan_undo(data_dir: &Path, leftover: &Path, plan: &SwapPlan) -> Result<Vec<Undo>, String> {
    let digest_of = |path: &Path| -> Result<Option<String>, String> {
        read_existing(path)
            .map(|b| b.map(|b| digest(&b)))
            .map_err(|err| format!("{err:#}"))
    };
    let mut steps = Vec::new();
    for rel in plan.files() {
        let target = data_dir.join(rel);
        let saved = leftover.join(OLD).join(rel);
        let (before, after) = (plan.before.get(rel), plan.after.get(rel));
        match (digest_of(&saved)?, digest_of(&target)?) {
            (Some(kept), _) if Some(&kept) != before => {
                return Err(format!(
                    "its copy of {rel} is not the file the import set aside"
                ));
            }
            (Some(_), Some(now)) if Some(&now) != after => {
                return Err(format!(
                    "{}: is not the file the import moved in",
                    target.display()
                ));
            }
            (Some(_), _) => steps.push(Undo::Restore { saved, target }),
            (None, Some(now)) if Some(&now) == before => {}
            (None, Some(now)) if before.is_none() && Some(&now) == after => {
                steps.push(Undo::Delete(target));
            }
            (None, Some(_)) => {
                return Err(format!(
                    "{}: is not a file the import moved in",
                    target.display()
                ));
            }
            (None, None) => {}
        }
    }
    Ok(steps)
}

/// The first symbolic link in `dir` (not followed), if any.
fn first_link(dir: &Path) -> Option<PathBuf> {
    walkdir::WalkDir::new(dir)
        .into_iter()
        .filter_map(Result::ok)
        .find(walkdir::DirEntry::path_is_symlink)
        .map(walkdir::DirEntry::into_path)
}

/// Removes `rel`'s folder when empty (a workload's last file went), never the data folder.
fn remove_empty_parent(data_dir: &Path, rel: &str) {
    if let Some(parent) = data_dir.join(rel).parent().filter(|p| *p != data_dir) {
        let _ = std::fs::remove_dir(parent);
    }
}

/// Loads the whole data folder as it would be with this source's new files
/// (`tree`, staged for `own`, which is `<data>/sources/<id>`), so that a
/// slug, a workload's kind or deadline, or a GPU's spelling that clashes
/// with another source's stops the import before anything is written.
fn check_beside_others(own: &Path, tree: &Path, whole: &Path, id: &str) -> Result<()> {
    let data_dir = own.ancestors().nth(2).expect("own is <data>/sources/<id>");
    let rel = format!("{SOURCES_DIR}/{id}");
    overlay(data_dir, whole, &[rel.as_str()])?;
    link(
        &std::path::absolute(tree)
            .with_context(|| format!("{}: cannot resolve", tree.display()))?,
        &whole.join(&rel),
    )?;
    let what = format!("the data of source {id:?} would not fit beside the other sources'");
    load_staged(whole, None, &[(tree, own), (whole, data_dir)], &what).map(drop)
}

/// Loads a data folder, or one `source`'s folder alone.
fn load_dir(
    dir: &Path,
    source: Option<&str>,
) -> Result<crate::load::DataSet, crate::load::Problems> {
    match source {
        Some(id) => crate::load::load_source_dir(dir, id),
        None => crate::load::load_data_dir(dir),
    }
}

/// Loads a staged folder, naming in its problems each staged path (`names`:
/// staged, real) by the one it stands for.
fn load_staged(
    tree: &Path,
    source: Option<&str>,
    names: &[(&Path, &Path)],
    what: &str,
) -> Result<crate::load::DataSet> {
    load_dir(tree, source).map_err(|problems| {
        let mut text = problems.to_string();
        for (staged, real) in names {
            text = text.replace(&staged.display().to_string(), &real.display().to_string());
        }
        anyhow::anyhow!("{what} (nothing written): {text}")
    })
}

/// What an import hands its last step: where it writes, what it owned
/// before, the files it would write and how it names the change.
struct Swap<'a> {
    opts: &'a ImportOptions,
    stage: &'a Stage,
    /// The manifest as it was before this import.
    manifest: &'a Manifest,
    /// Every model file the import leaves, by path in the data folder.
    new_files: &'a BTreeMap<String, Vec<u8>>,
    /// Where the data came from, for the change-log entry.
    source_label: &'a str,
    dates: &'a ImportDates,
}

impl Manifest {
    /// The manifest as an import of `upstream_version` leaves it: the
    /// digests of its `files`, and the slugs of `new_files` beside those
    /// already published.
    fn after(
        &self,
        upstream_version: &str,
        files: BTreeMap<String, String>,
        new_files: &BTreeMap<String, Vec<u8>>,
    ) -> Manifest {
        Manifest {
            version: "1".into(),
            written_by: "energyboard import".into(),
            upstream_version: Some(upstream_version.to_owned()),
            files,
            slugs: self
                .slugs
                .clone()
                .into_iter()
                .chain(slugs_of(new_files))
                .collect(),
        }
    }
}

/// The change history file with `entry` appended to `previous` (or as its
/// first entry), checked as the build would check it.
fn history_with(previous: Option<ChangeHistory>, entry: ChangeEntry) -> Result<Vec<u8>> {
    let mut history = previous.unwrap_or_else(|| ChangeHistory {
        version: "1".into(),
        entries: Vec::new(),
    });
    history.entries.push(entry);
    let problems = crate::load::validate_history(Path::new(changes::FILE_NAME), &history);
    if let Some(p) = problems.first() {
        bail!(
            "the change history would not be valid (nothing written): {}: {}",
            p.field,
            p.message
        );
    }
    json_file(&history, "the change history")
}

/// Stages the import's result beside the data folder, validates it, adds
/// the change-log entry and the new manifest, then swaps it in.
fn stage_and_swap(swap: &Swap<'_>, report: &mut ImportReport) -> Result<()> {
    let Swap {
        opts,
        stage,
        manifest,
        new_files,
        source_label,
        dates,
    } = *swap;
    let data_dir = &opts.data_dir;
    let tree = stage.path().join(TREE);
    let touched: Vec<&str> = report
        .files()
        .map(String::as_str)
        .chain([changes::FILE_NAME])
        .collect();
    overlay(data_dir, &tree, &touched)?;
    for rel in report.added.iter().chain(&report.changed) {
        write_file(&tree.join(rel), &new_files[rel])?;
    }
    if let Some(history) = read_existing(&data_dir.join(changes::FILE_NAME))? {
        write_file(&tree.join(changes::FILE_NAME), &history)?;
    }
    let id = opts.source.as_ref().map(|s| s.id.as_str());
    let after = load_staged(
        &tree,
        id,
        &[(&tree, data_dir)],
        "the imported data would not be valid",
    )?;
    if let Some(source) = &opts.source {
        check_beside_others(data_dir, &tree, &stage.path().join(WHOLE), &source.id)?;
    }
    let before = load_for_changes(data_dir, id)?;
    crate::write::stop_point()?;

    let entry = ChangeEntry {
        upstream_version: report.upstream_version.clone(),
        previous_upstream_version: manifest.upstream_version.clone(),
        imported: dates.retrieved.clone(),
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
        let existed = before.changes.is_some();
        let bytes = history_with(before.changes.map(|c| c.history), entry.clone())?;
        write_file(&tree.join(changes::FILE_NAME), &bytes)?;
        files.insert(changes::FILE_NAME.to_owned(), digest(&bytes));
        let list = if existed {
            &mut report.changed
        } else {
            &mut report.added
        };
        list.push(changes::FILE_NAME.to_owned());
        report.entry = Some(entry);
    }
    let new_manifest = manifest.after(&report.upstream_version, files, new_files);
    write_file(
        &stage.path().join(NEW_MANIFEST),
        &json_file(&new_manifest, "the manifest")?,
    )?;
    crate::write::stop_point()?;
    swap_in(data_dir, stage.path(), report)
}

/// A JSON file of the import's own: two-space indents, a newline at the end.
fn json_file(value: &impl Serialize, what: &str) -> Result<Vec<u8>> {
    let mut bytes =
        serde_json::to_vec_pretty(value).with_context(|| format!("cannot write {what}"))?;
    bytes.push(b'\n');
    Ok(bytes)
}

/// `<workload>/<slug>` → the upstream model id, of each model file of
/// `files` (the manifests of earlier versions did not list them).
fn slugs_of(files: &BTreeMap<String, Vec<u8>>) -> impl Iterator<Item = (String, String)> + '_ {
    let history = format!("{}/", crate::model::HISTORY_DIR);
    files
        .iter()
        .filter(move |(rel, _)| !rel.starts_with(&history))
        .filter_map(|(rel, bytes)| {
            let doc: Value = serde_json::from_slice(bytes).ok()?;
            Some((
                rel.strip_suffix(".json")?.to_owned(),
                doc.get("model_id")?.as_str()?.to_owned(),
            ))
        })
}

/// Moves the staged files into the data folder, the new manifest last;
/// any failure moves back what was moved, so the folder ends as it was. A
/// process killed halfway leaves the plan, from which the next import
/// undoes it ([`recover`]).
fn swap_in(data_dir: &Path, staging: &Path, report: &ImportReport) -> Result<()> {
    let tree = staging.join(TREE);
    let backup = staging.join(OLD);
    let plan = swap_plan(data_dir, &tree, report)?;
    write_durably(
        &staging.join(PLAN),
        &serde_json::to_vec(&plan).context("cannot write the plan")?,
    )?;
    // For the test that stops an import halfway through its swap: the number
    // of moves after which the process aborts, as `kill -9` would stop it.
    let abort_after: Option<usize> = std::env::var("ENERGYBOARD_TEST_ABORT_AFTER_MOVES")
        .ok()
        .and_then(|n| n.parse().ok());
    let mut moves = 0usize;
    let mut mv = |from: &Path, to: &Path, shown: &Path, what: &str| -> Result<()> {
        if let Some(parent) = to.parent() {
            std::fs::create_dir_all(parent)?;
        }
        std::fs::rename(from, to).with_context(|| format!("{}: cannot {what}", shown.display()))?;
        moves += 1;
        if abort_after == Some(moves) {
            std::process::abort();
        }
        Ok(())
    };
    // (target, backup copy if the target existed)
    let mut done: Vec<(PathBuf, Option<PathBuf>)> = Vec::new();
    let result = (report
        .added
        .iter()
        .chain(&report.changed)
        .map(|rel| (rel, true)))
    .chain(report.removed.iter().map(|rel| (rel, false)))
    .try_for_each(|(rel, replace)| {
        let target = data_dir.join(rel);
        let saved = backup.join(rel);
        let had = std::fs::symlink_metadata(&target).is_ok();
        if had {
            mv(&target, &saved, &target, "move aside")?;
        }
        done.push((target.clone(), had.then_some(saved)));
        if replace {
            mv(&tree.join(rel), &target, &target, "move in")?;
        }
        Ok(())
    })
    .and_then(|()| {
        // The commit point: once the new manifest is in, the import is done.
        std::fs::rename(staging.join(NEW_MANIFEST), data_dir.join(MANIFEST))
            .with_context(|| format!("{}: cannot write", data_dir.join(MANIFEST).display()))
    });
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
        remove_empty_parent(data_dir, rel);
    }
    Ok(())
}

/// The plan of a swap, with the digest of each file it moves; the staging
/// folder's links (the validation's view of the rest of the data folder)
/// go first, so that what recovery may find holds no link.
fn swap_plan(data_dir: &Path, tree: &Path, report: &ImportReport) -> Result<SwapPlan> {
    let whole = tree.with_file_name(WHOLE);
    if whole.exists() {
        std::fs::remove_dir_all(&whole)
            .with_context(|| format!("{}: cannot remove", whole.display()))?;
    }
    let links: Vec<PathBuf> = walkdir::WalkDir::new(tree)
        .into_iter()
        .filter_map(Result::ok)
        .filter(walkdir::DirEntry::path_is_symlink)
        .map(walkdir::DirEntry::into_path)
        .collect();
    for link in links {
        std::fs::remove_file(&link)
            .with_context(|| format!("{}: cannot remove", link.display()))?;
    }
    let mut plan = SwapPlan {
        added: report.added.clone(),
        changed: report.changed.clone(),
        removed: report.removed.clone(),
        ..SwapPlan::default()
    };
    for rel in report.files() {
        if let Some(bytes) = read_existing(&data_dir.join(rel))? {
            plan.before.insert(rel.clone(), digest(&bytes));
        }
        if let Some(bytes) = read_existing(&tree.join(rel))? {
            plan.after.insert(rel.clone(), digest(&bytes));
        }
    }
    Ok(plan)
}

/// Writes `bytes` to `path` and waits until they are on disk.
fn write_durably(path: &Path, bytes: &[u8]) -> Result<()> {
    (std::fs::File::create(path).and_then(|mut file| file.write_all(bytes).and(file.sync_all())))
        .with_context(|| format!("{}: cannot write", path.display()))
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
        assert!(owned_path("gpqa/x.json"));
        for bad in [
            "",
            "../x.json",
            "/etc/passwd",
            "a//b",
            ".hidden",
            "a/../b",
            "a\\b",
        ] {
            assert!(!owned_path(bad), "{bad}");
        }
    }
}
