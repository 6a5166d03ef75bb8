//! The mapping from the leaderboard's task rows to model files, per-token
//! and diffusion (docs/importing.md states the rules; the comments here name
//! the rule they keep).
//! Pure: JSON values in, JSON documents and warnings out.

use crate::select::{self, GpuBest};
use std::borrow::Cow;
use std::cmp::Ordering;
use std::collections::{BTreeMap, BTreeSet};

use serde_json::{Map, Value, json};

use super::editorial::{Editorial, fill};
use super::upstream::{Upstream, short_json};
use crate::columns::Words;
use crate::load::limits;
use crate::model::{
    Configuration, Measure, ModelFile, OutputKind, OutputLengthDistribution, Source, WorkloadDecl,
    url_segment,
};
use std::sync::Arc;

/// The dates written into the files: `source.compiled` and
/// `source.retrieved`, `updated` and `data_version`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ImportDates {
    /// `index.json`'s `last_updated`.
    pub compiled: String,
    pub retrieved: String,
    pub updated: String,
    pub data_version: String,
    /// Date of the last upstream commit to the task files, when known; only
    /// chooses the wording of `source.compiled_evidence`.
    pub tasks_committed: Option<String>,
}

/// What converting one task gave.
#[derive(Debug, Default)]
pub struct Converted {
    /// Model documents by path in the data folder (`<task>/<slug>.json`).
    pub docs: BTreeMap<String, Value>,
    /// Warnings, each naming the task file.
    pub warnings: Vec<String>,
    /// Errors, each naming the task file and field.
    pub errors: Vec<String>,
}

/// Weight precisions as the format names them.
fn precision_name(wp: &str) -> String {
    let wp = wp.trim();
    match wp.to_lowercase().as_str() {
        "bfloat16" | "bf16" => "BF16".to_owned(),
        "float16" | "fp16" => "FP16".to_owned(),
        "float32" => "FP32".to_owned(),
        _ => wp.to_uppercase(),
    }
}

/// A JSON number (not a boolean) as f64.
fn number(v: Option<&Value>) -> Option<f64> {
    v.and_then(Value::as_f64)
}

/// Largest upstream number accepted (far above any measurement; the
/// format's own limits are checked again when the result is loaded).
const MAX_UPSTREAM_NUMBER: f64 = 1e12;

/// Checks a text from upstream that becomes a field: [`limits::text_problem`], not blank.
fn text_ok(value: &str, max: usize) -> Result<(), String> {
    match limits::text_problem(value, max) {
        Some(problem) => Err(problem),
        None if value.trim().is_empty() => Err("is empty".to_owned()),
        None => Ok(()),
    }
}

/// A rejected upstream row: the field and why.
struct Reject {
    field: String,
    why: String,
}

fn reject(field: &str, v: Option<&Value>, why: &str) -> Reject {
    Reject {
        field: field.to_owned(),
        why: format!(
            "{} ({why})",
            v.map_or_else(|| "missing".to_owned(), short_json)
        ),
    }
}

/// A whole number ≥ 1 and ≤ 10⁶ (so it fits a count of the format).
fn whole(r: &Map<String, Value>, key: &str) -> Result<u32, Reject> {
    let v = r.get(key);
    match number(v) {
        Some(x) if x.fract() == 0.0 && (1.0..=1e6).contains(&x) => Ok(x as u32),
        _ => Err(reject(key, v, "must be a whole number from 1 to 1000000")),
    }
}

/// A finite number above 0 (and not absurdly large).
fn positive(r: &Map<String, Value>, key: &str) -> Result<f64, Reject> {
    above_zero(key, r.get(key), "must be a number above 0 and at most 1e12")
}

fn above_zero(key: &str, v: Option<&Value>, why: &str) -> Result<f64, Reject> {
    match number(v) {
        Some(x) if x.is_finite() && x > 0.0 && x <= MAX_UPSTREAM_NUMBER => Ok(x),
        _ => Err(reject(key, v, why)),
    }
}

/// A text field of a row, checked by [`text_ok`].
fn text_field(r: &Map<String, Value>, key: &str, max: usize, what: &str) -> Result<String, Reject> {
    match r.get(key) {
        Some(Value::String(s)) => text_ok(s, max).map(|()| s.clone()).map_err(|why| Reject {
            field: key.to_owned(),
            why,
        }),
        v => Err(reject(key, v, what)),
    }
}

/// `gpu_model` and `weight_precision` (as the format names it).
fn gpu_and_precision(r: &Map<String, Value>) -> Result<(String, String), Reject> {
    let gpu = text_field(r, "gpu_model", limits::MAX_GPU_CHARS, "must be a GPU name")?;
    Ok((
        gpu,
        precision_name(&text_field(r, "weight_precision", 64, "must be a text")?),
    ))
}

/// A row in a message: model, GPU, count and the `tail` fields (a
/// `_degree` shown without that ending).
fn row_label(model_id: &str, r: &Map<String, Value>, tail: &[&str]) -> String {
    let s = |k: &str| r.get(k).map_or_else(|| "None".to_owned(), short_json);
    let gpu = r.get("gpu_model").and_then(Value::as_str).unwrap_or("None");
    let mut label = format!("{model_id} {gpu} x{}", s("num_gpus"));
    for key in tail {
        label.push_str(&format!(" {}={}", key.trim_end_matches("_degree"), s(key)));
    }
    label
}

const TOKEN_LABEL: &[&str] = &["max_num_seqs"];

/// A parallel degree: 0, null or missing (older upstream data) is taken as
/// 1, as upstream itself later did, with a warning that shows it (as
/// written for a diffusion row, as `None` or `0` for a per-token one).
fn degree(
    r: &Map<String, Value>,
    key: &str,
    label: &str,
    warn: &mut Vec<String>,
    as_written: bool,
) -> Result<u32, Reject> {
    let v = r.get(key);
    if !v.is_none_or(|v| v.is_null() || number(Some(v)) == Some(0.0)) {
        return whole(r, key);
    }
    let shown = match v {
        Some(v) if as_written => short_json(v),
        Some(v) if !v.is_null() => "0".to_owned(),
        _ => "None".to_owned(),
    };
    warn.push(format!("{label}: {key}={shown}, taken as 1"));
    Ok(1)
}

/// A per-token row's mean output length, as upstream gives it; before
/// 2025-12-17 upstream gave none, and it is energy per request over energy
/// per token (with a warning). `None` when neither gives it.
fn avg_output_len(r: &Map<String, Value>, label: &str, warn: &mut Vec<String>) -> Option<Value> {
    if let Some(v) = r.get("avg_output_len").filter(|v| !v.is_null()) {
        return Some(v.clone());
    }
    let per = |key| number(r.get(key));
    match (
        per("energy_per_request_joules"),
        per("energy_per_token_joules"),
    ) {
        (Some(req), Some(tok)) if tok > 0.0 => {
            warn.push(format!(
                "{label}: avg_output_len missing, derived from energy per request / per token"
            ));
            Some(Value::from(req / tok))
        }
        _ => None,
    }
}

/// `convert_row`: an upstream per-token row → a configuration, or the rejecting field.
fn convert_token_row(
    model_id: &str,
    r: &Map<String, Value>,
    deadline: f64,
    warn: &mut Vec<String>,
) -> Result<Configuration, Reject> {
    let label = row_label(model_id, r, TOKEN_LABEL);
    let (gpu, precision) = gpu_and_precision(r)?;
    let num_gpus = whole(r, "num_gpus")?;
    let max_num_seqs = whole(r, "max_num_seqs")?;
    let tp = degree(r, "tensor_parallel", &label, warn, false)?;
    let ep = degree(r, "expert_parallel", &label, warn, false)?;
    let dp = degree(r, "data_parallel", &label, warn, false)?;
    // Upstream recorded tensor_parallel 1 for most multi-GPU rows before
    // 2026-02-16: a mirror shows what was published, and the pages mark such
    // rows (`Configuration::parallelism`).
    if !crate::model::parallelism_fits(num_gpus, tp, dp, ep) {
        warn.push(format!(
            "{label}: tensor_parallel {tp} × data_parallel {dp} with expert_parallel {ep} does \
                not fit num_gpus {num_gpus}; kept as recorded upstream"
        ));
    }
    let out_len = avg_output_len(r, &label, warn);
    let j = positive(r, "energy_per_token_joules")?;
    let median = positive(r, "median_itl_ms")?;
    let p90 = positive(r, "p90_itl_ms")?;
    let p95 = positive(r, "p95_itl_ms")?;
    let p99 = positive(r, "p99_itl_ms")?;
    let tps = positive(r, "output_throughput_tokens_per_sec")?;
    let power = positive(r, "avg_power_watts")?;
    let out_len = above_zero(
        "avg_output_len",
        out_len.as_ref(),
        "must be a number above 0, or energy_per_request_joules and energy_per_token_joules must \
            give it",
    )?;
    let batch = number(r.get("avg_batch_size"))
        .filter(|b| (0.0..=MAX_UPSTREAM_NUMBER).contains(b))
        .ok_or_else(|| {
            reject(
                "avg_batch_size",
                r.get("avg_batch_size"),
                "must be a number of 0 or more",
            )
        })?;
    // Every figure is upstream's, unrounded: a page rounds once, at display.
    Ok(Configuration {
        gpu,
        num_gpus,
        tensor_parallel: Some(tp),
        data_parallel: Some(dp),
        expert_parallel: Some(ep),
        precision,
        max_num_seqs: Some(max_num_seqs),
        avg_requests_in_flight: Some(batch),
        wh_per_million_output_tokens: Some(j * 1e6 / 3600.0),
        joules_per_output_token: Some(j),
        median_itl_ms: Some(median),
        p90_itl_ms: Some(p90),
        p99_itl_ms: Some(p99),
        tokens_per_second: Some(tps),
        gpu_power_watts_total: power,
        avg_output_tokens: Some(out_len),
        under_itl_deadline: Some(median <= deadline),
        avg_running_batch: Some(batch),
        p95_itl_ms: Some(p95),
        ..Configuration::default()
    })
}

/// A model of a task: its id, facts (first row, overridden by `index.json`)
/// and rows.
struct Model {
    id: String,
    meta: Map<String, Value>,
    rows: Vec<Configuration>,
    slug: String,
}

/// What converting a task's rows needs besides the rows: the file they
/// come from (for messages), the kind and the deadline.
struct TaskRows<'a> {
    /// `tasks/<task>.json`.
    file: &'a str,
    kind: Option<OutputKind>,
    deadline: f64,
}

/// `group_models`: the rows by model id (in model-id order), converted;
/// slugs unique within the workload.
fn group_models(
    task: &str,
    rows: &[Value],
    upstream: &Upstream,
    out: &mut Converted,
    kind: Option<OutputKind>,
    deadline: f64,
) -> Vec<Model> {
    let file = format!("tasks/{task}.json");
    let task_rows = TaskRows {
        file: &file,
        kind,
        deadline,
    };
    let mut models: Vec<Model> = rows_by_model(&file, rows, out)
        .into_iter()
        .map(|(model_id, model_rows)| {
            convert_model(&task_rows, model_id, &model_rows, upstream, out)
        })
        .collect();
    assign_slugs(task, &file, upstream, &mut models, out);
    models.retain(|m| !m.slug.is_empty());
    models
}

/// One row of a task file, with its place in the file.
struct TaskRow<'r> {
    /// Its index in the file's rows (`configurations[index]` in messages).
    index: usize,
    row: &'r Map<String, Value>,
}

/// The rows of each model id; a row that is not an object or lacks a
/// valid `model_id` is an error.
fn rows_by_model<'r>(
    file: &str,
    rows: &'r [Value],
    out: &mut Converted,
) -> BTreeMap<String, Vec<TaskRow<'r>>> {
    let mut by_model: BTreeMap<String, Vec<_>> = BTreeMap::new();
    for (i, row) in rows.iter().enumerate() {
        let Some(r) = row.as_object() else {
            out.errors
                .push(format!("{file}: configurations[{i}]: is not a JSON object"));
            continue;
        };
        let why = "must be the model's Hugging Face id";
        match text_field(r, "model_id", limits::MAX_NAME_CHARS, why) {
            Ok(id) => by_model
                .entry(id)
                .or_default()
                .push(TaskRow { index: i, row: r }),
            Err(Reject { why, .. }) => {
                out.errors
                    .push(format!("{file}: configurations[{i}].model_id: {why}"));
            }
        }
    }
    by_model
}

/// One model of a task: its facts (its first row's, overridden by
/// `index.json`'s) and its rows converted, without a slug yet.
fn convert_model(
    task: &TaskRows<'_>,
    model_id: String,
    model_rows: &[TaskRow<'_>],
    upstream: &Upstream,
    out: &mut Converted,
) -> Model {
    let file = task.file;
    let mut meta = model_rows[0].row.clone();
    let facts = upstream.index_model(&model_id);
    match facts {
        Some(facts) => meta.extend(
            facts
                .iter()
                .filter(|(_, v)| !v.is_null())
                .map(|(k, v)| (k.clone(), v.clone())),
        ),
        None => out.warnings.push(format!(
            "{file}: {model_id} is not in index.json; model facts taken from the task rows"
        )),
    }
    let mut converted = Vec::new();
    // Older diffusion rows (before 2025-12) carry no weight_precision;
    // the model's own in index.json stands for them.
    let model_precision = facts
        .and_then(|f| f.get("weight_precision"))
        .filter(|v| v.is_string());
    let mut borrowed_precision = false;
    for &TaskRow { index: i, row: r } in model_rows {
        let mut filled = Cow::Borrowed(r);
        if let Some(p) =
            model_precision.filter(|_| r.get("weight_precision").is_none_or(Value::is_null))
        {
            filled
                .to_mut()
                .insert("weight_precision".to_owned(), p.clone());
            borrowed_precision = true;
        }
        let r = &*filled;
        let row = match task.kind {
            None => convert_token_row(&model_id, r, task.deadline, &mut out.warnings),
            Some(kind) => {
                convert_diffusion_row(kind, &model_id, r, task.deadline, &mut out.warnings)
            }
        };
        match row {
            Ok(c) => converted.push(c),
            Err(Reject { field, why }) => out.errors.push(format!(
                "{file}: configurations[{i}].{field}: {why}; row {}",
                row_label(&model_id, r, TOKEN_LABEL)
            )),
        }
    }
    if borrowed_precision {
        out.warnings.push(format!(
            "{file}: {model_id}: rows without weight_precision take the model's from index.json"
        ));
    }
    Model {
        id: model_id,
        meta,
        rows: converted,
        slug: String::new(),
    }
}

/// Gives each model of `task` its slug: a model keeps the slug it was
/// published with; a newcomer gets its nickname's URL segment, on a clash
/// its Hugging Face repository name's (then with -2, -3, …), never a slug
/// published for another model. A model that can have none keeps an empty
/// slug, with an error.
fn assign_slugs(
    task: &str,
    file: &str,
    upstream: &Upstream,
    models: &mut [Model],
    out: &mut Converted,
) {
    let prefix = format!("{task}/");
    let published: BTreeMap<&str, &String> = upstream
        .published_slugs
        .iter()
        .filter_map(|(key, id)| Some((key.strip_prefix(&prefix)?, id)))
        .collect();
    let mut slugs: BTreeMap<String, String> = published
        .iter()
        .map(|(slug, id)| ((*slug).to_owned(), (*id).clone()))
        .collect();
    for m in models {
        if let Some((slug, _)) = published.iter().find(|(_, id)| id.as_str() == m.id) {
            m.slug = (*slug).to_owned();
            continue;
        }
        let last = m.id.rsplit('/').next().unwrap_or(&m.id);
        let nick = nickname(&m.meta).unwrap_or(last);
        if let Err(why) = text_ok(nick, limits::MAX_NAME_CHARS) {
            out.errors.push(format!(
                "{file} (and index.json): models[{:?}].nickname: {why}",
                m.id
            ));
            continue;
        }
        let shorten = |mut slug: String| {
            if slug.len() > limits::MAX_SLUG_CHARS {
                slug.truncate(limits::MAX_SLUG_CHARS);
                slug.truncate(slug.trim_end_matches('-').len());
            }
            slug
        };
        let prefixed = |name: &str| format!("{}{}", upstream.slug_prefix(), url_segment(name));
        let natural = shorten(prefixed(nick));
        let repo = shorten(prefixed(last));
        let numbered = (2..100).map(|n| shorten(format!("{repo}-{n}")));
        let Some(slug) = std::iter::once(natural.clone())
            .chain(std::iter::once(repo.clone()))
            .chain(numbered)
            .find(|s| !s.is_empty() && !slugs.contains_key(s))
        else {
            out.errors.push(format!(
                "{file}: cannot find a unique slug for {:?} (its nickname and its repository \
                    name give {repo:?})",
                m.id
            ));
            continue;
        };
        if crate::load::RESERVED_SLUGS.contains(&slug.as_str()) {
            out.errors.push(format!(
                "{file}: {:?} would have the slug {slug:?}, which is reserved for a site-wide \
                    download",
                m.id
            ));
            continue;
        }
        if slug != natural {
            let why = match slugs.get(&natural) {
                None => "empty".to_owned(),
                Some(other) if published.contains_key(natural.as_str()) => {
                    format!("published before for {other}, whose URL it stays")
                }
                Some(other) => format!("already {other}'s"),
            };
            out.warnings.push(format!(
                "{file}: {} would have slug {natural:?}, {why}; it gets {slug:?} \
                    (/workloads/{task}/models/{slug}/)",
                m.id
            ));
        }
        slugs.insert(slug.clone(), m.id.clone());
        m.slug = slug;
    }
}

/// A model's parameter counts (billions) and architecture.
struct ModelFacts {
    params: f64,
    active: f64,
    architecture: String,
}

/// The model's parameter counts and architecture, or an error.
fn model_facts(
    file: &str,
    m: &Model,
    kind: Option<OutputKind>,
    out: &mut Converted,
) -> Option<ModelFacts> {
    let param = |key: &str| -> Option<f64> {
        number(m.meta.get(key)).filter(|x| x.is_finite() && *x > 0.0 && *x <= limits::MAX_PARAMS_B)
    };
    let Some(total) = param("total_params_billions") else {
        out.errors.push(format!(
            "{file}: {}: total_params_billions: {} in index.json and the task rows (must be a \
                number of billions above 0, at most 1e6)",
            m.id,
            m.meta
                .get("total_params_billions")
                .map_or_else(|| "missing".to_owned(), short_json)
        ));
        return None;
    };
    let active = match m.meta.get("activated_params_billions") {
        None | Some(Value::Null) => total,
        Some(v) => match param("activated_params_billions") {
            Some(a) => a,
            None => {
                out.errors.push(format!(
                    "{file}: {}: activated_params_billions: {} (must be a number of billions \
                        above 0)",
                    m.id,
                    short_json(v)
                ));
                return None;
            }
        },
    };
    let architecture = match m.meta.get("architecture") {
        Some(Value::String(s)) if !s.is_empty() && (kind.is_none() || s != "diffusion") => {
            if let Err(why) = text_ok(s, limits::MAX_NAME_CHARS) {
                out.errors
                    .push(format!("{file}: {}: architecture: {why}", m.id));
                return None;
            }
            s.clone()
        }
        _ if kind.is_some() => "Diffusion".to_owned(),
        _ => {
            out.warnings.push(format!(
                "{file}: {} has no architecture; wrote \"unknown\"",
                m.id
            ));
            "unknown".to_owned()
        }
    };
    Some(ModelFacts {
        params: total,
        active,
        architecture,
    })
}

/// A distribution as the format takes it (`bins`, `counts`), or why not.
fn checked_distribution(d: &Value) -> Result<OutputLengthDistribution, String> {
    // Only the two fields the format keeps; the loader's rule decides.
    let dist: OutputLengthDistribution = serde_json::from_value(json!({
        "bins": d.get("bins").ok_or("bins missing")?,
        "counts": d.get("counts").ok_or("counts missing")?,
    }))
    .map_err(|e| format!("bins and counts are not a histogram: {e}"))?;
    let mut why = None;
    crate::load::check_distribution(
        &mut |field, message| {
            why.get_or_insert(format!("{field} {message}"));
        },
        "output_length_distribution",
        "",
        &dist,
    );
    why.map_or(Ok(dist), Err)
}

/// The parts a row id may add after GPU, GPU count and load, in order:
/// what may tell apart rows that share those three.
fn id_parts(c: &Configuration) -> Vec<String> {
    let n = |x: Option<u32>| x.unwrap_or(0);
    let precision = c.precision.to_lowercase();
    if c.max_num_seqs.is_some() {
        let (tp, ep, dp) = (c.tensor_parallel, c.expert_parallel, c.data_parallel);
        return vec![precision, format!("tp{}-ep{}-dp{}", n(tp), n(ep), n(dp))];
    }
    let mut parts = vec![
        format!("u{}r{}", n(c.ulysses_degree), n(c.ring_degree)),
        precision,
        format!(
            "{}x{}",
            n(c.image_height.or(c.video_height)),
            n(c.image_width.or(c.video_width))
        ),
    ];
    if c.video_height.is_some() {
        parts.push(format!("f{}", n(c.num_frames)));
        parts.push(format!("fps{}", c.fps.unwrap_or(0.0)));
    }
    parts.push(format!("s{}", n(c.inference_steps)));
    parts
}

/// `assign_ids`: repeats numbered in upstream order; when rows share GPU,
/// GPU count and load (`max_num_seqs`, or `b` and `batch_size`), a row id
/// suffix of the [`id_parts`] that differ between them, joined by `-` for a
/// per-token row and by `/` for a diffusion one.
fn assign_ids(slug: &str, rows: &mut [Configuration], file: &str, warn: &mut Vec<String>) {
    let parts: Vec<Vec<String>> = rows.iter().map(id_parts).collect();
    let group = |c: &Configuration| (c.gpu.clone(), c.num_gpus, c.load());
    let mut counts: BTreeMap<_, u32> = BTreeMap::new();
    let mut groups: BTreeMap<_, BTreeSet<&[String]>> = BTreeMap::new();
    for (c, own) in rows.iter_mut().zip(&parts) {
        let n = counts.entry((group(c), own)).or_default();
        *n += 1;
        c.repeat = *n;
        groups.entry(group(c)).or_default().insert(own);
    }
    for (c, own) in rows.iter_mut().zip(&parts) {
        let tokens = c.max_num_seqs.is_some();
        let load = if tokens {
            c.load().to_string()
        } else {
            format!("b{}", c.load())
        };
        let mut base = format!("{slug}/{}/{}/{load}", c.gpu, c.num_gpus);
        let variants = &groups[&group(c)];
        if variants.len() > 1 {
            let differing: Vec<&str> = (own.iter().enumerate())
                .filter(|&(i, part)| variants.iter().any(|v| v[i] != *part))
                .map(|(_, part)| part.as_str())
                .collect();
            base = format!("{base}/{}", differing.join(if tokens { "-" } else { "/" }));
            if tokens && c.repeat == 1 {
                warn.push(format!(
                    "{file}: row_id collision for {slug}/{}/{}/{load}: {} \
                        precisions/parallelisms; this one is {base}",
                    c.gpu,
                    c.num_gpus,
                    variants.len()
                ));
            }
        }
        c.row_id = if c.repeat == 1 {
            base
        } else {
            format!("{base}/r{}", c.repeat)
        };
    }
}

/// The order of a model file's rows: by setup (GPU, count, parallelism,
/// precision), then for a per-token row `max_num_seqs` and median ITL, for
/// a diffusion row the output, steps and batch size; equal rows keep
/// upstream's order.
fn row_order(a: &Configuration, b: &Configuration) -> Ordering {
    fn setup(c: &Configuration) -> impl Ord + '_ {
        let size = (
            c.image_height.or(c.video_height),
            c.image_width.or(c.video_width),
        );
        let (gpu, n) = (&c.gpu, c.num_gpus);
        let tokens = (c.tensor_parallel, c.expert_parallel, c.data_parallel);
        let diffusion = (c.ulysses_degree, c.ring_degree);
        (
            gpu,
            n,
            tokens,
            diffusion,
            &c.precision,
            c.max_num_seqs,
            size,
            c.num_frames,
        )
    }
    setup(a)
        .cmp(&setup(b))
        .then(a.fps.unwrap_or(0.0).total_cmp(&b.fps.unwrap_or(0.0)))
        .then(a.inference_steps.cmp(&b.inference_steps))
        .then(a.batch_size.cmp(&b.batch_size))
        .then(
            a.median_itl_ms
                .unwrap_or(0.0)
                .total_cmp(&b.median_itl_ms.unwrap_or(0.0)),
        )
}

/// `convert_task`: one task file → model documents, added to `out`.
pub fn convert_task(
    task: &str,
    doc: &Value,
    upstream: &Upstream,
    editorial: &Editorial,
    dates: &ImportDates,
    out: &mut Converted,
) -> anyhow::Result<()> {
    let file = format!("tasks/{task}.json");
    let ed = &editorial.workloads[task];
    let kind = ed.kind;
    let deadline_num = ed
        .deadline()
        .1
        .expect("Editorial::load checks every workload's deadline");
    let deadline = deadline_num.as_f64().unwrap_or(f64::NAN);
    let other_arch = |a: &&Value| kind.is_some() && *a != "diffusion" && !a.is_null();
    if let Some(arch) = doc.get("architecture").filter(other_arch) {
        out.warnings.push(format!(
            "{file}: the task file says architecture {}",
            short_json(arch)
        ));
    }
    let rows = task_rows(&file, doc)?;
    let mut models = group_models(task, rows, upstream, out, kind, deadline);
    let mut latencies = Vec::new();
    for m in &mut models {
        assign_ids(&m.slug, &mut m.rows, &file, &mut out.warnings);
        latencies.extend(m.rows.iter().map(Configuration::latency));
        if kind.is_none() {
            add_distributions(task, m, upstream, out);
        }
    }
    let clause = deadline_clause(&editorial.common, kind, &latencies, deadline);
    let rows = rows.len();
    let source = workload_source(WorkloadSource {
        upstream,
        editorial,
        task,
        dates,
        clause,
        rows,
    });
    let cx = ModelContext {
        task,
        upstream,
        editorial,
        dates,
        source: &source,
        deadline,
    };
    for m in models {
        let Some(model) = model_file(m, &file, &cx, out) else {
            continue;
        };
        let doc = serde_json::to_value(&model).expect("a model file serialises");
        out.docs.insert(format!("{task}/{}.json", model.slug), doc);
    }
    Ok(())
}

/// A task file's rows: its `configurations`, or in the oldest layout the
/// whole file, a bare list.
fn task_rows<'d>(file: &str, doc: &'d Value) -> anyhow::Result<&'d Vec<Value>> {
    Ok(match doc {
        Value::Array(rows) => rows,
        Value::Object(o) => match o.get("configurations") {
            Some(Value::Array(rows)) => rows,
            v => anyhow::bail!(
                "{file}: configurations: {} (must be a list of rows)",
                v.map_or_else(|| "missing".to_owned(), short_json)
            ),
        },
        _ => anyhow::bail!("{file}: is neither an object nor a list"),
    })
}

/// The selection text's clause saying how many rows the deadline left out:
/// a per-token row counts when its median ITL reaches the deadline, a
/// diffusion row when its batch latency exceeds it.
fn deadline_clause(
    common: &super::editorial::Common,
    kind: Option<OutputKind>,
    latencies: &[f64],
    deadline: f64,
) -> String {
    let (some, none, word) = match kind {
        None => (
            &common.deadline_clause_some,
            &common.deadline_clause_none,
            "reached",
        ),
        Some(_) => (
            &common.latency_clause_some,
            &common.latency_clause_none,
            "exceeded",
        ),
    };
    let count = latencies
        .iter()
        .filter(|&&l| l > deadline || kind.is_none() && l == deadline);
    let count = count.count();
    if count > 0 {
        fill(
            some,
            &[
                (word, count.to_string()),
                ("total", latencies.len().to_string()),
            ],
        )
    } else {
        none.clone()
    }
}

/// What the source block of a workload's files is made from.
struct WorkloadSource<'a> {
    upstream: &'a Upstream,
    editorial: &'a Editorial,
    task: &'a str,
    dates: &'a ImportDates,
    /// The deadline clause ([`deadline_clause`]).
    clause: String,
    /// How many rows the task file has.
    rows: usize,
}

/// The source block shared by every file of the workload.
fn workload_source(w: WorkloadSource<'_>) -> Arc<Source> {
    let WorkloadSource {
        upstream,
        editorial,
        task,
        dates,
        clause,
        rows,
    } = w;
    let common = &editorial.common;
    let ed = &editorial.workloads[task];
    let (key, deadline_num) = ed.deadline();
    let deadline_num = deadline_num.expect("Editorial::load checks every workload's deadline");
    let selection = fill(
        &ed.selection,
        &[(key, deadline_num.to_string()), ("deadline_clause", clause)],
    );
    let compiled = &dates.compiled;
    let placeholder = ("compiled", compiled.clone());
    let evidence = match &dates.tasks_committed {
        None => fill(&common.compiled_evidence_index_only, &[placeholder]),
        Some(t) if t == compiled => fill(&common.compiled_evidence_both, &[placeholder]),
        Some(t) => fill(
            &common.compiled_evidence_differ,
            &[placeholder, ("tasks_committed", t.clone())],
        ),
    };
    Arc::new(Source {
        id: upstream.source.as_ref().map(|s| s.id.clone()),
        name: common.name.clone(),
        publisher: common.publisher.clone(),
        url: common.url.clone(),
        data_url: Some(ed.data_url.clone()),
        version: format!(
            "{} (released {}); data compiled {compiled}",
            common.version_number, common.released
        ),
        released: common.released.clone(),
        compiled: compiled.clone(),
        compiled_evidence: Some(evidence),
        retrieved: dates.retrieved.clone(),
        licence: common.licence.clone(),
        licence_evidence: common.licence_evidence.clone(),
        workload: ed.workload.clone(),
        method: ed.method.clone(),
        selection,
        cite: common.cite.clone(),
        cite_url: common.cite_url.clone(),
        used_for: Some(ed.used_for.clone()),
        configurations: Some(fill(&ed.configurations, &[("count", rows.to_string())])),
    })
}

/// What every model file of a workload shares.
struct ModelContext<'a> {
    task: &'a str,
    upstream: &'a Upstream,
    editorial: &'a Editorial,
    dates: &'a ImportDates,
    source: &'a Arc<Source>,
    deadline: f64,
}

/// A model's file: its facts, its rows in [`row_order`], its GPUs (sorted)
/// and its best configuration on each by the selection rule
/// ([`select::best_per_gpu`]); `None` (with a warning) when it has no
/// usable rows or facts.
fn model_file(
    mut m: Model,
    file: &str,
    cx: &ModelContext<'_>,
    out: &mut Converted,
) -> Option<ModelFile> {
    let ModelContext {
        task,
        upstream,
        editorial,
        dates,
        source,
        deadline,
    } = *cx;
    let ed = &editorial.workloads[task];
    let kind = ed.kind;
    let common = &editorial.common;
    let caveat = if kind.is_some() {
        &common.caveat_diffusion
    } else {
        &common.caveat
    };
    if m.rows.is_empty() {
        out.warnings.push(format!(
            "{file}: {} has no usable rows; no file written",
            m.id
        ));
        return None;
    }
    let ModelFacts {
        params,
        active,
        architecture,
    } = model_facts(file, &m, kind, out)?;
    m.rows.sort_by(row_order);
    let gpus: Vec<String> = m
        .rows
        .iter()
        .map(|c| c.gpu.clone())
        .collect::<BTreeSet<_>>()
        .into_iter()
        .collect();
    let figures = m.rows.iter().map(|c| (c.gpu.as_str(), c.figures()));
    let best = select::best_per_gpu(&gpus, deadline, figures)
        .into_iter()
        .filter_map(|GpuBest { gpu, best }| Some((gpu, Box::new(m.rows[best?].clone()))))
        .collect();
    // A model's display name: its non-empty `nickname`, else its id;
    // marked with the label of a source beside the leaderboard.
    let name = nickname(&m.meta).unwrap_or(&m.id).to_owned();
    Some(ModelFile {
        version: "1".to_owned(),
        updated: dates.updated.clone(),
        data_version: dates.data_version.clone(),
        workload: Some(WorkloadDecl {
            id: task.to_owned(),
            name: ed.name.clone(),
            description: Some(ed.description.clone()),
        }),
        source: source.clone(),
        boundary: "gpu_only".to_owned(),
        kind,
        unit: Words::of(kind.map_or(Measure::Tokens, Measure::Diffusion))
            .energy_long
            .to_owned(),
        itl_deadline_ms: kind.is_none().then_some(deadline),
        batch_latency_deadline_s: kind.is_some().then_some(deadline),
        caveat: ed.caveat.clone().unwrap_or_else(|| caveat.clone()),
        name: match &upstream.source {
            Some(s) => format!("{name} ({})", s.label),
            None => name,
        },
        slug: m.slug,
        model_id: m.id,
        params_b: params,
        active_params_b: active,
        architecture,
        gpus,
        configurations: m.rows,
        best,
    })
}

/// Gives each per-token row its output-length distribution from the model's
/// file (`models/<model>__<task>.json`), matched on GPU,
/// count, max_num_seqs and exact energy per token (repeats in order).
fn add_distributions(task: &str, m: &mut Model, upstream: &Upstream, out: &mut Converted) {
    let name = Upstream::model_file_name(&m.id, task);
    let doc = match upstream.model_file(&m.id, task) {
        Ok(Some(doc)) => doc,
        Ok(None) => {
            out.warnings
                .push(format!("tasks/{task}.json: {} has no models/{name}", m.id));
            return;
        }
        Err(err) => {
            out.warnings
                .push(format!("{err:#}; its distributions are left out"));
            return;
        }
    };
    let configs = doc
        .get("configurations")
        .and_then(Value::as_array)
        .map_or(&[][..], Vec::as_slice);
    if configs.len() != m.rows.len() {
        out.warnings.push(format!(
            "tasks/{task}.json: models/{name} has {} configurations, the task file {}",
            configs.len(),
            m.rows.len()
        ));
    }
    let mut dists: BTreeMap<_, Vec<&Value>> = BTreeMap::new();
    for c in configs {
        if let (Some(gpu), Some(n), Some(seqs), Some(j), Some(d)) = (
            c.get("gpu_model").and_then(Value::as_str),
            number(c.get("num_gpus")),
            number(c.get("max_num_seqs")),
            number(c.get("energy_per_token_joules")),
            c.get("output_length_distribution"),
        ) {
            dists
                .entry((gpu, n as u64, seqs as u64, j.to_bits()))
                .or_default()
                .push(d);
        }
    }
    for c in &mut m.rows {
        let joules = c.joules_per_output_token.unwrap_or(f64::NAN);
        let key = (
            c.gpu.as_str(),
            c.num_gpus.into(),
            c.load().into(),
            joules.to_bits(),
        );
        if let Some(list) = dists.get_mut(&key).filter(|l| !l.is_empty()) {
            match checked_distribution(list.remove(0)) {
                Ok(d) => c.output_length_distribution = Some(Box::new(d)),
                Err(why) => out.warnings.push(format!(
                    "tasks/{task}.json: {}: the output-length distribution of {} is left out: \
                        {why}",
                    m.id, c.row_id
                )),
            }
        }
    }
}

fn convert_diffusion_row(
    kind: OutputKind,
    model_id: &str,
    r: &Map<String, Value>,
    deadline: f64,
    warn: &mut Vec<String>,
) -> Result<Configuration, Reject> {
    let image = kind == OutputKind::Image;
    let label = row_label(
        model_id,
        r,
        &["batch_size", "ulysses_degree", "ring_degree"],
    );
    let (gpu, precision) = gpu_and_precision(r)?;
    let [ulysses, ring] =
        ["ulysses_degree", "ring_degree"].map(|key| degree(r, key, &label, warn, true));
    let num_gpus = whole(r, "num_gpus")?;
    let (ulysses, ring) = (ulysses?, ring?);
    let batch_size = whole(r, "batch_size")?;
    let steps = whole(r, "inference_steps")?;
    let item = kind.item();
    let height = whole(r, &format!("{item}_height"))?;
    let width = whole(r, &format!("{item}_width"))?;
    let frames = if image {
        None
    } else {
        Some(whole(r, "num_frames")?)
    };
    if u64::from(ulysses) * u64::from(ring) != u64::from(num_gpus) {
        warn.push(format!(
            "{label}: ulysses_degree x ring_degree is not num_gpus"
        ));
    }
    let energy = positive(r, &format!("energy_per_{item}_joules"))?;
    let latency = positive(r, "batch_latency_s")?;
    let rate = positive(r, &format!("throughput_{}_per_sec", kind.items()))?;
    let power = positive(r, "avg_power_watts")?;
    let fps = if image {
        None
    } else {
        Some(positive(r, "fps")?)
    };
    Ok(Configuration {
        gpu,
        num_gpus,
        ulysses_degree: Some(ulysses),
        ring_degree: Some(ring),
        precision,
        batch_size: Some(batch_size),
        inference_steps: Some(steps),
        image_height: image.then_some(height),
        image_width: image.then_some(width),
        video_height: (!image).then_some(height),
        video_width: (!image).then_some(width),
        num_frames: frames,
        fps,
        joules_per_image: image.then_some(energy),
        joules_per_video: (!image).then_some(energy),
        batch_latency_s: Some(latency),
        images_per_second: image.then_some(rate),
        videos_per_second: (!image).then_some(rate),
        gpu_power_watts_total: power,
        under_latency_deadline: Some(latency <= deadline),
        ..Configuration::default()
    })
}

fn nickname(meta: &Map<String, Value>) -> Option<&str> {
    meta.get("nickname")?.as_str().filter(|s| !s.is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn precision_names_are_upper_case_short_forms() {
        assert_eq!(precision_name("bfloat16"), "BF16");
        assert_eq!(precision_name(" nvfp4 "), "NVFP4");
    }

    #[test]
    fn row_ids_add_only_the_parts_that_tell_rows_apart_and_number_repeats() {
        let token = |precision: &str, tp| Configuration {
            gpu: "H100".into(),
            num_gpus: 2,
            precision: precision.into(),
            max_num_seqs: Some(8),
            tensor_parallel: Some(tp),
            expert_parallel: Some(1),
            data_parallel: Some(1),
            ..Configuration::default()
        };
        let image = |height, steps| Configuration {
            gpu: "H100".into(),
            num_gpus: 1,
            precision: "BF16".into(),
            batch_size: Some(4),
            ulysses_degree: Some(1),
            ring_degree: Some(1),
            image_height: Some(height),
            image_width: Some(1024),
            inference_steps: Some(steps),
            ..Configuration::default()
        };
        // The row ids, and how many warnings assigning them gave.
        let ids = |mut rows: Vec<Configuration>| {
            let mut warnings = Vec::new();
            assign_ids("m", &mut rows, "f", &mut warnings);
            (
                rows.into_iter().map(|c| c.row_id).collect::<Vec<_>>(),
                warnings.len(),
            )
        };
        let (rows, warnings) = ids(vec![
            token("BF16", 1),
            token("FP8", 1),
            token("BF16", 2),
            token("BF16", 1),
        ]);
        let ends = [
            "bf16-tp1-ep1-dp1",
            "fp8-tp1-ep1-dp1",
            "bf16-tp2-ep1-dp1",
            "bf16-tp1-ep1-dp1/r2",
        ];
        assert_eq!(rows, ends.map(|end| format!("m/H100/2/8/{end}")));
        assert_eq!(warnings, 3);
        assert_eq!(ids(vec![token("BF16", 1)]).0, ["m/H100/2/8"]);
        let (rows, warnings) = ids(vec![image(1024, 50), image(2048, 50), image(1024, 20)]);
        let ends = ["1024x1024/s50", "2048x1024/s50", "1024x1024/s20"];
        assert_eq!(rows, ends.map(|end| format!("m/H100/1/b4/{end}")));
        assert_eq!(warnings, 0);
    }
}
