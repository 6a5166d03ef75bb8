//! Snapshot tests (insta): a model page's `<main>`, one SVG chart and the
//! CSV headers, built from the two seed files (`tests/fixtures/seeds/`, which
//! never change with an import). A change to what the pages say shows up as
//! a diff of `tests/it/snapshots/*.snap` in review. After an intended change,
//! run `INSTA_UPDATE=always cargo test --test it snapshots::` (or `cargo insta
//! review`) and commit the new snapshots; CI never writes them.

use std::fs;
use std::path::{Path, PathBuf};

use energyboard::BuildOptions;

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The seed site, built once per test into a temporary folder, with the
/// repository's workload names but no carbon or cost settings.
fn seed_site() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("site");
    energyboard::build(&BuildOptions {
        data_dir: repo().join("tests/fixtures/seeds"),
        static_dir: repo().join("static"),
        out_dir: out.clone(),
        force: false,
        base_url: None,
        workloads: energyboard::Config::load(&repo().join("energyboard.toml"))
            .unwrap()
            .workloads,
        repository: None,
        footprint: None,
    })
    .unwrap();
    (dir, out)
}

fn read(site: &Path, rel: &str) -> String {
    fs::read_to_string(site.join(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"))
}

/// The page's `<main>` element, one tag or text run per line, so that a
/// snapshot diff points at the part that changed.
fn main_of(html: &str) -> String {
    let start = html.find("<main").expect("a <main> element");
    let end = html.find("</main>").expect("a </main> tag") + "</main>".len();
    html[start..end].replace("><", ">\n<")
}

#[test]
fn model_page_main() {
    let (_dir, site) = seed_site();
    let page = read(
        &site,
        "workloads/lm-arena-chat/models/qwen-3-32b/index.html",
    );
    insta::assert_snapshot!("qwen-3-32b-main", main_of(&page));
}

#[test]
fn time_energy_chart_svg() {
    let (_dir, site) = seed_site();
    let svg = read(
        &site,
        "workloads/lm-arena-chat/models/qwen-3-32b/time-energy-tradeoff.svg",
    );
    insta::assert_snapshot!("qwen-3-32b-time-energy-tradeoff", svg.replace("><", ">\n<"));
}

#[test]
fn csv_headers() {
    let (_dir, site) = seed_site();
    let headers: Vec<String> = ["data/leaderboard.csv", "data/configurations.csv"]
        .iter()
        .map(|rel| {
            format!(
                "{rel}: {}",
                read(&site, rel).lines().next().unwrap_or_default()
            )
        })
        .collect();
    insta::assert_snapshot!("csv-headers", headers.join("\n"));
}
