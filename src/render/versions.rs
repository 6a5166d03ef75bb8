//! A model's permanent version pages, `<model page>v/<YYYY-MM-DD>/`: one per
//! data version in which its figures changed (the current one too), each
//! showing that version's best per GPU and every configuration exactly as
//! its data file gives them, with a banner saying which version it is,
//! when it was superseded and what changed next. Which versions there are,
//! and what each changed, is `analyse::versions`'; this lays them out.

use anyhow::Result;
use askama::Template;

use super::changes::{PAGE_PATH, entry_anchor, percent_text};
use super::model_page::{self, Facts, GpuCard, GpuTable};
use super::{PageMeta, RenderCounts, Site, model_dir, put_page};
use crate::analyse::ModelAnalysis;
use crate::analyse::versions::{FigureChanges, ModelVersion};
use crate::fmt;
use crate::load::LoadedModel;
use crate::model::ModelFile;
use crate::write::PageSink;

/// The page's folder inside the model's, e.g. `v/2025-12-17/`.
pub(super) fn version_dir(date: &str) -> String {
    format!("v/{date}/")
}

/// The anchor on `/changes/` of the import that brought the version `v`.
pub(super) fn import_anchor(v: &ModelVersion<'_>) -> Option<String> {
    let source = v.file.file.source.id.as_deref();
    v.import.as_ref().map(|i| entry_anchor(source, i.number))
}

/// What the version `v` changed in the model's figures, one phrase each.
pub(super) fn change_phrases(v: &ModelVersion<'_>) -> Vec<String> {
    v.import
        .as_ref()
        .map_or_else(Vec::new, |i| phrases(&i.changes))
}

/// "first published", configurations added, removed and corrected, and
/// each best figure that moved (before → after, unit, change in percent).
fn phrases(c: &FigureChanges<'_>) -> Vec<String> {
    let count = |n: usize, what: &str| {
        let s = if n == 1 { "" } else { "s" };
        format!("{n} configuration{s} {what}")
    };
    let mut out = Vec::new();
    if c.first_published {
        out.push("first published".to_owned());
    }
    if c.added > 0 {
        out.push(count(c.added, "added"));
    }
    if c.removed > 0 {
        out.push(count(c.removed, "removed"));
    }
    if c.corrected > 0 {
        let what = format!("corrected ({})", c.corrected_fields.join(", "));
        out.push(count(c.corrected, &what));
    }
    for b in &c.best_moved {
        let value = |v: Option<f64>| {
            v.map_or_else(|| "none".to_owned(), |v| fmt::figure_value(&b.figure, v))
        };
        out.push(match b.old {
            None => format!("best on {}: {} {}", b.gpu, value(b.new), b.unit),
            Some(_) => format!(
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
    /// The next version, when superseded.
    superseded: Option<NextVersion<'a>>,
    /// The anchor of the next version's import on `/changes/`.
    next_import: Option<String>,
    /// What this version changed, and its import's anchor.
    changes: Vec<String>,
    import: Option<String>,
    facts: Facts,
    best_cards: Vec<GpuCard<'a>>,
    config_tables: Vec<GpuTable>,
    deadline: String,
    bibtex: String,
    changes_path: &'static str,
}

/// Writes every version page of the model `lm` of `site`, whose current
/// analysis is `a`.
pub(super) fn render_versions(
    site: &Site<'_>,
    lm: &LoadedModel,
    a: &ModelAnalysis,
    sink: &dyn PageSink,
) -> Result<RenderCounts> {
    let versions = site.versions_of(lm);
    for (i, v) in versions.iter().enumerate() {
        let analysis = v.analysis.as_deref().unwrap_or(a);
        let rel = format!(
            "{}{}index.html",
            model_dir(&lm.file.slug),
            version_dir(v.date)
        );
        let page = version_page(site, v, versions.get(i + 1), analysis, &rel)?;
        put_page(sink, &site.path(&rel), &page)?;
    }
    Ok(RenderCounts {
        pages: versions.len(),
        charts: 0,
    })
}

/// The version that superseded a page's, and what it changed, one phrase
/// each.
struct NextVersion<'a> {
    date: &'a str,
    changes: Vec<String>,
}

/// The page of the version `v` (superseded by `next`, if any) at `rel`.
fn version_page<'a>(
    site: &'a Site<'a>,
    v: &'a ModelVersion<'a>,
    next: Option<&'a ModelVersion<'a>>,
    a: &'a ModelAnalysis,
    rel: &str,
) -> Result<VersionPage<'a>> {
    let m = &v.file.file;
    let words = site.words();
    let description = format!(
        "{} on {}: the figures of data version {}, as that version gave them.",
        m.name, v.file.workload_name, v.date
    );
    let title = format!("{} (data version {})", m.name, v.date);
    let meta = site.meta(rel, &title, description, "");
    let deadline = format!("{} {}", fmt::limit_ms(m.deadline()), words.latency_unit);
    let tables = super::kind::tables(site.workload.measure);
    let url = site.absolute(&site.path(rel.strip_suffix("index.html").unwrap_or(rel)));
    let cited = model_page::Cited {
        url: &url,
        data_version: v.date,
        versioned: true,
    };
    Ok(VersionPage {
        facts: model_page::version_facts(site, m, a, &deadline, v.date),
        best_cards: model_page::best_cards(site, m, a, &tables),
        config_tables: model_page::config_tables(m, a, &tables, &meta.root, words)?,
        bibtex: model_page::bibtex(m, words, site.workload, &cited)?,
        site,
        m,
        workload_name: &v.file.workload_name,
        date: v.date,
        superseded: next.map(|n| NextVersion {
            date: n.date,
            changes: change_phrases(n),
        }),
        next_import: next.and_then(import_anchor),
        changes: change_phrases(v),
        import: import_anchor(v),
        deadline,
        changes_path: PAGE_PATH,
        meta,
    })
}
