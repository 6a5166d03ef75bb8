//! The diffusion data format: one JSON document per model of a text-to-image
//! or text-to-video workload. It keeps the per-token files' frame (source,
//! caveat, slug, gpus, configurations, best, …) and measures energy per
//! generated image or video against the latency of a whole batch.
//!
//! A file is of this kind when it has a top-level `"kind"` (`"image"` or
//! `"video"`); files without one are per-token files ([`super::ModelFile`]).

use serde::{Deserialize, Serialize};

use super::DiffusionFile;

/// What a diffusion model generates: the item energy is counted per.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Deserialize, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum OutputKind {
    /// Text to image: energy per image.
    Image,
    /// Text to video: energy per video.
    Video,
}

impl OutputKind {
    /// The item in words: "image" or "video".
    pub fn item(self) -> &'static str {
        match self {
            OutputKind::Image => "image",
            OutputKind::Video => "video",
        }
    }

    /// The plural: "images" or "videos".
    pub fn items(self) -> &'static str {
        match self {
            OutputKind::Image => "images",
            OutputKind::Video => "videos",
        }
    }

    /// The `unit` a file of this kind must state: `"J per image"`.
    pub fn unit(self) -> &'static str {
        match self {
            OutputKind::Image => "J per image",
            OutputKind::Video => "J per video",
        }
    }

    /// The kind's own fields of a configuration: they must all be present,
    /// and the other kind's must all be absent.
    pub fn fields(self) -> &'static [&'static str] {
        match self {
            OutputKind::Image => &IMAGE_FIELDS,
            OutputKind::Video => &VIDEO_FIELDS,
        }
    }

    /// The other kind.
    #[must_use]
    pub fn other(self) -> Self {
        match self {
            OutputKind::Image => OutputKind::Video,
            OutputKind::Video => OutputKind::Image,
        }
    }
}

const IMAGE_FIELDS: [&str; 4] = [
    "image_height",
    "image_width",
    "joules_per_image",
    "images_per_second",
];

const VIDEO_FIELDS: [&str; 6] = [
    "video_height",
    "video_width",
    "num_frames",
    "fps",
    "joules_per_video",
    "videos_per_second",
];

/// Fields of the per-token format that a diffusion configuration must not
/// carry: a file that has them was converted from the wrong task, or mixes
/// two kinds of measurement.
pub const PER_TOKEN_FIELDS: [&str; 16] = [
    "tensor_parallel",
    "data_parallel",
    "expert_parallel",
    "max_num_seqs",
    "avg_requests_in_flight",
    "wh_per_million_output_tokens",
    "joules_per_output_token",
    "median_itl_ms",
    "p90_itl_ms",
    "p95_itl_ms",
    "p99_itl_ms",
    "tokens_per_second",
    "avg_output_tokens",
    "under_itl_deadline",
    "avg_running_batch",
    "itl_deadline_ms",
];

impl DiffusionFile {
    /// What the model generates. A diffusion file always has its `kind`:
    /// loading reads a file as this kind only when it has one.
    pub fn output(&self) -> OutputKind {
        self.kind.expect("a diffusion file has a kind")
    }
}

/// One measured configuration of a diffusion model: a model generating
/// batches of `batch_size` images or videos on some GPUs. Every field is
/// known: an unknown one (a per-token field, a typo) is an error.
#[derive(Debug, Clone, Deserialize, Serialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct DiffusionConfiguration {
    /// GPU type; must be one of the file's `gpus`.
    pub gpu: String,
    /// Number of GPUs generating each item together.
    pub num_gpus: u32,
    /// Ulysses sequence-parallel degree.
    pub ulysses_degree: u32,
    /// Ring sequence-parallel degree; `ulysses_degree × ring_degree` is
    /// `num_gpus`.
    pub ring_degree: u32,
    /// Numeric precision of weights, e.g. "BF16".
    pub precision: String,
    /// Items generated per batch.
    pub batch_size: u32,
    /// Denoising steps per item.
    pub inference_steps: u32,
    /// Image height, pixels (image files).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub image_height: Option<u32>,
    /// Image width, pixels (image files).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub image_width: Option<u32>,
    /// Video height, pixels (video files).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub video_height: Option<u32>,
    /// Video width, pixels (video files).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub video_width: Option<u32>,
    /// Frames per video (video files).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub num_frames: Option<u32>,
    /// Frames per second of the video (video files).
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        serialize_with = "whole_fps"
    )]
    pub fps: Option<f64>,
    /// GPU energy per image, J (image files).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub joules_per_image: Option<f64>,
    /// GPU energy per video, J (video files).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub joules_per_video: Option<f64>,
    /// Time to generate one batch, s.
    pub batch_latency_s: f64,
    /// Images generated per second, all GPUs together (image files).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub images_per_second: Option<f64>,
    /// Videos generated per second, all GPUs together (video files).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub videos_per_second: Option<f64>,
    /// Measured GPU power, W, summed over the GPUs used.
    pub gpu_power_watts_total: f64,
    /// Whether `batch_latency_s <= batch_latency_deadline_s`.
    pub under_latency_deadline: bool,
    /// Unique id of the row within the file, e.g. `flux-1-dev/H100/2/b1/u2r1`.
    pub row_id: String,
    /// Run number of this configuration: 1 for the first run, 2 for a repeat.
    pub repeat: u32,
}

/// `fps` as the importer writes it: a whole rate without a decimal point.
#[allow(clippy::ref_option, reason = "serde's serialize_with passes &Option")]
fn whole_fps<S: serde::Serializer>(v: &Option<f64>, s: S) -> Result<S::Ok, S::Error> {
    match v {
        Some(v) => super::whole_as_int(v, s),
        None => s.serialize_none(),
    }
}

impl DiffusionConfiguration {
    /// Energy per generated image or video, J: `joules_per_image` or
    /// `joules_per_video`, whichever the file's kind gives (NaN before
    /// validation has checked that one is there).
    pub fn joules_per_item(&self) -> f64 {
        self.joules_per_image
            .or(self.joules_per_video)
            .unwrap_or(f64::NAN)
    }

    /// Images or videos generated per second, all GPUs together.
    pub fn items_per_second(&self) -> f64 {
        self.images_per_second
            .or(self.videos_per_second)
            .unwrap_or(f64::NAN)
    }

    /// Energy per item in watt-hours: `J per item / 3600`.
    pub fn wh_per_item(&self) -> f64 {
        self.joules_per_item() / 3600.0
    }

    /// Items generated per kilowatt-hour: `3.6e6 / J per item`.
    pub fn items_per_kwh(&self) -> f64 {
        3.6e6 / self.joules_per_item()
    }

    /// Length of the video in seconds, `num_frames / fps`; `None` for an
    /// image.
    pub fn video_seconds(&self) -> Option<f64> {
        Some(f64::from(self.num_frames?) / self.fps?)
    }

    /// Energy per second of generated video, J/s:
    /// `joules_per_video / (num_frames / fps)`; `None` for an image.
    pub fn joules_per_video_second(&self) -> Option<f64> {
        Some(self.joules_per_video? / self.video_seconds()?)
    }

    /// (width, height) in pixels, of the image or the video.
    pub fn size(&self) -> Option<(u32, u32)> {
        match (
            self.image_width.or(self.video_width),
            self.image_height.or(self.video_height),
        ) {
            (Some(w), Some(h)) => Some((w, h)),
            _ => None,
        }
    }

    /// The output as readers name it: "1024×1024", or for a video
    /// "832×480, 81 frames at 15 fps".
    pub fn resolution(&self) -> String {
        let size = self
            .size()
            .map_or_else(|| "?".to_owned(), |(w, h)| format!("{w}×{h}"));
        match (self.num_frames, self.fps) {
            (Some(n), Some(fps)) => format!("{size}, {n} frames at {fps} fps"),
            _ => size,
        }
    }

    /// Sequence parallelism as shown to readers: "U2·R1" (Ulysses and ring
    /// degrees), or "none" on one GPU.
    pub fn parallelism(&self) -> String {
        if self.ulysses_degree <= 1 && self.ring_degree <= 1 {
            "none".to_owned()
        } else {
            format!("U{}·R{}", self.ulysses_degree, self.ring_degree)
        }
    }
}
