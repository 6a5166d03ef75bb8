//! A model's page: best configuration per GPU, latency budgets, charts,
//! every configuration, source, citation and embeds.

use anyhow::Result;
use askama::Template;

use super::views::{Cell, ChartView, Header, Row, RowGroup, TableView, chart_view, table_html};
use super::{
    PageMeta, RenderCounts, Site, config_summary, downloads, figure_cell, gpu_anchor, gpu_segment,
    gpu_setup, header, link, model_dir, put_page, text,
};
use crate::analyse::{ModelAnalysis, precisions};
use crate::chart::{self, Chart};
use crate::fmt;
use crate::load::LoadedModel;
use crate::model::{ModelFile, row_anchor, url_segment};
use crate::write::PageSink;

#[derive(Template)]
#[template(path = "model.html")]
struct ModelPage<'a> {
    meta: PageMeta,
    m: &'a ModelFile,
    facts: Vec<(String, String)>,
    gpu_links: Vec<(String, String)>,
    best_cards: Vec<BestCard>,
    budget_table: String,
    charts: Vec<ChartView>,
    config_tables: Vec<(String, String, String)>,
    deadline: String,
    licence_evidence: Vec<String>,
    bibtex: String,
    json_href: String,
    csv_href: String,
    badge_src: String,
    badge_markdown: String,
    badge_html: String,
    chart_snippets: Vec<(String, String, String)>,
    no_base_url: bool,
    overview_href: String,
    workload: String,
    leaderboard_href: String,
}

struct BestCard {
    gpu: String,
    anchor: String,
    row_href: String,
    setup: String,
    figures: Vec<(String, String)>,
    found: bool,
}

pub(super) fn render_model(
    site: &Site<'_>,
    lm: &LoadedModel,
    a: &ModelAnalysis,
    sink: &dyn PageSink,
) -> Result<RenderCounts> {
    let m = &lm.file;
    let rel_dir = model_dir(&m.slug);
    let dir = site.path(&rel_dir);
    let path = format!("{dir}index.html");
    let deadline = format!("{} ms", fmt::limit_ms(m.itl_deadline_ms));

    let overall = a.best_overall.map(|i| &m.configurations[i]);
    let description = match overall {
        Some(c) => format!(
            "{} on {}: {} Wh per million output tokens on {}, best under a {} median ITL. Measured GPU energy, latency, throughput and power for {} configurations.",
            m.name,
            site.workload.name,
            fmt::wh_per_million(c.wh_per_million_output_tokens),
            c.gpu,
            deadline,
            m.configurations.len()
        ),
        None => format!(
            "{} on {}: no configuration meets the {} median ITL deadline. Measured GPU energy, latency, throughput and power for {} configurations.",
            m.name,
            site.workload.name,
            deadline,
            m.configurations.len()
        ),
    };
    let meta = site.meta(&format!("{rel_dir}index.html"), &m.name, description, "");
    let root = meta.root.clone();
    let home = meta.home.clone();

    let facts = vec![
        ("Model ID".to_owned(), m.model_id.clone()),
        (
            "Parameters".to_owned(),
            format!(
                "{} B total, {} B active",
                fmt::params_b(m.params_b),
                fmt::params_b(m.active_params_b)
            ),
        ),
        ("Architecture".to_owned(), m.architecture.clone()),
        ("Workload".to_owned(), site.workload.name.clone()),
        ("Precisions measured".to_owned(), precisions(m).join(", ")),
        (
            "Configurations".to_owned(),
            format!("{} measured", m.configurations.len()),
        ),
        (
            "Latency deadline".to_owned(),
            format!("median ITL ≤ {deadline}"),
        ),
        (
            "Data version".to_owned(),
            format!("{} (file updated {})", m.data_version, m.updated),
        ),
    ];
    let gpu_links = m
        .gpus
        .iter()
        .map(|g| {
            (
                g.clone(),
                format!("{home}gpus/{}/index.html", gpu_segment(g)),
            )
        })
        .collect();

    let best_cards = a
        .best_per_gpu
        .iter()
        .map(|(gpu, best)| match best {
            Some(i) => {
                let c = &m.configurations[*i];
                BestCard {
                    gpu: gpu.clone(),
                    anchor: gpu_anchor(gpu),
                    row_href: format!("#{}", row_anchor(&m.slug, &c.row_id)),
                    setup: config_summary(c),
                    figures: vec![
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
                    ],
                    found: true,
                }
            }
            None => BestCard {
                gpu: gpu.clone(),
                anchor: gpu_anchor(gpu),
                row_href: format!("#configs-{}", url_segment(gpu)),
                setup: format!("No {gpu} configuration meets the {deadline} deadline."),
                figures: Vec::new(),
                found: false,
            },
        })
        .collect();

    let budget_table = table_html(&budget_table(m, a))?;
    let charts_made: Vec<Chart> = chart::model_charts(m, a);
    for c in &charts_made {
        sink.put(&format!("{dir}{}", c.file_name), c.svg.as_bytes())?;
        if site.legacy {
            sink.put(&format!("{rel_dir}{}", c.file_name), c.svg.as_bytes())?;
        }
    }
    let charts: Vec<ChartView> = charts_made.iter().map(chart_view).collect();
    let config_tables = config_tables(m, a, &root)?;

    let page_url = site.absolute(&dir);
    let bibtex = bibtex(m, page_url.as_deref());
    let badge = downloads::badge_svg(m, overall);
    sink.put(&format!("{dir}badge.svg"), badge.as_bytes())?;
    if site.legacy {
        sink.put(&format!("{rel_dir}badge.svg"), badge.as_bytes())?;
    }
    let badge_url = site
        .absolute(&format!("{dir}badge.svg"))
        .unwrap_or_else(|| format!("{dir}badge.svg"));
    let page_link = page_url.clone().unwrap_or_else(|| dir.clone());
    let badge_alt = match overall {
        Some(c) => format!(
            "{}: {} Wh per million output tokens on {}",
            m.name,
            fmt::wh_per_million(c.wh_per_million_output_tokens),
            c.gpu
        ),
        None => m.name.clone(),
    };
    let chart_snippets = charts_made
        .iter()
        .map(|c| {
            let url = site
                .absolute(&format!("{dir}{}", c.file_name))
                .unwrap_or_else(|| format!("{dir}{}", c.file_name));
            (
                c.title.clone(),
                format!("![{}]({url})", c.description.replace(']', ")")),
                format!(
                    "<img src=\"{url}\" alt=\"{}\">",
                    fmt::xml_escape(&c.description)
                ),
            )
        })
        .collect();

    let page = ModelPage {
        meta,
        m,
        facts,
        gpu_links,
        best_cards,
        budget_table,
        charts,
        config_tables,
        deadline,
        licence_evidence: m.source.licence_evidence.clone(),
        bibtex,
        json_href: format!("{root}{}", downloads::model_file_path(site, m, "json")),
        csv_href: format!("{root}{}", downloads::model_file_path(site, m, "csv")),
        overview_href: format!("{root}{rel_dir}index.html"),
        workload: site.workload.name.clone(),
        leaderboard_href: format!("{home}index.html"),
        badge_src: "badge.svg".into(),
        badge_markdown: format!(
            "[![{}]({badge_url})]({page_link})",
            badge_alt.replace(']', ")")
        ),
        badge_html: format!(
            "<a href=\"{page_link}\"><img src=\"{badge_url}\" alt=\"{}\"></a>",
            fmt::xml_escape(&badge_alt)
        ),
        chart_snippets,
        no_base_url: site.base_url.is_none(),
    };
    put_page(sink, &path, &page)?;
    Ok(RenderCounts {
        pages: 1,
        charts: charts_made.len(),
    })
}

fn budget_table(m: &ModelFile, a: &ModelAnalysis) -> TableView {
    let mut headers = vec![Header {
        label: "Median ITL limit".into(),
        unit: "ms".into(),
        href: None,
        num: true,
        key: "limit".into(),
    }];
    for gpu in &m.gpus {
        headers.push(Header {
            label: format!("Cheapest on {gpu}"),
            unit: "Wh/M tok".into(),
            href: None,
            num: false,
            key: url_segment(gpu),
        });
    }
    let rows = a
        .budgets
        .iter()
        .map(|b| {
            let mut first = text(if b.is_deadline {
                format!("≤ {} (deadline)", fmt::limit_ms(b.limit_ms))
            } else {
                format!("≤ {}", fmt::limit_ms(b.limit_ms))
            });
            first.header = true;
            first.num = true;
            let mut cells = vec![first];
            for (_, best) in &b.per_gpu {
                cells.push(match best {
                    Some(i) => {
                        let c = &m.configurations[*i];
                        let mut cell = link(
                            format!(
                                "{} Wh/M — {}, {} seqs, {} ms",
                                fmt::wh_per_million(c.wh_per_million_output_tokens),
                                gpu_setup(c),
                                c.max_num_seqs,
                                fmt::ms(c.median_itl_ms)
                            ),
                            format!("#{}", row_anchor(&m.slug, &c.row_id)),
                        );
                        cell.sort = Some(format!("{}", c.wh_per_million_output_tokens));
                        cell
                    }
                    None => text(format!("none within {} ms", fmt::limit_ms(b.limit_ms))),
                });
            }
            Row {
                cells,
                ..Row::default()
            }
        })
        .collect();
    TableView {
        id: "budgets".into(),
        caption: "Cheapest configuration per GPU for each median inter-token latency limit".into(),
        headers,
        groups: vec![RowGroup { title: None, rows }],
        sortable: false,
    }
}

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

/// One table per GPU: (GPU, anchor, table HTML). Rows grouped by series
/// (GPU count, parallelism, precision), ordered by concurrency.
fn config_tables(
    m: &ModelFile,
    a: &ModelAnalysis,
    root: &str,
) -> Result<Vec<(String, String, String)>> {
    let mut out = Vec::new();
    for gpu in &m.gpus {
        let mut headers: Vec<Header> = CONFIG_COLUMNS.iter().map(|k| header(k, root)).collect();
        headers.push(Header {
            label: "Notes".into(),
            unit: String::new(),
            href: None,
            num: false,
            key: "notes".into(),
        });
        let groups: Vec<RowGroup> = a
            .curves
            .iter()
            .filter(|s| s.key.gpu == *gpu)
            .map(|s| RowGroup {
                title: Some(format!(
                    "{}, {}",
                    gpu_setup(&m.configurations[s.points[0]]),
                    s.key.precision
                )),
                rows: s.points.iter().map(|&i| config_row(m, a, i)).collect(),
            })
            .collect();
        let anchor = format!("configs-{}", url_segment(gpu));
        let table = TableView {
            id: format!("table-{}", url_segment(gpu)),
            caption: format!(
                "Every {gpu} configuration of {}, grouped by GPU count, parallelism and precision, ordered by max concurrency",
                m.name
            ),
            headers,
            groups,
            sortable: false,
        };
        out.push((gpu.clone(), anchor, table_html(&table)?));
    }
    Ok(out)
}

fn config_row(m: &ModelFile, a: &ModelAnalysis, i: usize) -> Row {
    let c = &m.configurations[i];
    let mut notes = Vec::new();
    if a.is_best(i) {
        notes.push(format!("★ Best on {}", c.gpu));
    }
    if a.is_on_frontier(i) {
        notes.push("◆ Pareto frontier".to_owned());
    }
    if c.repeat > 1 {
        notes.push(format!("↻ Repeat run {}", c.repeat));
    }
    if !c.under_itl_deadline {
        notes.push("Over deadline".to_owned());
    }
    let mut class = Vec::new();
    if a.is_best(i) {
        class.push("best");
    }
    if a.is_on_frontier(i) {
        class.push("frontier");
    }
    if c.repeat > 1 {
        class.push("repeat");
    }
    let mut cells: Vec<Cell> = CONFIG_COLUMNS
        .iter()
        .map(|&key| figure_cell(key, m, c))
        .collect();
    cells[0].header = true;
    cells.push(text(notes.join("; ")));
    Row {
        id: Some(row_anchor(&m.slug, &c.row_id)),
        class: class.join(" "),
        attrs: Vec::new(),
        cells,
    }
}

fn bibtex(m: &ModelFile, url: Option<&str>) -> String {
    let year = m.data_version.get(..4).unwrap_or("");
    let mut s = format!(
        "@misc{{energyboard-{slug},\n  title        = {{{{{name}}}: GPU energy of LLM inference (mirror of the {src})}},\n  author       = {{{{{publisher}}}}},\n  year         = {{{year}}},\n",
        slug = m.slug,
        name = bib_escape(&m.name),
        src = bib_escape(&m.source.name),
        publisher = bib_escape(&m.source.publisher),
    );
    if let Some(url) = url {
        s.push_str(&format!("  howpublished = {{\\url{{{url}}}}},\n"));
    }
    s.push_str(&format!(
        "  note         = {{Data version {}; source {} {}; retrieved {}}}\n}}",
        bib_escape(&m.data_version),
        bib_escape(&m.source.name),
        bib_escape(&m.source.version),
        bib_escape(&m.source.retrieved)
    ));
    s
}

fn bib_escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for ch in s.chars() {
        match ch {
            '{' | '}' | '%' | '&' | '$' | '#' | '_' => {
                out.push('\\');
                out.push(ch);
            }
            '\\' => out.push_str("\\textbackslash{}"),
            '~' => out.push_str("\\textasciitilde{}"),
            '^' => out.push_str("\\textasciicircum{}"),
            _ => out.push(ch),
        }
    }
    out
}
