//! The pages that span workloads: the front page, one overview per model,
//! one hub per GPU and the comparison hub. The last three sit at the
//! addresses the site used before it had workloads, and send a `#fragment`
//! they do not have to the page of [`crate::workload::LEGACY_WORKLOAD`]
//! that held it then.

use anyhow::Result;
use askama::Template;

use super::views::{ChartView, chart_view};
use super::{
    Mirror, PageMeta, RenderCounts, Site, config_summary, gpu_segment, model_dir, put_page,
};
use crate::analyse::LeaderboardRow;
use crate::chart::{self, GroupedBar};
use crate::fmt;
use crate::model::{Configuration, ModelFile, row_anchor};
use crate::write::PageSink;

/// One workload's headline on the front page.
struct WorkloadCard {
    name: String,
    href: String,
    description: String,
    deadline: String,
    models: usize,
    /// Per GPU: (GPU, model, model page link, figure, setup).
    best: Vec<(String, String, String, String, String)>,
}

#[derive(Template)]
#[template(path = "front.html")]
struct FrontPage {
    meta: PageMeta,
    cards: Vec<WorkloadCard>,
    chart: Option<ChartView>,
    caveat: String,
    source_name: String,
    source_url: String,
    publisher: String,
    data_versions: String,
    retrieved: String,
    licence: String,
    model_count: usize,
    models: Vec<ModelLinks>,
}

/// One model on the front page: its name, its overview and its page on
/// each workload (workload name, link).
struct ModelLinks {
    name: String,
    href: String,
    pages: Vec<(String, String)>,
}

/// The leaderboard's first row on `gpu`: the workload's lowest-energy model
/// there.
fn best_on<'s>(site: &'s Site<'_>, gpu: &str) -> Option<(&'s ModelFile, &'s Configuration)> {
    site.leaderboard.iter().find_map(|r: &LeaderboardRow| {
        let m = &site.models[r.model].file;
        let c = &m.configurations[r.config];
        (c.gpu == gpu).then_some((m, c))
    })
}

/// A model's best configuration over every GPU of one workload.
fn best_overall<'s>(site: &'s Site<'_>, i: usize) -> Option<&'s Configuration> {
    site.analyses[i]
        .best_overall
        .map(|c| &site.models[i].file.configurations[c])
}

/// The link from the site root to a configuration's row.
fn row_link(site: &Site<'_>, m: &ModelFile, c: &Configuration) -> String {
    format!(
        "{}{}index.html#{}",
        site.prefix,
        model_dir(&m.slug),
        row_anchor(&m.slug, &c.row_id)
    )
}

pub(super) fn render_front(site: &Mirror<'_>, sink: &dyn PageSink) -> Result<RenderCounts> {
    let path = "index.html";
    let cards: Vec<WorkloadCard> = site
        .workloads
        .iter()
        .map(|w| WorkloadCard {
            name: w.workload.name.clone(),
            href: w.path("index.html"),
            description: w.workload.description.clone().unwrap_or_default(),
            deadline: w.deadline(),
            models: w.models.len(),
            best: w
                .gpus
                .iter()
                .filter_map(|g| {
                    let (m, c) = best_on(w, g)?;
                    Some((
                        g.clone(),
                        m.name.clone(),
                        row_link(w, m, c),
                        format!(
                            "{} Wh/M tok",
                            fmt::wh_per_million(c.wh_per_million_output_tokens)
                        ),
                        config_summary(c),
                    ))
                })
                .collect(),
        })
        .collect();
    // Energy per response of every model measured on several workloads, at
    // its lowest-energy configuration on each.
    let mut bars = Vec::new();
    for at in site.slugs.values().filter(|at| at.len() > 1) {
        for &(w, i) in at {
            let ws = &site.workloads[w];
            if let Some(c) = best_overall(ws, i) {
                bars.push(GroupedBar {
                    label: format!(
                        "{} · {} · {}",
                        ws.models[i].file.name, ws.workload.name, c.gpu
                    ),
                    series: ws.workload.name.clone(),
                    slot: w,
                    value: c.joules_per_response(),
                });
            }
        }
    }
    let chart = if bars.is_empty() {
        None
    } else {
        let c = chart::grouped_bars(
            "energy-per-response.svg",
            "Energy per response across workloads",
            "Energy per response (J)",
            "Energy per response (joules per output token × mean output tokens) of each model measured on more than one workload, at its lowest-energy configuration within the workload's deadline on any GPU; one bar per model and workload, grouped by model.",
            &bars,
            fmt::joules_per_response,
        );
        sink.put(&c.file_name, c.svg.as_bytes())?;
        Some(chart_view(&c))
    };
    let names: Vec<&str> = site
        .workloads
        .iter()
        .map(|w| w.workload.name.as_str())
        .collect();
    let description = format!(
        "Measured GPU energy of AI inference on {} workload{} ({}): the lowest-energy model per GPU within each workload's latency deadline, for {} models.",
        site.workloads.len(),
        if site.workloads.len() == 1 { "" } else { "s" },
        names.join(", "),
        site.slugs.len()
    );
    let mut meta = site.meta(path, "", description, "home");
    meta.forward = site.legacy().map(|l| l.path("index.html"));
    let page = FrontPage {
        meta,
        cards,
        chart,
        caveat: site.info.caveat.clone(),
        source_name: site.info.source_name.clone(),
        source_url: site.info.source_url.clone(),
        publisher: site.info.publisher.clone(),
        data_versions: site.info.data_versions.clone(),
        retrieved: site.info.retrieved.clone(),
        licence: site.info.licence.clone(),
        model_count: site.slugs.len(),
        models: site
            .slugs
            .iter()
            .map(|(slug, at)| {
                let (w0, i0) = at[0];
                let name = site.workloads[w0].models[i0].file.name.clone();
                let pages = at
                    .iter()
                    .map(|&(w, _)| {
                        let ws = &site.workloads[w];
                        (
                            ws.workload.name.clone(),
                            ws.path(&format!("{}index.html", model_dir(slug))),
                        )
                    })
                    .collect();
                ModelLinks {
                    name,
                    href: format!("{}index.html", model_dir(slug)),
                    pages,
                }
            })
            .collect(),
    };
    put_page(sink, path, &page)?;
    Ok(RenderCounts {
        pages: 1,
        charts: usize::from(page.chart.is_some()),
    })
}

/// One row of a model overview: the model's best on one GPU of one
/// workload.
struct OverviewRow {
    workload: String,
    workload_href: String,
    gpu: String,
    found: bool,
    wh_per_million: String,
    joules_per_response: String,
    output_tokens: String,
    median_itl: String,
    setup: String,
    row_href: String,
    deadline: String,
}

#[derive(Template)]
#[template(path = "overview.html")]
struct OverviewPage {
    meta: PageMeta,
    name: String,
    facts: Vec<(String, String)>,
    workloads: Vec<(String, String)>,
    rows: Vec<OverviewRow>,
    chart: Option<ChartView>,
}

pub(super) fn render_model_overviews(
    site: &Mirror<'_>,
    sink: &dyn PageSink,
) -> Result<RenderCounts> {
    let mut counts = RenderCounts::default();
    for (slug, at) in &site.slugs {
        let dir = model_dir(slug);
        let path = format!("{dir}index.html");
        let (w0, i0) = at[0];
        let first = &site.workloads[w0].models[i0].file;
        let mut rows = Vec::new();
        let mut bars = Vec::new();
        let mut workloads = Vec::new();
        for &(w, i) in at {
            let ws = &site.workloads[w];
            let m = &ws.models[i].file;
            let a = &ws.analyses[i];
            workloads.push((
                ws.workload.name.clone(),
                format!("../../{}{dir}index.html", ws.prefix),
            ));
            for (gpu, best) in &a.best_per_gpu {
                let c = best.map(|b| &m.configurations[b]);
                rows.push(OverviewRow {
                    workload: ws.workload.name.clone(),
                    workload_href: format!("../../{}", ws.path("index.html")),
                    gpu: gpu.clone(),
                    found: c.is_some(),
                    wh_per_million: c.map_or_else(String::new, |c| {
                        fmt::wh_per_million(c.wh_per_million_output_tokens)
                    }),
                    joules_per_response: c.map_or_else(String::new, |c| {
                        fmt::joules_per_response(c.joules_per_response())
                    }),
                    output_tokens: c
                        .map_or_else(String::new, |c| fmt::grouped(c.avg_output_tokens)),
                    median_itl: c.map_or_else(String::new, |c| fmt::ms(c.median_itl_ms)),
                    setup: c.map_or_else(String::new, config_summary),
                    row_href: match c {
                        Some(c) => format!("../../{}", row_link(ws, m, c)),
                        None => format!("../../{}{dir}index.html#configurations", ws.prefix),
                    },
                    deadline: ws.deadline(),
                });
                if let Some(c) = c {
                    bars.push(GroupedBar {
                        label: format!("{} · {gpu}", ws.workload.name),
                        series: ws.workload.name.clone(),
                        slot: w,
                        value: c.joules_per_response(),
                    });
                }
            }
        }
        // A chart compares workloads: with one, the table says it all.
        let chart = if at.len() < 2 || bars.is_empty() {
            None
        } else {
            let c = chart::grouped_bars(
                "workloads.svg",
                &format!("{}: energy per response by workload", first.name),
                "Energy per response (J)",
                &format!(
                    "Energy per response (joules per output token × mean output tokens) of {} at its lowest-energy configuration per GPU within each workload's deadline; one bar per workload and GPU.",
                    first.name
                ),
                &bars,
                fmt::joules_per_response,
            );
            sink.put(&format!("{dir}{}", c.file_name), c.svg.as_bytes())?;
            counts.charts += 1;
            Some(chart_view(&c))
        };
        let headlines: Vec<String> = at
            .iter()
            .map(|&(w, i)| {
                let ws = &site.workloads[w];
                match best_overall(ws, i) {
                    Some(c) => format!(
                        "{}: {} Wh per million output tokens on {} ({} J per response)",
                        ws.workload.name,
                        fmt::wh_per_million(c.wh_per_million_output_tokens),
                        c.gpu,
                        fmt::joules_per_response(c.joules_per_response())
                    ),
                    None => format!("{}: none within {}", ws.workload.name, ws.deadline()),
                }
            })
            .collect();
        let description = format!(
            "{} on {} workload{}, lowest measured GPU energy: {}.",
            first.name,
            at.len(),
            if at.len() == 1 { "" } else { "s" },
            headlines.join("; ")
        );
        let mut meta = site.meta(&path, &first.name, description, "");
        // Old links to a row or a GPU card of this model meant the legacy
        // workload's page; a model without it has its first workload's.
        let target = at
            .iter()
            .find(|&&(w, _)| site.workloads[w].legacy)
            .unwrap_or(&at[0]);
        meta.forward = Some(site.workloads[target.0].path(&path));
        let facts = vec![
            ("Model ID".to_owned(), first.model_id.clone()),
            (
                "Parameters".to_owned(),
                format!(
                    "{} B total, {} B active",
                    fmt::params_b(first.params_b),
                    fmt::params_b(first.active_params_b)
                ),
            ),
            ("Architecture".to_owned(), first.architecture.clone()),
        ];
        let page = OverviewPage {
            meta,
            name: first.name.clone(),
            facts,
            workloads,
            rows,
            chart,
        };
        put_page(sink, &path, &page)?;
        counts.pages += 1;
    }
    Ok(counts)
}

/// A hub row: one workload's view of a GPU or of the comparison.
struct HubRow {
    workload: String,
    href: String,
    models: usize,
    best: String,
    best_href: String,
    figure: String,
}

#[derive(Template)]
#[template(path = "hub.html")]
struct HubPage {
    meta: PageMeta,
    heading: String,
    lede: String,
    link_label: String,
    rows: Vec<HubRow>,
}

pub(super) fn render_gpu_hubs(site: &Mirror<'_>, sink: &dyn PageSink) -> Result<RenderCounts> {
    let mut counts = RenderCounts::default();
    for gpu in &site.gpus {
        let dir = format!("gpus/{}/", gpu_segment(gpu));
        let path = format!("{dir}index.html");
        let rows: Vec<HubRow> = site
            .workloads
            .iter()
            .filter(|w| w.gpus.contains(gpu))
            .map(|w| {
                let n = w
                    .models
                    .iter()
                    .filter(|m| m.file.gpus.contains(gpu))
                    .count();
                let best = best_on(w, gpu);
                HubRow {
                    workload: w.workload.name.clone(),
                    href: format!("../../{}", w.path(&path)),
                    models: n,
                    best: best.map_or_else(
                        || format!("none within {}", w.deadline()),
                        |(m, _)| m.name.clone(),
                    ),
                    best_href: best
                        .map_or_else(String::new, |(m, c)| format!("../../{}", row_link(w, m, c))),
                    figure: best.map_or_else(String::new, |(_, c)| {
                        fmt::wh_per_million(c.wh_per_million_output_tokens)
                    }),
                }
            })
            .collect();
        let description = format!(
            "{gpu}: the lowest-energy model on each of {} workload{}, with links to each workload's {gpu} ranking.",
            rows.len(),
            if rows.len() == 1 { "" } else { "s" }
        );
        let mut meta = site.meta(&path, &format!("{gpu} GPU"), description, "");
        meta.forward = site
            .legacy()
            .filter(|l| l.gpus.contains(gpu))
            .map(|l| l.path(&path));
        let page = HubPage {
            meta,
            heading: gpu.clone(),
            lede: format!(
                "Models measured on {gpu}, per workload: the lowest GPU energy per output token within the workload's latency deadline. Each workload's page ranks every model on {gpu}."
            ),
            link_label: format!("{gpu} ranking"),
            rows,
        };
        put_page(sink, &path, &page)?;
        counts.pages += 1;
    }
    Ok(counts)
}

pub(super) fn render_compare_hub(site: &Mirror<'_>, sink: &dyn PageSink) -> Result<RenderCounts> {
    let path = "compare/index.html";
    let rows = site
        .workloads
        .iter()
        .map(|w| {
            let best = w.leaderboard.first().map(|r| {
                let m = &w.models[r.model].file;
                (m, &m.configurations[r.config])
            });
            HubRow {
                workload: w.workload.name.clone(),
                href: format!("../{}", w.path(path)),
                models: w.models.len(),
                best: best.map_or_else(
                    || format!("none within {}", w.deadline()),
                    |(m, c)| format!("{} on {}", m.name, c.gpu),
                ),
                best_href: best
                    .map_or_else(String::new, |(m, c)| format!("../{}", row_link(w, m, c))),
                figure: best.map_or_else(String::new, |(_, c)| {
                    fmt::wh_per_million(c.wh_per_million_output_tokens)
                }),
            }
        })
        .collect();
    let description = "Compare models within a workload: every model's best per GPU side by side and their time–energy frontiers, one comparison per workload.".to_owned();
    let mut meta = site.meta(path, "Compare models", description, "compare");
    meta.forward = site.legacy().map(|l| l.path(path));
    let page = HubPage {
        meta,
        heading: "Compare models".into(),
        lede: "Figures compare only within a workload: prompts, output lengths and deadlines differ between them. Choose a workload to see every model side by side with their time–energy frontiers.".into(),
        link_label: "comparison".into(),
        rows,
    };
    put_page(sink, path, &page)?;
    Ok(RenderCounts {
        pages: 1,
        charts: 0,
    })
}
