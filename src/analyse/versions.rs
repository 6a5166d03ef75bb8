//! A model's versions: the data versions in which its figures changed on
//! one workload, each with the file holding that version's figures and what
//! the import that brought them changed. Render lays them out as the
//! permanent pages `<model page>v/<YYYY-MM-DD>/` and the model page's list.
//!
//! The versions are the change log's: the imports that changed the model's
//! figures (`ChangeEntry::changed_figures_of`). An earlier version's figures
//! come from its superseded file (`load::PastVersion`, kept in the data
//! folder's `history/` by the import), the current one's from the model
//! file itself.

use super::{ModelAnalysis, analyse};
use crate::changes::{BestChange, ChangeEntry, ChangeHistory};
use crate::load::{LoadedModel, PastVersion};

/// One version of a model's figures.
#[derive(Debug)]
pub struct ModelVersion<'a> {
    /// The data version, `YYYY-MM-DD`: the page's folder `v/<date>/`.
    pub date: &'a str,
    /// The model file holding that version's figures.
    pub file: &'a LoadedModel,
    /// The import of the change log that brought these figures, when the
    /// log records it.
    pub import: Option<VersionImport<'a>>,
    /// An earlier version's analysis; `None` for the current version, whose
    /// analysis is the model's own (boxed: every model has a current
    /// version, and few an earlier one).
    pub analysis: Option<Box<ModelAnalysis>>,
}

/// The import that brought a version's figures.
#[derive(Debug)]
pub struct VersionImport<'a> {
    /// Its number in its change log, 1 for the first import.
    pub number: usize,
    /// What it changed in the model's figures.
    pub changes: FigureChanges<'a>,
}

/// What one import changed in one model's figures on one workload.
#[derive(Debug, Default, PartialEq)]
pub struct FigureChanges<'a> {
    /// The model appeared in this import.
    pub first_published: bool,
    /// Configurations added, removed and corrected.
    pub added: usize,
    pub removed: usize,
    pub corrected: usize,
    /// The fields the corrections changed, each once, in the log's order.
    pub corrected_fields: Vec<&'a str>,
    /// Each best figure that moved, in the log's order.
    pub best_moved: Vec<&'a BestChange>,
}

impl FigureChanges<'_> {
    /// Whether the import changed nothing of the model's figures.
    pub fn is_empty(&self) -> bool {
        *self == FigureChanges::default()
    }
}

/// What the import `e` changed in the figures of the model `slug` on
/// `workload`.
pub fn figure_changes<'a>(e: &'a ChangeEntry, workload: &str, slug: &str) -> FigureChanges<'a> {
    let is = |w: &str, s: &str| w == workload && s == slug;
    let mut corrected_fields: Vec<&str> = Vec::new();
    let corrected = e
        .configurations_changed
        .iter()
        .filter(|c| is(&c.workload, &c.slug))
        .inspect(|c| {
            for f in &c.fields {
                if !corrected_fields.contains(&f.as_str()) {
                    corrected_fields.push(f);
                }
            }
        })
        .count();
    FigureChanges {
        first_published: e.models_added.iter().any(|m| is(&m.workload, &m.slug)),
        added: e
            .configurations_added
            .iter()
            .filter(|c| is(&c.workload, &c.slug))
            .count(),
        removed: e
            .configurations_removed
            .iter()
            .filter(|c| is(&c.workload, &c.slug))
            .count(),
        corrected,
        corrected_fields,
        best_moved: e
            .best_changed
            .iter()
            .filter(|b| is(&b.workload, &b.slug))
            .collect(),
    }
}

/// The versions of the model file `current` on its workload, oldest first;
/// the last is the current one. `log` is its source's change history,
/// `past` its superseded files (any order). The current version is the
/// last import that changed its figures (the file's `data_version` without
/// a log); an earlier one is a superseded file older than it.
///
/// A model with no history at all (its source keeps no change log and no
/// superseded file of it, as for files written by hand or by
/// `energyboard-synth`) has no versions: its page is its only address, and
/// nothing was published under another that a citation could point at.
pub fn model_versions<'a>(
    log: Option<&'a ChangeHistory>,
    past: &[&'a PastVersion],
    current: &'a LoadedModel,
) -> Vec<ModelVersion<'a>> {
    if log.is_none() && past.is_empty() {
        return Vec::new();
    }
    let (workload, slug) = (current.workload.as_str(), current.file.slug.as_str());
    let imports: Vec<(usize, &ChangeEntry)> = log
        .into_iter()
        .flat_map(|h| h.entries.iter().enumerate())
        .filter(|(_, e)| e.changed_figures_of(workload, slug))
        .map(|(i, e)| (i + 1, e))
        .collect();
    let import_of = |date: &str| {
        imports
            .iter()
            .rev()
            .find(|(_, e)| e.upstream_version == date)
            .map(|&(number, e)| VersionImport {
                number,
                changes: figure_changes(e, workload, slug),
            })
    };
    let current_date = imports
        .last()
        .map_or(current.file.data_version.as_str(), |(_, e)| {
            e.upstream_version.as_str()
        });
    let mut earlier: Vec<&PastVersion> = past
        .iter()
        .copied()
        .filter(|p| p.version.as_str() < current_date)
        .collect();
    earlier.sort_by(|a, b| a.version.cmp(&b.version));
    // Sized exactly: a site holds one such list per model, and a list grown
    // by one push has room for four versions, each with an analysis' room.
    let mut out: Vec<ModelVersion<'a>> = Vec::with_capacity(earlier.len() + 1);
    out.extend(earlier.into_iter().map(|p| ModelVersion {
        date: &p.version,
        file: &p.model,
        import: import_of(&p.version),
        analysis: Some(Box::new(analyse(&p.model.file))),
    }));
    out.push(ModelVersion {
        date: current_date,
        file: current,
        import: import_of(current_date),
        analysis: None,
    });
    out
}
