//! What the pages need to know about each kind of measurement: per-token
//! workloads ([`ModelFile`]) measure energy per output token against median
//! inter-token latency and concurrency; diffusion workloads
//! ([`DiffusionFile`]) energy per image or video against batch latency and
//! batch size. Every page of a workload is rendered once, generically, from
//! these words, columns and cells.

use super::downloads::{csv_text as cell, raw};
use super::views::Cell;
use super::{num, text};
use crate::chart::PageCharts;
use crate::columns::{ColumnSet, DIFFUSION, PER_TOKEN};
use crate::fmt;
use crate::model::{
    Configuration, DiffusionConfiguration, DiffusionFile, Measured, ModelFile, OutputKind,
    OutputLengthDistribution,
};
use crate::workload::{Measure, Measures};

/// The words a workload's pages use for what it measures. The per-token
/// words are those the site used before it had other kinds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Words {
    /// What energy is counted per: "output token", "image", "video".
    pub item: &'static str,
    /// The headline energy's unit in words: "Wh per million output tokens".
    pub energy_long: &'static str,
    /// The headline energy's unit in a table header: "Wh/M tok".
    pub energy_unit: &'static str,
    /// The column of the headline energy, e.g.
    /// `wh_per_million_output_tokens`.
    pub energy_key: &'static str,
    /// The latency the deadline applies to: "median inter-token latency".
    pub latency: &'static str,
    /// The same, short: "median ITL".
    pub latency_short: &'static str,
    /// The same, introduced: "median inter-token latency (ITL)".
    pub latency_intro: &'static str,
    /// The latency's unit: "ms" or "s".
    pub latency_unit: &'static str,
    /// The load a configuration runs at: "max concurrency", "batch size".
    pub load: &'static str,
    /// What is measured: "AI inference", "image generation".
    pub task: &'static str,
    /// The headline energy in a phrase: "GPU energy per million output
    /// tokens".
    pub energy_phrase: &'static str,
    /// The same in a citation: "LLM inference", "image generation".
    pub bib_task: &'static str,
    /// What a tighter latency limit forces: "lower concurrency".
    pub tighter: &'static str,
    /// What energy is counted per, in a short phrase: "token", "image".
    pub unit_item: &'static str,
    /// A row anchor as an example: "h100-2-256".
    pub anchor_example: &'static str,
    /// What a configuration table groups rows by, and orders them by.
    pub grouping: &'static str,
}

impl Words {
    /// The words of a kind of measurement.
    pub fn of(measure: Measure) -> Self {
        match measure {
            Measure::Tokens => Self {
                item: "output token",
                energy_long: "Wh per million output tokens",
                energy_unit: "Wh/M tok",
                energy_key: "wh_per_million_output_tokens",
                latency: "median inter-token latency",
                latency_short: "median ITL",
                latency_intro: "median inter-token latency (ITL)",
                latency_unit: "ms",
                load: "max concurrency",
                task: "AI inference",
                energy_phrase: "GPU energy per million output tokens",
                bib_task: "LLM inference",
                tighter: "lower concurrency",
                unit_item: "token",
                anchor_example: "h100-2-256",
                grouping: "grouped by GPU count, parallelism and precision, ordered by max concurrency",
            },
            Measure::Diffusion(OutputKind::Image) => Self {
                item: "image",
                energy_long: "J per image",
                energy_unit: "J/image",
                energy_key: "joules_per_image",
                latency: "batch latency",
                latency_short: "batch latency",
                latency_intro: "batch latency (the time to generate one batch of images)",
                latency_unit: "s",
                load: "batch size",
                task: "image generation",
                energy_phrase: "GPU energy per image",
                bib_task: "image generation",
                tighter: "smaller batches or more GPUs",
                unit_item: "image",
                anchor_example: "h100-2-b1-u2r1",
                grouping: "grouped by GPU count, sequence parallelism, precision, output size and steps, ordered by batch size",
            },
            Measure::Diffusion(OutputKind::Video) => Self {
                item: "video",
                energy_long: "J per video",
                energy_unit: "J/video",
                energy_key: "joules_per_video",
                latency: "batch latency",
                latency_short: "batch latency",
                latency_intro: "batch latency (the time to generate one batch of videos)",
                latency_unit: "s",
                load: "batch size",
                task: "video generation",
                energy_phrase: "GPU energy per video",
                bib_task: "video generation",
                tighter: "smaller batches or more GPUs",
                unit_item: "video",
                anchor_example: "h100-2-b1-u2r1",
                grouping: "grouped by GPU count, sequence parallelism, precision, output size and steps, ordered by batch size",
            },
        }
    }
}

/// The columns of each table a workload's pages show.
#[derive(Debug, Clone, Copy)]
pub struct Tables {
    /// The leaderboard.
    pub leaderboard: &'static [&'static str],
    /// A GPU page: the leaderboard's, less the GPU and the model facts.
    pub gpu_page: &'static [&'static str],
    /// A model page's table of every configuration.
    pub configurations: &'static [&'static str],
    /// The CSV files (every configuration, and after `rank` the
    /// leaderboard).
    pub csv: &'static [&'static str],
}

/// What the pages need to know about one kind of model file, beyond the
/// analysis and the charts.
pub trait PageKind: Measures + PageCharts + Sync + Sized + std::fmt::Debug {
    /// The kind's columns (definitions and about-page anchors).
    const COLUMNS: ColumnSet;

    /// The columns of each table of a workload that measures `measure`.
    fn tables(measure: Measure) -> Tables;

    /// The cell of column `key` (see [`crate::columns`]) for configuration
    /// `c` of model `m`: the figure in its page format, with its raw value
    /// for sorting.
    ///
    /// # Panics
    /// On a key that is not a figure column of the kind: a programming
    /// error the page tests catch.
    fn figure_cell(key: &str, m: &Self, c: &Self::Config) -> Cell;

    /// The whole configuration in a phrase: "2 × H100, TP2, BF16, max
    /// concurrency 256".
    fn config_summary(c: &Self::Config) -> String;

    /// The setup beside a best figure on the comparison: "2 × H100, TP2,
    /// BF16, 256 seqs".
    fn compare_setup(c: &Self::Config) -> String;

    /// The headline energy in its page format, without the unit:
    /// "39.05".
    fn energy_figure(c: &Self::Config) -> String;

    /// "32.8 B total, 32.8 B active" (per token) or "12.0 B".
    fn parameters(m: &Self) -> String;

    /// Facts of a model page beyond those every kind has.
    fn output_facts(_m: &Self) -> Vec<(String, String)> {
        Vec::new()
    }

    /// The title of a group of a configuration table: "2 × H100, TP2,
    /// BF16".
    fn group_title(first: &Self::Config) -> String;

    /// A cell of the latency-budget table: "39.05 Wh/M — 1 × B200, 384
    /// seqs, 41.9 ms".
    fn budget_text(c: &Self::Config) -> String;

    /// The figures of a best-per-GPU card.
    fn card_figures(c: &Self::Config) -> Vec<(String, String)>;

    /// One CSV record of `c`, in the order of [`Tables::csv`].
    fn csv_record(workload: &str, m: &Self, c: &Self::Config) -> Vec<String>;

    /// Whether `c` is within the file's own deadline flag.
    fn under_deadline(c: &Self::Config) -> bool;

    /// What carbon and cost are counted per, headline first: per million
    /// output tokens and per response, or per image or video.
    fn footprint_bases(c: &Self::Config) -> Vec<Basis>;

    /// The configuration's output-length histogram and its energy per
    /// output token (J), when the data carry one.
    fn output_lengths(_c: &Self::Config) -> Option<(&OutputLengthDistribution, f64)> {
        None
    }
}

/// An energy figure carbon and cost are computed from.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Basis {
    /// What it is counted per, in words: "per million tokens".
    pub per: &'static str,
    /// The energy, Wh.
    pub wh: f64,
}

/// Columns of the per-token leaderboard, in order.
const LEADERBOARD_COLUMNS: [&str; 16] = [
    "model",
    "gpu",
    "num_gpus",
    "parallelism",
    "precision",
    "max_num_seqs",
    "wh_per_million_output_tokens",
    "joules_per_output_token",
    "wh_per_response",
    "median_itl_ms",
    "p99_itl_ms",
    "tokens_per_second",
    "gpu_power_watts",
    "params_billion",
    "active_params_billion",
    "architecture",
];

/// Columns of a per-token GPU page: the leaderboard's, less the GPU and the
/// model facts.
const GPU_PAGE_COLUMNS: [&str; 12] = [
    "model",
    "num_gpus",
    "parallelism",
    "precision",
    "max_num_seqs",
    "wh_per_million_output_tokens",
    "joules_per_output_token",
    "wh_per_response",
    "median_itl_ms",
    "p99_itl_ms",
    "tokens_per_second",
    "gpu_power_watts",
];

/// Columns of a per-token model page's configuration tables.
const CONFIG_COLUMNS: [&str; 13] = [
    "max_num_seqs",
    "wh_per_million_output_tokens",
    "joules_per_output_token",
    "wh_per_response",
    "median_itl_ms",
    "p90_itl_ms",
    "p95_itl_ms",
    "p99_itl_ms",
    "tokens_per_second",
    "gpu_power_watts",
    "avg_output_tokens",
    "avg_running_batch",
    "repeat",
];

/// Columns of `configurations.csv` and of each per-token model's CSV.
const CSV_COLUMNS: [&str; 34] = [
    "workload",
    "model_slug",
    "model",
    "model_id",
    "params_billion",
    "active_params_billion",
    "architecture",
    "row_id",
    "gpu",
    "num_gpus",
    "tensor_parallel",
    "expert_parallel",
    "data_parallel",
    "precision",
    "max_num_seqs",
    "repeat",
    "wh_per_million_output_tokens",
    "joules_per_output_token",
    "wh_per_response",
    "joules_per_response",
    "tokens_per_wh",
    "median_itl_ms",
    "p90_itl_ms",
    "p95_itl_ms",
    "p99_itl_ms",
    "tokens_per_second",
    "gpu_power_watts",
    "avg_output_tokens",
    "avg_requests_in_flight",
    "avg_running_batch",
    "under_itl_deadline",
    "itl_deadline_ms",
    "data_version",
    "parallelism",
];

impl PageKind for ModelFile {
    const COLUMNS: ColumnSet = PER_TOKEN;

    fn tables(_: Measure) -> Tables {
        Tables {
            leaderboard: &LEADERBOARD_COLUMNS,
            gpu_page: &GPU_PAGE_COLUMNS,
            configurations: &CONFIG_COLUMNS,
            csv: &CSV_COLUMNS,
        }
    }

    fn figure_cell(key: &str, m: &ModelFile, c: &Configuration) -> Cell {
        let whole = |v: u32| num(v.to_string(), f64::from(v));
        match key {
            "num_gpus" => whole(c.num_gpus),
            "max_num_seqs" => whole(c.max_num_seqs),
            "repeat" => whole(c.repeat),
            "parallelism" => text(c.parallelism()),
            "precision" => text(c.precision.clone()),
            "architecture" => text(m.architecture.clone()),
            "wh_per_million_output_tokens" => num(
                fmt::wh_per_million(c.wh_per_million_output_tokens),
                c.wh_per_million_output_tokens,
            ),
            "joules_per_output_token" => num(
                fmt::joules_per_token(c.joules_per_output_token),
                c.joules_per_output_token,
            ),
            "wh_per_response" => num(
                fmt::wh_per_response(c.wh_per_response()),
                c.wh_per_response(),
            ),
            "median_itl_ms" => num(fmt::ms(c.median_itl_ms), c.median_itl_ms),
            "p90_itl_ms" => num(fmt::ms(c.p90_itl_ms), c.p90_itl_ms),
            "p95_itl_ms" => num(fmt::ms(c.p95_itl_ms), c.p95_itl_ms),
            "p99_itl_ms" => num(fmt::ms(c.p99_itl_ms), c.p99_itl_ms),
            "tokens_per_second" => num(fmt::grouped(c.tokens_per_second), c.tokens_per_second),
            "gpu_power_watts" => num(
                fmt::grouped(c.gpu_power_watts_total),
                c.gpu_power_watts_total,
            ),
            "avg_output_tokens" => num(fmt::grouped(c.avg_output_tokens), c.avg_output_tokens),
            "avg_running_batch" => num(fmt::fixed(c.avg_running_batch, 1), c.avg_running_batch),
            "params_billion" => num(fmt::params_b(m.params_b), m.params_b),
            "active_params_billion" => num(fmt::params_b(m.active_params_b), m.active_params_b),
            other => panic!("no figure column {other:?}"),
        }
    }

    fn config_summary(c: &Configuration) -> String {
        format!(
            "{}, {}, max concurrency {}",
            gpu_setup(c),
            c.precision,
            c.max_num_seqs
        )
    }

    fn compare_setup(c: &Configuration) -> String {
        format!("{}, {}, {} seqs", gpu_setup(c), c.precision, c.max_num_seqs)
    }

    fn energy_figure(c: &Configuration) -> String {
        fmt::wh_per_million(c.wh_per_million_output_tokens)
    }

    fn parameters(m: &ModelFile) -> String {
        format!(
            "{} B total, {} B active",
            fmt::params_b(m.params_b),
            fmt::params_b(m.active_params_b)
        )
    }

    fn group_title(first: &Configuration) -> String {
        format!("{}, {}", gpu_setup(first), first.precision)
    }

    fn budget_text(c: &Configuration) -> String {
        format!(
            "{} Wh/M — {}, {} seqs, {} ms",
            fmt::wh_per_million(c.wh_per_million_output_tokens),
            gpu_setup(c),
            c.max_num_seqs,
            fmt::ms(c.median_itl_ms)
        )
    }

    fn card_figures(c: &Configuration) -> Vec<(String, String)> {
        vec![
            (
                "Energy per million tokens".into(),
                format!(
                    "{} Wh/M tok",
                    fmt::wh_per_million(c.wh_per_million_output_tokens)
                ),
            ),
            (
                "Energy per token".into(),
                format!("{} J/tok", fmt::joules_per_token(c.joules_per_output_token)),
            ),
            (
                "Energy per response".into(),
                format!(
                    "{} Wh ({} J)",
                    fmt::wh_per_response(c.wh_per_response()),
                    fmt::joules_per_response(c.joules_per_response())
                ),
            ),
            (
                "Tokens per Wh".into(),
                format!("{} tok/Wh", fmt::grouped(c.tokens_per_wh())),
            ),
            (
                "Median ITL".into(),
                format!("{} ms", fmt::ms(c.median_itl_ms)),
            ),
            ("p99 ITL".into(), format!("{} ms", fmt::ms(c.p99_itl_ms))),
            (
                "Throughput".into(),
                format!("{} tok/s", fmt::grouped(c.tokens_per_second)),
            ),
            (
                "GPU power".into(),
                format!("{} W", fmt::grouped(c.gpu_power_watts_total)),
            ),
        ]
    }

    fn csv_record(workload: &str, m: &ModelFile, c: &Configuration) -> Vec<String> {
        vec![
            cell(workload),
            cell(&m.slug),
            cell(&m.name),
            cell(&m.model_id),
            raw(m.params_b),
            raw(m.active_params_b),
            cell(&m.architecture),
            cell(&c.row_id),
            cell(&c.gpu),
            c.num_gpus.to_string(),
            c.tensor_parallel.to_string(),
            c.expert_parallel.to_string(),
            c.data_parallel.to_string(),
            cell(&c.precision),
            c.max_num_seqs.to_string(),
            c.repeat.to_string(),
            raw(c.wh_per_million_output_tokens),
            raw(c.joules_per_output_token),
            raw(c.wh_per_response()),
            raw(c.joules_per_response()),
            raw(c.tokens_per_wh()),
            raw(c.median_itl_ms),
            raw(c.p90_itl_ms),
            raw(c.p95_itl_ms),
            raw(c.p99_itl_ms),
            raw(c.tokens_per_second),
            raw(c.gpu_power_watts_total),
            raw(c.avg_output_tokens),
            raw(c.avg_requests_in_flight),
            raw(c.avg_running_batch),
            c.under_itl_deadline.to_string(),
            raw(m.itl_deadline_ms),
            cell(&m.data_version),
            cell(&c.parallelism()),
        ]
    }

    fn under_deadline(c: &Configuration) -> bool {
        c.under_itl_deadline
    }

    fn footprint_bases(c: &Configuration) -> Vec<Basis> {
        vec![
            Basis {
                per: "per million tokens",
                wh: c.wh_per_million_output_tokens,
            },
            Basis {
                per: "per response",
                wh: c.wh_per_response(),
            },
        ]
    }

    fn output_lengths(c: &Configuration) -> Option<(&OutputLengthDistribution, f64)> {
        c.output_length_distribution
            .as_ref()
            .map(|d| (d, c.joules_per_output_token))
    }
}

/// Columns of a text-to-image leaderboard.
const IMAGE_LEADERBOARD: [&str; 14] = [
    "model",
    "gpu",
    "num_gpus",
    "parallelism",
    "precision",
    "batch_size",
    "joules_per_image",
    "wh_per_image",
    "batch_latency_s",
    "images_per_second",
    "gpu_power_watts",
    "resolution",
    "inference_steps",
    "params_billion",
];

/// Columns of a text-to-video leaderboard.
const VIDEO_LEADERBOARD: [&str; 15] = [
    "model",
    "gpu",
    "num_gpus",
    "parallelism",
    "precision",
    "batch_size",
    "joules_per_video",
    "wh_per_video",
    "joules_per_video_second",
    "batch_latency_s",
    "videos_per_second",
    "gpu_power_watts",
    "resolution",
    "inference_steps",
    "params_billion",
];

const IMAGE_GPU_PAGE: [&str; 10] = [
    "model",
    "num_gpus",
    "parallelism",
    "precision",
    "batch_size",
    "joules_per_image",
    "wh_per_image",
    "batch_latency_s",
    "images_per_second",
    "gpu_power_watts",
];

const VIDEO_GPU_PAGE: [&str; 11] = [
    "model",
    "num_gpus",
    "parallelism",
    "precision",
    "batch_size",
    "joules_per_video",
    "wh_per_video",
    "joules_per_video_second",
    "batch_latency_s",
    "videos_per_second",
    "gpu_power_watts",
];

const IMAGE_CONFIGS: [&str; 9] = [
    "batch_size",
    "joules_per_image",
    "wh_per_image",
    "images_per_kwh",
    "batch_latency_s",
    "images_per_second",
    "gpu_power_watts",
    "inference_steps",
    "repeat",
];

const VIDEO_CONFIGS: [&str; 10] = [
    "batch_size",
    "joules_per_video",
    "wh_per_video",
    "joules_per_video_second",
    "videos_per_kwh",
    "batch_latency_s",
    "videos_per_second",
    "gpu_power_watts",
    "inference_steps",
    "repeat",
];

/// Columns of `configurations-image.csv` and each image model's CSV.
const IMAGE_CSV: [&str; 28] = [
    "workload",
    "model_slug",
    "model",
    "model_id",
    "params_billion",
    "architecture",
    "row_id",
    "gpu",
    "num_gpus",
    "ulysses_degree",
    "ring_degree",
    "precision",
    "batch_size",
    "inference_steps",
    "image_height",
    "image_width",
    "repeat",
    "joules_per_image",
    "wh_per_image",
    "images_per_kwh",
    "batch_latency_s",
    "images_per_second",
    "gpu_power_watts",
    "under_latency_deadline",
    "batch_latency_deadline_s",
    "data_version",
    "parallelism",
    "resolution",
];

/// Columns of `configurations-video.csv` and each video model's CSV.
const VIDEO_CSV: [&str; 32] = [
    "workload",
    "model_slug",
    "model",
    "model_id",
    "params_billion",
    "architecture",
    "row_id",
    "gpu",
    "num_gpus",
    "ulysses_degree",
    "ring_degree",
    "precision",
    "batch_size",
    "inference_steps",
    "video_height",
    "video_width",
    "num_frames",
    "fps",
    "video_seconds",
    "repeat",
    "joules_per_video",
    "wh_per_video",
    "videos_per_kwh",
    "joules_per_video_second",
    "batch_latency_s",
    "videos_per_second",
    "gpu_power_watts",
    "under_latency_deadline",
    "batch_latency_deadline_s",
    "data_version",
    "parallelism",
    "resolution",
];

/// An optional whole number as a CSV cell ("" when absent).
fn raw_opt<T: ToString>(v: Option<T>) -> String {
    v.map(|v| v.to_string()).unwrap_or_default()
}

impl PageKind for DiffusionFile {
    const COLUMNS: ColumnSet = DIFFUSION;

    fn tables(measure: Measure) -> Tables {
        match measure {
            Measure::Diffusion(OutputKind::Video) => Tables {
                leaderboard: &VIDEO_LEADERBOARD,
                gpu_page: &VIDEO_GPU_PAGE,
                configurations: &VIDEO_CONFIGS,
                csv: &VIDEO_CSV,
            },
            _ => Tables {
                leaderboard: &IMAGE_LEADERBOARD,
                gpu_page: &IMAGE_GPU_PAGE,
                configurations: &IMAGE_CONFIGS,
                csv: &IMAGE_CSV,
            },
        }
    }

    fn figure_cell(key: &str, m: &DiffusionFile, c: &DiffusionConfiguration) -> Cell {
        let whole = |v: u32| num(v.to_string(), f64::from(v));
        let energy = c.joules_per_item();
        match key {
            "num_gpus" => whole(c.num_gpus),
            "batch_size" => whole(c.batch_size),
            "inference_steps" => whole(c.inference_steps),
            "repeat" => whole(c.repeat),
            "parallelism" => text(c.parallelism()),
            "precision" => text(c.precision.clone()),
            "architecture" => text(m.architecture.clone()),
            "resolution" => text(c.resolution()),
            "joules_per_image" | "joules_per_video" => num(fmt::joules_per_item(energy), energy),
            "wh_per_image" | "wh_per_video" => {
                num(fmt::wh_per_item(c.wh_per_item()), c.wh_per_item())
            }
            "images_per_kwh" | "videos_per_kwh" => {
                num(fmt::items_per_kwh(c.items_per_kwh()), c.items_per_kwh())
            }
            "joules_per_video_second" => {
                let v = c.joules_per_video_second().unwrap_or(f64::NAN);
                num(fmt::grouped(v), v)
            }
            "batch_latency_s" => num(fmt::seconds(c.batch_latency_s), c.batch_latency_s),
            "images_per_second" | "videos_per_second" => {
                num(fmt::rate(c.items_per_second()), c.items_per_second())
            }
            "gpu_power_watts" => num(
                fmt::grouped(c.gpu_power_watts_total),
                c.gpu_power_watts_total,
            ),
            "params_billion" => num(fmt::params_b(m.params_b), m.params_b),
            other => panic!("no diffusion figure column {other:?}"),
        }
    }

    fn config_summary(c: &DiffusionConfiguration) -> String {
        format!(
            "{}, {}, batch size {}",
            gpu_setup(c),
            c.precision,
            c.batch_size
        )
    }

    fn compare_setup(c: &DiffusionConfiguration) -> String {
        format!("{}, {}, batch {}", gpu_setup(c), c.precision, c.batch_size)
    }

    fn energy_figure(c: &DiffusionConfiguration) -> String {
        fmt::joules_per_item(c.joules_per_item())
    }

    fn parameters(m: &DiffusionFile) -> String {
        format!("{} B", fmt::params_b(m.params_b))
    }

    fn output_facts(m: &DiffusionFile) -> Vec<(String, String)> {
        let distinct = |f: &dyn Fn(&DiffusionConfiguration) -> String| {
            let mut v: Vec<String> = m.configurations.iter().map(f).collect();
            v.sort();
            v.dedup();
            v.join("; ")
        };
        vec![
            (
                "Output".to_owned(),
                distinct(&DiffusionConfiguration::resolution),
            ),
            (
                "Denoising steps".to_owned(),
                distinct(&|c| c.inference_steps.to_string()),
            ),
        ]
    }

    fn group_title(first: &DiffusionConfiguration) -> String {
        format!(
            "{}, {}, {}, {} steps",
            gpu_setup(first),
            first.precision,
            first.resolution(),
            first.inference_steps
        )
    }

    fn budget_text(c: &DiffusionConfiguration) -> String {
        format!(
            "{} J — {}, batch {}, {} s",
            fmt::joules_per_item(c.joules_per_item()),
            gpu_setup(c),
            c.batch_size,
            fmt::seconds(c.batch_latency_s)
        )
    }

    fn card_figures(c: &DiffusionConfiguration) -> Vec<(String, String)> {
        let item = if c.joules_per_video.is_some() {
            "video"
        } else {
            "image"
        };
        let mut figures = vec![
            (
                format!("Energy per {item}"),
                format!("{} J", fmt::joules_per_item(c.joules_per_item())),
            ),
            (
                "In watt-hours".to_owned(),
                format!("{} Wh", fmt::wh_per_item(c.wh_per_item())),
            ),
            (
                format!("{}s per kWh", capitalised(item)),
                fmt::items_per_kwh(c.items_per_kwh()),
            ),
        ];
        if let Some(per_second) = c.joules_per_video_second() {
            figures.push((
                "Per second of video".into(),
                format!("{} J/s", fmt::grouped(per_second)),
            ));
        }
        figures.extend([
            (
                "Batch latency".into(),
                format!("{} s", fmt::seconds(c.batch_latency_s)),
            ),
            (
                "Throughput".into(),
                format!("{} {item}s/s", fmt::rate(c.items_per_second())),
            ),
            (
                "GPU power".into(),
                format!("{} W", fmt::grouped(c.gpu_power_watts_total)),
            ),
        ]);
        figures
    }

    fn csv_record(workload: &str, m: &DiffusionFile, c: &DiffusionConfiguration) -> Vec<String> {
        let mut out = vec![
            cell(workload),
            cell(&m.slug),
            cell(&m.name),
            cell(&m.model_id),
            raw(m.params_b),
            cell(&m.architecture),
            cell(&c.row_id),
            cell(&c.gpu),
            c.num_gpus.to_string(),
            c.ulysses_degree.to_string(),
            c.ring_degree.to_string(),
            cell(&c.precision),
            c.batch_size.to_string(),
            c.inference_steps.to_string(),
        ];
        match m.kind {
            OutputKind::Image => out.extend([
                raw_opt(c.image_height),
                raw_opt(c.image_width),
                c.repeat.to_string(),
                raw(c.joules_per_item()),
                raw(c.wh_per_item()),
                raw(c.items_per_kwh()),
            ]),
            OutputKind::Video => out.extend([
                raw_opt(c.video_height),
                raw_opt(c.video_width),
                raw_opt(c.num_frames),
                c.fps.map(raw).unwrap_or_default(),
                c.video_seconds().map(raw).unwrap_or_default(),
                c.repeat.to_string(),
                raw(c.joules_per_item()),
                raw(c.wh_per_item()),
                raw(c.items_per_kwh()),
                c.joules_per_video_second().map(raw).unwrap_or_default(),
            ]),
        }
        out.extend([
            raw(c.batch_latency_s),
            raw(c.items_per_second()),
            raw(c.gpu_power_watts_total),
            c.under_latency_deadline.to_string(),
            raw(m.batch_latency_deadline_s),
            cell(&m.data_version),
            cell(&c.parallelism()),
            cell(&c.resolution()),
        ]);
        out
    }

    fn footprint_bases(c: &DiffusionConfiguration) -> Vec<Basis> {
        vec![Basis {
            per: if c.joules_per_video.is_some() {
                "per video"
            } else {
                "per image"
            },
            wh: c.wh_per_item(),
        }]
    }

    fn under_deadline(c: &DiffusionConfiguration) -> bool {
        c.under_latency_deadline
    }
}

/// "image" → "Image".
/// The GPUs and how the model is split over them, for either kind:
/// "2 × H100, TP2", "4 × B200, U2·R2", or "1 × H100" without parallelism.
fn gpu_setup(c: &impl Measured) -> String {
    let par = c.parallelism();
    if par == "none" {
        format!("{} × {}", c.num_gpus(), c.gpu())
    } else {
        format!("{} × {}, {}", c.num_gpus(), c.gpu(), par)
    }
}

fn capitalised(word: &str) -> String {
    let mut chars = word.chars();
    chars.next().map_or_else(String::new, |first| {
        first.to_uppercase().chain(chars).collect()
    })
}
