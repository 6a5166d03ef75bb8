//! The change-log entry of an import: what differs between the data folder
//! before and after, from the loaded, validated files and the existing
//! analysis (best configuration per GPU within the deadline). Pure; and the
//! entry as Markdown, for the import report and a pull-request body.

use std::collections::{BTreeMap, BTreeSet};

use crate::analyse;
use crate::changes::{BestChange, ChangeEntry, ConfigurationChange, ConfigurationRef, ModelRef};
use crate::columns;
use crate::load::{DataSet, LoadedModel};
use crate::model::OutputKind;

/// What the change log compares of one model on one workload.
#[derive(Debug, Clone, PartialEq)]
pub struct ModelFacts {
    pub name: String,
    /// The headline figure's field and unit: (`wh_per_million_output_tokens`, `Wh/M tok`).
    pub figure: (&'static str, &'static str),
    /// Every configuration's row id and fields, in file order.
    pub rows: Vec<(String, serde_json::Map<String, serde_json::Value>)>,
    /// The best configuration per GPU: (figure, row id), or none within the deadline.
    pub best: BTreeMap<String, Option<(f64, String)>>,
}

/// Every model of a data folder by (workload, slug).
pub type Snapshot = BTreeMap<(String, String), ModelFacts>;

fn facts_of(m: &LoadedModel) -> ModelFacts {
    // The headline column's key and unit, as the change history names them.
    let c = match m.file.kind {
        None => &columns::tokens::WH_PER_MILLION_OUTPUT_TOKENS,
        Some(OutputKind::Image) => &columns::diffusion::JOULES_PER_IMAGE,
        Some(OutputKind::Video) => &columns::diffusion::JOULES_PER_VIDEO,
    };
    let configs = &m.file.configurations;
    let rows = configs
        .iter()
        .map(|c| {
            let fields = serde_json::to_value(c)
                .ok()
                .and_then(|v| v.as_object().cloned());
            (c.row_id.clone(), fields.unwrap_or_default())
        })
        .collect();
    let best = analyse::best_per_gpu(&m.file)
        .into_iter()
        .map(|(gpu, i)| {
            (
                gpu,
                i.map(|i| (configs[i].energy(), configs[i].row_id.clone())),
            )
        })
        .collect();
    ModelFacts {
        name: m.file.name.clone(),
        figure: (c.key, c.unit),
        rows,
        best,
    }
}

/// The facts of every model in a loaded data folder.
pub fn snapshot(data: &DataSet) -> Snapshot {
    data.models
        .iter()
        .map(|m| ((m.workload.clone(), m.file.slug.clone()), facts_of(m)))
        .collect()
}

/// The entry recording what changed from `before` to `after` (its
/// `upstream_version`, `imported` and `source` filled by the caller).
pub fn diff(before: &Snapshot, after: &Snapshot) -> ChangeEntry {
    let mut e = ChangeEntry::default();
    let workloads = |s: &Snapshot| -> BTreeSet<String> { s.keys().map(|k| k.0.clone()).collect() };
    let (wb, wa) = (workloads(before), workloads(after));
    e.workloads_added = wa.difference(&wb).cloned().collect();
    e.workloads_removed = wb.difference(&wa).cloned().collect();
    let model_ref = |(w, s): &(String, String), f: &ModelFacts| ModelRef {
        workload: w.clone(),
        slug: s.clone(),
        name: f.name.clone(),
    };
    let only = |a: &Snapshot, b: &Snapshot| -> Vec<ModelRef> {
        a.iter()
            .filter(|(k, _)| !b.contains_key(*k))
            .map(|(k, f)| model_ref(k, f))
            .collect()
    };
    e.models_added = only(after, before);
    e.models_removed = only(before, after);
    let keys: BTreeSet<&(String, String)> = before.keys().chain(after.keys()).collect();
    for key in keys {
        let (old, new) = (before.get(key), after.get(key));
        let config_ref = |row_id: &String| ConfigurationRef {
            workload: key.0.clone(),
            slug: key.1.clone(),
            row_id: row_id.clone(),
        };
        if let (Some(old), Some(new)) = (old, new) {
            let old_rows: BTreeMap<&String, _> = old.rows.iter().map(|(k, v)| (k, v)).collect();
            let new_ids: BTreeSet<&String> = new.rows.iter().map(|(k, _)| k).collect();
            for (row_id, fields) in &new.rows {
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
                        workload: key.0.clone(),
                        slug: key.1.clone(),
                        row_id: row_id.clone(),
                        fields: changed,
                    });
                }
            }
            e.configurations_removed.extend(
                old.rows
                    .iter()
                    .filter(|(id, _)| !new_ids.contains(id))
                    .map(|(id, _)| config_ref(id)),
            );
        }
        // Best figures, GPU by GPU (a model that appeared or disappeared
        // lists all of its own).
        let empty = BTreeMap::new();
        let old_best = old.map_or(&empty, |f| &f.best);
        let new_best = new.map_or(&empty, |f| &f.best);
        let figure = new.or(old).map_or(("", ""), |f| f.figure);
        let gpus: BTreeSet<&String> = old_best.keys().chain(new_best.keys()).collect();
        for gpu in gpus {
            let was = old_best.get(gpu).cloned().flatten();
            let now = new_best.get(gpu).cloned().flatten();
            if was == now {
                continue;
            }
            e.best_changed.push(BestChange {
                workload: key.0.clone(),
                slug: key.1.clone(),
                gpu: gpu.clone(),
                figure: figure.0.to_owned(),
                unit: figure.1.to_owned(),
                old: was.as_ref().map(|b| b.0),
                new: now.as_ref().map(|b| b.0),
                old_row_id: was.map(|b| b.1),
                new_row_id: now.map(|b| b.1),
            });
        }
    }
    e
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
        out.push_str(&format!(
            "\n**Best figures** ({}; the lowest energy per GPU within the workload's latency \
                deadline):\n\n",
            e.best_changed.len()
        ));
        out.push_str(
            "| Workload | Model | GPU | Before | After | Change |\n|---|---|---|---:|---:|---:|\n",
        );
        for b in &e.best_changed {
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
    out
}
