//! A model's permanent version pages, `<model page>v/<YYYY-MM-DD>/`: one per
//! data version in which its figures changed (the current one too), each
//! showing that version's best per GPU and every configuration exactly as
//! its data file gives them, with a banner saying which version it is,
//! when it was superseded and what changed next.
//!
//! The versions are the change log's: the imports that changed the model's
//! figures (`ChangeHistory::figure_versions`). An earlier version's figures
//! come from its superseded file (`load::PastVersion`, kept in the data
//! folder's `history/` by the import), the current one's from the model
//! file itself.

use anyhow::Result;
use askama::Template;

use super::changes::{PAGE_PATH, entry_anchor, percent_text};
use super::model_page::{self, BestCard, Facts};
use super::{PageMeta, RenderCounts, Site, model_dir, put_page};
use crate::analyse;
use crate::changes::ChangeEntry;
use crate::fmt;
use crate::load::LoadedModel;
use crate::model::ModelFile;
use crate::write::PageSink;

/// One version of a model's figures.
pub(super) struct Version<'a> {
    /// The data version, `YYYY-MM-DD`, the page's folder `v/<date>/`.
    pub date: &'a str,
    /// The model file holding that version's figures.
    pub file: &'a LoadedModel,
    /// The change-log import that brought these figures, when recorded:
    /// its anchor on `/changes/` and the entry.
    pub import: Option<(String, &'a ChangeEntry)>,
}

impl Version<'_> {
    /// The page's folder inside the model's, e.g. `v/2025-12-17/`.
    pub fn dir(&self) -> String {
        format!("v/{}/", self.date)
    }

    /// What this version changed in the model's figures, one phrase each.
    pub fn changes(&self, workload: &str, slug: &str) -> Vec<String> {
        self.import
            .as_ref()
            .map_or_else(Vec::new, |(_, e)| what_changed(e, workload, slug))
    }
}

/// The versions of the model `lm` of `site`, oldest first; the last is the
/// current one (the model file itself). Earlier versions are those whose
/// superseded file the data folder keeps.
pub(super) fn versions_of<'s>(site: &'s Site<'_>, lm: &'s LoadedModel) -> Vec<Version<'s>> {
    let m = &lm.file;
    let source = m.source.id.as_deref();
    let log = site
        .change_logs
        .iter()
        .find(|(id, _)| *id == source)
        .map(|(_, h)| *h);
    let imports: Vec<(String, &ChangeEntry)> = log
        .into_iter()
        .flat_map(|h| h.entries.iter().enumerate())
        .filter(|(_, e)| e.changed_figures_of(&site.workload.id, &m.slug))
        .map(|(i, e)| (entry_anchor(source, i + 1), e))
        .collect();
    let import_of = |date: &str| {
        imports
            .iter()
            .rev()
            .find(|(_, e)| e.upstream_version == date)
            .cloned()
    };
    let current = imports.last().map_or(m.data_version.as_str(), |(_, e)| {
        e.upstream_version.as_str()
    });
    let mut out: Vec<Version<'s>> = site
        .past
        .get(m.slug.as_str())
        .into_iter()
        .flatten()
        .filter(|p| p.version.as_str() < current)
        .map(|p| Version {
            date: &p.version,
            file: &p.model,
            import: import_of(&p.version),
        })
        .collect();
    out.push(Version {
        date: current,
        file: lm,
        import: import_of(current),
    });
    out
}

/// What one import changed in a model's figures: "first published",
/// configurations added, removed and corrected, and each best figure that
/// moved (before → after, unit, change in percent).
fn what_changed(e: &ChangeEntry, workload: &str, slug: &str) -> Vec<String> {
    let is = |w: &str, s: &str| w == workload && s == slug;
    let mut out = Vec::new();
    if e.models_added.iter().any(|m| is(&m.workload, &m.slug)) {
        out.push("first published".to_owned());
    }
    let count =
        |n: usize, what: &str| format!("{n} configuration{} {what}", if n == 1 { "" } else { "s" });
    let added = e
        .configurations_added
        .iter()
        .filter(|c| is(&c.workload, &c.slug))
        .count();
    let removed = e
        .configurations_removed
        .iter()
        .filter(|c| is(&c.workload, &c.slug))
        .count();
    let changed: Vec<_> = e
        .configurations_changed
        .iter()
        .filter(|c| is(&c.workload, &c.slug))
        .collect();
    if added > 0 {
        out.push(count(added, "added"));
    }
    if removed > 0 {
        out.push(count(removed, "removed"));
    }
    if !changed.is_empty() {
        let mut fields: Vec<&str> = Vec::new();
        for f in changed.iter().flat_map(|c| &c.fields) {
            if !fields.contains(&f.as_str()) {
                fields.push(f);
            }
        }
        out.push(
            format!(
                "{} corrected ({})",
                count(changed.len(), ""),
                fields.join(", ")
            )
            .replace("  ", " "),
        );
    }
    for b in e.best_changed.iter().filter(|b| is(&b.workload, &b.slug)) {
        let value = |v: Option<f64>| {
            v.map_or_else(|| "none".to_owned(), |v| fmt::figure_value(&b.figure, v))
        };
        out.push(match (b.old, b.new) {
            (None, _) => format!("best on {}: {} {}", b.gpu, value(b.new), b.unit),
            _ => format!(
                "best on {}: {} → {} {} ({})",
                b.gpu,
                value(b.old),
                value(b.new),
                b.unit,
                percent_text(b)
            ),
        });
    }
    out
}

/// A version page (`templates/model_version.html`).
#[derive(Template)]
#[template(path = "model_version.html")]
struct VersionPage<'a> {
    meta: PageMeta,
    site: &'a Site<'a>,
    m: &'a ModelFile,
    /// The workload's name as that version's file gives it.
    workload_name: &'a str,
    date: &'a str,
    /// The next version's date, when superseded, and what it changed.
    superseded: Option<(&'a str, Vec<String>)>,
    /// The anchor of the next version's import on `/changes/`.
    next_import: Option<String>,
    /// What this version changed, and its import's anchor.
    changes: Vec<String>,
    import: Option<String>,
    facts: Facts,
    best_cards: Vec<(String, Option<BestCard<'a>>)>,
    config_tables: Vec<(String, String)>,
    deadline: String,
    bibtex: String,
    changes_path: &'static str,
}

/// Writes every version page of the model `lm` of `site`.
pub(super) fn render_versions(
    site: &Site<'_>,
    lm: &LoadedModel,
    sink: &dyn PageSink,
) -> Result<RenderCounts> {
    let versions = versions_of(site, lm);
    let slug = &lm.file.slug;
    let workload = &site.workload.id;
    for (i, v) in versions.iter().enumerate() {
        let next = versions.get(i + 1);
        let m = &v.file.file;
        let a = analyse::analyse(m);
        let words = site.words();
        let rel = format!("{}{}index.html", model_dir(slug), v.dir());
        let description = format!(
            "{} on {}: the figures of data version {}, as that version gave them.",
            m.name, v.file.workload_name, v.date
        );
        let title = format!("{} (data version {})", m.name, v.date);
        let meta = site.meta(&rel, &title, description, "");
        let deadline = format!("{} {}", fmt::limit_ms(m.deadline()), words.latency_unit);
        let tables = super::kind::tables(site.workload.measure);
        let url = site.absolute(&site.path(&format!("{}{}", model_dir(slug), v.dir())));
        let cited = model_page::Cited {
            url: &url,
            data_version: v.date,
            versioned: true,
        };
        let page = VersionPage {
            facts: model_page::version_facts(site, m, &a, &deadline, v.date),
            best_cards: model_page::best_cards(site, m, &a, &tables),
            config_tables: model_page::config_tables(m, &a, &tables, &meta.root, words)?,
            bibtex: model_page::bibtex(m, words, site.workload, &cited)?,
            site,
            m,
            workload_name: &v.file.workload_name,
            date: v.date,
            superseded: next.map(|n| (n.date, n.changes(workload, slug))),
            next_import: next.and_then(|n| n.import.as_ref().map(|(a, _)| a.clone())),
            changes: v.changes(workload, slug),
            import: v.import.as_ref().map(|(a, _)| a.clone()),
            deadline,
            changes_path: PAGE_PATH,
            meta,
        };
        put_page(sink, &site.path(&rel), &page)?;
    }
    Ok(RenderCounts {
        pages: versions.len(),
        charts: 0,
    })
}
