//! Reading the leaderboard's published data folder (`public/data` of
//! github.com/ml-energy/leaderboard): `index.json`, `tasks/<task>.json` and
//! `models/<model>__<task>.json`. Every error names the file (and the
//! field, where there is one).

use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use serde_json::Value;

/// Largest upstream JSON file read, in bytes (the largest published task
/// file is about 0.5 MB).
pub const MAX_UPSTREAM_FILE_BYTES: u64 = 64 * 1024 * 1024;

/// One published version of the leaderboard's data.
#[derive(Debug)]
pub struct Upstream {
    /// The folder holding `index.json`.
    pub root: PathBuf,
    /// `index.json`.
    pub index: Value,
    /// `index.json`'s `last_updated`: the data version (`YYYY-MM-DD`).
    pub last_updated: String,
    /// Task ids (the names of `tasks/*.json`), sorted.
    pub tasks: Vec<String>,
}

/// Reads a JSON file of the upstream folder, naming it in every error.
pub fn read_json(root: &Path, rel: &str) -> Result<Value> {
    use std::io::Read;
    let path = root.join(rel);
    let meta = std::fs::metadata(&path).with_context(|| format!("{rel}: cannot read"))?;
    if !meta.is_file() {
        bail!("{rel}: is not a regular file");
    }
    let mut raw = Vec::new();
    std::fs::File::open(&path)
        .and_then(|f| f.take(MAX_UPSTREAM_FILE_BYTES + 1).read_to_end(&mut raw))
        .with_context(|| format!("{rel}: cannot read"))?;
    if raw.len() as u64 > MAX_UPSTREAM_FILE_BYTES {
        bail!(
            "{rel}: is larger than {} MB",
            MAX_UPSTREAM_FILE_BYTES / 1024 / 1024
        );
    }
    serde_json::from_slice(&raw).with_context(|| format!("{rel}: is not valid JSON"))
}

impl Upstream {
    /// Reads `index.json` and lists the task files of `root`.
    pub fn open(root: &Path) -> Result<Self> {
        if !root.join("index.json").is_file() {
            bail!(
                "{}: holds no index.json; --from needs the leaderboard's public/data folder (index.json, tasks/, models/)",
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
                "index.json: last_updated: {} is not a date written YYYY-MM-DD; it is the data version the import records",
                other.map_or_else(|| "missing, which".to_owned(), short_json)
            ),
        };
        if let Some(models) = index.get("models") {
            if !models.is_object() {
                bail!("index.json: models: is not a JSON object");
            }
        }
        let tasks_dir = root.join("tasks");
        let mut tasks = Vec::new();
        let entries = std::fs::read_dir(&tasks_dir)
            .with_context(|| "tasks/: cannot read the folder of task files".to_owned())?;
        for entry in entries {
            let entry = entry.with_context(|| "tasks/: cannot read".to_owned())?;
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
                    "tasks/{}: the task id {id:?} cannot be a workload id (^[a-z0-9][a-z0-9-]*$, at most 64 characters)",
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
        })
    }

    /// The task file of `task`.
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
        if !self.root.join(&rel).is_file() {
            return Ok(None);
        }
        read_json(&self.root, &rel).map(Some)
    }
}

/// A JSON value in a message, shortened.
pub fn short_json(v: &Value) -> String {
    let text = v.to_string();
    if text.chars().count() > 60 {
        let mut short: String = text.chars().take(60).collect();
        short.push('…');
        short
    } else {
        text
    }
}

/// Downloads the repository archive at `url` (https only) and extracts its
/// `public/data` into `into`; returns the extracted `public/data` folder.
///
/// Uses the system's `curl` and `tar` (present on GitHub's runners and on
/// Debian), so the binary carries no TLS stack; extraction takes only
/// members under `*/public/data/`, and GNU tar refuses absolute names and
/// `..`.
pub fn fetch_archive(url: &str, into: &Path) -> Result<PathBuf> {
    use std::process::Command;
    if !url.starts_with("https://") || url.chars().any(|c| c.is_control() || c == ' ') {
        bail!("--from {url:?}: a URL must be https:// and hold no spaces or control characters");
    }
    let archive = into.join("archive.tar.gz");
    let status = Command::new("curl")
        .args(["--fail", "--location", "--silent", "--show-error"])
        .args(["--proto", "=https", "--max-filesize", "1000000000"])
        .arg("--output")
        .arg(&archive)
        .arg("--")
        .arg(url)
        .status()
        .context("cannot run curl to download --from")?;
    if !status.success() {
        bail!("--from {url}: the download failed (curl exited with {status})");
    }
    let out = into.join("x");
    std::fs::create_dir_all(&out).context("cannot make a temporary folder")?;
    let status = Command::new("tar")
        .arg("-xzf")
        .arg(&archive)
        .arg("-C")
        .arg(&out)
        .args(["--no-same-owner", "--no-same-permissions", "--wildcards"])
        .arg("*/public/data/*")
        .status()
        .context("cannot run tar to extract --from")?;
    if !status.success() {
        bail!(
            "--from {url}: could not extract public/data from the archive (tar exited with {status}); is it a .tar.gz of ml-energy/leaderboard?"
        );
    }
    for entry in std::fs::read_dir(&out).context("cannot read the extracted archive")? {
        let dir = entry?.path().join("public").join("data");
        if dir.join("index.json").is_file() {
            return Ok(dir);
        }
    }
    bail!("--from {url}: the archive has no public/data/index.json")
}
