//! `energyboard-synth`, the benchmarks' data: N valid model files derived
//! from the per-token files of a data folder (the seed files by default),
//! so a build can be timed at any size. A tool for measuring, so it lives
//! beside the benchmarks, not in the product; `benches/` and `tests/`
//! include this file as a module.
//!
//! Model `i` is seed file `i mod seeds` with a new slug, name and model id,
//! and every measured figure jittered by a pseudo-random generator seeded
//! from `(seed, i)`: the same arguments always give the same bytes, and
//! model `i` is the same whatever N is. Derived fields are recomputed, so
//! each file passes the loader's checks: Wh per million output tokens from
//! joules per token, GPU power from joules per token × tokens per second,
//! `under_itl_deadline` from the median ITL, and `best` by
//! [`analyse::best_per_gpu`], the rule the site itself uses.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};

use anyhow::{Result, bail};
use clap::Parser;
use rayon::prelude::*;

use energyboard::analyse;
use energyboard::model::{Configuration, ModelFile};
use energyboard::select::GpuBest;
use energyboard::write::{Made, PageSink, SiteWriter};

/// Writes N synthetic model files derived from the seed files, for
/// benchmarks.
#[derive(Debug, Parser)]
#[command(version, about)]
struct SynthArgs {
    /// How many model files to write.
    #[arg(long, value_name = "N")]
    count: usize,
    /// Folder to write them into; a non-empty folder energyboard did not
    /// make is refused.
    #[arg(long, value_name = "DIR")]
    out: PathBuf,
    /// Seed of the jitter: the same seed gives the same files.
    #[arg(long, value_name = "S", default_value_t = 1)]
    seed: u64,
    /// Folder of seed model files.
    #[arg(long, value_name = "DIR", default_value = "data")]
    data: PathBuf,
    /// Replace --out even if it is not empty and was not made by energyboard.
    #[arg(long)]
    force: bool,
    /// On how many of the five per-token workloads to spread the models
    /// (model `i` on workload `i % K`): 1 puts them all in one workload,
    /// the size a lab's sweep can reach.
    #[arg(long, value_name = "K", default_value_t = 5, value_parser = clap::value_parser!(u8).range(1..=5))]
    workloads: u8,
}

fn main() -> ExitCode {
    let args = SynthArgs::parse();
    let written = energyboard::write::stop_on_ctrl_c().and_then(|()| {
        write_synthetic(&SynthOptions {
            data_dir: args.data,
            out_dir: args.out.clone(),
            count: args.count,
            seed: args.seed,
            force: args.force,
            workloads: usize::from(args.workloads),
        })
    });
    match written {
        Ok(summary) => {
            println!("wrote {}: {summary}", args.out.display());
            ExitCode::SUCCESS
        }
        Err(err) => {
            eprintln!("error: {err:#}");
            ExitCode::FAILURE
        }
    }
}

/// SplitMix64: a tiny, well-studied generator. Plenty for jitter, and no
/// dependency whose output could change between versions.
#[derive(Debug, Clone)]
pub struct SplitMix64(u64);

impl SplitMix64 {
    pub fn for_model(seed: u64, index: u64) -> Self {
        let mut g = Self(seed ^ 0x6a09_e667_f3bc_c909);
        Self(g.next_u64() ^ index.wrapping_mul(0x9e37_79b9_7f4a_7c15))
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A number in `[lo, hi)`.
    pub fn between(&mut self, lo: f64, hi: f64) -> f64 {
        // 53 random bits make a uniform double in [0, 1).
        let unit = (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
        lo + (hi - lo) * unit
    }
}

fn round_to(x: f64, decimals: i32) -> f64 {
    let scale = 10f64.powi(decimals);
    (x * scale).round() / scale
}

/// The slug of synthetic model `index` made from `seed_slug`, zero-padded
/// to `width` digits so the files sort in index order.
pub fn synthetic_slug(seed_slug: &str, index: usize, width: usize) -> String {
    format!("{seed_slug}-synth-{index:0width$}")
}

/// The five per-token workloads of the leaderboard; synthetic model `i` is
/// measured on workload `i % 5`, so a benchmark site has all five.
pub const SYNTH_WORKLOADS: [(&str, &str); 5] = [
    ("lm-arena-chat", "Text Conversation"),
    ("gpqa", "Problem Solving with Reasoning"),
    ("sourcegraph-fim", "Code Completion"),
    ("image-chat", "Image Chat"),
    ("video-chat", "Video Chat"),
];

/// Makes synthetic model `index` from `template`, on workload
/// [`SYNTH_WORKLOADS`]`[index % 5]`. `width` is the number of digits in the
/// largest index.
pub fn synthesise(template: &ModelFile, index: usize, width: usize, seed: u64) -> ModelFile {
    synthesise_on(template, index, width, seed, SYNTH_WORKLOADS.len())
}

/// [`synthesise`], on workload [`SYNTH_WORKLOADS`]`[index % workloads]`:
/// with `workloads` 1, every model is on the first (Text Conversation).
pub fn synthesise_on(
    template: &ModelFile,
    index: usize,
    width: usize,
    seed: u64,
    workloads: usize,
) -> ModelFile {
    let mut rng = SplitMix64::for_model(seed, index as u64);
    let mut m = template.clone();
    let (id, name) = SYNTH_WORKLOADS[index % workloads.clamp(1, SYNTH_WORKLOADS.len())];
    m.workload = Some(energyboard::model::WorkloadDecl {
        id: id.to_owned(),
        name: name.to_owned(),
        description: None,
    });
    let old_slug = std::mem::take(&mut m.slug);
    m.slug = synthetic_slug(&old_slug, index, width);
    m.name = format!("{} (synthetic {index})", template.name);
    m.model_id = format!("{}-synthetic-{index}", template.model_id);

    // Model-wide factors, then a little noise per configuration.
    let model_energy = rng.between(0.6, 1.6);
    let model_latency = rng.between(0.8, 1.25);
    let deadline = m.deadline();
    for c in &mut m.configurations {
        let energy = model_energy * rng.between(0.97, 1.03);
        let latency = model_latency * rng.between(0.97, 1.03);
        jitter(c, energy, latency);
        c.under_itl_deadline = Some(c.latency() <= deadline);
        if let Some(rest) = c.row_id.strip_prefix(&old_slug) {
            c.row_id = format!("{}{rest}", m.slug);
        }
    }
    m.best = analyse::best_per_gpu(&m)
        .into_iter()
        .filter_map(|GpuBest { gpu, best }| {
            best.map(|i| (gpu, Box::new(m.configurations[i].clone())))
        })
        .collect();
    m
}

/// Scales a configuration's energy by `energy` and its latency by
/// `latency` (throughput by its inverse), rounding as the seed files do
/// and keeping the derived figures consistent.
fn jitter(c: &mut Configuration, energy: f64, latency: f64) {
    let scaled = |v: Option<f64>, by: f64, digits: i32, min: f64| {
        v.map(|v| round_to(v * by, digits).max(min))
    };
    c.joules_per_output_token = scaled(c.joules_per_output_token, energy, 7, 1e-7);
    c.wh_per_million_output_tokens = scaled(c.derived_wh_per_million(), 1.0, 2, 0.01);
    for itl in [
        &mut c.median_itl_ms,
        &mut c.p90_itl_ms,
        &mut c.p95_itl_ms,
        &mut c.p99_itl_ms,
    ] {
        *itl = scaled(*itl, latency, 1, 0.1);
    }
    c.tokens_per_second = c
        .tokens_per_second
        .map(|v| round_to(v / latency, 1).max(0.1));
    if let (Some(j), Some(tps)) = (c.joules_per_output_token, c.tokens_per_second) {
        c.gpu_power_watts_total = (j * tps).round().max(1.0);
    }
}

/// What `synth` wrote.
#[derive(Debug, Clone)]
pub struct SynthSummary {
    pub files: usize,
    pub bytes: u64,
    pub elapsed: Duration,
}

impl std::fmt::Display for SynthSummary {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} model files ({:.1} MB) in {:.2} s",
            self.files,
            self.bytes as f64 / 1e6,
            self.elapsed.as_secs_f64()
        )
    }
}

/// What `synth` reads and writes.
#[derive(Debug, Clone)]
pub struct SynthOptions {
    pub data_dir: PathBuf,
    pub out_dir: PathBuf,
    pub count: usize,
    /// Seed of the jitter.
    pub seed: u64,
    /// Replace a non-empty `out_dir` that energyboard did not make.
    pub force: bool,
    /// On how many of [`SYNTH_WORKLOADS`] the models are spread (1 to 5).
    pub workloads: usize,
}

/// Writes `count` synthetic model files into `out_dir`, derived from the
/// valid model files in `data_dir`. The folder is written like a site: into
/// a staging folder swapped in at the end, and a non-empty folder that
/// energyboard did not make is refused.
pub fn write_synthetic(opts: &SynthOptions) -> Result<SynthSummary> {
    let start = Instant::now();
    if opts.count == 0 {
        bail!("--count must be at least 1");
    }
    if same_folder(&opts.data_dir, &opts.out_dir) {
        bail!(
            "{}: --out may not be the seed data folder",
            opts.out_dir.display()
        );
    }
    // The per-token files are the templates (jitter and the deadline flag
    // are theirs).
    let seeds: Vec<ModelFile> = energyboard::load::load_data_dir(&opts.data_dir)?
        .models
        .into_iter()
        .map(|m| m.file)
        .filter(|f| f.kind.is_none())
        .collect();
    if seeds.is_empty() {
        bail!(
            "{}: no per-token model file to derive synthetic files from",
            opts.data_dir.display()
        );
    }
    let width = (opts.count - 1).to_string().len();
    let writer = SiteWriter::begin(&opts.out_dir, Made::Data, opts.force, &[&opts.data_dir])?;
    (0..opts.count).into_par_iter().try_for_each(|i| {
        let template = &seeds[i % seeds.len()];
        let model = synthesise_on(template, i, width, opts.seed, opts.workloads);
        let mut json = serde_json::to_vec_pretty(&model)?;
        json.push(b'\n');
        writer.put(&format!("{}.json", model.slug), &json)
    })?;
    let written = writer.commit()?;
    Ok(SynthSummary {
        files: written.files,
        bytes: written.bytes,
        elapsed: start.elapsed(),
    })
}

fn same_folder(a: &Path, b: &Path) -> bool {
    matches!((a.canonicalize(), b.canonicalize()), (Ok(a), Ok(b)) if a == b)
}
