//! Loader timings: `cargo bench --bench load` (plain `Instant`, no
//! framework). Writes 1,000 synthetic model files (what `energyboard synth
//! --count 1000 --seed 1` writes) into a temporary folder and prints the
//! median time of:
//!
//! - `load_data_dir` on the folder: the whole load stage as a build runs it
//!   (walk, read, parse, validate on every core, checks across files);
//! - read + parse + validate of every file on every core, parsed with the
//!   pre-scanned fast path (`parse_model`, what the loader does) and
//!   without it (`parse_model_carefully`: every file walked, then parsed
//!   typed);
//! - the parse alone, on one core, over bytes already in memory, both ways.
//!
//! `cargo bench --bench load -- quick` runs each case once.

use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use energyboard::load::{self, Problem};
use energyboard::model::ModelFile;
use energyboard::synth::{SynthOptions, write_synthetic};
use rayon::prelude::*;

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

type Parse = fn(&Path, &[u8]) -> Result<ModelFile, Problem>;

/// Parses one file's bytes and validates the result, as the loader does
/// after reading; the number of problems.
fn parse_and_validate(parse: Parse, path: &Path, bytes: &[u8]) -> usize {
    match parse(path, bytes) {
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
    // Both paths give the same result on every file.
    for (path, b) in &files {
        let fast = format!("{:?}", load::parse_model(path, b).map(|_| ()));
        let careful = format!("{:?}", load::parse_model_carefully(path, b).map(|_| ()));
        assert_eq!(fast, careful, "{}", path.display());
    }

    report(
        "load_data_dir (whole stage, pre-scanned fast path)",
        time(quick, budget, || {
            load::load_data_dir(&data).expect("valid data").models.len()
        }),
    );
    let ways: [(&str, Parse); 2] = [
        ("with pre-scan", load::parse_model),
        ("without (walk, then typed)", load::parse_model_carefully),
    ];
    for (name, parse) in ways {
        report(
            &format!("read + parse + validate, all cores, {name}"),
            time(quick, budget, || {
                paths
                    .par_iter()
                    .map(|p| parse_and_validate(parse, p, &std::fs::read(p).expect("a file")))
                    .sum()
            }),
        );
    }
    for (name, parse) in ways {
        report(
            &format!("parse only, one core, {name}"),
            time(quick, budget, || {
                files.iter().filter(|(p, b)| parse(p, b).is_ok()).count()
            }),
        );
    }
}
