//! The data format: one JSON document per model, as published in `data/`.
//!
//! Field names and units follow the seed files. Unknown extra fields are
//! accepted (serde ignores them) so that newer data files still load.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

/// One model file: a model, where its numbers come from, and every measured
/// configuration.
#[derive(Debug, Clone, Deserialize, Serialize, PartialEq)]
pub struct ModelFile {
    /// Format version of the file, e.g. `"1"`.
    pub version: String,
    /// Date the file was last updated (ISO 8601 date).
    pub updated: String,
    /// Version of the data the file carries (ISO 8601 date).
    pub data_version: String,
    /// The unit of the headline figure, e.g. `"Wh per million output tokens"`.
    pub unit: String,
    /// Median inter-token latency deadline in milliseconds used for "best".
    pub itl_deadline_ms: f64,
    /// Where the numbers come from, under which licence and how to cite them.
    /// Shared between models whose files carry the same block.
    pub source: std::sync::Arc<Source>,
    /// What the figures leave out, in the data publisher's words.
    pub caveat: String,
    /// The measurement boundary, e.g. `"gpu_only"`.
    pub boundary: String,
    /// URL-safe identifier: `^[a-z0-9][a-z0-9-]*$`.
    pub slug: String,
    /// Display name, e.g. "Qwen 3 32B".
    pub name: String,
    /// Hugging Face model id.
    pub model_id: String,
    /// Total parameters, billions.
    pub params_b: f64,
    /// Parameters active per token, billions.
    pub active_params_b: f64,
    /// Architecture, e.g. "MoE" or "Dense Transformer".
    pub architecture: String,
    /// GPU types the model was measured on.
    pub gpus: Vec<String>,
    /// Every measured configuration.
    pub configurations: Vec<Configuration>,
    /// The publisher's best configuration per GPU (checked against ours).
    pub best: BTreeMap<String, Configuration>,
    /// The workload measured, stated explicitly; when absent it comes from
    /// `source.workload` (see [`ModelFile::workload_ref`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub workload: Option<WorkloadDecl>,
}

/// A workload stated in a model file: the optional top-level `workload`
/// object, which wins over the id in `source.workload`.
#[derive(Debug, Clone, Deserialize, Serialize, PartialEq, Eq)]
pub struct WorkloadDecl {
    /// URL-safe id, e.g. `gpqa`; becomes `/workloads/<id>/`.
    pub id: String,
    /// Display name, e.g. "Problem Solving with Reasoning".
    pub name: String,
    /// What the workload measures, in a sentence or three.
    #[serde(default)]
    pub description: Option<String>,
}

impl ModelFile {
    /// The file's workload as (id, display name): the `workload` object when
    /// present, else `source.workload`, whose id is the text in its trailing
    /// parentheses (`"Text Conversation (lm-arena-chat)"` → `lm-arena-chat`,
    /// named "Text Conversation"). `None` when neither gives an id.
    pub fn workload_ref(&self) -> Option<(String, String)> {
        if let Some(w) = &self.workload {
            return Some((w.id.clone(), w.name.clone()));
        }
        let text = self.source.workload.trim();
        let inner = text.strip_suffix(')')?;
        let open = inner.rfind('(')?;
        let id = inner[open + 1..].trim();
        let name = inner[..open].trim();
        Some((
            id.to_owned(),
            if name.is_empty() { id } else { name }.to_owned(),
        ))
    }
}

/// Provenance of the numbers.
#[derive(Debug, Clone, Deserialize, Serialize, PartialEq)]
pub struct Source {
    /// Name of the source, e.g. "ML.ENERGY Leaderboard".
    pub name: String,
    /// Who publishes it.
    pub publisher: String,
    /// Human-readable page of the source.
    pub url: String,
    /// Machine-readable data the file was made from.
    #[serde(default)]
    pub data_url: Option<String>,
    /// Version of the source.
    pub version: String,
    /// Release date of the source version.
    pub released: String,
    /// Date the source data were compiled.
    pub compiled: String,
    /// Why we believe the compile date.
    #[serde(default)]
    pub compiled_evidence: Option<String>,
    /// Date the data were retrieved for this mirror.
    pub retrieved: String,
    /// Licence of the data.
    pub licence: String,
    /// Evidence for the licence.
    #[serde(default)]
    pub licence_evidence: Vec<String>,
    /// Workload measured.
    pub workload: String,
    /// How the numbers were measured.
    pub method: String,
    /// How the "best" row is selected.
    pub selection: String,
    /// Paper citation.
    pub cite: String,
    /// URL of the paper.
    pub cite_url: String,
    /// What the data are used for.
    #[serde(default)]
    pub used_for: Option<String>,
    /// Notes on which configurations are published.
    #[serde(default)]
    pub configurations: Option<String>,
}

/// One measured configuration: a model served on some GPUs at one maximum
/// concurrency.
#[derive(Debug, Clone, Deserialize, Serialize, PartialEq)]
pub struct Configuration {
    /// GPU type; must be one of the file's `gpus`.
    pub gpu: String,
    /// Number of GPUs serving the model.
    pub num_gpus: u32,
    /// Tensor-parallel degree.
    pub tensor_parallel: u32,
    /// Data-parallel degree.
    pub data_parallel: u32,
    /// Expert-parallel degree.
    pub expert_parallel: u32,
    /// Numeric precision of weights, e.g. "BF16", "FP8".
    pub precision: String,
    /// Maximum concurrent sequences (vLLM `max_num_seqs`).
    pub max_num_seqs: u32,
    /// Average requests in flight during the steady state.
    pub avg_requests_in_flight: f64,
    /// Steady-state GPU energy, Wh per million output tokens.
    pub wh_per_million_output_tokens: f64,
    /// Steady-state GPU energy, joules per output token.
    pub joules_per_output_token: f64,
    /// Median inter-token latency, ms.
    pub median_itl_ms: f64,
    /// 90th-percentile inter-token latency, ms.
    pub p90_itl_ms: f64,
    /// 95th-percentile inter-token latency, ms.
    pub p95_itl_ms: f64,
    /// 99th-percentile inter-token latency, ms.
    pub p99_itl_ms: f64,
    /// Output tokens per second, all GPUs together.
    pub tokens_per_second: f64,
    /// Measured GPU power, W, summed over the GPUs used.
    pub gpu_power_watts_total: f64,
    /// Average output tokens per response.
    pub avg_output_tokens: f64,
    /// Whether `median_itl_ms <= itl_deadline_ms`.
    pub under_itl_deadline: bool,
    /// Average running batch size.
    pub avg_running_batch: f64,
    /// Unique id of the row within the file, e.g. `qwen-3-32b/H100/2/256`.
    pub row_id: String,
    /// Run number of this configuration: 1 for the first run, 2 for a repeat.
    pub repeat: u32,
}

impl Configuration {
    /// Parallelism as shown to readers, e.g. "TP2", "EP2", "TP2·DP2", or "—"
    /// for a single GPU without parallelism.
    pub fn parallelism(&self) -> String {
        let mut parts = Vec::new();
        for (label, degree) in [
            ("TP", self.tensor_parallel),
            ("EP", self.expert_parallel),
            ("DP", self.data_parallel),
        ] {
            if degree > 1 {
                parts.push(format!("{label}{degree}"));
            }
        }
        if parts.is_empty() {
            "none".to_owned()
        } else {
            parts.join("·")
        }
    }

    /// Energy per response in joules: `joules_per_output_token × avg_output_tokens`.
    pub fn joules_per_response(&self) -> f64 {
        self.joules_per_output_token * self.avg_output_tokens
    }

    /// Energy per response in watt-hours: joules per response / 3600.
    pub fn wh_per_response(&self) -> f64 {
        self.joules_per_response() / 3600.0
    }

    /// Output tokens per watt-hour: `3600 / joules_per_output_token`.
    pub fn tokens_per_wh(&self) -> f64 {
        3600.0 / self.joules_per_output_token
    }

    /// Wh per million output tokens derived from joules per token:
    /// `joules_per_output_token × 1e6 / 3600`.
    pub fn derived_wh_per_million(&self) -> f64 {
        self.joules_per_output_token * 1e6 / 3600.0
    }
}

/// Turns any label into a lower-case URL segment: ASCII letters and digits
/// kept, every other run of characters becomes one `-`.
pub fn url_segment(label: &str) -> String {
    let mut out = String::with_capacity(label.len());
    let mut dash = false;
    for ch in label.chars() {
        if ch.is_ascii_alphanumeric() {
            if dash && !out.is_empty() {
                out.push('-');
            }
            dash = false;
            out.push(ch.to_ascii_lowercase());
        } else {
            dash = true;
        }
    }
    out
}

/// The page anchor of a configuration row, built from its `row_id`: the
/// model slug prefix is dropped and the rest made URL-safe, so
/// `qwen-3-32b/H100/2/256` becomes `h100-2-256` and a repeat
/// `…/H100/2/256/r2` becomes `h100-2-256-r2`.
pub fn row_anchor(slug: &str, row_id: &str) -> String {
    let rest = row_id
        .strip_prefix(slug)
        .and_then(|r| r.strip_prefix('/'))
        .unwrap_or(row_id);
    let seg = url_segment(rest);
    if seg.is_empty() {
        "row".to_owned()
    } else {
        seg
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn row_anchor_drops_slug_and_lowercases() {
        assert_eq!(
            row_anchor("qwen-3-32b", "qwen-3-32b/H100/2/256"),
            "h100-2-256"
        );
        assert_eq!(
            row_anchor("qwen-3-32b", "qwen-3-32b/H100/2/256/r2"),
            "h100-2-256-r2"
        );
        assert_eq!(row_anchor("a", "other/B200/1/8"), "other-b200-1-8");
    }

    #[test]
    fn workload_id_is_the_text_in_trailing_parentheses() {
        let text = std::fs::read_to_string("data/qwen-3-32b.json").unwrap();
        let mut m: ModelFile = serde_json::from_str(&text).unwrap();
        assert_eq!(
            m.workload_ref(),
            Some(("lm-arena-chat".into(), "Text Conversation".into()))
        );
        std::sync::Arc::make_mut(&mut m.source).workload = "Problem Solving (GPQA) (gpqa)".into();
        assert_eq!(
            m.workload_ref(),
            Some(("gpqa".into(), "Problem Solving (GPQA)".into()))
        );
        std::sync::Arc::make_mut(&mut m.source).workload = "No id here".into();
        assert_eq!(m.workload_ref(), None);
        m.workload = Some(WorkloadDecl {
            id: "code".into(),
            name: "Code".into(),
            description: None,
        });
        assert_eq!(m.workload_ref(), Some(("code".into(), "Code".into())));
    }

    #[test]
    fn url_segment_collapses_separators() {
        assert_eq!(url_segment("H100 80GB HBM3"), "h100-80gb-hbm3");
        assert_eq!(url_segment("../B200"), "b200");
        assert_eq!(url_segment("<script>"), "script");
    }
}
