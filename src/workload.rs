//! Workloads: the leaderboard measures each model on several tasks (chat,
//! reasoning, code, …), each with its own latency deadline. This stage
//! groups the loaded models by workload, in the order the settings give,
//! after loading and before analysis.

use std::collections::BTreeMap;
use std::ops::Range;

use crate::load::LoadedModel;

/// The workload the site carried before it had workloads: URLs published
/// then (`/models/<slug>/`, `/gpus/<gpu>/`, `/compare/`, `/data/<slug>.json`,
/// the charts and badges) keep leading to this workload's content.
pub const LEGACY_WORKLOAD: &str = "lm-arena-chat";

/// Settings for one workload, from `[[workloads]]` in `energyboard.toml`.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WorkloadSettings {
    /// The workload id, e.g. `gpqa`.
    pub id: String,
    /// Display name; a data file's own `workload.name` wins.
    #[serde(default)]
    pub name: Option<String>,
    /// What the workload measures: typical input and output lengths and why
    /// energy behaves as it does there; a data file's own
    /// `workload.description` wins.
    #[serde(default)]
    pub description: Option<String>,
}

/// One workload of the site.
#[derive(Debug, Clone, PartialEq)]
pub struct Workload {
    /// URL-safe id, e.g. `lm-arena-chat`.
    pub id: String,
    /// Display name, e.g. "Text Conversation".
    pub name: String,
    /// What it measures, when the data or the settings say.
    pub description: Option<String>,
    /// The median-ITL deadline every file of the workload shares, ms.
    pub deadline_ms: f64,
    /// Its models: a run of the model list, ordered by slug.
    pub models: Range<usize>,
}

impl Workload {
    /// The workload's folder in the site, e.g. `workloads/gpqa/`.
    pub fn dir(&self) -> String {
        format!("workloads/{}/", self.id)
    }
}

/// Orders `models` by workload (first those listed in `settings`, in that
/// order, then the others by id) and by slug within each, and returns the
/// workloads. Loading has already checked that the files of one workload
/// agree on the deadline and that (slug, workload) is unique.
pub fn group_by_workload(
    models: &mut [LoadedModel],
    settings: &[WorkloadSettings],
) -> Vec<Workload> {
    let rank = |id: &str| {
        settings
            .iter()
            .position(|s| s.id == id)
            .unwrap_or(settings.len())
    };
    models.sort_by(|a, b| {
        (rank(&a.workload), &a.workload, &a.file.slug).cmp(&(
            rank(&b.workload),
            &b.workload,
            &b.file.slug,
        ))
    });
    let mut out: Vec<Workload> = Vec::new();
    let mut start = 0;
    while start < models.len() {
        let id = models[start].workload.clone();
        let end = start
            + models[start..]
                .iter()
                .take_while(|m| m.workload == id)
                .count();
        let run = &models[start..end];
        let set = settings.iter().find(|s| s.id == id);
        let declared = run.iter().find_map(|m| m.file.workload.as_ref());
        let name = declared
            .map(|d| d.name.clone())
            .or_else(|| set.and_then(|s| s.name.clone()))
            .unwrap_or_else(|| run[0].workload_name.clone());
        let description = declared
            .and_then(|d| d.description.clone())
            .or_else(|| set.and_then(|s| s.description.clone()))
            .filter(|d| !d.trim().is_empty());
        out.push(Workload {
            id,
            name,
            description,
            deadline_ms: run[0].file.itl_deadline_ms,
            models: start..end,
        });
        start = end;
    }
    out
}

/// For each model slug, where it is measured: (workload index, model index)
/// pairs in workload order.
pub fn by_slug(
    models: &[LoadedModel],
    workloads: &[Workload],
) -> BTreeMap<String, Vec<(usize, usize)>> {
    let mut map: BTreeMap<String, Vec<(usize, usize)>> = BTreeMap::new();
    for (w, wl) in workloads.iter().enumerate() {
        for i in wl.models.clone() {
            map.entry(models[i].file.slug.clone())
                .or_default()
                .push((w, i));
        }
    }
    map
}
