//! The pages that span workloads: the front page, one overview per model,
//! one hub per GPU and the comparison hub. The last three sit at the
//! addresses the site used before it had workloads, and send a `#fragment`
//! they do not have to the page of [`crate::workload::LEGACY_WORKLOAD`]
//! that held it then.
//!
//! Every figure here is in its own workload's unit: energy per token and
//! energy per image or video are never added, charted or ranked together.

use anyhow::Result;
use askama::Template;

use super::views::{ChartView, chart_view};
use super::{Mirror, ModelId, PageMeta, RenderCounts, Site, gpu_dir, kind, model_dir, put_page};
use crate::analyse::{WorkloadModels, cross_workload_picks};
use crate::chart::{self, BarScale, GroupedBar};
use crate::columns::{Column, JOULES, Record, Words, diffusion, tokens};
use crate::fmt;
use crate::model::Measure;
use crate::model::{Configuration, ModelFile, row_anchor};
use crate::select::GpuBest;
use crate::write::PageSink;

/// One workload's headline on the front page.
struct WorkloadCard<'a> {
    w: &'a Site<'a>,
    /// Per GPU (and per source, on a site of several): the lowest-energy model.
    best: Vec<Headline<'a>>,
    /// Each source's number of models (empty for one source); the card's class
    /// names them, so the source filter shows it only with a source it has.
    sources: Vec<SourceModels>,
}

/// A source of a workload's models, and how many of them it has.
struct SourceModels {
    source: super::SourceMark,
    models: usize,
}

#[derive(Template)]
#[template(path = "front.html")]
struct FrontPage<'a> {
    meta: PageMeta,
    cards: Vec<WorkloadCard<'a>>,
    chart: Option<ChartView>,
    caveats: Vec<Caveat>,
    /// The sentence every caveat ends with, said once after them.
    caveat_shared: Option<String>,
    info: &'a super::SiteInfo,
    /// Model and workload pairs: the model pages.
    pairs: usize,
    models: Vec<ModelLinks<'a>>,
}

/// Each distinct caveat of the site's model files, once, with the names of
/// the workloads whose files state it ("Text Conversation, Code
/// Completion"), in the workloads' order; and the last sentence every one
/// of several caveats ends with ("Every figure is a floor; ..."), taken out
/// of each and said once.
fn front_caveats(site: &Mirror<'_>) -> FrontCaveats {
    let mut out: Vec<(Vec<&str>, &str)> = Vec::new();
    for w in &site.workloads {
        let name = w.workload.name.as_str();
        for caveat in w.models.iter().map(|m| &m.file.caveat) {
            match out.iter_mut().find(|(_, c)| *c == caveat) {
                Some((names, _)) if !names.contains(&name) => names.push(name),
                Some(_) => {}
                None => out.push((vec![name], caveat)),
            }
        }
    }
    let last = |c: &str| c.trim_end().rsplit_once(". ").map(|(_, s)| s.to_owned());
    let shared = match out.as_slice() {
        [first, _, ..] => {
            last(first.1).filter(|s| out.iter().all(|(_, c)| last(c).as_ref() == Some(s)))
        }
        _ => None,
    };
    let caveats = out
        .into_iter()
        .map(|(names, c)| {
            let c = match &shared {
                Some(s) => c
                    .trim_end()
                    .strip_suffix(s.as_str())
                    .unwrap_or(c)
                    .trim_end(),
                None => c,
            };
            Caveat {
                workloads: names.join(", "),
                text: c.to_owned(),
            }
        })
        .collect();
    FrontCaveats { caveats, shared }
}

/// A caveat of the site's model files, said once on the front page.
struct Caveat {
    /// The workloads whose files state it: "Text Conversation, Code
    /// Completion".
    workloads: String,
    text: String,
}

/// The front page's caveats, and the last sentence each of several ends
/// with, taken out of each to be said once.
struct FrontCaveats {
    caveats: Vec<Caveat>,
    shared: Option<String>,
}

/// One model on the front page: its overview and its page on each
/// workload it is measured on.
struct ModelLinks<'a> {
    slug: &'a str,
    /// Its file on its first workload: its name and source.
    first: &'a ModelFile,
    sites: Vec<&'a Site<'a>>,
}

/// The best configuration of a workload's leaderboard row, as the
/// cross-workload pages show it.
struct Headline<'a> {
    w: &'a Site<'a>,
    m: &'a ModelFile,
    c: &'a Configuration,
}

impl Headline<'_> {
    /// The link from the site root to the configuration's row.
    fn href(&self) -> String {
        let anchor = row_anchor(&self.m.slug, &self.c.row_id);
        format!(
            "{}{}index.html#{anchor}",
            self.w.prefix,
            model_dir(&self.m.slug)
        )
    }
}

impl<'a> Site<'a> {
    /// The workload's lowest-energy row (the leaderboard's first) on `gpu`
    /// and of the source `from`, each if given.
    fn lowest(&'a self, gpu: Option<&str>, from: Option<&str>) -> Option<Headline<'a>> {
        crate::analyse::lowest_row(self.models, &self.leaderboard, gpu, from).map(|r| {
            let (m, c) = self.row(r);
            Headline { w: self, m, c }
        })
    }
}

/// The card of workload `w`; on a site of several sources (`mixed`), its
/// headlines are per GPU and source, each naming its source.
fn card<'a>(w: &'a Site<'a>, mixed: bool) -> WorkloadCard<'a> {
    let count = |key: &str| {
        w.models
            .iter()
            .filter(|m| m.file.source.key() == key)
            .count()
    };
    let sources: Vec<_> = w
        .info
        .sources
        .iter()
        .filter(|_| mixed)
        .map(|s| SourceModels {
            source: s.clone(),
            models: count(&s.key),
        })
        .collect();
    let from: Vec<Option<&str>> = if mixed {
        sources
            .iter()
            .map(|s| Some(s.source.key.as_str()))
            .collect()
    } else {
        vec![None]
    };
    let best = w
        .gpus
        .iter()
        .flat_map(|g| from.iter().filter_map(|&k| w.lowest(Some(g), k)))
        .collect();
    WorkloadCard { w, best, sources }
}

/// Energy per response of every model measured on several per-token
/// workloads, at its lowest-energy configuration on each. Diffusion
/// workloads have no responses to compare.
fn cross_workload_bars(site: &Mirror<'_>) -> Vec<GroupedBar> {
    let workloads: Vec<WorkloadModels<'_>> = site
        .workloads
        .iter()
        .map(|ws| WorkloadModels {
            measure: ws.workload.measure,
            models: ws.models,
            analyses: &ws.analyses,
        })
        .collect();
    cross_workload_picks(&workloads, site.slugs.values().map(Vec::as_slice))
        .into_iter()
        .map(|pick| {
            let ws = &site.workloads[pick.id.part];
            let m = &ws.models[pick.id.index].file;
            let c = &m.configurations[pick.config];
            GroupedBar {
                label: format!("{} · {} · {}", m.name, ws.workload.name, c.gpu),
                series: ws.workload.name.clone(),
                slot: pick.id.part,
                value: pick.joules_per_response,
                whose: site.whose(m),
            }
        })
        .collect()
}

/// The front page's chart of `bars` (`energy-per-response.svg`), written
/// into `sink`, and its view; `None` without bars.
fn cross_workload_chart(bars: &[GroupedBar], sink: &dyn PageSink) -> Result<Option<ChartView>> {
    if bars.is_empty() {
        return Ok(None);
    }
    let c = chart::grouped_bars(chart::BarChart {
        file_name: "energy-per-response.svg",
        title: "Energy per response across workloads, log scale",
        axis: &tokens::JOULES_PER_RESPONSE.axis_label(),
        what: "Energy per response (joules per output token × mean output tokens) of each model \
                measured on more than one workload, at its lowest-energy configuration within \
                the workload's deadline on any GPU; one bar per model and workload, grouped by \
                model.",
        bars,
        scale: BarScale::Log,
        value_text: fmt::joules_per_response,
    })?;
    sink.put(&c.file_name, c.svg.as_bytes())?;
    let mut view = chart_view(&c);
    // Of one source alone on a site of several: shown with it.
    let mut keys = bars.iter().filter_map(|b| b.whose.as_ref().map(|w| &w.key));
    if let Some(first) = keys.next().filter(|&first| keys.all(|k| k == first)) {
        view.class = format!(" from-{first}");
    }
    Ok(Some(view))
}

/// The front page (`index.html`): each workload's lowest-energy model per
/// GPU, the chart across workloads and every model's links.
pub(super) fn render_front(site: &Mirror<'_>, sink: &dyn PageSink) -> Result<RenderCounts> {
    let path = "index.html";
    let mixed = site.info.sources.len() > 1;
    let cards: Vec<WorkloadCard> = site.workloads.iter().map(|w| card(w, mixed)).collect();
    let bars = cross_workload_bars(site);
    let chart = cross_workload_chart(&bars, sink)?;
    let names: Vec<&str> = site
        .workloads
        .iter()
        .map(|w| w.workload.name.as_str())
        .collect();
    let description = format!(
        "Measured GPU energy of AI inference on {} workload{} ({}): the lowest-energy model per \
            GPU within each workload's latency deadline, for {} models.",
        site.workloads.len(),
        if site.workloads.len() == 1 { "" } else { "s" },
        names.join(", "),
        site.slugs.len()
    );
    let mut meta = site.meta(path, "", description, "home");
    meta.forward = site.legacy().map(|l| l.path("index.html"));
    meta.head_style = super::source_filter_style(&site.info.sources)?;
    let FrontCaveats {
        caveats,
        shared: caveat_shared,
    } = front_caveats(site);
    let page = FrontPage {
        meta,
        cards,
        chart,
        caveats,
        caveat_shared,
        info: &site.info,
        pairs: site.workloads.iter().map(|w| w.models.len()).sum(),
        models: site
            .slugs
            .iter()
            .map(|(slug, at)| ModelLinks {
                slug,
                first: site.file(at[0]),
                sites: at.iter().map(|id| &site.workloads[id.part]).collect(),
            })
            .collect(),
    };
    put_page(sink, path, &page)?;
    Ok(RenderCounts {
        pages: 1,
        charts: usize::from(page.chart.is_some()),
    })
}

/// One row of a model overview: the model's best on one GPU of one workload.
struct OverviewRow<'a> {
    ws: &'a Site<'a>,
    gpu: &'a str,
    /// The table's figures, the first linked to the configuration's row
    /// ("—" in a column of the other output kind); none without a
    /// configuration within the deadline.
    figures: Vec<String>,
    setup: String,
    row_href: String,
}

/// The figure columns of a model overview's table of per-token
/// workloads.
const TOKEN_OVERVIEW: &[&Column] = &[
    &tokens::WH_PER_MILLION_OUTPUT_TOKENS,
    &tokens::JOULES_PER_RESPONSE,
    &tokens::AVG_OUTPUT_TOKENS,
    &tokens::MEDIAN_ITL_MS,
];

/// The figure columns of a model overview's table of diffusion workloads;
/// a table shows those of the outputs (image, video) its workloads make.
const ITEM_OVERVIEW: &[&Column] = &[
    &diffusion::JOULES_PER_IMAGE,
    &diffusion::JOULES_PER_VIDEO,
    &diffusion::BATCH_LATENCY_S,
];

/// A header of an overview table's figure column, as its column names it.
struct Head {
    /// The column's key (`data-key`).
    key: &'static str,
    label: &'static str,
    unit: &'static str,
}

fn heads(columns: &[&'static Column]) -> Vec<Head> {
    columns
        .iter()
        .map(|c| Head {
            key: c.key,
            label: c.label,
            unit: c.unit,
        })
        .collect()
}

/// A table of a model overview: its per-token workloads, or its diffusion
/// workloads (whose figures are per image or video).
struct OverviewTable<'a> {
    id: &'static str,
    /// After the model's name.
    caption: &'static str,
    heads: Vec<Head>,
    rows: Vec<OverviewRow<'a>>,
}

#[derive(Template)]
#[template(path = "overview.html")]
struct OverviewPage<'a> {
    meta: PageMeta,
    /// The model's file on its first workload: its name and facts.
    first: &'a ModelFile,
    parameters: String,
    slug: &'a str,
    workloads: Vec<&'a Site<'a>>,
    tables: [OverviewTable<'a>; 2],
    chart: Option<ChartView>,
}

/// The overview rows of model `i` of workload `w` (its index `slot` in the
/// site), and its bars: energy per response for a per-token workload,
/// energy per image or video for a diffusion one.
fn overview_rows<'a>(
    ws: &'a Site<'a>,
    columns: &[&'static Column],
    id: ModelId,
    dir: &str,
    rows: &mut Vec<OverviewRow<'a>>,
    bars: &mut Vec<GroupedBar>,
) {
    let ModelId {
        part: slot,
        index: i,
    } = id;
    let m = &ws.models[i].file;
    let measure = ws.workload.measure;
    for GpuBest { gpu, best } in &ws.analyses[i].best_per_gpu {
        let c = best.map(|b| &m.configurations[b]);
        rows.push(OverviewRow {
            ws,
            gpu,
            figures: match c {
                Some(c) => columns
                    .iter()
                    .map(|col| {
                        if col.applies(measure) {
                            col.value(&Record::of(m, c)).page()
                        } else {
                            "—".to_owned()
                        }
                    })
                    .collect(),
                None => Vec::new(),
            },
            setup: c.map_or_else(String::new, kind::config_summary),
            row_href: match c {
                Some(c) => format!("../../{}", Headline { w: ws, m, c }.href()),
                None => format!("../../{}{dir}index.html#configurations", ws.prefix),
            },
        });
        if let Some(c) = c {
            bars.push(GroupedBar {
                label: format!("{} · {gpu}", ws.workload.name),
                series: ws.workload.name.clone(),
                slot,
                value: match ws.workload.measure {
                    Measure::Tokens => c.joules_per_response().unwrap_or(f64::NAN),
                    Measure::Diffusion(_) => c.energy(),
                },
                whose: None,
            });
        }
    }
}

/// The chart of a model overview: energy per response over its per-token
/// workloads or, for a model measured only on diffusion workloads of one
/// kind, energy per image (or video) per workload and GPU. Never both on
/// one axis; the caller passes no bars where one workload has them.
fn overview_chart(
    name: &str,
    token_bars: &[GroupedBar],
    item_bars: &[GroupedBar],
    item_measures: &[Measure],
) -> Result<Option<chart::Chart>, chart::DrawError> {
    if !token_bars.is_empty() {
        return chart::grouped_bars(chart::BarChart {
            file_name: "workloads.svg",
            title: &format!("{name}: energy per response by workload, log scale"),
            axis: &tokens::JOULES_PER_RESPONSE.axis_label(),
            what: &format!(
                "Energy per response (joules per output token × mean output tokens) of {name} at \
                    its lowest-energy configuration per GPU within each workload's deadline; \
                    one bar per workload and GPU, on a log scale, since a reasoning answer \
                    takes many times a chat answer's energy.",
            ),
            bars: token_bars,
            scale: BarScale::Log,
            value_text: fmt::joules_per_response,
        })
        .map(Some);
    }
    let (&[measure], false) = (item_measures, item_bars.is_empty()) else {
        return Ok(None);
    };
    let item = Words::of(measure).item;
    chart::grouped_bars(chart::BarChart {
        file_name: "workloads.svg",
        title: &format!("{name}: energy per {item} by workload and GPU"),
        axis: &format!("Energy per {item} ({JOULES})"),
        what: &format!(
            "Energy per {item} of {name} at its lowest-energy configuration per GPU within the \
                workload's batch-latency deadline; one bar per workload and GPU.",
        ),
        bars: item_bars,
        scale: BarScale::Linear,
        value_text: fmt::energy_per_item,
    })
    .map(Some)
}

pub(super) fn render_model_overviews(
    site: &Mirror<'_>,
    sink: &dyn PageSink,
) -> Result<RenderCounts> {
    site.slugs
        .iter()
        .try_fold(RenderCounts::default(), |counts, (slug, at)| {
            Ok(counts + render_model_overview(site, slug, at, sink)?)
        })
}

/// The overview page of the model `slug` (`/models/<slug>/`), measured
/// `at` (workload, model) pairs: its best figures on each workload.
fn render_model_overview(
    site: &Mirror<'_>,
    slug: &str,
    at: &[ModelId],
    sink: &dyn PageSink,
) -> Result<RenderCounts> {
    let mut counts = RenderCounts::ONE_PAGE;
    let dir = model_dir(slug);
    let path = format!("{dir}index.html");
    let first = site.file(at[0]);
    let parts = OverviewParts::of(site, at, &dir);
    let token_workloads = at
        .iter()
        .filter(|id| site.workloads[id.part].workload.measure == Measure::Tokens)
        .count();
    // A chart compares workloads: with one, the table says it all.
    let token_bars: &[GroupedBar] = if token_workloads >= 2 {
        &parts.token_bars
    } else {
        &[]
    };
    let item_bars: &[GroupedBar] = if at.len() - token_workloads >= 2 {
        &parts.item_bars
    } else {
        &[]
    };
    let chart = match overview_chart(&first.name, token_bars, item_bars, &parts.item_measures)? {
        Some(c) => {
            sink.put(&format!("{dir}{}", c.file_name), c.svg.as_bytes())?;
            counts.charts += 1;
            Some(chart_view(&c))
        }
        None => None,
    };
    let mut meta = site.meta(&path, &first.name, overview_description(site, at), "");
    // Old links to a row or a GPU card of this model meant the legacy
    // workload's page; a model without it has its first workload's.
    let target = at
        .iter()
        .find(|id| site.workloads[id.part].legacy())
        .unwrap_or(&at[0]);
    meta.forward = Some(site.workloads[target.part].path(&path));
    let parameters = if parts.item_rows.is_empty() {
        kind::parameters(first)
    } else {
        format!("{} B", fmt::params_b(first.params_b))
    };
    let page = OverviewPage {
        meta,
        first,
        parameters,
        slug,
        workloads: at.iter().map(|id| &site.workloads[id.part]).collect(),
        tables: [
            OverviewTable {
                id: "overview",
                caption: "best configuration per workload and GPU",
                heads: heads(TOKEN_OVERVIEW),
                rows: parts.token_rows,
            },
            OverviewTable {
                id: "overview-items",
                caption: "best configuration per diffusion workload and GPU, per generated image \
                    or video",
                heads: heads(&parts.item_columns),
                rows: parts.item_rows,
            },
        ],
        chart,
    };
    put_page(sink, &path, &page)?;
    Ok(counts)
}

/// The rows and bars of a model overview: of its per-token workloads, and
/// of its diffusion ones with the columns and measures they need.
struct OverviewParts<'a> {
    token_rows: Vec<OverviewRow<'a>>,
    token_bars: Vec<GroupedBar>,
    item_rows: Vec<OverviewRow<'a>>,
    item_bars: Vec<GroupedBar>,
    item_measures: Vec<Measure>,
    item_columns: Vec<&'static Column>,
}

impl<'a> OverviewParts<'a> {
    /// The parts of the overview of the model measured `at`, in the folder `dir`.
    fn of(site: &'a Mirror<'a>, at: &[ModelId], dir: &str) -> Self {
        let mut item_measures: Vec<Measure> = at
            .iter()
            .map(|id| site.workloads[id.part].workload.measure)
            .filter(|&m| m != Measure::Tokens)
            .collect();
        item_measures.sort_unstable();
        item_measures.dedup();
        let item_columns: Vec<&Column> = ITEM_OVERVIEW
            .iter()
            .copied()
            .filter(|c| item_measures.iter().any(|&k| c.applies(k)))
            .collect();
        let mut parts = Self {
            token_rows: Vec::new(),
            token_bars: Vec::new(),
            item_rows: Vec::new(),
            item_bars: Vec::new(),
            item_measures,
            item_columns,
        };
        for &id in at {
            let part = &site.workloads[id.part];
            if part.workload.measure == Measure::Tokens {
                let (rows, bars) = (&mut parts.token_rows, &mut parts.token_bars);
                overview_rows(part, TOKEN_OVERVIEW, id, dir, rows, bars);
            } else {
                let (rows, bars) = (&mut parts.item_rows, &mut parts.item_bars);
                overview_rows(part, &parts.item_columns, id, dir, rows, bars);
            }
        }
        parts
    }
}

/// The link-preview description of the overview of the model measured
/// `at`: its lowest measured energy on each workload.
fn overview_description(site: &Mirror<'_>, at: &[ModelId]) -> String {
    let headlines: Vec<String> = at
        .iter()
        .map(|&ModelId { part, index: i }| {
            let ws = &site.workloads[part];
            let best = ws.analyses[i]
                .best_overall
                .map(|b| &ws.models[i].file.configurations[b]);
            let name = &ws.workload.name;
            match best {
                None => format!("{name}: none within {}", ws.deadline()),
                Some(c) => {
                    let response = if ws.workload.measure == Measure::Tokens {
                        let j = c.joules_per_response().unwrap_or(f64::NAN);
                        format!(" ({} {JOULES} per response)", fmt::joules_per_response(j))
                    } else {
                        String::new()
                    };
                    let energy = kind::energy_figure(c);
                    let long = ws.words().energy_long;
                    format!("{name}: {energy} {long} on {}{response}", c.gpu)
                }
            }
        })
        .collect();
    format!(
        "{} on {} workload{}, lowest measured GPU energy: {}.",
        site.file(at[0]).name,
        at.len(),
        if at.len() == 1 { "" } else { "s" },
        headlines.join("; ")
    )
}

/// A hub row: one workload's view of a GPU or of the comparison, with its
/// lowest-energy row.
struct HubRow<'a> {
    w: &'a Site<'a>,
    href: String,
    models: usize,
    best: Option<Headline<'a>>,
    /// Whose figure it is, on a site of several sources.
    source: Option<super::SourceMark>,
}

#[derive(Template)]
#[template(path = "hub.html")]
struct HubPage<'a> {
    meta: PageMeta,
    heading: String,
    lede: String,
    link_label: String,
    /// Whether the rows are of one GPU (a best row then names its model alone).
    on_gpu: bool,
    /// The energy column's unit when every row shares it; empty when each
    /// figure carries its own.
    unit: &'static str,
    rows: Vec<HubRow<'a>>,
    /// The site's sources: with two or more, the filter and a Source column.
    sources: Vec<super::SourceMark>,
}

/// The unit every row shares, or "" when each figure carries its own.
fn shared_unit(rows: &[HubRow]) -> &'static str {
    let unit = |r: &HubRow| r.w.words().energy_unit;
    match rows.split_first() {
        Some((first, rest)) if rest.iter().all(|r| unit(r) == unit(first)) => unit(first),
        Some(_) => "",
        None => tokens::WH_PER_MILLION_OUTPUT_TOKENS.unit,
    }
}

pub(super) fn render_gpu_hubs(site: &Mirror<'_>, sink: &dyn PageSink) -> Result<RenderCounts> {
    site.gpus
        .iter()
        .try_for_each(|gpu| render_hub(site, sink, Hub::Gpu(gpu)))?;
    Ok(RenderCounts {
        pages: site.gpus.len(),
        charts: 0,
    })
}

pub(super) fn render_compare_hub(site: &Mirror<'_>, sink: &dyn PageSink) -> Result<RenderCounts> {
    render_hub(site, sink, Hub::Compare)?;
    Ok(RenderCounts::ONE_PAGE)
}

/// Which hub a page is: a GPU's, or the comparison's.
#[derive(Clone, Copy)]
enum Hub<'g> {
    /// `gpus/<gpu>/`: the workloads measured on that GPU.
    Gpu(&'g str),
    /// `compare/`: every workload.
    Compare,
}

impl<'g> Hub<'g> {
    /// The GPU the hub is limited to; `None` for the comparison hub.
    fn gpu(self) -> Option<&'g str> {
        match self {
            Hub::Gpu(gpu) => Some(gpu),
            Hub::Compare => None,
        }
    }
}

/// The words of a hub page: its page head, heading, lede, and what a row's
/// link leads to.
struct HubText {
    meta: PageMeta,
    heading: String,
    lede: String,
    link_label: String,
}

/// A hub page (`gpus/<gpu>/` or `compare/`): a row per workload (that has
/// the GPU) with its lowest-energy row; on a site of several sources, one
/// per source of the workload with models there, each with that source's
/// lowest and its number of models, so no figure of one source stands for
/// another's.
fn render_hub(site: &Mirror<'_>, sink: &dyn PageSink, hub: Hub<'_>) -> Result<()> {
    let gpu = hub.gpu();
    let path = gpu.map_or_else(
        || "compare/index.html".to_owned(),
        |g| gpu_dir(g) + "index.html",
    );
    let up = if gpu.is_some() { "../../" } else { "../" };
    let on_gpu = |gpus: &[String]| gpu.is_none_or(|g| gpus.iter().any(|x| x == g));
    let mixed = site.info.sources.len() > 1;
    let path = path.as_str();
    let rows: Vec<HubRow> = site
        .workloads
        .iter()
        .filter(|w| on_gpu(&w.gpus))
        .flat_map(|w| {
            let sources = if mixed {
                w.info.sources.iter().map(Some).collect()
            } else {
                vec![None]
            };
            sources
                .into_iter()
                .map(move |s: Option<&super::SourceMark>| {
                    let key = s.map(|s| s.key.as_str());
                    let of =
                        |f: &ModelFile| on_gpu(&f.gpus) && key.is_none_or(|k| f.source.key() == k);
                    HubRow {
                        w,
                        href: format!("{up}{}", w.path(path)),
                        models: w.models.iter().filter(|m| of(&m.file)).count(),
                        best: w.lowest(gpu, key),
                        source: s.cloned(),
                    }
                })
        })
        // A source without this GPU in the workload has no row.
        .filter(|r| r.models > 0)
        .collect();
    let HubText {
        mut meta,
        heading,
        lede,
        link_label,
    } = hub_text(site, hub, path, rows.len());
    meta.forward = site
        .legacy()
        .filter(|l| on_gpu(&l.gpus))
        .map(|l| l.path(path));
    meta.head_style = super::source_filter_style(&site.info.sources)?;
    let page = HubPage {
        meta,
        heading,
        on_gpu: gpu.is_some(),
        lede,
        link_label,
        unit: shared_unit(&rows),
        rows,
        sources: site.info.sources.clone(),
    };
    put_page(sink, path, &page)
}

/// The words of the hub page at `path`, which has `rows` rows.
fn hub_text(site: &Mirror<'_>, hub: Hub<'_>, path: &str, rows: usize) -> HubText {
    match hub {
        Hub::Gpu(gpu) => {
            let description = format!(
                "{gpu}: the lowest-energy model on each of {} workload{}, with links to each \
                    workload's {gpu} ranking.",
                rows,
                if rows == 1 { "" } else { "s" }
            );
            let per = if site.has(|m| m != Measure::Tokens) {
                "per output token, image or video, each in its workload's own unit,"
            } else {
                "per output token"
            };
            HubText {
                meta: site.meta(path, &format!("{gpu} GPU"), description, ""),
                heading: gpu.to_owned(),
                lede: format!(
                    "Models measured on {gpu}, per workload: the lowest GPU energy {per} within \
                        the workload's latency deadline. Each workload's page ranks every model \
                        on {gpu}."
                ),
                link_label: format!("{gpu} ranking"),
            }
        }
        Hub::Compare => HubText {
            meta: site.meta(
                path,
                "Compare models",
                "Compare models within a workload: every \
                model's best per GPU side by side and their time–energy frontiers, one \
                comparison per workload."
                    .to_owned(),
                "compare",
            ),
            heading: "Compare models".into(),
            lede: "Figures compare only within a workload: prompts, output lengths and deadlines \
                differ between them. Choose a workload to see every model side by side with \
                their time–energy frontiers."
                .into(),
            link_label: "comparison".into(),
        },
    }
}
