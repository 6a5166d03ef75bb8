//! `energyboard import` on trimmed copies of the leaderboard's published
//! data (tests/fixtures/upstream/<commit>/, made by make_fixtures.py):
//! the seed files reproduced, the change log between real versions, re-import
//! and determinism, ownership and the untouched data folder on failure,
//! hostile input. No network.

use crate::common::file_tree;
use std::path::{Path, PathBuf};

use energyboard::import::{ImportOptions, ImportReport, MANIFEST, import};
use serde_json::Value;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

fn fixture(commit: &str) -> String {
    format!("{ROOT}/tests/fixtures/upstream/{commit}")
}

fn options(from: &str, data: &Path, retrieved: &str) -> ImportOptions {
    ImportOptions {
        from: from.to_owned(),
        data_dir: data.to_path_buf(),
        editorial: PathBuf::from(ROOT).join("import/editorial.json"),
        retrieved: Some(retrieved.to_owned()),
        updated: None,
        data_version: None,
        tasks_committed: None,
        source: None,
    }
}

fn run(commit: &str, data: &Path, retrieved: &str) -> ImportReport {
    import(&options(&fixture(commit), data, retrieved)).unwrap()
}

fn json(path: &Path) -> Value {
    serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap()
}

/// Whether `got` has every field of `want` with an equal JSON value, a
/// number of `got` rounded to as many decimals as the seed wrote (the seeds
/// keep rounded figures, the importer upstream's exact ones; the seeds'
/// `avg_output_tokens_exact` is the importer's `avg_output_tokens`); the
/// differences otherwise.
fn fields_equal(want: &Value, got: &Value, path: &str, out: &mut Vec<String>) {
    match (want, got) {
        (Value::Object(w), Value::Object(g)) => {
            for (k, v) in w {
                let key = if k == "avg_output_tokens_exact" && !g.contains_key(k) {
                    "avg_output_tokens"
                } else {
                    k
                };
                match g.get(key) {
                    Some(gv) => fields_equal(v, gv, &format!("{path}.{k}"), out),
                    None => out.push(format!("{path}.{k}: missing")),
                }
            }
        }
        (Value::Number(w), Value::Number(g)) if w.as_f64().is_some() => {
            let text = w.to_string();
            let decimals = text.split_once('.').map_or(0, |(_, d)| d.len());
            let (w, g) = (w.as_f64().unwrap(), g.as_f64().unwrap());
            if format!("{g:.decimals$}").parse::<f64>().unwrap() != w {
                out.push(format!("{path}: seed {w}, import {g}"));
            }
        }
        (Value::Array(w), Value::Array(g)) if w.len() == g.len() => {
            for (i, (a, b)) in w.iter().zip(g).enumerate() {
                fields_equal(a, b, &format!("{path}[{i}]"), out);
            }
        }
        _ if want == got => {}
        _ => out.push(format!("{path}: seed {want}, import {got}")),
    }
}

#[test]
fn importing_the_seeds_version_reproduces_the_seed_files() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let mut opts = options(&fixture("7885788"), &data, "2026-09-26");
    opts.updated = Some("2026-09-27".into());
    opts.data_version = Some("2026-09-27".into());
    opts.tasks_committed = Some("2026-02-16".into());
    let report = import(&opts).unwrap();
    assert_eq!(report.upstream_version, "2026-02-16");
    // The whole lm-arena-chat task file: 18 models.
    assert_eq!(report.models, 18);
    for slug in ["qwen-3-32b", "qwen-3-30b-a3b-instruct"] {
        let seed = json(&Path::new(ROOT).join(format!("tests/fixtures/seeds/{slug}.json")));
        let got = json(&data.join(format!("lm-arena-chat/{slug}.json")));
        let mut diffs = Vec::new();
        fields_equal(&seed, &got, slug, &mut diffs);
        assert!(diffs.is_empty(), "{slug}: {diffs:#?}");
        // The repository's own data keeps the seeds' figures too (its dates
        // are those of the published history, imported version by version).
        let ours = json(&Path::new(ROOT).join(format!("data/lm-arena-chat/{slug}.json")));
        let mut diffs = Vec::new();
        for key in [
            "configurations",
            "best",
            "gpus",
            "params_b",
            "name",
            "model_id",
        ] {
            fields_equal(&seed[key], &ours[key], &format!("{slug}.{key}"), &mut diffs);
        }
        assert!(diffs.is_empty(), "data/lm-arena-chat/{slug}: {diffs:#?}");
    }
    // Precision: upstream's exact output length and its distribution ride
    // along, and energy per response uses the exact length.
    let loaded = energyboard::load::read_model_file(&data.join("lm-arena-chat/qwen-3-32b.json"))
        .unwrap()
        .file;
    let c = &loaded.configurations[0];
    assert_eq!(c.row_id, "qwen-3-32b/B200/1/8");
    // Exact: upstream's figures, unrounded.
    assert_eq!(c.avg_output_tokens.unwrap(), 645.747_070_312_5);
    assert_eq!(
        c.joules_per_response().unwrap(),
        c.joules_per_output_token.unwrap() * 645.747_070_312_5
    );
    assert!((c.joules_per_output_token.unwrap() - 1.545_054_1).abs() < 5e-8);
    assert_ne!(c.joules_per_output_token.unwrap(), 1.545_054_1);
    let d = c.output_length_distribution.as_ref().unwrap();
    assert_eq!(d.bins.len(), d.counts.len() + 1);
    assert_eq!(d.bins[0], 2.0);
    assert!(
        loaded
            .configurations
            .iter()
            .all(|c| c.output_length_distribution.is_some())
    );
}

#[test]
fn the_throughput_fix_is_recorded_as_exactly_the_rows_whose_throughput_moved() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    run("281c69e", &data, "2026-11-30");
    let before = file_tree(&data);
    let report = run("6e70d23", &data, "2026-11-30");
    let e = report.entry.clone().unwrap();
    assert_eq!(e.upstream_version, "2026-01-01");
    assert_eq!(e.previous_upstream_version.as_deref(), Some("2025-12-17"));
    assert!(e.workloads_added.is_empty() && e.workloads_removed.is_empty());
    assert!(e.models_added.is_empty() && e.models_removed.is_empty());
    assert!(e.configurations_added.is_empty() && e.configurations_removed.is_empty());
    assert!(e.best_changed.is_empty(), "{:?}", e.best_changed);
    // Independently: every row whose tokens_per_second differs between the
    // two imports, and no other; convert_upstream.py finds the same 39.
    let mut expected = Vec::new();
    for slug in ["llama-3-1-8b-instruct", "qwen-3-8b"] {
        let rel = PathBuf::from(format!("lm-arena-chat/{slug}.json"));
        let old: Value = serde_json::from_slice(&before[&rel]).unwrap();
        let new = json(&data.join(&rel));
        for (a, b) in old["configurations"]
            .as_array()
            .unwrap()
            .iter()
            .zip(new["configurations"].as_array().unwrap())
        {
            assert_eq!(a["row_id"], b["row_id"]);
            if a["tokens_per_second"] != b["tokens_per_second"] {
                expected.push(a["row_id"].as_str().unwrap().to_owned());
            }
        }
    }
    let got: Vec<String> = e
        .configurations_changed
        .iter()
        .map(|c| {
            assert_eq!(c.fields, ["tokens_per_second"], "{}", c.row_id);
            assert_eq!(c.workload, "lm-arena-chat");
            c.row_id.clone()
        })
        .collect();
    assert_eq!(got, expected);
    assert_eq!(got.len(), 39);
    // Text to image did not change: its files differ only in the source
    // block (data compiled 2026-01-01).
    for slug in ["pixart", "sana-1-5-1-6b"] {
        let rel = PathBuf::from(format!("text-to-image/{slug}.json"));
        let old: Value = serde_json::from_slice(&before[&rel]).unwrap();
        let new = json(&data.join(&rel));
        assert_ne!(old["source"], new["source"]);
        assert_eq!(new["source"]["compiled"], "2026-01-01");
        for key in ["configurations", "best", "gpus"] {
            assert_eq!(old[key], new[key], "{slug}: {key}");
        }
    }
    let md = report.summary_markdown();
    assert!(md.contains("2026-01-01 (was 2025-12-17)"), "{md}");
    assert!(
        md.contains("**Configurations with changed figures** (39)"),
        "{md}"
    );
    // The history holds both entries, and loads with the data.
    let loaded = energyboard::load::load_data_dir(&data).unwrap();
    let history = loaded.changes.unwrap().history;
    assert_eq!(history.entries.len(), 2);
    assert_eq!(history.entries[1], e);
}

#[test]
fn the_first_published_version_imports_and_the_next_moves_two_best_figures() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let first = run("9fa07d1", &data, "2026-11-30");
    // Before 2025-12-17 there is no avg_output_len: energy per request over
    // energy per token; parallel degrees 0 are 1; diffusion rows take the
    // model's precision from index.json.
    assert!(
        first
            .warnings
            .iter()
            .any(|w| w.contains("avg_output_len missing, derived"))
    );
    assert!(first.warnings.iter().any(|w| w.contains("=0, taken as 1")));
    let e1 = first.entry.unwrap();
    assert_eq!(e1.previous_upstream_version, None);
    assert_eq!(e1.workloads_added, ["lm-arena-chat", "text-to-image"]);
    assert_eq!(e1.models_added.len(), 4);
    assert_eq!(e1.best_changed.len(), 8);
    assert!(e1.best_changed.iter().all(|b| b.old.is_none()));

    let second = run("281c69e", &data, "2026-11-30");
    let e = second.entry.unwrap();
    // 2025-11-30 added 105 text-to-image rows upstream, 15 of each of the
    // two models kept here.
    assert_eq!(e.configurations_added.len(), 30);
    assert!(
        e.configurations_added
            .iter()
            .all(|c| c.workload == "text-to-image")
    );
    // The published output lengths replace the derived ones (energy per
    // request over energy per token), where the two differ in any bit.
    assert!(!e.configurations_changed.is_empty());
    assert!(
        e.configurations_changed
            .iter()
            .all(|c| c.fields == ["avg_output_tokens"]),
        "{:#?}",
        e.configurations_changed
    );
    let best: Vec<_> = e
        .best_changed
        .iter()
        .map(|b| {
            (
                b.slug.as_str(),
                b.gpu.as_str(),
                b.old,
                b.new,
                b.old_row_id.as_deref(),
                b.new_row_id.as_deref(),
            )
        })
        .collect();
    assert_eq!(
        best,
        [
            (
                "pixart",
                "B200",
                Some(866.151_640_624_739_2),
                Some(604.873_687_509_447_3),
                Some("pixart/B200/4/b8/u4r1"),
                Some("pixart/B200/1/b2")
            ),
            (
                "sana-1-5-1-6b",
                "B200",
                Some(588.156_546_875_368_8),
                Some(337.943_437_496_200_2),
                Some("sana-1-5-1-6b/B200/4/b8/u2r2"),
                Some("sana-1-5-1-6b/B200/1/b4")
            ),
        ]
    );
    assert!(
        energyboard::import::changelog::markdown(&e).contains(
            "| text-to-image | pixart | B200 | 866.2 J/image (`pixart/B200/4/b8/u4r1`) | 604.9 J/image (`pixart/B200/1/b2`) | -30.17 % |"
        )
    );
}

#[test]
fn re_importing_the_same_data_writes_nothing_even_on_another_day() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    run("6e70d23", &data, "2026-11-30");
    let before = file_tree(&data);
    let again = run("6e70d23", &data, "2026-12-07");
    assert!(again.is_unchanged());
    assert!(again.entry.is_none());
    assert!(again.to_string().contains("nothing written"));
    assert_eq!(file_tree(&data), before);
}

#[test]
fn the_same_input_gives_the_same_bytes() {
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = (dir.path().join("a"), dir.path().join("b"));
    let ra = run("281c69e", &a, "2026-11-30");
    let rb = run("281c69e", &b, "2026-11-30");
    assert_eq!(file_tree(&a), file_tree(&b));
    assert_eq!(ra.summary_markdown(), rb.summary_markdown());
}

#[test]
fn a_file_in_the_way_that_import_did_not_write_stops_it_and_nothing_changes() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    std::fs::create_dir_all(data.join("lm-arena-chat")).unwrap();
    std::fs::write(data.join("lm-arena-chat/qwen-3-8b.json"), "hand-made").unwrap();
    let before = file_tree(&data);
    let err = import(&options(&fixture("6e70d23"), &data, "2026-11-30"))
        .unwrap_err()
        .to_string();
    assert!(err.contains("lm-arena-chat/qwen-3-8b.json"), "{err}");
    assert!(err.contains("did not write it"), "{err}");
    assert_eq!(file_tree(&data), before);
}

#[test]
fn an_imported_file_edited_by_hand_is_never_overwritten() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    run("281c69e", &data, "2026-11-30");
    let file = data.join("lm-arena-chat/qwen-3-8b.json");
    let mut text = std::fs::read_to_string(&file).unwrap();
    text.push(' ');
    std::fs::write(&file, text).unwrap();
    let before = file_tree(&data);
    let err = import(&options(&fixture("6e70d23"), &data, "2026-11-30"))
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("was changed after energyboard import wrote it"),
        "{err}"
    );
    assert_eq!(file_tree(&data), before);
}

#[test]
fn data_that_would_not_load_leaves_the_folder_byte_identical() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    run("281c69e", &data, "2026-11-30");
    // A hand-made file elsewhere with the same slug on the same workload:
    // the staged result fails the normal loader.
    let mut clash = json(&data.join("lm-arena-chat/qwen-3-8b.json"));
    clash["name"] = "Mine".into();
    std::fs::create_dir_all(data.join("mine")).unwrap();
    std::fs::write(
        data.join("mine/qwen-3-8b.json"),
        serde_json::to_vec(&clash).unwrap(),
    )
    .unwrap();
    let before = file_tree(&data);
    let err = import(&options(&fixture("6e70d23"), &data, "2026-11-30"))
        .unwrap_err()
        .to_string();
    assert!(err.contains("would not be valid"), "{err}");
    assert!(err.contains("qwen-3-8b"), "{err}");
    assert_eq!(file_tree(&data), before);
    // No staging folder is left behind.
    assert!(std::fs::read_dir(&data).unwrap().all(|e| {
        !e.unwrap()
            .file_name()
            .to_string_lossy()
            .starts_with(".energyboard-import-")
    }));
}

/// A copy of a fixture version, changed by `edit` (task file → task file).
fn altered(commit: &str, task: &str, edit: impl FnOnce(&mut Value)) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for (rel, bytes) in file_tree(Path::new(&fixture(commit))) {
        let path = dir.path().join(&rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, bytes).unwrap();
    }
    let path = dir.path().join(format!("tasks/{task}.json"));
    let mut doc = json(&path);
    edit(&mut doc);
    std::fs::write(&path, serde_json::to_vec(&doc).unwrap()).unwrap();
    dir
}

fn import_error(from: &Path, data: &Path) -> String {
    let before = file_tree(data);
    let err = import(&options(from.to_str().unwrap(), data, "2026-11-30"))
        .unwrap_err()
        .to_string();
    assert_eq!(file_tree(data), before, "{err}");
    err
}

/// A change to a task file.
type Edit = Box<dyn FnOnce(&mut Value)>;

#[test]
fn bad_upstream_rows_are_errors_naming_the_task_file_and_field() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    run("281c69e", &data, "2026-11-30");
    let cases: [(&str, Edit, &str); 5] = [
        (
            "a text for a number",
            Box::new(|d| d["configurations"][3]["p95_itl_ms"] = "fast".into()),
            "tasks/lm-arena-chat.json: configurations[3].p95_itl_ms: \"fast\"",
        ),
        (
            "a huge number",
            Box::new(|d| d["configurations"][0]["energy_per_token_joules"] = 1e300.into()),
            "configurations[0].energy_per_token_joules: 1e+300",
        ),
        (
            "a control character",
            Box::new(|d| d["configurations"][1]["gpu_model"] = "H100\u{7}".into()),
            "configurations[1].gpu_model: contains the control character U+0007",
        ),
        (
            "a missing field without a fallback",
            Box::new(|d| {
                d["configurations"][4]
                    .as_object_mut()
                    .unwrap()
                    .remove("median_itl_ms");
            }),
            "configurations[4].median_itl_ms: missing",
        ),
        (
            "no rows at all",
            Box::new(|d| d["configurations"] = "none".into()),
            "tasks/lm-arena-chat.json: configurations: \"none\"",
        ),
    ];
    for (what, edit, expected) in cases {
        let from = altered("6e70d23", "lm-arena-chat", edit);
        let err = import_error(from.path(), &data);
        assert!(err.contains(expected), "{what}: {err}");
        assert!(err.contains("nothing written"), "{what}: {err}");
    }
}

#[test]
fn hostile_model_ids_and_names_stay_inside_or_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    // A path-like model id: its slug is a plain segment; nothing is written
    // outside the data folder.
    let from = altered("6e70d23", "lm-arena-chat", |d| {
        for r in d["configurations"].as_array_mut().unwrap() {
            if r["model_id"] == "Qwen/Qwen3-8B" {
                r["model_id"] = "../../../etc/passwd".into();
                r["nickname"] = "../..".into();
            }
        }
    });
    let report = import(&options(from.path().to_str().unwrap(), &data, "2026-11-30")).unwrap();
    assert!(
        report
            .added
            .contains(&"lm-arena-chat/passwd.json".to_owned())
    );
    assert!(file_tree(dir.path()).keys().all(|p| p.starts_with("data")));

    // A nickname that makes a reserved slug.
    let from = altered("6e70d23", "text-to-image", |d| {
        for r in d["configurations"].as_array_mut().unwrap() {
            r["nickname"] = "Leaderboard Image".into();
        }
    });
    let mut index = json(&from.path().join("index.json"));
    for m in index["models"].as_object_mut().unwrap().values_mut() {
        m["nickname"] = "Leaderboard Image".into();
    }
    std::fs::write(from.path().join("index.json"), index.to_string()).unwrap();
    let err = import_error(from.path(), &data);
    assert!(err.contains("reserved"), "{err}");

    // A nickname with a line break.
    let from = altered("6e70d23", "lm-arena-chat", |_| {});
    let mut index = json(&from.path().join("index.json"));
    index["models"]["Qwen/Qwen3-8B"]["nickname"] = "Qwen\n3".into();
    std::fs::write(from.path().join("index.json"), index.to_string()).unwrap();
    let err = import_error(from.path(), &data);
    assert!(
        err.contains("nickname: contains the control character U+000A"),
        "{err}"
    );

    // No last_updated: no version to record.
    std::fs::write(from.path().join("index.json"), "{\"models\": {}}").unwrap();
    let err = import_error(from.path(), &data);
    assert!(err.contains("index.json: last_updated"), "{err}");

    // A task without editorial texts.
    let from = altered("6e70d23", "lm-arena-chat", |_| {});
    std::fs::copy(
        from.path().join("tasks/lm-arena-chat.json"),
        from.path().join("tasks/new-task.json"),
    )
    .unwrap();
    let err = import_error(from.path(), &data);
    assert!(
        err.contains("tasks/new-task.json: the workload \"new-task\" has no entry"),
        "{err}"
    );
}

#[test]
fn a_model_gone_upstream_is_removed_and_recorded() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    run("6e70d23", &data, "2026-11-30");
    let from = altered("6e70d23", "lm-arena-chat", |d| {
        d["configurations"]
            .as_array_mut()
            .unwrap()
            .retain(|r| r["model_id"] != "Qwen/Qwen3-8B");
    });
    let report = import(&options(from.path().to_str().unwrap(), &data, "2026-11-30")).unwrap();
    assert_eq!(report.removed, ["lm-arena-chat/qwen-3-8b.json"]);
    assert!(!data.join("lm-arena-chat/qwen-3-8b.json").exists());
    let e = report.entry.unwrap();
    assert_eq!(e.models_removed.len(), 1);
    assert_eq!(e.models_removed[0].slug, "qwen-3-8b");
    assert_eq!(e.best_changed.len(), 2);
    assert!(e.best_changed.iter().all(|b| b.new.is_none()));
    let manifest = json(&data.join(MANIFEST));
    assert!(
        manifest["files"]
            .get("lm-arena-chat/qwen-3-8b.json")
            .is_none()
    );
}

#[test]
fn the_command_prints_the_report_and_writes_the_summary() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let summary = dir.path().join("summary.md");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_energyboard"))
        .current_dir(ROOT)
        .args([
            "import",
            "--from",
            &fixture("6e70d23"),
            "--retrieved",
            "2026-11-30",
        ])
        .arg("--data")
        .arg(&data)
        .arg("--summary")
        .arg(&summary)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(
        stdout.contains("imported data 2026-01-01: 4 model files; 5 added"),
        "{stdout}"
    );
    let md = std::fs::read_to_string(&summary).unwrap();
    assert!(
        md.starts_with("## ML.ENERGY Leaderboard data 2026-01-01\n"),
        "{md}"
    );
    assert!(stdout.ends_with(&format!("{md}\n")), "{stdout}");

    // The same version again changes nothing: no summary is written, which
    // is how scripts/sync.sh knows there is no pull request to open.
    let again = dir.path().join("again.md");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_energyboard"))
        .current_dir(ROOT)
        .args([
            "import",
            "--from",
            &fixture("6e70d23"),
            "--retrieved",
            "2026-12-07",
        ])
        .arg("--data")
        .arg(&data)
        .arg("--summary")
        .arg(&again)
        .output()
        .unwrap();
    assert!(out.status.success());
    assert!(
        String::from_utf8_lossy(&out.stdout).contains("nothing changed"),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    assert!(
        !again.exists(),
        "a summary was written though nothing changed"
    );

    let out = std::process::Command::new(env!("CARGO_BIN_EXE_energyboard"))
        .current_dir(ROOT)
        .args(["import", "--from", "/nonexistent/public/data"])
        .arg("--data")
        .arg(&data)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("holds no index.json"));
}

#[test]
fn an_older_version_with_wrong_parallel_degrees_imports_and_the_correction_is_recorded() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    // 2026-02-13: upstream recorded tensor_parallel 1 on multi-GPU rows. A
    // mirror shows what was published: the rows load, and the page marks
    // them.
    let first = run("0578467", &data, "2026-02-13");
    assert!(
        first
            .warnings
            .iter()
            .any(|w| w.contains("does not fit num_gpus 2; kept as recorded upstream")),
        "{:#?}",
        first.warnings
    );
    let old = energyboard::load::read_model_file(&data.join("lm-arena-chat/qwen-3-32b.json"))
        .unwrap()
        .file;
    let marked: Vec<&str> = old
        .configurations
        .iter()
        .filter(|c| c.parallelism().contains("as recorded upstream"))
        .map(|c| c.row_id.as_str())
        .collect();
    assert_eq!(marked.len(), 9, "{marked:?}");
    assert!(marked.iter().all(|r| !r.contains("/1/")), "{marked:?}");

    // 2026-02-16: the correction. The entry lists exactly those rows, with
    // the parallel degrees that changed, and no row is marked any more.
    let second = run("7885788", &data, "2026-02-16");
    let e = second.entry.clone().unwrap();
    assert_eq!(e.previous_upstream_version.as_deref(), Some("2026-02-13"));
    let corrected: Vec<&str> = e
        .configurations_changed
        .iter()
        .filter(|c| c.slug == "qwen-3-32b")
        .map(|c| {
            assert!(
                c.fields.iter().any(|f| f == "tensor_parallel"),
                "{}: {:?}",
                c.row_id,
                c.fields
            );
            c.row_id.as_str()
        })
        .collect();
    assert_eq!(corrected, marked);
    let new = energyboard::load::read_model_file(&data.join("lm-arena-chat/qwen-3-32b.json"))
        .unwrap()
        .file;
    assert!(
        new.configurations
            .iter()
            .all(|c| !c.parallelism().contains("as recorded upstream"))
    );
    // The change log says what changed instead of "no change".
    let md = second.summary_markdown();
    assert!(md.contains("tensor_parallel"), "{md}");
}
