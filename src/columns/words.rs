//! The words and units of each kind of measurement ([`Words::of`]): what
//! energy is counted per, the headline energy's and the latency's units,
//! the load, and their page formats. The units a column also shows are
//! read from that column, so each is written once.

use super::{diffusion, tokens};
use crate::fmt;
use crate::model::{Measure, OutputKind};

/// The per-token headline energy's short unit: watt-hours per million output tokens.
const WH_PER_MILLION: &str = "Wh/M";

/// The words and number formats of a kind of measurement, in one place:
/// pages, charts and the loader's messages all read them.
#[derive(Debug, Clone, Copy)]
pub struct Words {
    /// What energy is counted per: "output token", "image", "video".
    pub item: &'static str,
    /// The headline energy's unit in words: "Wh per million output tokens";
    /// also the `unit` a model file of the kind must state.
    pub energy_long: &'static str,
    /// The headline energy's unit in a table header: "Wh/M tok".
    pub energy_unit: &'static str,
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
    /// What a chart against the load is drawn at: "concurrency", "batch size".
    pub load_short: &'static str,
    /// What is measured: "AI inference", "image generation".
    pub task: &'static str,
    /// The headline energy in a phrase: "GPU energy per million output tokens".
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
    /// The headline energy's short unit on charts and in messages: "Wh/M".
    pub energy_short: &'static str,
    /// The same where the item is understood, beside a configuration's
    /// other figures: "Wh/M", "J".
    pub energy_bare: &'static str,
    /// The energy in a chart's sentence: "energy per million output tokens".
    pub energy_per: &'static str,
    /// The load axis: "Concurrency (max_num_seqs)".
    pub load_axis: &'static str,
    /// A load in a chart description: "384" or "batch size 4".
    pub load_phrase: fn(u32) -> String,
    /// An energy in its page format.
    pub energy_text: fn(f64) -> String,
    /// A latency in its page format.
    pub latency_text: fn(f64) -> String,
    /// The latency budgets (in the latency's unit) for which each model's
    /// cheapest configuration is shown, besides the deadline; rungs above
    /// a model's deadline are left out.
    pub ladder: &'static [f64],
}

impl Words {
    /// The words of a kind of measurement.
    pub fn of(measure: Measure) -> &'static Words {
        match measure {
            Measure::Tokens => &TOKENS,
            Measure::Diffusion(OutputKind::Image) => &IMAGES,
            Measure::Diffusion(OutputKind::Video) => &VIDEOS,
        }
    }

    /// The energy axis: "Energy (Wh per million output tokens)".
    pub fn energy_axis(&self) -> String {
        format!("Energy ({})", self.energy_long)
    }

    /// The latency axis: "Median inter-token latency (ms)".
    pub fn latency_axis(&self) -> String {
        format!("{} ({})", fmt::capitalised(self.latency), self.latency_unit)
    }

    /// The latency as a table header: "Median ITL (ms)".
    pub fn latency_header(&self) -> String {
        format!(
            "{} ({})",
            fmt::capitalised(self.latency_short),
            self.latency_unit
        )
    }
}

static TOKENS: Words = Words {
    item: "output token",
    energy_long: "Wh per million output tokens",
    energy_unit: tokens::WH_PER_MILLION_OUTPUT_TOKENS.unit,
    latency: "median inter-token latency",
    latency_short: "median ITL",
    latency_intro: "median inter-token latency (ITL)",
    latency_unit: tokens::MEDIAN_ITL_MS.unit,
    load: "max concurrency",
    load_short: "concurrency",
    task: "AI inference",
    energy_phrase: "GPU energy per million output tokens",
    bib_task: "LLM inference",
    tighter: "lower concurrency",
    unit_item: "token",
    anchor_example: "h100-2-256",
    grouping: "grouped by GPU count, parallelism and precision, ordered by max concurrency",
    energy_short: WH_PER_MILLION,
    energy_bare: WH_PER_MILLION,
    energy_per: "energy per million output tokens",
    load_axis: "Concurrency (max_num_seqs)",
    load_phrase: |load| load.to_string(),
    energy_text: fmt::wh_per_million,
    latency_text: fmt::ms,
    ladder: &[25.0, 50.0, 100.0, 200.0],
};

const IMAGES: Words = Words {
    item: "image",
    energy_long: "J per image",
    energy_unit: diffusion::JOULES_PER_IMAGE.unit,
    latency: "batch latency",
    latency_short: "batch latency",
    latency_intro: "batch latency (the time to generate one batch of images)",
    latency_unit: diffusion::BATCH_LATENCY_S.unit,
    load: "batch size",
    load_short: "batch size",
    task: "image generation",
    energy_phrase: "GPU energy per image",
    bib_task: "image generation",
    tighter: "smaller batches or more GPUs",
    unit_item: "image",
    anchor_example: "h100-2-b1-u2r1",
    grouping: "grouped by GPU count, sequence parallelism, precision, output size and steps, \
        ordered by batch size",
    energy_short: diffusion::JOULES_PER_IMAGE.unit,
    energy_bare: super::JOULES,
    energy_per: "energy per image",
    // From one fast image to a batch of several (the deadline is 30 s
    // upstream).
    ladder: &[2.0, 5.0, 10.0, 20.0],
    load_axis: "Batch size (items per batch)",
    load_phrase: |load| format!("batch size {load}"),
    energy_text: fmt::energy_per_item,
    latency_text: fmt::seconds,
};

static VIDEOS: Words = Words {
    item: "video",
    energy_long: "J per video",
    energy_unit: diffusion::JOULES_PER_VIDEO.unit,
    latency_intro: "batch latency (the time to generate one batch of videos)",
    task: "video generation",
    energy_phrase: "GPU energy per video",
    bib_task: "video generation",
    unit_item: "video",
    energy_short: diffusion::JOULES_PER_VIDEO.unit,
    energy_per: "energy per video",
    // One, two and about three minutes a batch (the deadline is 300 s
    // upstream).
    ladder: &[60.0, 120.0, 200.0],
    ..IMAGES
};
