//! Downloads: CSV files, the input JSON as published, the data dictionary,
//! the `/data/` page and the per-model badge.
//!
//! Each kind of measurement has its own CSV files with its own columns:
//! `leaderboard.csv` and `configurations.csv` for the per-token workloads,
//! `leaderboard-image.csv` and `configurations-image.csv` for text to image,
//! `leaderboard-video.csv` and `configurations-video.csv` for text to video.
//! Energy per token and energy per image never share a column.

use std::collections::BTreeSet;

use super::views::SOURCE_KEY;
use anyhow::{Context, Result};
use askama::Template;

use super::site_pages::Paging;
use super::{Mirror, ModelOutput, PageMeta, RenderCounts, Site, kind, put_page};
use crate::columns::{Column, Record, Value, Words};
use crate::fmt;
use crate::load::LoadedModel;
use crate::model::{Measure, ModelFile, OutputKind};
use crate::write::PageSink;

/// The site-wide CSV files of one kind of measurement.
#[derive(Debug, Clone, Copy)]
struct CsvFiles {
    measure: Measure,
    /// Every workload's best rows, ranked.
    leaderboard: &'static str,
    configurations: &'static str,
    /// The kind's workloads in words, e.g. "text-to-image".
    what: &'static str,
}

/// The CSV files of each kind, in the order the downloads page lists them.
const CSV_FILES: [CsvFiles; 3] = [
    CsvFiles {
        measure: Measure::Tokens,
        leaderboard: "leaderboard.csv",
        configurations: "configurations.csv",
        what: "per-token",
    },
    CsvFiles {
        measure: Measure::Diffusion(OutputKind::Image),
        leaderboard: "leaderboard-image.csv",
        configurations: "configurations-image.csv",
        what: "text-to-image",
    },
    CsvFiles {
        measure: Measure::Diffusion(OutputKind::Video),
        leaderboard: "leaderboard-video.csv",
        configurations: "configurations-video.csv",
        what: "text-to-video",
    },
];

/// Writes a CSV file: the header of `columns`, then one record per
/// configuration, each read by the same columns; with `source` (a site of
/// two sources or more), a last column `source` names whose measurement
/// each row is (last, so every other column keeps its place).
fn write_csv<'r>(
    out: &mut dyn std::io::Write,
    columns: &[&Column],
    records: impl Iterator<Item = Record<'r>>,
    source: bool,
) -> Result<()> {
    let mut w = csv::WriterBuilder::new()
        .terminator(csv::Terminator::CRLF)
        .from_writer(out);
    let extra = source.then(|| SOURCE_KEY.to_owned());
    w.write_record(columns.iter().map(|c| c.csv_header()).chain(extra))?;
    for record in records {
        // Every cell, the source's name too, is made safe by `Value::csv`.
        let whose = source.then(|| Value::Text(record.model.source.name.as_str().into()));
        let cells = columns.iter().map(|c| c.value(&record)).chain(whose);
        w.write_record(cells.map(|value| value.csv()))?;
    }
    w.flush().context("finishing CSV")?;
    Ok(())
}

/// A model file with the id of the workload it is on.
#[derive(Clone, Copy)]
pub struct OnWorkload<'a> {
    pub workload: &'a str,
    pub model: &'a ModelFile,
}

fn configuration_records<'a>(
    models: &'a [OnWorkload<'a>],
) -> impl Iterator<Item = Record<'a>> + 'a {
    models.iter().flat_map(|&OnWorkload { workload, model }| {
        model.configurations.iter().map(move |config| Record {
            workload,
            model,
            config,
            rank: None,
        })
    })
}

/// `leaderboard.csv` (or the diffusion kinds' `leaderboard-image.csv`,
/// `leaderboard-video.csv`): each workload's best rows, ranked within the
/// workload (`rank` restarts at 1 for each workload).
pub fn leaderboard_csv(measure: Measure, sites: &[&Site<'_>], source: bool) -> Result<Vec<u8>> {
    let columns: Vec<&Column> = csv_columns(measure).collect();
    let records = sites.iter().flat_map(|w| {
        w.leaderboard.iter().enumerate().map(move |(i, r)| {
            let model = &w.models[r.model].file;
            Record {
                workload: &w.workload.id,
                model,
                config: &model.configurations[r.config],
                rank: Some(i + 1),
            }
        })
    });
    let mut buf = Vec::new();
    write_csv(&mut buf, &columns, records, source)?;
    Ok(buf)
}

/// `configurations.csv` (or one model's CSV): every configuration, each
/// model with its workload id. Every file must measure `measure`.
pub fn configurations_csv(
    measure: Measure,
    models: &[OnWorkload<'_>],
    source: bool,
) -> Result<Vec<u8>> {
    let mut buf = Vec::new();
    write_csv(
        &mut buf,
        &kind::tables(measure).csv,
        configuration_records(models),
        source,
    )?;
    Ok(buf)
}

/// Where one (model, workload) data file is published, from the site root:
/// `data/<workload>/<slug>.<ext>`.
pub fn model_file_path(site: &Site<'_>, m: &ModelFile, ext: &str) -> String {
    format!("data/{}/{}.{ext}", site.workload.id, &m.slug)
}

/// The columns of the CSV files of `measure`, `rank` first.
fn csv_columns(measure: Measure) -> impl Iterator<Item = &'static Column> {
    let tables = kind::tables(measure);
    std::iter::once(tables.rank).chain(tables.csv)
}

impl CsvFiles {
    fn tokens(&self) -> bool {
        self.measure == Measure::Tokens
    }

    fn columns(&self) -> impl Iterator<Item = &'static Column> {
        csv_columns(self.measure)
    }

    fn words(&self) -> &'static Words {
        Words::of(self.measure)
    }
}

/// `data/data-dictionary.md`: the columns of the site's kinds, `kinds` (in
/// [`CSV_FILES`] order), and its workloads.
#[derive(Template)]
#[template(path = "data-dictionary.md")]
struct Dictionary<'a> {
    kinds: &'a [CsvFiles],
    workloads: &'a [Site<'a>],
    /// Whether every workload is per token (the deadline is a median ITL).
    only_tokens: bool,
}

impl Dictionary<'_> {
    /// `text` in a Markdown table's cell.
    fn md_cell(text: &str) -> String {
        text.replace('|', "\\|")
    }
}

/// One downloadable file as the `/data/` page lists it.
#[derive(Debug, Clone)]
pub struct FileEntry {
    href: String,
    size: String,
    what: String,
}

impl FileEntry {
    fn new(href: impl Into<String>, bytes: usize, what: String) -> Self {
        Self {
            href: href.into(),
            size: size(bytes),
            what,
        }
    }
}

#[derive(Template)]
#[template(path = "data.html")]
struct DataPage<'a> {
    meta: PageMeta,
    site_files: Vec<FileEntry>,
    model_files: Vec<WorkloadFiles>,
    /// The kinds whose columns the data dictionary lists.
    kinds: Vec<CsvFiles>,
    workloads: &'a [Site<'a>],
}

/// Most models whose files one page lists. A site of at most this many
/// models lists them all on the downloads page, as it always did; past it
/// each workload's are listed on pages of their own, this many models to a
/// page (`data/<workload>/index.html`, `page-2.html`, …), each complete
/// without JavaScript, so that no page grows with the site: at 500 models
/// a page is about 250 KB.
pub const LISTED_MODELS: usize = 500;

/// One workload's per-model files as the downloads page shows them: the
/// files themselves, or a link to the pages that list them.
struct WorkloadFiles {
    name: String,
    files: Vec<FileEntry>,
    listing: Option<Listing>,
}

/// Where a workload's per-model files are listed, when not on the
/// downloads page.
struct Listing {
    /// The first page, from `data/`.
    href: String,
    models: String,
    pages: usize,
}

/// `data/<workload>/index.html`, `page-2.html`, …: one page of a
/// workload's per-model files.
#[derive(Template)]
#[template(path = "data_models.html")]
struct ModelFilesPage<'a> {
    meta: PageMeta,
    workload: &'a str,
    files: Vec<FileEntry>,
    paging: Option<Paging>,
}

/// What publishing one model's files gave that its listing needs: the
/// size of its CSV file (its JSON file is the input file, whose size the
/// load recorded).
#[derive(Debug, Clone, Copy)]
pub struct Published {
    csv_bytes: usize,
}

fn size(bytes: usize) -> String {
    match bytes {
        0..1000 => format!("{bytes} B"),
        1000..1_000_000 => format!("{} kB", fmt::fixed(bytes as f64 / 1000.0, 1)),
        _ => format!("{} MB", fmt::fixed(bytes as f64 / 1e6, 1)),
    }
}

/// Writes the two CSV files of the workloads of one kind, `sites`, and
/// lists them in `list`; returns the number of configurations.
fn kind_files(
    files: CsvFiles,
    sites: &[&Site<'_>],
    mixed: bool,
    sink: &dyn PageSink,
    list: &mut Vec<FileEntry>,
) -> Result<usize> {
    let models: Vec<OnWorkload<'_>> = sites
        .iter()
        .flat_map(|w| {
            w.models.iter().map(|m| OnWorkload {
                workload: w.workload.id.as_str(),
                model: &m.file,
            })
        })
        .collect();
    let leaderboard_rows: usize = sites.iter().map(|w| w.leaderboard.len()).sum();
    let sources = sites
        .iter()
        .flat_map(|w| w.info.sources.iter().map(|s| s.key.as_str()));
    let source = sources.collect::<BTreeSet<_>>().len() > 1;
    let lb = leaderboard_csv(files.measure, sites, source)?;
    sink.put(&format!("data/{}", files.leaderboard), &lb)?;
    // With two kinds of workload or more, each kind's files say which they are.
    let (whose, of_what) = if mixed {
        (
            format!("The {} workloads' leaderboards", files.what),
            format!("on every {} workload", files.what),
        )
    } else {
        (
            "Every workload's leaderboard".to_owned(),
            "on every workload".to_owned(),
        )
    };
    list.push(FileEntry::new(
        files.leaderboard,
        lb.len(),
        format!(
            "{whose}: each model's best configuration per GPU ({leaderboard_rows} rows), ranked \
                by {} within its workload, with the derived columns.",
            files.words().energy_long
        ),
    ));
    let columns = &kind::tables(files.measure).csv;
    let path = format!("data/{}", files.configurations);
    // Streamed: at 10,000 models this file is over 100 MB.
    let all = sink.put_streamed(&path, &mut |out| {
        write_csv(out, columns, configuration_records(&models), source)
    })?;
    let n: usize = models.iter().map(|m| m.model.configurations.len()).sum();
    list.push(FileEntry::new(
        files.configurations,
        all as usize,
        format!(
            "Every configuration of every model {of_what} ({n} rows), with the derived columns."
        ),
    ));
    Ok(n)
}

/// Writes the downloads and the `/data/` page. `models` is what rendering
/// each model gave, in [`Mirror::model_ids`] order.
pub fn render_downloads(
    site: &Mirror<'_>,
    site_files: SiteFiles,
    models: &[ModelOutput],
    sink: &dyn PageSink,
) -> Result<RenderCounts> {
    let (model_files, listed) = workload_files(site, models, sink)?;
    let path = "data/index.html";
    let description = format!(
        "Download every workload's leaderboard and all {} measured configurations as CSV, each \
            model's data file per workload as JSON, and the data dictionary.",
        site_files.configurations
    );
    let meta = site.meta(path, "Downloads", description, "data");
    let workloads = &site.workloads;
    let page = DataPage {
        meta,
        site_files: site_files.entries,
        model_files,
        kinds: site_files.kinds,
        workloads,
    };
    put_page(sink, path, &page)?;
    Ok(RenderCounts::ONE_PAGE + listed)
}

/// The site-wide downloads, written ([`write_site_wide_files`]): what the
/// downloads page lists of them. They need no model's pages, so they are
/// written while those are.
pub struct SiteFiles {
    /// The kinds of measurement the site has, each with its CSV files.
    kinds: Vec<CsvFiles>,
    /// Each file as the page lists it.
    entries: Vec<FileEntry>,
    /// How many configurations the CSV files hold.
    configurations: usize,
}

/// Writes the site-wide downloads: each kind's CSV files, the change
/// histories and the data dictionary.
pub fn write_site_wide_files(site: &Mirror<'_>, sink: &dyn PageSink) -> Result<SiteFiles> {
    let kinds: Vec<CsvFiles> = CSV_FILES
        .into_iter()
        .filter(|f| site.has(|m| m == f.measure))
        .collect();
    let (entries, configurations) = site_wide_files(site, &kinds, sink)?;
    Ok(SiteFiles {
        kinds,
        entries,
        configurations,
    })
}

/// Writes the site-wide files (each kind's CSV files, the change
/// histories, the data dictionary) and lists them; returns the list and
/// the number of configurations.
fn site_wide_files(
    site: &Mirror<'_>,
    kinds: &[CsvFiles],
    sink: &dyn PageSink,
) -> Result<(Vec<FileEntry>, usize)> {
    let mut site_files = Vec::new();
    let mut n = 0;
    for files in kinds {
        let sites: Vec<&Site<'_>> = site
            .workloads
            .iter()
            .filter(|w| w.workload.measure == files.measure)
            .collect();
        n += kind_files(*files, &sites, kinds.len() > 1, sink, &mut site_files)?;
    }
    history_files(site, sink, &mut site_files)?;
    let only_tokens = matches!(kinds, [f] if f.tokens());
    let dictionary = Dictionary {
        kinds,
        workloads: &site.workloads,
        only_tokens,
    };
    let dictionary = dictionary
        .render()
        .context("rendering the data dictionary")?;
    sink.put("data/data-dictionary.md", dictionary.as_bytes())?;
    site_files.push(FileEntry::new(
        "data-dictionary.md",
        dictionary.len(),
        "The data dictionary: each column's unit, definition, and whether it is measured or \
            derived (the same as the table below)."
            .into(),
    ));
    Ok((site_files, n))
}

/// Copies the leaderboard's change history, then each other source's, as
/// published, and lists them in `list`.
fn history_files(site: &Mirror<'_>, sink: &dyn PageSink, list: &mut Vec<FileEntry>) -> Result<()> {
    for super::changes::Published {
        source: id,
        file: path,
        changes,
    } in super::changes::histories(site)
    {
        sink.copy_file(&path, &changes.path, changes.len, changes.digest)?;
        let n = changes.history.entries.len();
        let s = if n == 1 { "" } else { "s" };
        let what = match id {
            None => format!(
                "The change history as published, byte for byte: {n} recorded import{s} of the \
                    leaderboard's data, oldest first, each with the models and configurations \
                    added or removed and every best figure before and after (shown on the \
                    change log page)."
            ),
            Some(id) => format!(
                "The change history of the source {id} as published, byte for byte: {n} recorded \
                    import{s} of its data, in the same format (shown on the change log page, \
                    each import marked with its source)."
            ),
        };
        let href = path.trim_start_matches("data/");
        list.push(FileEntry::new(href, changes.len as usize, what));
    }
    Ok(())
}

/// Each workload's per-model files as the downloads page shows them, in
/// workload order: listed there on a site of at most [`LISTED_MODELS`]
/// models, else on each workload's pages, written here (their count
/// returned).
fn workload_files(
    site: &Mirror<'_>,
    models: &[ModelOutput],
    sink: &dyn PageSink,
) -> Result<(Vec<WorkloadFiles>, RenderCounts)> {
    let inline = models.len() <= LISTED_MODELS;
    let mut rest = models;
    let mut out = Vec::new();
    let mut counts = RenderCounts::default();
    for w in &site.workloads {
        let (mine, after) = rest.split_at(w.models.len().min(rest.len()));
        rest = after;
        let name = w.workload.name.clone();
        if inline {
            let files = w.models.iter().zip(mine);
            let files = files.flat_map(|(lm, o)| model_entries(w, lm, o.files, "data/"));
            out.push(WorkloadFiles {
                name,
                files: files.collect(),
                listing: None,
            });
            continue;
        }
        let pages = render_model_files(site, w, mine, sink)?;
        counts = counts + RenderCounts { pages, charts: 0 };
        let listing = Listing {
            href: format!("{}/index.html", w.workload.id),
            models: fmt::grouped(w.models.len() as f64),
            pages,
        };
        out.push(WorkloadFiles {
            name,
            files: Vec::new(),
            listing: Some(listing),
        });
    }
    Ok((out, counts))
}

/// Writes the pages of the workload `w`'s per-model files,
/// [`LISTED_MODELS`] models to a page, `published` the models' in order;
/// returns how many.
fn render_model_files(
    site: &Mirror<'_>,
    w: &Site<'_>,
    published: &[ModelOutput],
    sink: &dyn PageSink,
) -> Result<usize> {
    let dir = format!("data/{}/", w.workload.id);
    let total = w.models.len().min(published.len());
    let count = total.div_ceil(LISTED_MODELS).max(1);
    for number in 1..=count {
        let range = (number - 1) * LISTED_MODELS..(number * LISTED_MODELS).min(total);
        let models = w.models[range.clone()].iter().zip(&published[range]);
        let files = models.flat_map(|(lm, o)| model_entries(w, lm, o.files, &dir));
        let paging = (count > 1).then(|| Paging::of_files(number, count, LISTED_MODELS, total));
        let path = format!("{dir}{}", super::leaderboard_page_file(number));
        let title = format!("Downloads: {}", w.workload.name);
        let description = format!(
            "Each model's input data file and CSV file on the {} workload.",
            w.workload.name
        );
        let mut meta = site.meta(&path, &title, description, "data");
        if paging.is_some() {
            meta.head_style
                .push_str(include_str!("../../templates/pages_nav.css"));
        }
        let page = ModelFilesPage {
            meta,
            workload: &w.workload.name,
            files: files.collect(),
            paging,
        };
        put_page(sink, &path, &page)?;
    }
    Ok(count)
}

/// One (model, workload)'s two files as a listing shows them, their
/// addresses from the folder `dir` (`data/` or the workload's).
fn model_entries(
    site: &Site<'_>,
    lm: &LoadedModel,
    published: Published,
    dir: &str,
) -> [FileEntry; 2] {
    let m = &lm.file;
    let n = m.configurations.len();
    let of = format!("{} on {}", m.name, site.workload.name);
    let files = [
        (
            "json",
            lm.len as usize,
            "the input data file as published, byte for byte.".to_owned(),
        ),
        (
            "csv",
            published.csv_bytes,
            format!("its {n} configurations as CSV, with the derived columns."),
        ),
    ];
    files.map(|(ext, bytes, what)| {
        let path = model_file_path(site, m, ext);
        let href = path.strip_prefix(dir).unwrap_or(&path);
        FileEntry::new(href, bytes, format!("{of}: {what}"))
    })
}

/// Publishes one (model, workload)'s files under `data/<workload>/`: its
/// input JSON, unchanged, and a CSV of its configurations. The legacy
/// workload's files are also written at `data/<slug>.json` and `.csv`, their
/// addresses before the site had workloads.
pub fn publish_model_files(
    site: &Site<'_>,
    lm: &LoadedModel,
    sink: &dyn PageSink,
) -> Result<Published> {
    let m = &lm.file;
    let json = model_file_path(site, m, "json");
    sink.copy_file(&json, &lm.path, lm.len, lm.digest)?;
    let csv_path = model_file_path(site, m, "csv");
    let csv = configurations_csv(
        site.workload.measure,
        &[OnWorkload {
            workload: &site.workload.id,
            model: m,
        }],
        site.info.sources.len() > 1,
    )?;
    sink.put(&csv_path, &csv)?;
    if site.legacy() {
        sink.copy_file(
            &format!("data/{}.json", &m.slug),
            &lm.path,
            lm.len,
            lm.digest,
        )?;
        sink.put(&format!("data/{}.csv", &m.slug), &csv)?;
    }
    Ok(Published {
        csv_bytes: csv.len(),
    })
}

/// Approximate width of `text` at 11 px Verdana-like type.
fn text_width(text: &str) -> u32 {
    let units: f64 = text
        .chars()
        .map(|c| match c {
            'i' | 'l' | '.' | ',' | ':' | ';' | '\'' | '|' | '!' => 3.5,
            ' ' | 'f' | 'j' | 't' | 'r' | '(' | ')' | '·' | '/' => 4.5,
            'm' | 'w' | 'M' | 'W' => 10.0,
            c if c.is_ascii_uppercase() || c.is_ascii_digit() => 7.5,
            _ => 6.6,
        })
        .sum();
    units.ceil() as u32
}

/// The badge as `templates/badge.svg` draws it.
#[derive(Template)]
#[template(path = "badge.svg")]
struct Badge<'a> {
    left: &'a str,
    right: &'a str,
    what: &'a str,
    /// Widths: its left part, its right part.
    lw: u32,
    rw: u32,
}

/// A small badge: "Qwen 3 32B · 39.05 Wh/M tok · B200". `right` is the
/// best figure (`None`: nothing meets the deadline); `what` names it in the
/// description, e.g. "GPU energy per million output tokens".
pub fn badge_svg(name: &str, right: Option<&str>, what: &str) -> Result<String> {
    let right = right.unwrap_or("no configuration within deadline");
    let lw = text_width(name) + 12;
    let rw = text_width(right) + 12;
    Badge {
        left: name,
        right,
        what,
        lw,
        rw,
    }
    .render()
    .with_context(|| format!("rendering the badge of {name}"))
}
