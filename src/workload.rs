//! Workloads: the leaderboard measures each model on several tasks (chat,
//! reasoning, code, …), each with its own latency deadline. This stage
//! groups the loaded models by workload, in the order the settings give,
//! after loading and before analysis.

use crate::load::LoadedModel;
use crate::model::Measure;

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
#[derive(Debug, Clone)]
pub struct Workload {
    /// URL-safe id, e.g. `lm-arena-chat`.
    pub id: String,
    /// Display name, e.g. "Text Conversation".
    pub name: String,
    /// What it measures, when the data or the settings say.
    pub description: Option<String>,
    /// The deadline every file of the workload shares: median ITL in ms (per
    /// token) or batch latency in s (diffusion).
    pub deadline: f64,
    pub measure: Measure,
    /// Its models, ordered by slug.
    pub models: Vec<LoadedModel>,
}

impl Workload {
    /// The workload's folder in the site, e.g. `workloads/gpqa/`.
    pub fn dir(&self) -> String {
        format!("workloads/{}/", self.id)
    }
}

/// Groups `models` by workload and returns the workloads in the site's
/// order: those listed in `settings` first, in that order, then the others
/// by id; each owns its models, ordered by slug. Loading has already
/// checked that the files of one workload are of one kind and agree on the
/// deadline, and that (slug, workload) is unique.
pub fn group(mut models: Vec<LoadedModel>, settings: &[WorkloadSettings]) -> Vec<Workload> {
    let rank = |id: &str| {
        settings
            .iter()
            .position(|s| s.id == id)
            .unwrap_or(settings.len())
    };
    models.sort_by_cached_key(|m| (rank(&m.workload), m.workload.clone(), m.file.slug.clone()));
    let mut out: Vec<Workload> = Vec::new();
    for m in models {
        match out.last_mut() {
            Some(w) if w.id == m.workload => w.models.push(m),
            _ => out.push(Workload {
                id: m.workload.clone(),
                name: String::new(),
                description: None,
                deadline: m.file.deadline(),
                measure: m.file.measure(),
                models: vec![m],
            }),
        }
    }
    for w in &mut out {
        // Grown by doubling: without this a workload holds room for up to
        // as many models again, for the whole build.
        w.models.shrink_to_fit();
        let set = settings.iter().find(|s| s.id == w.id);
        let declared = w.models.iter().find_map(|m| m.file.workload.as_ref());
        w.name = declared
            .map(|d| d.name.clone())
            .or_else(|| set.and_then(|s| s.name.clone()))
            .unwrap_or_else(|| w.models[0].workload_name.clone());
        w.description = declared
            .and_then(|d| d.description.clone())
            .or_else(|| set.and_then(|s| s.description.clone()))
            .filter(|d| !d.trim().is_empty());
    }
    out
}
