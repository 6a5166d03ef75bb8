//! Axes with hand-picked ticks: log₂ axes ticked at powers of two, log₁₀
//! axes ticked at 1-2-5 steps, and linear axes from zero with round steps.

use std::ops::Range;

use plotters::coord::ranged1d::{DefaultFormatting, KeyPointHint, Ranged};

use crate::fmt;

/// One chart axis: its range, whether it is logarithmic, and its ticks.
/// Only [`Axis::new`] sets `lo`, `hi` and `log`, which `ends` follows.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Axis {
    pub lo: f64,
    pub hi: f64,
    pub log: bool,
    pub ticks: Vec<f64>,
    /// `lo` and `hi` projected, kept because plotters maps every point
    /// through [`Ranged::map`]: computing their logarithms per point made a
    /// build of 1,000 synthetic models 3 % slower (2.20 against 2.14 s wall,
    /// median of 8 alternating release builds, 2026-12-02).
    ends: (f64, f64),
}

impl Axis {
    fn new(lo: f64, hi: f64, log: bool, ticks: Vec<f64>) -> Self {
        let project = |v: f64| if log { v.ln() } else { v };
        Self {
            lo,
            hi,
            log,
            ticks,
            ends: (project(lo), project(hi)),
        }
    }

    /// A log₂ axis covering `min..=max` with ticks at every power of two.
    pub(crate) fn powers_of_two(min: f64, max: f64) -> Self {
        let (lo, hi) = (min / 1.3, max * 1.3);
        let (first, last) = (lo.log2().ceil(), hi.log2().floor());
        let ticks = spaced_exponents(first, last)
            .map(f64::exp2)
            .filter(|t| t.is_finite() && *t > 0.0)
            .collect();
        Self::new(lo, hi, true, ticks)
    }

    /// A log₁₀ axis covering `min..=max` with ticks at 1, 2 and 5 times
    /// powers of ten (more steps when that gives fewer than three ticks).
    pub(crate) fn log(min: f64, max: f64) -> Self {
        let (lo, hi) = (min / 1.25, max * 1.25);
        Self::new(lo, hi, true, three_ticks(lo, hi, &[&[1.0, 2.0, 5.0], FINE]))
    }

    /// A log₁₀ axis for bars, from the power of ten below `min` (so every
    /// bar starts at a labelled tick and the shortest still shows) to
    /// `hi`, ticked at powers of ten (at 1-2-5 steps, or finer, when that
    /// gives fewer than three ticks).
    pub(crate) fn log_from_decade(min: f64, hi: f64) -> Self {
        let lo = round_sig(10f64.powf((min / 1.25).log10().floor()));
        Self::new(
            lo,
            hi,
            true,
            three_ticks(lo, hi, &[&[1.0], &[1.0, 2.0, 5.0], FINE]),
        )
    }

    /// A linear axis from zero to a little above `max`, ending on a tick.
    pub(crate) fn from_zero(max: f64) -> Self {
        // Past 1e300 the end would overflow; the data never get there
        // (validation caps every figure), but the loop must still end.
        let max = if max > 0.0 { max.min(1e300) } else { 1.0 };
        let step = nice_step(max / 5.0);
        let n = ((max * 1.04 / step).ceil() as u32).min(MAX_TICKS as u32);
        let ticks: Vec<f64> = (0..=n).map(|i| f64::from(i) * step).collect();
        Self::new(0.0, f64::from(n) * step, false, ticks)
    }

    /// A linear axis of percentages, 0 to 100, ticked every 25.
    pub(crate) fn percent() -> Self {
        Self::new(0.0, 100.0, false, vec![0.0, 25.0, 50.0, 75.0, 100.0])
    }

    /// A linear axis `0..n` without ticks, for rows of bars.
    pub(crate) fn rows(n: usize) -> Self {
        Self::new(0.0, n.max(1) as f64, false, Vec::new())
    }

    /// Log₁₀ when the values span more than ten times, else linear from zero.
    pub(crate) fn auto(min: f64, max: f64) -> Self {
        if min > 0.0 && max / min > 10.0 {
            Self::log(min, max)
        } else {
            Self::from_zero(max)
        }
    }

    /// This axis with every second (third, …) tick only, the fewest
    /// dropped so that labels `width` pixels wide, centred on their ticks
    /// along `span` pixels, keep 8 pixels apart.
    pub(crate) fn thinned(&self, span: f64, width: impl Fn(f64) -> f64) -> Self {
        let (a, b) = self.ends;
        let at = |t: f64| (self.project(t) - a) / (b - a) * span;
        let fits = |ticks: &[f64]| {
            ticks
                .windows(2)
                .all(|w| at(w[1]) - at(w[0]) >= f64::midpoint(width(w[0]), width(w[1])) + 8.0)
        };
        for stride in 1..=self.ticks.len().max(1) {
            let ticks: Vec<f64> = self.ticks.iter().copied().step_by(stride).collect();
            if fits(&ticks) {
                return Self {
                    ticks,
                    ..self.clone()
                };
            }
        }
        self.clone()
    }

    fn project(&self, v: f64) -> f64 {
        if self.log { v.ln() } else { v }
    }
}

/// The lowest and highest of `values` (infinite when there are none).
pub(crate) fn min_max(values: impl Iterator<Item = f64>) -> (f64, f64) {
    values.fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), v| {
        (lo.min(v), hi.max(v))
    })
}

/// How a chart's scales read in its description: "log scales" only when
/// both axes are logarithmic.
pub(crate) fn scales_note(x: &Axis, y: &Axis) -> &'static str {
    match (x.log, y.log) {
        (true, true) => "log scales",
        (true, false) => "log x scale, linear y scale",
        (false, true) => "linear x scale, log y scale",
        (false, false) => "linear scales",
    }
}

/// A tick label: whole numbers grouped by thousands, others with as many
/// decimals as the tick needs to be exact (ticks are rounded to four
/// significant digits, so at most a few), so neighbouring ticks never read
/// the same: 0.005 is "0.005", not "0.01".
pub(crate) fn tick_label(v: f64) -> String {
    if v.fract() == 0.0 {
        return fmt::grouped(v);
    }
    let decimals = (1..=12)
        .find(|&d| {
            let scaled = v * 10f64.powi(d);
            (scaled - scaled.round()).abs() < 1e-6 * scaled.abs().max(1.0)
        })
        .unwrap_or(12);
    fmt::fixed(v, decimals as usize)
}

/// Most ticks an axis gets, whatever its range: a chart is a few hundred
/// pixels wide, and every tick loop must end on any finite input.
const MAX_TICKS: usize = 24;

/// The whole exponents from `first` to `last`, every one when there are at
/// most [`MAX_TICKS`] / 2 of them, else evenly thinned to about that many.
/// Empty when either end is not finite.
fn spaced_exponents(first: f64, last: f64) -> impl Iterator<Item = f64> {
    let (first, last) = if first.is_finite() && last.is_finite() && first <= last {
        (first.clamp(-2000.0, 2000.0), last.clamp(-2000.0, 2000.0))
    } else {
        (1.0, 0.0)
    };
    let count = (last - first) as usize + 1;
    let stride = count.div_ceil(MAX_TICKS / 2).max(1);
    (0..count)
        .step_by(stride)
        .map(move |i| first + i as f64)
        .filter(move |e| *e <= last)
}

/// The finest steps of a log axis' ticks within a decade.
const FINE: &[f64] = &[1.0, 1.5, 2.0, 3.0, 5.0, 7.0];

/// Log ticks at the first of `steps` (coarsest first) that gives three or
/// more, else at [`FINE`] steps.
fn three_ticks(lo: f64, hi: f64, steps: &[&[f64]]) -> Vec<f64> {
    steps
        .iter()
        .map(|s| log_ticks(lo, hi, s))
        .find(|t| t.len() >= 3)
        .unwrap_or_else(|| log_ticks(lo, hi, FINE))
}

fn log_ticks(lo: f64, hi: f64, steps: &[f64]) -> Vec<f64> {
    let mut ticks = Vec::new();
    let (first, last) = (lo.log10().floor(), hi.log10().ceil());
    let dense = first.is_finite() && last.is_finite() && last - first < (MAX_TICKS / 2) as f64;
    // Over many decades, one tick per (thinned) power of ten.
    let steps = if dense { steps } else { &[1.0] };
    for exp in spaced_exponents(first, last) {
        let mag = 10f64.powi(exp as i32);
        for s in steps {
            // Round away floating noise such as 0.30000000000000004.
            let t = round_sig(s * mag);
            if t >= lo && t <= hi {
                ticks.push(t);
            }
        }
    }
    ticks
}

fn round_sig(v: f64) -> f64 {
    let mag = 10f64.powi(v.log10().floor() as i32 - 3);
    (v / mag).round() * mag
}

fn nice_step(raw: f64) -> f64 {
    let mag = 10f64.powi(raw.log10().floor() as i32);
    let f = raw / mag;
    let n = [1.0, 2.0, 2.5, 5.0]
        .into_iter()
        .find(|&n| f <= n)
        .unwrap_or(10.0);
    round_sig(n * mag)
}

impl Ranged for Axis {
    type FormatOption = DefaultFormatting;
    type ValueType = f64;

    fn map(&self, value: &f64, limit: (i32, i32)) -> i32 {
        let (a, b) = self.ends;
        let t = (self.project(*value) - a) / (b - a);
        (f64::from(limit.0) + t * f64::from(limit.1 - limit.0)).round() as i32
    }

    fn key_points<H: KeyPointHint>(&self, hint: H) -> Vec<f64> {
        // Only bold grid lines; the light pass gets nothing to draw.
        if hint.weight().allow_light_points() {
            Vec::new()
        } else {
            self.ticks.clone()
        }
    }

    fn range(&self) -> Range<f64> {
        self.lo..self.hi
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn powers_of_two_tick_every_doubling() {
        let a = Axis::powers_of_two(8.0, 1536.0);
        assert_eq!(
            a.ticks,
            &[8.0, 16.0, 32.0, 64.0, 128.0, 256.0, 512.0, 1024.0]
        );
        assert!(a.log);
    }

    #[test]
    fn log_ticks_are_one_two_five() {
        assert_eq!(
            Axis::log(15.67, 479.35).ticks,
            &[20.0, 50.0, 100.0, 200.0, 500.0]
        );
        assert_eq!(Axis::log(20.0, 60.0).ticks, &[20.0, 30.0, 50.0, 70.0]);
    }

    #[test]
    fn bar_log_axis_starts_on_the_decade_below_its_smallest_value() {
        let a = Axis::log_from_decade(33.6, 40_000.0);
        assert!(a.log);
        assert_eq!(a.lo, 10.0);
        assert_eq!(a.ticks, &[10.0, 100.0, 1_000.0, 10_000.0]);
        // A smallest value on a power of ten still gets a bar.
        assert_eq!(Axis::log_from_decade(10.0, 500.0).lo, 1.0);
    }

    #[test]
    fn linear_axis_starts_at_zero_and_ends_on_a_tick() {
        let a = Axis::from_zero(1180.0);
        assert_eq!(a.ticks.first(), Some(&0.0));
        assert_eq!(a.range().end, *a.ticks.last().unwrap());
        assert!(a.range().end >= 1180.0);
        assert!(!Axis::auto(39.0, 64.0).log);
        assert!(Axis::auto(15.0, 480.0).log);
    }

    #[test]
    fn axes_end_on_any_finite_range() {
        for (lo, hi) in [
            (f64::MIN_POSITIVE, f64::MAX),
            (5e-324, 1.7e308),
            (1.0, f64::MAX),
            (1e-300, 1e-299),
            (1.7e308, f64::MAX),
        ] {
            for axis in [
                Axis::powers_of_two(lo, hi),
                Axis::log(lo, hi),
                Axis::from_zero(hi),
                Axis::auto(lo, hi),
            ] {
                assert!(
                    axis.ticks.len() <= MAX_TICKS + 1,
                    "{lo} {hi}: {:?}",
                    axis.ticks
                );
                assert!(axis.ticks.iter().all(|t| t.is_finite()));
            }
        }
        assert_eq!(Axis::log(1e-6, 1e20).ticks.len(), 9);
    }

    #[test]
    fn tick_labels_have_no_float_noise() {
        assert_eq!(tick_label(10_000.0), "10,000");
        assert_eq!(tick_label(1.5), "1.5");
        assert_eq!(tick_label(0.25), "0.25");
        assert_eq!(tick_label(0.005), "0.005");
        assert_eq!(tick_label(0.0025), "0.0025");
    }

    /// A text-to-video model's throughput (about 0.017 videos/s) was ticked
    /// "0, 0.01, 0.01, 0.01, 0.02": ticks rounded to two decimals.
    #[test]
    fn small_linear_ticks_are_distinct_and_exact() {
        for max in [0.017, 0.0042, 0.23, 3.7e-5, 1.0, 1234.0] {
            let axis = Axis::from_zero(max);
            let labels: Vec<String> = axis.ticks.iter().map(|t| tick_label(*t)).collect();
            for (t, l) in axis.ticks.iter().zip(&labels) {
                let read: f64 = l.replace(',', "").parse().unwrap();
                assert!((read - t).abs() <= 1e-9 * t.abs(), "{max}: {labels:?}");
            }
            let mut unique = labels.clone();
            unique.dedup();
            assert_eq!(unique, labels, "{max}");
        }
    }
}
