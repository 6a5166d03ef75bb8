//! The site-wide pages: the leaderboard, one page per GPU, the comparison,
//! about, 404, and the sitemap and robots files.

use anyhow::Result;
use askama::Template;

use super::views::{ChartView, Header, Row, TableView, chart_view, table_html_from_rows};
use super::{
    Mirror, PageMeta, RenderCounts, Site, SiteInfo, bar_entry, gpu_segment, gpu_setup, header,
    leaderboard_row, link, model_dir, num, put_page, text,
};
use crate::analyse::{LeaderboardRow, ModelAnalysis};
use crate::chart::{self, BarEntry};
use crate::columns::{COLUMNS, Column};
use crate::fmt;
use crate::load::Asset;
use crate::model::{ModelFile, row_anchor, url_segment};
use crate::workload::Workload;
use crate::write::PageSink;

// ---------------------------------------------------------------- leaderboard

#[derive(Template)]
#[template(path = "leaderboard.html")]
struct LeaderboardPage<'a> {
    meta: PageMeta,
    info: &'a SiteInfo,
    workload: &'a Workload,
    deadline: String,
    table: String,
    chart: Option<ChartView>,
    gpus: Vec<String>,
    archs: Vec<String>,
    model_count: usize,
    top: String,
}

/// Columns of the leaderboard, in order.
const LEADERBOARD_COLUMNS: [&str; 16] = [
    "model",
    "gpu",
    "num_gpus",
    "parallelism",
    "precision",
    "max_num_seqs",
    "wh_per_million_output_tokens",
    "joules_per_output_token",
    "wh_per_response",
    "median_itl_ms",
    "p99_itl_ms",
    "tokens_per_second",
    "gpu_power_watts",
    "params_billion",
    "active_params_billion",
    "architecture",
];

/// Columns of a GPU page: the leaderboard's, less the GPU and the model
/// facts.
const GPU_PAGE_COLUMNS: [&str; 12] = [
    "model",
    "num_gpus",
    "parallelism",
    "precision",
    "max_num_seqs",
    "wh_per_million_output_tokens",
    "joules_per_output_token",
    "wh_per_response",
    "median_itl_ms",
    "p99_itl_ms",
    "tokens_per_second",
    "gpu_power_watts",
];

pub(super) fn render_leaderboard(site: &Site<'_>, sink: &dyn PageSink) -> Result<RenderCounts> {
    let path = "index.html";
    let headline = site.leaderboard.first().map(|r| {
        let m = &site.models[r.model].file;
        let c = &m.configurations[r.config];
        format!(
            "{}: {} Wh per million output tokens on {}",
            m.name,
            fmt::wh_per_million(c.wh_per_million_output_tokens),
            c.gpu
        )
    });
    let description = format!(
        "{}: measured GPU energy of AI inference for {} models, the lowest-energy configuration per model and GPU with median inter-token latency within {}.{}",
        site.workload.name,
        site.models.len(),
        site.deadline(),
        headline
            .as_ref()
            .map(|h| format!(" Lowest: {h}."))
            .unwrap_or_default()
    );
    let mut meta = site.meta(path, "", description, "leaderboard");
    meta.script = true;
    let root = meta.root.clone();
    let headers: Vec<Header> = LEADERBOARD_COLUMNS
        .iter()
        .map(|k| header(k, &root))
        .collect();
    let table = TableView {
        id: "leaderboard".into(),
        caption: format!(
            "{}: best configuration per model and GPU, lowest Wh per million output tokens with median ITL within {}. Sorted by energy, lowest first.",
            site.workload.name,
            site.deadline()
        ),
        headers,
        groups: Vec::new(),
        sortable: true,
    };
    let table = table_html_from_rows(
        &table,
        site.leaderboard
            .iter()
            .map(|r| leaderboard_row(site, *r, &root, &LEADERBOARD_COLUMNS)),
    )?;
    let bars: Vec<BarEntry> = site
        .leaderboard
        .iter()
        .map(|r| bar_entry(site, *r))
        .collect();
    let chart = if bars.is_empty() {
        None
    } else {
        let c = chart::best_energy_bars(
            "best-energy.svg",
            &format!("Best energy per model and GPU, {}", site.workload.name),
            &bars,
        );
        sink.put(&site.path(&c.file_name), c.svg.as_bytes())?;
        if site.legacy {
            sink.put(&c.file_name, c.svg.as_bytes())?;
        }
        Some(chart_view(&c))
    };
    let mut archs: Vec<String> = site
        .models
        .iter()
        .map(|m| m.file.architecture.clone())
        .collect();
    archs.sort();
    archs.dedup();
    let page = LeaderboardPage {
        meta,
        info: &site.info,
        workload: &site.workload,
        deadline: site.deadline(),
        table,
        chart,
        gpus: site.gpus.clone(),
        archs,
        model_count: site.models.len(),
        top: headline.unwrap_or_default(),
    };
    put_page(sink, &site.path(path), &page)?;
    Ok(RenderCounts {
        pages: 1,
        charts: usize::from(page.chart.is_some()),
    })
}

// ---------------------------------------------------------------- GPU pages

#[derive(Template)]
#[template(path = "gpu.html")]
struct GpuPage {
    meta: PageMeta,
    gpu: String,
    table: String,
    chart: Option<ChartView>,
    count: usize,
    deadline: String,
    workload: String,
}

pub(super) fn render_gpu_pages(site: &Site<'_>, sink: &dyn PageSink) -> Result<RenderCounts> {
    let mut counts = RenderCounts::default();
    for gpu in &site.gpus {
        let dir = format!("gpus/{}/", gpu_segment(gpu));
        let path = format!("{dir}index.html");
        let rows: Vec<LeaderboardRow> = site
            .leaderboard
            .iter()
            .copied()
            .filter(|r| site.models[r.model].file.configurations[r.config].gpu == *gpu)
            .collect();
        let headline = rows.first().map(|r| {
            let m = &site.models[r.model].file;
            format!(
                " Lowest: {} at {} Wh per million output tokens.",
                m.name,
                fmt::wh_per_million(m.configurations[r.config].wh_per_million_output_tokens)
            )
        });
        let description = format!(
            "{}: {} models measured on {gpu}, ranked by their lowest GPU energy per output token with median ITL within {}.{}",
            site.workload.name,
            rows.len(),
            site.deadline(),
            headline.unwrap_or_default()
        );
        let meta = site.meta(&path, &format!("{gpu} GPU"), description, "");
        let root = meta.root.clone();
        let headers: Vec<Header> = GPU_PAGE_COLUMNS.iter().map(|k| header(k, &root)).collect();
        let table = TableView {
            id: "gpu-leaderboard".into(),
            caption: format!(
                "{}: models on {gpu}, each at its lowest-energy configuration with median ITL within {}, lowest first",
                site.workload.name,
                site.deadline()
            ),
            headers,
            groups: Vec::new(),
            sortable: false,
        };
        let table = table_html_from_rows(
            &table,
            rows.iter()
                .map(|r| leaderboard_row(site, *r, &root, &GPU_PAGE_COLUMNS)),
        )?;
        let bars: Vec<BarEntry> = rows.iter().map(|r| bar_entry(site, *r)).collect();
        let chart = if bars.is_empty() {
            None
        } else {
            let c = chart::best_energy_bars(
                "best-energy.svg",
                &format!("Best energy per model on {gpu}, {}", site.workload.name),
                &bars,
            );
            sink.put(
                &site.path(&format!("{dir}{}", c.file_name)),
                c.svg.as_bytes(),
            )?;
            if site.legacy {
                sink.put(&format!("{dir}{}", c.file_name), c.svg.as_bytes())?;
            }
            counts.charts += 1;
            Some(chart_view(&c))
        };
        let page = GpuPage {
            meta,
            gpu: gpu.clone(),
            table,
            chart,
            count: rows.len(),
            deadline: site.deadline(),
            workload: site.workload.name.clone(),
        };
        put_page(sink, &site.path(&path), &page)?;
        counts.pages += 1;
    }
    Ok(counts)
}

// ---------------------------------------------------------------- compare

#[derive(Template)]
#[template(path = "compare.html")]
struct ComparePage {
    meta: PageMeta,
    table: String,
    chart: Option<ChartView>,
    deadline: String,
    workload: String,
}

pub(super) fn render_compare(site: &Site<'_>, sink: &dyn PageSink) -> Result<RenderCounts> {
    let path = "compare/index.html";
    let description = format!(
        "{}: all {} models side by side, the lowest GPU energy per output token on each GPU with median ITL within {}, and every model's time–energy frontier.",
        site.workload.name,
        site.models.len(),
        site.deadline()
    );
    let meta = site.meta(path, "Compare models", description, "compare");
    let root = meta.root.clone();
    let mut headers = vec![
        header("model", &root),
        header("architecture", &root),
        header("params_billion", &root),
        header("active_params_billion", &root),
    ];
    for gpu in &site.gpus {
        headers.push(Header {
            label: format!("Best on {gpu}"),
            unit: "Wh/M tok".into(),
            href: Some(format!(
                "{root}about/index.html#col-wh_per_million_output_tokens"
            )),
            num: true,
            key: url_segment(gpu),
        });
        headers.push(Header {
            label: format!("{gpu} setup"),
            unit: String::new(),
            href: None,
            num: false,
            key: format!("{}-setup", url_segment(gpu)),
        });
    }
    let rows = site.models.iter().zip(&site.analyses).map(|(lm, a)| {
        let m = &lm.file;
        let dir = format!("{root}{}{}", site.prefix, model_dir(&m.slug));
        let mut name = link(m.name.clone(), format!("{dir}index.html"));
        name.header = true;
        let mut cells = vec![
            name,
            text(m.architecture.clone()),
            num(fmt::params_b(m.params_b), m.params_b),
            num(fmt::params_b(m.active_params_b), m.active_params_b),
        ];
        for gpu in &site.gpus {
            let best = a
                .best_per_gpu
                .iter()
                .find(|(g, _)| g == gpu)
                .and_then(|(_, b)| *b);
            match best {
                Some(i) => {
                    let c = &m.configurations[i];
                    let mut cell = num(
                        fmt::wh_per_million(c.wh_per_million_output_tokens),
                        c.wh_per_million_output_tokens,
                    );
                    cell.href = Some(format!(
                        "{dir}index.html#{}",
                        row_anchor(&m.slug, &c.row_id)
                    ));
                    cells.push(cell);
                    cells.push(text(format!(
                        "{}, {}, {} seqs",
                        gpu_setup(c),
                        c.precision,
                        c.max_num_seqs
                    )));
                }
                None => {
                    let reason = if m.gpus.contains(gpu) {
                        "none within deadline"
                    } else {
                        "not measured"
                    };
                    cells.push(text("—"));
                    cells.push(text(reason));
                }
            }
        }
        Row {
            cells,
            ..Row::default()
        }
    });
    let table = TableView {
        id: "compare".into(),
        caption: format!(
            "{}: each model's lowest Wh per million output tokens per GPU, median ITL within {}",
            site.workload.name,
            site.deadline()
        ),
        headers,
        groups: Vec::new(),
        sortable: false,
    };
    let table = table_html_from_rows(&table, rows)?;
    let pairs: Vec<(&ModelFile, &ModelAnalysis)> = site
        .models
        .iter()
        .map(|m| &m.file)
        .zip(&site.analyses)
        .collect();
    let chart = if pairs.is_empty() {
        None
    } else {
        let c = chart::compare_frontiers(&pairs);
        sink.put(
            &site.path(&format!("compare/{}", c.file_name)),
            c.svg.as_bytes(),
        )?;
        if site.legacy {
            sink.put(&format!("compare/{}", c.file_name), c.svg.as_bytes())?;
        }
        Some(chart_view(&c))
    };
    let page = ComparePage {
        meta,
        table,
        chart,
        deadline: site.deadline(),
        workload: site.workload.name.clone(),
    };
    put_page(sink, &site.path(path), &page)?;
    Ok(RenderCounts {
        pages: 1,
        charts: usize::from(page.chart.is_some()),
    })
}

// ---------------------------------------------------------------- about

#[derive(Template)]
#[template(path = "about.html")]
struct AboutPage<'a> {
    meta: PageMeta,
    info: &'a SiteInfo,
    columns: &'static [Column],
    ladder: String,
    workloads: Vec<AboutWorkload>,
}

/// One workload as the about page explains it.
struct AboutWorkload {
    id: String,
    name: String,
    description: String,
    deadline: String,
    models: usize,
    href: String,
    method: String,
    selection: String,
}

pub(super) fn render_about(site: &Mirror<'_>, sink: &dyn PageSink) -> Result<RenderCounts> {
    let path = "about/index.html";
    let description = "How the figures are measured and derived: what GPU energy covers and leaves out, every column's definition and unit, the selection rule, the source, its licence and how to cite it.".to_owned();
    let meta = site.meta(path, "About the data and method", description, "about");
    let ladder = crate::analyse::LATENCY_LADDER_MS
        .iter()
        .map(|l| format!("{} ms", fmt::limit_ms(*l)))
        .collect::<Vec<_>>()
        .join(", ");
    let workloads = site
        .workloads
        .iter()
        .map(|w| AboutWorkload {
            id: w.workload.id.clone(),
            name: w.workload.name.clone(),
            description: w.workload.description.clone().unwrap_or_default(),
            deadline: w.deadline(),
            models: w.models.len(),
            href: format!("../{}", w.path("index.html")),
            method: w.info.method.clone(),
            selection: w.info.selection.clone(),
        })
        .collect();
    let page = AboutPage {
        meta,
        info: &site.info,
        columns: COLUMNS,
        ladder,
        workloads,
    };
    put_page(sink, path, &page)?;
    Ok(RenderCounts {
        pages: 1,
        charts: 0,
    })
}

// ---------------------------------------------------------------- 404, SEO

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
    let mut meta = site.meta(
        "404.html",
        "Page not found",
        "This page does not exist on the energy leaderboard mirror. Start again from the leaderboard, a model page or the downloads.".to_owned(),
        "",
    );
    meta.canonical = None;
    // The workload tabs are on the front page the 404 links to.
    meta.tabs.clear();
    if let Some(base) = &site.base_url {
        meta.root.clone_from(base);
    }
    meta.inline_css = assets
        .iter()
        .find(|a| a.rel == "style.css")
        .map(|a| String::from_utf8_lossy(&a.bytes).into_owned());
    let page = NotFoundPage { meta };
    put_page(sink, "404.html", &page)?;
    Ok(RenderCounts {
        pages: 1,
        charts: 0,
    })
}

pub(super) fn render_seo_files(site: &Mirror<'_>, sink: &dyn PageSink) -> Result<()> {
    let Some(base) = &site.base_url else {
        sink.put("robots.txt", b"User-agent: *\nAllow: /\n")?;
        return Ok(());
    };
    let mut paths = vec![
        String::new(),
        "compare/".to_owned(),
        "about/".to_owned(),
        "data/".to_owned(),
    ];
    paths.extend(
        site.gpus
            .iter()
            .map(|g| format!("gpus/{}/", gpu_segment(g))),
    );
    paths.extend(site.slugs.keys().map(|slug| model_dir(slug)));
    for w in &site.workloads {
        paths.push(w.prefix.clone());
        paths.push(w.path("compare/"));
        paths.extend(
            w.gpus
                .iter()
                .map(|g| w.path(&format!("gpus/{}/", gpu_segment(g)))),
        );
        paths.extend(w.models.iter().map(|m| w.path(&model_dir(&m.file.slug))));
    }
    let mut xml = String::from(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n",
    );
    for p in &paths {
        xml.push_str(&format!(
            "  <url><loc>{}</loc></url>\n",
            fmt::xml_escape(&format!("{base}{p}"))
        ));
    }
    xml.push_str("</urlset>\n");
    sink.put("sitemap.xml", xml.as_bytes())?;
    sink.put(
        "robots.txt",
        format!("User-agent: *\nAllow: /\nSitemap: {base}sitemap.xml\n").as_bytes(),
    )?;
    Ok(())
}
