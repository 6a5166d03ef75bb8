//! The columns readers see: name, unit, definition, and whether each is
//! measured or derived. One list feeds the table headers, the about page, the
//! CSV headers and the data dictionary, so they cannot drift apart.

/// Whether a column comes from the data file or from a formula.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Origin {
    /// Copied from the data file.
    Measured,
    /// Describes the configuration (set, not measured).
    Setting,
    /// Computed by energyboard from other columns; the formula is given.
    Derived,
}

impl Origin {
    /// The word shown to readers.
    pub fn word(self) -> &'static str {
        match self {
            Origin::Measured => "measured",
            Origin::Setting => "configuration",
            Origin::Derived => "derived",
        }
    }
}

/// One column.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Column {
    /// Machine name, used in CSV headers and as the about-page anchor
    /// (`#col-<key>`). Names carry their unit.
    pub key: &'static str,
    /// Short header label.
    pub label: &'static str,
    /// Unit, as shown in headers ("" when none).
    pub unit: &'static str,
    /// Definition in one or two sentences; derived columns give the formula.
    pub definition: &'static str,
    /// Measured, setting or derived.
    pub origin: Origin,
}

macro_rules! column {
    ($key:literal, $label:literal, $unit:literal, $origin:ident, $def:literal) => {
        Column {
            key: $key,
            label: $label,
            unit: $unit,
            definition: $def,
            origin: Origin::$origin,
        }
    };
}

/// Every column, in the order the configurations CSV uses.
pub const COLUMNS: &[Column] = &[
    column!(
        "rank",
        "Rank",
        "#",
        Derived,
        "Position in the leaderboard: rows ordered by Wh per million output tokens, lowest first (leaderboard.csv only)."
    ),
    column!(
        "workload",
        "Workload",
        "",
        Setting,
        "The workload measured, by its id (e.g. lm-arena-chat, gpqa); each workload has its own prompts, output lengths and latency deadline, so figures compare only within one workload."
    ),
    column!(
        "model_slug",
        "Model slug",
        "",
        Setting,
        "The model's identifier in URLs and file names."
    ),
    column!(
        "model",
        "Model",
        "",
        Setting,
        "The model's display name; it links to the model's page."
    ),
    column!(
        "model_id",
        "Model ID",
        "",
        Setting,
        "The model's Hugging Face identifier."
    ),
    column!(
        "params_billion",
        "Total params",
        "B",
        Setting,
        "Total parameters of the model, in billions."
    ),
    column!(
        "active_params_billion",
        "Active params",
        "B",
        Setting,
        "Parameters used for each token, in billions; lower than the total for mixture-of-experts (MoE) models."
    ),
    column!(
        "architecture",
        "Architecture",
        "",
        Setting,
        "Dense transformer or mixture of experts (MoE)."
    ),
    column!(
        "row_id",
        "Row ID",
        "",
        Setting,
        "The configuration's identifier in the data file; its page anchor is built from it."
    ),
    column!(
        "gpu",
        "GPU",
        "",
        Setting,
        "The GPU type the configuration ran on."
    ),
    column!(
        "num_gpus",
        "GPUs",
        "count",
        Setting,
        "Number of GPUs serving the model in this configuration."
    ),
    column!(
        "parallelism",
        "Parallelism",
        "",
        Setting,
        "How the model is split over the GPUs: TP = tensor parallel, EP = expert parallel, DP = data parallel, each with its degree; \"none\" on one GPU."
    ),
    column!(
        "tensor_parallel",
        "TP",
        "degree",
        Setting,
        "Tensor-parallel degree: each layer split over this many GPUs."
    ),
    column!(
        "expert_parallel",
        "EP",
        "degree",
        Setting,
        "Expert-parallel degree: the experts of a MoE model spread over this many GPUs."
    ),
    column!(
        "data_parallel",
        "DP",
        "degree",
        Setting,
        "Data-parallel degree: this many replicas serve requests side by side."
    ),
    column!(
        "precision",
        "Precision",
        "",
        Setting,
        "Numeric format of the weights, e.g. BF16 or FP8."
    ),
    column!(
        "max_num_seqs",
        "Max concurrency",
        "seqs",
        Setting,
        "vLLM's max_num_seqs: the most requests the server processes at once."
    ),
    column!(
        "repeat",
        "Run",
        "#",
        Setting,
        "1 for the first run of a configuration, 2 or more for a repeated run. Repeats are shown as their own rows and points, never averaged."
    ),
    column!(
        "wh_per_million_output_tokens",
        "Energy",
        "Wh/M tok",
        Measured,
        "Steady-state GPU energy per million output tokens, in watt-hours. The leaderboard's headline figure."
    ),
    column!(
        "joules_per_output_token",
        "Energy",
        "J/tok",
        Measured,
        "Steady-state GPU energy per output token, in joules. Wh per million tokens = J per token × 1,000,000 / 3,600."
    ),
    column!(
        "wh_per_response",
        "Energy / response",
        "Wh",
        Derived,
        "Energy for one average response: J per token × average output tokens / 3,600."
    ),
    column!(
        "joules_per_response",
        "Energy / response",
        "J",
        Derived,
        "Energy for one average response: J per token × average output tokens."
    ),
    column!(
        "tokens_per_wh",
        "Tokens per Wh",
        "tok/Wh",
        Derived,
        "Output tokens generated per watt-hour: 3,600 / J per token."
    ),
    column!(
        "median_itl_ms",
        "Median ITL",
        "ms",
        Measured,
        "Median inter-token latency: the typical time between two output tokens of one response, in milliseconds. The selection rule's latency limit applies to it."
    ),
    column!(
        "p90_itl_ms",
        "p90 ITL",
        "ms",
        Measured,
        "90th-percentile inter-token latency, in milliseconds."
    ),
    column!(
        "p95_itl_ms",
        "p95 ITL",
        "ms",
        Measured,
        "95th-percentile inter-token latency, in milliseconds."
    ),
    column!(
        "p99_itl_ms",
        "p99 ITL",
        "ms",
        Measured,
        "99th-percentile inter-token latency, in milliseconds: the slow tail a reader of a streaming response notices."
    ),
    column!(
        "tokens_per_second",
        "Throughput",
        "tok/s",
        Measured,
        "Output tokens generated per second by all the configuration's GPUs together."
    ),
    column!(
        "gpu_power_watts",
        "GPU power",
        "W",
        Measured,
        "Average measured GPU power during the steady state, summed over the GPUs used, in watts."
    ),
    column!(
        "avg_output_tokens",
        "Output length",
        "tok",
        Measured,
        "Average number of output tokens per response."
    ),
    column!(
        "avg_requests_in_flight",
        "Requests in flight",
        "req",
        Measured,
        "Average number of requests in the server during the steady state."
    ),
    column!(
        "avg_running_batch",
        "Running batch",
        "seqs",
        Measured,
        "Average number of sequences in the running batch during the steady state."
    ),
    column!(
        "under_itl_deadline",
        "Within deadline",
        "",
        Derived,
        "Whether median ITL ≤ the file's deadline (500 ms for the seed data)."
    ),
    column!(
        "itl_deadline_ms",
        "Deadline",
        "ms",
        Setting,
        "The median-ITL limit under which the best configuration is chosen."
    ),
    column!(
        "data_version",
        "Data version",
        "",
        Setting,
        "Version (date) of the data file the row comes from."
    ),
];

/// Every column of the diffusion workloads (text to image, text to video),
/// in the order their CSV files use; an image file uses the `image` columns
/// and a video file the `video` ones.
pub const DIFFUSION_COLUMNS: &[Column] = &[
    column!(
        "rank",
        "Rank",
        "#",
        Derived,
        "Position in the leaderboard: rows ordered by energy per image (or video), lowest first (leaderboard-image.csv and leaderboard-video.csv only)."
    ),
    column!(
        "workload",
        "Workload",
        "",
        Setting,
        "The workload measured, by its id (text-to-image or text-to-video); figures compare only within one workload."
    ),
    column!(
        "model_slug",
        "Model slug",
        "",
        Setting,
        "The model's identifier in URLs and file names."
    ),
    column!(
        "model",
        "Model",
        "",
        Setting,
        "The model's display name; it links to the model's page."
    ),
    column!(
        "model_id",
        "Model ID",
        "",
        Setting,
        "The model's Hugging Face identifier."
    ),
    column!(
        "params_billion",
        "Params",
        "B",
        Setting,
        "Parameters of the diffusion model, in billions."
    ),
    column!(
        "architecture",
        "Architecture",
        "",
        Setting,
        "The model's architecture (Diffusion)."
    ),
    column!(
        "row_id",
        "Row ID",
        "",
        Setting,
        "The configuration's identifier in the data file; its page anchor is built from it."
    ),
    column!(
        "gpu",
        "GPU",
        "",
        Setting,
        "The GPU type the configuration ran on."
    ),
    column!(
        "num_gpus",
        "GPUs",
        "count",
        Setting,
        "Number of GPUs generating each image or video together."
    ),
    column!(
        "parallelism",
        "Sequence parallel",
        "",
        Setting,
        "How each image or video is split over the GPUs: U = Ulysses degree, R = ring degree (U × R = GPUs); \"none\" on one GPU."
    ),
    column!(
        "ulysses_degree",
        "Ulysses",
        "degree",
        Setting,
        "Ulysses sequence-parallel degree: attention heads spread over this many GPUs."
    ),
    column!(
        "ring_degree",
        "Ring",
        "degree",
        Setting,
        "Ring sequence-parallel degree: the sequence passed around this many GPUs in a ring."
    ),
    column!(
        "precision",
        "Precision",
        "",
        Setting,
        "Numeric format of the weights, e.g. BF16."
    ),
    column!(
        "batch_size",
        "Batch size",
        "items",
        Setting,
        "Images or videos generated together in one batch."
    ),
    column!(
        "inference_steps",
        "Steps",
        "steps",
        Setting,
        "Denoising steps per image or video, the model's default."
    ),
    column!(
        "resolution",
        "Output",
        "px",
        Setting,
        "Width × height of the output in pixels; for a video also its frames and frame rate."
    ),
    column!(
        "image_height",
        "Height",
        "px",
        Setting,
        "Image height in pixels."
    ),
    column!(
        "image_width",
        "Width",
        "px",
        Setting,
        "Image width in pixels."
    ),
    column!(
        "video_height",
        "Height",
        "px",
        Setting,
        "Video height in pixels."
    ),
    column!(
        "video_width",
        "Width",
        "px",
        Setting,
        "Video width in pixels."
    ),
    column!(
        "num_frames",
        "Frames",
        "frames",
        Setting,
        "Frames per video."
    ),
    column!(
        "fps",
        "Frame rate",
        "fps",
        Setting,
        "Frames per second of the video."
    ),
    column!(
        "video_seconds",
        "Video length",
        "s",
        Derived,
        "Length of the generated video: frames / frame rate."
    ),
    column!(
        "repeat",
        "Run",
        "#",
        Setting,
        "1 for the first run of a configuration, 2 or more for a repeated run. Repeats are shown as their own rows and points, never averaged."
    ),
    column!(
        "joules_per_image",
        "Energy",
        "J/image",
        Measured,
        "GPU energy per generated image, in joules: the energy of a batch, summed over the GPUs, divided by the batch size. The text-to-image leaderboard's headline figure."
    ),
    column!(
        "joules_per_video",
        "Energy",
        "J/video",
        Measured,
        "GPU energy per generated video, in joules: the energy of a batch, summed over the GPUs, divided by the batch size. The text-to-video leaderboard's headline figure."
    ),
    column!(
        "wh_per_image",
        "Energy",
        "Wh/image",
        Derived,
        "Energy per image in watt-hours: J per image / 3,600."
    ),
    column!(
        "wh_per_video",
        "Energy",
        "Wh/video",
        Derived,
        "Energy per video in watt-hours: J per video / 3,600."
    ),
    column!(
        "images_per_kwh",
        "Images per kWh",
        "images/kWh",
        Derived,
        "Images generated per kilowatt-hour of GPU energy: 3,600,000 / J per image."
    ),
    column!(
        "videos_per_kwh",
        "Videos per kWh",
        "videos/kWh",
        Derived,
        "Videos generated per kilowatt-hour of GPU energy: 3,600,000 / J per video."
    ),
    column!(
        "joules_per_video_second",
        "Energy per video second",
        "J/s",
        Derived,
        "GPU energy per second of generated video: J per video / (frames / frame rate)."
    ),
    column!(
        "batch_latency_s",
        "Batch latency",
        "s",
        Measured,
        "Time to generate one batch, in seconds. The selection rule's latency limit applies to it."
    ),
    column!(
        "images_per_second",
        "Throughput",
        "images/s",
        Measured,
        "Images generated per second by all the configuration's GPUs together: batch size / batch latency."
    ),
    column!(
        "videos_per_second",
        "Throughput",
        "videos/s",
        Measured,
        "Videos generated per second by all the configuration's GPUs together: batch size / batch latency."
    ),
    column!(
        "gpu_power_watts",
        "GPU power",
        "W",
        Measured,
        "Average measured GPU power while generating, summed over the GPUs used, in watts (energy per item × items per second)."
    ),
    column!(
        "under_latency_deadline",
        "Within deadline",
        "",
        Derived,
        "Whether batch latency ≤ the workload's deadline (30 s for text to image, 300 s for text to video upstream)."
    ),
    column!(
        "batch_latency_deadline_s",
        "Deadline",
        "s",
        Setting,
        "The batch-latency limit under which the best configuration is chosen."
    ),
    column!(
        "data_version",
        "Data version",
        "",
        Setting,
        "Version (date) of the data file the row comes from."
    ),
];

/// The columns of one kind of measurement: their definitions, and where
/// the about page defines them (`#<anchor><key>`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ColumnSet {
    /// Heading on the about page.
    pub name: &'static str,
    /// Prefix of each column's about-page anchor.
    pub anchor: &'static str,
    /// The columns.
    pub columns: &'static [Column],
}

/// The per-token workloads' columns; their anchors are `#col-<key>`.
pub const PER_TOKEN: ColumnSet = ColumnSet {
    name: "Per-token workloads",
    anchor: "col-",
    columns: COLUMNS,
};

/// The diffusion workloads' columns; their anchors are
/// `#col-diffusion-<key>`.
pub const DIFFUSION: ColumnSet = ColumnSet {
    name: "Diffusion workloads (text to image and text to video)",
    anchor: "col-diffusion-",
    columns: DIFFUSION_COLUMNS,
};

impl ColumnSet {
    /// The column with this key.
    ///
    /// # Panics
    /// When the set has no such column: a programming error caught by
    /// tests.
    pub fn get(&self, key: &str) -> &'static Column {
        self.columns
            .iter()
            .find(|c| c.key == key)
            .unwrap_or_else(|| panic!("no column {key:?} in {}", self.name))
    }

    /// The about-page anchor of a column, e.g. `col-diffusion-batch_size`.
    pub fn anchor(&self, key: &str) -> String {
        format!("{}{key}", self.anchor)
    }
}

/// The column with this key.
///
/// # Panics
/// When no column has that key: a programming error caught by tests.
pub fn column(key: &str) -> &'static Column {
    COLUMNS
        .iter()
        .find(|c| c.key == key)
        .unwrap_or_else(|| panic!("no column {key:?}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_unique() {
        for set in [COLUMNS, DIFFUSION_COLUMNS] {
            let mut keys: Vec<_> = set.iter().map(|c| c.key).collect();
            keys.sort_unstable();
            let n = keys.len();
            keys.dedup();
            assert_eq!(n, keys.len());
        }
    }

    #[test]
    fn every_column_has_a_definition_and_numbers_a_unit() {
        for set in [PER_TOKEN, DIFFUSION] {
            for c in set.columns {
                assert!(!c.definition.is_empty(), "{}", c.key);
                if c.origin == Origin::Measured {
                    assert!(!c.unit.is_empty(), "{} has no unit", c.key);
                }
            }
        }
    }
}
