//! Loader timings: `cargo bench --bench load` (plain `Instant`, no
//! framework). Writes 1,000 synthetic model files (what `energyboard-synth
//! --count 1000 --seed 1` writes) into a temporary folder and prints the
//! median time of:
//!
//! - `load_data_dir` on the folder: the whole load stage as a build runs it
//!   (walk, read, parse, validate on every core, checks across files);
//! - read + parse + validate of every file on every core;
//! - the parse alone, on one core, over bytes already in memory.
//!
//! `cargo bench --bench load -- quick` runs each case once.

use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use energyboard::load;
use rayon::prelude::*;
use synth::{SYNTH_WORKLOADS, SynthOptions, write_synthetic};

/// The data generator (`energyboard-synth`), as a module.
#[path = "../bench/synth.rs"]
#[allow(dead_code)]
mod synth;

const COUNT: usize = 1_000;

/// Runs `f` until about `budget` has passed (at least 5 times) and returns
/// the median time of one call.
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

fn report(what: &str, t: Duration) {
    println!("{what:<64} {:>9.1} ms", t.as_secs_f64() * 1e3);
}

/// Parses one file's bytes and validates the result, as the loader does
/// after reading; the number of problems.
fn parse_and_validate(path: &Path, bytes: &[u8]) -> usize {
    match load::parse_model(path, bytes) {
        Ok(m) => load::validate_model(path, &m).len(),
        Err(_) => 1,
    }
}

fn main() {
    let quick = std::env::args().any(|a| a == "quick");
    let budget = Duration::from_millis(if quick { 0 } else { 4000 });
    let tmp = tempfile::tempdir().expect("a temporary folder");
    let data = tmp.path().join("data");
    write_synthetic(&SynthOptions {
        data_dir: PathBuf::from("tests/fixtures/seeds"),
        out_dir: data.clone(),
        count: COUNT,
        seed: 1,
        force: false,
        workloads: SYNTH_WORKLOADS.len(),
    })
    .expect("synthetic data");
    let mut paths: Vec<PathBuf> = std::fs::read_dir(&data)
        .expect("the synthetic folder")
        .map(|e| e.expect("an entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    paths.sort();
    let files: Vec<(PathBuf, Vec<u8>)> = paths
        .iter()
        .map(|p| (p.clone(), std::fs::read(p).expect("a model file")))
        .collect();
    let bytes: usize = files.iter().map(|(_, b)| b.len()).sum();
    println!(
        "{} model files, {:.1} MB, {} threads",
        files.len(),
        bytes as f64 / 1e6,
        rayon::current_num_threads()
    );
    report(
        "load_data_dir (whole stage)",
        time(quick, budget, || {
            load::load_data_dir(&data).expect("valid data").models.len()
        }),
    );
    report(
        "read + parse + validate, all cores",
        time(quick, budget, || {
            paths
                .par_iter()
                .map(|p| parse_and_validate(p, &std::fs::read(p).expect("a file")))
                .sum()
        }),
    );
    report(
        "parse only, one core",
        time(quick, budget, || {
            files
                .iter()
                .filter(|(p, b)| load::parse_model(p, b).is_ok())
                .count()
        }),
    );
}
