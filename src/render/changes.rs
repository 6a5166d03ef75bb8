//! The change log: `/changes/` (every recorded import, newest first), its
//! Atom feed (`/changes/feed.xml`, with a base URL) and each model page's
//! history of best figures. The history is `data/changes.json`
//! ([`crate::changes`]), written by `energyboard import`.

use std::collections::BTreeMap;

use anyhow::Result;
use askama::Template;

use super::views::{Cell, Header, Row, RowGroup, TableView, table_html};
use super::{Mirror, PageMeta, RenderCounts, gpu_anchor, link, model_dir, put_page, text};
use crate::changes::{BestChange, ChangeEntry, ChangeHistory, ConfigurationChange, ModelRef};
use crate::fmt;
use crate::load::LoadedChanges;
use crate::model::row_anchor;
use crate::write::PageSink;

/// The change log page, from the site root.
pub const PAGE_PATH: &str = "changes/index.html";
/// The Atom feed, from the site root.
pub const FEED_PATH: &str = "changes/feed.xml";

/// One recorded change of one model's best figure on one GPU.
#[derive(Debug, Clone, Copy)]
pub struct BestHistory<'a> {
    /// The entry's number in the history, from 1 (oldest): its anchor on
    /// `/changes/` is `#import-<number>` (`#<id>-import-<number>` for a
    /// source's entry).
    pub number: usize,
    /// The source whose history it is: `None` for the leaderboard's.
    pub source: Option<&'a str>,
    pub entry: &'a ChangeEntry,
    pub change: &'a BestChange,
}

/// The best-figure changes of `workload` in the history of `source` (`None`
/// for the leaderboard's), by model slug, newest first.
pub fn best_history<'a>(
    history: &'a ChangeHistory,
    workload: &str,
    source: Option<&'a str>,
) -> BTreeMap<String, Vec<BestHistory<'a>>> {
    let mut out: BTreeMap<String, Vec<BestHistory<'a>>> = BTreeMap::new();
    for (i, entry) in history.entries.iter().enumerate().rev() {
        for change in entry.best_changed.iter().filter(|b| b.workload == workload) {
            out.entry(change.slug.clone())
                .or_default()
                .push(BestHistory {
                    number: i + 1,
                    source,
                    entry,
                    change,
                });
        }
    }
    out
}

/// `#import-<n>`'s id; `#<id>-import-<n>` for an entry of the source
/// `id`, so a source's entries never take the leaderboard's anchors.
pub(super) fn entry_anchor(source: Option<&str>, number: usize) -> String {
    match source {
        Some(id) => format!("{id}-import-{number}"),
        None => format!("import-{number}"),
    }
}

/// The change in percent of the old value, signed ("+2.3", "−12.0"); with
/// two decimals where one would show a change as none. "new" when the GPU
/// had no best figure before, "gone" when it has none after.
pub fn percent_text(b: &BestChange) -> String {
    match (b.old, b.new, b.percent()) {
        (None, _, _) => "new".to_owned(),
        (_, None, _) => "gone".to_owned(),
        (_, _, None) => "—".to_owned(),
        (_, _, Some(p)) => {
            let decimals = if p != 0.0 && p.abs() < 0.05 { 2 } else { 1 };
            let text = fmt::grouped_fixed(p.abs(), decimals);
            if text.bytes().all(|c| matches!(c, b'0' | b'.')) {
                text
            } else if p < 0.0 {
                format!("\u{2212}{text}")
            } else {
                format!("+{text}")
            }
        }
    }
}

/// The configurations of one model that appeared or disappeared.
struct ConfigGroup {
    model: Cell,
    rows: Vec<Cell>,
}

/// One best figure that moved.
struct BestRow {
    model: Cell,
    workload: String,
    gpu: Cell,
    before: Cell,
    after: Cell,
    unit: String,
    change: String,
}

/// One change history as the log shows it: the leaderboard's or a source's.
struct Log<'h> {
    /// The source's id: `None` for the leaderboard's history.
    id: Option<&'h str>,
    /// Whose history it is, when the site has other sources' histories.
    whose: Option<super::SourceMark>,
    history: &'h ChangeHistory,
    /// Its published file, from the site root.
    file: String,
}

/// The leaderboard's change history, then each other source's, by id: each
/// with its source's id (`None` for the leaderboard's) and its published
/// file, from the site root.
pub(super) fn histories<'m>(mirror: &'m Mirror<'_>) -> impl Iterator<Item = Published<'m>> {
    let leaderboard = mirror.changes.map(|changes| Published {
        source: None,
        file: "data/changes.json".to_owned(),
        changes,
    });
    let others = mirror.source_changes.iter().map(|s| Published {
        source: Some(s.source.as_str()),
        file: format!(
            "data/{}/{}/{}",
            crate::model::SOURCES_DIR,
            s.source,
            crate::changes::FILE_NAME
        ),
        changes: &s.changes,
    });
    leaderboard.into_iter().chain(others)
}

/// A change history as the site publishes it.
pub(super) struct Published<'m> {
    /// Its source's id, `None` for the leaderboard's.
    pub source: Option<&'m str>,
    /// Its published file, from the site root.
    pub file: String,
    pub changes: &'m LoadedChanges,
}

/// The histories of `mirror`, in [`histories`] order; each names its
/// source when there are sources' histories.
fn logs<'m>(mirror: &'m Mirror<'_>) -> Vec<Log<'m>> {
    let mixed = !mirror.source_changes.is_empty();
    let whose = |id: Option<&str>| {
        let key = id.unwrap_or(crate::model::LEADERBOARD_KEY);
        let on_site = mirror.info.sources.iter().find(|s| s.key == key).cloned();
        // A source whose models are all gone: its id for a name.
        let mut mark = on_site.unwrap_or_else(|| super::SourceMark {
            key: key.to_owned(),
            name: key.to_owned(),
            ..Default::default()
        });
        if id.is_none() && mark.url.is_empty() {
            "ML.ENERGY Leaderboard".clone_into(&mut mark.name);
        }
        mark
    };
    let log = |p: Published<'m>| Log {
        id: p.source,
        whose: mixed.then(|| whose(p.source)),
        history: &p.changes.history,
        file: p.file,
    };
    histories(mirror).map(log).collect()
}

/// Every entry of `logs`, newest first: by import date, then the
/// leaderboard's before other sources' (in id order), then the later
/// import first (a stable sort keeps the order listed). Each with its log
/// and its number in that log.
fn newest_first<'l, 'h>(logs: &'l [Log<'h>]) -> Vec<LogEntry<'l, 'h>> {
    let mut all: Vec<LogEntry<'l, 'h>> = logs
        .iter()
        .flat_map(|log| {
            log.history
                .entries
                .iter()
                .enumerate()
                .rev()
                .map(move |(i, entry)| LogEntry {
                    log,
                    number: i + 1,
                    entry,
                })
        })
        .collect();
    all.sort_by(|a, b| b.entry.imported.cmp(&a.entry.imported));
    all
}

/// An entry of a change log, with its log and its number there (from 1).
struct LogEntry<'l, 'h> {
    log: &'l Log<'h>,
    number: usize,
    entry: &'h ChangeEntry,
}

/// One import as the page and the feed show it.
struct EntryView<'h> {
    entry: &'h ChangeEntry,
    anchor: String,
    /// The heading, e.g. "Leaderboard data of 2026-02-16", or with the
    /// source's name beside other sources' entries.
    title: String,
    /// Whose data, beside other sources' entries.
    whose: Option<super::SourceMark>,
    number: usize,
    summary: String,
    /// The workloads and models added and removed, under their headings
    /// ("Models added"): the lists that have any.
    lists: Vec<ChangeList>,
    /// The configurations added and removed: those that have any.
    configurations: Vec<ConfigurationChanges>,
    configurations_changed: Vec<ConfigGroup>,
    /// Each changed field with its count of configurations: "tokens_per_second (838)".
    changed_fields: String,
    best: Vec<BestRow>,
    /// The best figures as a table (the page only).
    best_table: String,
}

/// The workloads or the models an import added or removed, under their
/// heading.
struct ChangeList {
    /// "Models added".
    heading: &'static str,
    items: Vec<Cell>,
}

/// The configurations an import added, or those it removed.
struct ConfigurationChanges {
    /// "added" or "removed".
    what: &'static str,
    count: usize,
    /// The configurations, grouped by model.
    groups: Vec<ConfigGroup>,
}

/// "2 models added, 14 configurations added, 3 best figures moved".
fn summary(e: &ChangeEntry) -> String {
    let moved = e
        .best_changed
        .iter()
        .filter(|b| b.old.is_some() && b.new.is_some())
        .count();
    let new = e.best_changed.iter().filter(|b| b.old.is_none()).count();
    let gone = e.best_changed.iter().filter(|b| b.new.is_none()).count();
    let parts: Vec<String> = [
        (e.workloads_added.len(), "workload added", "workloads added"),
        (
            e.workloads_removed.len(),
            "workload removed",
            "workloads removed",
        ),
        (e.models_added.len(), "model added", "models added"),
        (e.models_removed.len(), "model removed", "models removed"),
        (
            e.configurations_added.len(),
            "configuration added",
            "configurations added",
        ),
        (
            e.configurations_removed.len(),
            "configuration removed",
            "configurations removed",
        ),
        (
            e.configurations_changed.len(),
            "configuration changed",
            "configurations changed",
        ),
        (moved, "best figure moved", "best figures moved"),
        (new, "new best figure", "new best figures"),
        (gone, "best figure gone", "best figures gone"),
    ]
    .into_iter()
    .filter(|(n, _, _)| *n > 0)
    .map(|(n, one, many)| format!("{n} {}", if n == 1 { one } else { many }))
    .collect();
    if parts.is_empty() {
        "no figure changed".to_owned()
    } else {
        parts.join(", ")
    }
}

/// A model on the site: its workload's part and its index there.
struct Located<'s> {
    site: &'s super::Site<'s>,
    index: usize,
}

/// Links from one page (or the feed) into the site.
struct Links<'m, 'a> {
    mirror: &'m Mirror<'a>,
    /// The site root from where the links are: `../` on `/changes/`, the
    /// base URL in the feed.
    root: String,
}

impl Links<'_, '_> {
    /// Where a model is on the site now, when the site has it.
    fn locate(&self, workload: &str, slug: &str) -> Option<Located<'_>> {
        let at = self.mirror.slugs.get(slug)?.iter();
        at.map(|id| Located {
            site: &self.mirror.workloads[id.part],
            index: id.index,
        })
        .find(|l| l.site.workload.id == workload)
    }

    fn part(&self, id: &str) -> Option<&super::Site<'_>> {
        self.mirror.workloads.iter().find(|w| w.workload.id == id)
    }

    fn workload_name(&self, id: &str) -> String {
        self.part(id)
            .map_or_else(|| id.to_owned(), |w| w.workload.name.clone())
    }

    /// The model page, with `#fragment` if given.
    fn model_href(&self, workload: &str, slug: &str, fragment: Option<&str>) -> Option<String> {
        let w = self.locate(workload, slug)?.site;
        let fragment = fragment.map(|f| format!("#{f}")).unwrap_or_default();
        Some(format!(
            "{}{}{}index.html{fragment}",
            self.root,
            w.prefix,
            model_dir(slug)
        ))
    }

    /// The model's display name: as the site has it now, else as recorded.
    fn model_name(&self, workload: &str, slug: &str, recorded: Option<&str>) -> String {
        match self.locate(workload, slug) {
            Some(l) => l.site.models[l.index].file.name.clone(),
            None => recorded.unwrap_or(slug).to_owned(),
        }
    }

    /// "<name> (<workload>)", linked to the model page.
    fn model(&self, workload: &str, slug: &str, name: &str) -> Cell {
        let text = format!("{name} ({})", self.workload_name(workload));
        item(text, self.model_href(workload, slug, None))
    }

    /// A row of a model, linked to its anchor when the model has it now.
    fn row(&self, workload: &str, slug: &str, row_id: &str) -> Option<String> {
        let l = self.locate(workload, slug)?;
        l.site
            .has_row(l.index, row_id)
            .then(|| self.model_href(workload, slug, Some(&row_anchor(slug, row_id))))?
    }

    /// Rows, each named by (workload, slug, row id), grouped by model in
    /// the order given, each shown as its text.
    fn groups<'r>(&self, rows: impl Iterator<Item = ([&'r str; 3], String)>) -> Vec<ConfigGroup> {
        let mut groups: Vec<ConfigGroup> = Vec::new();
        let mut keys: Vec<(&str, &str)> = Vec::new();
        for ([workload, slug, row_id], text) in rows {
            let row = item(text, self.row(workload, slug, row_id));
            let key = (workload, slug);
            if let Some(k) = keys.iter().position(|k| *k == key) {
                groups[k].rows.push(row);
            } else {
                keys.push(key);
                let model = self.model(workload, slug, &self.model_name(workload, slug, None));
                groups.push(ConfigGroup {
                    model,
                    rows: vec![row],
                });
            }
        }
        groups
    }

    fn best_row(&self, b: &BestChange, recorded_name: Option<&str>) -> BestRow {
        let value = |v: Option<f64>, row: &Option<String>| {
            item(
                v.map_or_else(|| "—".to_owned(), |v| fmt::figure_value(&b.figure, v)),
                v.and(row.as_deref())
                    .and_then(|r| self.row(&b.workload, &b.slug, r)),
            )
        };
        // The GPU's best card on the model page, when the model has the GPU.
        let has_gpu = self
            .locate(&b.workload, &b.slug)
            .is_some_and(|l| l.site.models[l.index].file.gpus.contains(&b.gpu));
        let card = self.model_href(&b.workload, &b.slug, Some(&gpu_anchor(&b.gpu)));
        BestRow {
            model: item(
                self.model_name(&b.workload, &b.slug, recorded_name),
                self.model_href(&b.workload, &b.slug, None),
            ),
            workload: self.workload_name(&b.workload),
            gpu: item(b.gpu.clone(), card.filter(|_| has_gpu)),
            before: value(b.old, &b.old_row_id),
            after: value(b.new, &b.new_row_id),
            unit: b.unit.clone(),
            change: percent_text(b),
        }
    }

    fn entry<'h>(
        &self,
        log: &Log<'_>,
        number: usize,
        e: &'h ChangeEntry,
        with_table: bool,
    ) -> Result<EntryView<'h>> {
        // A model that is gone keeps the name the history recorded.
        let recorded = |b: &BestChange| {
            e.models_removed
                .iter()
                .chain(&e.models_added)
                .find(|m| m.workload == b.workload && m.slug == b.slug)
                .map(|m| m.name.as_str())
        };
        let best: Vec<BestRow> = e
            .best_changed
            .iter()
            .map(|b| self.best_row(b, recorded(b)))
            .collect();
        let anchor = entry_anchor(log.id, number);
        let best_table = if with_table && !best.is_empty() {
            entry_best_table(log, number, &e.upstream_version, &best)?
        } else {
            String::new()
        };
        let whose = log
            .whose
            .as_ref()
            .map_or("Leaderboard", |w| w.name.as_str());
        Ok(EntryView {
            entry: e,
            title: format!("{whose} data of {}", e.upstream_version),
            whose: log.whose.clone(),
            anchor,
            number,
            summary: summary(e),
            lists: self.entry_lists(e),
            configurations: self.entry_configurations(e),
            // Each row with the fields that changed: "`h100-1-8` (tokens_per_second)".
            configurations_changed: self.groups(e.configurations_changed.iter().map(|c| {
                (
                    [&*c.workload, &c.slug, &c.row_id],
                    format!("{} ({})", c.row_id, c.fields.join(", ")),
                )
            })),
            changed_fields: changed_fields(&e.configurations_changed),
            best,
            best_table,
        })
    }

    /// The workloads and models an import added or removed, each list under
    /// its heading ("Models added"), only the lists that have any.
    fn entry_lists(&self, e: &ChangeEntry) -> Vec<ChangeList> {
        let workloads = |ids: &[String]| {
            let cell = |id: &String| {
                let part = self.part(id);
                item(
                    part.map_or_else(|| id.clone(), |w| format!("{} ({id})", w.workload.name)),
                    part.map(|w| format!("{}{}index.html", self.root, w.prefix)),
                )
            };
            ids.iter().map(cell).collect::<Vec<_>>()
        };
        let models = |ms: &[ModelRef]| {
            ms.iter()
                .map(|m| self.model(&m.workload, &m.slug, &m.name))
                .collect::<Vec<_>>()
        };
        [
            ("Workloads added", workloads(&e.workloads_added)),
            ("Workloads removed", workloads(&e.workloads_removed)),
            ("Models added", models(&e.models_added)),
            ("Models removed", models(&e.models_removed)),
        ]
        .into_iter()
        .filter(|(_, items)| !items.is_empty())
        .map(|(heading, items)| ChangeList { heading, items })
        .collect()
    }

    /// The configurations an import added and removed, only those that
    /// have any.
    fn entry_configurations(&self, e: &ChangeEntry) -> Vec<ConfigurationChanges> {
        [
            ("added", &e.configurations_added),
            ("removed", &e.configurations_removed),
        ]
        .into_iter()
        .filter(|(_, rows)| !rows.is_empty())
        .map(|(what, rows)| {
            let texts = rows
                .iter()
                .map(|c| ([&*c.workload, &c.slug, &c.row_id], c.row_id.clone()));
            ConfigurationChanges {
                what,
                count: rows.len(),
                groups: self.groups(texts),
            }
        })
        .collect()
    }
}

/// The table of the best figures an import moved, before and after, for
/// import `number` of `log`, of the data `version`.
fn entry_best_table(
    log: &Log<'_>,
    number: usize,
    version: &str,
    best: &[BestRow],
) -> Result<String> {
    // Unique per import: each table is a landmark named by its caption.
    let (id, of) = match (log.id, &log.whose) {
        (Some(id), Some(w)) => (
            entry_anchor(log.id, number),
            format!("of {} ({id} data of {version})", w.name),
        ),
        _ => (
            number.to_string(),
            format!("(leaderboard data of {version})"),
        ),
    };
    let caption = format!("Best figures per model and GPU before and after import {number} {of}");
    let rows = best
        .iter()
        .map(|r| {
            let first = vec![r.model.clone(), text(&r.workload), r.gpu.clone()];
            let figures = [r.before.clone(), r.after.clone()];
            best_table_row(first, figures, &r.unit, r.change.clone())
        })
        .collect();
    let first = [("Model", "model"), ("Workload", "workload"), ("GPU", "gpu")];
    let groups = vec![RowGroup { title: None, rows }];
    table_html(&best_table(format!("best-{id}"), caption, first, groups))
}

/// Each field that changed, with the number of configurations it changed
/// in, in the order of the model format: "tokens_per_second (838)".
fn changed_fields(rows: &[ConfigurationChange]) -> String {
    let mut fields: Vec<(&str, usize)> = Vec::new();
    for field in rows.iter().flat_map(|c| &c.fields) {
        match fields.iter_mut().find(|(f, _)| *f == field) {
            Some((_, n)) => *n += 1,
            None => fields.push((field, 1)),
        }
    }
    fields
        .iter()
        .map(|(f, n)| format!("{f} ({n})"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Text, linked when what it names is on the site now.
fn item(text: String, href: Option<String>) -> Cell {
    Cell {
        text,
        href,
        ..Cell::default()
    }
}

/// A row of a table of best figures ([`best_table`]): the `first` cells,
/// the first a row header, then the figure before and after, its unit and
/// the change.
fn best_table_row(mut cells: Vec<Cell>, figures: [Cell; 2], unit: &str, change: String) -> Row {
    cells[0].header = true;
    cells.extend(figures.map(|f| Cell { num: true, ..f }));
    cells.extend([
        text(unit),
        Cell {
            num: true,
            ..text(change)
        },
    ]);
    Row {
        cells,
        ..Row::default()
    }
}

/// A table of best figures: the `first` (label, key) columns, then the
/// figure before and after, its unit and the change.
fn best_table<const N: usize>(
    id: String,
    caption: String,
    first: [(&str, &str); N],
    groups: Vec<RowGroup>,
) -> TableView {
    let text = |(label, key)| Header::plain(label, "", false, key);
    let figures = [("Before", "old"), ("After", "new")].map(|(l, k)| Header::plain(l, "", true, k));
    let headers = first
        .into_iter()
        .map(text)
        .chain(figures)
        .chain([
            text(("Unit", "unit")),
            Header::plain("Change", "%", true, "change"),
        ])
        .collect();
    TableView {
        id,
        caption,
        headers,
        groups,
        sortable: false,
    }
}

#[derive(Template)]
#[template(path = "changes.html")]
struct ChangesPage<'h> {
    meta: PageMeta,
    /// The histories: none when the data folder has no change history.
    logs: &'h [Log<'h>],
    entries: Vec<EntryView<'h>>,
    /// With other sources' histories, each history's source (two or more: a filter); else empty.
    sources: Vec<super::SourceMark>,
}

#[derive(Template)]
#[template(path = "feed_entry.html")]
struct FeedContent<'a> {
    e: &'a EntryView<'a>,
}

/// Each entry's `href` (the page's, with the entry's anchor) is its id too.
#[derive(Template)]
#[template(path = "feed.xml")]
struct Feed<'h> {
    self_href: String,
    page_href: String,
    updated: String,
    entries: Vec<FeedEntry<'h>>,
}

/// One import in the feed.
struct FeedEntry<'h> {
    view: EntryView<'h>,
    /// The import's change as HTML.
    content: String,
}

/// A date as an Atom timestamp (RFC 3339), at midnight UTC: the history
/// records days, never the time of day.
fn atom_time(date: &str) -> String {
    format!("{date}T00:00:00Z")
}

/// Writes `/changes/` and, when the site has one, the Atom feed: the
/// leaderboard's history and, beside it, each other source's, every entry
/// naming its source.
pub(super) fn render_changes(mirror: &Mirror<'_>, sink: &dyn PageSink) -> Result<RenderCounts> {
    let logs = logs(mirror);
    let mixed = !mirror.source_changes.is_empty();
    let count: usize = logs.iter().map(|l| l.history.entries.len()).sum();
    // Without other sources' histories, the count is the leaderboard's.
    let description = match (count, mixed) {
        (1.., true) => format!(
            "Every change to the mirrored data of each source, newest first: {count} recorded \
                imports, the models and configurations added or removed, and every best figure \
                that moved, each import marked with its source."
        ),
        (1.., false) => format!(
            "Every change to the mirrored leaderboard data, newest first: {count} recorded \
                imports, the models and configurations added or removed, and every best figure \
                that moved."
        ),
        _ => "The change log of the mirrored leaderboard data: no import has been recorded yet."
            .to_owned(),
    };
    let mut meta = mirror.meta(PAGE_PATH, "Change log", description, "");
    let links = Links {
        mirror,
        root: meta.root.clone(),
    };
    let entries = newest_first(&logs)
        .into_iter()
        .map(|e| links.entry(e.log, e.number, e.entry, true))
        .collect::<Result<Vec<_>>>()?;
    let sources: Vec<super::SourceMark> = logs.iter().filter_map(|l| l.whose.clone()).collect();
    if sources.len() > 1 {
        meta.head_style = super::source_filter_style(&sources)?;
    }
    let page = ChangesPage {
        logs: &logs,
        entries,
        meta,
        sources,
    };
    put_page(sink, PAGE_PATH, &page)?;
    if let (true, Some(base)) = (mirror.feed, &mirror.base_url) {
        let feed = feed(mirror, &logs, base)?;
        sink.put(FEED_PATH, feed.as_bytes())?;
    }
    Ok(RenderCounts::ONE_PAGE)
}

/// The Atom feed of `logs`: one entry per import, newest first, each with
/// a summary and the full change as HTML. Its times are the imports'
/// dates, never the time of the build.
fn feed(mirror: &Mirror<'_>, logs: &[Log<'_>], base: &str) -> Result<String> {
    let links = Links {
        mirror,
        root: base.to_owned(),
    };
    let page_href = format!("{base}changes/");
    let entries = newest_first(logs)
        .into_iter()
        .map(|e| {
            let view = links.entry(e.log, e.number, e.entry, false)?;
            let content = FeedContent { e: &view }.render()?;
            Ok(FeedEntry { view, content })
        })
        .collect::<Result<Vec<_>>>()?;
    let updated = logs
        .iter()
        .flat_map(|l| &l.history.entries)
        .map(|e| e.imported.as_str())
        .max()
        .map(atom_time)
        .unwrap_or_default();
    Ok(Feed {
        self_href: format!("{base}{FEED_PATH}"),
        page_href,
        updated,
        entries,
    }
    .render()?)
}

/// The "history of best figures" table of one model page: one group per
/// GPU (the model's GPUs first, in its order), newest first. `root` leads
/// from the page to the site root.
pub(super) fn model_history_table(
    history: &[BestHistory<'_>],
    gpus: &[String],
    root: &str,
) -> TableView {
    let mut order: Vec<&str> = gpus.iter().map(String::as_str).collect();
    for h in history {
        if !order.contains(&h.change.gpu.as_str()) {
            order.push(&h.change.gpu);
        }
    }
    let groups = order
        .into_iter()
        .filter_map(|gpu| {
            let rows: Vec<Row> = history
                .iter()
                .filter(|h| h.change.gpu == gpu)
                .map(|h| {
                    let b = h.change;
                    let value = |v: Option<f64>| {
                        v.map_or_else(|| "—".to_owned(), |v| fmt::figure_value(&b.figure, v))
                    };
                    let href = format!("{root}{PAGE_PATH}#{}", entry_anchor(h.source, h.number));
                    let first = vec![
                        link(&h.entry.imported, href),
                        text(&h.entry.upstream_version),
                    ];
                    let figures = [b.old, b.new].map(|v| text(value(v)));
                    best_table_row(first, figures, &b.unit, percent_text(b))
                })
                .collect();
            (!rows.is_empty()).then(|| RowGroup {
                title: Some(gpu.to_owned()),
                rows,
            })
        })
        .collect();
    // A source's model follows its source's data versions.
    let sources = history.iter().any(|h| h.source.is_some());
    let upstream = if sources {
        "Data version"
    } else {
        "Leaderboard data"
    };
    best_table(
        "table-history".into(),
        "Best figure per GPU at each import that changed it, newest first".into(),
        [("Imported", "imported"), (upstream, "upstream")],
        groups,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn change(old: Option<f64>, new: Option<f64>) -> BestChange {
        BestChange {
            workload: "w".into(),
            slug: "m".into(),
            gpu: "H100".into(),
            figure: "wh_per_million_output_tokens".into(),
            unit: "Wh/M tok".into(),
            old,
            new,
            old_row_id: None,
            new_row_id: None,
        }
    }

    #[test]
    fn percentages_are_signed_and_never_round_a_change_to_nothing() {
        assert_eq!(
            percent_text(&change(Some(200.0), Some(150.0))),
            "\u{2212}25.0"
        );
        assert_eq!(percent_text(&change(Some(100.0), Some(102.34))), "+2.3");
        assert_eq!(percent_text(&change(Some(100.0), Some(100.02))), "+0.02");
        assert_eq!(percent_text(&change(Some(100.0), Some(100.0))), "0.0");
        assert_eq!(percent_text(&change(None, Some(1.0))), "new");
        assert_eq!(percent_text(&change(Some(1.0), None)), "gone");
        assert_eq!(percent_text(&change(Some(0.0), Some(1.0))), "—");
        // The largest change the limits allow is printed whole, not as 1e20.
        let huge = percent_text(&change(Some(1e-6), Some(1e12)));
        assert!(huge.starts_with("+1") && huge.len() < 32, "{huge}");
        assert!(!huge.contains('e'), "{huge}");
    }
}
