//! Several sources in one data folder: the leaderboard's published data
//! (tests/fixtures/upstream/7885788) and Example Lab's
//! (tests/fixtures/sources/public-data, made with mlenergy-data from the raw
//! results beside it), imported with `energyboard import --source`, built
//! into one site. No network.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

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
    assert!(lab_page.contains(
        "licence CC-BY-4.0, retrieved 2026-11-21: not the ML.ENERGY Leaderboard's figures"
    ));
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
    crate::common::copy_dir(
        &PathBuf::from(ROOT).join("tests/fixtures/sources/public-data"),
        &changed,
    );
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
        err.contains("\"example-lab--qwen-3-8b\" is already used by"),
        "{err}"
    );
    assert!(err.contains("lm-arena-chat/hand-made.json"), "{err}");
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
    assert!(err.contains("--source \"nobody\": tests/fixtures/sources/energyboard.toml has no [[sources]] entry with id = \"nobody\""), "{err}");
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
