//! Loading: finds every model file under the data folder, parses it into
//! typed structs and validates it. This is the only stage that reads input
//! files. Every problem names the file and the field; one run reports every
//! bad file, not only the first.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::path::{Path, PathBuf};

use rayon::prelude::*;
use walkdir::WalkDir;

use crate::analyse;
use crate::model::{
    Configuration, DiffusionFile, Measured, Measurements, ModelFile, ModelFrame, row_anchor,
    url_segment,
};

mod changes;
mod diffusion;

pub mod limits;

pub use changes::{LoadedChanges, read_changes_file, validate_history};

/// Largest model file accepted, in bytes. The seed files are about 25 kB.
pub const MAX_FILE_BYTES: u64 = 16 * 1024 * 1024;

/// One validated model file and where it came from: a per-token
/// [`ModelFile`] or a [`DiffusionFile`].
#[derive(Debug, Clone)]
pub struct LoadedModel<F = ModelFile> {
    /// The path the file was read from, as found under the data folder.
    pub path: PathBuf,
    /// The file's size in bytes when it was validated; the file itself is
    /// published unchanged on the downloads page (copied, not kept in memory).
    pub len: u64,
    /// [`content_digest`] of the bytes that were validated: the writer
    /// publishes the file only if it still has them.
    pub digest: u64,
    /// The parsed, validated contents.
    pub file: F,
    /// The workload's id (see [`ModelFile::workload_ref`]), a valid path
    /// segment.
    pub workload: String,
    /// The workload's display name as the file gives it.
    pub workload_name: String,
}

impl<F: ModelFrame> LoadedModel<F> {
    /// A model validated from `raw`, the bytes read from `path`.
    fn new(path: &Path, raw: &[u8], file: F) -> Self {
        let (workload, workload_name) = workload_of(&file).unwrap_or_default();
        Self {
            path: path.to_path_buf(),
            len: raw.len() as u64,
            digest: content_digest(raw),
            file,
            workload,
            workload_name,
        }
    }
}

/// A loaded model file of either kind.
#[derive(Debug, Clone)]
pub enum AnyModel {
    /// A per-token file (no `kind`).
    Tokens(LoadedModel),
    /// A diffusion file (`kind` image or video).
    Diffusion(LoadedModel<DiffusionFile>),
}

/// Everything found in the data folder.
#[derive(Debug, Clone, Default)]
pub struct DataSet {
    /// Valid per-token model files, ordered by slug, then workload id.
    pub models: Vec<LoadedModel>,
    /// Valid diffusion model files, ordered by slug, then workload id.
    pub diffusion: Vec<LoadedModel<DiffusionFile>>,
    /// Files that are not model files (not `*.json`) and were skipped.
    pub skipped: Vec<PathBuf>,
    /// The change history (`changes.json` at the top of the data folder,
    /// [`crate::changes::FILE_NAME`]), when there is one, with where it was
    /// read from so that it is published unchanged.
    pub changes: Option<LoadedChanges>,
}

/// One problem with one file: which file, which field, what is wrong.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    /// The file (or folder) at fault.
    pub path: PathBuf,
    /// The JSON path of the field, e.g. `configurations[3].median_itl_ms`,
    /// or `(file)` for a problem with the whole file.
    pub field: String,
    /// What is wrong, in words.
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
        let files: BTreeSet<&Path> = self.0.iter().map(|p| p.path.as_path()).collect();
        writeln!(
            f,
            "{} problem{} in {} file{}:",
            self.0.len(),
            if self.0.len() == 1 { "" } else { "s" },
            files.len(),
            if files.len() == 1 { "" } else { "s" }
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
                "\n  … and {} more problem{} in {} file{} not listed",
                rest.len(),
                if rest.len() == 1 { "" } else { "s" },
                more_files.len(),
                if more_files.len() == 1 { "" } else { "s" }
            )?;
        }
        Ok(())
    }
}

impl std::error::Error for Problems {}

fn problem(path: &Path, field: impl Into<String>, message: impl Into<String>) -> Problem {
    Problem {
        path: path.to_path_buf(),
        field: field.into(),
        message: message.into(),
    }
}

/// Loads and validates every model file under `data_dir`.
///
/// Walks the folder recursively in file-name order, following symbolic
/// links (a loop is an error). Hidden files and folders are ignored; other
/// files that do not end in `.json` are listed in [`DataSet::skipped`].
pub fn load_data_dir(data_dir: &Path) -> Result<DataSet, Problems> {
    load_data_dir_reusing(data_dir, &|_| None)
}

/// [`load_data_dir`], taking a model file's parsed and validated contents
/// from `reuse` instead of reading the file when it gives them (a preview
/// that knows the file has not changed since it last read it); every check
/// across files runs as usual.
pub fn load_data_dir_reusing(
    data_dir: &Path,
    reuse: &(dyn Fn(&Path) -> Option<AnyModel> + Sync),
) -> Result<DataSet, Problems> {
    let mut problems = Vec::new();
    let mut models = Vec::new();
    let mut diffusion = Vec::new();
    let mut skipped = Vec::new();
    let mut paths = Vec::new();
    let mut changes = None;

    match std::fs::metadata(data_dir) {
        Ok(meta) if meta.is_dir() => {}
        Ok(_) => {
            return Err(Problems(vec![problem(
                data_dir,
                "(folder)",
                "is not a folder; pass the folder that holds the model files with --data",
            )]));
        }
        Err(err) => {
            return Err(Problems(vec![problem(
                data_dir,
                "(folder)",
                format!("cannot read the data folder: {err}"),
            )]));
        }
    }

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
                problems.push(problem(&path, "(file)", message));
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
                problems.push(problem(
                    path,
                    "(file)",
                    "is a folder, not a model file; rename it so it does not end in .json",
                ));
            }
            continue;
        }
        if !is_json {
            skipped.push(path.to_path_buf());
            continue;
        }
        if !entry.file_type().is_file() {
            problems.push(problem(
                path,
                "(file)",
                "is not a regular file (a device, pipe or socket?); a model file must be a plain file",
            ));
            continue;
        }
        if entry.depth() == 1 && entry.file_name() == crate::changes::FILE_NAME {
            match read_changes_file(path) {
                Ok(loaded) => changes = Some(loaded),
                Err(mut file_problems) => problems.append(&mut file_problems),
            }
            continue;
        }
        paths.push(path.to_path_buf());
    }

    // Read and validate the files on every core; results keep walk order.
    let sources = std::sync::Mutex::new(Vec::new());
    let results: Vec<Result<AnyModel, Vec<Problem>>> = paths
        .par_iter()
        .map(|path| {
            if let Some(model) = reuse(path) {
                return Ok(model);
            }
            let mut model = read_any_model_file(path)?;
            if let Ok(mut seen) = sources.lock() {
                match &mut model {
                    AnyModel::Tokens(m) => share_source(&mut m.file.source, &mut seen),
                    AnyModel::Diffusion(m) => share_source(&mut m.file.source, &mut seen),
                }
            }
            Ok(model)
        })
        .collect();
    for result in results {
        match result {
            Ok(AnyModel::Tokens(model)) => models.push(model),
            Ok(AnyModel::Diffusion(model)) => diffusion.push(model),
            Err(mut file_problems) => problems.append(&mut file_problems),
        }
    }

    check_across_files(&models, &diffusion, &mut problems);

    if models.is_empty() && diffusion.is_empty() && problems.is_empty() {
        problems.push(problem(
            data_dir,
            "(folder)",
            "holds no model files (*.json); add at least one",
        ));
    }
    if !problems.is_empty() {
        return Err(Problems(problems));
    }
    models.sort_by(|a, b| {
        (a.file.slug.as_str(), a.workload.as_str()).cmp(&(&b.file.slug, &b.workload))
    });
    diffusion.sort_by(|a, b| {
        (a.file.slug.as_str(), a.workload.as_str()).cmp(&(&b.file.slug, &b.workload))
    });
    Ok(DataSet {
        models,
        diffusion,
        skipped,
        changes,
    })
}

/// Lets a model share the `source` block of an earlier model when the two
/// are equal, as they are in every file from one publisher: at 10,000 models
/// the copies alone would take tens of megabytes.
fn share_source(
    source: &mut std::sync::Arc<crate::model::Source>,
    seen: &mut Vec<std::sync::Arc<crate::model::Source>>,
) {
    if let Some(same) = seen.iter().find(|s| **s == *source) {
        *source = std::sync::Arc::clone(same);
    } else if seen.len() < 64 {
        seen.push(std::sync::Arc::clone(source));
    }
}

fn is_hidden(name: &std::ffi::OsStr) -> bool {
    name.to_str().is_some_and(|n| n.starts_with('.'))
}

/// Reads, parses and validates one per-token model file; a diffusion file
/// is refused (see [`read_any_model_file`]).
pub fn read_model_file(path: &Path) -> Result<LoadedModel, Vec<Problem>> {
    match read_any_model_file(path)? {
        AnyModel::Tokens(m) => Ok(m),
        AnyModel::Diffusion(m) => Err(vec![problem(
            path,
            "kind",
            format!(
                "is {:?}: a diffusion file, where a per-token model file was expected",
                m.file.kind.item()
            ),
        )]),
    }
}

/// Reads, parses and validates one model file of either kind: a file with
/// a top-level `kind` is a diffusion file, any other a per-token file.
pub fn read_any_model_file(path: &Path) -> Result<AnyModel, Vec<Problem>> {
    use std::io::Read;
    let cannot_read =
        |err: std::io::Error| vec![problem(path, "(file)", format!("cannot read: {err}"))];
    let too_big = |size: u64| {
        vec![problem(
            path,
            "(file)",
            format!(
                "is {:.1} MB; a model file may be at most {} MB",
                size as f64 / 1e6,
                MAX_FILE_BYTES / 1024 / 1024
            ),
        )]
    };
    let meta = std::fs::metadata(path).map_err(cannot_read)?;
    if !meta.is_file() {
        return Err(vec![problem(
            path,
            "(file)",
            "is not a regular file (a device, pipe or socket?); a model file must be a plain file",
        )]);
    }
    if meta.len() > MAX_FILE_BYTES {
        return Err(too_big(meta.len()));
    }
    // Read at most one byte past the limit, in case the file grew since.
    let mut raw = Vec::with_capacity(meta.len() as usize);
    std::fs::File::open(path)
        .and_then(|f| f.take(MAX_FILE_BYTES + 1).read_to_end(&mut raw))
        .map_err(cannot_read)?;
    if raw.len() as u64 > MAX_FILE_BYTES {
        return Err(too_big(raw.len() as u64));
    }
    let (problems, model) = match parse_any(path, &raw).map_err(|p| vec![p])? {
        ParsedFile::Tokens(file) => (
            validate_model(path, &file),
            AnyModel::Tokens(LoadedModel::new(path, &raw, file)),
        ),
        ParsedFile::Diffusion(file) => (
            diffusion::validate_diffusion(path, &file),
            AnyModel::Diffusion(LoadedModel::new(path, &raw, file)),
        ),
    };
    if problems.is_empty() {
        Ok(model)
    } else {
        Err(problems)
    }
}

/// A file's workload as (id, display name); see [`ModelFile::workload_ref`].
fn workload_of(m: &impl ModelFrame) -> Option<(String, String)> {
    crate::model::workload_ref(m.workload_decl(), m.source())
}

/// A parsed model file of either kind.
#[derive(Debug, Clone)]
pub enum ParsedFile {
    /// A per-token file.
    Tokens(ModelFile),
    /// A diffusion file.
    Diffusion(DiffusionFile),
}

/// Parses the bytes of a model file of either kind: a document with a
/// top-level `kind` is a diffusion file ([`DiffusionFile`]), any other a
/// per-token file ([`parse_model`]). Errors name the field as
/// [`parse_model`] does.
pub fn parse_any(path: &Path, bytes: &[u8]) -> Result<ParsedFile, Problem> {
    match parse_model(path, bytes) {
        Ok(file) if file.kind.is_none() => Ok(ParsedFile::Tokens(file)),
        Ok(_) => parse_as(path, bytes).map(ParsedFile::Diffusion),
        Err(_) if has_kind(bytes) => parse_as(path, bytes).map(ParsedFile::Diffusion),
        Err(err) => Err(err),
    }
}

/// Whether a document that did not parse as a per-token file has a
/// top-level `kind`, so that its errors are the diffusion kind's.
fn has_kind(bytes: &[u8]) -> bool {
    #[derive(serde::Deserialize)]
    struct Probe {
        #[serde(default)]
        kind: Option<serde::de::IgnoredAny>,
    }
    serde_json::from_slice::<Probe>(bytes).is_ok_and(|p| p.kind.is_some())
}

/// A digest of a file's bytes, to tell whether a file is still the one
/// that was validated (SipHash with fixed keys: not a defence against a
/// crafted collision, which the user could only aim at their own data, but
/// any edit, truncation or replacement changes it).
pub fn content_digest(bytes: &[u8]) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut h = std::hash::DefaultHasher::new();
    bytes.hash(&mut h);
    h.finish()
}

/// Deepest nesting of arrays and objects accepted anywhere in a model file,
/// unknown fields included: serde_json's own recursion limit, which
/// [`parse_model`] applies to every value. The seed files nest 3 levels deep.
pub const MAX_NESTING: usize = 128;

/// Parses the bytes of one model file, naming the JSON path of any field
/// that does not fit the format.
///
/// Two passes: the first walks every value (unknown fields too) so that
/// syntax errors, invalid UTF-8 and nesting deeper than [`MAX_NESTING`] are
/// reported with their path; the second reads the typed structs.
pub fn parse_model(path: &Path, bytes: &[u8]) -> Result<ModelFile, Problem> {
    parse_as(path, bytes)
}

/// [`parse_model`] for any typed document.
pub(crate) fn parse_as<T: serde::de::DeserializeOwned>(
    path: &Path,
    bytes: &[u8],
) -> Result<T, Problem> {
    if bytes.starts_with(&[0xEF, 0xBB, 0xBF]) {
        return Err(problem(
            path,
            "(file)",
            "starts with a UTF-8 byte-order mark, which JSON does not allow; save the file as UTF-8 without BOM",
        ));
    }
    // Fast path for the usual, valid file: one typed parse. Anything odd
    // (invalid UTF-8, deep nesting, any parse error) takes the slow path
    // below, which walks the document first so that every error names its
    // field.
    if std::str::from_utf8(bytes).is_ok() && !needs_careful_parse(bytes) {
        let mut de = serde_json::Deserializer::from_slice(bytes);
        if let Ok(file) = serde_path_to_error::deserialize::<_, T>(&mut de) {
            if de.end().is_ok() {
                return Ok(file);
            }
        }
    }
    let mut de = serde_json::Deserializer::from_slice(bytes);
    let walked = serde_path_to_error::deserialize::<_, AnyValue>(&mut de);
    if let Err(err) = std::str::from_utf8(bytes) {
        let at = err.valid_up_to();
        let line = bytes[..at].iter().filter(|&&b| b == b'\n').count() + 1;
        let field = walked
            .err()
            .map_or_else(|| "(file)".to_owned(), |e| json_path(e.path()));
        return Err(problem(
            path,
            field,
            format!("is not valid UTF-8: invalid byte at offset {at} (line {line})"),
        ));
    }
    if let Err(err) = walked {
        return Err(problem(
            path,
            json_path(err.path()),
            describe_json_error(err.inner()),
        ));
    }
    if let Err(err) = de.end() {
        return Err(problem(path, "(file)", describe_json_error(&err)));
    }
    let mut de = serde_json::Deserializer::from_slice(bytes);
    serde_path_to_error::deserialize(&mut de).map_err(|err| {
        let mut field = json_path(err.path());
        if let Some(missing) = missing_field(err.inner()) {
            field = if field == "(file)" {
                missing
            } else {
                format!("{field}.{missing}")
            };
        }
        problem(path, field, describe_json_error(err.inner()))
    })
}

/// Any JSON value, walked and thrown away. Unlike
/// [`serde::de::IgnoredAny`] it goes through `deserialize_any`, so
/// serde_json's nesting limit applies.
/// Whether a document may hold what only the careful walk reports well:
/// nesting deeper than 100 levels, or a number that may not fit a float
/// (a run of over 300 digits, or an exponent of three digits or more).
/// Counted cheaply, outside strings.
fn needs_careful_parse(bytes: &[u8]) -> bool {
    let mut depth = 0usize;
    let (mut in_string, mut escaped) = (false, false);
    let mut digits = 0usize;
    let mut exponent_digits: Option<usize> = None;
    for &b in bytes {
        if in_string {
            if escaped {
                escaped = false;
            } else if b == b'\\' {
                escaped = true;
            } else if b == b'"' {
                in_string = false;
            }
            continue;
        }
        if b.is_ascii_digit() {
            digits += 1;
            if let Some(n) = exponent_digits.as_mut() {
                *n += 1;
            }
            if digits > 300 || exponent_digits.is_some_and(|n| n >= 3) {
                return true;
            }
            continue;
        }
        match b {
            b'e' | b'E' if digits > 0 => exponent_digits = Some(0),
            b'+' | b'-' if exponent_digits == Some(0) => {}
            _ => {
                digits = 0;
                exponent_digits = None;
            }
        }
        match b {
            b'"' => in_string = true,
            b'[' | b'{' => {
                depth += 1;
                if depth > 100 {
                    return true;
                }
            }
            b']' | b'}' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    false
}

struct AnyValue;

impl<'de> serde::Deserialize<'de> for AnyValue {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(AnyValueVisitor)
    }
}

struct AnyValueVisitor;

impl<'de> serde::de::Visitor<'de> for AnyValueVisitor {
    type Value = AnyValue;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }
    fn visit_bool<E>(self, _: bool) -> Result<AnyValue, E> {
        Ok(AnyValue)
    }
    fn visit_i64<E>(self, _: i64) -> Result<AnyValue, E> {
        Ok(AnyValue)
    }
    fn visit_u64<E>(self, _: u64) -> Result<AnyValue, E> {
        Ok(AnyValue)
    }
    fn visit_f64<E>(self, _: f64) -> Result<AnyValue, E> {
        Ok(AnyValue)
    }
    fn visit_str<E>(self, _: &str) -> Result<AnyValue, E> {
        Ok(AnyValue)
    }
    fn visit_unit<E>(self) -> Result<AnyValue, E> {
        Ok(AnyValue)
    }
    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<AnyValue, A::Error> {
        while seq.next_element::<AnyValue>()?.is_some() {}
        Ok(AnyValue)
    }
    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<AnyValue, A::Error> {
        while map.next_entry::<String, AnyValue>()?.is_some() {}
        Ok(AnyValue)
    }
}

/// A JSON path as readers write it, e.g. `configurations[3].median_itl_ms`;
/// `(file)` for the document itself. Segments serde could not name are left
/// out, and a very deep path is cut short.
fn json_path(path: &serde_path_to_error::Path) -> String {
    use serde_path_to_error::Segment;
    const SHOWN: usize = 12;
    let mut out = String::new();
    let segments: Vec<&Segment> = path
        .iter()
        .filter(|s| !matches!(s, Segment::Unknown))
        .collect();
    for segment in segments.iter().take(SHOWN) {
        match segment {
            Segment::Seq { index } => out.push_str(&format!("[{index}]")),
            Segment::Map { key } | Segment::Enum { variant: key } => {
                push_key(&mut out, key);
            }
            Segment::Unknown => {}
        }
    }
    if segments.len() > SHOWN {
        out.push('…');
    }
    if out.is_empty() {
        "(file)".to_owned()
    } else {
        out
    }
}

/// Appends an object key to a JSON path: `.key`, or `["key"]` with escapes
/// when the key holds control characters (which would otherwise reach the
/// terminal raw) or is empty.
fn push_key(path: &mut String, key: &str) {
    if key.is_empty() || key.chars().any(char::is_control) {
        path.push_str(&format!("[{key:?}]"));
    } else {
        if !path.is_empty() {
            path.push('.');
        }
        path.push_str(key);
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

/// The name in serde's "missing field `x`" error, if that is what `err` is.
fn missing_field(err: &serde_json::Error) -> Option<String> {
    let message = bare_message(err);
    let name = message.strip_prefix("missing field `")?.strip_suffix('`')?;
    Some(name.to_owned())
}

/// serde_json's message without its " at line L column C" suffix.
fn bare_message(err: &serde_json::Error) -> String {
    let full = err.to_string();
    let position = format!(" at line {} column {}", err.line(), err.column());
    full.strip_suffix(&position).unwrap_or(&full).to_owned()
}

/// Rewrites serde's terse messages in a reader's words.
fn describe_json_error(err: &serde_json::Error) -> String {
    let message = bare_message(err);
    let message = message.as_str();
    let located = |m: &str| format!("{m} (line {}, column {})", err.line(), err.column());
    match err.classify() {
        serde_json::error::Category::Syntax => match message {
            "recursion limit exceeded" => located(&format!(
                "arrays and objects are nested more than {MAX_NESTING} levels deep"
            )),
            "number out of range" => {
                located("the number is too large for a 64-bit float (at most about 1.8e308)")
            }
            _ => located(&format!("invalid JSON: {message}")),
        },
        serde_json::error::Category::Eof => located(&format!(
            "the file ends too early (truncated JSON?): {message}"
        )),
        serde_json::error::Category::Io => format!("cannot read: {message}"),
        serde_json::error::Category::Data => {
            if let Some(rest) = message.strip_prefix("invalid type: ") {
                if let Some((found, expected)) = rest.split_once(", expected ") {
                    return located(&format!(
                        "expected {}, found {}",
                        reader_type(expected),
                        reader_value(found)
                    ));
                }
            }
            if let Some(rest) = message.strip_prefix("invalid value: ") {
                if let Some((found, expected)) = rest.split_once(", expected ") {
                    return located(&format!(
                        "expected {}, found {}",
                        reader_type(expected),
                        reader_value(found)
                    ));
                }
            }
            // serde also reads a struct from a list of its fields in order;
            // a short or long list is a list where an object belongs.
            if message.starts_with("invalid length ") && message.contains(", expected struct ") {
                return located("expected an object, found a list");
            }
            if message.starts_with("missing field ") {
                return located("is required but missing");
            }
            // Only diffusion configurations refuse unknown fields.
            if let Some(rest) = message.strip_prefix("unknown field `") {
                if let Some((name, expected)) = rest.split_once("`, expected one of ") {
                    let fields = expected.replace('`', "");
                    return located(
                        &if crate::model::diffusion::PER_TOKEN_FIELDS.contains(&name) {
                            format!(
                                "is a per-token field, which a diffusion configuration must not carry (it gives joules_per_image or joules_per_video and batch_latency_s instead); its fields are {fields}"
                            )
                        } else {
                            format!(
                                "is not a field of a diffusion configuration; its fields are {fields}"
                            )
                        },
                    );
                }
            }
            if let Some(rest) = message.strip_prefix("unknown variant `") {
                if let Some((found, expected)) = rest.split_once("`, expected ") {
                    return located(&format!(
                        "expected {}, found the string \"{found}\"",
                        expected.replace('`', "\"")
                    ));
                }
            }
            located(message)
        }
    }
}

fn reader_type(expected: &str) -> String {
    match expected {
        "f64" | "f32" => "a number".to_owned(),
        "u32" => format!("a whole number from 0 to {}", u32::MAX),
        "u64" => format!("a whole number from 0 to {}", u64::MAX),
        "a sequence" => "a list".to_owned(),
        "a boolean" | "a string" => expected.to_owned(),
        other if other.starts_with("struct ") || other == "a map" => "an object".to_owned(),
        other => other.to_owned(),
    }
}

fn reader_value(found: &str) -> String {
    if let Some(s) = found.strip_prefix("string ") {
        return format!("the string {s}");
    }
    if let Some(n) = found.strip_prefix("integer ") {
        return format!("the number {}", n.trim_matches('`'));
    }
    if let Some(n) = found.strip_prefix("floating point ") {
        return format!("the number {}", n.trim_matches('`'));
    }
    if let Some(b) = found.strip_prefix("boolean ") {
        return format!("the boolean {}", b.trim_matches('`'));
    }
    match found {
        "map" => "an object".to_owned(),
        "sequence" => "a list".to_owned(),
        "null" => "null".to_owned(),
        other => other.to_owned(),
    }
}

/// Slugs that would publish a model's files over a site-wide file
/// (`data/<slug>.csv` of Text Conversation, the address the first site used).
/// The diffusion kinds' site-wide files are reserved too, and `changes`
/// (`data/changes.json` is the published change history).
pub const RESERVED_SLUGS: [&str; 7] = [
    "changes",
    "leaderboard",
    "configurations",
    "leaderboard-image",
    "configurations-image",
    "leaderboard-video",
    "configurations-video",
];

/// Anchors a model page gives its own sections; a row anchor may not be one
/// of them, nor start like a GPU card, GPU table or chart anchor.
const PAGE_ANCHORS: [&str; 24] = [
    "main",
    "best",
    "best-h",
    "budgets",
    "budgets-caption",
    "budgets-h",
    "budgets-section",
    "charts",
    "charts-h",
    "cite",
    "cite-h",
    "configurations",
    "configurations-h",
    "embed",
    "embed-h",
    "history",
    "history-h",
    "provenance",
    "provenance-h",
    "response",
    "response-h",
    "response-energy",
    "response-energy-caption",
    "footprint-note",
];
const PAGE_ANCHOR_PREFIXES: [&str; 4] = ["gpu-", "configs-", "table-", "chart-"];

/// What a row anchor would clash with on its model page, if anything.
fn page_anchor_clash(anchor: &str) -> Option<String> {
    if PAGE_ANCHORS.contains(&anchor) {
        return Some("the page uses for one of its own sections".to_owned());
    }
    PAGE_ANCHOR_PREFIXES
        .iter()
        .find(|p| anchor.starts_with(*p))
        .map(|p| format!("starts with {p:?} like the page's GPU, table and chart anchors"))
}

/// Whether `slug` is a safe path segment: `^[a-z0-9][a-z0-9-]*$`.
pub fn is_valid_slug(slug: &str) -> bool {
    let mut chars = slug.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_lowercase() || c.is_ascii_digit())
        && chars.all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
}

/// Whether `url` is an absolute http(s) address, safe to put in a link.
pub fn is_web_url(url: &str) -> bool {
    let lower = url.to_ascii_lowercase();
    ["https://", "http://"].iter().any(|scheme| {
        lower
            .strip_prefix(scheme)
            .is_some_and(|rest| !rest.is_empty())
    })
}

/// How far `wh_per_million_output_tokens` may sit from
/// `joules_per_output_token × 1e6 / 3600`: half a unit in the second decimal
/// (the published rounding) plus 0.01 % of the value.
pub fn energy_tolerance(wh_per_million: f64) -> f64 {
    0.005 + 1e-4 * wh_per_million.abs()
}

/// Checks one parsed file for values that cannot be right.
pub fn validate_model(path: &Path, m: &ModelFile) -> Vec<Problem> {
    let mut out = Vec::new();
    let mut bad = |field: String, message: String| out.push(problem(path, field, message));

    let deadline = limits::Deadline {
        field: "itl_deadline_ms",
        max: limits::MAX_LATENCY_MS,
        unit: " ms",
    };
    validate_frame(&mut bad, m, &deadline);
    validate_row_ids(&mut bad, m);
    for (i, c) in m.configurations.iter().enumerate() {
        let at = format!("configurations[{i}]");
        let row = format!(" (row {})", shown(&c.row_id));
        validate_configuration(&mut bad, &at, &row, c);
        if c.median_itl_ms.is_finite() && m.itl_deadline_ms.is_finite() {
            let under = c.median_itl_ms <= m.itl_deadline_ms;
            if under != c.under_itl_deadline {
                bad(
                    format!("{at}.under_itl_deadline"),
                    format!(
                        "is {} but median_itl_ms {} is {} the deadline itl_deadline_ms {}{row}",
                        c.under_itl_deadline,
                        limits::number(c.median_itl_ms),
                        if under { "within" } else { "above" },
                        limits::number(m.itl_deadline_ms)
                    ),
                );
            }
        }
    }

    if !out.is_empty() {
        return out;
    }
    let deadline = format!("{} ms", m.itl_deadline_ms);
    let words = BestWords {
        deadline: &deadline,
        latency: "median ITL",
        energy: "Wh/M",
    };
    check_best(path, m, &m.best, &words, &mut out);
    out
}

/// Checks the frame every model file shares, whatever it measures: slug,
/// texts, dates, names, workload, source addresses, the deadline, the
/// parameters, the GPU list and that there are configurations.
fn validate_frame<M: Measurements>(
    bad: &mut impl FnMut(String, String),
    m: &M,
    deadline: &limits::Deadline,
) {
    if !is_valid_slug(m.slug()) {
        bad(
            "slug".into(),
            format!(
                "{:?} is not a valid slug: use lower-case letters, digits and '-', starting with a letter or digit (it becomes a URL path)",
                m.slug()
            ),
        );
    }
    limits::check_model_texts(bad, m);
    limits::check_dates(bad, m);
    limits::check_model_ranges(bad, m, deadline);
    for (field, value) in [("name", m.name()), ("model_id", m.model_id())] {
        if value.trim().is_empty() {
            bad(field.into(), "must not be empty".into());
        }
    }
    if RESERVED_SLUGS.contains(&m.slug()) {
        bad(
            "slug".into(),
            format!(
                "{:?} is reserved: data/{}.{} is a site-wide download; choose another slug",
                m.slug(),
                m.slug(),
                if m.slug() == "changes" { "json" } else { "csv" }
            ),
        );
    }
    check_workload(bad, m);
    let urls = [
        ("url", Some(&m.source().url)),
        ("cite_url", Some(&m.source().cite_url)),
    ];
    let urls = urls
        .into_iter()
        .chain([("data_url", m.source().data_url.as_ref())]);
    for (field, url) in urls {
        if let Some(url) = url.filter(|u| !is_web_url(u)) {
            bad(
                format!("source.{field}"),
                format!("{url:?} is not a web address; it must start with https:// or http://"),
            );
        }
    }
    positive(bad, deadline.field, m.deadline(), "");
    positive(bad, "params_b", m.params_b(), "");
    positive(bad, "active_params_b", m.active_params_b(), "");
    if m.active_params_b().is_finite()
        && m.params_b().is_finite()
        && m.active_params_b() > m.params_b()
    {
        bad(
            "active_params_b".into(),
            format!(
                "active parameters ({}) exceed total parameters ({})",
                limits::number(m.active_params_b()),
                limits::number(m.params_b())
            ),
        );
    }

    if m.gpus().is_empty() {
        bad("gpus".into(), "must list at least one GPU".into());
    }
    let mut gpu_segments: BTreeMap<String, &str> = BTreeMap::new();
    for (i, gpu) in m.gpus().iter().enumerate() {
        let seg = url_segment(gpu);
        if seg.is_empty() {
            bad(
                format!("gpus[{i}]"),
                format!("{gpu:?} has no letters or digits; a GPU name becomes a URL path"),
            );
        } else if seg.ends_with("-h") || seg.ends_with("-caption") {
            // #gpu-<seg>-h and #table-<seg>-caption are the page's own
            // anchors for another GPU's card heading and table caption.
            bad(
                format!("gpus[{i}]"),
                format!(
                    "{gpu:?} ends like the page's heading and caption anchors (#gpu-{seg}); name the GPU without a trailing \"H\" or \"caption\" word"
                ),
            );
        } else if let Some(other) = gpu_segments.insert(seg.clone(), gpu) {
            bad(
                format!("gpus[{i}]"),
                format!("{gpu:?} repeats {other:?} (both become /gpus/{seg}/)"),
            );
        }
    }

    if m.configurations().is_empty() {
        bad(
            "configurations".into(),
            "is empty; a model file needs at least one measured configuration".into(),
        );
    }
}

/// Checks what identifies each configuration: its GPU is in the file's
/// list, its `row_id` is there, unique and gives a page anchor of its own.
fn validate_row_ids<M: Measurements>(bad: &mut impl FnMut(String, String), m: &M) {
    let mut row_ids: BTreeMap<&str, usize> = BTreeMap::new();
    let mut anchors: BTreeMap<String, usize> = BTreeMap::new();
    for (i, c) in m.configurations().iter().enumerate() {
        let at = format!("configurations[{i}]");
        let row = format!(" (row {})", shown(c.row_id()));
        if !m.gpus().iter().any(|g| g == c.gpu()) {
            bad(
                format!("{at}.gpu"),
                format!(
                    "{:?} is not in the file's gpus list {:?}{row}",
                    c.gpu(),
                    m.gpus()
                ),
            );
        }
        if c.row_id().trim().is_empty() {
            bad(format!("{at}.row_id"), "must not be empty".into());
        } else if let Some(first) = row_ids.insert(c.row_id(), i) {
            bad(
                format!("{at}.row_id"),
                format!(
                    "duplicate row_id {:?}: configurations[{first}] has it too",
                    c.row_id()
                ),
            );
        } else {
            let anchor = row_anchor(m.slug(), c.row_id());
            if let Some(clash) = page_anchor_clash(&anchor) {
                bad(
                    format!("{at}.row_id"),
                    format!(
                        "{:?} gives the page anchor #{anchor}, which {clash}; change the row_id",
                        c.row_id()
                    ),
                );
            } else if let Some(first) = anchors.insert(anchor.clone(), i) {
                bad(
                    format!("{at}.row_id"),
                    format!(
                        "{:?} and configurations[{first}].row_id give the same page anchor #{anchor}",
                        c.row_id()
                    ),
                );
            }
        }
    }
}

/// Longest workload id accepted; the ids the leaderboard uses are at most 15
/// characters.
pub const MAX_WORKLOAD_ID: usize = 64;

/// The file must name its workload with an id that is a safe path segment.
fn check_workload(bad: &mut impl FnMut(String, String), m: &impl ModelFrame) {
    let field = if m.workload_decl().is_some() {
        "workload.id"
    } else {
        "source.workload"
    };
    match workload_of(m) {
        None => bad(
            field.into(),
            format!(
                "{:?} names no workload id: end it with the id in parentheses, e.g. \"Text Conversation (lm-arena-chat)\", or add a top-level \"workload\" object with id, name and description",
                m.source().workload
            ),
        ),
        Some((id, name)) => {
            if !is_valid_slug(&id) || id.len() > MAX_WORKLOAD_ID {
                bad(
                    field.into(),
                    format!(
                        "workload id {id:?} is not a valid path segment: use 1 to {MAX_WORKLOAD_ID} lower-case letters, digits and '-', starting with a letter or digit (it becomes the URL /workloads/<id>/)"
                    ),
                );
            }
            if name.trim().is_empty() {
                bad(
                    if m.workload_decl().is_some() {
                        "workload.name"
                    } else {
                        "source.workload"
                    }
                    .into(),
                    "the workload's name must not be empty".into(),
                );
            }
        }
    }
}

fn positive(bad: &mut impl FnMut(String, String), field: &str, value: f64, row: &str) {
    if !value.is_finite() {
        bad(field.into(), format!("must be a finite number{row}"));
    } else if value <= 0.0 {
        bad(
            field.into(),
            format!(
                "must be greater than zero, found {}{row}",
                limits::number(value)
            ),
        );
    }
}

fn validate_configuration(
    bad: &mut impl FnMut(String, String),
    at: &str,
    row: &str,
    c: &Configuration,
) {
    for (name, value) in [
        (
            "wh_per_million_output_tokens",
            c.wh_per_million_output_tokens,
        ),
        ("joules_per_output_token", c.joules_per_output_token),
        ("median_itl_ms", c.median_itl_ms),
        ("p90_itl_ms", c.p90_itl_ms),
        ("p95_itl_ms", c.p95_itl_ms),
        ("p99_itl_ms", c.p99_itl_ms),
        ("tokens_per_second", c.tokens_per_second),
        ("gpu_power_watts_total", c.gpu_power_watts_total),
        ("avg_output_tokens", c.avg_output_tokens),
    ] {
        positive(bad, &format!("{at}.{name}"), value, row);
    }
    for (name, value) in [
        ("avg_requests_in_flight", c.avg_requests_in_flight),
        ("avg_running_batch", c.avg_running_batch),
    ] {
        if !value.is_finite() || value < 0.0 {
            bad(
                format!("{at}.{name}"),
                format!(
                    "must be a finite number of 0 or more, found {}{row}",
                    limits::number(value)
                ),
            );
        }
    }
    for (name, value) in [
        ("num_gpus", c.num_gpus),
        ("tensor_parallel", c.tensor_parallel),
        ("data_parallel", c.data_parallel),
        ("expert_parallel", c.expert_parallel),
        ("max_num_seqs", c.max_num_seqs),
        ("repeat", c.repeat),
    ] {
        if value == 0 {
            bad(
                format!("{at}.{name}"),
                format!("must be 1 or more, found 0{row}"),
            );
        }
    }
    if c.precision.trim().is_empty() {
        bad(format!("{at}.precision"), format!("must not be empty{row}"));
    }
    limits::check_configuration(bad, at, row, c);
    if let Some(d) = &c.output_length_distribution {
        check_distribution(bad, &format!("{at}.output_length_distribution"), row, d);
    }
    if let Some(exact) = c.avg_output_tokens_exact {
        let field = format!("{at}.avg_output_tokens_exact");
        if !exact.is_finite() || exact <= 0.0 || exact > limits::MAX_QUANTITY {
            bad(
                field,
                format!(
                    "must be a number above 0 and at most {}, found {}{row}",
                    limits::number(limits::MAX_QUANTITY),
                    limits::number(exact)
                ),
            );
        } else if c.avg_output_tokens.is_finite()
            && (exact - c.avg_output_tokens).abs() > 0.5_f64.max(c.avg_output_tokens * 1e-3)
        {
            bad(
                field,
                format!(
                    "is {exact} but avg_output_tokens is {}; the rounded value must be the exact one rounded{row}",
                    c.avg_output_tokens
                ),
            );
        }
    }
    if c.wh_per_million_output_tokens.is_finite() && c.joules_per_output_token.is_finite() {
        let derived = c.derived_wh_per_million();
        if (derived - c.wh_per_million_output_tokens).abs()
            > energy_tolerance(c.wh_per_million_output_tokens)
        {
            bad(
                format!("{at}.wh_per_million_output_tokens"),
                format!(
                    "is {} but joules_per_output_token {} × 1e6 / 3600 = {derived:.4}; the two disagree beyond rounding{row}",
                    c.wh_per_million_output_tokens, c.joules_per_output_token
                ),
            );
        }
    }
}

/// An output-length histogram needs one more edge than counts, at most
/// [`OutputLengthDistribution::MAX_BINS`] bins, finite edges of 0 or more in
/// strictly ascending order, and at least one response.
pub(crate) fn check_distribution(
    bad: &mut impl FnMut(String, String),
    at: &str,
    row: &str,
    d: &crate::model::OutputLengthDistribution,
) {
    let n = d.counts.len();
    if n == 0 || n > crate::model::OutputLengthDistribution::MAX_BINS {
        bad(
            format!("{at}.counts"),
            format!(
                "must have between 1 and {} bins, found {n}{row}",
                crate::model::OutputLengthDistribution::MAX_BINS
            ),
        );
        return;
    }
    if d.bins.len() != n + 1 {
        bad(
            format!("{at}.bins"),
            format!(
                "must have one more edge than counts has bins ({}), found {}{row}",
                n + 1,
                d.bins.len()
            ),
        );
        return;
    }
    for (i, edge) in d.bins.iter().enumerate() {
        if !edge.is_finite() || *edge < 0.0 {
            bad(
                format!("{at}.bins[{i}]"),
                format!(
                    "must be a finite number of tokens, 0 or more, found {}{row}",
                    limits::number(*edge)
                ),
            );
            return;
        }
        if i > 0 && *edge <= d.bins[i - 1] {
            bad(
                format!("{at}.bins[{i}]"),
                format!(
                    "must be greater than the edge before it ({}), found {}{row}",
                    d.bins[i - 1],
                    edge
                ),
            );
            return;
        }
    }
    if d.counts
        .iter()
        .try_fold(0u64, |a, c| a.checked_add(*c))
        .is_none()
    {
        bad(
            format!("{at}.counts"),
            format!("add up to more than {}{row}", u64::MAX),
        );
    } else if d.total() == 0 {
        bad(
            format!("{at}.counts"),
            format!("must count at least one response, found none{row}"),
        );
    }
}

/// How [`check_best`] names a kind's figures in its messages.
struct BestWords<'a> {
    /// The deadline with its unit, e.g. "500 ms".
    deadline: &'a str,
    /// The latency the deadline applies to, e.g. "median ITL".
    latency: &'a str,
    /// The unit of the energy, e.g. "Wh/M".
    energy: &'a str,
}

/// The file's `best` must match the best this program computes, GPU by GPU.
/// A different configuration with the same energy is a tie, not a
/// disagreement.
fn check_best<M>(
    path: &Path,
    m: &M,
    stated_best: &BTreeMap<String, M::Config>,
    words: &BestWords<'_>,
    out: &mut Vec<Problem>,
) where
    M: Measurements,
    M::Config: PartialEq,
{
    let BestWords {
        deadline,
        latency,
        energy,
    } = words;
    let configs = m.configurations();
    let computed = analyse::best_per_gpu(m);
    for (gpu, best) in &computed {
        let mut field = "best".to_owned();
        push_key(&mut field, gpu);
        match (stated_best.get(gpu), best) {
            (None, Some(i)) => out.push(problem(
                path,
                field,
                format!(
                    "is missing; the best configuration under the {deadline} deadline is {}",
                    shown(configs[*i].row_id())
                ),
            )),
            (Some(stated), None) => out.push(problem(
                path,
                field,
                format!(
                    "names {} but no {} configuration has {latency} within the {deadline} deadline",
                    shown(stated.row_id()),
                    shown(gpu),
                ),
            )),
            (Some(stated), Some(i)) => {
                let ours = &configs[*i];
                let same_row = stated.row_id() == ours.row_id();
                let named = configs.iter().find(|c| c.row_id() == stated.row_id());
                let tie = named.is_some_and(|c| {
                    c.gpu() == gpu && c.latency() <= m.deadline() && c.energy() == ours.energy()
                });
                if !(same_row || tie) {
                    out.push(problem(
                        path,
                        field,
                        format!(
                            "names {} ({} {energy}) but the lowest-energy {} configuration within the {deadline} deadline is {} ({} {energy})",
                            shown(stated.row_id()),
                            stated.energy(),
                            shown(gpu),
                            shown(ours.row_id()),
                            ours.energy()
                        ),
                    ));
                } else if named != Some(stated) {
                    out.push(problem(
                        path,
                        field,
                        format!(
                            "names {} but its figures differ from that row in configurations",
                            shown(stated.row_id())
                        ),
                    ));
                }
            }
            (None, None) => {}
        }
    }
    for gpu in stated_best.keys() {
        if !computed.iter().any(|(g, _)| g == gpu) {
            let mut field = "best".to_owned();
            push_key(&mut field, gpu);
            out.push(problem(
                path,
                field,
                format!("{gpu:?} is not in the file's gpus list {:?}", m.gpus()),
            ));
        }
    }
}

/// What the checks across files need of one file, of either kind.
struct FileFacts<'a> {
    path: &'a Path,
    slug: &'a str,
    workload: &'a str,
    /// `None` for a per-token file.
    kind: Option<crate::model::OutputKind>,
    deadline: f64,
    gpus: &'a [String],
}

impl FileFacts<'_> {
    fn of<F: Measurements>(
        m: &LoadedModel<F>,
        kind: Option<crate::model::OutputKind>,
    ) -> FileFacts<'_> {
        FileFacts {
            path: &m.path,
            slug: m.file.slug(),
            workload: &m.workload,
            kind,
            deadline: m.file.deadline(),
            gpus: m.file.gpus(),
        }
    }

    /// The deadline's field and unit.
    fn deadline_field(&self) -> (&'static str, &'static str) {
        match self.kind {
            None => ("itl_deadline_ms", "ms"),
            Some(_) => ("batch_latency_deadline_s", "s"),
        }
    }

    /// The kind in words, for messages.
    fn kind_words(&self) -> String {
        match self.kind {
            None => "a per-token file (no kind)".to_owned(),
            Some(k) => format!("kind {:?}", k.item()),
        }
    }
}

fn check_across_files(
    models: &[LoadedModel],
    diffusion: &[LoadedModel<DiffusionFile>],
    problems: &mut Vec<Problem>,
) {
    let mut files: Vec<FileFacts<'_>> = models
        .iter()
        .map(|m| FileFacts::of(m, None))
        .chain(
            diffusion
                .iter()
                .map(|m| FileFacts::of(m, Some(m.file.kind))),
        )
        .collect();
    // In the order the files were found.
    files.sort_by(|a, b| a.path.cmp(b.path));
    // A model is its slug across workloads: (slug, workload) is unique.
    let mut by_slug: BTreeMap<(&str, &str), &Path> = BTreeMap::new();
    for model in &files {
        if let Some(first) = by_slug.insert((model.slug, model.workload), model.path) {
            problems.push(problem(
                model.path,
                "slug",
                format!(
                    "{:?} is already used by {} in the same workload {:?}; each model needs its own slug within a workload",
                    model.slug,
                    first.display(),
                    model.workload
                ),
            ));
        }
    }
    // One kind of measurement and one latency deadline per workload.
    let mut firsts: BTreeMap<&str, &FileFacts<'_>> = BTreeMap::new();
    for model in &files {
        let Some(first) = firsts.get(model.workload) else {
            firsts.insert(model.workload, model);
            continue;
        };
        let (field, unit) = model.deadline_field();
        if first.kind != model.kind {
            problems.push(problem(
                model.path,
                "kind",
                format!(
                    "the file is {} but {} is {} in the same workload {:?}; every file of one workload must measure the same kind of output",
                    model.kind_words(),
                    first.path.display(),
                    first.kind_words(),
                    model.workload
                ),
            ));
        } else if first.deadline != model.deadline {
            problems.push(problem(
                model.path,
                field,
                format!(
                    "is {} {unit} but {} gives {} {unit} for the same workload {:?}; every file of one workload must use the same deadline",
                    model.deadline,
                    first.path.display(),
                    first.deadline,
                    model.workload
                ),
            ));
        }
    }
    let mut gpu_names: BTreeMap<String, (&str, &Path)> = BTreeMap::new();
    for model in &files {
        for (i, gpu) in model.gpus.iter().enumerate() {
            let seg = url_segment(gpu);
            match gpu_names.get(&seg) {
                Some((name, first)) if *name != gpu.as_str() => problems.push(problem(
                    model.path,
                    format!("gpus[{i}]"),
                    format!(
                        "{gpu:?} and {name:?} in {} would share the page /gpus/{seg}/; spell the GPU the same way in every file",
                        first.display()
                    ),
                )),
                Some(_) => {}
                None => {
                    gpu_names.insert(seg, (gpu, model.path));
                }
            }
        }
    }
}

/// One static asset (CSS, JS, icon) copied into the site unchanged.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Asset {
    /// `/`-separated path inside the static folder, e.g. `style.css`.
    pub rel: String,
    /// The file's bytes.
    pub bytes: Vec<u8>,
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn odd_documents_take_the_careful_path() {
        assert!(!needs_careful_parse(
            br#"{"a": [1.5e3, -2E-7, 39.05], "b": "1e999"}"#
        ));
        assert!(needs_careful_parse(br#"{"a": 1e400}"#));
        assert!(needs_careful_parse(br#"{"a": 2.5E+308}"#));
        assert!(needs_careful_parse("[".repeat(101).as_bytes()));
        assert!(!needs_careful_parse("[".repeat(100).as_bytes()));
        assert!(needs_careful_parse(
            format!("[{}]", "9".repeat(301)).as_bytes()
        ));
        assert!(!needs_careful_parse(br#"{"a": "[[[[\"]]]]"}"#));
    }

    #[test]
    fn slugs_that_are_paths_are_refused() {
        assert!(is_valid_slug("qwen-3-32b"));
        assert!(is_valid_slug("7b"));
        assert!(!is_valid_slug("-x"));
        assert!(!is_valid_slug("../etc"));
        assert!(!is_valid_slug("a/b"));
        assert!(!is_valid_slug("Qwen"));
        assert!(!is_valid_slug(""));
    }

    #[test]
    fn only_web_addresses_are_links() {
        assert!(is_web_url("https://ml.energy/leaderboard/"));
        assert!(is_web_url("HTTP://example.org"));
        assert!(!is_web_url("javascript:alert(1)"));
        assert!(!is_web_url("https://"));
        assert!(!is_web_url("//evil.example"));
        assert!(!is_web_url("data:text/html,x"));
    }

    #[test]
    fn type_error_names_the_field_in_reader_words() {
        let text = std::fs::read_to_string("tests/fixtures/seeds/qwen-3-32b.json").unwrap();
        let broken = text.replacen("\"median_itl_ms\": 14.1", "\"median_itl_ms\": \"fast\"", 1);
        assert_ne!(text, broken);
        let err = parse_model(Path::new("data/qwen-3-32b.json"), broken.as_bytes()).unwrap_err();
        assert_eq!(err.field, "configurations[0].median_itl_ms");
        assert!(
            err.message
                .starts_with("expected a number, found the string \"fast\""),
            "{}",
            err.message
        );
    }
}
