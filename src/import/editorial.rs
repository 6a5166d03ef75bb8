//! The editorial settings of an import (`import/editorial.json`): the texts
//! upstream does not publish (source block, caveat, method, selection,
//! licence, citation, workload names and descriptions) and each workload's
//! latency deadline, one entry per workload.

use std::collections::BTreeMap;
use std::path::Path;

use anyhow::{Context, Result, bail};
use serde::Deserialize;

use crate::model::OutputKind;

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Editorial {
    /// Notes for the people who edit the file; ignored.
    #[serde(default, rename = "_comment")]
    pub comment: Vec<String>,
    pub common: Common,
    /// One entry per workload, keyed by the upstream task id.
    pub workloads: BTreeMap<String, WorkloadTexts>,
}

/// Texts shared by every workload.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Common {
    pub name: String,
    pub publisher: String,
    pub url: String,
    /// e.g. "3.0": `source.version` is `"<version_number> (released
    /// <released>); data compiled <compiled>"`.
    pub version_number: String,
    pub released: String,
    pub compiled_evidence_both: String,
    pub compiled_evidence_index_only: String,
    pub compiled_evidence_differ: String,
    pub licence: String,
    pub licence_evidence: Vec<String>,
    pub cite: String,
    pub cite_url: String,
    pub caveat: String,
    pub caveat_diffusion: String,
    pub deadline_clause_none: String,
    pub deadline_clause_some: String,
    pub latency_clause_none: String,
    pub latency_clause_some: String,
    pub dropped_clause: String,
}

/// One workload's texts and deadline.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WorkloadTexts {
    /// `image` or `video` for a diffusion workload; absent for per-token.
    pub kind: Option<OutputKind>,
    pub name: String,
    pub description: String,
    /// Per-token workloads: the median ITL deadline, ms (kept as written,
    /// so `500` stays a whole number in the files).
    pub itl_deadline_ms: Option<serde_json::Number>,
    /// Diffusion workloads: the batch-latency deadline, s.
    pub batch_latency_deadline_s: Option<serde_json::Number>,
    /// `source.workload`, e.g. "Text Conversation (lm-arena-chat)".
    pub workload: String,
    pub data_url: String,
    pub method: String,
    pub selection: String,
    pub used_for: String,
    pub configurations: String,
    /// A caveat of the workload's own (else the common one of its kind).
    pub caveat: Option<String>,
}

impl WorkloadTexts {
    /// The deadline field of the workload's kind and its value, as written.
    pub fn deadline(&self) -> (&'static str, Option<&serde_json::Number>) {
        let value = self
            .kind
            .map_or(&self.itl_deadline_ms, |_| &self.batch_latency_deadline_s);
        (
            crate::load::limits::kind_fields(self.kind).deadline,
            value.as_ref(),
        )
    }
}

/// Largest editorial file read, in bytes (today's is about 20 kB).
pub const MAX_EDITORIAL_BYTES: u64 = 4 * 1024 * 1024;

impl Editorial {
    /// Reads and checks the editorial file: each workload has its kind's deadline, above 0.
    pub fn load(path: &Path) -> Result<Self> {
        let raw = crate::stage::read_bounded(path, MAX_EDITORIAL_BYTES).map_err(|unread| {
            anyhow::anyhow!(
                "{}: {unread}; --editorial needs the editorial file, a regular file \
                of at most {} MB",
                path.display(),
                MAX_EDITORIAL_BYTES / 1024 / 1024
            )
        })?;
        let text = String::from_utf8(raw)
            .with_context(|| format!("{}: is not UTF-8 text", path.display()))?;
        let mut de = serde_json::Deserializer::from_str(&text);
        let editorial: Self = serde_path_to_error::deserialize(&mut de).map_err(|err| {
            anyhow::anyhow!("{}: {}: {}", path.display(), err.path(), err.inner())
        })?;
        for (id, w) in &editorial.workloads {
            let (field, deadline) = w.deadline();
            match deadline.and_then(serde_json::Number::as_f64) {
                Some(d) if d > 0.0 && d.is_finite() => {}
                _ => bail!(
                    "{}: workloads.{id}.{field}: a {} workload needs a deadline above 0",
                    path.display(),
                    w.kind.map_or("per-token", OutputKind::item)
                ),
            }
            if !crate::load::is_valid_workload_id(id) {
                bail!(
                    "{}: workloads.{id}: the workload id must be a path segment \
                        (^[a-z0-9][a-z0-9-]*$, at most 64 characters)",
                    path.display()
                );
            }
        }
        Ok(editorial)
    }
}

/// Fills `{name}` placeholders in `template`.
pub fn fill(template: &str, values: &[(&str, String)]) -> String {
    let mut out = template.to_owned();
    for (name, value) in values {
        out = out.replace(&format!("{{{name}}}"), value);
    }
    out
}
