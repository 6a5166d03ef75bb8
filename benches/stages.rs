//! Stage timings: `cargo bench --bench stages` (plain `Instant`, no
//! framework). Writes N synthetic model files (`energyboard-synth`, seed 1,
//! from `tests/fixtures/seeds`; N = 1,000 unless `-- N` says otherwise) into
//! a temporary folder, then prints the median time of each stage of a
//! build, rendering into a sink that counts bytes and keeps nothing, so the
//! disk is not in the figures:
//!
//! - load: read, parse and validate every file (`load::load_data_dir`);
//! - analyse: group and analyse every model (`analyse::analyse_data`);
//! - render all models: every model's pages, charts and data files;
//! - render one model: the pages of one model, what an edit re-renders;
//! - render site-wide: leaderboards, GPU and compare pages, overviews,
//!   downloads, the sitemap, which list every model.
//!
//! The last three are what `energyboard serve` redoes after an edit to one
//! file: load, analyse, one model, site-wide (see `serve::Session`).

use std::hint::black_box;
use std::path::Path;
use std::time::{Duration, Instant};

use energyboard::analyse::analyse_data;
use energyboard::load::load_data_dir;
use energyboard::render::{self, Mirror, NoProgress};
use energyboard::workload;
use energyboard::write::CountingSink;
use synth::{SYNTH_WORKLOADS, SynthOptions, write_synthetic};

/// The data generator (`energyboard-synth`), as a module.
#[path = "../bench/synth.rs"]
#[allow(dead_code)]
mod synth;

/// Runs `f` until about `budget` has passed (at least 5 times) and returns
/// the median time of one call.
fn time(budget: Duration, mut f: impl FnMut() -> usize) -> (Duration, usize) {
    let mut times = Vec::new();
    let start = Instant::now();
    let out = loop {
        let t = Instant::now();
        let out = black_box(f());
        times.push(t.elapsed());
        if times.len() >= 5 && start.elapsed() >= budget {
            break out;
        }
    };
    times.sort();
    (times[times.len() / 2], out)
}

fn report(what: &str, (t, out): (Duration, usize), unit: &str) {
    println!(
        "{what:<28} {:>10.2} ms   {out:>10} {unit}",
        t.as_secs_f64() * 1e3
    );
}

fn main() {
    let n: usize = std::env::args()
        .skip(1)
        .find_map(|a| a.parse().ok())
        .unwrap_or(1000);
    let dir = tempfile::tempdir().expect("a temporary folder");
    let data = dir.path().join("data");
    write_synthetic(&SynthOptions {
        data_dir: Path::new("tests/fixtures/seeds").to_path_buf(),
        out_dir: data.clone(),
        count: n,
        seed: 1,
        force: false,
        workloads: SYNTH_WORKLOADS.len(),
    })
    .expect("synthetic data");
    let budget = Duration::from_secs(2);
    println!("{n} synthetic models (median of at least 5 runs)");

    report(
        "load",
        time(budget, || load_data_dir(&data).expect("valid").models.len()),
        "models",
    );
    let mut set = load_data_dir(&data).expect("valid");
    let workloads = workload::group(std::mem::take(&mut set.models), &[]);
    report(
        "analyse",
        time(budget, || analyse_data(&workloads).len()),
        "workloads",
    );
    let mirror = Mirror::new(&set, &workloads, analyse_data(&workloads), None);
    let ids = mirror.model_ids();
    let bytes = |sink: CountingSink| sink.summary().bytes as usize;
    report(
        "render all models",
        time(budget, || {
            let sink = CountingSink::default();
            render::render_models(&mirror, &ids, &sink, &NoProgress).expect("renders");
            bytes(sink)
        }),
        "bytes",
    );
    report(
        "render one model",
        time(budget, || {
            let sink = CountingSink::default();
            render::render_models(&mirror, &ids[..1], &sink, &NoProgress).expect("renders");
            bytes(sink)
        }),
        "bytes",
    );
    let outputs = render::render_models(&mirror, &ids, &CountingSink::default(), &NoProgress)
        .expect("renders");
    report(
        "render site-wide",
        time(budget, || {
            let sink = CountingSink::default();
            render::render_site_wide(&mirror, &[], &outputs, &sink).expect("renders");
            bytes(sink)
        }),
        "bytes",
    );
}
