//! The site-wide pages: the leaderboard, one page per GPU, the comparison,
//! about, 404, and the sitemap and robots files.

use std::collections::BTreeSet;

use anyhow::{Context, Result};
use askama::Template;

use super::views::{ChartView, ColumnChooser, TableView, chart_view, table_html_from_rows};
use super::{Mirror, PageMeta, RenderCounts, Site, gpu_dir, kind, leaderboard_row, put_page};
use crate::analyse::{Analysed, LeaderboardRow};
use crate::chart::{self, BarEntry, BarScale, GroupedBar};
use crate::columns::{Column, DIFFUSION, PER_TOKEN, Words};
use crate::fmt;
use crate::load::Asset;
use crate::model::Measure;
use crate::write::PageSink;

#[derive(Template)]
#[template(path = "leaderboard.html")]
struct LeaderboardPage<'a> {
    meta: PageMeta,
    site: &'a Site<'a>,
    table: String,
    chart: Option<ChartView>,
    /// Every configuration on one chart (templates/scatter.html).
    scatter: Option<ChartView>,
    /// On a leaderboard that mixes sources, each source's own bar chart and
    /// scatter, shown when the reader shows that source alone; else empty.
    chart_sources: Vec<ChartView>,
    scatter_sources: Vec<ChartView>,
    archs: BTreeSet<&'a str>,
    top: String,
    limit: Option<super::reader::LimitControl>,
    chooser: ColumnChooser,
    /// Where this page is among the leaderboard's pages, when there are
    /// several (templates/pages_nav.html); `None` keeps the one page as it
    /// always was.
    paging: Option<Paging>,
}

/// Most rows one leaderboard page shows. Past it the table goes on in
/// `page-2.html`, `page-3.html`, … beside `index.html`, each a complete
/// page without JavaScript, with its own limit data and its own chart of
/// every configuration of its models, so that no page or chart grows with
/// the workload: at 100 rows a page is about 60 KB (15 KB gzip) and its
/// scatter about a megabyte. The leaderboard's largest workload has 33 rows.
pub const PAGE_ROWS: usize = 100;

/// The file of leaderboard page `number` (from 1) in the workload's folder.
pub fn leaderboard_page_file(number: usize) -> String {
    if number <= 1 {
        "index.html".to_owned()
    } else {
        format!("page-{number}.html")
    }
}

/// A page of a leaderboard of several: which rows it shows and links to
/// every page.
pub struct Paging {
    /// What the page shows a part of: "Rows", "Models".
    pub what: &'static str,
    /// The order they are in, e.g. "lowest energy first".
    pub order: &'static str,
    /// The first and last row shown (from 1) and the number of rows.
    pub first: String,
    pub last: String,
    pub total: String,
    pub previous: Option<String>,
    pub next: Option<String>,
    pub pages: Vec<PageLink>,
}

/// A link to one page of a leaderboard.
pub struct PageLink {
    pub number: usize,
    pub href: String,
    pub current: bool,
}

impl Paging {
    /// The number of the page shown (from 1).
    fn number(&self) -> usize {
        self.pages.iter().position(|l| l.current).unwrap_or(0) + 1
    }

    /// Page `number` (from 1) of `count`, of a table of `rows` rows.
    fn new(number: usize, count: usize, rows: usize) -> Self {
        let first = (number - 1) * PAGE_ROWS + 1;
        let last = (number * PAGE_ROWS).min(rows);
        Self::of(number, count, [first, last, rows], "Rows")
    }

    /// Page `number` (from 1) of `count` pages of `per` models each, of
    /// `total` models in file-name order: a workload's downloads.
    pub(super) fn of_files(number: usize, count: usize, per: usize, total: usize) -> Self {
        let first = (number - 1) * per + 1;
        let last = (number * per).min(total);
        Self {
            order: "in file-name order",
            ..Self::of(number, count, [first, last, total], "Models")
        }
    }

    /// Page `number` (from 1) of pages of models ending (exclusive, from
    /// 0) at `ends`: the compare pages.
    pub(super) fn of_models(number: usize, ends: &[usize]) -> Self {
        let first = if number > 1 { ends[number - 2] + 1 } else { 1 };
        let total = ends.last().copied().unwrap_or(0);
        Self::of(
            number,
            ends.len(),
            [first, ends[number - 1], total],
            "Models",
        )
    }

    /// Page `number` of `count`, showing the `what` (e.g. "Rows") `first`
    /// to `last` (from 1) of `total`.
    fn of(
        number: usize,
        count: usize,
        [first, last, total]: [usize; 3],
        what: &'static str,
    ) -> Self {
        Self {
            what,
            order: "lowest energy first",
            first: fmt::grouped(first as f64),
            last: fmt::grouped(last as f64),
            total: fmt::grouped(total as f64),
            previous: (number > 1).then(|| leaderboard_page_file(number - 1)),
            next: (number < count).then(|| leaderboard_page_file(number + 1)),
            pages: (1..=count)
                .map(|n| PageLink {
                    number: n,
                    href: leaderboard_page_file(n),
                    current: n == number,
                })
                .collect(),
        }
    }
}

/// Each source's own [`energy_bars`] of `rows` (none for a source without
/// one), titled "`title`, <source> only", at `dir` in the workload's folder
/// alone: shown in place of the page's chart when the reader shows that
/// source alone.
fn source_bars(
    site: &Site<'_>,
    rows: &[LeaderboardRow],
    title: &str,
    dir: &str,
    sink: &dyn PageSink,
) -> Result<Vec<ChartView>> {
    let mut views = Vec::new();
    for s in &site.info.sources {
        let own: Vec<_> = rows
            .iter()
            .copied()
            .filter(|&r| site.row(r).0.source.key() == s.key)
            .collect();
        if own.is_empty() {
            continue;
        }
        let file_name = format!("best-energy-only-{}.svg", s.key);
        let c = energy_bars(site, &own, &file_name, &format!("{title}, {} only", s.name))?;
        sink.put(
            &site.path(&format!("{dir}{}", c.file_name)),
            c.svg.as_bytes(),
        )?;
        views.push(ChartView {
            class: format!(" only-source from-{}", s.key),
            ..chart_view(&c)
        });
    }
    Ok(views)
}

/// The bar chart of `rows`' lowest energy per model and GPU, lowest first.
fn energy_bars(
    site: &Site<'_>,
    rows: &[LeaderboardRow],
    file_name: &str,
    title: &str,
) -> Result<chart::Chart, chart::DrawError> {
    let words = site.words();
    let picks = rows.iter().map(|&r| site.row(r));
    if site.workload.measure == Measure::Tokens {
        let bars: Vec<BarEntry> = picks
            .map(|(m, c)| BarEntry {
                model: m.name.clone(),
                gpu: c.gpu.clone(),
                wh_per_million: c.energy(),
                whose: site.info.whose(&m.source),
            })
            .collect();
        return chart::best_energy_bars(file_name, title, &bars);
    }
    let bars: Vec<GroupedBar> = picks
        .map(|(m, c)| GroupedBar {
            label: format!("{} · {}", &m.name, c.gpu),
            series: c.gpu.clone(),
            slot: chart::gpu_slot(&c.gpu),
            value: c.energy(),
            whose: site.info.whose(&m.source),
        })
        .collect();
    chart::grouped_bars(chart::BarChart {
        file_name,
        title,
        axis: &format!("Energy ({})", words.energy_long),
        what: &format!(
            "Lowest energy per {} of each model and GPU within the {} deadline, lowest first:",
            words.item,
            site.deadline()
        ),
        bars: &bars,
        scale: BarScale::Linear,
        value_text: fmt::energy_per_item,
    })
}

pub(super) fn render_leaderboard(site: &Site<'_>, sink: &dyn PageSink) -> Result<RenderCounts> {
    let pages: Vec<&[LeaderboardRow]> = if site.leaderboard.is_empty() {
        vec![&[]]
    } else {
        site.leaderboard.chunks(PAGE_ROWS).collect()
    };
    // The bar chart of the lowest bars, one for every page.
    let title = format!("Best energy per model and GPU, {}", site.workload.name);
    let every = if site.mixed() { " every-source" } else { "" };
    let mut bars = Bars::default();
    if !site.leaderboard.is_empty() {
        let c = energy_bars(site, &site.leaderboard, "best-energy.svg", &title)?;
        site.put_file(sink, &c.file_name, c.svg.as_bytes())?;
        // The chart's data is the leaderboard table above it.
        bars.chart = Some(ChartView {
            table: String::new(),
            class: every.into(),
            ..chart_view(&c)
        });
        // Two sources or more: each chart again per source, shown in its
        // place when the reader shows that source alone (new addresses,
        // workload folder only).
        if site.mixed() {
            let views = source_bars(site, &site.leaderboard, &title, "", sink)?;
            bars.sources = views
                .into_iter()
                .map(|v| ChartView {
                    table: String::new(),
                    ..v
                })
                .collect();
        }
    }
    let mut counts = RenderCounts {
        pages: 0,
        charts: usize::from(bars.chart.is_some()) + bars.sources.len(),
    };
    for (at, rows) in pages.iter().enumerate() {
        let paging =
            (pages.len() > 1).then(|| Paging::new(at + 1, pages.len(), site.leaderboard.len()));
        counts = counts + render_leaderboard_page(site, rows, paging, &bars, sink)?;
    }
    Ok(counts)
}

/// The bar charts every page of a leaderboard shows: the workload's, and
/// each source's on a site of several.
#[derive(Default)]
struct Bars {
    chart: Option<ChartView>,
    sources: Vec<ChartView>,
}

/// One page of a workload's leaderboard: `rows` of its table, all of them
/// when `paging` is `None`.
fn render_leaderboard_page(
    site: &Site<'_>,
    rows: &[LeaderboardRow],
    paging: Option<Paging>,
    bars: &Bars,
    sink: &dyn PageSink,
) -> Result<RenderCounts> {
    let number = paging.as_ref().map_or(1, Paging::number);
    let path = leaderboard_page_file(number);
    let headline = site
        .leaderboard
        .first()
        .map(|&r| site.row(r))
        .map(|(m, c)| site.best_text(m, c));
    let texts = LeaderboardTexts::new(site, paging.as_ref(), headline.as_deref());
    let mut meta = site.meta(&path, &texts.title, texts.description, "leaderboard");
    let (table, chooser) = best_table(site, &mut meta, texts.caption, rows, false)?;
    if paging.is_some() {
        // best_table sets the page's style: the page list's goes after it.
        meta.head_style
            .push_str(include_str!("../../templates/pages_nav.css"));
    }
    let (mut limit, mut scatters) = (None, Scatters::default());
    if !rows.is_empty() {
        limit = Some(limit_control(site, rows, number, &mut meta, sink)?);
        scatters = leaderboard_scatters(site, rows, paging.as_ref(), sink)?;
        if site.mixed() {
            meta.head_style
                .push_str(&super::source_views_style(&site.info.sources, true)?);
        }
    }
    let archs = site
        .models
        .iter()
        .map(|m| m.file.architecture.as_str())
        .collect();
    let page = LeaderboardPage {
        meta,
        site,
        table,
        chart: bars.chart.clone(),
        scatter: scatters.every,
        chart_sources: bars.sources.clone(),
        scatter_sources: scatters.sources,
        archs,
        top: headline.unwrap_or_default(),
        limit,
        chooser,
        paging,
    };
    put_page(sink, &site.path(&path), &page)?;
    Ok(RenderCounts {
        pages: 1,
        charts: usize::from(page.scatter.is_some()) + page.scatter_sources.len(),
    })
}

/// What a leaderboard page says of itself: its description (for link
/// previews), its title (empty on the first page) and its table's caption.
struct LeaderboardTexts {
    description: String,
    title: String,
    caption: String,
}

impl LeaderboardTexts {
    /// The texts of the page `paging` (the one page when `None`), whose
    /// lowest-energy row reads `headline`.
    fn new(site: &Site<'_>, paging: Option<&Paging>, headline: Option<&str>) -> Self {
        let (words, name, deadline) = (site.words(), &site.workload.name, site.deadline());
        let description = format!(
            "{name}: measured GPU energy of {} for {} models, the lowest-energy configuration per \
                model and GPU with {} within {deadline}.{}",
            words.task,
            site.models.len(),
            words.latency,
            headline
                .map(|h| format!(" Lowest: {h}."))
                .unwrap_or_default()
        );
        let title = match paging {
            Some(p) if p.number() > 1 => format!("Leaderboard, rows {}–{}", p.first, p.last),
            _ => String::new(),
        };
        let mut caption = format!(
            "{name}: best configuration per model and GPU, with {} within {deadline}; lowest \
                energy first.",
            words.latency_short
        );
        if let Some(p) = paging {
            caption.push_str(&format!(" Rows {}–{} of {}.", p.first, p.last, p.total));
        }
        Self {
            description,
            title,
            caption,
        }
    }
}

/// The latency-limit control of leaderboard page `number` over its `rows`:
/// its per-row data goes to its own file beside the page.
fn limit_control(
    site: &Site<'_>,
    rows: &[LeaderboardRow],
    number: usize,
    meta: &mut PageMeta,
    sink: &dyn PageSink,
) -> Result<super::reader::LimitControl> {
    let spare = super::reader::limit_rows_file(number);
    let tables = kind::tables(site.workload.measure);
    let control = super::reader::leaderboard_control(site, rows, &spare, &tables.leaderboard)?;
    meta.scripts.push("limit.js");
    sink.put(&site.path(&spare), control.rows.as_bytes())?;
    Ok(control)
}

/// The charts of every configuration on a leaderboard page: of all its
/// sources, and on a site of several, of each source alone.
#[derive(Default)]
struct Scatters {
    every: Option<ChartView>,
    sources: Vec<ChartView>,
}

/// Draws and writes the charts of every configuration of the models of
/// `rows` (all of the workload's on its one page), a phone's drawing and a
/// wide one, and on a site of several sources each source's alone.
fn leaderboard_scatters(
    site: &Site<'_>,
    rows: &[LeaderboardRow],
    paging: Option<&Paging>,
    sink: &dyn PageSink,
) -> Result<Scatters> {
    let words = site.words();
    // A page of several draws the configurations of its own models, each
    // marked by its source as on the chart of all of them.
    let all = site.files_and_analyses();
    let shown: Vec<usize> = if paging.is_some() {
        rows.iter()
            .map(|r| r.model)
            .collect::<BTreeSet<_>>()
            .into_iter()
            .collect()
    } else {
        (0..all.len()).collect()
    };
    let whose_all = chart::whose_of(all.iter().map(|m| m.file));
    let pairs: Vec<_> = shown.iter().map(|&i| all[i]).collect();
    let whose: Vec<_> = shown.iter().map(|&i| whose_all[i].clone()).collect();
    let number = paging.map_or(1, Paging::number);
    let (scatter_file, scatter_title) = match paging {
        None => (
            "all-configurations.svg".to_owned(),
            chart::EVERY_CONFIGURATION.to_owned(),
        ),
        Some(p) => (
            if number == 1 {
                "all-configurations.svg".to_owned()
            } else {
                format!("all-configurations-{number}.svg")
            },
            format!(
                "Every configuration of the models of rows {}–{}",
                p.first, p.last
            ),
        ),
    };
    let wide_file = scatter_file.replace(".svg", "-wide.svg");
    // The phone's drawing and the wide one (legend beside the plot).
    let [mut c, mut w] = chart::configuration_scatters_marked(
        words,
        &pairs,
        &whose,
        &scatter_title,
        super::configuration_href,
    )?;
    c.file_name = scatter_file;
    w.file_name = wide_file;
    // Only in the workload's folder (its links are relative to it), not put_file.
    sink.put(&site.path(&c.file_name), c.svg.as_bytes())?;
    sink.put(&site.path(&w.file_name), w.svg.as_bytes())?;
    let every = if site.mixed() { " every-source" } else { "" };
    let mut scatters = Scatters {
        every: Some(super::views::with_wide(
            ChartView {
                class: every.into(),
                ..chart_view(&c)
            },
            &w,
        )),
        sources: Vec::new(),
    };
    if site.mixed() {
        scatters.sources = source_scatters(site, &pairs, &scatter_title, number, sink)?;
    }
    Ok(scatters)
}

/// Two sources or more: the scatter of every configuration of `pairs`
/// again per source, shown in its place when the reader shows that source
/// alone.
fn source_scatters(
    site: &Site<'_>,
    pairs: &[Analysed<'_>],
    title: &str,
    number: usize,
    sink: &dyn PageSink,
) -> Result<Vec<ChartView>> {
    let mut views = Vec::new();
    for s in &site.info.sources {
        let mut pairs = pairs.to_vec();
        pairs.retain(|m| m.file.source.key() == s.key);
        let whose: Vec<_> = pairs
            .iter()
            .map(|m| site.info.whose(&m.file.source))
            .collect();
        let mut c = chart::configuration_scatter_marked(
            site.words(),
            &pairs,
            &whose,
            title,
            super::configuration_href,
            false,
        )?;
        c.file_name = if number > 1 {
            format!("all-configurations-{number}-only-{}.svg", s.key)
        } else {
            format!("all-configurations-only-{}.svg", s.key)
        };
        sink.put(&site.path(&c.file_name), c.svg.as_bytes())?;
        let class = format!(" only-source from-{}", s.key);
        views.push(ChartView {
            class,
            ..chart_view(&c)
        });
    }
    Ok(views)
}

/// The HTML of the table of the best rows `rows` on the leaderboard or on a
/// GPU page, and its column chooser; the page gets the chooser's style and
/// the source filter's.
fn best_table(
    site: &Site<'_>,
    meta: &mut PageMeta,
    caption: String,
    rows: &[LeaderboardRow],
    gpu_page: bool,
) -> Result<(String, ColumnChooser)> {
    let tables = kind::tables(site.workload.measure);
    // A GPU page links to the workload's folder two levels up, and is not sorted.
    let (id, columns, home) = if gpu_page {
        ("gpu-leaderboard", &tables.gpu_page, "../../")
    } else {
        ("leaderboard", &tables.leaderboard, "")
    };
    let headers = site.best_table_headers(&tables, columns, &meta.root);
    let chooser = ColumnChooser::new(id, &headers, tables.essential, tables.narrow);
    meta.head_style = chooser.style()? + &super::source_filter_style(&site.info.sources)?;
    meta.script = true;
    let table = TableView {
        id: id.into(),
        caption,
        headers,
        groups: Vec::new(),
        sortable: !gpu_page,
    };
    let rows = rows
        .iter()
        .map(|r| leaderboard_row(site, *r, home, columns));
    Ok((table_html_from_rows(&table, rows)?, chooser))
}

#[derive(Template)]
#[template(path = "gpu.html")]
struct GpuPage<'a> {
    meta: PageMeta,
    site: &'a Site<'a>,
    gpu: &'a str,
    table: String,
    chart: Option<ChartView>,
    /// On a page that mixes sources, each source's own bar chart; else empty.
    chart_sources: Vec<ChartView>,
    count: usize,
    chooser: ColumnChooser,
}

pub(super) fn render_gpu_pages(site: &Site<'_>, sink: &dyn PageSink) -> Result<RenderCounts> {
    site.gpus
        .iter()
        .try_fold(RenderCounts::default(), |counts, gpu| {
            Ok(counts + render_gpu_page(site, gpu, sink)?)
        })
}

/// The page of one GPU in a workload: every model's best configuration on
/// it, lowest energy first, and their chart.
fn render_gpu_page(site: &Site<'_>, gpu: &str, sink: &dyn PageSink) -> Result<RenderCounts> {
    let mut counts = RenderCounts::ONE_PAGE;
    let (words, name, deadline) = (site.words(), &site.workload.name, site.deadline());
    let dir = gpu_dir(gpu);
    let path = format!("{dir}index.html");
    let rows: Vec<LeaderboardRow> = site
        .leaderboard
        .iter()
        .copied()
        .filter(|&r| site.row(r).1.gpu == *gpu)
        .collect();
    let headline = rows.first().map(|&r| site.row(r)).map(|(m, c)| {
        format!(
            " Lowest: {} at {} {}.",
            &m.name,
            kind::energy_figure(c),
            words.energy_long
        )
    });
    let description = format!(
        "{name}: {} models measured on {gpu}, ranked by their lowest GPU energy per {} with \
            {} within {deadline}.{}",
        rows.len(),
        words.item,
        words.latency_short,
        headline.unwrap_or_default()
    );
    let mut meta = site.meta(&path, &format!("{gpu} GPU"), description, "");
    let caption = format!(
        "{name}: models on {gpu}, each at its lowest-energy configuration with {} within \
            {deadline}, lowest first",
        words.latency_short
    );
    let (table, chooser) = best_table(site, &mut meta, caption, &rows, true)?;
    let title = format!("Best energy per model on {gpu}, {name}");
    let mut chart = None;
    if !rows.is_empty() {
        let c = energy_bars(site, &rows, "best-energy.svg", &title)?;
        site.put_file(sink, &format!("{dir}{}", c.file_name), c.svg.as_bytes())?;
        counts.charts += 1;
        chart = Some(chart_view(&c));
    }
    // Two sources or more on this GPU: the chart again per source (as on
    // the leaderboard); with one, the chart is that source's.
    let mut chart_sources = Vec::new();
    let key = |r: &LeaderboardRow| site.row(*r).0.source.key();
    let one = rows
        .first()
        .map(key)
        .filter(|&k| rows.iter().all(|r| key(r) == k));
    let chart = match (site.mixed(), one) {
        (false, _) => chart,
        (true, Some(k)) => chart.map(|c| ChartView {
            class: format!(" from-{k}"),
            ..c
        }),
        (true, _) => {
            chart_sources = source_bars(site, &rows, &title, &dir, sink)?;
            counts.charts += chart_sources.len();
            meta.head_style
                .push_str(&super::source_views_style(&site.info.sources, false)?);
            chart.map(|c| ChartView {
                class: " every-source".to_owned(),
                ..c
            })
        }
    };
    let page = GpuPage {
        chart_sources,
        meta,
        site,
        gpu,
        table,
        chart,
        count: rows.len(),
        chooser,
    };
    put_page(sink, &site.path(&path), &page)?;
    Ok(counts)
}

#[derive(Template)]
#[template(path = "about.html")]
struct AboutPage<'a> {
    meta: PageMeta,
    site: &'a Mirror<'a>,
    /// Whether the site has per-token workloads (their method, rule,
    /// formulas and columns are explained).
    tokens: bool,
    /// The diffusion workloads' method, rule, formulas and columns, if any.
    diffusion: Option<DiffusionAbout>,
    /// Whether any configuration carries an output-length histogram (the
    /// energy-per-response method is explained).
    response_histograms: bool,
    /// The workloads' distinct deadlines, e.g. "500 ms" or "each workload's
    /// own deadline (500 ms, 30 s)".
    deadline: String,
    /// The guide (`docs/README.md`) in the repository the site is built
    /// from, when the settings name it or the base URL is a GitHub Pages
    /// address that does.
    guide: Option<String>,
}

/// The guide's address on GitHub: in `repository` when the settings name
/// it, else for a site published at `base_url` by GitHub Pages from the
/// repository's `main` branch (the Pages workflow):
/// `https://user.github.io/repo/` is `github.com/user/repo`,
/// `https://user.github.io/` is `github.com/user/user.github.io`.
fn guide_url(repository: Option<&str>, base_url: Option<&str>) -> Option<String> {
    if let Some(repo) = repository {
        return Some(format!("{repo}/blob/main/docs/README.md"));
    }
    let rest = base_url?.strip_prefix("https://")?;
    let (host, path) = rest.split_once('/').unwrap_or((rest, ""));
    let user = host.strip_suffix(".github.io")?;
    let repo = match path.split('/').find(|s| !s.is_empty()) {
        Some(repo) => repo.to_owned(),
        None => host.to_owned(),
    };
    Some(format!(
        "https://github.com/{user}/{repo}/blob/main/docs/README.md"
    ))
}

/// What the about page says about the diffusion workloads.
struct DiffusionAbout {
    /// The columns of the kinds the site has.
    columns: Vec<&'static Column>,
    /// The latency budgets, e.g. "text to image: 2 s, 5 s, 10 s and 20 s".
    ladders: String,
    /// Whether a video workload is there (energy per second of video).
    video: bool,
}

/// "2 s, 5 s, 10 s, 20 s".
fn ladder_text(rungs: &[f64], unit: &str) -> String {
    rungs
        .iter()
        .map(|l| format!("{} {unit}", fmt::limit_ms(*l)))
        .collect::<Vec<_>>()
        .join(", ")
}

pub(super) fn render_about(site: &Mirror<'_>, sink: &dyn PageSink) -> Result<RenderCounts> {
    let path = "about/index.html";
    let description = "How the figures are measured and derived: what GPU energy covers and \
        leaves out, every column's definition and unit, the selection rule, the source, its \
        licence and how to cite it."
        .to_owned();
    let meta = site.meta(path, "About the data and method", description, "about");
    let kinds: BTreeSet<Measure> = (site.workloads.iter().map(|w| w.workload.measure))
        .filter(|&m| m != Measure::Tokens)
        .collect();
    let diffusion = (!kinds.is_empty()).then(|| {
        let ladders = kinds
            .iter()
            .map(|m| {
                format!(
                    "text to {}: {}",
                    Words::of(*m).item,
                    ladder_text(Words::of(*m).ladder, "s")
                )
            })
            .collect::<Vec<_>>()
            .join("; ");
        DiffusionAbout {
            // The columns the CSV files of these kinds carry.
            columns: (DIFFUSION.columns.iter().copied())
                .filter(|c| kinds.iter().any(|&m| c.applies(m)))
                .collect(),
            ladders,
            video: kinds.contains(&Measure::Diffusion(crate::model::OutputKind::Video)),
        }
    });
    // In seconds, to order milliseconds and seconds together.
    let mut limits: Vec<(f64, String)> = site
        .workloads
        .iter()
        .map(|w| {
            let d = w.workload.deadline;
            (
                if w.workload.measure == Measure::Tokens {
                    d / 1000.0
                } else {
                    d
                },
                w.deadline(),
            )
        })
        .collect();
    limits.sort_by(|a, b| a.0.total_cmp(&b.0).then_with(|| a.1.cmp(&b.1)));
    limits.dedup_by(|a, b| a.1 == b.1);
    let shown = limits
        .iter()
        .map(|(_, t)| t.as_str())
        .collect::<Vec<_>>()
        .join(", ");
    let page = AboutPage {
        deadline: if limits.len() < 2 {
            shown
        } else {
            format!("each workload's own deadline ({shown})")
        },
        guide: guide_url(site.repository.as_deref(), site.base_url.as_deref()),
        meta,
        site,
        tokens: site.has(|m| m == Measure::Tokens),
        diffusion,
        response_histograms: (site.workloads.iter().flat_map(|w| w.models))
            .flat_map(|m| &m.file.configurations)
            .any(|c| c.output_length_distribution.is_some()),
    };
    put_page(sink, path, &page)?;
    Ok(RenderCounts::ONE_PAGE)
}

/// The page a host serves for an address the site does not have.
pub(super) const NOT_FOUND: &str = "404.html";

#[derive(Template)]
#[template(path = "404.html")]
struct NotFoundPage {
    meta: PageMeta,
}

pub(super) fn render_not_found(
    site: &Mirror<'_>,
    assets: &[Asset],
    sink: &dyn PageSink,
) -> Result<RenderCounts> {
    // GitHub Pages serves 404.html at any depth, so relative links would
    // break; with a base URL the page links absolutely, and without one a
    // small script finds the site root from the page's own <script> URL.
    let description = "This page does not exist on the energy leaderboard mirror. Start again \
        from the leaderboard, a model page or the downloads."
        .to_owned();
    let mut meta = site.meta(NOT_FOUND, "Page not found", description, "");
    meta.canonical = None;
    // The workload tabs are on the front page the 404 links to.
    meta.tabs.clear();
    if let Some(base) = &site.base_url {
        meta.root.clone_from(base);
        // Absolute too: the page is served at any depth.
        meta.feed = meta
            .feed
            .map(|_| format!("{base}{}", super::changes::FEED_PATH));
    }
    meta.inline_css = assets
        .iter()
        .find(|a| a.rel == "style.css")
        .map(|a| String::from_utf8_lossy(&a.bytes).into_owned());
    put_page(sink, NOT_FOUND, &NotFoundPage { meta })?;
    Ok(RenderCounts::ONE_PAGE)
}

/// `sitemap.xml`: every page's address.
#[derive(Template)]
#[template(path = "sitemap.xml")]
struct Sitemap<'a> {
    base: &'a str,
    paths: &'a [String],
}

/// `robots.txt`, and with a base URL `sitemap.xml` listing `pages`: every
/// page's address in the site, in path order.
pub(super) fn render_seo_files(
    site: &Mirror<'_>,
    pages: &[String],
    sink: &dyn PageSink,
) -> Result<()> {
    let Some(base) = &site.base_url else {
        sink.put("robots.txt", b"User-agent: *\nAllow: /\n")?;
        return Ok(());
    };
    let xml = Sitemap { base, paths: pages }
        .render()
        .context("rendering sitemap.xml")?;
    sink.put("sitemap.xml", xml.as_bytes())?;
    sink.put(
        "robots.txt",
        format!("User-agent: *\nAllow: /\nSitemap: {base}sitemap.xml\n").as_bytes(),
    )?;
    Ok(())
}
