//! Chart timings: `cargo bench --bench charts` (plain `Instant`, no
//! framework). Prints the median per-call time of `model_charts` on each
//! seed model, and of `best_energy_bars` / `compare_frontiers` over 10,
//! 1,000 and 10,000 synthetic models.
//!
//! `cargo bench --bench charts -- quick` runs each case once, for
//! instruction counts under callgrind; any other argument keeps only the
//! cases whose name contains it (`-- quick 30b`); `-- dump DIR` writes every chart
//! timed (seed models, and the site charts at 10 and 1,000 models) into
//! DIR, to look at.

use std::hint::black_box;
use std::path::Path;
use std::time::{Duration, Instant};

use energyboard::analyse::{Analysed, ModelAnalysis, analyse};
use energyboard::chart::{self, BarEntry};
use energyboard::columns::Words;
use energyboard::load::read_model_file;
use energyboard::model::ModelFile;
use synth::synthesise;

/// The data generator (`energyboard-synth`), as a module.
#[path = "../bench/synth.rs"]
#[allow(dead_code)]
mod synth;

const SEEDS: [&str; 2] = [
    "tests/fixtures/seeds/qwen-3-32b.json",
    "tests/fixtures/seeds/qwen-3-30b-a3b-instruct.json",
];

fn seed(path: &str) -> (ModelFile, ModelAnalysis) {
    let m = read_model_file(Path::new(path))
        .unwrap_or_else(|e| panic!("{path}: {e:?}"))
        .file;
    let a = analyse(&m);
    (m, a)
}

/// `n` synthetic models, alternating between the seeds.
fn synthetic(seeds: &[(ModelFile, ModelAnalysis)], n: usize) -> Vec<(ModelFile, ModelAnalysis)> {
    let width = n.to_string().len();
    (0..n)
        .map(|i| {
            let m = synthesise(&seeds[i % seeds.len()].0, i, width, 7);
            let a = analyse(&m);
            (m, a)
        })
        .collect()
}

fn bar_entries(models: &[(ModelFile, ModelAnalysis)]) -> Vec<BarEntry> {
    models
        .iter()
        .flat_map(|(m, a)| BarEntry::best_of(m, a))
        .collect()
}

/// Runs `f` until about `budget` has passed (at least 3 times) and
/// returns the median time of one call.
fn time(quick: bool, budget: Duration, mut f: impl FnMut() -> usize) -> (Duration, usize) {
    let mut times = Vec::new();
    let start = Instant::now();
    let bytes = loop {
        let t = Instant::now();
        let bytes = black_box(f());
        times.push(t.elapsed());
        if quick || (times.len() >= 3 && start.elapsed() >= budget) {
            break bytes;
        }
    };
    times.sort();
    (times[times.len() / 2], bytes)
}

fn report(what: &str, (t, bytes): (Duration, usize)) {
    let us = t.as_secs_f64() * 1e6;
    if us >= 10_000.0 {
        println!("{what:<48} {:>10.2} ms/call  {bytes:>9} B SVG", us / 1000.0);
    } else {
        println!("{what:<48} {us:>10.1} µs/call  {bytes:>9} B SVG");
    }
}

/// Writes the charts to look at into `dir`.
fn dump(dir: &Path, seeds: &[(ModelFile, ModelAnalysis)]) {
    std::fs::create_dir_all(dir).unwrap();
    let put = |name: String, c: &chart::Chart| {
        std::fs::write(dir.join(&name), &c.svg).unwrap();
        println!(
            "{name}: {} B\n  {}\n  {}",
            c.svg.len(),
            c.title,
            c.description
        );
    };
    for (m, a) in seeds {
        for c in chart::model_charts(m, a).expect("draws") {
            put(format!("{}-{}", m.slug, c.file_name), &c);
        }
    }
    let entries = bar_entries(seeds);
    put(
        "best-energy.svg".to_owned(),
        &chart::best_energy_bars("best-energy.svg", "Best energy", &entries).expect("draws"),
    );
    let h100: Vec<BarEntry> = entries
        .iter()
        .filter(|e| e.gpu == "H100")
        .cloned()
        .collect();
    put(
        "gpu-h100-best-energy.svg".to_owned(),
        &chart::best_energy_bars("best-energy.svg", "H100", &h100).expect("draws"),
    );
    let refs: Vec<Analysed<'_>> = seeds
        .iter()
        .map(|(file, analysis)| Analysed { file, analysis })
        .collect();
    put(
        "frontiers.svg".to_owned(),
        &chart::compare_frontiers(Words::of(refs[0].file.measure()), &refs).expect("draws"),
    );
    for n in [10, 1_000] {
        let models = synthetic(seeds, n);
        for (m, a) in models.iter().take(40) {
            for c in chart::model_charts(m, a).expect("draws") {
                put(format!("{n}-{}-{}", m.slug, c.file_name), &c);
            }
        }
        let entries = bar_entries(&models);
        put(
            format!("synth-{n}-best-energy.svg"),
            &chart::best_energy_bars("best-energy.svg", "Best energy", &entries).expect("draws"),
        );
        let refs: Vec<Analysed<'_>> = models
            .iter()
            .map(|(file, analysis)| Analysed { file, analysis })
            .collect();
        put(
            format!("synth-{n}-frontiers.svg"),
            &chart::compare_frontiers(Words::of(refs[0].file.measure()), &refs).expect("draws"),
        );
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let quick = args.iter().any(|a| a == "quick");
    let filter: Vec<&str> = args[1..]
        .iter()
        .map(String::as_str)
        .filter(|a| !matches!(*a, "quick" | "--bench"))
        .collect();
    let wanted = |name: &str| filter.is_empty() || filter.iter().any(|f| name.contains(f));
    let budget = Duration::from_millis(if quick { 0 } else { 1500 });
    let seeds: Vec<_> = SEEDS.iter().map(|p| seed(p)).collect();
    if let Some(i) = args.iter().position(|a| a == "dump") {
        let dir = args.get(i + 1).map_or("/tmp/charts", String::as_str);
        dump(Path::new(dir), &seeds);
        return;
    }
    for (m, a) in &seeds {
        let name = format!("model_charts {}", m.slug);
        if !wanted(&name) {
            continue;
        }
        report(
            &name,
            time(quick, budget, || {
                chart::model_charts(m, a)
                    .expect("draws")
                    .iter()
                    .map(|c| c.svg.len())
                    .sum()
            }),
        );
    }
    for n in [10, 1_000, 10_000] {
        let bars = format!("best_energy_bars {n} models");
        let frontiers = format!("compare_frontiers {n} models");
        if !wanted(&bars) && !wanted(&frontiers) {
            continue;
        }
        let models = synthetic(&seeds, n);
        if wanted(&bars) {
            let entries = bar_entries(&models);
            report(
                &format!("{bars} ({} entries)", entries.len()),
                time(quick, budget, || {
                    chart::best_energy_bars("best-energy.svg", "Best energy", &entries)
                        .expect("draws")
                        .svg
                        .len()
                }),
            );
        }
        if wanted(&frontiers) {
            let refs: Vec<Analysed<'_>> = models
                .iter()
                .map(|(file, analysis)| Analysed { file, analysis })
                .collect();
            report(
                &frontiers,
                time(quick, budget, || {
                    chart::compare_frontiers(Words::of(refs[0].file.measure()), &refs)
                        .expect("draws")
                        .svg
                        .len()
                }),
            );
        }
    }
}
