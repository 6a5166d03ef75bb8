//! Downloads: CSV files, the input JSON as published, the data dictionary,
//! the `/data/` page and the per-model badge.

use anyhow::{Context, Result};
use askama::Template;

use super::{Mirror, PageMeta, RenderCounts, Site, put_page};
use crate::analyse::LeaderboardRow;
use crate::columns::Column;
use crate::fmt;
use crate::load::LoadedModel;
use crate::model::{Configuration, ModelFile};
use crate::write::PageSink;

/// Columns of `configurations.csv` and of each model's CSV, in order.
const CSV_COLUMNS: [&str; 34] = [
    "workload",
    "model_slug",
    "model",
    "model_id",
    "params_billion",
    "active_params_billion",
    "architecture",
    "row_id",
    "gpu",
    "num_gpus",
    "tensor_parallel",
    "expert_parallel",
    "data_parallel",
    "precision",
    "max_num_seqs",
    "repeat",
    "wh_per_million_output_tokens",
    "joules_per_output_token",
    "wh_per_response",
    "joules_per_response",
    "tokens_per_wh",
    "median_itl_ms",
    "p90_itl_ms",
    "p95_itl_ms",
    "p99_itl_ms",
    "tokens_per_second",
    "gpu_power_watts",
    "avg_output_tokens",
    "avg_requests_in_flight",
    "avg_running_batch",
    "under_itl_deadline",
    "itl_deadline_ms",
    "data_version",
    "parallelism",
];

fn header_cell(key: &str) -> String {
    let c = crate::columns::column(key);
    if c.unit.is_empty() || c.unit == "#" {
        key.to_owned()
    } else {
        format!("{key} ({})", c.unit)
    }
}

/// Full precision, `.` as the decimal mark: Rust's shortest round-trip
/// form, in exponent form (`5e-324`) where that would take more than 16
/// digits, and `0` for negative zero. Validation keeps every figure finite.
fn raw(v: f64) -> String {
    let size = v.abs();
    if v == 0.0 {
        "0".to_owned()
    } else if (1e-6..1e16).contains(&size) {
        format!("{v}")
    } else {
        format!("{v:e}")
    }
}

/// A text cell that a spreadsheet cannot take for a formula: one starting
/// with `=`, `+`, `-`, `@`, a tab or a carriage return gets a leading `'`,
/// as OWASP's "CSV injection" page recommends.
fn text(value: &str) -> String {
    if value.starts_with(['=', '+', '-', '@', '\t', '\r']) {
        format!("'{value}")
    } else {
        value.to_owned()
    }
}

fn csv_record(workload: &str, m: &ModelFile, c: &Configuration) -> Vec<String> {
    vec![
        text(workload),
        text(&m.slug),
        text(&m.name),
        text(&m.model_id),
        raw(m.params_b),
        raw(m.active_params_b),
        text(&m.architecture),
        text(&c.row_id),
        text(&c.gpu),
        c.num_gpus.to_string(),
        c.tensor_parallel.to_string(),
        c.expert_parallel.to_string(),
        c.data_parallel.to_string(),
        text(&c.precision),
        c.max_num_seqs.to_string(),
        c.repeat.to_string(),
        raw(c.wh_per_million_output_tokens),
        raw(c.joules_per_output_token),
        raw(c.wh_per_response()),
        raw(c.joules_per_response()),
        raw(c.tokens_per_wh()),
        raw(c.median_itl_ms),
        raw(c.p90_itl_ms),
        raw(c.p95_itl_ms),
        raw(c.p99_itl_ms),
        raw(c.tokens_per_second),
        raw(c.gpu_power_watts_total),
        raw(c.avg_output_tokens),
        raw(c.avg_requests_in_flight),
        raw(c.avg_running_batch),
        c.under_itl_deadline.to_string(),
        raw(m.itl_deadline_ms),
        text(&m.data_version),
        text(&c.parallelism()),
    ]
}

fn write_csv(
    out: &mut dyn std::io::Write,
    leading: Option<&str>,
    rows: impl Iterator<Item = (Option<usize>, Vec<String>)>,
) -> Result<()> {
    let mut w = csv::WriterBuilder::new()
        .terminator(csv::Terminator::CRLF)
        .from_writer(out);
    let mut head: Vec<String> = leading.map(header_cell).into_iter().collect();
    head.extend(CSV_COLUMNS.iter().map(|k| header_cell(k)));
    w.write_record(&head)?;
    for (rank, record) in rows {
        let mut rec: Vec<String> = rank.map(|r| r.to_string()).into_iter().collect();
        rec.extend(record);
        w.write_record(&rec)?;
    }
    w.flush().context("finishing CSV")?;
    Ok(())
}

fn csv_bytes(
    leading: Option<&str>,
    rows: impl Iterator<Item = (Option<usize>, Vec<String>)>,
) -> Result<Vec<u8>> {
    let mut buf = Vec::new();
    write_csv(&mut buf, leading, rows)?;
    Ok(buf)
}

fn configuration_rows<'a>(
    models: &'a [(&'a str, &'a ModelFile)],
) -> impl Iterator<Item = (Option<usize>, Vec<String>)> + 'a {
    models.iter().flat_map(|(w, m)| {
        m.configurations
            .iter()
            .map(move |c| (None, csv_record(w, m, c)))
    })
}

/// `leaderboard.csv`: each workload's best rows, ranked within the
/// workload (`rank` restarts at 1 for each workload).
pub fn leaderboard_csv(parts: &[(&str, &[&ModelFile], &[LeaderboardRow])]) -> Result<Vec<u8>> {
    csv_bytes(
        Some("rank"),
        parts.iter().flat_map(|(w, models, rows)| {
            rows.iter().enumerate().map(move |(i, r)| {
                let m = models[r.model];
                (Some(i + 1), csv_record(w, m, &m.configurations[r.config]))
            })
        }),
    )
}

/// `configurations.csv` (or one model's CSV): every configuration, each
/// model with its workload id.
pub fn configurations_csv(models: &[(&str, &ModelFile)]) -> Result<Vec<u8>> {
    csv_bytes(None, configuration_rows(models))
}

/// Where one (model, workload) data file is published, from the site root:
/// `data/<workload>/<slug>.<ext>`.
pub fn model_file_path(site: &Site<'_>, m: &ModelFile, ext: &str) -> String {
    format!("data/{}/{}.{ext}", site.workload.id, m.slug)
}

fn data_dictionary(site: &Mirror<'_>) -> String {
    let mut s = String::from(
        "# energyboard data dictionary\n\nColumns of `leaderboard.csv`, `configurations.csv` and the per-model CSV files. \
         Figures compare only within one workload (column `workload`); `rank` in `leaderboard.csv` restarts at 1 for each workload. \
         CSV files use RFC 4180 quoting, CRLF line ends, `.` as the decimal mark and full precision; \
         headers carry the unit in parentheses. \"measured\" columns are copied from the source data, \
         \"configuration\" columns describe the setup, \"derived\" columns are computed by energyboard with the formula given. \
         Numbers too large or too small for 16 digits are written in exponent form (`5e-7`). \
         A text cell that begins with `=`, `+`, `-`, `@`, a tab or a carriage return is written with a \
         leading `'` so that spreadsheets do not run it as a formula (OWASP's advice on CSV injection); \
         remove that quote to get the value as published.\n\n\
         | column | unit | origin | definition |\n|---|---|---|---|\n",
    );
    for key in std::iter::once("rank").chain(CSV_COLUMNS) {
        let c = crate::columns::column(key);
        s.push_str(&format!(
            "| `{}` | {} | {} | {} |\n",
            c.key,
            if c.unit.is_empty() { "—" } else { c.unit },
            c.origin.word(),
            c.definition.replace('|', "\\|")
        ));
    }
    s.push_str("\n## Workloads\n\n| id | name | median ITL deadline | models | description |\n|---|---|---|---|---|\n");
    for w in &site.workloads {
        s.push_str(&format!(
            "| `{}` | {} | {} | {} | {} |\n",
            w.workload.id,
            w.workload.name.replace('|', "\\|"),
            w.deadline(),
            w.models.len(),
            w.workload
                .description
                .as_deref()
                .unwrap_or("—")
                .replace('|', "\\|")
        ));
    }
    s
}

/// One downloadable file as the `/data/` page lists it.
#[derive(Debug, Clone)]
pub struct FileEntry {
    href: String,
    name: String,
    size: String,
    what: String,
}

#[derive(Template)]
#[template(path = "data.html")]
struct DataPage {
    meta: PageMeta,
    site_files: Vec<FileEntry>,
    model_files: Vec<(String, Vec<FileEntry>)>,
    columns: Vec<&'static Column>,
    workloads: Vec<(String, String, String, usize)>,
}

fn size(bytes: usize) -> String {
    if bytes < 1000 {
        format!("{bytes} B")
    } else if bytes < 1_000_000 {
        format!("{} kB", fmt::fixed(bytes as f64 / 1000.0, 1))
    } else {
        format!("{} MB", fmt::fixed(bytes as f64 / 1e6, 1))
    }
}

/// Writes the downloads and the `/data/` page.
pub fn render_downloads(
    site: &Mirror<'_>,
    model_files: &[Vec<FileEntry>],
    sink: &dyn PageSink,
) -> Result<RenderCounts> {
    let files: Vec<(&str, &ModelFile)> = site
        .workloads
        .iter()
        .flat_map(|w| w.models.iter().map(|m| (w.workload.id.as_str(), &m.file)))
        .collect();
    let per_workload: Vec<Vec<&ModelFile>> = site
        .workloads
        .iter()
        .map(|w| w.models.iter().map(|m| &m.file).collect())
        .collect();
    let parts: Vec<(&str, &[&ModelFile], &[LeaderboardRow])> = site
        .workloads
        .iter()
        .zip(&per_workload)
        .map(|(w, files)| {
            (
                w.workload.id.as_str(),
                files.as_slice(),
                w.leaderboard.as_slice(),
            )
        })
        .collect();
    let leaderboard_rows: usize = site.workloads.iter().map(|w| w.leaderboard.len()).sum();
    let mut site_files = Vec::new();
    let put = |name: &str, bytes: &[u8], what: String, list: &mut Vec<FileEntry>| -> Result<()> {
        sink.put(&format!("data/{name}"), bytes)?;
        list.push(FileEntry {
            href: name.to_owned(),
            name: name.to_owned(),
            size: size(bytes.len()),
            what,
        });
        Ok(())
    };
    let lb = leaderboard_csv(&parts)?;
    put(
        "leaderboard.csv",
        &lb,
        format!(
            "Every workload's leaderboard: each model's best configuration per GPU ({leaderboard_rows} rows), ranked by Wh per million output tokens within its workload, with the derived columns.",
        ),
        &mut site_files,
    )?;
    // Streamed: at 10,000 models this file is over 100 MB.
    let all = sink.put_streamed("data/configurations.csv", &mut |out| {
        write_csv(out, None, configuration_rows(&files))
    })?;
    let n: usize = files.iter().map(|(_, m)| m.configurations.len()).sum();
    site_files.push(FileEntry {
        href: "configurations.csv".into(),
        name: "configurations.csv".into(),
        size: size(all as usize),
        what: format!(
            "Every configuration of every model on every workload ({n} rows), with the derived columns."
        ),
    });
    put(
        "data-dictionary.md",
        data_dictionary(site).as_bytes(),
        "The data dictionary: each column's unit, definition, and whether it is measured or derived (the same as the table below).".into(),
        &mut site_files,
    )?;
    // One list per workload, in the workloads' order (the render jobs ran
    // in that order too).
    let mut lists = model_files.iter();
    let model_files = site
        .workloads
        .iter()
        .map(|w| {
            let entries = lists
                .by_ref()
                .take(w.models.len())
                .flatten()
                .cloned()
                .collect();
            (w.workload.name.clone(), entries)
        })
        .collect();
    let workloads = site
        .workloads
        .iter()
        .map(|w| {
            (
                w.workload.id.clone(),
                w.workload.name.clone(),
                w.deadline(),
                w.models.len(),
            )
        })
        .collect();
    let path = "data/index.html";
    let description = format!(
        "Download every workload's leaderboard and all {n} measured configurations as CSV, each model's data file per workload as JSON, and the data dictionary."
    );
    let meta = site.meta(path, "Downloads", description, "data");
    let columns = std::iter::once("rank")
        .chain(CSV_COLUMNS)
        .map(crate::columns::column)
        .collect();
    let page = DataPage {
        meta,
        site_files,
        model_files,
        columns,
        workloads,
    };
    put_page(sink, path, &page)?;
    Ok(RenderCounts {
        pages: 1,
        charts: 0,
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
) -> Result<Vec<FileEntry>> {
    let m = &lm.file;
    let json = model_file_path(site, m, "json");
    sink.copy_file(&json, &lm.path, lm.len, lm.digest)?;
    let csv_path = model_file_path(site, m, "csv");
    let csv = configurations_csv(&[(&site.workload.id, m)])?;
    sink.put(&csv_path, &csv)?;
    if site.legacy {
        sink.copy_file(
            &format!("data/{}.json", m.slug),
            &lm.path,
            lm.len,
            lm.digest,
        )?;
        sink.put(&format!("data/{}.csv", m.slug), &csv)?;
    }
    let href = |p: &str| p.strip_prefix("data/").unwrap_or(p).to_owned();
    Ok(vec![
        FileEntry {
            href: href(&json),
            name: href(&json),
            size: size(lm.len as usize),
            what: format!(
                "{} on {}: the input data file as published, byte for byte.",
                m.name, site.workload.name
            ),
        },
        FileEntry {
            href: href(&csv_path),
            name: href(&csv_path),
            size: size(csv.len()),
            what: format!(
                "{} on {}: its {} configurations as CSV, with the derived columns.",
                m.name,
                site.workload.name,
                m.configurations.len()
            ),
        },
    ])
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

/// A small badge: "Qwen 3 32B · 39.05 Wh/M tok · B200".
pub fn badge_svg(m: &ModelFile, best: Option<&Configuration>) -> String {
    let left = m.name.clone();
    let right = match best {
        Some(c) => format!(
            "{} Wh/M tok · {}",
            fmt::wh_per_million(c.wh_per_million_output_tokens),
            c.gpu
        ),
        None => "no configuration within deadline".to_owned(),
    };
    let lw = text_width(&left) + 12;
    let rw = text_width(&right) + 12;
    let w = lw + rw;
    let title = format!("{left} · {right}");
    format!(
        r##"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="20" viewBox="0 0 {w} 20" role="img" aria-label="{t}"><title>{t}</title><desc>Best GPU energy per million output tokens of {l} under its latency deadline, from the ML.ENERGY Leaderboard mirror.</desc><rect width="{lw}" height="20" rx="3" fill="#444"/><rect x="{lw}" width="{rw}" height="20" rx="3" fill="#1a6e3a"/><rect x="{lw}" width="4" height="20" fill="#1a6e3a"/><g fill="#fff" font-family="Verdana,DejaVu Sans,sans-serif" font-size="11"><text x="6" y="14">{l}</text><text x="{rx}" y="14">{r}</text></g></svg>
"##,
        t = fmt::xml_escape(&title),
        l = fmt::xml_escape(&left),
        r = fmt::xml_escape(&right),
        rx = lw + 6,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formula_cells_are_neutralised() {
        for cell in ["=1+1", "+SUM(A1)", "-2+3", "@cmd", "\tx", "\rx"] {
            assert_eq!(text(cell), format!("'{cell}"));
        }
        assert_eq!(text("Qwen 3 32B"), "Qwen 3 32B");
        assert_eq!(text("a=b"), "a=b");
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
