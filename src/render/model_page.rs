//! A model's page: best configuration per GPU, latency budgets, charts,
//! every configuration, source, citation and embeds.

use anyhow::{Context, Result};
use askama::Template;

use super::versions::{change_phrases, version_dir};
use super::views::{
    Cell, ChartView, Fact, Header, Row, RowGroup, TableView, chart_view, table_html,
};
use super::{
    PageMeta, RenderCounts, Site, Words, column_cell, downloads, header, kind, link, model_dir,
    num, put_page, text,
};
use crate::analyse::ModelAnalysis;
use crate::analyse::footprint_basis::{Basis, footprint_bases};
use crate::analyse::response::ResponseEnergy;
use crate::chart::{self, Chart, ResponseUnit};
use crate::columns::{Column, GRAMS_CO2E};
use crate::fmt;
use crate::footprint::{Footprint, Impact};
use crate::load::LoadedModel;
use crate::model::{Configuration, ModelFile, row_anchor, url_segment};
use crate::select::GpuBest;
use crate::workload::Workload;
use crate::write::PageSink;

/// The HTML that embeds a chart, or the badge with a link to the page,
/// shown on the page as code to copy.
#[derive(Template)]
#[template(path = "embed_chart.snippet")]
struct Embed<'a> {
    link: Option<&'a str>,
    url: &'a str,
    alt: &'a str,
}

#[derive(Template)]
#[template(path = "model.html")]
struct ModelPage<'a> {
    meta: PageMeta,
    site: &'a Site<'a>,
    m: &'a ModelFile,
    facts: Facts,
    /// Per GPU, its best configuration within the deadline, if any.
    best_cards: Vec<GpuCard<'a>>,
    budget_table: String,
    charts: Vec<ChartView>,
    /// The time–energy chart at the median and at each other ITL
    /// percentile, shown one at a time; `None` when there are no variants
    /// (the chart is then among `charts`).
    itl_switch: Option<ChartSwitch>,
    config_tables: Vec<GpuTable>,
    deadline: String,
    bibtex: String,
    badge_markdown: String,
    badge_html: String,
    chart_snippets: Vec<ChartSnippet>,
    /// The history of the model's best figures, when the site has a change
    /// history: the table's HTML, empty when none of them has changed.
    history: Option<String>,
    response: Option<ResponseSection>,
    /// The histogram of the configuration the reader chooses, under the
    /// time–energy chart (shown by `assets/model.js`).
    chosen: Option<ChosenResponse>,
    /// The model's version pages, newest (the current one) first.
    versions: Vec<VersionRow>,
    /// The current version's permanent address (absolute with a base URL,
    /// else the path in the site), which the BibTeX entry cites.
    permalink: String,
    /// The current version's page from this one, `v/<date>/`: what its
    /// copy-link controls copy (`static/table.js`).
    permalink_href: String,
    limit: Option<super::reader::LimitControl>,
    peers_href: String,
    headline_key: &'static str,
}

/// A version of the model's figures as the current page lists it.
struct VersionRow {
    date: String,
    /// Its page, from the model page.
    href: String,
    /// What that version changed, e.g. "first published" or "838
    /// configurations corrected (tokens_per_second)".
    changes: String,
}

/// Views of one chart shown one at a time (`templates/chart_switch.html`):
/// links to each view's anchor, which CSS `:target` shows in place of the
/// first; no script.
pub(super) struct ChartSwitch {
    /// Anchor of the row of links.
    id: String,
    /// The words before the links.
    intro: String,
    /// Each view, the default first.
    views: Vec<SwitchView>,
}

/// One view of a [`ChartSwitch`]: its link's text and its chart.
pub(super) struct SwitchView {
    label: String,
    chart: ChartView,
}

impl SwitchView {
    fn new(label: impl Into<String>, chart: ChartView) -> Self {
        Self {
            label: label.into(),
            chart,
        }
    }
}

/// A GPU's card: its best configuration within the deadline, if any.
pub(super) struct GpuCard<'a> {
    pub gpu: String,
    pub best: Option<BestCard<'a>>,
}

/// A GPU's best configuration, with its card's figures.
pub(super) struct BestCard<'a> {
    pub config: &'a Configuration,
    pub figures: Vec<Fact>,
}

/// The table of every configuration on one GPU.
pub(super) struct GpuTable {
    pub gpu: String,
    /// The table's HTML.
    pub html: String,
}

/// A chart's embed snippets, under the page's badge.
struct ChartSnippet {
    title: String,
    markdown: String,
    html: String,
}

/// A file written beside a page: its path inside the workload's folder
/// and its SVG.
struct SvgFile {
    path: String,
    svg: String,
}

/// The energy-per-response section: a summary table and one histogram per
/// GPU whose best configuration carries an output-length distribution.
struct ResponseSection {
    table: String,
    /// Per GPU, its histogram: on a linear scale, and on a log scale too
    /// when the tail is long.
    charts: Vec<ChartSwitch>,
    unit: &'static str,
}

/// A model's page as built, before anything is written: the page and the
/// files beside it (its charts and badge).
struct BuiltModelPage<'a> {
    /// The page's path in the site.
    path: String,
    page: ModelPage<'a>,
    /// The charts and the badge.
    files: Vec<SvgFile>,
    /// How many of `files` are charts.
    charts: usize,
    /// Charts of addresses the site had only once it had workloads (the
    /// wide time–energy chart, each configuration's histogram), written in
    /// the workload's folder only.
    new_charts: Vec<SvgFile>,
}

/// The energy per response of the configuration the reader chooses on the
/// time–energy chart or in a configuration table: its figure, drawn from
/// the data of the first shown (the best configuration of lowest energy)
/// and hidden without script, and the data of every configuration
/// (`templates/response_chosen.html`).
struct ChosenResponse {
    /// The first configuration's row anchor, figures and chart file.
    first: ChosenRow,
    file: String,
    width: u32,
    height: u32,
    /// The JSON the script reads ([`ChosenData`]), safe inside `<script>`.
    data: String,
    unit: &'static str,
}

/// What `assets/model.js` reads: the folder of the configurations'
/// histograms, and each configuration's figures by its row anchor (its
/// histogram is `<dir><anchor>.svg`).
#[derive(serde::Serialize)]
struct ChosenData<'a> {
    dir: &'static str,
    rows: std::collections::BTreeMap<&'a str, &'a ChosenRow>,
}

/// One configuration's figures as the chosen figure's caption shows them.
#[derive(serde::Serialize)]
struct ChosenRow {
    #[serde(skip)]
    anchor: String,
    setup: String,
    median: String,
    p90: String,
    responses: String,
}

/// The folder, beside a model page, of its configurations' histograms.
const CHOSEN_DIR: &str = "energy-per-response/";

/// Renders a model's page and the files beside it into `sink`.
pub(super) fn render_model(
    site: &Site<'_>,
    lm: &LoadedModel,
    a: &ModelAnalysis,
    sink: &dyn PageSink,
) -> Result<RenderCounts> {
    let built = build_model_page(site, lm, a)?;
    // At the legacy address the time–energy chart is not beside the page of
    // its rows: the copy there is drawn still.
    let still = if site.legacy() {
        chart::tradeoff_still(&lm.file, a)?
    } else {
        None
    };
    for file in &built.files {
        match &still {
            Some(still) if file.path.ends_with(TRADEOFF) => {
                sink.put(&site.path(&file.path), file.svg.as_bytes())?;
                sink.put(&file.path, still.svg.as_bytes())?;
            }
            _ => site.put_file(sink, &file.path, file.svg.as_bytes())?,
        }
    }
    for file in &built.new_charts {
        sink.put(&site.path(&file.path), file.svg.as_bytes())?;
    }
    put_page(sink, &built.path, &built.page)?;
    Ok(RenderCounts {
        pages: 1,
        charts: built.charts + built.new_charts.len(),
    })
}

/// The model page's versions list and its citation of the current
/// version's permanent address.
struct CurrentVersion {
    versions: Vec<VersionRow>,
    permalink: String,
    permalink_href: String,
    bibtex: String,
}

/// The versions of the model `lm`, newest first, and the citation of the
/// current one, whose page is `v/<date>/` in the model page's folder `dir`.
/// A model without versions (no history) is cited at its page, `dir`.
fn current_version(site: &Site<'_>, lm: &LoadedModel, dir: &str) -> Result<CurrentVersion> {
    let m = &lm.file;
    let versions = site.versions_of(lm);
    let permalink_href = versions
        .last()
        .map_or_else(String::new, |v| version_dir(v.date));
    let permalink = site.absolute(&format!("{dir}{permalink_href}"));
    let cited = Cited {
        url: &permalink,
        data_version: &m.data_version,
        versioned: false,
    };
    let bibtex = bibtex(m, site.words(), site.workload, &cited)?;
    let versions = versions
        .iter()
        .rev()
        .map(|v| VersionRow {
            date: v.date.to_owned(),
            href: format!("{}index.html", version_dir(v.date)),
            changes: change_phrases(v).join("; "),
        })
        .collect();
    Ok(CurrentVersion {
        versions,
        permalink,
        permalink_href,
        bibtex,
    })
}

/// The facts table of a model's page: identity, workload, what was measured
/// and the data version.
fn model_facts(
    site: &Site<'_>,
    m: &ModelFile,
    a: &ModelAnalysis,
    deadline: &str,
    data_version: String,
) -> Facts {
    let words = site.words();
    let mut facts = vec![
        Fact::new("Model ID", m.model_id.clone()),
        Fact::new("Parameters", kind::parameters(m)),
        Fact::new("Architecture", m.architecture.clone()),
        Fact::new("Workload", site.workload.name.clone()),
        Fact::new("Precisions measured", a.precisions.join(", ")),
    ];
    facts.extend(kind::output_facts(m));
    facts.extend([
        Fact::new(
            "Configurations",
            format!("{} measured", m.configurations.len()),
        ),
        Fact::new(
            "Latency deadline",
            format!("{} ≤ {deadline}", words.latency_short),
        ),
        Fact::new("Data version", data_version),
    ]);
    facts
}

/// The facts of a version page: the model's, with the version's date.
pub(super) fn version_facts(
    site: &Site<'_>,
    m: &ModelFile,
    a: &ModelAnalysis,
    deadline: &str,
    date: &str,
) -> Facts {
    model_facts(site, m, a, deadline, date.to_owned())
}

/// The facts table of a model's page, in order.
pub(super) type Facts = Vec<Fact>;

/// Per GPU, its best configuration within the deadline and the card's
/// figures (carbon and cost too when the site has a footprint table).
pub(super) fn best_cards<'m>(
    site: &Site<'_>,
    m: &'m ModelFile,
    a: &ModelAnalysis,
    tables: &kind::Tables,
) -> Vec<GpuCard<'m>> {
    a.best_per_gpu
        .iter()
        .map(|GpuBest { gpu, best }| {
            let best = best.map(|i| {
                let config = &m.configurations[i];
                let mut figures = kind::card_figures(tables, m, config);
                if let Some(f) = &site.footprint {
                    figures.extend(footprint_figures(f, &footprint_bases(config)));
                }
                BestCard { config, figures }
            });
            GpuCard {
                gpu: gpu.clone(),
                best,
            }
        })
        .collect()
}

/// The time–energy chart's file, beside the page.
const TRADEOFF: &str = "time-energy-tradeoff.svg";

/// The time–energy chart at the median and at each other ITL percentile,
/// as a switch; the median's view is taken out of `charts`. `None` (and
/// `charts` as it was) when there are no percentile charts.
fn itl_switch(charts: &mut Vec<ChartView>, percentiles: &[Chart]) -> Option<ChartSwitch> {
    let mut views: Vec<SwitchView> = percentiles
        .iter()
        .zip(chart::ITL_PERCENTILES)
        .map(|(c, p)| SwitchView::new(p.name(), chart_view(c)))
        .collect();
    match charts.iter().position(|c| c.src == TRADEOFF) {
        Some(i) if !views.is_empty() => {
            views.insert(0, SwitchView::new("p50 (median)", charts.remove(i)));
            Some(ChartSwitch {
                id: "itl-percentiles".to_owned(),
                intro: "The time–energy trade-off at a percentile of the inter-token latency:"
                    .to_owned(),
                views,
            })
        }
        _ => None,
    }
}

/// The page's description: the model, its workload, its lowest figure
/// within the deadline and how many configurations it has.
fn model_description(site: &Site<'_>, m: &ModelFile, a: &ModelAnalysis, deadline: &str) -> String {
    let words = site.words();
    let lowest = match a.best_overall.map(|i| &m.configurations[i]) {
        Some(c) => format!(
            "{} {} on {}, best under a {deadline} {}",
            kind::energy_figure(c),
            words.energy_long,
            c.gpu,
            words.latency_short
        ),
        None => format!(
            "no configuration meets the {deadline} {} deadline",
            words.latency_short
        ),
    };
    format!(
        "{} on {}: {lowest}. Measured GPU energy, latency, throughput and power for {} \
            configurations.",
        &m.name,
        site.workload.name,
        m.configurations.len()
    )
}

/// The model's badge and the snippets that embed it.
struct Badge {
    svg: String,
    markdown: String,
    html: String,
}

/// The badge of the model whose page is at `dir`: its best figure overall.
fn badge(site: &Site<'_>, m: &ModelFile, a: &ModelAnalysis, dir: &str) -> Result<Badge> {
    let words = site.words();
    let overall = a.best_overall.map(|i| &m.configurations[i]);
    let figure = overall.map(|c| {
        format!(
            "{} {} · {}",
            kind::energy_figure(c),
            words.energy_unit,
            c.gpu
        )
    });
    let svg = downloads::badge_svg(&m.name, figure.as_deref(), words.energy_phrase)?;
    let page_link = site.absolute(dir);
    let badge_url = site.absolute(&format!("{dir}badge.svg"));
    let alt = overall.map_or_else(|| m.name.clone(), |c| site.best_text(m, c));
    Ok(Badge {
        svg,
        markdown: format!("[![{}]({badge_url})]({page_link})", alt.replace(']', ")")),
        html: Embed {
            link: Some(&page_link),
            url: &badge_url,
            alt: &alt,
        }
        .render()?,
    })
}

/// Markdown and HTML that embed each of `charts`, beside the page at `dir`.
fn chart_snippets(site: &Site<'_>, dir: &str, charts: &[Chart]) -> Result<Vec<ChartSnippet>> {
    charts
        .iter()
        .map(|c| {
            let url = site.absolute(&format!("{dir}{}", c.file_name));
            let html = Embed {
                link: None,
                url: &url,
                alt: &c.description,
            }
            .render()?;
            Ok(ChartSnippet {
                title: c.title.clone(),
                markdown: format!("![{}]({url})", c.description.replace(']', ")")),
                html,
            })
        })
        .collect()
}

/// The compare page of the model and its peers in size.
fn peers_href(site: &Site<'_>, m: &ModelFile, a: &ModelAnalysis, home: &str) -> String {
    let slugs: Vec<&str> = std::iter::once(m.slug.as_str())
        .chain(a.peers.iter().map(|&j| site.models[j].file.slug.as_str()))
        .collect();
    format!("{home}compare/index.html?models={}", slugs.join(","))
}

/// `charts` as files in the folder `rel_dir`.
fn svg_files<'c>(rel_dir: &str, charts: impl IntoIterator<Item = &'c Chart>) -> Vec<SvgFile> {
    charts
        .into_iter()
        .map(|c| SvgFile {
            path: format!("{rel_dir}{}", c.file_name),
            svg: c.svg.clone(),
        })
        .collect()
}

/// A model page's charts: the views it shows, the time–energy chart's
/// switch of percentiles, and every file drawn.
struct ModelCharts {
    views: Vec<ChartView>,
    itl_switch: Option<ChartSwitch>,
    made: Vec<Chart>,
    percentiles: Vec<Chart>,
    tradeoff_wide: Option<Chart>,
}

fn model_charts(m: &ModelFile, a: &ModelAnalysis) -> Result<ModelCharts> {
    let made: Vec<Chart> = chart::model_charts(m, a)?;
    let mut views: Vec<ChartView> = made.iter().map(chart_view).collect();
    // The time–energy chart drawn wide too, shown instead on a wide screen.
    let tradeoff_wide = chart::tradeoff_wide(m, a)?;
    if let Some(wide) = &tradeoff_wide {
        for view in &mut views {
            if view.src == TRADEOFF {
                *view = super::views::with_wide(view.clone(), wide);
            }
        }
    }
    // The time–energy chart at other ITL percentiles: files of their own
    // (published URLs), shown in place of the median's by a switch.
    let percentiles = chart::percentile_charts(m, a)?;
    let itl_switch = itl_switch(&mut views, &percentiles);
    Ok(ModelCharts {
        views,
        itl_switch,
        made,
        percentiles,
        tradeoff_wide,
    })
}

/// The history of the model's best figures, when the site has a change
/// history (empty when none of them has changed).
fn history_table(site: &Site<'_>, m: &ModelFile, root: &str) -> Result<Option<String>> {
    let Some(all) = &site.history else {
        return Ok(None);
    };
    match all.get(&m.slug) {
        Some(changes) => Ok(Some(table_html(&super::changes::model_history_table(
            changes, &m.gpus, root,
        ))?)),
        None => Ok(Some(String::new())),
    }
}

/// Builds a model's page: its data, its charts and its badge, nothing
/// written.
fn build_model_page<'a>(
    site: &'a Site<'a>,
    lm: &'a LoadedModel,
    a: &ModelAnalysis,
) -> Result<BuiltModelPage<'a>> {
    let m = &lm.file;
    let words = site.words();
    let rel_dir = model_dir(&m.slug);
    let dir = site.path(&rel_dir);
    let deadline = format!("{} {}", fmt::limit_ms(m.deadline()), words.latency_unit);
    let description = model_description(site, m, a, &deadline);
    let mut meta = site.meta(&format!("{rel_dir}index.html"), &m.name, description, "");
    meta.script = true;
    meta.scripts.push("limit.js");

    let data_version = format!("{} (file updated {})", &m.data_version, &m.updated);
    let facts = model_facts(site, m, a, &deadline, data_version);
    let tables = kind::tables(site.workload.measure);
    let charts = model_charts(m, a)?;
    let (response, response_charts) = response_section(site, m, a)?;
    let (chosen, chosen_charts) = chosen_response(m, a)?;
    let current = current_version(site, lm, &dir)?;
    let badge = badge(site, m, a, &dir)?;

    // The files in the order they were always written: the charts, the
    // percentile charts, the response histograms, then the badge.
    let mut files = svg_files(
        &rel_dir,
        charts
            .made
            .iter()
            .chain(&charts.percentiles)
            .chain(&response_charts),
    );
    let chart_count = files.len();
    files.push(SvgFile {
        path: format!("{rel_dir}badge.svg"),
        svg: badge.svg,
    });
    let new_charts = svg_files(&rel_dir, charts.tradeoff_wide.iter().chain(&chosen_charts));
    // The charts' theme and the chosen configuration's histogram.
    if charts.tradeoff_wide.is_some() || chosen.is_some() {
        meta.scripts.push("model.js");
    }

    let page = ModelPage {
        m,
        site,
        facts,
        best_cards: best_cards(site, m, a, &tables),
        budget_table: table_html(&budget_table(m, a, words))?,
        chart_snippets: chart_snippets(site, &dir, &charts.made)?,
        charts: charts.views,
        itl_switch: charts.itl_switch,
        config_tables: config_tables(m, a, &tables, &meta.root, words)?,
        deadline,
        limit: Some(super::reader::model_control(site, m, a)?),
        headline_key: tables.headline.key,
        peers_href: peers_href(site, m, a, &meta.home),
        badge_markdown: badge.markdown,
        badge_html: badge.html,
        history: history_table(site, m, &meta.root)?,
        response,
        chosen,
        versions: current.versions,
        permalink: current.permalink,
        permalink_href: current.permalink_href,
        bibtex: current.bibtex,
        meta,
    };
    Ok(BuiltModelPage {
        path: format!("{dir}index.html"),
        page,
        files,
        charts: chart_count,
        new_charts,
    })
}

fn budget_table(m: &ModelFile, a: &ModelAnalysis, words: &'static Words) -> TableView {
    let latency = fmt::capitalised(words.latency_short);
    let first = Header::plain(
        &format!("{latency} limit"),
        words.latency_unit,
        true,
        "limit",
    );
    let gpus = m.gpus.iter().map(|gpu| {
        Header::plain(
            &format!(
                "{gpu}: {}",
                kind::tables(m.measure()).headline.label.to_lowercase()
            ),
            words.energy_unit,
            false,
            &url_segment(gpu),
        )
    });
    let headers = std::iter::once(first).chain(gpus).collect();
    let rows = a
        .budgets
        .iter()
        .map(|b| {
            let limit = fmt::limit_ms(b.limit);
            let deadline = if b.is_deadline { " (deadline)" } else { "" };
            let first = Cell {
                header: true,
                num: true,
                ..text(format!("≤ {limit}{deadline}"))
            };
            let cells = b.per_gpu.iter().map(|GpuBest { best, .. }| match best {
                Some(i) => {
                    let c = &m.configurations[*i];
                    let href = format!("#{}", row_anchor(&m.slug, &c.row_id));
                    Cell {
                        sort: Some(c.energy().to_string()),
                        ..link(kind::budget_text(c), href)
                    }
                }
                None => text(format!("none within {limit} {}", words.latency_unit)),
            });
            Row {
                cells: std::iter::once(first).chain(cells).collect(),
                ..Row::default()
            }
        })
        .collect();
    TableView {
        id: "budgets".into(),
        caption: format!(
            "Cheapest configuration per GPU for each {} limit",
            words.latency
        ),
        headers,
        groups: vec![RowGroup { title: None, rows }],
        sortable: false,
    }
}

/// One table per GPU. Rows grouped by series
/// (GPU count, parallelism, precision, …), ordered by the load.
pub(super) fn config_tables(
    m: &ModelFile,
    a: &ModelAnalysis,
    tables: &kind::Tables,
    root: &str,
    words: &'static Words,
) -> Result<Vec<GpuTable>> {
    let configs = &m.configurations;
    let columns = &tables.configurations;
    let mut out = Vec::new();
    for gpu in m.gpus.as_slice() {
        let mut headers: Vec<Header> = columns
            .iter()
            .map(|c| header(&tables.set, c, root))
            .collect();
        // Notes (★ best, ◆ Pareto frontier, ↻ repeat) second, beside the
        // load, where a reader sees them without scrolling.
        headers.insert(1, Header::plain("Notes", "", false, "notes"));
        let groups: Vec<RowGroup> = a
            .curves
            .iter()
            .filter(|s| configs[s.points[0]].gpu == *gpu)
            .map(|s| RowGroup {
                title: Some(kind::group_title(&configs[s.points[0]])),
                rows: s
                    .points
                    .iter()
                    .map(|&i| config_row(m, a, i, columns))
                    .collect(),
            })
            .collect();
        let table = TableView {
            id: format!("table-{}", url_segment(gpu)),
            caption: format!(
                "Every {gpu} configuration of {}, {}",
                &m.name, words.grouping
            ),
            headers,
            groups,
            sortable: false,
        };
        out.push(GpuTable {
            gpu: gpu.clone(),
            html: table_html(&table)?,
        });
    }
    Ok(out)
}

fn config_row(m: &ModelFile, a: &ModelAnalysis, i: usize, columns: &[&Column]) -> Row {
    let c = &m.configurations[i];
    // Each mark: whether the row has it, its note, and the row's class for
    // it (none for being over the deadline).
    let marks = [
        (a.is_best(i), format!("★ Best on {}", c.gpu), Some("best")),
        (
            a.is_on_frontier(i),
            "◆ Pareto frontier".to_owned(),
            Some("frontier"),
        ),
        (
            c.repeat > 1,
            format!("↻ Repeat run {}", c.repeat),
            Some("repeat"),
        ),
        (!c.under_deadline(), "Over deadline".to_owned(), None),
    ];
    let (mut notes, mut class) = (Vec::new(), Vec::new());
    for (_, note, mark_class) in marks.into_iter().filter(|m| m.0) {
        notes.push(note);
        class.extend(mark_class);
    }
    let mut cells: Vec<Cell> = columns.iter().map(|col| column_cell(col, m, c)).collect();
    cells[0].header = true;
    cells.insert(1, text(notes.join("; ")));
    Row {
        id: Some(row_anchor(&m.slug, &c.row_id)),
        class: class.join(" "),
        cells,
    }
}

/// The BibTeX entry of a model's page on one workload
/// (`templates/citation.bib`): the key and the title name the workload too
/// (a model measured on two workloads has two pages), and `url` is the
/// page's absolute URL, or its path in the site when the build has no base
/// URL.
#[derive(Template)]
#[template(path = "citation.bib", syntax = "bib")]
struct Citation<'a> {
    workload_id: &'a str,
    /// The model's slug; a version page's ends in its version.
    key: String,
    name: &'a str,
    workload_name: &'a str,
    task: &'a str,
    source_name: &'a str,
    publisher: &'a str,
    year: &'a str,
    url: &'a str,
    data_version: &'a str,
    /// The source's version and the retrieval date; `None` on a version
    /// page.
    source_version: Option<&'a str>,
    retrieved: Option<&'a str>,
}

/// What a BibTeX entry cites: the page's address and data version, and
/// whether it is a version page (whose key ends in its version).
pub(super) struct Cited<'a> {
    pub url: &'a str,
    pub data_version: &'a str,
    pub versioned: bool,
}

/// The BibTeX entry of the model `m`'s page on `workload`, citing `cited`.
pub(super) fn bibtex(
    m: &ModelFile,
    words: &'static Words,
    workload: &Workload,
    cited: &Cited<'_>,
) -> Result<String> {
    let key = if cited.versioned {
        format!("{}-{}", m.slug, cited.data_version)
    } else {
        m.slug.clone()
    };
    let source = &m.source;
    let entry = Citation {
        workload_id: &workload.id,
        key,
        name: &m.name,
        workload_name: &workload.name,
        task: words.bib_task,
        source_name: &source.name,
        publisher: &source.publisher,
        year: cited.data_version.get(..4).unwrap_or(""),
        url: cited.url,
        data_version: cited.data_version,
        source_version: (!cited.versioned).then_some(source.version.as_str()),
        retrieved: (!cited.versioned).then_some(source.retrieved.as_str()),
    };
    entry
        .render()
        .with_context(|| format!("rendering the BibTeX entry of {}", m.slug))
}

/// Carbon and cost rows of a best card, one per quantity and basis
/// ("Carbon per million tokens †": "7.33 g CO₂e"). The labels carry a †
/// that the note under the cards explains.
fn footprint_figures(f: &Footprint, bases: &[Basis]) -> Vec<Fact> {
    let impacts: Vec<(&str, Impact)> = bases
        .iter()
        .map(|b| (kind::basis_words(b.per), f.of_wh(b.wh)))
        .collect();
    let carbon = impacts.iter().filter_map(|(per, i)| {
        Some(Fact::new(
            format!("Carbon {per} †"),
            format!("{} {GRAMS_CO2E}", fmt::significant(i.grams_co2e?, 3)),
        ))
    });
    let cost = impacts.iter().filter_map(|(per, i)| {
        Some(Fact::new(
            format!("Cost {per} †"),
            format!("{} {}", fmt::significant(i.cost?, 3), f.currency()?),
        ))
    });
    carbon.chain(cost).collect()
}

/// A best configuration with an output-length distribution, and its energy
/// per response.
struct BestResponse<'m> {
    config: &'m Configuration,
    joules_per_token: f64,
    energy: &'m ResponseEnergy,
}

/// The energy per response of the best configuration on each GPU that
/// carries an output-length distribution: the section (`None` when no best
/// configuration has one) and its histograms.
fn response_section(
    site: &Site<'_>,
    m: &ModelFile,
    a: &ModelAnalysis,
) -> Result<(Option<ResponseSection>, Vec<Chart>)> {
    let configs = &m.configurations;
    let found: Vec<BestResponse> = a
        .responses
        .iter()
        .filter_map(|r| {
            Some(BestResponse {
                config: &configs[r.config],
                joules_per_token: configs[r.config].output_lengths()?.joules_per_token,
                energy: &r.energy,
            })
        })
        .collect();
    if found.is_empty() {
        return Ok((None, Vec::new()));
    }
    // The GPUs share one scale, and a log-scale view with a long tail.
    let unit = ResponseUnit::for_edges(&[a.response_scale.top_j]);
    let mut charts: Vec<Chart> = Vec::new();
    let mut switches = Vec::new();
    for best in &found {
        let (switch, drawn) = response_switch(m, a, best, unit)?;
        switches.push(switch);
        charts.extend(drawn);
    }
    let table = response_table(site, m, &found, unit);
    Ok((
        Some(ResponseSection {
            table: table_html(&table)?,
            charts: switches,
            unit: unit.symbol(),
        }),
        charts,
    ))
}

/// One best configuration's histogram of energy per response, on the
/// model's shared scale, and its log view when the tail is long: the
/// switch between them and the charts.
fn response_switch(
    m: &ModelFile,
    a: &ModelAnalysis,
    best: &BestResponse<'_>,
    unit: ResponseUnit,
) -> Result<(ChartSwitch, Vec<Chart>)> {
    let c = best.config;
    let seg = url_segment(&c.gpu);
    let setup = kind::config_summary(c);
    let draw = |scale: &str, log: Option<f64>| {
        let file = format!("energy-per-response-{seg}{scale}.svg");
        chart::response_histogram(chart::ResponseHistogram {
            file_name: &file,
            model: &m.name,
            gpu: &c.gpu,
            setup: &setup,
            best: true,
            joules_per_token: best.joules_per_token,
            response: best.energy,
            unit,
            x_max_j: a.response_scale.top_j,
            log_from_j: log,
        })
    };
    let linear = Some(("Linear scale", draw("", None)?));
    let log = a
        .response_scale
        .log_from_j
        .map(|lo| draw(crate::model::LOG_VIEW, Some(lo)).map(|c| ("Log scale", c)))
        .transpose()?;
    let views = [linear, log];
    let switch = ChartSwitch {
        id: format!("response-scale-{seg}"),
        intro: format!("Energy per response on {}:", c.gpu),
        views: views
            .iter()
            .flatten()
            .map(|(label, c)| SwitchView::new(*label, chart_view(c)))
            .collect(),
    };
    Ok((
        switch,
        views.into_iter().flatten().map(|(_, c)| c).collect(),
    ))
}

/// The table of the best configurations' energy per response: median and
/// 90th percentile, and their carbon and cost when the site has a
/// footprint table.
fn response_table(
    site: &Site<'_>,
    m: &ModelFile,
    found: &[BestResponse<'_>],
    unit: ResponseUnit,
) -> TableView {
    let sym = unit.symbol();
    let numeric = |label: &str, unit: &str, key: &str| Header::plain(label, unit, true, key);
    let mut headers = vec![
        Header::plain("GPU", "", false, "gpu"),
        Header::plain("Best configuration", "", false, "setup"),
        numeric("Responses", "count", "responses"),
        numeric("Median", sym, "median"),
        numeric("90th percentile", sym, "p90"),
    ];
    let footprint = site.footprint.as_ref();
    if let Some(f) = footprint {
        if f.carbon.is_some() {
            headers.push(numeric("Median carbon †", GRAMS_CO2E, "median_g"));
            headers.push(numeric("p90 carbon †", GRAMS_CO2E, "p90_g"));
        }
        if let Some(currency) = f.currency() {
            // Per 1,000 responses, as the about page's unit policy says, so
            // a cost reads as a few digits.
            let unit = format!("{currency} per 1,000");
            headers.push(numeric("Median cost †", &unit, "median_cost"));
            headers.push(numeric("p90 cost †", &unit, "p90_cost"));
        }
    }
    let rows = found
        .iter()
        .map(|best| {
            let (c, r) = (best.config, best.energy);
            let first = link(&c.gpu, format!("#{}", row_anchor(&m.slug, &c.row_id)));
            let mut cells = vec![
                Cell {
                    header: true,
                    ..first
                },
                text(kind::config_summary(c)),
                num(fmt::grouped(r.total as f64), r.total as f64),
                num(unit.text(r.median_j), r.median_j),
                num(unit.text(r.p90_j), r.p90_j),
            ];
            if let Some(f) = footprint {
                cells.extend(response_footprint(f, r));
            }
            Row {
                cells,
                ..Row::default()
            }
        })
        .collect();
    TableView {
        id: "response-energy".into(),
        caption: format!(
            "Energy per response of {}'s best configuration per GPU: median and 90th percentile \
                over its measured responses ({sym})",
            &m.name
        ),
        headers,
        groups: vec![RowGroup { title: None, rows }],
        sortable: false,
    }
}

/// The carbon of a median and a 90th-percentile response, then their cost
/// per 1,000 responses, each cell only when the footprint table has it.
fn response_footprint(f: &Footprint, r: &ResponseEnergy) -> Vec<Cell> {
    let (med, p90) = (f.of_joules(r.median_j), f.of_joules(r.p90_j));
    let per_1000 = |v: Option<f64>| v.map(|v| v * 1000.0);
    let figures = [
        med.grams_co2e,
        p90.grams_co2e,
        per_1000(med.cost),
        per_1000(p90.cost),
    ];
    figures
        .into_iter()
        .flatten()
        .map(|v| num(fmt::significant(v, 3), v))
        .collect()
}

/// The histogram of energy per response of every configuration with an
/// output-length histogram, each on its own linear scale, in
/// `energy-per-response/<row anchor>.svg`, and the figure that shows the
/// one the reader chooses; `None` (and no charts) when no configuration
/// has one.
fn chosen_response(
    m: &ModelFile,
    a: &ModelAnalysis,
) -> Result<(Option<ChosenResponse>, Vec<Chart>)> {
    let unit = ResponseUnit::for_edges(&[]);
    let mut rows = Vec::new();
    let mut charts = Vec::new();
    // The configuration of each row, to find the first shown.
    let mut configs = Vec::new();
    for r in &a.chosen_responses {
        let c = &m.configurations[r.config];
        let Some(per_token) = c.output_lengths().map(|o| o.joules_per_token) else {
            continue;
        };
        let anchor = row_anchor(&m.slug, &c.row_id);
        let setup = kind::config_summary(c);
        let file = format!("{CHOSEN_DIR}{anchor}.svg");
        // A repeated run's setup is its first run's: the caption says which.
        let named = if c.repeat > 1 {
            format!("{setup}, run {}", c.repeat)
        } else {
            setup.clone()
        };
        charts.push(chart::response_histogram(chart::ResponseHistogram {
            file_name: &file,
            model: &m.name,
            gpu: &c.gpu,
            setup: &setup,
            best: a.is_best(r.config),
            joules_per_token: per_token,
            response: &r.energy,
            unit,
            // Its own linear scale, as the best's first view: the caption
            // gives the figures to compare.
            x_max_j: 0.0,
            log_from_j: None,
        })?);
        configs.push(r.config);
        rows.push(ChosenRow {
            anchor,
            setup: named,
            median: unit.text(r.energy.median_j),
            p90: unit.text(r.energy.p90_j),
            responses: fmt::grouped(r.energy.total as f64),
        });
    }
    // The first shown: the lowest-energy best's, else the first's.
    let best = a.lowest_response.map(|k| a.responses[k].config);
    let first = configs.iter().position(|&i| Some(i) == best).unwrap_or(0);
    if rows.is_empty() {
        return Ok((None, charts));
    }
    let data = ChosenData {
        dir: CHOSEN_DIR,
        rows: rows.iter().map(|r| (r.anchor.as_str(), r)).collect(),
    };
    let data = serde_json::to_string(&data)?
        .replace('<', "\\u003c")
        .replace('>', "\\u003e")
        .replace('&', "\\u0026");
    let view = chart_view(&charts[first]);
    let first = rows.swap_remove(first);
    Ok((
        Some(ChosenResponse {
            first,
            file: view.src,
            width: view.width,
            height: view.height,
            data,
            unit: unit.symbol(),
        }),
        charts,
    ))
}
