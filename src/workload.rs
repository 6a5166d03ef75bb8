//! Workloads: the leaderboard measures each model on several tasks (chat,
//! reasoning, code, …), each with its own latency deadline. This stage
//! groups the loaded models by workload, in the order the settings give,
//! after loading and before analysis.

use std::ops::Range;

use crate::load::{DataSet, LoadedModel};

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
    /// The deadline every file of the workload shares, in the unit of its
    /// latency: median ITL in ms for a per-token workload, batch latency in
    /// s for a diffusion workload.
    pub deadline: f64,
    /// What the workload measures.
    pub measure: Measure,
    /// Its models: a run of the model list of its kind
    /// ([`DataSet::models`] or [`DataSet::diffusion`]), ordered by slug.
    pub models: Range<usize>,
}

pub use crate::model::Measure;

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
            deadline: run[0].file.deadline(),
            measure: run[0].file.measure(),
            models: start..end,
        });
        start = end;
    }
    out
}

/// Groups both kinds of model file by workload ([`group_by_workload`] on
/// each) and returns every workload in the site's order: those listed in
/// `settings` first, in that order, then the others by id. Loading has
/// checked that a workload's files are all of one kind.
pub fn group_data(data: &mut DataSet, settings: &[WorkloadSettings]) -> Vec<Workload> {
    let rank = |id: &str| {
        settings
            .iter()
            .position(|s| s.id == id)
            .unwrap_or(settings.len())
    };
    let mut all = group_by_workload(&mut data.models, settings);
    all.sort_by(|a, b| (rank(&a.id), &a.id).cmp(&(rank(&b.id), &b.id)));
    all
}
