//! What the pages need to know about each kind of measurement, keyed by
//! the kind's value ([`Measure`]): per-token workloads measure energy per
//! output token against median inter-token latency and concurrency;
//! diffusion workloads energy per image or video against batch latency and
//! batch size. Every page of a workload is rendered once from these
//! columns and phrases, whatever its kind.

use super::views::Fact;
use crate::analyse::footprint_basis::Per;
pub use crate::columns::Words;
use crate::columns::{
    Column, ColumnSet, DIFFUSION, FootprintColumn, PER_TOKEN, Shown, diffusion, tokens,
};
use crate::fmt;
use crate::model::Measure;
use crate::model::{Configuration, ModelFile, OutputKind};

/// The columns of each table a workload's pages show, in order.
#[derive(Debug, Clone)]
pub struct Tables {
    /// The kind's columns: definitions and about-page anchors.
    pub set: ColumnSet,
    /// The rank, first column of the leaderboard CSV files.
    pub rank: &'static Column,
    /// The headline energy: what the leaderboard ranks on.
    pub headline: &'static Column,
    /// The model's own facts, first the model (the comparison's columns
    /// before its GPUs).
    pub model_facts: &'static [&'static Column],
    pub leaderboard: Vec<Shown>,
    /// The keys of the leaderboard's and GPU page's columns shown before
    /// the reader chooses more with the column chooser: their first ones,
    /// which answer "which model and GPU use least energy, and at what
    /// latency".
    pub essential: &'static [&'static str],
    /// The keys of the columns a phone shows at first beside the model: the
    /// GPU, the headline energy and the latency, so the first row reads
    /// without scrolling sideways; the rest of `essential` waits behind the
    /// column chooser on a narrow screen.
    pub narrow: &'static [&'static str],
    /// A GPU page: the leaderboard's, less the GPU and the model facts.
    pub gpu_page: Vec<Shown>,
    /// A model page's table of every configuration.
    pub configurations: Vec<&'static Column>,
    /// The CSV files (every configuration, and after `rank` the
    /// leaderboard): every column of the set but the rank, those added
    /// since the first release last.
    pub csv: Vec<&'static Column>,
    /// The figures of a best configuration's card, each with its unit; a
    /// column a configuration has no value for is left out.
    pub card: Vec<&'static Column>,
}

/// A configuration's card figures ([`Tables::card`]): each column's label,
/// and its value with its unit.
pub fn card_figures(tables: &Tables, m: &ModelFile, config: &Configuration) -> Vec<Fact> {
    let record = crate::columns::Record::of(m, config);
    tables
        .card
        .iter()
        .filter_map(|c| match c.value(&record) {
            crate::columns::Value::Missing => None,
            v => Some(Fact::new(c.label, format!("{} {}", v.page(), c.unit))),
        })
        .collect()
}

/// The essential columns of the per-token leaderboard and GPU page, first
/// and shown by default ([`Tables::essential`]): model, GPU, GPU count,
/// energy, energy per response, median ITL and throughput.
const TOKEN_ESSENTIAL: [&Column; 7] = [
    &tokens::MODEL,
    &tokens::GPU,
    &tokens::NUM_GPUS,
    &tokens::WH_PER_MILLION_OUTPUT_TOKENS,
    &tokens::JOULES_PER_RESPONSE,
    &tokens::MEDIAN_ITL_MS,
    &tokens::TOKENS_PER_SECOND,
];

/// The other columns of the per-token leaderboard and GPU page, after
/// [`TOKEN_ESSENTIAL`], which the reader shows with the column chooser. The
/// leaderboard adds the model facts; a GPU page leaves out the GPU and adds
/// its power.
const TOKEN_OPTIONAL: &[Shown] = &[
    Shown::Figure(&tokens::PARALLELISM),
    Shown::Figure(&tokens::PRECISION),
    Shown::Figure(&tokens::MAX_NUM_SEQS),
    Shown::Footprint(FootprintColumn::Carbon),
    Shown::Footprint(FootprintColumn::Cost),
    Shown::Figure(&tokens::P99_ITL_MS),
];

/// The keys of `columns`.
const fn keys<const N: usize>(columns: [&'static Column; N]) -> [&'static str; N] {
    let mut keys = [""; N];
    let mut i = 0;
    while i < N {
        keys[i] = columns[i].key;
        i += 1;
    }
    keys
}

/// The columns of a leaderboard or GPU page: the `essential` figures, then
/// the `optional` columns.
fn shown(essential: &[&'static Column], optional: &[Shown]) -> Vec<Shown> {
    essential
        .iter()
        .map(|&c| Shown::Figure(c))
        .chain(optional.iter().copied())
        .collect()
}

/// The columns of each table of a workload that measures `measure`: its
/// kind's lists, less the columns of the other output (image or video).
pub fn tables(measure: Measure) -> Tables {
    // The columns added since the first release go last in a CSV file.
    let KindTables {
        tables: mut t,
        late,
    } = match measure {
        Measure::Tokens => token_tables(),
        Measure::Diffusion(kind) => diffusion_tables(kind),
    };
    let is_late = |c: &Column| late.iter().any(|l| l.key == c.key);
    let early = t
        .set
        .columns
        .iter()
        .filter(|c| c.key != t.rank.key && !is_late(c));
    t.csv = early.chain(late).copied().collect();
    let applies = |c: &Column| c.applies(measure);
    let shown = |s: &Shown| !matches!(s, Shown::Figure(c) if !applies(c));
    t.leaderboard.retain(shown);
    t.gpu_page
        .retain(|s| shown(s) && !matches!(s, Shown::Figure(c) if c.key == tokens::GPU.key));
    t.configurations.retain(|c| applies(c));
    t.csv.retain(|c| applies(c));
    t.card.retain(|c| applies(c));
    t
}

/// A kind's tables before the other output's columns are left out, and the
/// columns added since the first release (last in a CSV file).
struct KindTables {
    tables: Tables,
    late: &'static [&'static Column],
}

/// The per-token workloads' tables.
fn token_tables() -> KindTables {
    KindTables {
        tables: Tables {
            set: PER_TOKEN,
            rank: &tokens::RANK,
            headline: &tokens::WH_PER_MILLION_OUTPUT_TOKENS,
            model_facts: &[
                &tokens::MODEL,
                &tokens::ARCHITECTURE,
                &tokens::PARAMS_BILLION,
                &tokens::ACTIVE_PARAMS_BILLION,
            ],
            leaderboard: [
                &shown(&TOKEN_ESSENTIAL, TOKEN_OPTIONAL)[..],
                &[
                    Shown::Figure(&tokens::PARAMS_BILLION),
                    Shown::Figure(&tokens::ACTIVE_PARAMS_BILLION),
                    Shown::Figure(&tokens::ARCHITECTURE),
                ],
            ]
            .concat(),
            essential: &const { keys(TOKEN_ESSENTIAL) },
            narrow: &[
                tokens::GPU.key,
                tokens::WH_PER_MILLION_OUTPUT_TOKENS.key,
                tokens::MEDIAN_ITL_MS.key,
            ],
            gpu_page: [
                &shown(&TOKEN_ESSENTIAL, TOKEN_OPTIONAL)[..],
                &[Shown::Figure(&tokens::GPU_POWER_WATTS)],
            ]
            .concat(),
            configurations: vec![
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
            ],
            csv: Vec::new(),
            card: vec![
                &tokens::WH_PER_MILLION_OUTPUT_TOKENS,
                &tokens::JOULES_PER_RESPONSE,
                &tokens::TOKENS_PER_WH,
                &tokens::MEDIAN_ITL_MS,
                &tokens::P99_ITL_MS,
                &tokens::TOKENS_PER_SECOND,
                &tokens::GPU_POWER_WATTS,
            ],
        },
        late: &[&tokens::PARALLELISM],
    }
}

/// The diffusion workloads' tables, for the output `kind`.
fn diffusion_tables(kind: OutputKind) -> KindTables {
    KindTables {
        tables: Tables {
            set: DIFFUSION,
            rank: &diffusion::RANK,
            headline: match kind {
                OutputKind::Image => &diffusion::JOULES_PER_IMAGE,
                OutputKind::Video => &diffusion::JOULES_PER_VIDEO,
            },
            model_facts: &[
                &diffusion::MODEL,
                &diffusion::ARCHITECTURE,
                &diffusion::PARAMS_BILLION,
            ],
            leaderboard: [
                &shown(&DIFFUSION_ESSENTIAL, DIFFUSION_OPTIONAL)[..],
                &[
                    Shown::Figure(&diffusion::RESOLUTION),
                    Shown::Figure(&diffusion::INFERENCE_STEPS),
                    Shown::Figure(&diffusion::PARAMS_BILLION),
                ],
            ]
            .concat(),
            essential: &const { keys(DIFFUSION_ESSENTIAL) },
            narrow: &[
                diffusion::GPU.key,
                diffusion::JOULES_PER_IMAGE.key,
                diffusion::JOULES_PER_VIDEO.key,
                diffusion::BATCH_LATENCY_S.key,
            ],
            gpu_page: shown(&DIFFUSION_ESSENTIAL, DIFFUSION_OPTIONAL),
            configurations: vec![
                &diffusion::BATCH_SIZE,
                &diffusion::JOULES_PER_IMAGE,
                &diffusion::JOULES_PER_VIDEO,
                &diffusion::JOULES_PER_VIDEO_SECOND,
                &diffusion::IMAGES_PER_KWH,
                &diffusion::VIDEOS_PER_KWH,
                &diffusion::BATCH_LATENCY_S,
                &diffusion::IMAGES_PER_SECOND,
                &diffusion::VIDEOS_PER_SECOND,
                &diffusion::GPU_POWER_WATTS,
                &diffusion::INFERENCE_STEPS,
                &diffusion::REPEAT,
            ],
            csv: Vec::new(),
            card: vec![
                &diffusion::JOULES_PER_IMAGE,
                &diffusion::JOULES_PER_VIDEO,
                &diffusion::IMAGES_PER_KWH,
                &diffusion::VIDEOS_PER_KWH,
                &diffusion::JOULES_PER_VIDEO_SECOND,
                &diffusion::BATCH_LATENCY_S,
                &diffusion::IMAGES_PER_SECOND,
                &diffusion::VIDEOS_PER_SECOND,
                &diffusion::GPU_POWER_WATTS,
            ],
        },
        late: &[&diffusion::PARALLELISM, &diffusion::RESOLUTION],
    }
}

/// The whole configuration in a phrase: "2 × H100, TP2, BF16, max
/// concurrency 256" or "1 × B200, BF16, batch size 4".
pub fn config_summary(c: &Configuration) -> String {
    let words = Words::of(c.measure());
    format!(
        "{}, {}, {} {}",
        gpu_setup(c),
        c.precision,
        words.load,
        c.load()
    )
}

/// The setup beside a best figure on the comparison: "2 × H100, TP2,
/// BF16, 256 seqs" or "1 × B200, BF16, batch 4".
pub fn compare_setup(c: &Configuration) -> String {
    format!("{}, {}, {}", gpu_setup(c), c.precision, load_short(c))
}

/// The load in a short phrase: "256 seqs" or "batch 4".
fn load_short(c: &Configuration) -> String {
    let load = c.load();
    if c.measure() == Measure::Tokens {
        format!("{load} seqs")
    } else {
        format!("batch {load}")
    }
}

/// The headline energy in its page format, without the unit: "39.05".
pub fn energy_figure(c: &Configuration) -> String {
    (Words::of(c.measure()).energy_text)(c.energy())
}

/// "32.8 B total, 32.8 B active" (per token) or "12.0 B".
pub fn parameters(m: &ModelFile) -> String {
    let total = fmt::params_b(m.params_b);
    match m.measure() {
        Measure::Tokens => {
            format!(
                "{total} B total, {} B active",
                fmt::params_b(m.active_params_b)
            )
        }
        Measure::Diffusion(_) => format!("{total} B"),
    }
}

/// Facts of a model page beyond those every kind has: a diffusion model's
/// output sizes and denoising steps.
pub fn output_facts(m: &ModelFile) -> Vec<Fact> {
    if m.measure() == Measure::Tokens {
        return Vec::new();
    }
    let distinct = |f: &dyn Fn(&Configuration) -> String| {
        let mut v: Vec<String> = m.configurations.iter().map(f).collect();
        v.sort();
        v.dedup();
        v.join("; ")
    };
    vec![
        Fact::new("Output", distinct(&Configuration::resolution)),
        Fact::new(
            "Denoising steps",
            distinct(&|c| c.inference_steps.unwrap_or_default().to_string()),
        ),
    ]
}

/// The title of a group of a configuration table: "2 × H100, TP2, BF16",
/// or "1 × B200, BF16, 1024×1024, 28 steps".
pub fn group_title(first: &Configuration) -> String {
    let setup = format!("{}, {}", gpu_setup(first), first.precision);
    let steps = first.inference_steps.unwrap_or_default();
    match first.measure() {
        Measure::Tokens => setup,
        Measure::Diffusion(_) => format!("{setup}, {}, {steps} steps", first.resolution()),
    }
}

/// A cell of the latency-budget table: "39.05 Wh/M — 1 × B200, 384 seqs,
/// 41.9 ms" or "1,234.5 J — 1 × B200, batch 4, 12.3 s".
pub fn budget_text(c: &Configuration) -> String {
    let words = Words::of(c.measure());
    let unit = words.energy_bare;
    format!(
        "{} {unit} — {}, {}, {} {}",
        energy_figure(c),
        gpu_setup(c),
        load_short(c),
        (words.latency_text)(c.latency()),
        words.latency_unit
    )
}

/// What a carbon or cost figure is counted per, in words: "per million
/// tokens".
pub fn basis_words(per: Per) -> &'static str {
    match per {
        Per::MillionTokens => "per million tokens",
        Per::ThousandResponses => "per 1,000 responses",
        Per::Image => "per image",
        Per::Video => "per video",
    }
}

/// The essential columns of a diffusion leaderboard and GPU page, first and
/// shown by default: model, GPU, GPU count, energy per image and per video,
/// batch latency, and images and videos per second (a table shows its
/// output's of each pair).
const DIFFUSION_ESSENTIAL: [&Column; 8] = [
    &diffusion::MODEL,
    &diffusion::GPU,
    &diffusion::NUM_GPUS,
    &diffusion::JOULES_PER_IMAGE,
    &diffusion::JOULES_PER_VIDEO,
    &diffusion::BATCH_LATENCY_S,
    &diffusion::IMAGES_PER_SECOND,
    &diffusion::VIDEOS_PER_SECOND,
];

/// The other columns of a diffusion leaderboard and GPU page, after
/// [`DIFFUSION_ESSENTIAL`] (image or video columns as the workload's
/// output). The leaderboard adds the output, the steps and the parameters;
/// a GPU page leaves out the GPU.
const DIFFUSION_OPTIONAL: &[Shown] = &[
    Shown::Figure(&diffusion::PARALLELISM),
    Shown::Figure(&diffusion::PRECISION),
    Shown::Figure(&diffusion::BATCH_SIZE),
    Shown::Footprint(FootprintColumn::Carbon),
    Shown::Footprint(FootprintColumn::Cost),
    Shown::Figure(&diffusion::JOULES_PER_VIDEO_SECOND),
    Shown::Figure(&diffusion::GPU_POWER_WATTS),
];

/// The GPUs and how the model is split over them, for either kind:
/// "2 × H100, TP2", "4 × B200, U2·R2", or "1 × H100" without parallelism.
fn gpu_setup(c: &Configuration) -> String {
    let gpus = format!("{} × {}", c.num_gpus, c.gpu);
    let par = c.parallelism();
    if par == "none" {
        gpus
    } else {
        format!("{gpus}, {par}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every column a table or CSV file shows is defined in its kind's set,
    /// so its header links to a definition on the about page; the headline
    /// is followed by the carbon and cost columns.
    fn tables_use_the_set(measure: Measure) {
        let t = tables(measure);
        let keys: Vec<&str> = t.set.columns.iter().map(|c| c.key).collect();
        let shown = t
            .leaderboard
            .iter()
            .chain(&t.gpu_page)
            .filter_map(|s| match s {
                Shown::Figure(c) => Some(*c),
                Shown::Footprint(_) => None,
            });
        for c in [t.rank, t.headline]
            .into_iter()
            .chain(t.model_facts.iter().copied())
            .chain(t.configurations.iter().copied())
            .chain(t.csv.iter().copied())
            .chain(t.card.iter().copied())
            .chain(shown)
        {
            assert!(
                keys.contains(&c.key),
                "{measure:?}: {} not in the set",
                c.key
            );
            assert!(
                c.applies(measure),
                "{measure:?}: {} is the other output's",
                c.key
            );
        }
        for list in [&t.leaderboard, &t.gpu_page] {
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
        tables_use_the_set(Measure::Tokens);
        tables_use_the_set(Measure::Diffusion(OutputKind::Image));
        tables_use_the_set(Measure::Diffusion(OutputKind::Video));
    }
}
