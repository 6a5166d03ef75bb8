//! Reading the leaderboard's published data folder (`public/data` of
//! github.com/ml-energy/leaderboard): `index.json`, `tasks/<task>.json` and
//! `models/<model>__<task>.json`. Every error names the file (and the
//! field, where there is one).

use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use serde_json::Value;

/// Largest upstream JSON file read, in bytes: the loader's cap for a model
/// file (the largest published task file is about 0.5 MB; parsing a file
/// takes about twenty times its size in memory).
pub const MAX_UPSTREAM_FILE_BYTES: u64 = crate::load::MAX_FILE_BYTES;

/// Largest archive downloaded for an `https://` `--from`, in bytes (the
/// leaderboard repository's is under 1 MB).
pub const MAX_ARCHIVE_BYTES: u64 = 100 * 1024 * 1024;

/// Most bytes an archive may expand to, all members together (the
/// leaderboard repository's expands to about 5 MB).
pub const MAX_EXPANDED_BYTES: u64 = 1024 * 1024 * 1024;

/// Most files taken from an archive's `public/data` (74 today).
pub const MAX_ARCHIVE_FILES: usize = 10_000;

/// One published version of the leaderboard's data.
#[derive(Debug, Default)]
pub struct Upstream {
    /// The folder holding `index.json`.
    pub root: PathBuf,
    /// `index.json`.
    pub index: Value,
    /// `index.json`'s `last_updated`: the data version (`YYYY-MM-DD`).
    pub last_updated: String,
    /// Task ids (the names of `tasks/*.json`), sorted.
    pub tasks: Vec<String>,
    /// The slugs the data folder has published: `<task>/<slug>` → the
    /// model id it was published for (the import's manifest). A model keeps
    /// its slug, and no other model gets it.
    pub published_slugs: std::collections::BTreeMap<String, String>,
    /// The source beside the leaderboard being imported, if any: new slugs
    /// start with `<id>--` (pages of their own), each file's `source.id` is
    /// its id, and each model's name ends with its label, so whatever names
    /// the model says whose measurement it is.
    pub source: Option<SourceMark>,
}

/// The id and label of a source beside the leaderboard ([`Upstream::source`]).
#[derive(Debug, Clone)]
pub struct SourceMark {
    /// The `[[sources]]` id.
    pub id: String,
    /// What a model's name is marked with, e.g. "Example Lab".
    pub label: String,
}

/// Reads a JSON file of the upstream folder, naming it in every error.
/// Only a regular file inside `root` is read: no symbolic link (on the way
/// or at the end), no device or pipe.
pub fn read_json(root: &Path, rel: &str) -> Result<Value> {
    let path = root.join(rel);
    let mut at = root.to_path_buf();
    for seg in rel.split('/') {
        at.push(seg);
        let meta = std::fs::symlink_metadata(&at).with_context(|| format!("{rel}: cannot read"))?;
        if meta.file_type().is_symlink() {
            bail!(
                "{}: is a symbolic link; --from is read only through its own regular files and \
                    folders",
                at.strip_prefix(root).unwrap_or(&at).display()
            );
        }
    }
    let raw = crate::stage::read_bounded(&path, MAX_UPSTREAM_FILE_BYTES).map_err(|unread| {
        if let crate::stage::Unread::TooLarge(_) = unread {
            anyhow::anyhow!(
                "{rel}: is larger than {} MB",
                MAX_UPSTREAM_FILE_BYTES / 1024 / 1024
            )
        } else {
            anyhow::anyhow!("{rel}: {unread}")
        }
    })?;
    serde_json::from_slice(&raw).with_context(|| format!("{rel}: is not valid JSON"))
}

impl Upstream {
    /// Reads `index.json` and lists the task files of `root`.
    pub fn open(root: &Path) -> Result<Self> {
        if !root.join("index.json").is_file() {
            bail!(
                "{}: holds no index.json; --from needs the leaderboard's public/data folder \
                    (index.json, tasks/, models/)",
                root.display()
            );
        }
        let index = read_json(root, "index.json")?;
        if !index.is_object() {
            bail!("index.json: is not a JSON object");
        }
        let last_updated = match index.get("last_updated") {
            Some(Value::String(s)) if crate::load::limits::is_iso_date(s) => s.clone(),
            other => bail!(
                "index.json: last_updated: {} is not a date written YYYY-MM-DD; it is the data \
                    version the import records",
                other.map_or_else(|| "missing, which".to_owned(), short_json)
            ),
        };
        if index.get("models").is_some_and(|m| !m.is_object()) {
            bail!("index.json: models: is not a JSON object");
        }
        let tasks_dir = root.join("tasks");
        if std::fs::symlink_metadata(&tasks_dir).is_ok_and(|m| !m.is_dir()) {
            bail!(
                "tasks/: is not a folder (a symbolic link?); --from is read only through its own \
                    regular files and folders"
            );
        }
        let mut tasks = Vec::new();
        let entries = std::fs::read_dir(&tasks_dir)
            .context("tasks/: cannot read the folder of task files")?;
        for entry in entries {
            let entry = entry.context("tasks/: cannot read")?;
            let name = entry.file_name();
            let Some(name) = name.to_str() else {
                bail!(
                    "tasks/{}: the file name is not UTF-8",
                    name.to_string_lossy()
                );
            };
            let Some(id) = name.strip_suffix(".json") else {
                continue;
            };
            if !crate::load::is_valid_workload_id(id) {
                bail!(
                    "tasks/{}: the task id {id:?} cannot be a workload id (^[a-z0-9][a-z0-9-]*$, \
                        at most 64 characters)",
                    name.escape_debug()
                );
            }
            tasks.push(id.to_owned());
        }
        tasks.sort();
        if tasks.is_empty() {
            bail!("tasks/: holds no task files (*.json)");
        }
        Ok(Self {
            root: root.to_path_buf(),
            index,
            last_updated,
            tasks,
            ..Self::default()
        })
    }

    /// What every new slug starts with: empty for the leaderboard.
    pub fn slug_prefix(&self) -> String {
        self.source
            .as_ref()
            .map_or_else(String::new, |s| format!("{}--", s.id))
    }

    pub fn task(&self, task: &str) -> Result<Value> {
        read_json(&self.root, &format!("tasks/{task}.json"))
    }

    /// `index.json`'s entry for a model, if any.
    pub fn index_model(&self, model_id: &str) -> Option<&serde_json::Map<String, Value>> {
        self.index
            .get("models")
            .and_then(|m| m.get(model_id))
            .and_then(Value::as_object)
    }

    /// The name of a model's per-task file: `<model id, / as __>__<task>.json`.
    pub fn model_file_name(model_id: &str, task: &str) -> String {
        format!("{}__{task}.json", model_id.replace('/', "__"))
    }

    /// A model's per-task file (`models/…`), when there is one; `Err` when
    /// it exists but cannot be read or parsed.
    pub fn model_file(&self, model_id: &str, task: &str) -> Result<Option<Value>> {
        let name = Self::model_file_name(model_id, task);
        // A model id is a Hugging Face id (owner/name); anything that could
        // leave the models folder is not looked up.
        if name.contains(['\\', '\0']) || name.starts_with('.') {
            return Ok(None);
        }
        let rel = format!("models/{name}");
        if std::fs::symlink_metadata(self.root.join(&rel)).is_err() {
            return Ok(None);
        }
        read_json(&self.root, &rel).map(Some)
    }
}

/// A JSON value in a message, shortened.
pub fn short_json(v: &Value) -> String {
    let text = v.to_string();
    match text.char_indices().nth(60) {
        Some((i, _)) => format!("{}…", &text[..i]),
        None => text,
    }
}

/// Downloads the repository archive at `url` (https only, at most
/// [`MAX_ARCHIVE_BYTES`]) and extracts its `public/data` into `into`;
/// returns the extracted `public/data` folder.
///
/// Uses the system's `curl` (present on GitHub's runners and on Debian), so
/// the binary carries no TLS stack, with URL globbing off; the archive is
/// read in process ([`extract_archive`]).
pub fn fetch_archive(url: &str, into: &Path) -> Result<PathBuf> {
    use std::process::Command;
    if !url.starts_with("https://") || url.chars().any(|c| c.is_control() || c == ' ') {
        bail!("--from {url:?}: a URL must be https:// and hold no spaces or control characters");
    }
    let archive = into.join("archive.tar.gz");
    let status = Command::new("curl")
        .args([
            "--fail",
            "--location",
            "--silent",
            "--show-error",
            "--globoff",
        ])
        .args(["--proto", "=https", "--proto-redir", "=https"])
        .arg("--max-filesize")
        .arg(MAX_ARCHIVE_BYTES.to_string())
        .arg("--output")
        .arg(&archive)
        .arg("--")
        .arg(url)
        .status()
        .context("cannot run curl to download --from")?;
    if !status.success() {
        bail!("--from {url}: the download failed (curl exited with {status})");
    }
    let size = std::fs::metadata(&archive).map_or(0, |m| m.len());
    if size > MAX_ARCHIVE_BYTES {
        bail!(
            "--from {url}: the archive is larger than {} MB",
            MAX_ARCHIVE_BYTES / 1024 / 1024
        );
    }
    extract_archive(&archive, &into.join("x")).with_context(|| format!("--from {url}"))
}

/// Extracts the `public/data` of a repository archive (`.tar.gz`, one top
/// folder) into `out`, a new folder, and returns that `public/data`.
///
/// Only regular files and folders under `<top>/public/data/` are taken; a
/// symbolic or hard link, device or other special member there stops it,
/// as do a member path that is not plain (`..`, absolute), more than
/// [`MAX_ARCHIVE_FILES`] files, a file larger than
/// [`MAX_UPSTREAM_FILE_BYTES`], or more than [`MAX_EXPANDED_BYTES`] in all.
pub fn extract_archive(archive: &Path, out: &Path) -> Result<PathBuf> {
    let file = std::fs::File::open(archive)
        .with_context(|| format!("{}: cannot read", archive.display()))?;
    let stream = Bounded {
        inner: flate2::read::GzDecoder::new(file),
        left: MAX_EXPANDED_BYTES,
    };
    let mut tar = tar::Archive::new(stream);
    std::fs::create_dir(out).with_context(|| format!("{}: cannot create", out.display()))?;
    let data = out.join("public").join("data");
    let mut files = 0usize;
    let mut top: Option<String> = None;
    let entries = tar
        .entries()
        .context("is not a .tar.gz archive of ml-energy/leaderboard")?;
    for entry in entries {
        let mut entry = entry.context("the archive cannot be read")?;
        let name = String::from_utf8_lossy(&entry.path_bytes()).into_owned();
        let mut segments = name.trim_end_matches('/').split('/');
        let first = segments.next().unwrap_or_default().to_owned();
        let rest: Vec<&str> = segments.collect();
        let Some(inside) = rest
            .strip_prefix(&["public", "data"][..])
            .filter(|_| top.get_or_insert_with(|| first.clone()) == &first)
        else {
            continue;
        };
        if inside.is_empty() {
            continue;
        }
        let rel = inside.join("/");
        let Some(rel_path) = crate::stage::relative_path(&rel) else {
            bail!("archive member {name:?}: is not a plain path inside public/data");
        };
        let kind = entry.header().entry_type();
        if kind.is_dir() {
            std::fs::create_dir_all(data.join(&rel_path))
                .with_context(|| format!("archive member {name}: cannot extract"))?;
            continue;
        }
        if !kind.is_file() {
            let what = match () {
                () if kind.is_symlink() => "symbolic link",
                () if kind.is_hard_link() => "hard link",
                () => "special file",
            };
            bail!(
                "archive member {name:?}: is a {what}, not a regular file; only regular files \
                    are read from public/data"
            );
        }
        files += 1;
        if files > MAX_ARCHIVE_FILES {
            bail!("public/data holds more than {MAX_ARCHIVE_FILES} files");
        }
        extract_file(&mut entry, &name, &data.join(&rel_path))?;
    }
    if !data.join("index.json").is_file() {
        bail!(
            "the archive has no public/data/index.json; is it a .tar.gz of ml-energy/leaderboard?"
        );
    }
    Ok(data)
}

/// Writes the regular file `entry` (the archive's member `name`) to
/// `target`, which must not exist yet, within the size allowed.
fn extract_file<R: std::io::Read>(
    entry: &mut tar::Entry<'_, R>,
    name: &str,
    target: &Path,
) -> Result<()> {
    use std::io::Read;
    let size = entry.header().size().unwrap_or(u64::MAX);
    if size > MAX_UPSTREAM_FILE_BYTES {
        bail!(
            "archive member {name}: is larger than {} MB",
            MAX_UPSTREAM_FILE_BYTES / 1024 / 1024
        );
    }
    if let Some(parent) = target.parent() {
        std::fs::create_dir_all(parent)
            .with_context(|| format!("archive member {name}: cannot extract"))?;
    }
    let mut file = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(target)
        .with_context(|| {
            format!("archive member {name}: cannot extract (twice in the archive?)")
        })?;
    std::io::copy(&mut entry.take(MAX_UPSTREAM_FILE_BYTES), &mut file)
        .with_context(|| format!("archive member {name}: cannot extract"))?;
    Ok(())
}

/// A reader that fails once more than `left` bytes came through (the expansion bound).
struct Bounded<R> {
    inner: R,
    left: u64,
}

impl<R: std::io::Read> std::io::Read for Bounded<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.left = self.left.checked_sub(n as u64).ok_or_else(|| {
            std::io::Error::other(format!(
                "it expands to more than {} MB",
                MAX_EXPANDED_BYTES / 1024 / 1024
            ))
        })?;
        Ok(n)
    }
}
