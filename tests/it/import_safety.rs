//! `energyboard import` under attack and interruption (issue 25): one
//! import at a time, an import killed halfway undone by the next, slugs
//! that never move to another model, nothing read through a link out of
//! `--from`, bounded archives, and `--data` guarded like `--out`. Each test
//! runs the real binary on the trimmed upstream fixtures.

use crate::common::file_tree;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");
const BIN: &str = env!("CARGO_BIN_EXE_energyboard");

fn fixture(commit: &str) -> PathBuf {
    PathBuf::from(ROOT)
        .join("tests/fixtures/upstream")
        .join(commit)
}

/// `energyboard import --from FROM --data DATA` in `cwd`, with `env`.
fn import_in(cwd: &Path, from: &str, data: &Path, env: &[(&str, &str)]) -> Output {
    let mut cmd = Command::new(BIN);
    cmd.current_dir(cwd)
        .args(["import", "--from", from, "--data"])
        .arg(data)
        .arg("--editorial")
        .arg(PathBuf::from(ROOT).join("import/editorial.json"))
        .args(["--retrieved", "2026-11-30"]);
    for (k, v) in env {
        cmd.env(k, v);
    }
    cmd.output().unwrap()
}

fn import(from: &Path, data: &Path) -> Output {
    import_in(data.parent().unwrap(), from.to_str().unwrap(), data, &[])
}

fn ok(out: &Output) -> String {
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.status.success(), "{text}");
    text
}

fn failed(out: &Output) -> String {
    let text = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(!out.status.success(), "{text}");
    text
}

/// A copy of a fixture version, to change.
fn copy_of(commit: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for (rel, bytes) in file_tree(&fixture(commit)) {
        let path = dir.path().join(&rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, bytes).unwrap();
    }
    dir
}

fn json(path: &Path) -> Value {
    serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap()
}

#[test]
fn a_second_import_into_the_same_folder_waits_for_the_first() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    ok(&import(&fixture("9fa07d1"), &data));
    let before = file_tree(&data);
    // Another import holds the data folder's lock.
    let mut lock =
        fd_lock::RwLock::new(std::fs::File::create(data.join(".energyboard-import.lock")).unwrap());
    let held = lock.try_write().unwrap();
    let err = failed(&import(&fixture("6e70d23"), &data));
    assert!(
        err.contains("another energyboard is writing this folder"),
        "{err}"
    );
    let mut after = file_tree(&data);
    after.remove(Path::new(".energyboard-import.lock"));
    assert!(after == before, "data/ changed");
    drop(held);
    ok(&import(&fixture("6e70d23"), &data));
}

#[test]
fn an_import_killed_while_it_moves_files_in_is_undone_by_the_next() {
    let dir = tempfile::tempdir().unwrap();
    // The reference: the second version imported over the first.
    let clean = dir.path().join("clean");
    ok(&import(&fixture("9fa07d1"), &clean));
    ok(&import(&fixture("6e70d23"), &clean));
    for moves in [1, 3, 6] {
        let data = dir.path().join(format!("data-{moves}"));
        ok(&import(&fixture("9fa07d1"), &data));
        let first = file_tree(&data);
        // Killed (abort, as kill -9: no clean-up) after `moves` renames.
        let n = moves.to_string();
        let out = import_in(
            dir.path(),
            fixture("6e70d23").to_str().unwrap(),
            &data,
            &[("ENERGYBOARD_TEST_ABORT_AFTER_MOVES", &n)],
        );
        assert!(!out.status.success(), "the import was not stopped");
        assert!(
            file_tree(&data) != first,
            "nothing was moved before the stop"
        );
        // The next import undoes the half swap, says so, and does the job.
        let text = ok(&import(&fixture("6e70d23"), &data));
        assert!(text.contains("was undone"), "{text}");
        assert_eq!(
            file_tree(&data),
            file_tree(&clean),
            "after a stop after {moves} moves"
        );
    }
}

#[test]
fn a_staging_folder_left_by_a_stopped_import_is_removed_by_the_next() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    ok(&import(&fixture("9fa07d1"), &data));
    let left = data.join(".energyboard-import.tmp-Ab12Cd");
    std::fs::create_dir_all(left.join("data/gpqa")).unwrap();
    std::fs::write(
        left.join("owner"),
        "a staging folder of energyboard import\n",
    )
    .unwrap();
    std::fs::write(left.join("data/gpqa/x.json"), "{}").unwrap();
    ok(&import(&fixture("6e70d23"), &data));
    assert!(!left.exists());
}

#[test]
fn a_source_import_waits_for_any_import_into_the_data_folder() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    ok(&import(&fixture("9fa07d1"), &data));
    let before = file_tree(&data);
    // A leaderboard import holds the data folder's one lock.
    let mut lock =
        fd_lock::RwLock::new(std::fs::File::create(data.join(".energyboard-import.lock")).unwrap());
    let held = lock.try_write().unwrap();
    let out = Command::new(BIN)
        .current_dir(ROOT)
        .args([
            "import",
            "--from",
            "tests/fixtures/sources/public-data",
            "--data",
        ])
        .arg(&data)
        .args([
            "--source",
            "example-lab",
            "--config",
            "tests/fixtures/sources/energyboard.toml",
        ])
        .args(["--retrieved", "2026-11-21"])
        .output()
        .unwrap();
    let err = failed(&out);
    assert!(
        err.contains("another energyboard is writing this folder"),
        "{err}"
    );
    let mut after = file_tree(&data);
    after.remove(Path::new(".energyboard-import.lock"));
    assert!(after == before, "data/ changed");
    drop(held);
}

/// A staging folder shaped like a killed import's, with a plan that says
/// `added` and a manifest not yet moved in.
fn forged_staging(data: &Path, plan: &Value) -> PathBuf {
    let left = data.join(".energyboard-import.tmp-Forged");
    std::fs::create_dir_all(left.join("backup")).unwrap();
    std::fs::write(
        left.join("owner"),
        "a staging folder of energyboard import\n",
    )
    .unwrap();
    std::fs::write(left.join("plan.json"), serde_json::to_vec(plan).unwrap()).unwrap();
    std::fs::write(left.join("manifest"), "{}").unwrap();
    left
}

#[test]
fn recovery_uses_no_staging_folder_it_did_not_write() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    ok(&import(&fixture("9fa07d1"), &data));
    // A hand-made file the forged plan lists as added.
    std::fs::write(data.join("mine.txt"), "mine").unwrap();
    let plan = serde_json::json!({"added": ["mine.txt"], "changed": [], "removed": []});
    let left = forged_staging(&data, &plan);
    let before = file_tree(&data);
    let err = failed(&import(&fixture("6e70d23"), &data));
    assert!(
        err.contains("does not trust it and changed nothing"),
        "{err}"
    );
    assert!(err.contains(".energyboard-import.tmp-Forged"), "{err}");
    assert!(file_tree(&data) == before, "data/ changed");
    std::fs::remove_dir_all(&left).unwrap();

    // A backup that links out of the data folder is never followed.
    let outside = dir.path().join("outside.json");
    std::fs::write(&outside, "outside").unwrap();
    let rel = "lm-arena-chat/qwen-3-8b.json";
    let plan = serde_json::json!({"added": [], "changed": [rel], "removed": []});
    let left = forged_staging(&data, &plan);
    std::fs::create_dir_all(left.join("backup/lm-arena-chat")).unwrap();
    std::os::unix::fs::symlink(&outside, left.join("backup").join(rel)).unwrap();
    let before = file_tree(&data);
    let err = failed(&import(&fixture("6e70d23"), &data));
    assert!(err.contains("symbolic link"), "{err}");
    assert!(file_tree(&data) == before, "data/ changed");
    assert_eq!(std::fs::read_to_string(&outside).unwrap(), "outside");

    // Without energyboard's marker, a folder is not even removed.
    std::fs::remove_dir_all(&left).unwrap();
    std::fs::create_dir_all(left.join("data")).unwrap();
    let err = failed(&import(&fixture("6e70d23"), &data));
    assert!(err.contains("has no marker"), "{err}");
    assert!(left.join("data").is_dir());
}

#[test]
fn a_lock_file_that_is_a_link_is_refused_not_followed() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    ok(&import(&fixture("9fa07d1"), &data));
    let target = dir.path().join("elsewhere");
    std::os::unix::fs::symlink(&target, data.join(".energyboard-import.lock")).unwrap();
    let err = failed(&import(&fixture("6e70d23"), &data));
    assert!(
        err.contains("is a symbolic link; a lock file is never followed"),
        "{err}"
    );
    assert!(
        std::fs::symlink_metadata(&target).is_err(),
        "a file was made at the link's target"
    );
}

#[test]
fn editorial_that_is_a_device_or_a_pipe_is_refused_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("fifo");
    assert!(
        Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap()
            .success()
    );
    for editorial in [Path::new("/dev/zero"), fifo.as_path()] {
        let started = std::time::Instant::now();
        let mut child = Command::new(BIN)
            .args(["import", "--from"])
            .arg(fixture("9fa07d1"))
            .arg("--data")
            .arg(dir.path().join("data"))
            .arg("--editorial")
            .arg(editorial)
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        let status = loop {
            if let Some(status) = child.try_wait().unwrap() {
                break status;
            }
            if started.elapsed() > std::time::Duration::from_secs(20) {
                child.kill().unwrap();
                panic!(
                    "--editorial {}: still reading after 20 s",
                    editorial.display()
                );
            }
            std::thread::sleep(std::time::Duration::from_millis(50));
        };
        let mut err = String::new();
        std::io::Read::read_to_string(&mut child.stderr.take().unwrap(), &mut err).unwrap();
        assert!(!status.success());
        assert!(err.contains("is not a regular file"), "{err}");
    }
}

#[test]
fn a_hand_edited_slug_map_is_checked_against_the_files() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    ok(&import(&fixture("6e70d23"), &data));
    let path = data.join(".energyboard-import.json");
    let mut manifest = json(&path);
    manifest["slugs"]["lm-arena-chat/qwen-3-8b"] = "Someone/Else".into();
    std::fs::write(&path, serde_json::to_vec_pretty(&manifest).unwrap()).unwrap();
    let before = file_tree(&data);
    let err = failed(&import(&fixture("6e70d23"), &data));
    assert!(
        err.contains("slugs: \"lm-arena-chat/qwen-3-8b\" is \"Someone/Else\""),
        "{err}"
    );
    assert!(file_tree(&data) == before, "data/ changed");
}

#[test]
fn a_newcomer_never_takes_a_published_models_url() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    ok(&import(&fixture("6e70d23"), &data));
    let page = data.join("lm-arena-chat/qwen-3-8b.json");
    assert_eq!(json(&page)["model_id"], "Qwen/Qwen3-8B");
    // Upstream adds a model with the same nickname whose id sorts first.
    let from = copy_of("6e70d23");
    let task = from.path().join("tasks/lm-arena-chat.json");
    let mut doc = json(&task);
    let rows = doc["configurations"].as_array_mut().unwrap();
    let copies: Vec<Value> = rows
        .iter()
        .filter(|r| r["model_id"] == "Qwen/Qwen3-8B")
        .map(|r| {
            let mut r = r.clone();
            r["model_id"] = "AAA/Qwen3-8B".into();
            r
        })
        .collect();
    rows.extend(copies);
    std::fs::write(&task, serde_json::to_vec(&doc).unwrap()).unwrap();
    let index_path = from.path().join("index.json");
    let mut index = json(&index_path);
    let facts = index["models"]["Qwen/Qwen3-8B"].clone();
    index["models"]["AAA/Qwen3-8B"] = facts;
    std::fs::write(&index_path, serde_json::to_vec(&index).unwrap()).unwrap();

    let text = ok(&import(from.path(), &data));
    assert_eq!(json(&page)["model_id"], "Qwen/Qwen3-8B", "{text}");
    let newcomer = data.join("lm-arena-chat/qwen3-8b.json");
    assert_eq!(json(&newcomer)["model_id"], "AAA/Qwen3-8B");
    assert!(
        text.contains(
            "AAA/Qwen3-8B would have slug \"qwen-3-8b\", published before for Qwen/Qwen3-8B"
        ),
        "{text}"
    );

    // Gone upstream, the model's slug still is not given to another.
    let mut doc = json(&task);
    doc["configurations"]
        .as_array_mut()
        .unwrap()
        .retain(|r| r["model_id"] != "Qwen/Qwen3-8B");
    std::fs::write(&task, serde_json::to_vec(&doc).unwrap()).unwrap();
    ok(&import(from.path(), &data));
    assert!(!page.exists());
    assert_eq!(json(&newcomer)["model_id"], "AAA/Qwen3-8B");
}

#[cfg(unix)]
#[test]
fn links_in_the_upstream_folder_are_not_followed() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    // A task file and a model file that are links to files outside --from.
    for rel in [
        "tasks/lm-arena-chat.json",
        "models/Qwen__Qwen3-8B__lm-arena-chat.json",
    ] {
        let from = copy_of("6e70d23");
        let outside = dir.path().join("outside.json");
        let target = from.path().join(rel);
        assert!(target.is_file(), "{rel}");
        std::fs::copy(&target, &outside).unwrap();
        std::fs::remove_file(&target).unwrap();
        std::os::unix::fs::symlink(&outside, &target).unwrap();
        // Refused (a task file) or left out with a warning (a model's
        // distributions): never read.
        let out = import(from.path(), &data);
        let text = String::from_utf8_lossy(&out.stderr);
        assert!(
            text.contains(&format!("{rel}: is a symbolic link")),
            "{text}"
        );
    }
}

/// A fake `curl` on the PATH that records its arguments and "downloads"
/// the archive `archive`.
#[cfg(unix)]
fn fake_curl(dir: &Path, archive: &Path) -> String {
    use std::os::unix::fs::PermissionsExt;
    let bin = dir.join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    let script = format!(
        "#!/bin/sh\nprintf '%s\\n' \"$@\" > '{}'\nwhile [ \"$#\" -gt 0 ]; do\n  if [ \"$1\" = --output ]; then cp '{}' \"$2\"; fi\n  shift\ndone\n",
        dir.join("curl-args").display(),
        archive.display()
    );
    std::fs::write(bin.join("curl"), script).unwrap();
    std::fs::set_permissions(bin.join("curl"), std::fs::Permissions::from_mode(0o755)).unwrap();
    format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    )
}

/// A `.tar.gz` of fixture 6e70d23 as `leaderboard-master/public/data/…`,
/// with `extra` members added by the caller.
fn archive(
    path: &Path,
    extra: impl FnOnce(&mut tar::Builder<flate2::write::GzEncoder<std::fs::File>>),
) {
    let file = std::fs::File::create(path).unwrap();
    let gz = flate2::write::GzEncoder::new(file, flate2::Compression::fast());
    let mut tar = tar::Builder::new(gz);
    for (rel, bytes) in file_tree(&fixture("6e70d23")) {
        let mut header = tar::Header::new_gnu();
        header.set_size(bytes.len() as u64);
        header.set_mode(0o644);
        header.set_cksum();
        tar.append_data(
            &mut header,
            Path::new("leaderboard-master/public/data").join(rel),
            bytes.as_slice(),
        )
        .unwrap();
    }
    extra(&mut tar);
    tar.into_inner().unwrap().finish().unwrap();
}

#[cfg(unix)]
#[test]
fn an_archive_gives_only_its_regular_files_within_bounds_and_urls_are_not_globbed() {
    let dir = tempfile::tempdir().unwrap();
    let secret = dir.path().join("secret.json");
    std::fs::write(&secret, "{\"configurations\": []}").unwrap();
    let url = "https://example.invalid/leaderboard/[1-5]/{a,b}.tar.gz";

    // A plain archive imports; curl is told not to glob the URL.
    let plain = dir.path().join("plain.tar.gz");
    archive(&plain, |_| {});
    let path = fake_curl(dir.path(), &plain);
    let data = dir.path().join("data");
    ok(&import_in(dir.path(), url, &data, &[("PATH", &path)]));
    let args = std::fs::read_to_string(dir.path().join("curl-args")).unwrap();
    assert!(args.lines().any(|a| a == "--globoff"), "{args}");
    assert!(args.lines().any(|a| a == url), "{args}");

    // An absolute link in public/data: refused, nothing read through it.
    let linked = dir.path().join("linked.tar.gz");
    archive(&linked, |tar| {
        let mut header = tar::Header::new_gnu();
        header.set_entry_type(tar::EntryType::Symlink);
        header.set_size(0);
        tar.append_link(
            &mut header,
            "leaderboard-master/public/data/tasks/secret.json",
            &secret,
        )
        .unwrap();
    });
    let path = fake_curl(dir.path(), &linked);
    let data = dir.path().join("data-linked");
    let err = failed(&import_in(dir.path(), url, &data, &[("PATH", &path)]));
    assert!(
        err.contains("is a symbolic link, not a regular file"),
        "{err}"
    );
    assert!(!data.exists());

    // A member that expands past the file bound.
    let big = dir.path().join("big.tar.gz");
    archive(&big, |tar| {
        let bytes = vec![b' '; 17 * 1024 * 1024];
        let mut header = tar::Header::new_gnu();
        header.set_size(bytes.len() as u64);
        header.set_mode(0o644);
        header.set_cksum();
        tar.append_data(
            &mut header,
            "leaderboard-master/public/data/models/big.json",
            bytes.as_slice(),
        )
        .unwrap();
    });
    let path = fake_curl(dir.path(), &big);
    let data = dir.path().join("data-big");
    let err = failed(&import_in(dir.path(), url, &data, &[("PATH", &path)]));
    assert!(err.contains("is larger than 16 MB"), "{err}");
}

#[test]
fn data_gets_the_guards_of_out() {
    let dir = tempfile::tempdir().unwrap();
    let from = fixture("6e70d23");
    let from = from.to_str().unwrap();
    // The current folder (a repository root, say) is never a data folder.
    std::fs::write(dir.path().join("notes.txt"), "mine").unwrap();
    let err = failed(&import_in(dir.path(), from, Path::new("."), &[]));
    assert!(
        err.contains("is the current folder or contains it"),
        "{err}"
    );
    let err = failed(&import_in(dir.path(), from, Path::new("/"), &[]));
    assert!(err.contains("is the root folder"), "{err}");
    let repo = dir.path().join("repo");
    std::fs::create_dir_all(repo.join(".git")).unwrap();
    let err = failed(&import_in(dir.path(), from, &repo, &[]));
    assert!(err.contains("is a git work tree"), "{err}");
    assert_eq!(
        file_tree(dir.path()).keys().collect::<Vec<_>>(),
        [Path::new("notes.txt")]
    );
}

#[cfg(unix)]
#[test]
fn a_workload_folder_that_links_outside_is_not_written_through() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let outside = dir.path().join("outside");
    std::fs::create_dir_all(&data).unwrap();
    std::fs::create_dir_all(&outside).unwrap();
    std::os::unix::fs::symlink(&outside, data.join("lm-arena-chat")).unwrap();
    let err = failed(&import(&fixture("6e70d23"), &data));
    assert!(err.contains("is not a plain folder"), "{err}");
    assert_eq!(std::fs::read_dir(&outside).unwrap().count(), 0);
}

#[test]
fn the_pull_request_summary_mentions_no_one_and_links_nowhere() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let from = copy_of("6e70d23");
    let index_path = from.path().join("index.json");
    let mut index = json(&index_path);
    index["models"]["Qwen/Qwen3-8B"]["nickname"] =
        "Qwen @octocat https://evil.example/x www.evil.example".into();
    std::fs::write(&index_path, serde_json::to_vec(&index).unwrap()).unwrap();
    let summary = dir.path().join("summary.md");
    let out = Command::new(BIN)
        .current_dir(dir.path())
        .args(["import", "--from"])
        .arg(from.path())
        .arg("--data")
        .arg(&data)
        .arg("--summary")
        .arg(&summary)
        .arg("--editorial")
        .arg(PathBuf::from(ROOT).join("import/editorial.json"))
        .args(["--retrieved", "2026-11-30"])
        .output()
        .unwrap();
    ok(&out);
    let text = std::fs::read_to_string(&summary).unwrap();
    assert!(text.contains("octocat"), "{text}");
    for live in ["@octocat", "https://", "www.evil"] {
        assert!(!text.contains(live), "{live} in:\n{text}");
    }
}

#[test]
fn an_oversized_upstream_file_is_refused_before_it_is_parsed() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let from = copy_of("6e70d23");
    let task = from.path().join("tasks/lm-arena-chat.json");
    // Valid JSON, 17 MB: parsing takes about twenty times that in memory.
    let mut bytes = std::fs::read(&task).unwrap();
    bytes.resize(17 * 1024 * 1024, b' ');
    std::fs::write(&task, bytes).unwrap();
    let err = failed(&import(from.path(), &data));
    assert!(
        err.contains("tasks/lm-arena-chat.json: is larger than 16 MB"),
        "{err}"
    );
}
