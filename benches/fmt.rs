//! Number formatting timings: `cargo bench --bench fmt` (plain `Instant`,
//! no framework). Prints the median time per number of:
//!
//! - `fmt::fixed` (an integer-arithmetic path for up to 3 decimals) against
//!   `fmt::fixed_exact` (the standard `format!("{v:.d$}")`), over every
//!   figure the pages print for every configuration in `data/`, with the
//!   decimals the pages use;
//! - `fmt::push_int` (hand-written) against the `itoa` crate and `write!`,
//!   over the integers of the SVG charts of every per-token model in
//!   `data/` and the whole-number figures of the tables.
//!
//! `cargo bench --bench fmt -- quick` runs each case once.

use std::fmt::Write as _;
use std::hint::black_box;
use std::path::Path;
use std::time::{Duration, Instant};

use energyboard::analyse::analyse_model;
use energyboard::chart;
use energyboard::fmt;
use energyboard::load::load_data_dir;

/// Every figure the pages print for each configuration, with its
/// decimals (as `render/kind.rs` formats them); whole numbers (decimals
/// 0) are what `fmt::grouped` rounds.
fn figures(data: &Path) -> Vec<(f64, usize)> {
    let set = load_data_dir(data).unwrap_or_else(|e| panic!("{}: {e:?}", data.display()));
    let mut out = Vec::new();
    for m in &set.models {
        let m = &m.file;
        out.extend([(m.params_b, 1), (m.active_params_b, 1)]);
        for c in &m.configurations {
            out.extend([
                (c.wh_per_million_output_tokens, 2),
                (c.joules_per_output_token, 4),
                (c.wh_per_response(), 4),
                (c.joules_per_response(), 1),
                (c.median_itl_ms, 1),
                (c.p90_itl_ms, 1),
                (c.p95_itl_ms, 1),
                (c.p99_itl_ms, 1),
                (c.avg_running_batch, 1),
                (c.tokens_per_second, 0),
                (c.gpu_power_watts_total, 0),
                (c.avg_output_tokens, 0),
                (c.tokens_per_wh(), 0),
            ]);
        }
    }
    for m in &set.diffusion {
        let m = &m.file;
        out.extend([(m.params_b, 1), (m.active_params_b, 1)]);
        for c in &m.configurations {
            let rate = c.items_per_second();
            let rate_decimals = (3.0 - rate.abs().log10().floor()).clamp(0.0, 12.0) as usize;
            out.extend([
                (c.joules_per_item(), 2),
                (c.wh_per_item(), 3),
                (c.items_per_kwh(), 1),
                (c.batch_latency_s, 3),
                (rate, rate_decimals),
                (c.gpu_power_watts_total, 0),
            ]);
        }
    }
    out
}

/// The integers of the model charts of every per-token model in `data/`
/// (coordinates, sizes, tick labels: what `push_int` writes), and the
/// whole-number figures of the tables.
fn integers(data: &Path, figures: &[(f64, usize)]) -> Vec<i64> {
    let set = load_data_dir(data).unwrap_or_else(|e| panic!("{}: {e:?}", data.display()));
    let mut out = Vec::new();
    for m in &set.models {
        let a = analyse_model(&m.file);
        for c in chart::model_charts(&m.file, &a) {
            // Runs of digits not part of a decimal number or a name.
            let bytes = c.svg.as_bytes();
            let mut i = 0;
            while i < bytes.len() {
                if !bytes[i].is_ascii_digit() {
                    i += 1;
                    continue;
                }
                let start = i;
                while i < bytes.len() && bytes[i].is_ascii_digit() {
                    i += 1;
                }
                let before = start.checked_sub(1).map(|k| bytes[k]);
                let after = bytes.get(i).copied();
                let joined =
                    |b: Option<u8>| b.is_some_and(|b| b == b'.' || b.is_ascii_alphabetic());
                if !joined(before) && !joined(after) {
                    let n: i64 = c.svg[start..i].parse().expect("digits");
                    out.push(if before == Some(b'-') { -n } else { n });
                }
            }
        }
    }
    out.extend(
        figures
            .iter()
            .filter(|(_, d)| *d == 0)
            .map(|(v, _)| v.round() as i64),
    );
    out
}

/// Runs `f` until about `budget` has passed (at least 5 times) and
/// returns the median time of one call.
fn time(quick: bool, budget: Duration, mut f: impl FnMut() -> usize) -> Duration {
    let mut times = Vec::new();
    let start = Instant::now();
    loop {
        let t = Instant::now();
        black_box(f());
        times.push(t.elapsed());
        if quick || (times.len() >= 5 && start.elapsed() >= budget) {
            break;
        }
    }
    times.sort();
    times[times.len() / 2]
}

fn report(what: &str, n: usize, t: Duration) {
    let per = t.as_secs_f64() * 1e9 / n as f64;
    println!(
        "{what:<44} {per:>7.1} ns/number  ({n} numbers, {:.2} ms/pass)",
        t.as_secs_f64() * 1e3
    );
}

fn main() {
    let quick = std::env::args().any(|a| a == "quick");
    let budget = Duration::from_millis(if quick { 0 } else { 1500 });
    let data = Path::new("data");
    let figures = figures(data);
    let ints = integers(data, &figures);
    let fixed: Vec<(f64, usize)> = figures.iter().copied().filter(|(_, d)| *d > 0).collect();
    let fast_share = fixed.iter().filter(|(_, d)| *d <= 3).count();
    println!(
        "{} figures with decimals ({fast_share} with at most 3), {} integers",
        fixed.len(),
        ints.len()
    );
    // Both paths must agree before either is timed.
    for &(v, d) in &fixed {
        assert_eq!(fmt::fixed(v, d), fmt::fixed_exact(v, d), "{v} to {d}");
    }

    // As the pages call them: one String per figure.
    let t = time(quick, budget, || {
        fixed.iter().map(|&(v, d)| fmt::fixed(v, d).len()).sum()
    });
    report("fmt::fixed (integer path)", fixed.len(), t);
    let t = time(quick, budget, || {
        fixed
            .iter()
            .map(|&(v, d)| fmt::fixed_exact(v, d).len())
            .sum()
    });
    report("fmt::fixed_exact (format!)", fixed.len(), t);

    // Appended to one buffer, as the charts do.
    let mut buf = String::with_capacity(16 * ints.len());
    let mut t = time(quick, budget, || {
        buf.clear();
        for &v in &ints {
            fmt::push_int(&mut buf, v);
            buf.push(' ');
        }
        buf.len()
    });
    report("fmt::push_int", ints.len(), t);
    t = time(quick, budget, || {
        buf.clear();
        let mut b = itoa::Buffer::new();
        for &v in &ints {
            buf.push_str(b.format(v));
            buf.push(' ');
        }
        buf.len()
    });
    report("itoa::Buffer::format", ints.len(), t);
    t = time(quick, budget, || {
        buf.clear();
        for &v in &ints {
            write!(buf, "{v}").expect("a String takes any text");
            buf.push(' ');
        }
        buf.len()
    });
    report("write!(\"{v}\")", ints.len(), t);
}
