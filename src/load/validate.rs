//! Validation of a parsed model file of any kind (`validate_model`): the
//! frame every file shares (slug, texts, dates, workload, source addresses,
//! GPU list, row ids), the kind's own fields ([`Measure::fields`]) and each
//! row's rules; and the rules across files (`check_across_files`). Size and
//! text limits are in `load::limits`; the `best` check, which needs the
//! analysis, in `load::best`.

use std::collections::BTreeMap;
use std::path::Path;

use super::best::check_best;
use super::limits::{self, KindFields};
use super::{Bad, LoadedModel, Problem, problem, shown};
use crate::columns::Words;
use crate::model::{
    Configuration, DIFFUSION_FIELDS, Measure, ModelFile, OutputKind, OutputLengthDistribution,
    TOKEN_FIELDS, TOKEN_OPTIONAL_FIELDS, WorkloadRef, row_anchor, url_segment,
};

/// Slugs that would publish a model's files over a site-wide file
/// (`data/<slug>.csv` of Text Conversation, the address the first site used).
/// The diffusion kinds' site-wide files are reserved too, and `changes`
/// (`data/changes.json` is the published change history).
pub const RESERVED_SLUGS: [&str; 7] = [
    "changes",
    "leaderboard",
    "configurations",
    "leaderboard-image",
    "configurations-image",
    "leaderboard-video",
    "configurations-video",
];

/// Sections of a model page, each with its heading's anchor `<section>-h`
/// too, and the page's other anchors; a row anchor may not be one of them,
/// nor start like a GPU card, GPU table or chart anchor.
const PAGE_SECTIONS: [&str; 9] = [
    "best",
    "budgets",
    "charts",
    "cite",
    "configurations",
    "embed",
    "history",
    "provenance",
    "response",
];
const PAGE_ANCHORS: [&str; 6] = [
    "main",
    "budgets-caption",
    "budgets-section",
    "response-energy",
    "response-energy-caption",
    "footprint-note",
];
const PAGE_ANCHOR_PREFIXES: [&str; 4] = ["gpu-", "configs-", "table-", "chart-"];

/// What a row anchor would clash with on its model page, if anything.
fn page_anchor_clash(anchor: &str) -> Option<String> {
    let section = anchor.strip_suffix("-h").unwrap_or(anchor);
    if PAGE_SECTIONS.contains(&section) || PAGE_ANCHORS.contains(&anchor) {
        return Some("the page uses for one of its own sections".to_owned());
    }
    PAGE_ANCHOR_PREFIXES
        .iter()
        .find(|p| anchor.starts_with(*p))
        .map(|p| format!("starts with {p:?} like the page's GPU, table and chart anchors"))
}

/// Whether `slug` is a safe path segment: `^[a-z0-9][a-z0-9-]*$`.
pub fn is_valid_slug(slug: &str) -> bool {
    let mut chars = slug.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_lowercase() || c.is_ascii_digit())
        && chars.all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
}

/// Whether `url` is an absolute http(s) address, safe to put in a link.
pub fn is_web_url(url: &str) -> bool {
    let lower = url.to_ascii_lowercase();
    ["https://", "http://"].iter().any(|scheme| {
        lower
            .strip_prefix(scheme)
            .is_some_and(|rest| !rest.is_empty())
    })
}

/// How far `wh_per_million_output_tokens` may sit from
/// `joules_per_output_token × 1e6 / 3600`: half a unit in the second decimal
/// (the published rounding) plus 0.01 % of the value.
pub fn energy_tolerance(wh_per_million: f64) -> f64 {
    0.005 + 1e-4 * wh_per_million.abs()
}

/// How far a diffusion row's items per second may sit from
/// `batch_size / batch_latency_s`, and its power from
/// `J per item × items per second`, as a share of the computed value. The
/// published figures are rounded (latency to 1 ms, rates to 4 significant
/// digits, power to 1 W) and agree within 0.2 %.
pub const CONSISTENCY_TOLERANCE: f64 = 0.01;

/// Checks one parsed file of any kind for values that cannot be right.
pub fn validate_model(path: &Path, m: &ModelFile) -> Vec<Problem> {
    let mut out = Vec::new();
    let mut bad = |field: String, message: String| out.push(problem(path, field, message));
    let measure = m.measure();
    let tokens = measure == Measure::Tokens;
    let own_fields = limits::kind_fields(m.kind);
    let (own, other) = (m.itl_deadline_ms, m.batch_latency_deadline_s);
    let (own, other) = if tokens { (own, other) } else { (other, own) };
    if let Measure::Diffusion(kind) = measure
        && m.unit != Words::of(measure).energy_long
    {
        bad(
            "unit".into(),
            format!(
                "is {:?} but a file of kind {:?} must say {:?}",
                m.unit,
                kind.item(),
                Words::of(measure).energy_long
            ),
        );
    }
    if other.is_some() {
        bad(own_fields.other.into(), own_fields.why.into());
    }
    validate_frame(&mut bad, m, own_fields, own);
    validate_row_ids(&mut bad, m);
    let limit = m.deadline();
    for (i, c) in m.configurations.iter().enumerate() {
        let at = format!("configurations[{i}]");
        let row = format!(" (row {})", shown(&c.row_id));
        check_kind_fields(&mut bad, m, &at, &row, c);
        validate_configuration(&mut bad, &at, &row, c);
        // The kind's own fields: a row may carry the other kind's too
        // (reported above).
        let (value, stated) = if tokens {
            (c.median_itl_ms, c.under_itl_deadline)
        } else {
            (c.batch_latency_s, c.under_latency_deadline)
        };
        if let (Some(value), Some(stated)) = (value, stated)
            && value.is_finite()
            && limit.is_finite()
            && (value <= limit) != stated
        {
            bad(
                format!("{at}.{}", own_fields.flag),
                format!(
                    "is {stated} but {} {} is {} the deadline {} {}{row}",
                    own_fields.latency,
                    limits::number(value),
                    if stated { "above" } else { "within" },
                    own_fields.deadline,
                    limits::number(limit)
                ),
            );
        }
    }

    if !out.is_empty() {
        return out;
    }
    check_best(path, m, &mut out);
    out
}

/// Checks the frame every model file shares, whatever it measures: slug,
/// texts, dates, names, workload, source addresses, the deadline, the
/// parameters, the GPU list and that there are configurations.
fn validate_frame(bad: &mut Bad<'_>, m: &ModelFile, kind: &KindFields, deadline: Option<f64>) {
    if !is_valid_slug(&m.slug) {
        bad(
            "slug".into(),
            format!(
                "{:?} is not a valid slug: use lower-case letters, digits and '-', starting with \
                    a letter or digit (it becomes a URL path)",
                &m.slug
            ),
        );
    }
    limits::check_model_texts(bad, m);
    limits::check_dates(bad, m);
    limits::check_model_ranges(bad, m, kind, deadline);
    for (field, value) in [("name", &m.name), ("model_id", &m.model_id)] {
        if value.trim().is_empty() {
            bad(field.into(), "must not be empty".into());
        }
    }
    if RESERVED_SLUGS.contains(&m.slug.as_str()) {
        bad(
            "slug".into(),
            format!(
                "{:?} is reserved: data/{}.{} is a site-wide download; choose another slug",
                &m.slug,
                &m.slug,
                if m.slug == "changes" { "json" } else { "csv" }
            ),
        );
    }
    check_workload(bad, m);
    check_source_urls(bad, m);
    check_parameters(bad, m, kind);
    check_gpu_names(bad, m);
    if m.configurations.is_empty() {
        bad(
            "configurations".into(),
            "is empty; a model file needs at least one measured configuration".into(),
        );
    }
}

/// Checks that the source's addresses are web addresses.
fn check_source_urls(bad: &mut Bad<'_>, m: &ModelFile) {
    let urls = [
        ("url", Some(&m.source.url)),
        ("cite_url", Some(&m.source.cite_url)),
    ];
    let urls = urls
        .into_iter()
        .chain([("data_url", m.source.data_url.as_ref())]);
    for (field, url) in urls {
        if let Some(url) = url.filter(|u| !is_web_url(u)) {
            bad(
                format!("source.{field}"),
                format!("{url:?} is not a web address; it must start with https:// or http://"),
            );
        }
    }
}

/// Checks that the deadline and parameter counts are positive and that the
/// active parameters do not exceed the total.
fn check_parameters(bad: &mut Bad<'_>, m: &ModelFile, kind: &KindFields) {
    positive(bad, kind.deadline, m.deadline(), "");
    positive(bad, "params_b", m.params_b, "");
    positive(bad, "active_params_b", m.active_params_b, "");
    if m.active_params_b.is_finite() && m.params_b.is_finite() && m.active_params_b > m.params_b {
        bad(
            "active_params_b".into(),
            format!(
                "active parameters ({}) exceed total parameters ({})",
                limits::number(m.active_params_b),
                limits::number(m.params_b)
            ),
        );
    }
}

/// Checks the GPU list: not empty, and each name a URL segment of its own
/// that no page's added word can make another GPU's.
fn check_gpu_names(bad: &mut Bad<'_>, m: &ModelFile) {
    if m.gpus.is_empty() {
        bad("gpus".into(), "must list at least one GPU".into());
    }
    let mut gpu_segments: BTreeMap<String, &str> = BTreeMap::new();
    for (i, gpu) in m.gpus.iter().enumerate() {
        let seg = url_segment(gpu);
        let message = if seg.is_empty() {
            format!("{gpu:?} has no letters or digits; a GPU name becomes a URL path")
        } else if let Some(word) = seg
            .rsplit_once('-')
            .map(|(_, last)| last)
            .filter(|last| crate::model::GPU_SUFFIX_WORDS.contains(last))
        {
            // #gpu-<seg>-h, #table-<seg>-caption, #chart-…-<seg>-data and
            // …-<seg>-log.svg name another GPU's heading, caption, chart
            // data and log-scale chart.
            let base = &seg[..seg.len() - word.len() - 1];
            format!(
                "{gpu:?} ends in the word {word:?}, which the pages add to a GPU's name (a GPU \
                    {base:?} would share its anchors and chart files); name the GPU without a \
                    trailing {}",
                crate::model::GPU_SUFFIX_WORDS
                    .map(|w| format!("{w:?}"))
                    .join(", ")
            )
        } else if let Some(other) = gpu_segments.insert(seg.clone(), gpu) {
            format!("{gpu:?} repeats {other:?} (both become /gpus/{seg}/)")
        } else {
            continue;
        };
        bad(format!("gpus[{i}]"), message);
    }
}

/// Checks what identifies each configuration: its GPU is in the file's
/// list, its `row_id` is there, unique and gives a page anchor of its own.
fn validate_row_ids(bad: &mut Bad<'_>, m: &ModelFile) {
    let mut row_ids: BTreeMap<&str, usize> = BTreeMap::new();
    let mut anchors: BTreeMap<String, usize> = BTreeMap::new();
    for (i, c) in m.configurations.iter().enumerate() {
        let at = format!("configurations[{i}]");
        let row = format!(" (row {})", shown(&c.row_id));
        if !m.gpus.contains(&c.gpu) {
            bad(
                format!("{at}.gpu"),
                format!(
                    "{:?} is not in the file's gpus list {:?}{row}",
                    c.gpu,
                    m.gpus.as_slice()
                ),
            );
        }
        let anchor = row_anchor(&m.slug, &c.row_id);
        let message = if c.row_id.trim().is_empty() {
            "must not be empty".to_owned()
        } else if let Some(first) = row_ids.insert(&c.row_id, i) {
            format!(
                "duplicate row_id {:?}: configurations[{first}] has it too",
                c.row_id
            )
        } else if let Some(clash) = page_anchor_clash(&anchor) {
            format!(
                "{:?} gives the page anchor #{anchor}, which {clash}; change the row_id",
                c.row_id
            )
        } else if let Some(first) = anchors.insert(anchor.clone(), i) {
            format!(
                "{:?} and configurations[{first}].row_id give the same page anchor #{anchor}",
                c.row_id
            )
        } else {
            continue;
        };
        bad(format!("{at}.row_id"), message);
    }
}

/// Longest workload id accepted (the leaderboard's are at most 15 characters).
pub const MAX_WORKLOAD_ID: usize = 64;

/// Whether `id` can be a workload id: a slug ([`is_valid_slug`]) of at most
/// [`MAX_WORKLOAD_ID`] characters (it becomes `/workloads/<id>/`).
pub fn is_valid_workload_id(id: &str) -> bool {
    is_valid_slug(id) && id.len() <= MAX_WORKLOAD_ID
}

/// The file must name its workload with an id that is a safe path segment.
fn check_workload(bad: &mut Bad<'_>, m: &ModelFile) {
    let (field, name_field) = match m.workload {
        Some(_) => ("workload.id", "workload.name"),
        None => ("source.workload", "source.workload"),
    };
    match m.workload_ref() {
        None => bad(
            field.into(),
            format!(
                "{:?} names no workload id: end it with the id in parentheses, e.g. \"Text \
                    Conversation (lm-arena-chat)\", or add a top-level \"workload\" object with \
                    id, name and description",
                m.source.workload
            ),
        ),
        Some(WorkloadRef { id, name }) => {
            if !is_valid_workload_id(&id) {
                bad(
                    field.into(),
                    format!(
                        "workload id {id:?} is not a valid path segment: use 1 to \
                            {MAX_WORKLOAD_ID} lower-case letters, digits and '-', starting with \
                            a letter or digit (it becomes the URL /workloads/<id>/)"
                    ),
                );
            }
            if name.trim().is_empty() {
                bad(
                    name_field.into(),
                    "the workload's name must not be empty".into(),
                );
            }
        }
    }
}

fn positive(bad: &mut Bad<'_>, field: &str, value: f64, row: &str) {
    if let Some(message) = positive_problem(value) {
        bad(field.into(), format!("{message}{row}"));
    }
}

/// What is wrong with a measurement, if anything: not finite, not above
/// zero, or too small to have been measured.
fn positive_problem(value: f64) -> Option<String> {
    if !value.is_finite() {
        Some("must be a finite number".to_owned())
    } else if value <= 0.0 {
        Some(format!(
            "must be greater than zero, found {}",
            limits::number(value)
        ))
    } else if value < limits::MIN_MEASURED {
        Some(format!(
            "is too small to be a measurement: at least {} is accepted, found {}",
            limits::number(limits::MIN_MEASURED),
            limits::number(value)
        ))
    } else {
        None
    }
}

/// A row has exactly its file's kind's fields ([`Measure::fields`]): every
/// one of them, and none of another kind's.
fn check_kind_fields(bad: &mut Bad<'_>, m: &ModelFile, at: &str, row: &str, c: &Configuration) {
    let (output, measure) = (m.kind, m.measure());
    let present = c.present();
    for field in measure.fields() {
        if !present.contains(&field) {
            let message = match output {
                Some(kind) if kind.fields().contains(&field) => {
                    format!(
                        "is required in a file of kind {:?} but missing{row}",
                        kind.item()
                    )
                }
                _ => format!("is required but missing{row}"),
            };
            bad(format!("{at}.{field}"), message);
        }
    }
    let per_token = |f: &str| TOKEN_FIELDS.contains(&f) || TOKEN_OPTIONAL_FIELDS.contains(&f);
    let diffusion = |f: &str| {
        DIFFUSION_FIELDS.contains(&f)
            || OutputKind::Image.fields().contains(&f)
            || OutputKind::Video.fields().contains(&f)
    };
    // Its kind's fields (per token, the optional ones too), and those every
    // row has, which are no kind's.
    let own = |f: &str| {
        measure.fields().any(|g| g == f)
            || (output.is_none() && TOKEN_OPTIONAL_FIELDS.contains(&f))
            || !(per_token(f) || diffusion(f))
    };
    for field in present {
        if own(field) {
            continue;
        }
        let message = match output {
            None => format!(
                "is a diffusion field, which a per-token configuration (a file without a kind) \
                    must not carry{row}"
            ),
            Some(_) if per_token(field) => format!(
                "is a per-token field, which a diffusion configuration must not carry (it gives \
                    joules_per_image or joules_per_video and batch_latency_s instead){row}"
            ),
            Some(kind) => format!(
                "belongs to kind {:?}, but the file's kind is {:?}{row}",
                if kind == OutputKind::Image {
                    "video"
                } else {
                    "image"
                },
                kind.item()
            ),
        };
        bad(format!("{at}.{field}"), message);
    }
}

/// One row's own rules, whatever its kind: the figures it has are
/// measurements and counts, within the limits; per token, the derived
/// figures agree with the measured ones; for diffusion, sequence
/// parallelism covers the GPUs and the rate and power agree with the
/// energy and latency.
fn validate_configuration(bad: &mut Bad<'_>, at: &str, row: &str, c: &Configuration) {
    for (name, value) in c.quantities() {
        let Some(value) = value else { continue };
        if matches!(name, "avg_requests_in_flight" | "avg_running_batch") {
            if !value.is_finite() || value < 0.0 {
                bad(
                    format!("{at}.{name}"),
                    format!(
                        "must be a finite number of 0 or more, found {}{row}",
                        limits::number(value)
                    ),
                );
            }
        } else if let Some(message) = positive_problem(value) {
            // The field's path is written only for a problem: a valid
            // 1,000-model set has hundreds of thousands of figures.
            bad(format!("{at}.{name}"), format!("{message}{row}"));
        }
    }
    for (name, value) in c.counts() {
        if value == Some(0) {
            bad(
                format!("{at}.{name}"),
                format!("must be 1 or more, found 0{row}"),
            );
        }
    }
    if c.precision.trim().is_empty() {
        bad(format!("{at}.precision"), format!("must not be empty{row}"));
    }
    limits::check_configuration(bad, at, row, c);
    if let Some(d) = &c.output_length_distribution {
        check_distribution(bad, &format!("{at}.output_length_distribution"), row, d);
    }
    check_exact_output_tokens(bad, at, row, c);
    check_energy_units_agree(bad, at, row, c);
    check_sequence_parallel_gpus(bad, at, row, c);
    check_consistency(bad, at, row, c);
}

/// Checks the exact mean output length: in range, and the rounded one is it
/// rounded.
fn check_exact_output_tokens(bad: &mut Bad<'_>, at: &str, row: &str, c: &Configuration) {
    let Some(exact) = c.avg_output_tokens_exact else {
        return;
    };
    let field = format!("{at}.avg_output_tokens_exact");
    if !exact.is_finite() || exact <= 0.0 || exact > limits::MAX_QUANTITY {
        bad(
            field,
            format!(
                "must be a number above 0 and at most {}, found {}{row}",
                limits::number(limits::MAX_QUANTITY),
                limits::number(exact)
            ),
        );
    } else if let Some(rounded) = c.avg_output_tokens
        && rounded.is_finite()
        && (exact - rounded).abs() > 0.5_f64.max(rounded * 1e-3)
    {
        bad(
            field,
            format!(
                "is {exact} but avg_output_tokens is {rounded}; the rounded value must be \
                    the exact one rounded{row}"
            ),
        );
    }
}

/// Checks that Wh per million tokens and joules per token say the same
/// energy, within rounding.
fn check_energy_units_agree(bad: &mut Bad<'_>, at: &str, row: &str, c: &Configuration) {
    if let (Some(wh), Some(joules), Some(derived)) = (
        c.wh_per_million_output_tokens,
        c.joules_per_output_token,
        c.derived_wh_per_million(),
    ) && wh.is_finite()
        && joules.is_finite()
        && (derived - wh).abs() > energy_tolerance(wh)
    {
        bad(
            format!("{at}.wh_per_million_output_tokens"),
            format!(
                "is {wh} but joules_per_output_token {joules} × 1e6 / 3600 = {derived:.4}; the \
                    two disagree beyond rounding{row}"
            ),
        );
    }
}

/// Checks that sequence parallelism spreads each item over exactly the
/// configuration's GPUs.
fn check_sequence_parallel_gpus(bad: &mut Bad<'_>, at: &str, row: &str, c: &Configuration) {
    // Every GPU holds one share of the sequence: Ulysses × ring = GPUs.
    if let (Some(u), Some(r)) = (c.ulysses_degree, c.ring_degree)
        && u > 0
        && r > 0
        && u64::from(u) * u64::from(r) != u64::from(c.num_gpus)
    {
        bad(
            format!("{at}.num_gpus"),
            format!(
                "is {} but ulysses_degree {u} × ring_degree {r} = {}; sequence parallelism \
                    spreads each item over exactly num_gpus GPUs{row}",
                c.num_gpus,
                u64::from(u) * u64::from(r)
            ),
        );
    }
}

/// The three measured figures of a diffusion row hang together: items per
/// second is the batch size over the batch latency, and GPU power is the
/// energy per item times the items per second, each within
/// [`CONSISTENCY_TOLERANCE`].
fn check_consistency(bad: &mut Bad<'_>, at: &str, row: &str, c: &Configuration) {
    let (Some(rate), Some(energy), Some(latency), Some(batch_size)) = (
        c.items_per_second(),
        c.joules_per_item(),
        c.batch_latency_s,
        c.batch_size,
    ) else {
        return;
    };
    let all_positive = [rate, energy, latency, c.gpu_power_watts_total]
        .iter()
        .all(|v| v.is_finite() && *v > 0.0)
        && batch_size > 0;
    if !all_positive {
        return;
    }
    let (item, rate_field) = if c.images_per_second.is_some() {
        ("image", "images_per_second")
    } else {
        ("video", "videos_per_second")
    };
    let number = limits::number;
    let expected_rate = f64::from(batch_size) / latency;
    if (rate - expected_rate).abs() > CONSISTENCY_TOLERANCE * expected_rate {
        bad(
            format!("{at}.{rate_field}"),
            format!(
                "is {} but batch_size {batch_size} / batch_latency_s {} = {}; the two disagree \
                    by more than 1 %{row}",
                number(rate),
                number(latency),
                number(expected_rate)
            ),
        );
    }
    let expected_power = energy * rate;
    if (c.gpu_power_watts_total - expected_power).abs() > CONSISTENCY_TOLERANCE * expected_power {
        bad(
            format!("{at}.gpu_power_watts_total"),
            format!(
                "is {} but joules_per_{item} {} × {rate_field} {} = {} W; the two disagree by \
                    more than 1 %{row}",
                number(c.gpu_power_watts_total),
                number(energy),
                number(rate),
                number(expected_power)
            ),
        );
    }
}

/// An output-length histogram needs one more edge than counts, at most
/// [`OutputLengthDistribution::MAX_BINS`] bins, finite edges of 0 or more in
/// strictly ascending order, and at least one response.
pub(crate) fn check_distribution(
    bad: &mut Bad<'_>,
    at: &str,
    row: &str,
    d: &OutputLengthDistribution,
) {
    let n = d.counts.len();
    let max_bins = OutputLengthDistribution::MAX_BINS;
    let (field, message) = if n == 0 || n > max_bins {
        (
            "counts".to_owned(),
            format!("must have between 1 and {max_bins} bins, found {n}"),
        )
    } else if d.bins.len() != n + 1 {
        (
            "bins".to_owned(),
            format!(
                "must have one more edge than counts has bins ({}), found {}",
                n + 1,
                d.bins.len()
            ),
        )
    } else if let Some(edge) = first_bad_edge(&d.bins) {
        edge
    } else if d
        .counts
        .iter()
        .try_fold(0u64, |a, c| a.checked_add(*c))
        .is_none()
    {
        (
            "counts".to_owned(),
            format!("add up to more than {}", u64::MAX),
        )
    } else if d.total() == 0 {
        (
            "counts".to_owned(),
            "must count at least one response, found none".to_owned(),
        )
    } else {
        return;
    };
    bad(format!("{at}.{field}"), format!("{message}{row}"));
}

/// The first histogram edge out of range or not above the last: (field, problem).
fn first_bad_edge(bins: &[f64]) -> Option<(String, String)> {
    bins.iter().enumerate().find_map(|(i, &edge)| {
        let message = if !(0.0..=limits::MAX_OUTPUT_TOKENS).contains(&edge) {
            format!(
                "must be a number of tokens from 0 to {}, found {}",
                limits::number(limits::MAX_OUTPUT_TOKENS),
                limits::number(edge)
            )
        } else if i > 0 && edge <= bins[i - 1] {
            format!(
                "must be greater than the edge before it ({}), found {edge}",
                bins[i - 1]
            )
        } else {
            return None;
        };
        Some((format!("bins[{i}]"), message))
    })
}

/// A file's kind in words, for messages.
fn kind_words(kind: Option<OutputKind>) -> String {
    match kind {
        None => "a per-token file (no kind)".to_owned(),
        Some(k) => format!("kind {:?}", k.item()),
    }
}

pub(super) fn check_across_files(models: &[LoadedModel], problems: &mut Vec<Problem>) {
    let mut files: Vec<&LoadedModel> = models.iter().collect();
    // In the order the files were found.
    files.sort_by(|a, b| a.path.cmp(&b.path));
    // A model is its slug across workloads: (slug, workload) is unique.
    let mut by_slug: BTreeMap<(&str, &str), &Path> = BTreeMap::new();
    for model in &files {
        if let Some(first) = by_slug.insert((&model.file.slug, &model.workload), &model.path) {
            problems.push(problem(
                &model.path,
                "slug",
                format!(
                    "{:?} is already used by {} in the same workload {:?}; each model needs its \
                        own slug within a workload",
                    model.file.slug,
                    first.display(),
                    model.workload
                ),
            ));
        }
    }
    // One kind of measurement and one latency deadline per workload.
    let mut firsts: BTreeMap<&str, &LoadedModel> = BTreeMap::new();
    for model in &files {
        let Some(first) = firsts.get(model.workload.as_str()) else {
            firsts.insert(&model.workload, model);
            continue;
        };
        let kind = model.file.kind;
        if first.file.kind != kind {
            problems.push(problem(
                &model.path,
                "kind",
                format!(
                    "the file is {} but {} is {} in the same workload {:?}; every file of one \
                        workload must measure the same kind of output",
                    kind_words(kind),
                    first.path.display(),
                    kind_words(first.file.kind),
                    model.workload
                ),
            ));
        } else if first.file.deadline() != model.file.deadline() {
            let k = limits::kind_fields(kind);
            let unit = k.unit;
            problems.push(problem(
                &model.path,
                k.deadline,
                format!(
                    "is {}{unit} but {} gives {}{unit} for the same workload {:?}; every file of \
                        one workload must use the same deadline",
                    model.file.deadline(),
                    first.path.display(),
                    first.file.deadline(),
                    model.workload
                ),
            ));
        }
    }
    let mut gpu_names: BTreeMap<String, (&str, &Path)> = BTreeMap::new();
    for model in &files {
        for (i, gpu) in model.file.gpus.iter().enumerate() {
            let seg = url_segment(gpu);
            let (name, first) = *gpu_names.entry(seg.clone()).or_insert((gpu, &model.path));
            if name != gpu {
                problems.push(problem(
                    &model.path,
                    format!("gpus[{i}]"),
                    format!(
                        "{gpu:?} and {name:?} in {} would share the page /gpus/{seg}/; spell the \
                            GPU the same way in every file",
                        first.display()
                    ),
                ));
            }
        }
    }
}
