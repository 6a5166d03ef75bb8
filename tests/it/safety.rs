//! Nothing lost: what `build`, `synth` and `--force` may replace, what a
//! rebuild keeps, and what interrupted and concurrent builds leave behind.
//! Every test runs the real binary in its own tempdir.

use crate::common::names;
use energyboard::stage::copy_tree;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_energyboard");
/// The benchmarks' data generator; `synth` as the first argument runs it.
const SYNTH: &str = env!("CARGO_BIN_EXE_energyboard-synth");
const ROOT: &str = env!("CARGO_MANIFEST_DIR");

struct Sandbox {
    dir: tempfile::TempDir,
}

impl Sandbox {
    /// A tempdir with copies of `data/` and `static/`.
    fn new() -> Self {
        let sandbox = Self {
            dir: tempfile::tempdir().expect("tempdir"),
        };
        copy_tree(
            &Path::new(ROOT).join("tests/fixtures/seeds"),
            &sandbox.path("data"),
        )
        .unwrap();
        copy_tree(&Path::new(ROOT).join("static"), &sandbox.path("static")).unwrap();
        sandbox
    }

    fn path(&self, rel: &str) -> PathBuf {
        self.dir.path().join(rel)
    }

    fn command(&self, args: &[&str]) -> Command {
        let (bin, args) = match args {
            ["synth", rest @ ..] => (SYNTH, rest),
            _ => (BIN, args),
        };
        let mut cmd = Command::new(bin);
        cmd.args(args)
            .current_dir(self.dir.path())
            .stdin(Stdio::null());
        cmd
    }

    fn run(&self, args: &[&str]) -> Output {
        self.command(args).output().expect("run energyboard")
    }

    fn spawn(&self, args: &[&str]) -> Child {
        self.command(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("run energyboard")
    }

    fn names(&self) -> Vec<String> {
        names(self.dir.path())
    }
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

#[track_caller]
fn succeeds(out: &Output) {
    assert!(out.status.success(), "failed: {}", stderr(out));
}

#[track_caller]
fn fails_saying(out: &Output, says: &str) {
    assert_eq!(out.status.code(), Some(1), "should fail: {}", stderr(out));
    assert!(
        stderr(out).contains(says),
        "expected {says:?} in:\n{}",
        stderr(out)
    );
}

#[test]
fn force_never_replaces_the_data_or_static_folder_or_the_current_folder() {
    let sb = Sandbox::new();
    let before = sb.names();
    let cwd = sb.dir.path().to_str().unwrap().to_owned();
    for (args, says) in [
        (vec!["--out", &cwd, "--force"], "contains the input folder"),
        (vec!["--out", ".", "--force"], "contains the input folder"),
        (vec!["--out", "data", "--force"], "is the input folder data"),
        (vec!["--out", "data/sub"], "is inside the input folder data"),
        (
            vec!["--out", "static", "--force"],
            "is the input folder static",
        ),
        (
            vec!["--static", "site", "--out", "site"],
            "is the input folder site",
        ),
    ] {
        fs::create_dir_all(sb.path("site")).unwrap();
        let mut all = vec!["build", "--data", "data"];
        all.extend(args);
        fails_saying(&sb.run(&all), says);
        fs::remove_dir(sb.path("site")).unwrap();
    }
    // Outside the data and static folders, the current folder itself is
    // still refused (without a static folder, the built-in assets are used).
    fs::rename(sb.path("static"), sb.path("data/static")).unwrap();
    fails_saying(
        &sb.run(&["build", "--data", "../x", "--out", &cwd, "--force"]),
        "is the current folder or contains it",
    );
    fs::rename(sb.path("data/static"), sb.path("static")).unwrap();
    assert_eq!(sb.names(), before);
    assert_eq!(
        names(&sb.path("data")),
        names(&Path::new(ROOT).join("tests/fixtures/seeds"))
    );
}

#[test]
fn force_never_replaces_a_git_work_tree_or_a_folder_holding_one() {
    let sb = Sandbox::new();
    fs::create_dir_all(sb.path("work/project/.git")).unwrap();
    fs::write(sb.path("work/project/main.rs"), "fn main() {}").unwrap();
    fails_saying(
        &sb.run(&["build", "--out", "work", "--force"]),
        "contains a git work tree",
    );
    fails_saying(
        &sb.run(&["build", "--out", "work/project", "--force"]),
        "is a git work tree",
    );
    assert!(sb.path("work/project/main.rs").is_file());
}

#[test]
fn synth_from_the_whole_leaderboard_writes_valid_per_token_files() {
    // data/ holds diffusion files too: only the per-token files are
    // templates, and every file written loads.
    let sb = Sandbox::new();
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("data");
    let data = data.to_str().unwrap();
    succeeds(&sb.run(&["synth", "--data", data, "--count", "12", "--out", "gen"]));
    succeeds(&sb.run(&["check", "--data", "gen"]));
    for entry in fs::read_dir(sb.path("gen")).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "json") {
            let text = fs::read_to_string(&path).unwrap();
            assert!(!text.contains("\"kind\""), "{}", path.display());
        }
    }
}

#[test]
fn a_synth_folder_is_data_not_a_site() {
    let sb = Sandbox::new();
    succeeds(&sb.run(&["synth", "--count", "3", "--out", "gen"]));
    assert!(
        fs::read_to_string(sb.path("gen/.energyboard"))
            .unwrap()
            .starts_with("energyboard data\n")
    );
    fs::write(sb.path("gen/notes.txt"), "mine").unwrap();
    // Building from it into it, or over it, is refused without --force.
    fails_saying(
        &sb.run(&["build", "--data", "gen", "--out", "gen"]),
        "is the input folder gen",
    );
    fails_saying(
        &sb.run(&["build", "--out", "gen"]),
        "is a data folder written by `energyboard-synth`, not a site",
    );
    assert_eq!(
        fs::read_to_string(sb.path("gen/notes.txt")).unwrap(),
        "mine"
    );

    // And synth does not replace a built site without asking.
    succeeds(&sb.run(&["build", "--out", "site"]));
    fails_saying(
        &sb.run(&["synth", "--count", "3", "--out", "site"]),
        "is a site built by `energyboard build`, not a data folder",
    );
    assert!(sb.path("site/index.html").is_file());
}

#[test]
fn cname_and_well_known_survive_a_rebuild_and_other_removals_are_reported() {
    let sb = Sandbox::new();
    succeeds(&sb.run(&["build", "--out", "site"]));
    fs::write(sb.path("site/CNAME"), "energy.example.org\n").unwrap();
    fs::create_dir_all(sb.path("site/.well-known")).unwrap();
    fs::write(sb.path("site/.well-known/security.txt"), "Contact: x\n").unwrap();
    fs::write(sb.path("site/notes.txt"), "mine").unwrap();
    let out = sb.run(&["build", "--out", "site"]);
    succeeds(&out);
    assert_eq!(
        fs::read_to_string(sb.path("site/CNAME")).unwrap(),
        "energy.example.org\n"
    );
    assert!(sb.path("site/.well-known/security.txt").is_file());
    assert!(!sb.path("site/notes.txt").exists());
    assert!(
        stderr(&out).contains(
            "note: removed 1 file from site that this build does not make \
             (only CNAME and .well-known are kept): notes.txt"
        ),
        "{}",
        stderr(&out)
    );
}

/// Synthetic data big enough that a debug build takes a few seconds.
fn big_data(sb: &Sandbox) {
    succeeds(&sb.run(&["synth", "--count", "400", "--out", "big"]));
}

/// Waits until a build's staging folder (`.site.tmp-*`) holds model pages;
/// returns it.
fn wait_for_staging(sb: &Sandbox, child: &mut Child) -> std::path::PathBuf {
    let start = Instant::now();
    loop {
        let found = fs::read_dir(sb.path("."))
            .unwrap()
            .filter_map(Result::ok)
            .find(|e| {
                e.file_name().to_string_lossy().starts_with(".site.tmp-")
                    && e.path().join("models").exists()
            });
        if let Some(entry) = found {
            return entry.path();
        }
        assert!(child.try_wait().unwrap().is_none(), "the build ended first");
        assert!(start.elapsed() < Duration::from_secs(60), "timed out");
        std::thread::sleep(Duration::from_millis(2));
    }
}

fn signal(child: &Child, name: &str) {
    let status = Command::new("kill")
        .args([name, &child.id().to_string()])
        .status()
        .expect("kill");
    assert!(status.success());
}

#[cfg(target_os = "linux")]
#[test]
fn ctrl_c_during_a_build_leaves_the_old_site_and_no_staging_folder() {
    let sb = Sandbox::new();
    big_data(&sb);
    succeeds(&sb.run(&["build", "--out", "site"]));
    let index = fs::read(sb.path("site/index.html")).unwrap();
    let mut child = sb.spawn(&["build", "--data", "big", "--out", "site"]);
    wait_for_staging(&sb, &mut child);
    signal(&child, "-INT");
    let out = child.wait_with_output().unwrap();
    fails_saying(&out, "interrupted");
    assert_eq!(fs::read(sb.path("site/index.html")).unwrap(), index);
    assert_eq!(sb.names(), ["big", "data", "site", "static"]);
}

#[cfg(target_os = "linux")]
#[test]
fn a_second_build_into_one_folder_waits_its_turn_and_a_killed_one_is_cleaned_up() {
    let sb = Sandbox::new();
    big_data(&sb);
    let mut first = sb.spawn(&["build", "--data", "big", "--out", "site"]);
    let staging = wait_for_staging(&sb, &mut first);
    let second = sb.run(&["build", "--out", "site"]);
    fails_saying(&second, "site: another energyboard is writing this folder");
    // Killed outright: it leaves its staging folder and lock behind...
    signal(&first, "-KILL");
    first.wait().unwrap();
    assert!(sb.path(".site.lock").exists());
    assert!(staging.is_dir());
    // ...and the next build removes them.
    succeeds(&sb.run(&["build", "--out", "site"]));
    assert_eq!(sb.names(), ["big", "data", "site", "static"]);
}

#[test]
fn the_binary_builds_anywhere_with_built_in_assets_and_a_static_folder_overrides_them() {
    let sb = Sandbox::new();
    fs::remove_dir_all(sb.path("static")).unwrap();
    succeeds(&sb.run(&["build", "--out", "site"]));
    for name in ["style.css", "table.js", "favicon.svg"] {
        assert_eq!(
            fs::read(sb.path("site/assets").join(name)).unwrap(),
            fs::read(Path::new(ROOT).join("static").join(name)).unwrap(),
            "{name}"
        );
    }
    fs::create_dir(sb.path("static")).unwrap();
    fs::write(sb.path("static/style.css"), "body { color: red }\n").unwrap();
    succeeds(&sb.run(&["build", "--out", "site"]));
    assert_eq!(
        fs::read_to_string(sb.path("site/assets/style.css")).unwrap(),
        "body { color: red }\n"
    );
    assert!(sb.path("site/assets/table.js").is_file());
    fails_saying(
        &sb.run(&["build", "--static", "nowhere", "--out", "site"]),
        "--static nowhere: is not a folder",
    );
}

#[cfg(target_os = "linux")]
#[test]
fn synth_stopped_by_sigterm_leaves_no_half_written_output() {
    let sb = Sandbox::new();
    let mut child = sb.spawn(&["synth", "--count", "100000", "--out", "big"]);
    let start = Instant::now();
    while !fs::read_dir(sb.path("."))
        .unwrap()
        .filter_map(Result::ok)
        .any(|e| {
            e.file_name().to_string_lossy().starts_with(".big.tmp-")
                && fs::read_dir(e.path()).is_ok_and(|d| d.count() > 10)
        })
    {
        assert!(child.try_wait().unwrap().is_none(), "synth ended first");
        assert!(start.elapsed() < Duration::from_secs(60), "timed out");
        std::thread::sleep(Duration::from_millis(2));
    }
    signal(&child, "-TERM");
    let out = child.wait_with_output().unwrap();
    fails_saying(&out, "interrupted");
    assert_eq!(sb.names(), ["data", "static"]);
}

/// Whether git ignores `rel` under this repository's `.gitignore`.
fn git_ignores(rel: &str) -> bool {
    Command::new("git")
        .current_dir(ROOT)
        .args(["check-ignore", "--no-index", "-q", rel])
        .status()
        .expect("git")
        .success()
}

#[test]
fn every_leftover_a_killed_build_or_import_can_leave_is_ignored_by_git() {
    use energyboard::stage::{lock_name, staging_prefix};
    let import = energyboard::import::STAGE_NAME;
    let mut leftovers = Vec::new();
    for out in ["site", "_site"] {
        leftovers.push(lock_name(out));
        leftovers.push(format!("{}Ab12Cd/index.html", staging_prefix(out)));
        leftovers.push(format!("{}Ab12Cd.old/index.html", staging_prefix(out)));
    }
    for folder in ["data", "data/sources/example-lab"] {
        leftovers.push(format!("{folder}/{}", lock_name(import)));
        leftovers.push(format!(
            "{folder}/{}Ab12Cd/plan.json",
            staging_prefix(import)
        ));
    }
    for rel in &leftovers {
        assert!(git_ignores(rel), "{rel} is not in .gitignore");
    }
    // What the import writes is not ignored.
    for rel in [
        "data/.energyboard-import.json",
        "data/changes.json",
        "data/gpqa/x.json",
    ] {
        assert!(!git_ignores(rel), "{rel} is ignored");
    }
}

#[test]
fn every_workflow_action_is_pinned_to_a_commit_and_every_job_names_its_permissions() {
    let mut uses = 0;
    for entry in fs::read_dir(Path::new(ROOT).join(".github/workflows")).unwrap() {
        let path = entry.unwrap().path();
        let text = fs::read_to_string(&path).unwrap();
        for line in text.lines().filter(|l| {
            l.trim_start().starts_with("- uses:") || l.trim_start().starts_with("uses:")
        }) {
            let spec = line.split("uses:").nth(1).unwrap().trim();
            let (action, rest) = spec.split_once('@').unwrap_or((spec, ""));
            let (commit, comment) = rest.split_once(" # ").unwrap_or((rest, ""));
            assert!(
                commit.len() == 40 && commit.bytes().all(|b| b.is_ascii_hexdigit()),
                "{}: {action} is not pinned to a 40-hex commit: {line}",
                path.display()
            );
            assert!(
                comment.starts_with('v'),
                "{}: {action}: no tag in a comment",
                path.display()
            );
            uses += 1;
        }
        assert!(
            text.contains("\npermissions: {}\n"),
            "{}: no empty default permissions",
            path.display()
        );
        let jobs = text.split("\njobs:\n").nth(1).unwrap();
        let job_count = jobs
            .lines()
            .filter(|l| l.starts_with("  ") && !l.starts_with("   ") && l.ends_with(':'))
            .count();
        let with_permissions = jobs.matches("\n    permissions:\n").count();
        assert_eq!(
            job_count,
            with_permissions,
            "{}: a job without its own permissions",
            path.display()
        );
    }
    assert!(uses >= 7, "{uses} uses: lines");
    let dependabot = fs::read_to_string(Path::new(ROOT).join(".github/dependabot.yml")).unwrap();
    for ecosystem in ["github-actions", "cargo"] {
        assert!(
            dependabot.contains(&format!("package-ecosystem: {ecosystem}")),
            "{ecosystem}"
        );
    }
}
