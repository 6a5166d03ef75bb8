//! The columns readers see, one typed definition each: key, label, unit,
//! definition, whether it is measured or derived, its alignment, and how to
//! read its value from a configuration. The same definitions feed the table
//! headers and cells of every page, the CSV headers and records, the about
//! page and the data dictionary, so they cannot drift apart.
//!
//! Each kind of measurement has its own column set: [`tokens`] for the
//! per-token workloads ([`ModelFile`]), [`diffusion`] for text to image and
//! text to video ([`DiffusionFile`]). A new kind adds a module of
//! `Column<ItsFile>` constants and a [`ColumnSet`].

use std::borrow::Cow;

use crate::fmt;
use crate::footprint::Footprint;
use crate::model::{DiffusionFile, Measurements, ModelFile};

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

/// How a column's cells are aligned in a table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Align {
    /// Right-aligned figures (`class="num"`).
    Number,
    /// Left-aligned text.
    Text,
}

/// Where a cell of the column links in a table of best rows (leaderboard,
/// GPU page).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Link {
    /// No link.
    None,
    /// The model's page, at the row's GPU.
    Model,
    /// The GPU's page.
    Gpu,
    /// The configuration's row on the model's page.
    Row,
}

/// One configuration as a column reads it: the configuration, its model
/// file, the workload it was measured on, and its rank when it is a
/// leaderboard row.
#[derive(Debug)]
pub struct Record<'a, M: Measurements> {
    /// The workload's id.
    pub workload: &'a str,
    /// The model file.
    pub model: &'a M,
    /// The configuration.
    pub config: &'a M::Config,
    /// Position in the workload's leaderboard, from 1.
    pub rank: Option<usize>,
}

/// One value of a column, before it is formatted for a page or a CSV file.
#[derive(Debug, Clone)]
pub enum Value<'a> {
    /// Text, shown as it is.
    Text(Cow<'a, str>),
    /// A whole number.
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

    /// The raw value a sortable table sorts on (figures only).
    pub fn sort(&self) -> Option<String> {
        match self {
            Value::Whole(n) => Some(n.to_string()),
            Value::Number(v, _) => Some(format!("{v}")),
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

fn whole(n: u32) -> Value<'static> {
    Value::Whole(u64::from(n))
}

fn number(v: f64, page: fn(f64) -> String) -> Value<'static> {
    Value::Number(v, page)
}

/// Joules with one decimal, thousands grouped: `11,974.3`.
fn joules_grouped(v: f64) -> String {
    fmt::grouped_fixed(v, 1)
}

fn one_decimal(v: f64) -> String {
    fmt::fixed(v, 1)
}

/// One column of the configurations of model files `M`.
pub struct Column<M: Measurements + 'static> {
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
    /// Alignment of its cells in a table.
    pub align: Align,
    /// Where its cells link in a table of best rows.
    pub link: Link,
    /// Its value for one configuration.
    pub read: for<'r> fn(&Record<'r, M>) -> Value<'r>,
}

impl<M: Measurements> std::fmt::Debug for Column<M> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Column")
            .field("key", &self.key)
            .finish_non_exhaustive()
    }
}

impl<M: Measurements> Column<M> {
    /// The column's value for `record`.
    pub fn value<'r>(&self, record: &Record<'r, M>) -> Value<'r> {
        (self.read)(record)
    }

    /// The CSV header: the key with its unit in parentheses, e.g.
    /// `median_itl_ms (ms)`.
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

    /// Short header label.
    pub fn label(self) -> &'static str {
        match self {
            FootprintColumn::Carbon => "Carbon",
            FootprintColumn::Cost => "Electricity cost",
        }
    }

    /// What the column means, in one sentence (a column head's hover
    /// text).
    pub fn definition(self) -> &'static str {
        match self {
            FootprintColumn::Carbon => {
                "Grams of CO₂e for the headline energy, at the grid carbon intensity the site's settings give; GPU energy only, so a floor."
            }
            FootprintColumn::Cost => {
                "Electricity cost of the headline energy, at the price the site's settings give; GPU energy only, so a floor."
            }
        }
    }

    /// The unit per `per` (the headline's basis, e.g. "M tok" or
    /// "image"), or `None` when the settings do not give this column.
    pub fn unit(self, f: &Footprint, per: &str) -> Option<String> {
        match self {
            FootprintColumn::Carbon => f.carbon.as_ref().map(|_| format!("g CO₂e/{per}")),
            FootprintColumn::Cost => f.currency().map(|c| format!("{c}/{per}")),
        }
    }

    /// The column's value for `wh` watt-hours of GPU energy, or `None`
    /// when the settings do not give it.
    pub fn value(self, f: &Footprint, wh: f64) -> Option<f64> {
        let impact = f.of_wh(wh);
        match self {
            FootprintColumn::Carbon => impact.grams_co2e,
            FootprintColumn::Cost => impact.cost,
        }
    }
}

/// A column of a page's table: a column of the kind's set, or a footprint
/// column (present only when the settings give it).
pub enum Shown<M: Measurements + 'static> {
    /// A column of the kind's set.
    Figure(&'static Column<M>),
    /// Carbon or cost.
    Footprint(FootprintColumn),
}

/// The columns of one kind of measurement: their definitions, and where
/// the about page defines them (`#<anchor><key>`).
pub struct ColumnSet<M: Measurements + 'static> {
    /// Heading on the about page.
    pub name: &'static str,
    /// Prefix of each column's about-page anchor.
    pub anchor: &'static str,
    /// The columns, in the order the about page lists them.
    pub columns: &'static [&'static Column<M>],
}

impl<M: Measurements> ColumnSet<M> {
    /// The about-page anchor of a column, e.g. `col-diffusion-batch_size`.
    pub fn anchor(&self, column: &Column<M>) -> String {
        format!("{}{}", self.anchor, column.key)
    }
}

/// The per-token workloads' columns; their anchors are `#col-<key>`.
pub const PER_TOKEN: ColumnSet<ModelFile> = ColumnSet {
    name: "Per-token workloads",
    anchor: "col-",
    columns: tokens::ALL,
};

/// The diffusion workloads' columns; their anchors are
/// `#col-diffusion-<key>`.
pub const DIFFUSION: ColumnSet<DiffusionFile> = ColumnSet {
    name: "Diffusion workloads (text to image and text to video)",
    anchor: "col-diffusion-",
    columns: diffusion::ALL,
};

/// The per-token workloads' columns ([`ModelFile`]), in the order the
/// configurations CSV uses.
pub mod tokens {
    use super::{Align, Column, Link, Origin, Value, fmt, number, one_decimal, text, whole};
    use crate::model::ModelFile;

    /// `rank`.
    pub const RANK: Column<ModelFile> = Column {
        key: "rank",
        label: "Rank",
        unit: "#",
        origin: Origin::Derived,
        align: Align::Number,
        link: Link::None,
        read: |r| r.rank.map_or(Value::Missing, |n| Value::Whole(n as u64)),
        definition: "Position in the leaderboard: rows ordered by Wh per million output tokens, lowest first (leaderboard.csv only).",
    };

    /// `workload`.
    pub const WORKLOAD: Column<ModelFile> = Column {
        key: "workload",
        label: "Workload",
        unit: "",
        origin: Origin::Setting,
        align: Align::Text,
        link: Link::None,
        read: |r| text(r.workload),
        definition: "The workload measured, by its id (e.g. lm-arena-chat, gpqa); each workload has its own prompts, output lengths and latency deadline, so figures compare only within one workload.",
    };

    /// `model_slug`.
    pub const MODEL_SLUG: Column<ModelFile> = Column {
        key: "model_slug",
        label: "Model slug",
        unit: "",
        origin: Origin::Setting,
        align: Align::Text,
        link: Link::None,
        read: |r| text(&r.model.slug),
        definition: "The model's identifier in URLs and file names.",
    };

    /// `model`.
    pub const MODEL: Column<ModelFile> = Column {
        key: "model",
        label: "Model",
        unit: "",
        origin: Origin::Setting,
        align: Align::Text,
        link: Link::Model,
        read: |r| text(&r.model.name),
        definition: "The model's display name; it links to the model's page.",
    };

    /// `model_id`.
    pub const MODEL_ID: Column<ModelFile> = Column {
        key: "model_id",
        label: "Model ID",
        unit: "",
        origin: Origin::Setting,
        align: Align::Text,
        link: Link::None,
        read: |r| text(&r.model.model_id),
        definition: "The model's Hugging Face identifier.",
    };

    /// `params_billion`.
    pub const PARAMS_BILLION: Column<ModelFile> = Column {
        key: "params_billion",
        label: "Total params",
        unit: "B",
        origin: Origin::Setting,
        align: Align::Number,
        link: Link::None,
        read: |r| number(r.model.params_b, fmt::params_b),
        definition: "Total parameters of the model, in billions.",
    };

    /// `active_params_billion`.
    pub const ACTIVE_PARAMS_BILLION: Column<ModelFile> = Column {
        key: "active_params_billion",
        label: "Active params",
        unit: "B",
        origin: Origin::Setting,
        align: Align::Number,
        link: Link::None,
        read: |r| number(r.model.active_params_b, fmt::params_b),
        definition: "Parameters used for each token, in billions; lower than the total for mixture-of-experts (MoE) models.",
    };

    /// `architecture`.
    pub const ARCHITECTURE: Column<ModelFile> = Column {
        key: "architecture",
        label: "Architecture",
        unit: "",
        origin: Origin::Setting,
        align: Align::Text,
        link: Link::None,
        read: |r| text(&r.model.architecture),
        definition: "Dense transformer or mixture of experts (MoE).",
    };

    /// `row_id`.
    pub const ROW_ID: Column<ModelFile> = Column {
        key: "row_id",
        label: "Row ID",
        unit: "",
        origin: Origin::Setting,
        align: Align::Text,
        link: Link::None,
        read: |r| text(&r.config.row_id),
        definition: "The configuration's identifier in the data file; its page anchor is built from it.",
    };

    /// `gpu`.
    pub const GPU: Column<ModelFile> = Column {
        key: "gpu",
        label: "GPU",
        unit: "",
        origin: Origin::Setting,
        align: Align::Text,
        link: Link::Gpu,
        read: |r| text(&r.config.gpu),
        definition: "The GPU type the configuration ran on.",
    };

    /// `num_gpus`.
    pub const NUM_GPUS: Column<ModelFile> = Column {
        key: "num_gpus",
        label: "GPUs",
        unit: "count",
        origin: Origin::Setting,
        align: Align::Number,
        link: Link::None,
        read: |r| whole(r.config.num_gpus),
        definition: "Number of GPUs serving the model in this configuration.",
    };

    /// `parallelism`.
    pub const PARALLELISM: Column<ModelFile> = Column {
        key: "parallelism",
        label: "Parallelism",
        unit: "",
        origin: Origin::Setting,
        align: Align::Text,
        link: Link::None,
        read: |r| Value::Text(r.config.parallelism().into()),
        definition: "How the model is split over the GPUs: TP = tensor parallel, EP = expert parallel, DP = data parallel, each with its degree; \"none\" on one GPU.",
    };

    /// `tensor_parallel`.
    pub const TENSOR_PARALLEL: Column<ModelFile> = Column {
        key: "tensor_parallel",
        label: "TP",
        unit: "degree",
        origin: Origin::Setting,
        align: Align::Number,
        link: Link::None,
        read: |r| whole(r.config.tensor_parallel),
        definition: "Tensor-parallel degree: each layer split over this many GPUs.",
    };

    /// `expert_parallel`.
    pub const EXPERT_PARALLEL: Column<ModelFile> = Column {
        key: "expert_parallel",
        label: "EP",
        unit: "degree",
        origin: Origin::Setting,
        align: Align::Number,
        link: Link::None,
        read: |r| whole(r.config.expert_parallel),
        definition: "Expert-parallel degree: the experts of a MoE model spread over this many GPUs.",
    };

    /// `data_parallel`.
    pub const DATA_PARALLEL: Column<ModelFile> = Column {
        key: "data_parallel",
        label: "DP",
        unit: "degree",
        origin: Origin::Setting,
        align: Align::Number,
        link: Link::None,
        read: |r| whole(r.config.data_parallel),
        definition: "Data-parallel degree: this many replicas serve requests side by side.",
    };

    /// `precision`.
    pub const PRECISION: Column<ModelFile> = Column {
        key: "precision",
        label: "Precision",
        unit: "",
        origin: Origin::Setting,
        align: Align::Text,
        link: Link::None,
        read: |r| text(&r.config.precision),
        definition: "Numeric format of the weights, e.g. BF16 or FP8.",
    };

    /// `max_num_seqs`.
    pub const MAX_NUM_SEQS: Column<ModelFile> = Column {
        key: "max_num_seqs",
        label: "Max concurrency",
        unit: "seqs",
        origin: Origin::Setting,
        align: Align::Number,
        link: Link::None,
        read: |r| whole(r.config.max_num_seqs),
        definition: "vLLM's max_num_seqs: the most requests the server processes at once.",
    };

    /// `repeat`.
    pub const REPEAT: Column<ModelFile> = Column {
        key: "repeat",
        label: "Run",
        unit: "#",
        origin: Origin::Setting,
        align: Align::Number,
        link: Link::None,
        read: |r| whole(r.config.repeat),
        definition: "1 for the first run of a configuration, 2 or more for a repeated run. Repeats are shown as their own rows and points, never averaged.",
    };

    /// `wh_per_million_output_tokens`.
    pub const WH_PER_MILLION_OUTPUT_TOKENS: Column<ModelFile> = Column {
        key: "wh_per_million_output_tokens",
        label: "Energy per token",
        unit: "Wh/M tok",
        origin: Origin::Measured,
        align: Align::Number,
        link: Link::Row,
        read: |r| number(r.config.wh_per_million_output_tokens, fmt::wh_per_million),
        definition: "Steady-state GPU energy per million output tokens, in watt-hours. The leaderboard's headline figure.",
    };

    /// `joules_per_output_token`.
    pub const JOULES_PER_OUTPUT_TOKEN: Column<ModelFile> = Column {
        key: "joules_per_output_token",
        label: "Joules per token",
        unit: "J/tok",
        origin: Origin::Measured,
        align: Align::Number,
        link: Link::None,
        read: |r| number(r.config.joules_per_output_token, fmt::joules_per_token),
        definition: "Steady-state GPU energy per output token, in joules. Wh per million tokens = J per token × 1,000,000 / 3,600.",
    };

    /// `wh_per_response`.
    pub const WH_PER_RESPONSE: Column<ModelFile> = Column {
        key: "wh_per_response",
        label: "Watt-hours per response",
        unit: "Wh",
        origin: Origin::Derived,
        align: Align::Number,
        link: Link::None,
        read: |r| number(r.config.wh_per_response(), fmt::wh_per_response),
        definition: "Energy for one average response: J per token × average output tokens / 3,600.",
    };

    /// `joules_per_response`.
    pub const JOULES_PER_RESPONSE: Column<ModelFile> = Column {
        key: "joules_per_response",
        label: "Energy per response",
        unit: "J",
        origin: Origin::Derived,
        align: Align::Number,
        link: Link::None,
        read: |r| number(r.config.joules_per_response(), super::joules_grouped),
        definition: "Energy for one average response: J per token × average output tokens.",
    };

    /// `tokens_per_wh`.
    pub const TOKENS_PER_WH: Column<ModelFile> = Column {
        key: "tokens_per_wh",
        label: "Tokens per Wh",
        unit: "tok/Wh",
        origin: Origin::Derived,
        align: Align::Number,
        link: Link::None,
        read: |r| number(r.config.tokens_per_wh(), fmt::grouped),
        definition: "Output tokens generated per watt-hour: 3,600 / J per token.",
    };

    /// `median_itl_ms`.
    pub const MEDIAN_ITL_MS: Column<ModelFile> = Column {
        key: "median_itl_ms",
        label: "Median ITL",
        unit: "ms",
        origin: Origin::Measured,
        align: Align::Number,
        link: Link::None,
        read: |r| number(r.config.median_itl_ms, fmt::ms),
        definition: "Median inter-token latency: the typical time between two output tokens of one response, in milliseconds. The selection rule's latency limit applies to it.",
    };

    /// `p90_itl_ms`.
    pub const P90_ITL_MS: Column<ModelFile> = Column {
        key: "p90_itl_ms",
        label: "p90 ITL",
        unit: "ms",
        origin: Origin::Measured,
        align: Align::Number,
        link: Link::None,
        read: |r| number(r.config.p90_itl_ms, fmt::ms),
        definition: "90th-percentile inter-token latency, in milliseconds.",
    };

    /// `p95_itl_ms`.
    pub const P95_ITL_MS: Column<ModelFile> = Column {
        key: "p95_itl_ms",
        label: "p95 ITL",
        unit: "ms",
        origin: Origin::Measured,
        align: Align::Number,
        link: Link::None,
        read: |r| number(r.config.p95_itl_ms, fmt::ms),
        definition: "95th-percentile inter-token latency, in milliseconds.",
    };

    /// `p99_itl_ms`.
    pub const P99_ITL_MS: Column<ModelFile> = Column {
        key: "p99_itl_ms",
        label: "p99 ITL",
        unit: "ms",
        origin: Origin::Measured,
        align: Align::Number,
        link: Link::None,
        read: |r| number(r.config.p99_itl_ms, fmt::ms),
        definition: "99th-percentile inter-token latency, in milliseconds: the slow tail a reader of a streaming response notices.",
    };

    /// `tokens_per_second`.
    pub const TOKENS_PER_SECOND: Column<ModelFile> = Column {
        key: "tokens_per_second",
        label: "Throughput",
        unit: "tok/s",
        origin: Origin::Measured,
        align: Align::Number,
        link: Link::None,
        read: |r| number(r.config.tokens_per_second, fmt::grouped),
        definition: "Output tokens generated per second by all the configuration's GPUs together.",
    };

    /// `gpu_power_watts`.
    pub const GPU_POWER_WATTS: Column<ModelFile> = Column {
        key: "gpu_power_watts",
        label: "GPU power",
        unit: "W",
        origin: Origin::Measured,
        align: Align::Number,
        link: Link::None,
        read: |r| number(r.config.gpu_power_watts_total, fmt::grouped),
        definition: "Average measured GPU power during the steady state, summed over the GPUs used, in watts.",
    };

    /// `avg_output_tokens`.
    pub const AVG_OUTPUT_TOKENS: Column<ModelFile> = Column {
        key: "avg_output_tokens",
        label: "Output length",
        unit: "tok",
        origin: Origin::Measured,
        align: Align::Number,
        link: Link::None,
        read: |r| number(r.config.avg_output_tokens, fmt::grouped),
        definition: "Average number of output tokens per response.",
    };

    /// `avg_requests_in_flight`.
    pub const AVG_REQUESTS_IN_FLIGHT: Column<ModelFile> = Column {
        key: "avg_requests_in_flight",
        label: "Requests in flight",
        unit: "req",
        origin: Origin::Measured,
        align: Align::Number,
        link: Link::None,
        read: |r| number(r.config.avg_requests_in_flight, one_decimal),
        definition: "Average number of requests in the server during the steady state.",
    };

    /// `avg_running_batch`.
    pub const AVG_RUNNING_BATCH: Column<ModelFile> = Column {
        key: "avg_running_batch",
        label: "Running batch",
        unit: "seqs",
        origin: Origin::Measured,
        align: Align::Number,
        link: Link::None,
        read: |r| number(r.config.avg_running_batch, one_decimal),
        definition: "Average number of sequences in the running batch during the steady state.",
    };

    /// `under_itl_deadline`.
    pub const UNDER_ITL_DEADLINE: Column<ModelFile> = Column {
        key: "under_itl_deadline",
        label: "Within deadline",
        unit: "",
        origin: Origin::Derived,
        align: Align::Text,
        link: Link::None,
        read: |r| Value::Flag(r.config.under_itl_deadline),
        definition: "Whether median ITL ≤ the file's deadline (500 ms for the seed data).",
    };

    /// `itl_deadline_ms`.
    pub const ITL_DEADLINE_MS: Column<ModelFile> = Column {
        key: "itl_deadline_ms",
        label: "Deadline",
        unit: "ms",
        origin: Origin::Setting,
        align: Align::Number,
        link: Link::None,
        read: |r| number(r.model.itl_deadline_ms, fmt::ms),
        definition: "The median-ITL limit under which the best configuration is chosen.",
    };

    /// `data_version`.
    pub const DATA_VERSION: Column<ModelFile> = Column {
        key: "data_version",
        label: "Data version",
        unit: "",
        origin: Origin::Setting,
        align: Align::Text,
        link: Link::None,
        read: |r| text(&r.model.data_version),
        definition: "Version (date) of the data file the row comes from.",
    };

    /// Every column, in the order the about page and the CSV files use.
    pub const ALL: &[&Column<ModelFile>] = &[
        &RANK,
        &WORKLOAD,
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
        &TENSOR_PARALLEL,
        &EXPERT_PARALLEL,
        &DATA_PARALLEL,
        &PRECISION,
        &MAX_NUM_SEQS,
        &REPEAT,
        &WH_PER_MILLION_OUTPUT_TOKENS,
        &JOULES_PER_OUTPUT_TOKEN,
        &WH_PER_RESPONSE,
        &JOULES_PER_RESPONSE,
        &TOKENS_PER_WH,
        &MEDIAN_ITL_MS,
        &P90_ITL_MS,
        &P95_ITL_MS,
        &P99_ITL_MS,
        &TOKENS_PER_SECOND,
        &GPU_POWER_WATTS,
        &AVG_OUTPUT_TOKENS,
        &AVG_REQUESTS_IN_FLIGHT,
        &AVG_RUNNING_BATCH,
        &UNDER_ITL_DEADLINE,
        &ITL_DEADLINE_MS,
        &DATA_VERSION,
    ];
}

/// Every column of the diffusion workloads (text to image, text to video),
/// in the order their CSV files use; an image file uses the `image` columns
/// and a video file the `video` ones.
pub mod diffusion {
    use super::{Align, Column, Link, Origin, Value, fmt, number, text, whole};
    use crate::model::DiffusionFile;

    /// `rank`.
    pub const RANK: Column<DiffusionFile> = Column {
        key: "rank",
        label: "Rank",
        unit: "#",
        origin: Origin::Derived,
        align: Align::Number,
        link: Link::None,
        read: |r| r.rank.map_or(Value::Missing, |n| Value::Whole(n as u64)),
        definition: "Position in the leaderboard: rows ordered by energy per image (or video), lowest first (leaderboard-image.csv and leaderboard-video.csv only).",
    };

    /// `workload`.
    pub const WORKLOAD: Column<DiffusionFile> = Column {
        key: "workload",
        label: "Workload",
        unit: "",
        origin: Origin::Setting,
        align: Align::Text,
        link: Link::None,
        read: |r| text(r.workload),
        definition: "The workload measured, by its id (text-to-image or text-to-video); figures compare only within one workload.",
    };

    /// `model_slug`.
    pub const MODEL_SLUG: Column<DiffusionFile> = Column {
        key: "model_slug",
        label: "Model slug",
        unit: "",
        origin: Origin::Setting,
        align: Align::Text,
        link: Link::None,
        read: |r| text(&r.model.slug),
        definition: "The model's identifier in URLs and file names.",
    };

    /// `model`.
    pub const MODEL: Column<DiffusionFile> = Column {
        key: "model",
        label: "Model",
        unit: "",
        origin: Origin::Setting,
        align: Align::Text,
        link: Link::Model,
        read: |r| text(&r.model.name),
        definition: "The model's display name; it links to the model's page.",
    };

    /// `model_id`.
    pub const MODEL_ID: Column<DiffusionFile> = Column {
        key: "model_id",
        label: "Model ID",
        unit: "",
        origin: Origin::Setting,
        align: Align::Text,
        link: Link::None,
        read: |r| text(&r.model.model_id),
        definition: "The model's Hugging Face identifier.",
    };

    /// `params_billion`.
    pub const PARAMS_BILLION: Column<DiffusionFile> = Column {
        key: "params_billion",
        label: "Params",
        unit: "B",
        origin: Origin::Setting,
        align: Align::Number,
        link: Link::None,
        read: |r| number(r.model.params_b, fmt::params_b),
        definition: "Parameters of the diffusion model, in billions.",
    };

    /// `architecture`.
    pub const ARCHITECTURE: Column<DiffusionFile> = Column {
        key: "architecture",
        label: "Architecture",
        unit: "",
        origin: Origin::Setting,
        align: Align::Text,
        link: Link::None,
        read: |r| text(&r.model.architecture),
        definition: "The model's architecture (Diffusion).",
    };

    /// `row_id`.
    pub const ROW_ID: Column<DiffusionFile> = Column {
        key: "row_id",
        label: "Row ID",
        unit: "",
        origin: Origin::Setting,
        align: Align::Text,
        link: Link::None,
        read: |r| text(&r.config.row_id),
        definition: "The configuration's identifier in the data file; its page anchor is built from it.",
    };

    /// `gpu`.
    pub const GPU: Column<DiffusionFile> = Column {
        key: "gpu",
        label: "GPU",
        unit: "",
        origin: Origin::Setting,
        align: Align::Text,
        link: Link::Gpu,
        read: |r| text(&r.config.gpu),
        definition: "The GPU type the configuration ran on.",
    };

    /// `num_gpus`.
    pub const NUM_GPUS: Column<DiffusionFile> = Column {
        key: "num_gpus",
        label: "GPUs",
        unit: "count",
        origin: Origin::Setting,
        align: Align::Number,
        link: Link::None,
        read: |r| whole(r.config.num_gpus),
        definition: "Number of GPUs generating each image or video together.",
    };

    /// `parallelism`.
    pub const PARALLELISM: Column<DiffusionFile> = Column {
        key: "parallelism",
        label: "Sequence parallel",
        unit: "",
        origin: Origin::Setting,
        align: Align::Text,
        link: Link::None,
        read: |r| Value::Text(r.config.parallelism().into()),
        definition: "How each image or video is split over the GPUs: U = Ulysses degree, R = ring degree (U × R = GPUs); \"none\" on one GPU.",
    };

    /// `ulysses_degree`.
    pub const ULYSSES_DEGREE: Column<DiffusionFile> = Column {
        key: "ulysses_degree",
        label: "Ulysses",
        unit: "degree",
        origin: Origin::Setting,
        align: Align::Number,
        link: Link::None,
        read: |r| whole(r.config.ulysses_degree),
        definition: "Ulysses sequence-parallel degree: attention heads spread over this many GPUs.",
    };

    /// `ring_degree`.
    pub const RING_DEGREE: Column<DiffusionFile> = Column {
        key: "ring_degree",
        label: "Ring",
        unit: "degree",
        origin: Origin::Setting,
        align: Align::Number,
        link: Link::None,
        read: |r| whole(r.config.ring_degree),
        definition: "Ring sequence-parallel degree: the sequence passed around this many GPUs in a ring.",
    };

    /// `precision`.
    pub const PRECISION: Column<DiffusionFile> = Column {
        key: "precision",
        label: "Precision",
        unit: "",
        origin: Origin::Setting,
        align: Align::Text,
        link: Link::None,
        read: |r| text(&r.config.precision),
        definition: "Numeric format of the weights, e.g. BF16.",
    };

    /// `batch_size`.
    pub const BATCH_SIZE: Column<DiffusionFile> = Column {
        key: "batch_size",
        label: "Batch size",
        unit: "items",
        origin: Origin::Setting,
        align: Align::Number,
        link: Link::None,
        read: |r| whole(r.config.batch_size),
        definition: "Images or videos generated together in one batch.",
    };

    /// `inference_steps`.
    pub const INFERENCE_STEPS: Column<DiffusionFile> = Column {
        key: "inference_steps",
        label: "Steps",
        unit: "steps",
        origin: Origin::Setting,
        align: Align::Number,
        link: Link::None,
        read: |r| whole(r.config.inference_steps),
        definition: "Denoising steps per image or video, the model's default.",
    };

    /// `resolution`.
    pub const RESOLUTION: Column<DiffusionFile> = Column {
        key: "resolution",
        label: "Output",
        unit: "px",
        origin: Origin::Setting,
        align: Align::Text,
        link: Link::None,
        read: |r| Value::Text(r.config.resolution().into()),
        definition: "Width × height of the output in pixels; for a video also its frames and frame rate.",
    };

    /// `image_height`.
    pub const IMAGE_HEIGHT: Column<DiffusionFile> = Column {
        key: "image_height",
        label: "Height",
        unit: "px",
        origin: Origin::Setting,
        align: Align::Number,
        link: Link::None,
        read: |r| r.config.image_height.map_or(Value::Missing, whole),
        definition: "Image height in pixels.",
    };

    /// `image_width`.
    pub const IMAGE_WIDTH: Column<DiffusionFile> = Column {
        key: "image_width",
        label: "Width",
        unit: "px",
        origin: Origin::Setting,
        align: Align::Number,
        link: Link::None,
        read: |r| r.config.image_width.map_or(Value::Missing, whole),
        definition: "Image width in pixels.",
    };

    /// `video_height`.
    pub const VIDEO_HEIGHT: Column<DiffusionFile> = Column {
        key: "video_height",
        label: "Height",
        unit: "px",
        origin: Origin::Setting,
        align: Align::Number,
        link: Link::None,
        read: |r| r.config.video_height.map_or(Value::Missing, whole),
        definition: "Video height in pixels.",
    };

    /// `video_width`.
    pub const VIDEO_WIDTH: Column<DiffusionFile> = Column {
        key: "video_width",
        label: "Width",
        unit: "px",
        origin: Origin::Setting,
        align: Align::Number,
        link: Link::None,
        read: |r| r.config.video_width.map_or(Value::Missing, whole),
        definition: "Video width in pixels.",
    };

    /// `num_frames`.
    pub const NUM_FRAMES: Column<DiffusionFile> = Column {
        key: "num_frames",
        label: "Frames",
        unit: "frames",
        origin: Origin::Setting,
        align: Align::Number,
        link: Link::None,
        read: |r| r.config.num_frames.map_or(Value::Missing, whole),
        definition: "Frames per video.",
    };

    /// `fps`.
    pub const FPS: Column<DiffusionFile> = Column {
        key: "fps",
        label: "Frame rate",
        unit: "fps",
        origin: Origin::Setting,
        align: Align::Number,
        link: Link::None,
        read: |r| {
            r.config
                .fps
                .map_or(Value::Missing, |v| number(v, fmt::setting))
        },
        definition: "Frames per second of the video.",
    };

    /// `video_seconds`.
    pub const VIDEO_SECONDS: Column<DiffusionFile> = Column {
        key: "video_seconds",
        label: "Video length",
        unit: "s",
        origin: Origin::Derived,
        align: Align::Number,
        link: Link::None,
        read: |r| {
            r.config
                .video_seconds()
                .map_or(Value::Missing, |v| number(v, fmt::seconds))
        },
        definition: "Length of the generated video: frames / frame rate.",
    };

    /// `repeat`.
    pub const REPEAT: Column<DiffusionFile> = Column {
        key: "repeat",
        label: "Run",
        unit: "#",
        origin: Origin::Setting,
        align: Align::Number,
        link: Link::None,
        read: |r| whole(r.config.repeat),
        definition: "1 for the first run of a configuration, 2 or more for a repeated run. Repeats are shown as their own rows and points, never averaged.",
    };

    /// `joules_per_image`.
    pub const JOULES_PER_IMAGE: Column<DiffusionFile> = Column {
        key: "joules_per_image",
        label: "Energy per image",
        unit: "J/image",
        origin: Origin::Measured,
        align: Align::Number,
        link: Link::Row,
        read: |r| number(r.config.joules_per_item(), fmt::joules_per_item),
        definition: "GPU energy per generated image, in joules: the energy of a batch, summed over the GPUs, divided by the batch size. The text-to-image leaderboard's headline figure.",
    };

    /// `joules_per_video`.
    pub const JOULES_PER_VIDEO: Column<DiffusionFile> = Column {
        key: "joules_per_video",
        label: "Energy per video",
        unit: "J/video",
        origin: Origin::Measured,
        align: Align::Number,
        link: Link::Row,
        read: |r| number(r.config.joules_per_item(), fmt::joules_per_item),
        definition: "GPU energy per generated video, in joules: the energy of a batch, summed over the GPUs, divided by the batch size. The text-to-video leaderboard's headline figure.",
    };

    /// `wh_per_image`.
    pub const WH_PER_IMAGE: Column<DiffusionFile> = Column {
        key: "wh_per_image",
        label: "Watt-hours per image",
        unit: "Wh/image",
        origin: Origin::Derived,
        align: Align::Number,
        link: Link::None,
        read: |r| number(r.config.wh_per_item(), fmt::wh_per_item),
        definition: "Energy per image in watt-hours: J per image / 3,600.",
    };

    /// `wh_per_video`.
    pub const WH_PER_VIDEO: Column<DiffusionFile> = Column {
        key: "wh_per_video",
        label: "Watt-hours per video",
        unit: "Wh/video",
        origin: Origin::Derived,
        align: Align::Number,
        link: Link::None,
        read: |r| number(r.config.wh_per_item(), fmt::wh_per_item),
        definition: "Energy per video in watt-hours: J per video / 3,600.",
    };

    /// `images_per_kwh`.
    pub const IMAGES_PER_KWH: Column<DiffusionFile> = Column {
        key: "images_per_kwh",
        label: "Images per kWh",
        unit: "images/kWh",
        origin: Origin::Derived,
        align: Align::Number,
        link: Link::None,
        read: |r| number(r.config.items_per_kwh(), fmt::items_per_kwh),
        definition: "Images generated per kilowatt-hour of GPU energy: 3,600,000 / J per image.",
    };

    /// `videos_per_kwh`.
    pub const VIDEOS_PER_KWH: Column<DiffusionFile> = Column {
        key: "videos_per_kwh",
        label: "Videos per kWh",
        unit: "videos/kWh",
        origin: Origin::Derived,
        align: Align::Number,
        link: Link::None,
        read: |r| number(r.config.items_per_kwh(), fmt::items_per_kwh),
        definition: "Videos generated per kilowatt-hour of GPU energy: 3,600,000 / J per video.",
    };

    /// `joules_per_video_second`.
    pub const JOULES_PER_VIDEO_SECOND: Column<DiffusionFile> = Column {
        key: "joules_per_video_second",
        label: "Energy per video second",
        unit: "J/s",
        origin: Origin::Derived,
        align: Align::Number,
        link: Link::None,
        read: |r| {
            r.config
                .joules_per_video_second()
                .map_or(Value::Missing, |v| number(v, fmt::grouped))
        },
        definition: "GPU energy per second of generated video: J per video / (frames / frame rate).",
    };

    /// `batch_latency_s`.
    pub const BATCH_LATENCY_S: Column<DiffusionFile> = Column {
        key: "batch_latency_s",
        label: "Batch latency",
        unit: "s",
        origin: Origin::Measured,
        align: Align::Number,
        link: Link::None,
        read: |r| number(r.config.batch_latency_s, fmt::seconds),
        definition: "Time to generate one batch, in seconds. The selection rule's latency limit applies to it.",
    };

    /// `images_per_second`.
    pub const IMAGES_PER_SECOND: Column<DiffusionFile> = Column {
        key: "images_per_second",
        label: "Throughput",
        unit: "images/s",
        origin: Origin::Measured,
        align: Align::Number,
        link: Link::None,
        read: |r| number(r.config.items_per_second(), fmt::rate),
        definition: "Images generated per second by all the configuration's GPUs together: batch size / batch latency.",
    };

    /// `videos_per_second`.
    pub const VIDEOS_PER_SECOND: Column<DiffusionFile> = Column {
        key: "videos_per_second",
        label: "Throughput",
        unit: "videos/s",
        origin: Origin::Measured,
        align: Align::Number,
        link: Link::None,
        read: |r| number(r.config.items_per_second(), fmt::rate),
        definition: "Videos generated per second by all the configuration's GPUs together: batch size / batch latency.",
    };

    /// `gpu_power_watts`.
    pub const GPU_POWER_WATTS: Column<DiffusionFile> = Column {
        key: "gpu_power_watts",
        label: "GPU power",
        unit: "W",
        origin: Origin::Measured,
        align: Align::Number,
        link: Link::None,
        read: |r| number(r.config.gpu_power_watts_total, fmt::grouped),
        definition: "Average measured GPU power while generating, summed over the GPUs used, in watts (energy per item × items per second).",
    };

    /// `under_latency_deadline`.
    pub const UNDER_LATENCY_DEADLINE: Column<DiffusionFile> = Column {
        key: "under_latency_deadline",
        label: "Within deadline",
        unit: "",
        origin: Origin::Derived,
        align: Align::Text,
        link: Link::None,
        read: |r| Value::Flag(r.config.under_latency_deadline),
        definition: "Whether batch latency ≤ the workload's deadline (30 s for text to image, 300 s for text to video upstream).",
    };

    /// `batch_latency_deadline_s`.
    pub const BATCH_LATENCY_DEADLINE_S: Column<DiffusionFile> = Column {
        key: "batch_latency_deadline_s",
        label: "Deadline",
        unit: "s",
        origin: Origin::Setting,
        align: Align::Number,
        link: Link::None,
        read: |r| number(r.model.batch_latency_deadline_s, fmt::seconds),
        definition: "The batch-latency limit under which the best configuration is chosen.",
    };

    /// `data_version`.
    pub const DATA_VERSION: Column<DiffusionFile> = Column {
        key: "data_version",
        label: "Data version",
        unit: "",
        origin: Origin::Setting,
        align: Align::Text,
        link: Link::None,
        read: |r| text(&r.model.data_version),
        definition: "Version (date) of the data file the row comes from.",
    };

    /// Every column, in the order the about page and the CSV files use.
    pub const ALL: &[&Column<DiffusionFile>] = &[
        &RANK,
        &WORKLOAD,
        &MODEL_SLUG,
        &MODEL,
        &MODEL_ID,
        &PARAMS_BILLION,
        &ARCHITECTURE,
        &ROW_ID,
        &GPU,
        &NUM_GPUS,
        &PARALLELISM,
        &ULYSSES_DEGREE,
        &RING_DEGREE,
        &PRECISION,
        &BATCH_SIZE,
        &INFERENCE_STEPS,
        &RESOLUTION,
        &IMAGE_HEIGHT,
        &IMAGE_WIDTH,
        &VIDEO_HEIGHT,
        &VIDEO_WIDTH,
        &NUM_FRAMES,
        &FPS,
        &VIDEO_SECONDS,
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
        &UNDER_LATENCY_DEADLINE,
        &BATCH_LATENCY_DEADLINE_S,
        &DATA_VERSION,
    ];
}

#[cfg(test)]
mod tests {
    use super::*;

    fn keys_unique<M: Measurements>(set: &ColumnSet<M>) {
        let mut keys: Vec<_> = set.columns.iter().map(|c| c.key).collect();
        keys.sort_unstable();
        let n = keys.len();
        keys.dedup();
        assert_eq!(n, keys.len(), "{}", set.name);
    }

    #[test]
    fn keys_are_unique() {
        keys_unique(&PER_TOKEN);
        keys_unique(&DIFFUSION);
    }

    fn defined<M: Measurements>(set: &ColumnSet<M>) {
        for c in set.columns {
            assert!(!c.definition.is_empty(), "{}", c.key);
            if c.origin == Origin::Measured {
                assert!(!c.unit.is_empty(), "{} has no unit", c.key);
            }
        }
    }

    #[test]
    fn every_column_has_a_definition_and_numbers_a_unit() {
        defined(&PER_TOKEN);
        defined(&DIFFUSION);
    }

    #[test]
    fn values_format_for_pages_sorting_and_csv() {
        let v = Value::Number(39.054_321, fmt::wh_per_million);
        assert_eq!(v.page(), fmt::wh_per_million(39.054_321));
        assert_eq!(v.sort().as_deref(), Some("39.054321"));
        assert_eq!(v.csv(), "39.054321");
        assert_eq!(Value::Whole(256).sort().as_deref(), Some("256"));
        assert_eq!(text("=1+1").csv(), "'=1+1");
        assert_eq!(text("H100").sort(), None);
        assert_eq!(Value::Missing.csv(), "");
        assert_eq!(Value::Flag(true).csv(), "true");
    }

    #[test]
    fn formula_cells_are_neutralised() {
        for cell in ["=1+1", "+SUM(A1)", "-2+3", "@cmd", "\tx", "\rx"] {
            assert_eq!(csv_text(cell), format!("'{cell}"));
        }
        assert_eq!(csv_text("Qwen 3 32B"), "Qwen 3 32B");
        assert_eq!(csv_text("a=b"), "a=b");
    }

    #[test]
    fn raw_numbers_have_no_negative_zero_or_hundreds_of_digits() {
        assert_eq!(raw(-0.0), "0");
        assert_eq!(raw(39.05), "39.05");
        assert_eq!(raw(0.140_581_2), "0.1405812");
        assert_eq!(raw(1e9), "1000000000");
        assert_eq!(raw(5e-324), "5e-324");
        assert_eq!(raw(1.7e308), "1.7e308");
    }
}
