//! The columns readers see, one typed definition each: key, label, unit,
//! definition, whether it is measured or derived, its alignment, and how to
//! read its value from a configuration. The same definitions feed the table
//! headers and cells of every page, the CSV headers and records, the about
//! page and the data dictionary, so they cannot drift apart.
//!
//! Each kind of measurement has its own column set: [`tokens`] for the
//! per-token workloads, [`diffusion`] for text to image and text to video.
//! A column reads a figure a row of another kind lacks as
//! [`Value::Missing`]. A new kind adds a module of `Column` constants and a
//! [`ColumnSet`].

use std::borrow::Cow;

use crate::fmt;
use crate::model::{Configuration, Measure, ModelFile, OutputKind};

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
    pub fn word(self) -> &'static str {
        match self {
            Origin::Measured => "measured",
            Origin::Setting => "configuration",
            Origin::Derived => "derived",
        }
    }
}

/// How a column's cells are aligned in a table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Align {
    /// Right-aligned figures (`class="num"`).
    Number,
    Text,
}

/// Where a cell links in a table of best rows (leaderboard, GPU page).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Link {
    None,
    /// The model's page, at the row's GPU.
    Model,
    Gpu,
    /// The configuration's row on the model's page.
    Row,
}

/// One configuration as a column reads it, with its model file, workload
/// and, in a leaderboard, its rank.
#[derive(Debug)]
pub struct Record<'a> {
    /// The workload's id.
    pub workload: &'a str,
    pub model: &'a ModelFile,
    pub config: &'a Configuration,
    /// Position in the workload's leaderboard, from 1.
    pub rank: Option<usize>,
}

impl<'a> Record<'a> {
    /// A configuration as a page's table or card reads it: pages show
    /// neither the workload nor the rank column, so it carries neither.
    pub fn of(model: &'a ModelFile, config: &'a Configuration) -> Self {
        Record {
            workload: "",
            model,
            config,
            rank: None,
        }
    }
}

/// One value of a column, before it is formatted for a page or a CSV file.
#[derive(Debug, Clone)]
pub enum Value<'a> {
    Text(Cow<'a, str>),
    Whole(u64),
    /// A figure, with its page format (CSV files carry full precision).
    Number(f64, fn(f64) -> String),
    /// Yes or no (`true`/`false` in CSV files).
    Flag(bool),
    /// Not given for this configuration.
    Missing,
}

impl Value<'_> {
    /// The value as a page shows it.
    pub fn page(&self) -> String {
        match self {
            Value::Text(s) => s.to_string(),
            Value::Whole(n) => n.to_string(),
            Value::Number(v, page) => page(*v),
            Value::Flag(b) => if *b { "yes" } else { "no" }.to_owned(),
            Value::Missing => "—".to_owned(),
        }
    }

    /// The figure as a number, what [`Value::sort_key`] writes (figures only).
    pub fn number(&self) -> Option<f64> {
        match self {
            #[allow(clippy::cast_precision_loss)]
            Value::Whole(n) => Some(*n as f64),
            Value::Number(v, _) => Some(*v),
            Value::Text(_) | Value::Flag(_) | Value::Missing => None,
        }
    }

    /// The raw value a sortable table sorts on (figures only).
    pub fn sort_key(&self) -> Option<String> {
        match self {
            Value::Whole(n) => Some(n.to_string()),
            Value::Number(v, _) => Some(crate::fmt::shortest(*v)),
            Value::Text(_) | Value::Flag(_) | Value::Missing => None,
        }
    }

    /// The value as a CSV cell: full precision ([`raw`]), text made safe
    /// for spreadsheets ([`csv_text`]), empty when missing.
    pub fn csv(&self) -> String {
        match self {
            Value::Text(s) => csv_text(s),
            Value::Whole(n) => n.to_string(),
            Value::Number(v, _) => raw(*v),
            Value::Flag(b) => b.to_string(),
            Value::Missing => String::new(),
        }
    }
}

pub use crate::fmt::raw;

mod words;
pub use words::Words;

/// A text cell that a spreadsheet cannot take for a formula: one starting
/// with `=`, `+`, `-`, `@`, a tab or a carriage return gets a leading `'`,
/// as OWASP's "CSV injection" page recommends.
pub fn csv_text(value: &str) -> String {
    if value.starts_with(['=', '+', '-', '@', '\t', '\r']) {
        format!("'{value}")
    } else {
        value.to_owned()
    }
}

fn text(s: &str) -> Value<'_> {
    Value::Text(Cow::Borrowed(s))
}

/// A whole number, or [`Value::Missing`] when the row's kind has none; [`number`]
/// and [`flag`] do the same for a figure and a flag.
fn whole(n: impl Into<Option<u32>>) -> Value<'static> {
    n.into()
        .map_or(Value::Missing, |n| Value::Whole(u64::from(n)))
}

fn number(v: impl Into<Option<f64>>, page: fn(f64) -> String) -> Value<'static> {
    v.into().map_or(Value::Missing, |v| Value::Number(v, page))
}

fn flag(b: Option<bool>) -> Value<'static> {
    b.map_or(Value::Missing, Value::Flag)
}

fn one_decimal(v: f64) -> String {
    fmt::fixed(v, 1)
}

/// One column of the configurations of model files.
#[derive(Debug)]
pub struct Column {
    /// Machine name, used in CSV headers and as the about-page anchor
    /// (`#col-<key>`). Names carry their unit.
    pub key: &'static str,
    pub label: &'static str,
    /// Unit, as shown in headers ("" when none).
    pub unit: &'static str,
    /// Definition in one or two sentences; derived columns give the formula.
    pub definition: &'static str,
    pub origin: Origin,
    pub align: Align,
    /// Where its cells link in a table of best rows.
    pub link: Link,
    pub read: Read,
    /// The one output (image or video) whose files have it; `None` for all of the kind.
    pub only: Option<OutputKind>,
}

/// How a column reads its value from one configuration.
pub type Read = for<'r> fn(&Record<'r>) -> Value<'r>;

/// A column's key, label or unit.
type Name = &'static str;

impl Column {
    pub const fn measured(key: Name, label: Name, unit: Name, read: Read) -> Self {
        Self::new(Origin::Measured, key, label, unit, read)
    }

    pub const fn setting(key: Name, label: Name, unit: Name, read: Read) -> Self {
        Self::new(Origin::Setting, key, label, unit, read)
    }

    pub const fn derived(key: Name, label: Name, unit: Name, read: Read) -> Self {
        Self::new(Origin::Derived, key, label, unit, read)
    }

    /// A column without a definition yet ([`Column::about`] gives it),
    /// aligned as text when it has no unit and as a figure when it has one,
    /// linking nowhere.
    const fn new(origin: Origin, key: Name, label: Name, unit: Name, read: Read) -> Self {
        let align = if unit.is_empty() {
            Align::Text
        } else {
            Align::Number
        };
        Column {
            key,
            label,
            unit,
            definition: "",
            origin,
            align,
            link: Link::None,
            read,
            only: None,
        }
    }

    #[must_use]
    pub const fn about(mut self, definition: &'static str) -> Self {
        self.definition = definition;
        self
    }

    /// The column with its cells linking to `link` in tables of best rows.
    #[must_use]
    pub const fn link(mut self, link: Link) -> Self {
        self.link = link;
        self
    }

    /// The column only in the files of one output, image or video.
    #[must_use]
    pub const fn only(mut self, kind: OutputKind) -> Self {
        self.only = Some(kind);
        self
    }

    /// Whether the tables and CSV files of `measure` have the column.
    pub fn applies(&self, measure: Measure) -> bool {
        self.only
            .is_none_or(|kind| measure == Measure::Diffusion(kind))
    }

    pub fn value<'r>(&self, record: &Record<'r>) -> Value<'r> {
        (self.read)(record)
    }

    /// The column's label and unit as a chart's axis names them, e.g.
    /// `Energy per response (J)`.
    pub fn axis_label(&self) -> String {
        format!("{} ({})", self.label, self.unit)
    }

    /// The CSV header: the key and its unit, e.g. `median_itl_ms (ms)`.
    pub fn csv_header(&self) -> String {
        if self.unit.is_empty() || self.unit == "#" {
            self.key.to_owned()
        } else {
            format!("{} ({})", self.key, self.unit)
        }
    }
}

/// The carbon and cost columns, shown after the headline energy when the
/// settings give a carbon intensity or an electricity price
/// ([`crate::footprint`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FootprintColumn {
    /// Grams of CO₂e of the headline energy.
    Carbon,
    /// Electricity cost of the headline energy.
    Cost,
}

impl FootprintColumn {
    /// Machine name (for the sort script).
    pub fn key(self) -> &'static str {
        match self {
            FootprintColumn::Carbon => "g_co2e",
            FootprintColumn::Cost => "cost",
        }
    }

    pub fn label(self) -> &'static str {
        match self {
            FootprintColumn::Carbon => "Carbon",
            FootprintColumn::Cost => "Electricity cost",
        }
    }

    /// What the column means, in one sentence (a column head's hover text).
    pub fn definition(self) -> &'static str {
        match self {
            FootprintColumn::Carbon => {
                "Grams of CO₂e for the headline energy, at the grid carbon intensity the site's \
                    settings give; GPU energy only, so a floor."
            }
            FootprintColumn::Cost => {
                "Electricity cost of the headline energy, at the price the site's settings give; \
                    GPU energy only, so a floor."
            }
        }
    }

    /// The unit per `per` (the headline's basis: "M tok", "image"); a
    /// cost's names the settings' `currency`. Whether the settings give the
    /// figure at all is [`crate::footprint::Footprint::column_unit`]'s to say.
    pub fn unit(self, currency: &str, per: &str) -> String {
        match self {
            FootprintColumn::Carbon => format!("{GRAMS_CO2E}/{per}"),
            FootprintColumn::Cost => format!("{currency}/{per}"),
        }
    }
}

/// Joules: an energy per response, or per image or video where the item is
/// understood.
pub const JOULES: &str = "J";
/// The carbon column's unit, before its basis.
pub const GRAMS_CO2E: &str = "g CO₂e";
/// A grid's carbon intensity ([`crate::footprint`]'s setting), short and in words.
pub const CARBON_INTENSITY: &str = "g CO₂e/kWh";
pub const CARBON_INTENSITY_WORDS: &str = "g CO₂e per kWh";
/// An electricity price's basis, after its currency.
pub const PRICE_BASIS_WORDS: &str = "per kWh";

/// A column of a page's table: one of the kind's set, or a footprint column (when set).
#[derive(Debug, Clone, Copy)]
pub enum Shown {
    Figure(&'static Column),
    Footprint(FootprintColumn),
}

/// The columns of one kind of measurement: their definitions, and where
/// the about page defines them (`#<anchor><key>`).
#[derive(Debug, Clone, Copy)]
pub struct ColumnSet {
    /// Heading on the about page.
    pub name: &'static str,
    /// Prefix of each column's about-page anchor.
    pub anchor: &'static str,
    /// The columns, in the order the about page lists them.
    pub columns: &'static [&'static Column],
}

impl ColumnSet {
    /// The about-page anchor of a column, e.g. `col-diffusion-batch_size`.
    pub fn anchor(&self, column: &Column) -> String {
        format!("{}{}", self.anchor, column.key)
    }
}

pub const PER_TOKEN: ColumnSet = ColumnSet {
    name: "Per-token workloads",
    anchor: "col-",
    columns: tokens::ALL,
};

pub const DIFFUSION: ColumnSet = ColumnSet {
    name: "Diffusion workloads (text to image and text to video)",
    anchor: "col-diffusion-",
    columns: diffusion::ALL,
};

/// The columns every kind of measurement has, with the same wording (the
/// rank's and workload's say what is ranked and measured).
mod shared {
    use super::{Column, Link, Value, text, whole};

    pub const fn rank(about: &'static str) -> Column {
        Column::derived("rank", "Rank", "#", |r| {
            r.rank.map_or(Value::Missing, |n| Value::Whole(n as u64))
        })
        .about(about)
    }

    pub const fn workload(about: &'static str) -> Column {
        Column::setting("workload", "Workload", "", |r| text(r.workload)).about(about)
    }

    pub const MODEL_SLUG: Column =
        Column::setting("model_slug", "Model slug", "", |r| text(&r.model.slug))
            .about("The model's identifier in URLs and file names.");

    pub const MODEL: Column = Column::setting("model", "Model", "", |r| text(&r.model.name))
        .link(Link::Model)
        .about("The model's display name; it links to the model's page.");

    pub const MODEL_ID: Column =
        Column::setting("model_id", "Model ID", "", |r| text(&r.model.model_id))
            .about("The model's Hugging Face identifier.");

    pub const ROW_ID: Column = Column::setting("row_id", "Row ID", "", |r| text(&r.config.row_id))
        .about(
            "The configuration's identifier in the data file; its page anchor is built from it.",
        );

    pub const GPU: Column = Column::setting("gpu", "GPU", "", |r| text(&r.config.gpu))
        .link(Link::Gpu)
        .about("The GPU type the configuration ran on.");

    pub const REPEAT: Column = Column::setting("repeat", "Run", "#", |r| whole(r.config.repeat))
        .about(
            "1 for the first run of a configuration, 2 or more for a repeated run. Repeats \
            are shown as their own rows and points, never averaged.",
        );

    pub const DATA_VERSION: Column = Column::setting("data_version", "Data version", "", |r| {
        text(&r.model.data_version)
    })
    .about("Version (date) of the data file the row comes from.");
}

/// The per-token workloads' columns, in the about page's order.
pub mod tokens {
    use super::{Column, JOULES, Link, Value, flag, fmt, number, one_decimal, text, whole};

    pub use super::shared::{DATA_VERSION, GPU, MODEL, MODEL_ID, MODEL_SLUG, REPEAT, ROW_ID};

    type C = Column;

    pub const RANK: C = super::shared::rank(
        "Position in the leaderboard: rows ordered by Wh per million output tokens, lowest first \
            (leaderboard.csv only).",
    );

    pub const PARAMS_BILLION: C = C::setting("params_billion", "Total params", "B", |r| {
        number(r.model.params_b, fmt::params_b)
    })
    .about("Total parameters of the model, in billions.");

    pub const ACTIVE_PARAMS_BILLION: C =
        C::setting("active_params_billion", "Active params", "B", |r| {
            number(r.model.active_params_b, fmt::params_b)
        })
        .about(
            "Parameters used for each token, in billions; lower than the total for \
            mixture-of-experts (MoE) models.",
        );

    pub const ARCHITECTURE: C = C::setting("architecture", "Architecture", "", |r| {
        text(&r.model.architecture)
    })
    .about("Dense transformer or mixture of experts (MoE).");

    pub const NUM_GPUS: C = C::setting("num_gpus", "GPUs", "count", |r| whole(r.config.num_gpus))
        .about("Number of GPUs serving the model in this configuration.");

    pub const PARALLELISM: C = C::setting("parallelism", "Parallelism", "", |r| {
        Value::Text(r.config.parallelism().into())
    })
    .about(
        "How the model is split over the GPUs: TP = tensor parallel, EP = expert \
            parallel, DP = data parallel, each with its degree; \"none\" on one GPU.",
    );

    pub const PRECISION: C =
        C::setting("precision", "Precision", "", |r| text(&r.config.precision))
            .about("Numeric format of the weights, e.g. BF16 or FP8.");

    pub const MAX_NUM_SEQS: C = C::setting("max_num_seqs", "Max concurrency", "seqs", |r| {
        whole(r.config.max_num_seqs)
    })
    .about("vLLM's max_num_seqs: the most requests the server processes at once.");

    pub const WH_PER_MILLION_OUTPUT_TOKENS: C = C::measured(
        "wh_per_million_output_tokens",
        "Energy per million tokens",
        "Wh/M tok",
        |r| number(r.config.wh_per_million_output_tokens, fmt::wh_per_million),
    )
    .link(Link::Row)
    .about(
        "Steady-state GPU energy per million output tokens, in watt-hours. The \
            leaderboard's headline figure.",
    );

    pub const JOULES_PER_OUTPUT_TOKEN: C = C::measured(
        "joules_per_output_token",
        "Energy per token",
        "J/tok",
        |r| number(r.config.joules_per_output_token, fmt::joules_per_token),
    )
    .about(
        "Steady-state GPU energy per output token, in joules. Wh per million tokens = J \
            per token × 1,000,000 / 3,600.",
    );

    pub const JOULES_PER_RESPONSE: C =
        C::derived("joules_per_response", "Energy per response", JOULES, |r| {
            number(r.config.joules_per_response(), fmt::joules_per_response)
        })
        .about("Energy for one average response: J per token × average output tokens.");

    pub const TOKENS_PER_WH: C = C::derived("tokens_per_wh", "Tokens per Wh", "tok/Wh", |r| {
        number(
            r.config.joules_per_output_token.map(|j| 3600.0 / j),
            fmt::grouped,
        )
    })
    .about("Output tokens generated per watt-hour: 3,600 / J per token.");

    pub const MEDIAN_ITL_MS: C = C::measured("median_itl_ms", "Median ITL", "ms", |r| {
        number(r.config.median_itl_ms, fmt::ms)
    })
    .about(
        "Median inter-token latency: the typical time between two output tokens of one \
            response, in milliseconds. The selection rule's latency limit applies to it.",
    );

    pub const P90_ITL_MS: C = C::measured("p90_itl_ms", "p90 ITL", "ms", |r| {
        number(r.config.p90_itl_ms, fmt::ms)
    })
    .about("90th-percentile inter-token latency, in milliseconds.");

    pub const P95_ITL_MS: C = C::measured("p95_itl_ms", "p95 ITL", "ms", |r| {
        number(r.config.p95_itl_ms, fmt::ms)
    })
    .about("95th-percentile inter-token latency, in milliseconds.");

    pub const P99_ITL_MS: C = C::measured("p99_itl_ms", "p99 ITL", "ms", |r| {
        number(r.config.p99_itl_ms, fmt::ms)
    })
    .about(
        "99th-percentile inter-token latency, in milliseconds: the slow tail a reader of \
            a streaming response notices.",
    );

    pub const TOKENS_PER_SECOND: C = C::measured("tokens_per_second", "Throughput", "tok/s", |r| {
        number(r.config.tokens_per_second, fmt::grouped)
    })
    .about("Output tokens generated per second by all the configuration's GPUs together.");

    pub const GPU_POWER_WATTS: C = C::measured("gpu_power_watts", "GPU power", "W", |r| {
        number(r.config.gpu_power_watts_total, fmt::grouped)
    })
    .about(
        "Average measured GPU power during the steady state, summed over the GPUs used, in watts.",
    );

    pub const AVG_OUTPUT_TOKENS: C =
        C::measured("avg_output_tokens", "Output length", "tok", |r| {
            number(r.config.avg_output_tokens, fmt::grouped)
        })
        .about("Average number of output tokens per response.");

    pub const AVG_RUNNING_BATCH: C =
        C::measured("avg_running_batch", "Running batch", "seqs", |r| {
            number(r.config.avg_running_batch, one_decimal)
        })
        .about("Average number of sequences in the running batch during the steady state.");

    /// Every column, in the about page's and CSV files' order (a CSV file
    /// has the columns added since the first release last: `render::kind::tables`);
    /// those no other module names are defined here.
    pub const ALL: &[&Column] = &[
        &RANK,
        &super::shared::workload(
            "The workload measured, by its id (e.g. lm-arena-chat, gpqa); each workload has its \
                own prompts, output lengths and latency deadline, so figures compare only \
                within one workload.",
        ),
        &MODEL_SLUG,
        &MODEL,
        &MODEL_ID,
        &PARAMS_BILLION,
        &ACTIVE_PARAMS_BILLION,
        &ARCHITECTURE,
        &ROW_ID,
        &GPU,
        &NUM_GPUS,
        &PARALLELISM,
        &C::setting("tensor_parallel", "TP", "degree", |r| {
            whole(r.config.tensor_parallel)
        })
        .about("Tensor-parallel degree: each layer split over this many GPUs."),
        &C::setting("expert_parallel", "EP", "degree", |r| {
            whole(r.config.expert_parallel)
        })
        .about("Expert-parallel degree: the experts of a MoE model spread over this many GPUs."),
        &C::setting("data_parallel", "DP", "degree", |r| {
            whole(r.config.data_parallel)
        })
        .about("Data-parallel degree: this many replicas serve requests side by side."),
        &PRECISION,
        &MAX_NUM_SEQS,
        &REPEAT,
        &WH_PER_MILLION_OUTPUT_TOKENS,
        &JOULES_PER_OUTPUT_TOKEN,
        &C::derived("wh_per_response", "Watt-hours per response", "Wh", |r| {
            number(r.config.wh_per_response(), fmt::wh_per_response)
        })
        .about("Energy for one average response: J per token × average output tokens / 3,600."),
        &JOULES_PER_RESPONSE,
        &TOKENS_PER_WH,
        &MEDIAN_ITL_MS,
        &P90_ITL_MS,
        &P95_ITL_MS,
        &P99_ITL_MS,
        &TOKENS_PER_SECOND,
        &GPU_POWER_WATTS,
        &AVG_OUTPUT_TOKENS,
        &C::measured("avg_requests_in_flight", "Requests in flight", "req", |r| {
            number(r.config.avg_requests_in_flight, one_decimal)
        })
        .about("Average number of requests in the server during the steady state."),
        &AVG_RUNNING_BATCH,
        &C::derived("under_itl_deadline", "Within deadline", "", |r| {
            flag(r.config.under_itl_deadline)
        })
        .about("Whether median ITL ≤ the file's deadline (500 ms for the seed data)."),
        &C::setting("itl_deadline_ms", "Deadline", "ms", |r| {
            number(r.model.deadline(), fmt::ms)
        })
        .about("The median-ITL limit under which the best configuration is chosen."),
        &DATA_VERSION,
    ];
}

/// The diffusion workloads' columns (text to image and to video), in the
/// about page's order; those of one output only are marked ([`Column::only`]).
pub mod diffusion {
    use super::{Align, Column, Link, OutputKind, Value, flag, fmt, number, text, whole};

    pub use super::shared::{DATA_VERSION, GPU, MODEL, MODEL_ID, MODEL_SLUG, REPEAT, ROW_ID};

    type C = Column;

    pub const RANK: C = super::shared::rank(
        "Position in the leaderboard: rows ordered by energy per image (or video), lowest first \
            (leaderboard-image.csv and leaderboard-video.csv only).",
    );

    pub const PARAMS_BILLION: C = C::setting("params_billion", "Params", "B", |r| {
        number(r.model.params_b, fmt::params_b)
    })
    .about("Parameters of the diffusion model, in billions.");

    pub const ARCHITECTURE: C = C::setting("architecture", "Architecture", "", |r| {
        text(&r.model.architecture)
    })
    .about("The model's architecture (Diffusion).");

    pub const NUM_GPUS: C = C::setting("num_gpus", "GPUs", "count", |r| whole(r.config.num_gpus))
        .about("Number of GPUs generating each image or video together.");

    pub const PARALLELISM: C = C::setting("parallelism", "Sequence parallel", "", |r| {
        Value::Text(r.config.parallelism().into())
    })
    .about(
        "How each image or video is split over the GPUs: U = Ulysses degree, R = ring \
            degree (U × R = GPUs); \"none\" on one GPU.",
    );

    pub const PRECISION: C =
        C::setting("precision", "Precision", "", |r| text(&r.config.precision))
            .about("Numeric format of the weights, e.g. BF16.");

    pub const BATCH_SIZE: C = C::setting("batch_size", "Batch size", "items", |r| {
        whole(r.config.batch_size)
    })
    .about("Images or videos generated together in one batch.");

    pub const INFERENCE_STEPS: C = C::setting("inference_steps", "Steps", "steps", |r| {
        whole(r.config.inference_steps)
    })
    .about("Denoising steps per image or video, the model's default.");

    /// Text, though it has a unit.
    pub const RESOLUTION: C = C {
        align: Align::Text,
        ..C::setting("resolution", "Output", "px", |r| {
            Value::Text(r.config.resolution().into())
        })
        .about(
            "Width × height of the output in pixels; for a video also its frames and frame rate.",
        )
    };

    pub const JOULES_PER_IMAGE: C =
        C::measured("joules_per_image", "Energy per image", "J/image", |r| {
            number(r.config.joules_per_item(), fmt::energy_per_item)
        })
        .link(Link::Row)
        .only(OutputKind::Image)
        .about(
            "GPU energy per generated image, in joules: the energy of a batch, summed over \
            the GPUs, divided by the batch size. The text-to-image leaderboard's headline \
            figure.",
        );

    pub const JOULES_PER_VIDEO: C =
        C::measured("joules_per_video", "Energy per video", "J/video", |r| {
            number(r.config.joules_per_item(), fmt::energy_per_item)
        })
        .link(Link::Row)
        .only(OutputKind::Video)
        .about(
            "GPU energy per generated video, in joules: the energy of a batch, summed over \
            the GPUs, divided by the batch size. The text-to-video leaderboard's headline \
            figure.",
        );

    pub const WH_PER_IMAGE: C =
        C::derived("wh_per_image", "Watt-hours per image", "Wh/image", |r| {
            number(r.config.wh_per_item(), fmt::energy_per_item)
        })
        .only(OutputKind::Image)
        .about("Energy per image in watt-hours: J per image / 3,600.");

    pub const WH_PER_VIDEO: C =
        C::derived("wh_per_video", "Watt-hours per video", "Wh/video", |r| {
            number(r.config.wh_per_item(), fmt::energy_per_item)
        })
        .only(OutputKind::Video)
        .about("Energy per video in watt-hours: J per video / 3,600.");

    pub const IMAGES_PER_KWH: C =
        C::derived("images_per_kwh", "Images per kWh", "images/kWh", |r| {
            number(r.config.items_per_kwh(), fmt::items_per_kwh)
        })
        .only(OutputKind::Image)
        .about("Images generated per kilowatt-hour of GPU energy: 3,600,000 / J per image.");

    pub const VIDEOS_PER_KWH: C =
        C::derived("videos_per_kwh", "Videos per kWh", "videos/kWh", |r| {
            number(r.config.items_per_kwh(), fmt::items_per_kwh)
        })
        .only(OutputKind::Video)
        .about("Videos generated per kilowatt-hour of GPU energy: 3,600,000 / J per video.");

    pub const JOULES_PER_VIDEO_SECOND: C = C::derived(
        "joules_per_video_second",
        "Energy per video second",
        "J/s",
        |r| number(r.config.joules_per_video_second(), fmt::grouped),
    )
    .only(OutputKind::Video)
    .about("GPU energy per second of generated video: J per video / (frames / frame rate).");

    pub const BATCH_LATENCY_S: C = C::measured("batch_latency_s", "Batch latency", "s", |r| {
        number(r.config.batch_latency_s, fmt::seconds)
    })
    .about(
        "Time to generate one batch, in seconds. The selection rule's latency limit applies to it.",
    );

    pub const IMAGES_PER_SECOND: C =
        C::measured("images_per_second", "Throughput", "images/s", |r| {
            number(r.config.items_per_second(), fmt::rate)
        })
        .only(OutputKind::Image)
        .about(
            "Images generated per second by all the configuration's GPUs together: batch size \
            / batch latency.",
        );

    pub const VIDEOS_PER_SECOND: C =
        C::measured("videos_per_second", "Throughput", "videos/s", |r| {
            number(r.config.items_per_second(), fmt::rate)
        })
        .only(OutputKind::Video)
        .about(
            "Videos generated per second by all the configuration's GPUs together: batch size \
            / batch latency.",
        );

    pub const GPU_POWER_WATTS: C = C::measured("gpu_power_watts", "GPU power", "W", |r| {
        number(r.config.gpu_power_watts_total, fmt::grouped)
    })
    .about(
        "Average measured GPU power while generating, summed over the GPUs used, in watts \
            (energy per item × items per second).",
    );

    /// Every column, in the about page's and CSV files' order (a CSV file
    /// has the columns added since the first release last: `render::kind::tables`);
    /// those no other module names are defined here.
    pub const ALL: &[&Column] = &[
        &RANK,
        &super::shared::workload(
            "The workload measured, by its id (text-to-image or text-to-video); figures compare \
                only within one workload.",
        ),
        &MODEL_SLUG,
        &MODEL,
        &MODEL_ID,
        &PARAMS_BILLION,
        &ARCHITECTURE,
        &ROW_ID,
        &GPU,
        &NUM_GPUS,
        &PARALLELISM,
        &C::setting("ulysses_degree", "Ulysses", "degree", |r| {
            whole(r.config.ulysses_degree)
        })
        .about("Ulysses sequence-parallel degree: attention heads spread over this many GPUs."),
        &C::setting("ring_degree", "Ring", "degree", |r| {
            whole(r.config.ring_degree)
        })
        .about(
            "Ring sequence-parallel degree: the sequence passed around this many GPUs in a ring.",
        ),
        &PRECISION,
        &BATCH_SIZE,
        &INFERENCE_STEPS,
        &RESOLUTION,
        &C::setting("image_height", "Height", "px", |r| {
            whole(r.config.image_height)
        })
        .only(OutputKind::Image)
        .about("Image height in pixels."),
        &C::setting("image_width", "Width", "px", |r| {
            whole(r.config.image_width)
        })
        .only(OutputKind::Image)
        .about("Image width in pixels."),
        &C::setting("video_height", "Height", "px", |r| {
            whole(r.config.video_height)
        })
        .only(OutputKind::Video)
        .about("Video height in pixels."),
        &C::setting("video_width", "Width", "px", |r| {
            whole(r.config.video_width)
        })
        .only(OutputKind::Video)
        .about("Video width in pixels."),
        &C::setting("num_frames", "Frames", "frames", |r| {
            whole(r.config.num_frames)
        })
        .only(OutputKind::Video)
        .about("Frames per video."),
        &C::setting("fps", "Frame rate", "fps", |r| {
            number(r.config.fps, fmt::setting)
        })
        .only(OutputKind::Video)
        .about("Frames per second of the video."),
        &C::derived("video_seconds", "Video length", "s", |r| {
            number(r.config.video_seconds(), fmt::seconds)
        })
        .only(OutputKind::Video)
        .about("Length of the generated video: frames / frame rate."),
        &REPEAT,
        &JOULES_PER_IMAGE,
        &JOULES_PER_VIDEO,
        &WH_PER_IMAGE,
        &WH_PER_VIDEO,
        &IMAGES_PER_KWH,
        &VIDEOS_PER_KWH,
        &JOULES_PER_VIDEO_SECOND,
        &BATCH_LATENCY_S,
        &IMAGES_PER_SECOND,
        &VIDEOS_PER_SECOND,
        &GPU_POWER_WATTS,
        &C::derived("under_latency_deadline", "Within deadline", "", |r| {
            flag(r.config.under_latency_deadline)
        })
        .about(
            "Whether batch latency ≤ the workload's deadline (30 s for text to image, 300 s \
            for text to video upstream).",
        ),
        &C::setting("batch_latency_deadline_s", "Deadline", "s", |r| {
            number(r.model.deadline(), fmt::seconds)
        })
        .about("The batch-latency limit under which the best configuration is chosen."),
        &DATA_VERSION,
    ];
}
