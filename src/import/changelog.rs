//! The change-log entry of an import: what differs between the data folder
//! before and after, from the loaded, validated files and the existing
//! analysis (best configuration per GPU within the deadline). Pure; and the
//! entry as Markdown, for the import report and a pull-request body.

use std::collections::{BTreeMap, BTreeSet};

use crate::analyse;
use crate::changes::{BestChange, ChangeEntry, ConfigurationChange, ConfigurationRef, ModelRef};
use crate::columns::{self, Column};
use crate::load::{DataSet, LoadedModel};
use crate::model::{Measure, OutputKind};
use crate::select::GpuBest;

/// What the change log compares of one model on one workload.
#[derive(Clone)]
pub struct ModelFacts {
    pub name: String,
    /// The headline figure's column (its key and unit name the figure in
    /// the change history: `wh_per_million_output_tokens`, `Wh/M tok`).
    pub figure: &'static Column,
    /// Every configuration's fields, in file order.
    pub rows: Vec<RowFacts>,
    /// The best configuration per GPU, or none within the deadline.
    pub best: BTreeMap<String, Option<BestFacts>>,
}

/// One configuration's fields, by its row id.
#[derive(Debug, Clone, PartialEq)]
pub struct RowFacts {
    pub row_id: String,
    pub fields: serde_json::Map<String, serde_json::Value>,
}

/// The best configuration on one GPU: its headline figure and row id.
#[derive(Debug, Clone, PartialEq)]
pub struct BestFacts {
    pub figure: f64,
    pub row_id: String,
}

/// Which model of which workload: a snapshot's key.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct ModelKey {
    pub workload: String,
    pub slug: String,
}

/// Every model of a data folder by workload and slug.
pub type Snapshot = BTreeMap<ModelKey, ModelFacts>;

fn facts_of(m: &LoadedModel) -> ModelFacts {
    // The headline column's key and unit, as the change history names them.
    let figure = match m.file.measure() {
        Measure::Tokens => &columns::tokens::WH_PER_MILLION_OUTPUT_TOKENS,
        Measure::Diffusion(OutputKind::Image) => &columns::diffusion::JOULES_PER_IMAGE,
        Measure::Diffusion(OutputKind::Video) => &columns::diffusion::JOULES_PER_VIDEO,
    };
    let configs = &m.file.configurations;
    let rows = configs
        .iter()
        .map(|c| {
            let fields = serde_json::to_value(c)
                .ok()
                .and_then(|v| v.as_object().cloned());
            RowFacts {
                row_id: c.row_id.clone(),
                fields: fields.unwrap_or_default(),
            }
        })
        .collect();
    let best = analyse::best_per_gpu(&m.file)
        .into_iter()
        .map(|GpuBest { gpu, best: i }| {
            let best = i.map(|i| BestFacts {
                figure: configs[i].energy(),
                row_id: configs[i].row_id.clone(),
            });
            (gpu, best)
        })
        .collect();
    ModelFacts {
        name: m.file.name.clone(),
        figure,
        rows,
        best,
    }
}

/// The facts of every model in a loaded data folder.
pub fn snapshot(data: &DataSet) -> Snapshot {
    data.models
        .iter()
        .map(|m| {
            let key = ModelKey {
                workload: m.workload.clone(),
                slug: m.file.slug.clone(),
            };
            (key, facts_of(m))
        })
        .collect()
}

/// The entry recording what changed from `before` to `after` (its
/// `upstream_version`, `imported` and `source` filled by the caller).
pub fn diff(before: &Snapshot, after: &Snapshot) -> ChangeEntry {
    let mut e = ChangeEntry::default();
    let workloads =
        |s: &Snapshot| -> BTreeSet<String> { s.keys().map(|k| k.workload.clone()).collect() };
    let (wb, wa) = (workloads(before), workloads(after));
    e.workloads_added = wa.difference(&wb).cloned().collect();
    e.workloads_removed = wb.difference(&wa).cloned().collect();
    let only = |a: &Snapshot, b: &Snapshot| -> Vec<ModelRef> {
        a.iter()
            .filter(|(k, _)| !b.contains_key(*k))
            .map(|(k, f)| ModelRef {
                workload: k.workload.clone(),
                slug: k.slug.clone(),
                name: f.name.clone(),
            })
            .collect()
    };
    e.models_added = only(after, before);
    e.models_removed = only(before, after);
    let keys: BTreeSet<&ModelKey> = before.keys().chain(after.keys()).collect();
    for key in keys {
        let (old, new) = (before.get(key), after.get(key));
        if let (Some(old), Some(new)) = (old, new) {
            diff_rows(key, old, new, &mut e);
        }
        diff_best(key, old, new, &mut e);
    }
    e
}

/// The configurations of the model `key` added, removed or changed from
/// `old` to `new`, into `e`.
fn diff_rows(key: &ModelKey, old: &ModelFacts, new: &ModelFacts, e: &mut ChangeEntry) {
    let config_ref = |row_id: &String| ConfigurationRef {
        workload: key.workload.clone(),
        slug: key.slug.clone(),
        row_id: row_id.clone(),
    };
    let old_rows: BTreeMap<&String, _> = old.rows.iter().map(|r| (&r.row_id, &r.fields)).collect();
    let new_ids: BTreeSet<&String> = new.rows.iter().map(|r| &r.row_id).collect();
    for RowFacts { row_id, fields } in &new.rows {
        let Some(was) = old_rows.get(row_id) else {
            e.configurations_added.push(config_ref(row_id));
            continue;
        };
        let changed: Vec<String> = fields
            .iter()
            .filter(|(k, v)| was.get(*k) != Some(*v))
            .map(|(k, _)| k.clone())
            .chain(was.keys().filter(|k| !fields.contains_key(*k)).cloned())
            .collect();
        if !changed.is_empty() {
            e.configurations_changed.push(ConfigurationChange {
                workload: key.workload.clone(),
                slug: key.slug.clone(),
                row_id: row_id.clone(),
                fields: changed,
            });
        }
    }
    e.configurations_removed.extend(
        old.rows
            .iter()
            .filter(|r| !new_ids.contains(&r.row_id))
            .map(|r| config_ref(&r.row_id)),
    );
}

/// The best figures of the model `key` that moved from `old` to `new`, GPU
/// by GPU, into `e` (a model that appeared or disappeared lists all of its
/// own).
fn diff_best(
    key: &ModelKey,
    old: Option<&ModelFacts>,
    new: Option<&ModelFacts>,
    e: &mut ChangeEntry,
) {
    let empty = BTreeMap::new();
    let old_best = old.map_or(&empty, |f| &f.best);
    let new_best = new.map_or(&empty, |f| &f.best);
    let Some(figure) = new.or(old).map(|f| f.figure) else {
        return;
    };
    let gpus: BTreeSet<&String> = old_best.keys().chain(new_best.keys()).collect();
    for gpu in gpus {
        let was = old_best.get(gpu).cloned().flatten();
        let now = new_best.get(gpu).cloned().flatten();
        if was == now {
            continue;
        }
        e.best_changed.push(BestChange {
            workload: key.workload.clone(),
            slug: key.slug.clone(),
            gpu: gpu.clone(),
            figure: figure.key.to_owned(),
            unit: figure.unit.to_owned(),
            old: was.as_ref().map(|b| b.figure),
            new: now.as_ref().map(|b| b.figure),
            old_row_id: was.map(|b| b.row_id),
            new_row_id: now.map(|b| b.row_id),
        });
    }
}

/// How many items of a long list the Markdown shows.
const LISTED: usize = 30;

/// Escapes text for a Markdown table cell or list item.
fn md(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if "\\`*_[]<>|#".contains(c) {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

fn list<T>(out: &mut String, title: &str, items: &[T], show: impl Fn(&T) -> String) {
    if items.is_empty() {
        return;
    }
    out.push_str(&format!("\n**{title}** ({}):\n\n", items.len()));
    for item in items.iter().take(LISTED) {
        out.push_str(&format!("- {}\n", show(item)));
    }
    if items.len() > LISTED {
        out.push_str(&format!("- … and {} more\n", items.len() - LISTED));
    }
}

/// The entry as Markdown: a heading with the upstream versions, then each
/// list, then the best figures as a table (old → new with the change in
/// percent). Deterministic: the same entry gives the same text.
pub fn markdown(e: &ChangeEntry) -> String {
    let mut out = format!(
        "## ML.ENERGY Leaderboard data {}{}\n\nImported {} from {}.\n",
        md(&e.upstream_version),
        e.previous_upstream_version
            .as_ref()
            .map_or_else(String::new, |p| format!(" (was {})", md(p))),
        md(&e.imported),
        md(&e.source)
    );
    if e.is_empty() {
        out.push_str("\nNothing changed.\n");
        return out;
    }
    list(&mut out, "Workloads added", &e.workloads_added, |w| {
        format!("`{w}`")
    });
    list(&mut out, "Workloads removed", &e.workloads_removed, |w| {
        format!("`{w}`")
    });
    let model = |m: &ModelRef| format!("{} (`{}/{}`)", md(&m.name), m.workload, m.slug);
    list(&mut out, "Models added", &e.models_added, model);
    list(&mut out, "Models removed", &e.models_removed, model);
    let row = |c: &ConfigurationRef| format!("`{}` ({})", md(&c.row_id), c.workload);
    list(
        &mut out,
        "Configurations added",
        &e.configurations_added,
        row,
    );
    list(
        &mut out,
        "Configurations removed",
        &e.configurations_removed,
        row,
    );
    list(
        &mut out,
        "Configurations with changed figures",
        &e.configurations_changed,
        |c| {
            format!(
                "`{}` ({}): {}",
                md(&c.row_id),
                c.workload,
                c.fields.join(", ")
            )
        },
    );
    if !e.best_changed.is_empty() {
        best_table(&mut out, &e.best_changed);
    }
    out
}

/// The Markdown table of the best figures that moved, after a heading.
fn best_table(out: &mut String, best: &[BestChange]) {
    out.push_str(&format!(
        "\n**Best figures** ({}; the lowest energy per GPU within the workload's latency \
            deadline):\n\n",
        best.len()
    ));
    out.push_str(
        "| Workload | Model | GPU | Before | After | Change |\n|---|---|---|---:|---:|---:|\n",
    );
    for b in best {
        let side = |v: Option<f64>, row: &Option<String>| match v {
            Some(v) => format!(
                "{} {}{}",
                crate::fmt::figure_value(&b.figure, v),
                b.unit,
                row.as_ref()
                    .map_or_else(String::new, |row| format!(" (`{}`)", md(row)))
            ),
            None => "—".to_owned(),
        };
        let change = match (b.old, b.new, b.percent()) {
            (_, _, Some(p)) => format!("{p:+.2} %"),
            (None, Some(_), _) => "new".to_owned(),
            (Some(_), None, _) => "gone".to_owned(),
            _ => String::new(),
        };
        out.push_str(&format!(
            "| {} | {} | {} | {} | {} | {} |\n",
            b.workload,
            b.slug,
            md(&b.gpu),
            side(b.old, &b.old_row_id),
            side(b.new, &b.new_row_id),
            change
        ));
    }
}
