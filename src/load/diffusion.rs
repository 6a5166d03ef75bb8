//! Validation of diffusion model files ([`ModelFile`]): the frame and
//! row rules of the per-token kind, and the diffusion kind's own.

use std::path::Path;

use super::best::check_best;
use super::limits::{self, number};
use super::validate::{check_kind_fields, positive, validate_frame, validate_row_ids};
use super::{Problem, problem, shown};
use crate::model::{Configuration, ModelFile, OutputKind};

/// How far a configuration's items per second may sit from
/// `batch_size / batch_latency_s`, and its power from
/// `J per item × items per second`, as a share of the computed value. The
/// published figures are rounded (latency to 1 ms, rates to 4 significant
/// digits, power to 1 W) and agree within 0.2 %.
pub const CONSISTENCY_TOLERANCE: f64 = 0.01;

/// Checks one parsed diffusion file for values that cannot be right.
pub(super) fn validate_diffusion(path: &Path, m: &ModelFile) -> Vec<Problem> {
    let mut out = Vec::new();
    let mut bad = |field: String, message: String| out.push(problem(path, field, message));
    let kind = m.output();

    if m.unit != kind.unit() {
        bad(
            "unit".into(),
            format!(
                "is {:?} but a file of kind {:?} must say {:?}",
                m.unit,
                kind.item(),
                kind.unit()
            ),
        );
    }
    if m.itl_deadline_ms.is_some() {
        bad(
            "itl_deadline_ms".into(),
            "is a per-token field; a diffusion file gives its deadline as batch_latency_deadline_s, in seconds".into(),
        );
    }
    let deadline = limits::Deadline {
        field: "batch_latency_deadline_s",
        value: m.batch_latency_deadline_s,
        max: limits::MAX_BATCH_LATENCY_S,
        unit: " s",
    };
    validate_frame(&mut bad, m, &deadline);
    validate_row_ids(&mut bad, m);
    for (i, c) in m.configurations.iter().enumerate() {
        let at = format!("configurations[{i}]");
        let row = format!(" (row {})", shown(&c.row_id));
        check_kind_fields(&mut bad, m.measure(), &at, &row, c);
        validate_configuration(&mut bad, kind, &at, &row, c);
        let limit = m.deadline();
        if let (Some(latency), Some(flag)) = (c.batch_latency_s, c.under_latency_deadline)
            && latency.is_finite()
            && limit.is_finite()
        {
            let under = latency <= limit;
            if under != flag {
                bad(
                    format!("{at}.under_latency_deadline"),
                    format!(
                        "is {flag} but batch_latency_s {} is {} the deadline batch_latency_deadline_s {}{row}",
                        number(latency),
                        if under { "within" } else { "above" },
                        number(limit)
                    ),
                );
            }
        }
    }

    if !out.is_empty() {
        return out;
    }
    check_best(path, m, &m.best, &mut out);
    out
}

fn validate_configuration(
    bad: &mut impl FnMut(String, String),
    kind: OutputKind,
    at: &str,
    row: &str,
    c: &Configuration,
) {
    let optional = [
        ("joules_per_image", c.joules_per_image),
        ("joules_per_video", c.joules_per_video),
        ("images_per_second", c.images_per_second),
        ("videos_per_second", c.videos_per_second),
        ("fps", c.fps),
    ];
    let measured = [
        ("batch_latency_s", c.batch_latency_s),
        ("gpu_power_watts_total", Some(c.gpu_power_watts_total)),
    ];
    for (name, value) in measured.into_iter().chain(optional) {
        if let Some(value) = value {
            positive(bad, &format!("{at}.{name}"), value, row);
        }
    }
    let sizes = [
        ("image_height", c.image_height),
        ("image_width", c.image_width),
        ("video_height", c.video_height),
        ("video_width", c.video_width),
        ("num_frames", c.num_frames),
    ];
    let whole = [
        ("num_gpus", Some(c.num_gpus)),
        ("ulysses_degree", c.ulysses_degree),
        ("ring_degree", c.ring_degree),
        ("batch_size", c.batch_size),
        ("inference_steps", c.inference_steps),
        ("repeat", Some(c.repeat)),
    ];
    for (name, value) in whole.into_iter().chain(sizes) {
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
    // Every GPU holds one share of the sequence: Ulysses × ring = GPUs.
    if let (Some(u), Some(r)) = (c.ulysses_degree, c.ring_degree)
        && u > 0
        && r > 0
        && u64::from(u) * u64::from(r) != u64::from(c.num_gpus)
    {
        bad(
            format!("{at}.num_gpus"),
            format!(
                "is {} but ulysses_degree {u} × ring_degree {r} = {}; sequence parallelism spreads each item over exactly num_gpus GPUs{row}",
                c.num_gpus,
                u64::from(u) * u64::from(r)
            ),
        );
    }
    check_consistency(bad, kind, at, row, c);
}

/// The three measured figures of a row hang together: items per second is
/// the batch size over the batch latency, and GPU power is the energy per
/// item times the items per second, each within
/// [`CONSISTENCY_TOLERANCE`].
fn check_consistency(
    bad: &mut impl FnMut(String, String),
    kind: OutputKind,
    at: &str,
    row: &str,
    c: &Configuration,
) {
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
    let rate_field = match kind {
        OutputKind::Image => "images_per_second",
        OutputKind::Video => "videos_per_second",
    };
    let expected_rate = f64::from(batch_size) / latency;
    if (rate - expected_rate).abs() > CONSISTENCY_TOLERANCE * expected_rate {
        bad(
            format!("{at}.{rate_field}"),
            format!(
                "is {} but batch_size {} / batch_latency_s {} = {}; the two disagree by more than 1 %{row}",
                number(rate),
                batch_size,
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
                "is {} but joules_per_{} {} × {rate_field} {} = {} W; the two disagree by more than 1 %{row}",
                number(c.gpu_power_watts_total),
                kind.item(),
                number(energy),
                number(rate),
                number(expected_power)
            ),
        );
    }
}
