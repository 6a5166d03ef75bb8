//! What the pages need to know about each kind of measurement: per-token
//! workloads ([`ModelFile`]) measure energy per output token against median
//! inter-token latency and concurrency; diffusion workloads
//! ([`ModelFile`]) energy per image or video against batch latency and
//! batch size. Every page of a workload is rendered once, generically, from
//! these words, columns and cells.

use crate::chart::PageCharts;
use crate::columns::{Column, ColumnSet, DIFFUSION, FootprintColumn, PER_TOKEN, Shown, diffusion, tokens};
use crate::fmt;
pub use crate::model::Words;
use crate::model::{Configuration, ModelFile, Measured, OutputKind};
use crate::workload::Measure;

/// The columns of each table a workload's pages show, in order.
pub struct Tables<C: Measured + 'static> {
    /// The kind's columns: definitions and about-page anchors.
    pub set: ColumnSet<C>,
    /// The rank, first column of the leaderboard CSV files.
    pub rank: &'static Column<C>,
    /// The headline energy: what the leaderboard ranks on.
    pub headline: &'static Column<C>,
    /// The model's own facts, first the model (the comparison's columns
    /// before its GPUs).
    pub model_facts: &'static [&'static Column<C>],
    /// The leaderboard.
    pub leaderboard: &'static [Shown<C>],
    /// The keys of the leaderboard's and GPU page's columns shown before
    /// the reader chooses more with the column chooser.
    pub essential: &'static [&'static str],
    /// A GPU page: the leaderboard's, less the GPU and the model facts.
    pub gpu_page: &'static [Shown<C>],
    /// A model page's table of every configuration.
    pub configurations: &'static [&'static Column<C>],
    /// The CSV files (every configuration, and after `rank` the
    /// leaderboard).
    pub csv: &'static [&'static Column<C>],
    /// The figures of a best configuration's card, each with its unit; a
    /// column a configuration has no value for is left out.
    pub card: &'static [&'static Column<C>],
}

/// A configuration's card figures ([`Tables::card`]): each column's label,
/// and its value with its unit.
pub fn card_figures<C: Measured>(
    tables: &Tables<C>,
    record: &crate::columns::Record<'_, C>,
) -> Vec<(String, String)> {
    tables
        .card
        .iter()
        .filter_map(|c| match c.value(record) {
            crate::columns::Value::Missing => None,
            v => Some((c.label.to_owned(), format!("{} {}", v.page(), c.unit))),
        })
        .collect()
}

impl<C: Measured> Clone for Tables<C> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<C: Measured> Copy for Tables<C> {}

impl<C: Measured> std::fmt::Debug for Tables<C> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Tables")
            .field("headline", &self.headline.key)
            .finish_non_exhaustive()
    }
}

/// What the pages need to know about one kind of model file, beyond the
/// analysis and the charts.
pub trait PageKind: PageCharts + Sync + Sized + std::fmt::Debug + 'static {
    /// The columns of each table of a workload that measures `measure`.
    fn tables(measure: Measure) -> Tables<Self>;

    /// The whole configuration in a phrase: "2 × H100, TP2, BF16, max
    /// concurrency 256".
    fn config_summary(c: &Self) -> String;

    /// The setup beside a best figure on the comparison: "2 × H100, TP2,
    /// BF16, 256 seqs".
    fn compare_setup(c: &Self) -> String;

    /// The headline energy in its page format, without the unit:
    /// "39.05".
    fn energy_figure(c: &Self) -> String;

    /// "32.8 B total, 32.8 B active" (per token) or "12.0 B".
    fn parameters(m: &ModelFile<Self>) -> String;

    /// Facts of a model page beyond those every kind has.
    fn output_facts(_m: &ModelFile<Self>) -> Vec<(String, String)> {
        Vec::new()
    }

    /// The title of a group of a configuration table: "2 × H100, TP2,
    /// BF16".
    fn group_title(first: &Self) -> String;

    /// A cell of the latency-budget table: "39.05 Wh/M — 1 × B200, 384
    /// seqs, 41.9 ms".
    fn budget_text(c: &Self) -> String;

    /// Whether `c` is within the file's own deadline flag.
    fn under_deadline(c: &Self) -> bool;

    /// What carbon and cost are counted per, headline first: per million
    /// output tokens and per response, or per image or video.
    fn footprint_bases(c: &Self) -> Vec<Basis>;
}

/// An energy figure carbon and cost are computed from.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Basis {
    /// What it is counted per, in words: "per million tokens".
    pub per: &'static str,
    /// The energy, Wh.
    pub wh: f64,
}

/// Columns of the per-token leaderboard, in order: the essential columns
/// first (shown by default, [`TOKEN_ESSENTIAL`]), then the rest, which the
/// reader shows with the column chooser.
const LEADERBOARD_COLUMNS: &[Shown<Configuration>] = &[
    Shown::Figure(&tokens::MODEL),
    Shown::Figure(&tokens::GPU),
    Shown::Figure(&tokens::NUM_GPUS),
    Shown::Figure(&tokens::WH_PER_MILLION_OUTPUT_TOKENS),
    Shown::Figure(&tokens::JOULES_PER_RESPONSE),
    Shown::Figure(&tokens::MEDIAN_ITL_MS),
    Shown::Figure(&tokens::TOKENS_PER_SECOND),
    Shown::Figure(&tokens::PARALLELISM),
    Shown::Figure(&tokens::PRECISION),
    Shown::Figure(&tokens::MAX_NUM_SEQS),
    Shown::Footprint(FootprintColumn::Carbon),
    Shown::Footprint(FootprintColumn::Cost),
    Shown::Figure(&tokens::P99_ITL_MS),
    Shown::Figure(&tokens::PARAMS_BILLION),
    Shown::Figure(&tokens::ACTIVE_PARAMS_BILLION),
    Shown::Figure(&tokens::ARCHITECTURE),
];

/// The per-token columns a leaderboard or GPU page shows before the reader
/// chooses more: what answers "which model and GPU use least energy, and at
/// what latency".
const TOKEN_ESSENTIAL: &[&str] = &[
    tokens::MODEL.key,
    tokens::GPU.key,
    tokens::NUM_GPUS.key,
    tokens::WH_PER_MILLION_OUTPUT_TOKENS.key,
    tokens::JOULES_PER_RESPONSE.key,
    tokens::MEDIAN_ITL_MS.key,
    tokens::TOKENS_PER_SECOND.key,
];

/// Columns of a per-token GPU page: the leaderboard's, less the GPU and the
/// model facts.
const GPU_PAGE_COLUMNS: &[Shown<Configuration>] = &[
    Shown::Figure(&tokens::MODEL),
    Shown::Figure(&tokens::NUM_GPUS),
    Shown::Figure(&tokens::WH_PER_MILLION_OUTPUT_TOKENS),
    Shown::Figure(&tokens::JOULES_PER_RESPONSE),
    Shown::Figure(&tokens::MEDIAN_ITL_MS),
    Shown::Figure(&tokens::TOKENS_PER_SECOND),
    Shown::Figure(&tokens::PARALLELISM),
    Shown::Figure(&tokens::PRECISION),
    Shown::Figure(&tokens::MAX_NUM_SEQS),
    Shown::Footprint(FootprintColumn::Carbon),
    Shown::Footprint(FootprintColumn::Cost),
    Shown::Figure(&tokens::P99_ITL_MS),
    Shown::Figure(&tokens::GPU_POWER_WATTS),
];

/// Columns of a per-token model page's configuration tables.
const CONFIG_COLUMNS: &[&Column<Configuration>] = &[
    &tokens::MAX_NUM_SEQS,
    &tokens::WH_PER_MILLION_OUTPUT_TOKENS,
    &tokens::JOULES_PER_OUTPUT_TOKEN,
    &tokens::JOULES_PER_RESPONSE,
    &tokens::MEDIAN_ITL_MS,
    &tokens::P90_ITL_MS,
    &tokens::P95_ITL_MS,
    &tokens::P99_ITL_MS,
    &tokens::TOKENS_PER_SECOND,
    &tokens::GPU_POWER_WATTS,
    &tokens::AVG_OUTPUT_TOKENS,
    &tokens::AVG_RUNNING_BATCH,
    &tokens::REPEAT,
];

/// Columns of `configurations.csv` and of each per-token model's CSV.
const CSV_COLUMNS: &[&Column<Configuration>] = &[
    &tokens::WORKLOAD,
    &tokens::MODEL_SLUG,
    &tokens::MODEL,
    &tokens::MODEL_ID,
    &tokens::PARAMS_BILLION,
    &tokens::ACTIVE_PARAMS_BILLION,
    &tokens::ARCHITECTURE,
    &tokens::ROW_ID,
    &tokens::GPU,
    &tokens::NUM_GPUS,
    &tokens::TENSOR_PARALLEL,
    &tokens::EXPERT_PARALLEL,
    &tokens::DATA_PARALLEL,
    &tokens::PRECISION,
    &tokens::MAX_NUM_SEQS,
    &tokens::REPEAT,
    &tokens::WH_PER_MILLION_OUTPUT_TOKENS,
    &tokens::JOULES_PER_OUTPUT_TOKEN,
    &tokens::WH_PER_RESPONSE,
    &tokens::JOULES_PER_RESPONSE,
    &tokens::TOKENS_PER_WH,
    &tokens::MEDIAN_ITL_MS,
    &tokens::P90_ITL_MS,
    &tokens::P95_ITL_MS,
    &tokens::P99_ITL_MS,
    &tokens::TOKENS_PER_SECOND,
    &tokens::GPU_POWER_WATTS,
    &tokens::AVG_OUTPUT_TOKENS,
    &tokens::AVG_REQUESTS_IN_FLIGHT,
    &tokens::AVG_RUNNING_BATCH,
    &tokens::UNDER_ITL_DEADLINE,
    &tokens::ITL_DEADLINE_MS,
    &tokens::DATA_VERSION,
    &tokens::PARALLELISM,
];

impl PageKind for Configuration {
    fn tables(measure: Measure) -> Tables<Self> {
        if measure == Measure::Tokens {
            tokens_kind::tables(measure)
        } else {
            diffusion_kind::tables(measure)
        }
    }

    fn config_summary(c: &Self) -> String {
        if c.max_num_seqs.is_some() {
            tokens_kind::config_summary(c)
        } else {
            diffusion_kind::config_summary(c)
        }
    }

    fn compare_setup(c: &Self) -> String {
        if c.max_num_seqs.is_some() {
            tokens_kind::compare_setup(c)
        } else {
            diffusion_kind::compare_setup(c)
        }
    }

    fn energy_figure(c: &Self) -> String {
        if c.max_num_seqs.is_some() {
            tokens_kind::energy_figure(c)
        } else {
            diffusion_kind::energy_figure(c)
        }
    }

    fn parameters(m: &ModelFile) -> String {
        if m.kind.is_none() {
            tokens_kind::parameters(m)
        } else {
            diffusion_kind::parameters(m)
        }
    }

    fn output_facts(m: &ModelFile) -> Vec<(String, String)> {
        if m.kind.is_none() {
            Vec::new()
        } else {
            diffusion_kind::output_facts(m)
        }
    }

    fn group_title(first: &Self) -> String {
        if first.max_num_seqs.is_some() {
            tokens_kind::group_title(first)
        } else {
            diffusion_kind::group_title(first)
        }
    }

    fn budget_text(c: &Self) -> String {
        if c.max_num_seqs.is_some() {
            tokens_kind::budget_text(c)
        } else {
            diffusion_kind::budget_text(c)
        }
    }

    fn under_deadline(c: &Self) -> bool {
        c.under_deadline()
    }

    fn footprint_bases(c: &Self) -> Vec<Basis> {
        if c.max_num_seqs.is_some() {
            tokens_kind::footprint_bases(c)
        } else {
            diffusion_kind::footprint_bases(c)
        }
    }
}

/// The per-token kind's page words.
mod tokens_kind {
    use super::*;

    pub(super) fn tables(_: Measure) -> Tables<Configuration> {
        Tables {
            set: PER_TOKEN,
            rank: &tokens::RANK,
            headline: &tokens::WH_PER_MILLION_OUTPUT_TOKENS,
            model_facts: &[
                &tokens::MODEL,
                &tokens::ARCHITECTURE,
                &tokens::PARAMS_BILLION,
                &tokens::ACTIVE_PARAMS_BILLION,
            ],
            leaderboard: LEADERBOARD_COLUMNS,
            essential: TOKEN_ESSENTIAL,
            gpu_page: GPU_PAGE_COLUMNS,
            configurations: CONFIG_COLUMNS,
            csv: CSV_COLUMNS,
            card: &[
                &tokens::WH_PER_MILLION_OUTPUT_TOKENS,
                &tokens::JOULES_PER_OUTPUT_TOKEN,
                &tokens::JOULES_PER_RESPONSE,
                &tokens::TOKENS_PER_WH,
                &tokens::MEDIAN_ITL_MS,
                &tokens::P99_ITL_MS,
                &tokens::TOKENS_PER_SECOND,
                &tokens::GPU_POWER_WATTS,
            ],
        }
    }

    pub(super) fn config_summary(c: &Configuration) -> String {
        format!(
            "{}, {}, max concurrency {}",
            gpu_setup(c),
            c.precision,
            c.load()
        )
    }

    pub(super) fn compare_setup(c: &Configuration) -> String {
        format!("{}, {}, {} seqs", gpu_setup(c), c.precision, c.load())
    }

    pub(super) fn energy_figure(c: &Configuration) -> String {
        fmt::wh_per_million(c.energy())
    }

    pub(super) fn parameters(m: &ModelFile) -> String {
        format!(
            "{} B total, {} B active",
            fmt::params_b(m.params_b),
            fmt::params_b(m.active_params_b)
        )
    }

    pub(super) fn group_title(first: &Configuration) -> String {
        format!("{}, {}", gpu_setup(first), first.precision)
    }

    pub(super) fn budget_text(c: &Configuration) -> String {
        format!(
            "{} Wh/M — {}, {} seqs, {} ms",
            fmt::wh_per_million(c.energy()),
            gpu_setup(c),
            c.load(),
            fmt::ms(c.latency())
        )
    }


    pub(super) fn footprint_bases(c: &Configuration) -> Vec<Basis> {
        vec![
            Basis {
                per: "per million tokens",
                wh: c.energy(),
            },
            // Per 1,000 responses, so a cost reads 0.00308 rather than
            // 0.00000308 (the about page's unit policy).
            Basis {
                per: "per 1,000 responses",
                wh: c.wh_per_response().unwrap_or(f64::NAN) * 1000.0,
            },
        ]
    }
}

/// The facts of a diffusion model on the comparison.
const DIFFUSION_MODEL_FACTS: &[&Column<Configuration>] = &[
    &diffusion::MODEL,
    &diffusion::ARCHITECTURE,
    &diffusion::PARAMS_BILLION,
];

/// The diffusion columns a leaderboard or GPU page shows before the
/// reader chooses more.
const DIFFUSION_ESSENTIAL: &[&str] = &[
    diffusion::MODEL.key,
    diffusion::GPU.key,
    diffusion::NUM_GPUS.key,
    diffusion::JOULES_PER_IMAGE.key,
    diffusion::JOULES_PER_VIDEO.key,
    diffusion::BATCH_LATENCY_S.key,
    diffusion::IMAGES_PER_SECOND.key,
    diffusion::VIDEOS_PER_SECOND.key,
];

/// Columns of a text-to-image leaderboard.
const IMAGE_LEADERBOARD: &[Shown<Configuration>] = &[
    Shown::Figure(&diffusion::MODEL),
    Shown::Figure(&diffusion::GPU),
    Shown::Figure(&diffusion::NUM_GPUS),
    Shown::Figure(&diffusion::JOULES_PER_IMAGE),
    Shown::Figure(&diffusion::BATCH_LATENCY_S),
    Shown::Figure(&diffusion::IMAGES_PER_SECOND),
    Shown::Figure(&diffusion::PARALLELISM),
    Shown::Figure(&diffusion::PRECISION),
    Shown::Figure(&diffusion::BATCH_SIZE),
    Shown::Footprint(FootprintColumn::Carbon),
    Shown::Footprint(FootprintColumn::Cost),
    Shown::Figure(&diffusion::GPU_POWER_WATTS),
    Shown::Figure(&diffusion::RESOLUTION),
    Shown::Figure(&diffusion::INFERENCE_STEPS),
    Shown::Figure(&diffusion::PARAMS_BILLION),
];

/// Columns of a text-to-video leaderboard.
const VIDEO_LEADERBOARD: &[Shown<Configuration>] = &[
    Shown::Figure(&diffusion::MODEL),
    Shown::Figure(&diffusion::GPU),
    Shown::Figure(&diffusion::NUM_GPUS),
    Shown::Figure(&diffusion::JOULES_PER_VIDEO),
    Shown::Figure(&diffusion::BATCH_LATENCY_S),
    Shown::Figure(&diffusion::VIDEOS_PER_SECOND),
    Shown::Figure(&diffusion::PARALLELISM),
    Shown::Figure(&diffusion::PRECISION),
    Shown::Figure(&diffusion::BATCH_SIZE),
    Shown::Footprint(FootprintColumn::Carbon),
    Shown::Footprint(FootprintColumn::Cost),
    Shown::Figure(&diffusion::JOULES_PER_VIDEO_SECOND),
    Shown::Figure(&diffusion::GPU_POWER_WATTS),
    Shown::Figure(&diffusion::RESOLUTION),
    Shown::Figure(&diffusion::INFERENCE_STEPS),
    Shown::Figure(&diffusion::PARAMS_BILLION),
];

const IMAGE_GPU_PAGE: &[Shown<Configuration>] = &[
    Shown::Figure(&diffusion::MODEL),
    Shown::Figure(&diffusion::NUM_GPUS),
    Shown::Figure(&diffusion::JOULES_PER_IMAGE),
    Shown::Figure(&diffusion::BATCH_LATENCY_S),
    Shown::Figure(&diffusion::IMAGES_PER_SECOND),
    Shown::Figure(&diffusion::PARALLELISM),
    Shown::Figure(&diffusion::PRECISION),
    Shown::Figure(&diffusion::BATCH_SIZE),
    Shown::Footprint(FootprintColumn::Carbon),
    Shown::Footprint(FootprintColumn::Cost),
    Shown::Figure(&diffusion::GPU_POWER_WATTS),
];

const VIDEO_GPU_PAGE: &[Shown<Configuration>] = &[
    Shown::Figure(&diffusion::MODEL),
    Shown::Figure(&diffusion::NUM_GPUS),
    Shown::Figure(&diffusion::JOULES_PER_VIDEO),
    Shown::Figure(&diffusion::BATCH_LATENCY_S),
    Shown::Figure(&diffusion::VIDEOS_PER_SECOND),
    Shown::Figure(&diffusion::PARALLELISM),
    Shown::Figure(&diffusion::PRECISION),
    Shown::Figure(&diffusion::BATCH_SIZE),
    Shown::Footprint(FootprintColumn::Carbon),
    Shown::Footprint(FootprintColumn::Cost),
    Shown::Figure(&diffusion::JOULES_PER_VIDEO_SECOND),
    Shown::Figure(&diffusion::GPU_POWER_WATTS),
];

const IMAGE_CONFIGS: &[&Column<Configuration>] = &[
    &diffusion::BATCH_SIZE,
    &diffusion::JOULES_PER_IMAGE,
    &diffusion::IMAGES_PER_KWH,
    &diffusion::BATCH_LATENCY_S,
    &diffusion::IMAGES_PER_SECOND,
    &diffusion::GPU_POWER_WATTS,
    &diffusion::INFERENCE_STEPS,
    &diffusion::REPEAT,
];

const VIDEO_CONFIGS: &[&Column<Configuration>] = &[
    &diffusion::BATCH_SIZE,
    &diffusion::JOULES_PER_VIDEO,
    &diffusion::JOULES_PER_VIDEO_SECOND,
    &diffusion::VIDEOS_PER_KWH,
    &diffusion::BATCH_LATENCY_S,
    &diffusion::VIDEOS_PER_SECOND,
    &diffusion::GPU_POWER_WATTS,
    &diffusion::INFERENCE_STEPS,
    &diffusion::REPEAT,
];

/// Columns of `configurations-image.csv` and each image model's CSV.
const IMAGE_CSV: &[&Column<Configuration>] = &[
    &diffusion::WORKLOAD,
    &diffusion::MODEL_SLUG,
    &diffusion::MODEL,
    &diffusion::MODEL_ID,
    &diffusion::PARAMS_BILLION,
    &diffusion::ARCHITECTURE,
    &diffusion::ROW_ID,
    &diffusion::GPU,
    &diffusion::NUM_GPUS,
    &diffusion::ULYSSES_DEGREE,
    &diffusion::RING_DEGREE,
    &diffusion::PRECISION,
    &diffusion::BATCH_SIZE,
    &diffusion::INFERENCE_STEPS,
    &diffusion::IMAGE_HEIGHT,
    &diffusion::IMAGE_WIDTH,
    &diffusion::REPEAT,
    &diffusion::JOULES_PER_IMAGE,
    &diffusion::WH_PER_IMAGE,
    &diffusion::IMAGES_PER_KWH,
    &diffusion::BATCH_LATENCY_S,
    &diffusion::IMAGES_PER_SECOND,
    &diffusion::GPU_POWER_WATTS,
    &diffusion::UNDER_LATENCY_DEADLINE,
    &diffusion::BATCH_LATENCY_DEADLINE_S,
    &diffusion::DATA_VERSION,
    &diffusion::PARALLELISM,
    &diffusion::RESOLUTION,
];

/// Columns of `configurations-video.csv` and each video model's CSV.
const VIDEO_CSV: &[&Column<Configuration>] = &[
    &diffusion::WORKLOAD,
    &diffusion::MODEL_SLUG,
    &diffusion::MODEL,
    &diffusion::MODEL_ID,
    &diffusion::PARAMS_BILLION,
    &diffusion::ARCHITECTURE,
    &diffusion::ROW_ID,
    &diffusion::GPU,
    &diffusion::NUM_GPUS,
    &diffusion::ULYSSES_DEGREE,
    &diffusion::RING_DEGREE,
    &diffusion::PRECISION,
    &diffusion::BATCH_SIZE,
    &diffusion::INFERENCE_STEPS,
    &diffusion::VIDEO_HEIGHT,
    &diffusion::VIDEO_WIDTH,
    &diffusion::NUM_FRAMES,
    &diffusion::FPS,
    &diffusion::VIDEO_SECONDS,
    &diffusion::REPEAT,
    &diffusion::JOULES_PER_VIDEO,
    &diffusion::WH_PER_VIDEO,
    &diffusion::VIDEOS_PER_KWH,
    &diffusion::JOULES_PER_VIDEO_SECOND,
    &diffusion::BATCH_LATENCY_S,
    &diffusion::VIDEOS_PER_SECOND,
    &diffusion::GPU_POWER_WATTS,
    &diffusion::UNDER_LATENCY_DEADLINE,
    &diffusion::BATCH_LATENCY_DEADLINE_S,
    &diffusion::DATA_VERSION,
    &diffusion::PARALLELISM,
    &diffusion::RESOLUTION,
];

/// The diffusion kind's page words.
mod diffusion_kind {
    use super::*;

    pub(super) fn tables(measure: Measure) -> Tables<Configuration> {
        match measure {
            Measure::Diffusion(OutputKind::Video) => Tables {
                set: DIFFUSION,
                rank: &diffusion::RANK,
                headline: &diffusion::JOULES_PER_VIDEO,
                model_facts: DIFFUSION_MODEL_FACTS,
                leaderboard: VIDEO_LEADERBOARD,
                essential: DIFFUSION_ESSENTIAL,
                gpu_page: VIDEO_GPU_PAGE,
                configurations: VIDEO_CONFIGS,
                csv: VIDEO_CSV,
                card: &[
                    &diffusion::JOULES_PER_VIDEO,
                    &diffusion::WH_PER_VIDEO,
                    &diffusion::VIDEOS_PER_KWH,
                    &diffusion::JOULES_PER_VIDEO_SECOND,
                    &diffusion::BATCH_LATENCY_S,
                    &diffusion::VIDEOS_PER_SECOND,
                    &diffusion::GPU_POWER_WATTS,
                ],
            },
            _ => Tables {
                set: DIFFUSION,
                rank: &diffusion::RANK,
                headline: &diffusion::JOULES_PER_IMAGE,
                model_facts: DIFFUSION_MODEL_FACTS,
                leaderboard: IMAGE_LEADERBOARD,
                essential: DIFFUSION_ESSENTIAL,
                gpu_page: IMAGE_GPU_PAGE,
                configurations: IMAGE_CONFIGS,
                csv: IMAGE_CSV,
                card: &[
                    &diffusion::JOULES_PER_IMAGE,
                    &diffusion::WH_PER_IMAGE,
                    &diffusion::IMAGES_PER_KWH,
                    &diffusion::BATCH_LATENCY_S,
                    &diffusion::IMAGES_PER_SECOND,
                    &diffusion::GPU_POWER_WATTS,
                ],
            },
        }
    }

    pub(super) fn config_summary(c: &Configuration) -> String {
        format!(
            "{}, {}, batch size {}",
            gpu_setup(c),
            c.precision,
            c.load()
        )
    }

    pub(super) fn compare_setup(c: &Configuration) -> String {
        format!("{}, {}, batch {}", gpu_setup(c), c.precision, c.load())
    }

    pub(super) fn energy_figure(c: &Configuration) -> String {
        fmt::joules_per_item(c.energy())
    }

    pub(super) fn parameters(m: &ModelFile) -> String {
        format!("{} B", fmt::params_b(m.params_b))
    }

    pub(super) fn output_facts(m: &ModelFile) -> Vec<(String, String)> {
        let distinct = |f: &dyn Fn(&Configuration) -> String| {
            let mut v: Vec<String> = m.configurations.iter().map(f).collect();
            v.sort();
            v.dedup();
            v.join("; ")
        };
        vec![
            (
                "Output".to_owned(),
                distinct(&Configuration::resolution),
            ),
            (
                "Denoising steps".to_owned(),
                distinct(&|c| c.inference_steps.unwrap_or_default().to_string()),
            ),
        ]
    }

    pub(super) fn group_title(first: &Configuration) -> String {
        format!(
            "{}, {}, {}, {} steps",
            gpu_setup(first),
            first.precision,
            first.resolution(),
            first.inference_steps.unwrap_or_default()
        )
    }

    pub(super) fn budget_text(c: &Configuration) -> String {
        format!(
            "{} J — {}, batch {}, {} s",
            fmt::joules_per_item(c.energy()),
            gpu_setup(c),
            c.load(),
            fmt::seconds(c.latency())
        )
    }

    pub(super) fn footprint_bases(c: &Configuration) -> Vec<Basis> {
        vec![Basis {
            per: if c.joules_per_video.is_some() {
                "per video"
            } else {
                "per image"
            },
            wh: c.wh_per_item().unwrap_or(f64::NAN),
        }]
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

#[cfg(test)]
mod tests {
    use super::*;

    /// Every column a table or CSV file shows is defined in its kind's set,
    /// so its header links to a definition on the about page; the headline
    /// is followed by the carbon and cost columns.
    fn tables_use_the_set<C: PageKind>(measure: Measure) {
        let t = C::tables(measure);
        let keys: Vec<&str> = t.set.columns.iter().map(|c| c.key).collect();
        let shown = t
            .leaderboard
            .iter()
            .chain(t.gpu_page)
            .filter_map(|s| match s {
                Shown::Figure(c) => Some(*c),
                Shown::Footprint(_) => None,
            });
        for c in [t.rank, t.headline]
            .into_iter()
            .chain(t.model_facts.iter().copied())
            .chain(t.configurations.iter().copied())
            .chain(t.csv.iter().copied())
            .chain(shown)
        {
            assert!(
                keys.contains(&c.key),
                "{measure:?}: {} not in the set",
                c.key
            );
        }
        for list in [t.leaderboard, t.gpu_page] {
            let at = list
                .iter()
                .position(|s| matches!(s, Shown::Footprint(FootprintColumn::Carbon)))
                .expect("carbon is shown");
            assert!(matches!(
                list[at + 1],
                Shown::Footprint(FootprintColumn::Cost)
            ));
            // The essential columns come first, the headline among them, so
            // the default view is the table's left part.
            let essential: Vec<bool> = list
                .iter()
                .map(|s| matches!(s, Shown::Figure(c) if t.essential.contains(&c.key)))
                .collect();
            let first = essential.iter().take_while(|e| **e).count();
            assert!(
                essential[first..].iter().all(|e| !e),
                "{measure:?}: an essential column after an optional one"
            );
            assert!(
                list[..first]
                    .iter()
                    .any(|s| matches!(s, Shown::Figure(c) if c.key == t.headline.key))
            );
        }
        assert_eq!(t.model_facts[0].key, "model");
    }

    #[test]
    fn every_table_column_is_defined_in_its_set() {
        tables_use_the_set::<Configuration>(Measure::Tokens);
        tables_use_the_set::<Configuration>(Measure::Diffusion(OutputKind::Image));
        tables_use_the_set::<Configuration>(Measure::Diffusion(OutputKind::Video));
    }
}
