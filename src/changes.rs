//! The change history of the imported data: one entry per import that
//! changed anything, kept in `data/changes.json` (oldest entry first).
//!
//! `energyboard import` computes and appends entries; the loader reads the
//! file beside the model files (it is the one `*.json` under `data/` that is
//! not a model file); the renderer shows it at `/changes/`, in an Atom feed
//! and as each model's history of best figures.

use serde::{Deserialize, Serialize};

/// The file's name, at the top of the data folder.
pub const FILE_NAME: &str = "changes.json";

/// Every recorded import that changed something, oldest first.
#[derive(Debug, Clone, Default, Deserialize, Serialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct ChangeHistory {
    /// Format version of the file: `"1"`.
    pub version: String,
    /// The entries, oldest first; pages show them newest first.
    pub entries: Vec<ChangeEntry>,
}

/// What one import changed.
#[derive(Debug, Clone, Default, Deserialize, Serialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct ChangeEntry {
    /// The upstream data version imported: `last_updated` of the
    /// leaderboard's `index.json` (ISO 8601 date).
    pub upstream_version: String,
    /// The upstream data version the data folder held before, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub previous_upstream_version: Option<String>,
    /// The date of the import (the files' `retrieved`, ISO 8601 date).
    pub imported: String,
    /// Where the data came from: the URL or a description of the folder
    /// given to `--from` (never an absolute local path).
    pub source: String,
    #[serde(default)]
    pub workloads_added: Vec<String>,
    #[serde(default)]
    pub workloads_removed: Vec<String>,
    #[serde(default)]
    pub models_added: Vec<ModelRef>,
    #[serde(default)]
    pub models_removed: Vec<ModelRef>,
    /// Configurations that appeared and disappeared, in models present
    /// before and after.
    #[serde(default)]
    pub configurations_added: Vec<ConfigurationRef>,
    #[serde(default)]
    pub configurations_removed: Vec<ConfigurationRef>,
    /// Configurations present before and after whose measured figures
    /// changed (e.g. upstream's 2026-01-01 throughput fix), with the fields
    /// that changed; optional (absent when none).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub configurations_changed: Vec<ConfigurationChange>,
    /// Every best figure (per workload, model and GPU) that moved, appeared
    /// or disappeared. A model that appeared lists its first best figures
    /// here with `old` null, so each model's history is complete.
    #[serde(default)]
    pub best_changed: Vec<BestChange>,
}

/// A model in one workload.
#[derive(Debug, Clone, Deserialize, Serialize, PartialEq, Eq, PartialOrd, Ord)]
#[serde(deny_unknown_fields)]
pub struct ModelRef {
    /// Workload id, e.g. `lm-arena-chat`.
    pub workload: String,
    pub slug: String,
    pub name: String,
}

/// One configuration row of a model in one workload.
#[derive(Debug, Clone, Deserialize, Serialize, PartialEq, Eq, PartialOrd, Ord)]
#[serde(deny_unknown_fields)]
pub struct ConfigurationRef {
    pub workload: String,
    pub slug: String,
    pub row_id: String,
}

/// A configuration present before and after whose figures changed.
#[derive(Debug, Clone, Deserialize, Serialize, PartialEq, Eq, PartialOrd, Ord)]
#[serde(deny_unknown_fields)]
pub struct ConfigurationChange {
    pub workload: String,
    pub slug: String,
    pub row_id: String,
    /// The fields whose values changed, e.g. `tokens_per_second`, in the
    /// order of the model format.
    pub fields: Vec<String>,
}

/// One best figure of a model on one GPU in one workload, before and after.
#[derive(Debug, Clone, Deserialize, Serialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct BestChange {
    pub workload: String,
    pub slug: String,
    /// GPU type, e.g. `H100`.
    pub gpu: String,
    /// Which figure, by the model format's column key: `wh_per_million_output_tokens`,
    /// `joules_per_image`, `joules_per_video`.
    pub figure: String,
    /// Its unit as pages show it, e.g. `Wh/M tok`, `J/image`.
    pub unit: String,
    /// The value before; null when the GPU had no best configuration.
    pub old: Option<f64>,
    /// The value after; null when the GPU no longer has one.
    pub new: Option<f64>,
    /// The best configuration's `row_id` before.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub old_row_id: Option<String>,
    /// The best configuration's `row_id` after.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub new_row_id: Option<String>,
}

impl BestChange {
    /// The change in percent of the old value, when both exist and the old is not 0.
    pub fn percent(&self) -> Option<f64> {
        match (self.old, self.new) {
            (Some(old), Some(new)) if old != 0.0 => Some((new - old) / old * 100.0),
            _ => None,
        }
    }
}

impl ChangeEntry {
    /// Whether the entry records no change at all (such an entry is never
    /// appended): no list has an item and the upstream version is the one
    /// the data held before. (A new upstream version with the same figures,
    /// as upstream's re-publications without a data change, is recorded.)
    pub fn is_empty(&self) -> bool {
        self.previous_upstream_version.as_deref() == Some(self.upstream_version.as_str())
            && self.workloads_added.is_empty()
            && self.workloads_removed.is_empty()
            && self.models_added.is_empty()
            && self.models_removed.is_empty()
            && self.configurations_added.is_empty()
            && self.configurations_removed.is_empty()
            && self.configurations_changed.is_empty()
            && self.best_changed.is_empty()
    }
}

impl ChangeEntry {
    /// Whether this import changed the figures of the model `slug` on
    /// `workload`: it appeared, or a configuration of it was added, removed
    /// or corrected, or a best figure of it moved.
    pub fn changed_figures_of(&self, workload: &str, slug: &str) -> bool {
        let is = |w: &str, s: &str| w == workload && s == slug;
        self.models_added.iter().any(|m| is(&m.workload, &m.slug))
            || self
                .configurations_added
                .iter()
                .any(|c| is(&c.workload, &c.slug))
            || self
                .configurations_removed
                .iter()
                .any(|c| is(&c.workload, &c.slug))
            || self
                .configurations_changed
                .iter()
                .any(|c| is(&c.workload, &c.slug))
            || self.best_changed.iter().any(|b| is(&b.workload, &b.slug))
    }
}

impl ChangeHistory {
    /// The data versions (`upstream_version`) in which the figures of the
    /// model `slug` on `workload` changed, oldest first, each once: the
    /// versions a model page has a permanent page for
    /// (`<model page>v/<version>/`).
    pub fn figure_versions(&self, workload: &str, slug: &str) -> Vec<&str> {
        let mut out: Vec<&str> = Vec::new();
        for e in self
            .entries
            .iter()
            .filter(|e| e.changed_figures_of(workload, slug))
        {
            if out.last() != Some(&e.upstream_version.as_str()) {
                out.push(&e.upstream_version);
            }
        }
        out
    }
}
