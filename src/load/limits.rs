//! The limits of the data format beyond its types: text without control
//! characters and of bounded length, real ISO dates, numbers within sane
//! ranges (so no chart or page ever has to draw 1.7e308), latency
//! percentiles in order, and sequence-parallel degrees (diffusion) that
//! multiply to the GPU count.
//! Each rule is stated once here and once in the tables of
//! `docs/data-format.md`.

use super::Bad;
use crate::model::{Configuration, ModelFile, OutputKind};

/// Longest slug, in characters: it becomes a folder name and URL segment.
pub const MAX_SLUG_CHARS: usize = 100;
/// Longest GPU name: it becomes a folder name and URL segment.
pub const MAX_GPU_CHARS: usize = 64;
pub const MAX_ROW_ID_CHARS: usize = 200;
/// Longest name-like text (name, model id, architecture, precision,
/// version, unit, boundary, and the source's short fields).
pub const MAX_NAME_CHARS: usize = 300;
pub const MAX_URL_CHARS: usize = 2000;
/// Longest prose text (caveat, method, selection, citation, notes).
pub const MAX_PROSE_CHARS: usize = 5000;

/// Largest latency accepted (median, p90, p95, p99 ITL and the deadline),
/// in ms: 10⁷ ms is almost three hours per token.
pub const MAX_LATENCY_MS: f64 = 1e7;
/// Largest energy accepted, in Wh per million output tokens (a thousand
/// times the worst published figure).
pub const MAX_WH_PER_MILLION: f64 = 1e9;
/// Largest energy per token accepted, in J: [`MAX_WH_PER_MILLION`] in joules.
pub const MAX_JOULES_PER_TOKEN: f64 = MAX_WH_PER_MILLION * 3600.0 / 1e6;
/// Smallest energy per token accepted, in J (a microjoule; the best
/// published figure is about 0.03 J), so output tokens per Wh,
/// `3600 / joules_per_output_token`, stays a printable number.
pub const MIN_JOULES_PER_TOKEN: f64 = 1e-6;
/// Largest throughput, GPU power, output length and load accepted.
pub const MAX_QUANTITY: f64 = 1e9;
/// Largest parameter count accepted, in billions.
pub const MAX_PARAMS_B: f64 = 1e6;
/// Largest GPU count, parallel degree, `max_num_seqs` and `repeat` accepted.
pub const MAX_COUNT: u32 = 1_000_000;

/// A number as it goes into a message: as written for ordinary sizes,
/// in exponent form (`1.7e308`) when it would take more than 16 digits.
pub use crate::fmt::raw as number;

/// Smallest positive measured value accepted (smaller ones are not
/// measurements, and would print as hundreds of digits).
pub const MIN_MEASURED: f64 = 1e-9;
/// Largest output length, in tokens, a histogram edge may give.
pub const MAX_OUTPUT_TOKENS: f64 = 1e9;

/// Whether `c` is a control character: C0, DEL, C1, or a bidirectional
/// control (embedding, override, isolate and mark characters, which can make
/// a text read other than it is).
pub fn is_control(c: char) -> bool {
    c.is_control()
        || matches!(
            c,
            '\u{061C}' | '\u{200E}' | '\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}'
        )
}

/// What is wrong with a text of at most `max` characters, if anything: a
/// control character ([`is_control`]) or its length. The one text rule of
/// model files, the settings file and the importer.
pub fn text_problem(text: &str, max: usize) -> Option<String> {
    if let Some(c) = text.chars().find(|c| is_control(*c)) {
        return Some(format!(
            "contains the control character U+{:04X}; text fields may not hold control \
             characters (tabs, line breaks and bidirectional controls included)",
            u32::from(c)
        ));
    }
    let chars = text.chars().count();
    (chars > max).then(|| format!("is {chars} characters long; at most {max} are allowed"))
}

/// What is wrong with a GPU name, if anything, beyond [`text_problem`]: a
/// name that is a reserved device name on Windows (`CON`, `NUL`, `COM1`…;
/// it becomes a folder of the site), or that holds full-width letters or
/// digits (`Ｈ100` would be a second spelling of `H100`).
pub fn gpu_name_problem(name: &str) -> Option<String> {
    let upper = name.to_ascii_uppercase();
    let base = upper.split('.').next().unwrap_or_default().trim_end();
    let reserved = matches!(base, "CON" | "PRN" | "AUX" | "NUL")
        || ((base.starts_with("COM") || base.starts_with("LPT"))
            && base.len() == 4
            && base.as_bytes()[3].is_ascii_digit());
    if reserved {
        return Some(format!(
            "{name:?} is a reserved device name (it cannot be a folder of the site on Windows)"
        ));
    }
    name.chars()
        .find(|c| ('\u{FF01}'..='\u{FF5E}').contains(c))
        .map(|c| {
            format!(
                "holds the full-width character {c:?} (U+{:04X}); write it as {:?}",
                u32::from(c),
                char::from_u32(u32::from(c) - 0xFEE0).unwrap_or(c)
            )
        })
}

pub(super) fn check_text(bad: &mut Bad<'_>, field: &str, text: &str, max: usize) {
    if let Some(problem) = text_problem(text, max) {
        bad(field.to_owned(), problem);
    }
}

/// Every text field of the model and its source, except the configurations'.
pub(super) fn check_model_texts(bad: &mut Bad<'_>, m: &ModelFile) {
    for (field, text, max) in [
        ("slug", &m.slug, MAX_SLUG_CHARS),
        ("version", &m.version, MAX_NAME_CHARS),
        ("updated", &m.updated, MAX_NAME_CHARS),
        ("data_version", &m.data_version, MAX_NAME_CHARS),
        ("unit", &m.unit, MAX_NAME_CHARS),
        ("boundary", &m.boundary, MAX_NAME_CHARS),
        ("name", &m.name, MAX_NAME_CHARS),
        ("model_id", &m.model_id, MAX_NAME_CHARS),
        ("architecture", &m.architecture, MAX_NAME_CHARS),
        ("caveat", &m.caveat, MAX_PROSE_CHARS),
    ] {
        check_text(bad, field, text, max);
    }
    for (i, gpu) in m.gpus.iter().enumerate() {
        check_text(bad, &format!("gpus[{i}]"), gpu, MAX_GPU_CHARS);
        if let Some(problem) = gpu_name_problem(gpu) {
            bad(format!("gpus[{i}]"), problem);
        }
    }
    let s = &m.source;
    for (field, value, max) in [
        ("name", Some(&s.name), MAX_NAME_CHARS),
        ("publisher", Some(&s.publisher), MAX_NAME_CHARS),
        ("version", Some(&s.version), MAX_NAME_CHARS),
        ("released", Some(&s.released), MAX_NAME_CHARS),
        ("compiled", Some(&s.compiled), MAX_NAME_CHARS),
        ("retrieved", Some(&s.retrieved), MAX_NAME_CHARS),
        ("licence", Some(&s.licence), MAX_NAME_CHARS),
        ("workload", Some(&s.workload), MAX_NAME_CHARS),
        ("url", Some(&s.url), MAX_URL_CHARS),
        ("cite_url", Some(&s.cite_url), MAX_URL_CHARS),
        ("data_url", s.data_url.as_ref(), MAX_URL_CHARS),
        ("method", Some(&s.method), MAX_PROSE_CHARS),
        ("selection", Some(&s.selection), MAX_PROSE_CHARS),
        ("cite", Some(&s.cite), MAX_PROSE_CHARS),
        (
            "compiled_evidence",
            s.compiled_evidence.as_ref(),
            MAX_PROSE_CHARS,
        ),
        ("used_for", s.used_for.as_ref(), MAX_PROSE_CHARS),
        ("configurations", s.configurations.as_ref(), MAX_PROSE_CHARS),
    ] {
        if let Some(value) = value {
            check_text(bad, &format!("source.{field}"), value, max);
        }
    }
    for (i, value) in s.licence_evidence.iter().enumerate() {
        check_text(
            bad,
            &format!("source.licence_evidence[{i}]"),
            value,
            MAX_PROSE_CHARS,
        );
    }
}

/// Whether `text` is a real calendar date written `YYYY-MM-DD`.
pub fn is_iso_date(text: &str) -> bool {
    let b = text.as_bytes();
    if b.len() != 10 || b[4] != b'-' || b[7] != b'-' {
        return false;
    }
    let number = |r: std::ops::Range<usize>| -> Option<u32> {
        let part = &text[r];
        part.bytes()
            .all(|c| c.is_ascii_digit())
            .then(|| part.parse().ok())
            .flatten()
    };
    let (Some(year), Some(month), Some(day)) = (number(0..4), number(5..7), number(8..10)) else {
        return false;
    };
    let leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
    let days = match month {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if leap => 29,
        2 => 28,
        _ => return false,
    };
    year >= 1 && (1..=days).contains(&day)
}

/// The date fields: `updated`, `data_version` and the source's `released`,
/// `compiled` and `retrieved`.
pub(super) fn check_dates(bad: &mut Bad<'_>, m: &ModelFile) {
    let source = &m.source;
    for (field, value) in [
        ("updated", &m.updated),
        ("data_version", &m.data_version),
        ("source.released", &source.released),
        ("source.compiled", &source.compiled),
        ("source.retrieved", &source.retrieved),
    ] {
        if !is_iso_date(value) && !value.chars().any(is_control) {
            bad(field.to_owned(), not_a_date(value, "2026-09-27"));
        }
    }
}

/// What a date field that is not one is told, with an `example` date.
pub(super) fn not_a_date(value: &str, example: &str) -> String {
    format!(
        "{:?} is not a date; write a real calendar date as YYYY-MM-DD, e.g. {example}",
        shorten(value)
    )
}

/// At most 40 characters of `text`, for a message.
pub(super) fn shorten(text: &str) -> String {
    if text.chars().count() > 40 {
        let mut short: String = text.chars().take(40).collect();
        short.push('…');
        short
    } else {
        text.to_owned()
    }
}

/// A number above its limit: the message names the limit (a non-finite or
/// non-positive value is reported by the caller's own checks).
fn check_at_most(bad: &mut Bad<'_>, field: &str, value: f64, max: f64, unit: &str, row: &str) {
    if let Some(message) = above_most(value, max, unit, row) {
        bad(field.to_owned(), message);
    }
}

/// What is wrong with `value` if it is above `max`.
fn above_most(value: f64, max: f64, unit: &str, row: &str) -> Option<String> {
    (value.is_finite() && value > max).then(|| {
        format!(
            "{} is out of range; at most {}{unit} is accepted{row}",
            number(value),
            number(max)
        )
    })
}

/// A kind of file's own fields: per token or diffusion ([`kind_fields`]).
#[derive(Debug)]
pub struct KindFields {
    /// The deadline's field, its largest value and its unit in a message.
    pub deadline: &'static str,
    pub max: f64,
    pub unit: &'static str,
    /// The other kind's deadline field, which the file must not carry, and why.
    pub other: &'static str,
    pub why: &'static str,
    /// Each row's latency and its flag for being within the deadline.
    pub latency: &'static str,
    pub flag: &'static str,
}

const PER_TOKEN: KindFields = KindFields {
    deadline: "itl_deadline_ms",
    max: MAX_LATENCY_MS,
    unit: " ms",
    other: "batch_latency_deadline_s",
    why: "is a diffusion field; a per-token file gives its deadline as itl_deadline_ms, in \
        milliseconds",
    latency: "median_itl_ms",
    flag: "under_itl_deadline",
};

const DIFFUSION: KindFields = KindFields {
    deadline: "batch_latency_deadline_s",
    max: MAX_BATCH_LATENCY_S,
    unit: " s",
    other: "itl_deadline_ms",
    why: "is a per-token field; a diffusion file gives its deadline as batch_latency_deadline_s, \
        in seconds",
    latency: "batch_latency_s",
    flag: "under_latency_deadline",
};

/// The fields of a file of `kind` (a file's `kind`; `None` is per token).
pub fn kind_fields(kind: Option<OutputKind>) -> &'static KindFields {
    if kind.is_none() {
        &PER_TOKEN
    } else {
        &DIFFUSION
    }
}

/// The model-wide numbers: the deadline and the parameter counts.
pub(super) fn check_model_ranges(
    bad: &mut Bad<'_>,
    m: &ModelFile,
    kind: &KindFields,
    deadline: Option<f64>,
) {
    match deadline {
        Some(value) => check_at_most(bad, kind.deadline, value, kind.max, kind.unit, ""),
        None => bad(
            kind.deadline.into(),
            format!(
                "is required but missing: the latency deadline for \"best\", in{}",
                kind.unit
            ),
        ),
    }
    for (field, value) in [
        ("params_b", m.params_b),
        ("active_params_b", m.active_params_b),
    ] {
        check_at_most(bad, field, value, MAX_PARAMS_B, " billion", "");
    }
}

/// Largest batch latency accepted (and batch-latency deadline), in s: 10⁷ s
/// is almost four months a batch.
pub const MAX_BATCH_LATENCY_S: f64 = 1e7;
/// Largest energy per image or video accepted, in J (a terawatt-hour per
/// million items; the worst published figure is about 1.4 MJ per video).
pub const MAX_JOULES_PER_ITEM: f64 = 1e12;
/// Smallest energy per image or video accepted, in J (a millijoule; the
/// best published figure is about 300 J per image), so items per kWh,
/// `3.6e6 / J`, stays a printable number.
pub const MIN_JOULES_PER_ITEM: f64 = 1e-3;

/// One configuration's texts, ranges and percentile order, for the
/// fields its kind has (its consistency is checked with its kind's other
/// rules).
pub(super) fn check_configuration(bad: &mut Bad<'_>, at: &str, row: &str, c: &Configuration) {
    for (name, text, max) in [
        ("gpu", &c.gpu, MAX_GPU_CHARS),
        ("precision", &c.precision, MAX_NAME_CHARS),
        ("row_id", &c.row_id, MAX_ROW_ID_CHARS),
    ] {
        if let Some(problem) = text_problem(text, max) {
            bad(format!("{at}.{name}"), problem);
        }
    }
    for (name, value) in c.quantities() {
        let (max, unit) = match name {
            "median_itl_ms" | "p90_itl_ms" | "p95_itl_ms" | "p99_itl_ms" => (MAX_LATENCY_MS, " ms"),
            "wh_per_million_output_tokens" => (MAX_WH_PER_MILLION, " Wh per million output tokens"),
            "joules_per_output_token" => (MAX_JOULES_PER_TOKEN, " J"),
            "batch_latency_s" => (MAX_BATCH_LATENCY_S, " s"),
            "joules_per_image" | "joules_per_video" => (MAX_JOULES_PER_ITEM, " J"),
            "gpu_power_watts_total" => (MAX_QUANTITY, " W"),
            _ => (MAX_QUANTITY, ""),
        };
        // The field's path is written only for a problem.
        if let Some(message) = value.and_then(|value| above_most(value, max, unit, row)) {
            bad(format!("{at}.{name}"), message);
        }
    }
    for (name, value, min) in [
        (
            "joules_per_output_token",
            c.joules_per_output_token,
            MIN_JOULES_PER_TOKEN,
        ),
        ("joules_per_image", c.joules_per_image, MIN_JOULES_PER_ITEM),
        ("joules_per_video", c.joules_per_video, MIN_JOULES_PER_ITEM),
    ] {
        if let Some(joules) = value.filter(|j| *j > 0.0 && *j < min) {
            bad(
                format!("{at}.{name}"),
                format!(
                    "{} is out of range; at least {} J is accepted{row}",
                    number(joules),
                    number(min)
                ),
            );
        }
    }
    for (name, value) in c.counts() {
        if let Some(value) = value.filter(|v| *v > MAX_COUNT) {
            bad(
                format!("{at}.{name}"),
                format!("{value} is out of range; at most {MAX_COUNT} is accepted{row}"),
            );
        }
    }
    // Latency percentiles never fall: median ≤ p90 ≤ p95 ≤ p99 (`quantities`
    // starts with the four, median first).
    for pair in c.quantities()[..4].windows(2) {
        let ((lower, low), (higher, high)) = (pair[0], pair[1]);
        let (Some(low), Some(high)) = (low, high) else {
            continue;
        };
        if low.is_finite() && high.is_finite() && high < low {
            bad(
                format!("{at}.{higher}"),
                format!(
                    "{} is below {lower} {}; a higher percentile cannot be lower{row}",
                    number(high),
                    number(low)
                ),
            );
        }
    }
}
