//! The data format: one JSON document per model, as published in `data/`.
//!
//! Field names and units follow the seed files. Unknown extra fields are
//! accepted (serde ignores them) so that newer data files still load.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use serde::{Deserialize, Serialize};

pub mod diffusion;

pub use diffusion::OutputKind;

/// One model file, of any kind: a model, where its numbers come from, and
/// every measured configuration. `kind` tells what it measures
/// ([`ModelFile::measure`]). Field order is the order in a data file.
#[serde_with::skip_serializing_none]
#[derive(Debug, Clone, Deserialize, Serialize, PartialEq)]
pub struct ModelFile {
    /// Format version of the file, e.g. `"1"`.
    pub version: String,
    /// Date the file was last updated (ISO 8601 date).
    pub updated: String,
    /// Version of the data the file carries (ISO 8601 date).
    pub data_version: String,
    /// What a diffusion model generates (`"image"` or `"video"`); a
    /// per-token file has none, which is how loading tells the kinds apart.
    pub kind: Option<OutputKind>,
    /// The headline figure's unit: `"Wh per million output tokens"`, `"J per image"`.
    pub unit: String,
    /// Per token: the median inter-token latency deadline in milliseconds
    /// used for "best" (required; a diffusion file must not carry it).
    #[serde(serialize_with = "some_whole_as_int")]
    pub itl_deadline_ms: Option<f64>,
    /// Diffusion: the batch latency deadline in seconds used for "best"
    /// (required; a per-token file must not carry it).
    #[serde(serialize_with = "some_whole_as_int")]
    pub batch_latency_deadline_s: Option<f64>,
    /// The workload; when absent, `source.workload` gives it ([`ModelFile::workload_ref`]).
    pub workload: Option<WorkloadDecl>,
    /// Where the numbers come from, under which licence and how to cite them.
    /// Shared between models whose files carry the same block.
    pub source: std::sync::Arc<Source>,
    /// What the figures leave out, in the data publisher's words.
    pub caveat: String,
    /// The measurement boundary, e.g. `"gpu_only"`.
    pub boundary: String,
    /// URL-safe identifier: `^[a-z0-9][a-z0-9-]*$`.
    pub slug: String,
    /// Display name, e.g. "Qwen 3 32B".
    pub name: String,
    /// Hugging Face model id.
    pub model_id: String,
    /// Total parameters, billions.
    pub params_b: f64,
    /// Parameters active per token (or per step), billions.
    pub active_params_b: f64,
    /// Architecture, e.g. "MoE", "Dense Transformer" or "Diffusion".
    pub architecture: String,
    /// GPU types the model was measured on.
    pub gpus: Vec<String>,
    pub configurations: Vec<Configuration>,
    /// The publisher's best configuration per GPU, checked against ours on
    /// loading and then dropped (`load::read_model_file`). Boxed: a map's
    /// node has room for eleven values.
    pub best: BTreeMap<String, Box<Configuration>>,
}

/// A workload stated in a model file: the optional top-level `workload`
/// object, which wins over the id in `source.workload`.
#[derive(Debug, Clone, Deserialize, Serialize, PartialEq, Eq)]
pub struct WorkloadDecl {
    /// URL-safe id, e.g. `gpqa`; becomes `/workloads/<id>/`.
    pub id: String,
    /// Display name, e.g. "Problem Solving with Reasoning".
    pub name: String,
    /// What the workload measures, in a sentence or three.
    #[serde(default)]
    pub description: Option<String>,
}

impl ModelFile {
    /// The latency deadline for "best", in the unit of
    /// [`Configuration::latency`]: `itl_deadline_ms` (per token) or
    /// `batch_latency_deadline_s` (diffusion), whichever the file has (NaN
    /// before validation has checked that it has its kind's).
    pub fn deadline(&self) -> f64 {
        self.itl_deadline_ms
            .or(self.batch_latency_deadline_s)
            .unwrap_or(f64::NAN)
    }

    /// The file's workload: the `workload` object when present, else
    /// `source.workload`, whose id is the text in its trailing parentheses
    /// (`"Text Conversation (lm-arena-chat)"` → `lm-arena-chat`, named
    /// "Text Conversation"). `None` when neither gives an id.
    pub fn workload_ref(&self) -> Option<WorkloadRef> {
        if let Some(w) = &self.workload {
            return Some(WorkloadRef {
                id: w.id.clone(),
                name: w.name.clone(),
            });
        }
        let text = self.source.workload.trim();
        let inner = text.strip_suffix(')')?;
        let open = inner.rfind('(')?;
        let id = inner[open + 1..].trim();
        let name = inner[..open].trim();
        Some(WorkloadRef {
            id: id.to_owned(),
            name: if name.is_empty() { id } else { name }.to_owned(),
        })
    }

    pub fn measure(&self) -> Measure {
        self.kind.map_or(Measure::Tokens, Measure::Diffusion)
    }

    /// The labeller of the file's series: "H100 ×2 EP2" or "H100 ×2 U2·R1"
    /// (the parallelism left out when there is none), plus what varies
    /// between the series (the precision; for diffusion the resolution and
    /// the steps). What varies is found once, so labelling stays linear in
    /// the rows.
    pub fn series_labels(&self) -> impl Fn(&Configuration) -> String {
        let configs = &self.configurations;
        let precisions = varies(configs, |c| c.precision.clone());
        let outputs = varies(configs, |c| {
            (c.size(), c.num_frames, c.fps.map(f64::to_bits))
        });
        let steps = varies(configs, |c| c.inference_steps);
        move |c| {
            let mut label = format!("{} ×{}", c.gpu, c.num_gpus);
            let par = c.parallelism();
            if par != "none" {
                let _ = write!(label, " {par}");
            }
            if precisions {
                let _ = write!(label, " {}", c.precision);
            }
            if outputs {
                let _ = write!(label, ", {}", c.resolution());
            }
            if let (true, Some(n)) = (steps, c.inference_steps) {
                let _ = write!(label, ", {n} steps");
            }
            label
        }
    }
}

/// Writes a whole number without a decimal point (`500`, as the seed files write a deadline).
#[allow(clippy::ref_option, reason = "serde's serialize_with passes &Option")]
fn some_whole_as_int<S: serde::Serializer>(v: &Option<f64>, s: S) -> Result<S::Ok, S::Error> {
    match *v {
        Some(v) if v.fract() == 0.0 && v.abs() < 1e15 => s.serialize_i64(v as i64),
        Some(v) => s.serialize_f64(v),
        None => s.serialize_none(),
    }
}

/// The latency percentiles [`Configuration::itl_percentiles`] gives, in its
/// order: the time–energy trade-off is analysed and drawn at each too.
pub const ITL_PERCENTILES: [Percentile; 3] = [Percentile::P90, Percentile::P95, Percentile::P99];

/// A tail percentile of the inter-token latency that the data publish
/// (the median is [`Configuration::latency`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Percentile {
    P90,
    P95,
    P99,
}

impl Percentile {
    /// Its name on pages and in file names: "p90".
    pub fn name(self) -> &'static str {
        match self {
            Percentile::P90 => "p90",
            Percentile::P95 => "p95",
            Percentile::P99 => "p99",
        }
    }

    /// Its place in [`ITL_PERCENTILES`], and so in
    /// [`Configuration::itl_percentiles`] and every list in that order.
    pub fn index(self) -> usize {
        match self {
            Percentile::P90 => 0,
            Percentile::P95 => 1,
            Percentile::P99 => 2,
        }
    }
}

impl std::fmt::Display for Percentile {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// The workload a model file names ([`ModelFile::workload_ref`]).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct WorkloadRef {
    pub id: String,
    /// Its display name.
    pub name: String,
}

/// The output-length histogram of a configuration and its energy per
/// output token ([`Configuration::output_lengths`]).
#[derive(Debug, Clone, Copy)]
pub struct OutputLengths<'a> {
    pub histogram: &'a OutputLengthDistribution,
    /// J per output token.
    pub joules_per_token: f64,
}

/// What a model file or a workload measures; gives the kind's fields
/// ([`Measure::fields`]); its words and units are
/// [`crate::columns::Words::of`] it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Measure {
    /// Energy per output token against median ITL (a file without a `kind`).
    Tokens,
    /// Energy per image or video against batch latency.
    Diffusion(OutputKind),
}

impl Measure {
    /// The kind's configuration fields, all required: [`TOKEN_FIELDS`], or
    /// [`DIFFUSION_FIELDS`] and the output's ([`OutputKind::fields`]).
    pub fn fields(self) -> impl Iterator<Item = &'static str> {
        let (shared, output): (&[&str], &[&str]) = match self {
            Measure::Tokens => (&TOKEN_FIELDS, &[]),
            Measure::Diffusion(kind) => (&DIFFUSION_FIELDS, kind.fields()),
        };
        shared.iter().chain(output).copied()
    }
}

fn varies<T: PartialEq>(configs: &[Configuration], value: impl Fn(&Configuration) -> T) -> bool {
    configs
        .split_first()
        .is_some_and(|(first, rest)| rest.iter().any(|c| value(c) != value(first)))
}

/// What makes configurations one series of a curve: everything but the
/// load (the concurrency or the batch size). A kind's fields are `None` in
/// every row of the other kind. Keys order field by field, in the order
/// written here.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct SeriesKey {
    pub gpu: String,
    pub num_gpus: u32,
    pub parallel: ParallelDegrees,
    pub precision: String,
    pub output: OutputKey,
}

/// The parallel degrees of a row, `None` where the row's kind has none.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct ParallelDegrees {
    pub tensor: Option<u32>,
    pub expert: Option<u32>,
    pub data: Option<u32>,
    pub ulysses: Option<u32>,
    pub ring: Option<u32>,
}

/// An image's or a video's size in pixels; ordered by width, then height.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct PixelSize {
    pub width: u32,
    pub height: u32,
}

/// What a diffusion row outputs; every field `None` for a per-token row.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct OutputKey {
    pub size: Option<PixelSize>,
    pub frames: Option<u32>,
    pub fps: Option<Fps>,
    pub steps: Option<u32>,
}

/// Frames per second as a key: ordered and compared by
/// [`f64::total_cmp`], since an `f64` is not `Ord`.
#[derive(Debug, Clone, Copy)]
pub struct Fps(pub f64);

impl PartialEq for Fps {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other).is_eq()
    }
}

impl Eq for Fps {}

impl PartialOrd for Fps {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Fps {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.0.total_cmp(&other.0)
    }
}

/// Where other sources' data folders sit in the data folder: `sources/<id>/`.
pub const SOURCES_DIR: &str = "sources";

/// Where a data folder (the leaderboard's, or a source's
/// `sources/<id>/`) keeps the model files that newer figures superseded:
/// `history/<workload>/<slug>/<data version>.json`, each the file as it was
/// in that data version, written by `energyboard import`.
pub const HISTORY_DIR: &str = "history";

/// The path of a superseded model file inside its data folder:
/// `history/<workload>/<slug>/<version>.json`.
pub fn history_path(workload: &str, slug: &str, version: &str) -> String {
    format!("{HISTORY_DIR}/{workload}/{slug}/{version}.json")
}

/// Where the numbers come from.
#[derive(Debug, Clone, Deserialize, Serialize, PartialEq)]
pub struct Source {
    /// Which source of the data folder the file belongs to: absent for the
    /// leaderboard's own files (`data/<workload>/`), the id of a
    /// `[[sources]]` entry for a file under `data/sources/<id>/`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    /// Name of the source, e.g. "ML.ENERGY Leaderboard".
    pub name: String,
    pub publisher: String,
    /// Human-readable page of the source.
    pub url: String,
    /// Machine-readable data the file was made from.
    #[serde(default)]
    pub data_url: Option<String>,
    pub version: String,
    /// Release date of the source version.
    pub released: String,
    /// Date the source data were compiled.
    pub compiled: String,
    /// Why we believe the compile date.
    #[serde(default)]
    pub compiled_evidence: Option<String>,
    /// Date the data were retrieved for this mirror.
    pub retrieved: String,
    pub licence: String,
    #[serde(default)]
    pub licence_evidence: Vec<String>,
    pub workload: String,
    /// How the numbers were measured.
    pub method: String,
    /// How the "best" row is selected.
    pub selection: String,
    /// Paper citation.
    pub cite: String,
    pub cite_url: String,
    /// What the data are used for.
    #[serde(default)]
    pub used_for: Option<String>,
    /// Notes on which configurations are published.
    #[serde(default)]
    pub configurations: Option<String>,
}

/// The leaderboard's own files' key among a site's sources (no source id can be it).
pub const LEADERBOARD_KEY: &str = "leaderboard";

impl Source {
    /// The key pages and charts tell the source by: its `id`, or
    /// [`LEADERBOARD_KEY`] for the leaderboard's own files. A row's class
    /// is `from-<key>`, its filter's anchor `#only-<key>`.
    pub fn key(&self) -> &str {
        self.id.as_deref().unwrap_or(LEADERBOARD_KEY)
    }
}

/// One measured configuration, of either kind: a model served on some GPUs
/// at one maximum concurrency (per token), or generating batches of
/// `batch_size` images or videos (diffusion). The fields every kind has are
/// plain; each kind's own are optional, and validation checks that a row
/// has exactly its file's ([`Measure::fields`]). Field order is the order
/// in a data file.
#[serde_with::skip_serializing_none]
#[derive(Debug, Clone, Default, Deserialize, Serialize, PartialEq)]
pub struct Configuration {
    /// GPU type; must be one of the file's `gpus`.
    pub gpu: String,
    /// Number of GPUs serving the model, or generating each item together.
    pub num_gpus: u32,
    /// Per token: tensor-parallel degree.
    pub tensor_parallel: Option<u32>,
    /// Per token: data-parallel degree.
    pub data_parallel: Option<u32>,
    /// Per token: expert-parallel degree.
    pub expert_parallel: Option<u32>,
    /// Diffusion: Ulysses sequence-parallel degree.
    pub ulysses_degree: Option<u32>,
    /// Diffusion: ring sequence-parallel degree; `ulysses_degree × ring_degree = num_gpus`.
    pub ring_degree: Option<u32>,
    /// Numeric precision of weights, e.g. "BF16", "FP8".
    pub precision: String,
    /// Per token: maximum concurrent sequences (vLLM `max_num_seqs`).
    pub max_num_seqs: Option<u32>,
    /// Per token: average requests in flight during the steady state.
    pub avg_requests_in_flight: Option<f64>,
    /// Per token: steady-state GPU energy, Wh per million output tokens.
    pub wh_per_million_output_tokens: Option<f64>,
    /// Per token: steady-state GPU energy, joules per output token.
    pub joules_per_output_token: Option<f64>,
    /// Per token: median inter-token latency, ms.
    pub median_itl_ms: Option<f64>,
    /// Per token: 90th-percentile inter-token latency, ms.
    pub p90_itl_ms: Option<f64>,
    /// Per token: 99th-percentile inter-token latency, ms.
    pub p99_itl_ms: Option<f64>,
    /// Per token: output tokens per second, all GPUs together.
    pub tokens_per_second: Option<f64>,
    /// Diffusion: items generated per batch.
    pub batch_size: Option<u32>,
    /// Diffusion: denoising steps per item.
    pub inference_steps: Option<u32>,
    /// Image height, pixels (image files).
    pub image_height: Option<u32>,
    /// Image width, pixels (image files).
    pub image_width: Option<u32>,
    /// Video height, pixels (video files).
    pub video_height: Option<u32>,
    /// Video width, pixels (video files).
    pub video_width: Option<u32>,
    /// Frames per video (video files).
    pub num_frames: Option<u32>,
    /// Frames per second of the video (video files).
    #[serde(serialize_with = "some_whole_as_int")]
    pub fps: Option<f64>,
    /// GPU energy per image, J (image files).
    pub joules_per_image: Option<f64>,
    /// GPU energy per video, J (video files).
    pub joules_per_video: Option<f64>,
    /// Diffusion: time to generate one batch, s.
    pub batch_latency_s: Option<f64>,
    /// Images generated per second, all GPUs together (image files).
    pub images_per_second: Option<f64>,
    /// Videos generated per second, all GPUs together (video files).
    pub videos_per_second: Option<f64>,
    /// Measured GPU power, W, summed over the GPUs used.
    pub gpu_power_watts_total: f64,
    /// Per token: average output tokens per response.
    pub avg_output_tokens: Option<f64>,
    /// Per token: whether `median_itl_ms <= itl_deadline_ms`.
    pub under_itl_deadline: Option<bool>,
    /// Per token: average running batch size.
    pub avg_running_batch: Option<f64>,
    /// Per token: 95th-percentile inter-token latency, ms.
    pub p95_itl_ms: Option<f64>,
    /// Diffusion: whether `batch_latency_s <= batch_latency_deadline_s`.
    pub under_latency_deadline: Option<bool>,
    /// Unique id of the row within the file, e.g. `qwen-3-32b/H100/2/256`.
    pub row_id: String,
    /// Run number of this configuration: 1 for the first run, 2 for a repeat.
    pub repeat: u32,
    /// Upstream's unrounded average output length (tokens per response),
    /// when the importer carried it; `avg_output_tokens` is this rounded to
    /// a whole number. Energy per response uses it when present.
    pub avg_output_tokens_exact: Option<f64>,
    /// Histogram of the output lengths (tokens) of this configuration's
    /// responses, as upstream publishes it; boxed, as most rows have none.
    pub output_length_distribution: Option<Box<OutputLengthDistribution>>,
}

/// A histogram of output lengths in tokens: `counts[i]` responses had a
/// length in `[bins[i], bins[i + 1])` (the last bin includes its upper edge),
/// so `bins` has one more entry than `counts`.
#[derive(Debug, Clone, Deserialize, Serialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct OutputLengthDistribution {
    /// Bin edges in tokens, strictly ascending, finite and 0 or more.
    pub bins: Vec<f64>,
    /// Responses per bin.
    pub counts: Vec<u64>,
}

impl OutputLengthDistribution {
    pub const MAX_BINS: usize = 1000;

    pub fn total(&self) -> u64 {
        self.counts.iter().fold(0u64, |a, c| a.saturating_add(*c))
    }
}

impl Configuration {
    /// What the row measures, told by its fields (validated: [`Measure::fields`]).
    pub fn measure(&self) -> Measure {
        if self.max_num_seqs.is_some() {
            Measure::Tokens
        } else if self.joules_per_video.is_some() {
            Measure::Diffusion(OutputKind::Video)
        } else {
            Measure::Diffusion(OutputKind::Image)
        }
    }

    /// The energy ranked on: Wh per million output tokens, or J per image
    /// or video (NaN before validation has checked the row has its kind's).
    pub fn energy(&self) -> f64 {
        self.wh_per_million_output_tokens
            .or(self.joules_per_image)
            .or(self.joules_per_video)
            .unwrap_or(f64::NAN)
    }

    /// The latency the deadline applies to: median ITL (ms) or batch latency (s).
    pub fn latency(&self) -> f64 {
        self.median_itl_ms
            .or(self.batch_latency_s)
            .unwrap_or(f64::NAN)
    }

    pub fn load(&self) -> u32 {
        self.max_num_seqs.or(self.batch_size).unwrap_or(0)
    }

    pub fn under_deadline(&self) -> bool {
        self.under_itl_deadline
            .or(self.under_latency_deadline)
            .unwrap_or(false)
    }

    /// How the model is split over its GPUs, as shown to readers: "TP2",
    /// "EP2", "TP2·DP2", "U2·R1" (Ulysses and ring degrees) or "none".
    pub fn parallelism(&self) -> String {
        if let (Some(u), Some(r)) = (self.ulysses_degree, self.ring_degree) {
            return if u <= 1 && r <= 1 {
                "none".to_owned()
            } else {
                format!("U{u}·R{r}")
            };
        }
        let [tp, ep, dp] = [
            self.tensor_parallel,
            self.expert_parallel,
            self.data_parallel,
        ]
        .map(|d| d.unwrap_or(1));
        let mut shown = String::new();
        for (label, degree) in [("TP", tp), ("EP", ep), ("DP", dp)] {
            if degree > 1 {
                if !shown.is_empty() {
                    shown.push('·');
                }
                let _ = write!(shown, "{label}{degree}");
            }
        }
        if shown.is_empty() {
            shown.push_str("none");
        }
        if parallelism_fits(self.num_gpus, tp, dp, ep) {
            shown
        } else {
            format!(
                "{shown} (parallel degrees as recorded upstream; they do not multiply to the GPU \
                    count)"
            )
        }
    }

    /// Energy per response in joules: J per token × average output tokens
    /// (the exact figure when the file has it).
    pub fn joules_per_response(&self) -> Option<f64> {
        let tokens = self.avg_output_tokens_exact.or(self.avg_output_tokens);
        Some(self.joules_per_output_token? * tokens?)
    }

    pub fn wh_per_response(&self) -> Option<f64> {
        Some(self.joules_per_response()? / 3600.0)
    }

    pub fn derived_wh_per_million(&self) -> Option<f64> {
        Some(self.joules_per_output_token? * 1e6 / 3600.0)
    }

    /// Energy per generated image or video, J.
    pub fn joules_per_item(&self) -> Option<f64> {
        self.joules_per_image.or(self.joules_per_video)
    }

    /// Images or videos generated per second, all GPUs together.
    pub fn items_per_second(&self) -> Option<f64> {
        self.images_per_second.or(self.videos_per_second)
    }

    pub fn wh_per_item(&self) -> Option<f64> {
        Some(self.joules_per_item()? / 3600.0)
    }

    /// Items generated per kilowatt-hour: `3.6e6 / J per item`.
    pub fn items_per_kwh(&self) -> Option<f64> {
        Some(3.6e6 / self.joules_per_item()?)
    }

    /// Length of the video in seconds; `None` for an image.
    pub fn video_seconds(&self) -> Option<f64> {
        Some(f64::from(self.num_frames?) / self.fps?)
    }

    /// Energy per second of generated video, J/s; `None` for an image.
    pub fn joules_per_video_second(&self) -> Option<f64> {
        Some(self.joules_per_video? / self.video_seconds()?)
    }

    /// The size of the image or the video.
    pub fn size(&self) -> Option<PixelSize> {
        Some(PixelSize {
            width: self.image_width.or(self.video_width)?,
            height: self.image_height.or(self.video_height)?,
        })
    }

    /// The output as readers name it: "1024×1024", or "832×480, 81 frames at 15 fps".
    pub fn resolution(&self) -> String {
        let size = self
            .size()
            .map_or_else(|| "?".to_owned(), |s| format!("{}×{}", s.width, s.height));
        match (self.num_frames, self.fps) {
            (Some(n), Some(fps)) => format!("{size}, {n} frames at {fps} fps"),
            _ => size,
        }
    }

    /// What the selection rule ([`crate::select`]) reads of it.
    pub fn figures(&self) -> crate::select::Figures {
        crate::select::Figures {
            energy: self.energy(),
            latency: self.latency(),
            num_gpus: self.num_gpus.into(),
            load: self.load().into(),
            repeat: self.repeat.into(),
        }
    }

    /// The output-length histogram and energy per output token (J), if any.
    pub fn output_lengths(&self) -> Option<OutputLengths<'_>> {
        Some(OutputLengths {
            histogram: self.output_length_distribution.as_deref()?,
            joules_per_token: self.joules_per_output_token?,
        })
    }

    /// The [`ITL_PERCENTILES`] of the inter-token latency, if the data have them.
    pub fn itl_percentiles(&self) -> Option<[f64; 3]> {
        Some([self.p90_itl_ms?, self.p95_itl_ms?, self.p99_itl_ms?])
    }

    /// The latency the trade-off is drawn and analysed at: the median
    /// ([`Self::latency`]), or with `pct` that percentile of the
    /// inter-token latency (the median where the data have no percentiles).
    pub fn latency_at(&self, pct: Option<Percentile>) -> f64 {
        match (pct, self.itl_percentiles()) {
            (Some(k), Some(p)) => p[k.index()],
            _ => self.latency(),
        }
    }

    pub fn series_key(&self) -> SeriesKey {
        SeriesKey {
            gpu: self.gpu.clone(),
            num_gpus: self.num_gpus,
            parallel: ParallelDegrees {
                tensor: self.tensor_parallel,
                expert: self.expert_parallel,
                data: self.data_parallel,
                ulysses: self.ulysses_degree,
                ring: self.ring_degree,
            },
            precision: self.precision.clone(),
            output: OutputKey {
                size: self.size(),
                frames: self.num_frames,
                fps: self.fps.map(Fps),
                steps: self.inference_steps,
            },
        }
    }

    /// Every measured figure of the row by field name, `None` where the
    /// row's kind has none: validation checks each is a measurement (or,
    /// for the two averages of the steady state, 0 or more) within its
    /// limit.
    pub fn quantities(&self) -> [(&'static str, Option<f64>); 17] {
        [
            ("median_itl_ms", self.median_itl_ms),
            ("p90_itl_ms", self.p90_itl_ms),
            ("p95_itl_ms", self.p95_itl_ms),
            ("p99_itl_ms", self.p99_itl_ms),
            (
                "wh_per_million_output_tokens",
                self.wh_per_million_output_tokens,
            ),
            ("joules_per_output_token", self.joules_per_output_token),
            ("tokens_per_second", self.tokens_per_second),
            ("batch_latency_s", self.batch_latency_s),
            ("joules_per_image", self.joules_per_image),
            ("joules_per_video", self.joules_per_video),
            ("images_per_second", self.images_per_second),
            ("videos_per_second", self.videos_per_second),
            ("gpu_power_watts_total", Some(self.gpu_power_watts_total)),
            ("fps", self.fps),
            ("avg_output_tokens", self.avg_output_tokens),
            ("avg_requests_in_flight", self.avg_requests_in_flight),
            ("avg_running_batch", self.avg_running_batch),
        ]
    }

    /// Every count of the row by field name (GPUs, parallel degrees, load,
    /// steps, pixels, frames, run), `None` where the row's kind has none:
    /// validation checks each is 1 or more and within its limit.
    pub fn counts(&self) -> [(&'static str, Option<u32>); 15] {
        [
            ("num_gpus", Some(self.num_gpus)),
            ("tensor_parallel", self.tensor_parallel),
            ("data_parallel", self.data_parallel),
            ("expert_parallel", self.expert_parallel),
            ("ulysses_degree", self.ulysses_degree),
            ("ring_degree", self.ring_degree),
            ("max_num_seqs", self.max_num_seqs),
            ("batch_size", self.batch_size),
            ("inference_steps", self.inference_steps),
            ("repeat", Some(self.repeat)),
            ("image_height", self.image_height),
            ("image_width", self.image_width),
            ("video_height", self.video_height),
            ("video_width", self.video_width),
            ("num_frames", self.num_frames),
        ]
    }

    /// The names of the optional fields the row has (with `num_gpus`,
    /// `repeat` and `gpu_power_watts_total`, which every row has): what
    /// validation holds against its kind's fields ([`Measure::fields`]).
    pub fn present(&self) -> Vec<&'static str> {
        let flags = [
            ("under_itl_deadline", self.under_itl_deadline.is_some()),
            (
                "under_latency_deadline",
                self.under_latency_deadline.is_some(),
            ),
            (
                "avg_output_tokens_exact",
                self.avg_output_tokens_exact.is_some(),
            ),
            (
                "output_length_distribution",
                self.output_length_distribution.is_some(),
            ),
        ];
        let counts = self.counts().map(|(n, v)| (n, v.is_some()));
        let figures = self.quantities().map(|(n, v)| (n, v.is_some()));
        counts
            .into_iter()
            .chain(figures)
            .chain(flags)
            .filter_map(|(name, has)| has.then_some(name))
            .collect()
    }
}

/// The per-token fields: a per-token row has every one, a diffusion row none.
pub const TOKEN_FIELDS: [&str; 15] = [
    "tensor_parallel",
    "data_parallel",
    "expert_parallel",
    "max_num_seqs",
    "avg_requests_in_flight",
    "wh_per_million_output_tokens",
    "joules_per_output_token",
    "median_itl_ms",
    "p90_itl_ms",
    "p99_itl_ms",
    "tokens_per_second",
    "avg_output_tokens",
    "under_itl_deadline",
    "avg_running_batch",
    "p95_itl_ms",
];

/// The optional per-token fields: a diffusion row may carry none of them.
pub const TOKEN_OPTIONAL_FIELDS: [&str; 2] =
    ["avg_output_tokens_exact", "output_length_distribution"];

/// The fields every diffusion row has, image or video.
pub const DIFFUSION_FIELDS: [&str; 6] = [
    "ulysses_degree",
    "ring_degree",
    "batch_size",
    "inference_steps",
    "batch_latency_s",
    "under_latency_deadline",
];

/// The words the pages and charts append to a GPU's URL segment to name
/// something else of that GPU: its card heading's anchor (`#gpu-<seg>-h`),
/// its table's caption (`#table-<seg>-caption`), a chart's data table
/// (`#chart-…-<seg>-data`) and a histogram's log-scale view
/// (`energy-per-response-<seg>-log.svg`, [`LOG_VIEW`]). A GPU whose segment
/// ends in one of them would take another GPU's file or id, so it is
/// refused (`tests/it/site_charts.rs` checks that the built pages use no
/// other word).
pub const GPU_SUFFIX_WORDS: [&str; 4] = ["h", "caption", "data", "log"];

/// What a histogram's log-scale view adds to its file name and id.
pub const LOG_VIEW: &str = "-log";

/// A lower-case URL segment: ASCII letters and digits kept, other runs become one `-`.
pub fn url_segment(label: &str) -> String {
    let mut segment = String::with_capacity(label.len());
    let mut in_gap = false;
    for c in label.chars() {
        if c.is_ascii_alphanumeric() {
            if in_gap && !segment.is_empty() {
                segment.push('-');
            }
            in_gap = false;
            segment.push(c.to_ascii_lowercase());
        } else {
            in_gap = true;
        }
    }
    segment
}

/// The page anchor of a configuration row, built from its `row_id`: the
/// model slug prefix is dropped and the rest made URL-safe, so
/// `qwen-3-32b/H100/2/256` becomes `h100-2-256` and a repeat
/// `…/H100/2/256/r2` becomes `h100-2-256-r2`.
pub fn row_anchor(slug: &str, row_id: &str) -> String {
    let rest = row_id
        .strip_prefix(slug)
        .and_then(|r| r.strip_prefix('/'))
        .unwrap_or(row_id);
    let seg = url_segment(rest);
    if seg.is_empty() {
        "row".to_owned()
    } else {
        seg
    }
}

/// Whether parallel degrees fit the GPU count, by the rule every row of the
/// ML.ENERGY Leaderboard's published data follows since 2026-02-16: without
/// expert parallelism (`ep` 1), `tp × dp = num_gpus`; with it, the experts
/// are spread over every GPU (`ep = num_gpus`) and the attention layers are
/// too (`tp × dp = num_gpus`) or not split at all (`tp = dp = 1`). Earlier
/// rows that break it load as published, marked on the page
/// ([`Configuration::parallelism`]).
pub fn parallelism_fits(num_gpus: u32, tp: u32, dp: u32, ep: u32) -> bool {
    let attention = u64::from(tp) * u64::from(dp);
    let gpus = u64::from(num_gpus);
    if ep == 1 {
        attention == gpus
    } else {
        ep == num_gpus && (attention == gpus || attention == 1)
    }
}
