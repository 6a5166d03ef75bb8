//! A workload's compare pages: any of its models side by side, every
//! configuration of the chosen ones on one chart, their configurations in
//! one table, and each one's lowest energy per GPU. Past
//! [`crate::analyse::COMPARE_PAGE_MODELS`] models (or
//! [`crate::analyse::COMPARE_PAGE_POINTS`] configurations) the list goes on
//! in `page-2.html`, …, each page complete without JavaScript, so that no
//! page grows with the workload; the page script brings a model of another
//! page in when the address names it (`pages.json` says where each model
//! is).

use std::ops::Range;

use anyhow::Result;
use askama::Template;
use rayon::prelude::*;

use super::site_pages::{Paging, leaderboard_page_file};
use super::views::{Cell, Header, Row, TableView, table_html_from_rows};
use super::{
    PageMeta, RenderCounts, Site, column_cell, header, kind, model_dir, num, put_page, text,
};
use crate::analyse::{Analysed, ModelAnalysis, compare_pages, lowest_energy_first};
use crate::chart::{self, CompareModel, CompareScale, Whose};
use crate::fmt;
use crate::model::{Configuration, ModelFile, url_segment};
use crate::write::PageSink;

#[derive(Template)]
#[template(path = "compare.html")]
struct ComparePage<'a> {
    meta: PageMeta,
    site: &'a Site<'a>,
    /// Each model's lowest energy per GPU.
    table: String,
    picks: Vec<ModelPick<'a>>,
    /// The chart of every configuration of the page's models, inline (a
    /// drawing for phones and one for wide screens).
    picker: Option<chart::ComparePicker>,
    /// Every configuration of the page's models, one table.
    configurations: String,
    /// How many models are chosen at first.
    default_count: usize,
    /// The overlay of the models' energy per response, inline, and its
    /// data table; `None` when no model has an output-length histogram.
    responses: Option<ResponsesSection>,
    /// Where this page is among the compare pages, when there are several.
    paging: Option<Paging>,
    /// The file naming each model's page (`pages.json`), when there are
    /// several pages.
    index: Option<&'static str>,
}

impl ComparePage<'_> {
    /// How many of the models come from the source `key`.
    fn count(&self, key: &str) -> usize {
        self.picks
            .iter()
            .filter(|p| p.m.source.key() == key)
            .count()
    }
}

/// A model's checkbox on the compare page.
/// `k` is the model's index in the workload (its class `mK`).
struct ModelPick<'a> {
    k: usize,
    m: &'a ModelFile,
    swatch: String,
    checked: bool,
}

/// What every compare page of a workload shares.
struct CompareBook<'s> {
    pairs: Vec<Analysed<'s>>,
    /// Model indices, lowest energy first: the order of the pages.
    by_energy: Vec<usize>,
    /// Each model's place in `by_energy`.
    rank: Vec<usize>,
    whose: Vec<Option<Whose>>,
    /// The chart's axes, over every model.
    scale: CompareScale,
    /// Each page's models, as ranges of `by_energy`.
    pages: Vec<Range<usize>>,
}

impl<'s> CompareBook<'s> {
    fn of(site: &'s Site<'s>) -> Self {
        let pairs = site.files_and_analyses();
        let by_energy = lowest_energy_first(&pairs, pairs.len());
        let mut rank = vec![0; pairs.len()];
        for (r, &k) in by_energy.iter().enumerate() {
            rank[k] = r;
        }
        let sizes: Vec<usize> = by_energy
            .iter()
            .map(|&k| pairs[k].file.configurations.len())
            .collect();
        CompareBook {
            whose: chart::whose_of(pairs.iter().map(|m| m.file)),
            scale: chart::compare_scale(&pairs),
            pages: compare_pages(&sizes),
            pairs,
            by_energy,
            rank,
        }
    }

    /// The models of each page, in the workload's order.
    fn listed(&self) -> Vec<Vec<usize>> {
        let mut listed = vec![Vec::new(); self.pages.len()];
        let mut page_of = vec![0; self.pairs.len()];
        for (n, range) in self.pages.iter().enumerate() {
            for &k in &self.by_energy[range.clone()] {
                page_of[k] = n;
            }
        }
        for (k, &n) in page_of.iter().enumerate() {
            listed[n].push(k);
        }
        listed
    }

    /// The models of page `n` chosen at first: its lowest-energy ones, as
    /// many as colours and markers tell apart.
    fn chosen(&self, n: usize) -> &[usize] {
        let page = &self.by_energy[self.pages[n].clone()];
        &page[..page.len().min(chart::MAX_FRONTIERS)]
    }
}

/// The file of the index of which page lists each model.
const PAGES_INDEX: &str = "pages.json";

pub(super) fn render_compare(site: &Site<'_>, sink: &dyn PageSink) -> Result<RenderCounts> {
    let book = CompareBook::of(site);
    let mut counts = RenderCounts::default();
    // The seven lowest-energy frontiers as a file, at its stable address.
    if !book.pairs.is_empty() {
        let c = chart::compare_frontiers(site.words(), &book.pairs)?;
        site.put_file(sink, &format!("compare/{}", c.file_name), c.svg.as_bytes())?;
        counts.charts += 1;
    }
    if book.pages.len() > 1 {
        let index = pages_index(&book, site);
        sink.put(
            &site.path(&format!("compare/{PAGES_INDEX}")),
            index.as_bytes(),
        )?;
    }
    let listed = book.listed();
    let pages = (0..book.pages.len())
        .into_par_iter()
        .map(|n| render_compare_page(site, &book, n, &listed[n], sink))
        .collect::<Result<Vec<_>>>()?;
    Ok(pages.into_iter().fold(counts, |a, b| a + b))
}

/// `{"pages": ["index.html", "page-2.html", …], "models": {"slug": 0, …}}`:
/// the compare pages, and the page (index into `pages`) of each model.
fn pages_index(book: &CompareBook<'_>, site: &Site<'_>) -> String {
    let pages: Vec<String> = (1..=book.pages.len()).map(leaderboard_page_file).collect();
    let mut models = serde_json::Map::new();
    for (n, range) in book.pages.iter().enumerate() {
        for &k in &book.by_energy[range.clone()] {
            models.insert(site.models[k].file.slug.clone(), n.into());
        }
    }
    serde_json::json!({ "pages": pages, "models": models }).to_string()
}

/// Compare page `n` (from 0) of the workload, which lists the models
/// `listed`.
fn render_compare_page(
    site: &Site<'_>,
    book: &CompareBook<'_>,
    n: usize,
    listed: &[usize],
    sink: &dyn PageSink,
) -> Result<RenderCounts> {
    let path = format!("compare/{}", leaderboard_page_file(n + 1));
    let (words, name, deadline) = (site.words(), &site.workload.name, site.deadline());
    let mut description = format!(
        "{name}: any of its {} models side by side, every configuration of the chosen ones on \
            one chart and in one table, and the lowest GPU energy per {} on each GPU with {} \
            within {deadline}.",
        site.models.len(),
        words.item,
        words.latency_short
    );
    let paging = (book.pages.len() > 1).then(|| {
        let ends: Vec<usize> = book.pages.iter().map(|r| r.end).collect();
        Paging::of_models(n + 1, &ends)
    });
    if let Some(p) = &paging {
        description.push_str(&format!(
            " Models {}–{} of {}, lowest energy first.",
            p.first, p.last, p.total
        ));
    }
    let mut meta = site.meta(&path, "Compare models", description, "compare");
    let root = meta.root.clone();
    let best = best_table(site, &root, listed)?;
    let shown: Vec<CompareModel<'_>> = book.by_energy[book.pages[n].clone()]
        .iter()
        .map(|&k| CompareModel {
            index: k,
            file: book.pairs[k].file,
            analysis: book.pairs[k].analysis,
            rank: book.rank[k],
            whose: book.whose[k].clone(),
        })
        .collect();
    let href = |m: &ModelFile, c: &Configuration| configuration_href(site, &root, m, c);
    let picker = (!shown.is_empty())
        .then(|| chart::compare_picker(words, &book.scale, &shown, &href))
        .transpose()?;
    let chosen = book.chosen(n);
    let picks: Vec<ModelPick> = picker.as_ref().map_or_else(Vec::new, |p| {
        listed
            .iter()
            .map(|&k| ModelPick {
                k,
                m: &site.models[k].file,
                swatch: p.swatches[book.rank[k] - book.pages[n].start].clone(),
                checked: chosen.contains(&k),
            })
            .collect()
    });
    meta.head_style = compare_style(site, listed, best.first_gpu_column)?;
    if paging.is_some() {
        meta.head_style
            .push_str(include_str!("../../templates/pages_nav.css"));
    }
    meta.scripts.push("compare.js");
    let responses = response_overlay(site, &root, book, listed)?;
    let charts = usize::from(picker.is_some()) + usize::from(responses.is_some());
    let configurations = configurations_table(site, &root, &shown)?;
    let page = ComparePage {
        meta,
        site,
        table: best.html,
        picks,
        picker,
        configurations,
        default_count: chosen.len(),
        responses,
        paging,
        index: (book.pages.len() > 1).then_some(PAGES_INDEX),
    };
    put_page(sink, &site.path(&path), &page)?;
    Ok(RenderCounts { pages: 1, charts })
}

/// The address of configuration `c`'s row on its model's page, from the
/// page at `root`.
fn configuration_href(site: &Site<'_>, root: &str, m: &ModelFile, c: &Configuration) -> String {
    format!("{root}{}{}", site.prefix, super::configuration_href(m, c))
}

/// The compare page's own CSS (`templates/compare.css`).
#[derive(Template)]
#[template(path = "compare.css", escape = "none")]
struct CompareStyle<'a> {
    /// The models listed: each one's chart groups and table rows carry `mK`.
    listed: &'a [usize],
    gpu_columns: Vec<GpuColumns>,
    /// The sources filtered by, none on a site of one.
    source_keys: Vec<&'a str>,
}

/// A GPU's two columns of the table of lowest energies, which its box
/// `#gpu-pick-<pick>` hides.
struct GpuColumns {
    pick: usize,
    /// Its figure's column and its setup's, from 1 as CSS counts.
    figure: usize,
    setup: usize,
}

/// The page's own CSS: only what is ticked shows, one rule per model of
/// `listed` (its chart groups and table rows carry `mK`) and per GPU (its
/// two columns of the table of lowest energies, from `first_gpu_column`).
fn compare_style(
    site: &Site<'_>,
    listed: &[usize],
    first_gpu_column: usize,
) -> askama::Result<String> {
    let gpu_columns = (0..site.gpus.len())
        .map(|pick| GpuColumns {
            pick,
            figure: first_gpu_column + 2 * pick,
            setup: first_gpu_column + 2 * pick + 1,
        })
        .collect();
    CompareStyle {
        listed,
        gpu_columns,
        source_keys: super::filtered_source_keys(&site.info.sources),
    }
    .render()
}

/// The table of lowest energies per GPU, and where its GPU columns start.
struct BestTable {
    html: String,
    /// The first GPU column, from 1 as CSS counts; each GPU has two (the
    /// figure and its setup).
    first_gpu_column: usize,
}

/// The table of each model of `listed`'s lowest energy per GPU (two
/// columns per GPU: the figure and its setup).
fn best_table(site: &Site<'_>, root: &str, listed: &[usize]) -> Result<BestTable> {
    let (words, name, deadline) = (site.words(), &site.workload.name, site.deadline());
    let tables = kind::tables(site.workload.measure);
    let set = tables.set;
    let mut headers: Vec<Header> = tables
        .model_facts
        .iter()
        .map(|c| header(&set, c, root))
        .collect();
    if site.mixed() {
        headers.insert(1.min(headers.len()), super::source_header(root));
    }
    let first_gpu_column = headers.len() + 1;
    for gpu in &site.gpus {
        let label = format!("Lowest {} on {gpu}", words.energy_per);
        let best = Header::plain(&label, words.energy_unit, true, &url_segment(gpu));
        headers.push(best.defined(root, &set.anchor(tables.headline), ""));
        let key = format!("{}-setup", url_segment(gpu));
        headers.push(Header::plain(&format!("{gpu} setup"), "", false, &key));
    }
    let rows = listed.iter().map(|&k| {
        let (m, a) = (&site.models[k].file, &site.analyses[k]);
        let dir = format!("{root}{}{}", site.prefix, model_dir(&m.slug));
        // The model's facts, read through any of its configurations.
        let mut cells: Vec<Cell> = tables
            .model_facts
            .iter()
            .map(|col| {
                m.configurations
                    .first()
                    .map_or_else(|| text("—"), |c| column_cell(col, m, c))
            })
            .collect();
        if let Some(name) = cells.first_mut() {
            name.href = Some(format!("{dir}index.html"));
            name.header = true;
        }
        for gpu in &site.gpus {
            cells.extend(best_cells(site, root, m, a, gpu));
        }
        compare_row(site, k, m, cells)
    });
    let table = TableView {
        id: "compare".into(),
        caption: format!(
            "{name}: the chosen models' lowest {} per GPU, {} within {deadline}",
            words.energy_long, words.latency_short
        ),
        headers,
        ..TableView::default()
    };
    Ok(BestTable {
        html: table_html_from_rows(&table, rows)?,
        first_gpu_column,
    })
}

/// The two cells of model `m`'s lowest energy on `gpu`: the figure,
/// linked to its row, and its setup; or a dash and why.
fn best_cells(
    site: &Site<'_>,
    root: &str,
    m: &ModelFile,
    a: &ModelAnalysis,
    gpu: &str,
) -> [Cell; 2] {
    let best = a
        .best_per_gpu
        .iter()
        .find(|b| b.gpu == gpu)
        .and_then(|b| b.best);
    match best {
        Some(i) => {
            let c = &m.configurations[i];
            let energy = num(kind::energy_figure(c), c.energy());
            [
                Cell {
                    href: Some(configuration_href(site, root, m, c)),
                    ..energy
                },
                text(kind::compare_setup(c)),
            ]
        }
        None if m.gpus.iter().any(|g| g == gpu) => [text("—"), text("none within deadline")],
        None => [text("—"), text("not measured")],
    }
}

/// The compare page's overlay of energy per response: each model of
/// `listed`'s lowest-energy best configuration that has an output-length
/// histogram, and the chart's data table, each row of class `mK` (shown
/// with its model).
fn response_overlay(
    site: &Site<'_>,
    root: &str,
    book: &CompareBook<'_>,
    listed: &[usize],
) -> Result<Option<ResponsesSection>> {
    let mut series = Vec::new();
    for &k in listed {
        let (m, a) = (&site.models[k].file, &site.analyses[k]);
        if let Some(lowest) = a.lowest_response.map(|j| &a.responses[j]) {
            let c = &m.configurations[lowest.config];
            let rank = book.rank[k];
            series.push(chart::OverlaySeries {
                index: k,
                rank,
                look: a.look.unwrap_or(rank),
                model: m.name.clone(),
                gpu: c.gpu.clone(),
                setup: kind::compare_setup(c),
                response: &lowest.energy,
                whose: site.info.whose(&m.source),
            });
        }
    }
    if series.is_empty() {
        return Ok(None);
    }
    let overlay = chart::response_overlay(&series)?;
    let (unit, sym) = (overlay.unit, overlay.unit.symbol());
    let headers = vec![
        Header::plain("GPU", "", false, "gpu"),
        Header::plain("Setup", "", false, "setup"),
        Header::plain("Responses", "count", true, "responses"),
        Header::plain("Median", sym, true, "median"),
        Header::plain("90th percentile", sym, true, "p90"),
    ];
    let rows = series.iter().map(|s| {
        let (m, r) = (&site.models[s.index].file, s.response);
        let href = format!(
            "{root}{}{}index.html#response",
            site.prefix,
            model_dir(&m.slug)
        );
        let cells = vec![
            Cell {
                header: true,
                ..text(&s.model)
            },
            text(&s.gpu),
            text(&s.setup),
            num(fmt::grouped(r.total as f64), r.total as f64),
            Cell {
                href: Some(href),
                ..num(unit.text(r.median_j), r.median_j)
            },
            num(unit.text(r.p90_j), r.p90_j),
        ];
        compare_row(site, s.index, m, cells)
    });
    let caption = format!(
        "Data of the chart: the chosen models' energy per response ({sym}), each at its \
            lowest-energy configuration within the deadline"
    );
    let table = data_table(site, root, "chart-responses-data", caption, headers, rows)?;
    Ok(Some(ResponsesSection { overlay, table }))
}

/// The energy-per-response section of a compare page.
struct ResponsesSection {
    /// The overlay, drawn inline.
    overlay: chart::ResponseOverlay,
    /// Its data table's HTML.
    table: String,
}

/// A row of model `k` on the compare page: class `mK` (shown with its
/// model) and, on a page that mixes sources, its source's class
/// (`from-<key>`) and a Source cell after the first of `cells`.
fn compare_row(site: &Site<'_>, k: usize, m: &ModelFile, mut cells: Vec<Cell>) -> Row {
    let mut class = format!("m{k}");
    if site.mixed() {
        cells.insert(
            1.min(cells.len()),
            super::link(&m.source.name, m.source.url.clone()),
        );
        class = format!("m{k} from-{}", m.source.key());
    }
    Row {
        class,
        cells,
        ..Row::default()
    }
}

/// A table of the compare page: a Model column, the Source column on a
/// page that mixes sources, then `headers`.
fn data_table(
    site: &Site<'_>,
    root: &str,
    id: &str,
    caption: String,
    headers: Vec<Header>,
    rows: impl Iterator<Item = Row>,
) -> Result<String> {
    let mut all = vec![Header::plain("Model", "", false, "model")];
    if site.mixed() {
        all.push(super::source_header(root));
    }
    all.extend(headers);
    let table = TableView {
        id: id.into(),
        caption,
        headers: all,
        sortable: true,
        ..TableView::default()
    };
    table_html_from_rows(&table, rows)
}

/// Every configuration of the page's models (`shown`, lowest energy
/// first), one table, the data of the chart: each row of class `mK`
/// (shown with its model), its energy linked to its row on the model page.
fn configurations_table(site: &Site<'_>, root: &str, shown: &[CompareModel<'_>]) -> Result<String> {
    let words = site.words();
    let latency = fmt::capitalised(words.latency_short);
    let headers = vec![
        Header::plain("Setup", "", false, "setup"),
        Header::plain(&latency, words.latency_unit, true, "latency"),
        Header::plain(
            &fmt::capitalised(words.energy_per),
            words.energy_unit,
            true,
            "energy",
        ),
        Header::plain("Pareto frontier", "", false, "frontier"),
    ];
    let rows = shown.iter().flat_map(|s| {
        let (m, a) = (s.file, s.analysis);
        m.configurations.iter().enumerate().map(move |(i, c)| {
            let latency = (words.latency_text)(c.latency());
            let on = if a.frontier.contains(&i) { "on it" } else { "" };
            let cells = vec![
                Cell {
                    header: true,
                    ..text(&m.name)
                },
                text(kind::compare_setup(c)),
                num(latency, c.latency()),
                Cell {
                    href: Some(configuration_href(site, root, m, c)),
                    ..num(kind::energy_figure(c), c.energy())
                },
                text(on),
            ];
            compare_row(site, s.index, m, cells)
        })
    });
    let caption = format!(
        "Data of the chart: every configuration of the chosen models, {} and {}, and whether it \
            is on its model's Pareto frontier",
        words.latency_short, words.energy_long
    );
    // The address the compare chart's data table had before the page let
    // readers choose (a published URL).
    data_table(site, root, "chart-frontiers-data", caption, headers, rows)
}
