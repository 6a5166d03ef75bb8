//! Hostile and broken input.
//!
//! Every test works in its own tempdir: it copies `data/` and `static/`,
//! builds a good site into `out/`, then runs `energyboard build` on a bad
//! data folder with `--out out` and checks what a user would see: the exit
//! code, a line naming the file, the field and the problem, and an `out/`
//! that is byte-for-byte as it was, with nothing left beside it.
//!
//! The builds run in this process through the library, as `main` calls it
//! (the same options, the error chain printed the same way), which takes
//! milliseconds where a process each took a second of a loaded machine. A
//! few cases run the real binary, where the process itself is the point:
//! its exit code and first stderr line, a note only `main` prints, control
//! characters that must not reach a terminal, the `--force` flag, and reads
//! that must not hang (a named pipe, `/dev/zero`).
//!
//! Most bad folders are committed under `tests/fixtures/invalid/` (made by
//! `tests/fixtures/generate.py`); the huge and odd ones are made here.

use crate::common::names;
use energyboard::stage::copy_tree;
use std::collections::BTreeMap;
use std::fs;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant, SystemTime};

use energyboard::{BuildOptions, Config};

const BIN: &str = env!("CARGO_BIN_EXE_energyboard");
const ROOT: &str = env!("CARGO_MANIFEST_DIR");
/// A run that takes longer than this has hung.
const TIMEOUT: Duration = Duration::from_secs(60);
/// The file name of the trimmed seed in every fixture.
const MODEL: &str = "qwen-3-32b.json";

/// A tempdir with `data/`, `static/` and a site built from them in `out/`.
/// Bad data goes into `bad/`.
struct Sandbox {
    dir: tempfile::TempDir,
}

/// Every entry under a folder: relative path → (modified time, bytes; no
/// bytes for a folder).
type Tree = BTreeMap<PathBuf, (SystemTime, Option<Vec<u8>>)>;

impl Sandbox {
    /// Copies the seed data and static folders and builds `out/` from them.
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
        sandbox.build_from("data", "out", false).succeeds();
        assert!(sandbox.path("out/index.html").is_file());
        sandbox
    }

    fn path(&self, rel: &str) -> PathBuf {
        self.dir.path().join(rel)
    }

    /// Copies `tests/fixtures/<kind>/<case>` into `bad/`.
    fn fixture(self, kind: &str, case: &str) -> Self {
        let from = Path::new(ROOT).join("tests/fixtures").join(kind).join(case);
        assert!(from.is_dir(), "no fixture {}", from.display());
        copy_tree(&from, &self.path("bad")).unwrap();
        self
    }

    /// `bad/` made by `make`, starting from an empty folder.
    fn bad_data(self, make: impl FnOnce(&Path)) -> Self {
        let bad = self.path("bad");
        fs::create_dir(&bad).unwrap();
        make(&bad);
        self
    }

    /// `energyboard build --data bad --out out`, in this process.
    fn build(&self) -> Run {
        self.build_from("bad", "out", false)
    }

    /// `energyboard build --data <data> --out <out> --static static
    /// [--force]` run in the sandbox, in this process: the options `main`
    /// makes (no settings file in the sandbox), and on failure the error
    /// chain as `main` prints it, with the sandbox's path taken out so that
    /// paths read as they do in a run from inside it. Fails the test if the
    /// build takes longer than [`TIMEOUT`].
    fn build_from(&self, data: &str, out: &str, force: bool) -> Run {
        let before = (names(self.dir.path()), tree(&self.path("out")));
        let settings = self.path("energyboard.toml");
        let config = Config::load(&settings).unwrap();
        let options = BuildOptions {
            data_dir: self.path(data),
            static_dir: self.path("static"),
            out_dir: self.path(out),
            force,
            base_url: config.base_url(),
            repository: config.repository(),
            footprint: config.footprint(&settings).unwrap(),
            workloads: config.workloads,
        };
        let (send, receive) = mpsc::channel();
        std::thread::spawn(move || send.send(energyboard::build(&options).map(|s| s.to_string())));
        let args = format!("build --data {data} --out {out}");
        let result = receive
            .recv_timeout(TIMEOUT)
            .unwrap_or_else(|_| panic!("`energyboard {args}` hung for {TIMEOUT:?}"));
        let sandbox = format!("{}/", self.dir.path().display());
        let (code, stdout, stderr) = match result {
            Ok(summary) => (0, format!("built {out}: {summary}\n"), String::new()),
            Err(err) => (
                1,
                String::new(),
                format!("error: {err:#}\n").replace(&sandbox, ""),
            ),
        };
        Run {
            args,
            before,
            after: (names(self.dir.path()), tree(&self.path("out"))),
            code: Some(code),
            stdout,
            stderr,
        }
    }

    /// Runs the real binary in the sandbox with `args` (and `--static
    /// static`), failing the test if it runs longer than [`TIMEOUT`].
    fn run_binary(&self, args: &[&str]) -> Run {
        let before = (names(self.dir.path()), tree(&self.path("out")));
        let child = Command::new(BIN)
            .args(args)
            .args(["--static", "static"])
            .current_dir(self.dir.path())
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("run energyboard");
        let (status, stdout, stderr) = wait(child, args);
        Run {
            args: args.join(" "),
            before,
            after: (names(self.dir.path()), tree(&self.path("out"))),
            code: status.code(),
            stdout,
            stderr,
        }
    }

    /// `energyboard build --data bad --out out` by the real binary.
    fn build_binary(&self) -> Run {
        self.run_binary(&["build", "--data", "bad", "--out", "out"])
    }
}

/// One finished run: what it printed, and the names beside `out/` and the
/// entries in it, before and after.
struct Run {
    args: String,
    before: (Vec<String>, Tree),
    after: (Vec<String>, Tree),
    /// The exit code (0 or 1 for a build in this process).
    code: Option<i32>,
    stdout: String,
    stderr: String,
}

impl Run {
    fn succeeds(self) -> Self {
        assert_eq!(
            self.code,
            Some(0),
            "`energyboard {}` failed:\n{}",
            self.args,
            self.stderr
        );
        self
    }

    /// Exit code 1, `out/` exactly as before, nothing new beside it.
    fn fails(self) -> Self {
        assert_eq!(
            self.code,
            Some(1),
            "`energyboard {}` should fail; stdout:\n{}\nstderr:\n{}",
            self.args,
            self.stdout,
            self.stderr
        );
        assert!(
            self.stderr.starts_with("error: "),
            "stderr: {}",
            self.stderr
        );
        let ((names, out), (names_after, out_after)) = (&self.before, &self.after);
        assert_eq!(
            names_after, names,
            "a failed build left something beside out/"
        );
        let changed: Vec<_> = out
            .keys()
            .chain(out_after.keys())
            .filter(|k| out.get(*k) != out_after.get(*k))
            .collect();
        assert!(
            changed.is_empty(),
            "a failed build changed out/: {changed:?}"
        );
        self
    }

    /// The stderr line for `rel` (a path inside the sandbox) and `field`
    /// says `message`.
    fn problem(self, rel: &str, field: &str, message: &str) -> Self {
        let prefix = format!("  {rel}: {field}: ");
        let line = self
            .stderr
            .lines()
            .find(|l| l.starts_with(&prefix))
            .unwrap_or_else(|| panic!("no line starting {prefix:?} in stderr:\n{}", self.stderr));
        assert!(
            line.contains(message),
            "expected {message:?} in the line:\n{line}"
        );
        self
    }

    /// [`Run::problem`] for the usual model file in `bad/`.
    fn model_problem(self, field: &str, message: &str) -> Self {
        self.problem(&format!("bad/{MODEL}"), field, message)
    }

    fn no_control_characters(self) -> Self {
        assert!(
            !self.stderr.chars().any(|c| c.is_control() && c != '\n'),
            "stderr carries control characters: {:?}",
            self.stderr
        );
        self
    }

    fn stderr_has(self, text: &str) -> Self {
        assert!(
            self.stderr.contains(text),
            "expected {text:?} in stderr:\n{}",
            self.stderr
        );
        self
    }
}

fn wait(mut child: Child, args: &[&str]) -> (std::process::ExitStatus, String, String) {
    let mut out_pipe = child.stdout.take().unwrap();
    let mut err_pipe = child.stderr.take().unwrap();
    let out = std::thread::spawn(move || {
        let mut s = String::new();
        out_pipe.read_to_string(&mut s).map(|_| s)
    });
    let err = std::thread::spawn(move || {
        let mut s = String::new();
        err_pipe.read_to_string(&mut s).map(|_| s)
    });
    let start = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if start.elapsed() > TIMEOUT {
            let _ = child.kill();
            let _ = child.wait();
            panic!("`energyboard {}` hung for {TIMEOUT:?}", args.join(" "));
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    (
        status,
        out.join().unwrap().unwrap(),
        err.join().unwrap().unwrap(),
    )
}

fn tree(dir: &Path) -> Tree {
    let mut out = Tree::new();
    if dir.exists() {
        collect(dir, dir, &mut out);
    }
    out
}

fn collect(root: &Path, dir: &Path, out: &mut Tree) {
    for entry in fs::read_dir(dir).unwrap() {
        let entry = entry.unwrap();
        let path = entry.path();
        let meta = fs::symlink_metadata(&path).unwrap();
        let rel = path.strip_prefix(root).unwrap().to_path_buf();
        if meta.is_dir() {
            out.insert(rel, (meta.modified().unwrap(), None));
            collect(root, &path, out);
        } else {
            out.insert(
                rel,
                (meta.modified().unwrap(), Some(fs::read(&path).unwrap())),
            );
        }
    }
}

/// Builds `tests/fixtures/invalid/<case>` over a good site; it must fail.
fn invalid(case: &str) -> Run {
    Sandbox::new().fixture("invalid", case).build().fails()
}

/// Builds a data folder made by `make` over a good site; it must fail.
fn with_bad_data(make: impl FnOnce(&Path)) -> Run {
    Sandbox::new().bad_data(make).build().fails()
}

fn seed_text() -> String {
    fs::read_to_string(Path::new(ROOT).join("tests/fixtures/seeds/qwen-3-32b.json")).unwrap()
}

/// The seed with `"future": <value>` added as the first field.
fn seed_with_extra(value: &str) -> String {
    let text = seed_text();
    let rest = text.strip_prefix('{').unwrap();
    format!("{{\"future\": {value},{rest}")
}

// ---------------------------------------------------------------------------
// Syntax and encoding.

#[test]
fn truncated_json_names_the_object_it_ends_in() {
    invalid("truncated-json").model_problem(
        "configurations[1]",
        "the file ends too early (truncated JSON?)",
    );
}

#[test]
fn byte_order_mark_is_refused() {
    invalid("byte-order-mark").model_problem("(file)", "starts with a UTF-8 byte-order mark");
}

#[test]
fn trailing_garbage_after_the_document_is_refused() {
    invalid("trailing-garbage").model_problem("(file)", "invalid JSON: trailing characters");
}

#[test]
fn empty_file_is_refused() {
    invalid("empty-file").model_problem("(file)", "the file ends too early");
}

#[test]
fn a_list_instead_of_an_object_is_refused() {
    invalid("top-level-list").model_problem("(file)", "expected an object, found a list");
}

#[test]
fn nan_is_not_json() {
    invalid("nan-literal").model_problem("configurations[0].median_itl_ms", "invalid JSON");
}

#[test]
fn invalid_utf8_names_the_field_it_is_in() {
    with_bad_data(|bad| {
        let text = seed_text();
        let at = text.find("Qwen 3 32B").unwrap() + "Qwen ".len();
        let mut bytes = text.into_bytes();
        bytes[at] = 0xFF;
        fs::write(bad.join(MODEL), bytes).unwrap();
    })
    .model_problem("name", "is not valid UTF-8: invalid byte at offset");
}

#[test]
fn nesting_100000_deep_is_an_error_not_a_stack_overflow() {
    with_bad_data(|bad| {
        let depth = 100_000;
        let text = format!("{}{}", "[".repeat(depth), "]".repeat(depth));
        fs::write(bad.join(MODEL), text).unwrap();
    })
    .model_problem(
        &format!("{}…", "[0]".repeat(12)),
        "arrays and objects are nested more than 128 levels deep",
    );
}

#[test]
fn nesting_100000_deep_in_an_unknown_field_is_an_error() {
    with_bad_data(|bad| {
        let depth = 100_000;
        let deep = format!("{}{}", "{\"a\":".repeat(depth), "}".repeat(depth));
        fs::write(bad.join(MODEL), seed_with_extra(&deep)).unwrap();
    })
    .model_problem(
        &format!("future{}…", ".a".repeat(11)),
        "arrays and objects are nested more than 128 levels deep",
    );
}

#[test]
fn a_50_mb_file_is_refused_before_it_is_read() {
    with_bad_data(|bad| {
        let pad = format!("\"{}\"", "x".repeat(50_000_000));
        fs::write(bad.join(MODEL), seed_with_extra(&pad)).unwrap();
    })
    .model_problem("(file)", "is 50.0 MB; a model file may be at most 16 MB");
}

// ---------------------------------------------------------------------------
// Types.

#[test]
fn string_where_a_number_belongs_names_the_field() {
    invalid("string-for-number").model_problem(
        "configurations[1].median_itl_ms",
        "expected a number, found the string \"fast\"",
    );
}

#[test]
fn number_too_large_for_a_float_is_refused() {
    invalid("number-too-large-for-float").model_problem(
        "configurations[1].wh_per_million_output_tokens",
        "the number is too large for a 64-bit float",
    );
}

#[test]
fn negative_gpu_count_is_a_type_error() {
    invalid("negative-num-gpus").model_problem(
        "configurations[3].num_gpus",
        "expected a whole number from 0 to 4294967295, found the number -2",
    );
}

#[test]
fn max_num_seqs_beyond_u32_says_the_range() {
    invalid("max-num-seqs-too-large").model_problem(
        "configurations[0].max_num_seqs",
        "expected a whole number from 0 to 4294967295, found the number 4294967296",
    );
}

#[test]
fn null_where_a_string_belongs_is_refused() {
    invalid("null-for-string").model_problem("name", "expected a string, found null");
}

// ---------------------------------------------------------------------------
// Missing fields.

#[test]
fn missing_field_names_the_field_itself() {
    invalid("missing-field")
        .model_problem("configurations[2].median_itl_ms", "is required but missing");
}

#[test]
fn missing_top_level_field_names_it() {
    invalid("missing-top-level-field").model_problem("slug", "is required but missing");
}

#[test]
fn a_missing_deadline_or_the_other_kinds_deadline_is_refused() {
    with_bad_data(|bad| {
        fs::write(
            bad.join(MODEL),
            seed_text().replace("\"itl_deadline_ms\": 500,", ""),
        )
        .unwrap();
    })
    .model_problem(
        "itl_deadline_ms",
        "is required but missing: the latency deadline for \"best\", in ms",
    );
    with_bad_data(|bad| {
        let text = seed_text().replace(
            "\"itl_deadline_ms\": 500,",
            "\"itl_deadline_ms\": 500, \"batch_latency_deadline_s\": 30,",
        );
        fs::write(bad.join(MODEL), text).unwrap();
    })
    .model_problem("batch_latency_deadline_s", "is a diffusion field");
}

#[test]
fn missing_field_in_best_names_the_gpu() {
    invalid("missing-field-in-best").model_problem("best.H100.row_id", "is required but missing");
}

// ---------------------------------------------------------------------------
// Quantities that cannot be zero or negative (non-finite ones cannot be
// written in JSON: see `number_too_large_for_a_float_is_refused` and the
// property tests in tests/it/fuzz.rs).

#[test]
fn negative_energy_is_refused() {
    invalid("negative-energy")
        .model_problem(
            "configurations[1].wh_per_million_output_tokens",
            "must be greater than zero, found -39.05",
        )
        .model_problem(
            "configurations[1].joules_per_output_token",
            "must be greater than zero, found -0.1405812",
        );
}

#[test]
fn zero_energy_is_refused() {
    invalid("zero-energy").model_problem(
        "configurations[1].joules_per_output_token",
        "must be greater than zero, found 0",
    );
}

#[test]
fn negative_latency_is_refused() {
    invalid("negative-latency").model_problem(
        "configurations[0].median_itl_ms",
        "must be greater than zero, found -19.6",
    );
}

#[test]
fn zero_throughput_is_refused() {
    invalid("zero-throughput").model_problem(
        "configurations[2].tokens_per_second",
        "must be greater than zero, found 0",
    );
}

#[test]
fn negative_power_is_refused() {
    invalid("negative-power").model_problem(
        "configurations[3].gpu_power_watts_total",
        "must be greater than zero, found -1178",
    );
}

#[test]
fn zero_output_tokens_is_refused() {
    invalid("zero-output-tokens").model_problem(
        "configurations[0].avg_output_tokens",
        "must be greater than zero, found 0",
    );
}

#[test]
fn zero_max_num_seqs_is_refused() {
    invalid("zero-max-num-seqs").model_problem(
        "configurations[0].max_num_seqs",
        "must be 1 or more, found 0",
    );
}

#[test]
fn zero_gpus_is_refused() {
    invalid("zero-num-gpus")
        .model_problem("configurations[3].num_gpus", "must be 1 or more, found 0");
}

// ---------------------------------------------------------------------------
// Names that become paths or links.

#[test]
fn slug_with_dot_dot_is_refused() {
    invalid("slug-with-dot-dot").model_problem("slug", "\"../etc/passwd\" is not a valid slug");
}

#[test]
fn slug_with_slash_is_refused() {
    invalid("slug-with-slash").model_problem("slug", "\"qwen/3-32b\" is not a valid slug");
}

#[test]
fn slug_with_capitals_is_refused() {
    invalid("slug-upper-case").model_problem("slug", "\"Qwen-3-32B\" is not a valid slug");
}

#[test]
fn blank_name_is_refused() {
    invalid("empty-name").model_problem("name", "must not be empty");
}

#[test]
fn gpu_names_that_share_a_page_are_refused() {
    invalid("gpu-names-collide").model_problem(
        "gpus[2]",
        "\"b200\" repeats \"B200\" (both become /gpus/b200/)",
    );
}

#[test]
fn source_url_must_be_a_web_address() {
    invalid("source-url-not-http")
        .model_problem("source.url", "\"javascript:alert(1)\" is not a web address");
}

#[test]
fn control_characters_in_a_row_id_do_not_reach_the_terminal() {
    Sandbox::new()
        .fixture("invalid", "control-characters-in-row-id")
        .build_binary()
        .fails()
        .model_problem(
            "configurations[0].median_itl_ms",
            "(row \"qwen-3-32b/B200/1/64\\u{1b}[2J\")",
        )
        .no_control_characters();
}

#[test]
fn control_characters_in_a_key_do_not_reach_the_terminal() {
    invalid("control-characters-in-a-key")
        .model_problem("[\"x\\u{1b}key\"]", "too large for a 64-bit float")
        .no_control_characters();
}

// ---------------------------------------------------------------------------
// Consistency within a file.

#[test]
fn empty_configurations_is_refused() {
    invalid("empty-configurations").model_problem("configurations", "is empty");
}

#[test]
fn gpu_missing_from_gpus_is_refused() {
    invalid("gpu-not-in-gpus").model_problem(
        "configurations[2].gpu",
        "\"A100\" is not in the file's gpus list [\"B200\", \"H100\"]",
    );
}

#[test]
fn duplicate_row_id_names_both_rows() {
    invalid("duplicate-row-id").model_problem(
        "configurations[3].row_id",
        "duplicate row_id \"qwen-3-32b/H100/2/64\": configurations[2] has it too",
    );
}

#[test]
fn under_itl_deadline_must_match_the_latency() {
    invalid("inconsistent-under-itl-deadline").model_problem(
        "configurations[0].under_itl_deadline",
        "is false but median_itl_ms 19.6 is within the deadline itl_deadline_ms 500",
    );
}

#[test]
fn joules_per_token_and_wh_per_million_must_agree() {
    invalid("energy-units-disagree").model_problem(
        "configurations[2].wh_per_million_output_tokens",
        "is 101.96 but joules_per_output_token 0.5 × 1e6 / 3600 = 138.8889; the two disagree",
    );
}

#[test]
fn best_that_is_not_the_cheapest_is_refused() {
    invalid("inconsistent-best").model_problem(
        "best.B200",
        "names qwen-3-32b/B200/1/64 (86.84 Wh/M) but the lowest-energy B200 configuration \
         within the 500 ms deadline is qwen-3-32b/B200/1/384 (39.05 Wh/M)",
    );
}

#[test]
fn best_with_figures_unlike_its_row_is_refused() {
    invalid("best-figures-differ").model_problem(
        "best.H100",
        "names qwen-3-32b/H100/2/256 but its figures differ from that row",
    );
}

#[test]
fn best_naming_a_tied_row_with_wrong_figures_is_refused() {
    invalid("tied-best-with-wrong-figures").model_problem(
        "best.H100",
        "names qwen-3-32b/H100/2/256/r2 but its figures differ from that row",
    );
}

#[test]
fn best_missing_for_a_gpu_is_refused() {
    invalid("best-missing-for-a-gpu").model_problem(
        "best.H100",
        "is missing; the best configuration under the 500 ms deadline is qwen-3-32b/H100/2/256",
    );
}

#[test]
fn best_for_a_gpu_not_in_gpus_is_refused() {
    invalid("best-for-a-gpu-not-in-gpus")
        .model_problem("best.A100", "\"A100\" is not in the file's gpus list");
}

// ---------------------------------------------------------------------------
// Across files and the data folder itself.

#[test]
fn duplicate_slug_names_both_files() {
    invalid("duplicate-slug").model_problem(
        "slug",
        "\"qwen-3-32b\" is already used by bad/qwen-3-32b-copy.json",
    );
}

#[test]
fn every_bad_file_is_reported_in_one_run() {
    Sandbox::new()
        .fixture("invalid", "every-bad-file-reported")
        .build_binary()
        .fails()
        .stderr_has("error: 3 problems in 2 files:")
        .problem(
            "bad/first.json",
            "configurations[2].median_itl_ms",
            "is required but missing",
        )
        .problem(
            "bad/second.json",
            "configurations[1].wh_per_million_output_tokens",
            "must be greater than zero",
        );
}

#[test]
fn empty_data_folder_is_an_error() {
    with_bad_data(|_| {}).problem("bad", "(folder)", "holds no model files (*.json)");
}

#[test]
fn missing_data_folder_is_an_error() {
    let sandbox = Sandbox::new();
    sandbox.build_from("nowhere", "out", false).fails().problem(
        "nowhere",
        "(folder)",
        "cannot read the data folder",
    );
}

#[test]
fn data_folder_that_is_a_file_is_an_error() {
    let sandbox = Sandbox::new();
    sandbox
        .build_from("data/qwen-3-32b.json", "out", false)
        .fails()
        .problem("data/qwen-3-32b.json", "(folder)", "is not a folder");
}

#[test]
fn directory_named_like_a_model_file_is_an_error() {
    with_bad_data(|bad| {
        fs::write(bad.join(MODEL), seed_text()).unwrap();
        fs::create_dir(bad.join("x.json")).unwrap();
    })
    .problem("bad/x.json", "(file)", "is a folder, not a model file");
}

#[cfg(unix)]
#[test]
fn symlink_loop_under_data_is_an_error() {
    with_bad_data(|bad| {
        fs::write(bad.join(MODEL), seed_text()).unwrap();
        fs::create_dir(bad.join("sub")).unwrap();
        std::os::unix::fs::symlink("..", bad.join("sub/loop")).unwrap();
    })
    .problem("bad/sub/loop", "(file)", "symbolic link loop");
}

#[cfg(unix)]
#[test]
fn symlink_to_itself_is_an_error() {
    with_bad_data(|bad| {
        fs::write(bad.join(MODEL), seed_text()).unwrap();
        std::os::unix::fs::symlink("self.json", bad.join("self.json")).unwrap();
    })
    .problem("bad/self.json", "(file)", "cannot read");
}

#[cfg(unix)]
#[test]
fn dangling_symlink_is_an_error() {
    with_bad_data(|bad| {
        fs::write(bad.join(MODEL), seed_text()).unwrap();
        std::os::unix::fs::symlink("gone.json", bad.join("link.json")).unwrap();
    })
    .problem("bad/link.json", "(file)", "cannot read");
}

#[cfg(unix)]
#[test]
fn named_pipe_called_json_is_an_error_not_a_hang() {
    Sandbox::new()
        .bad_data(|bad| {
            let status = Command::new("mkfifo")
                .arg(bad.join("pipe.json"))
                .status()
                .expect("mkfifo");
            assert!(status.success());
        })
        .build_binary()
        .fails()
        .problem("bad/pipe.json", "(file)", "is not a regular file");
}

#[cfg(target_os = "linux")]
#[test]
fn symlink_to_an_endless_device_is_an_error_not_a_hang() {
    Sandbox::new()
        .bad_data(|bad| {
            std::os::unix::fs::symlink("/dev/zero", bad.join("zero.json")).unwrap();
        })
        .build_binary()
        .fails()
        .problem("bad/zero.json", "(file)", "is not a regular file");
}

// ---------------------------------------------------------------------------
// The output folder.

#[test]
fn out_folder_energyboard_did_not_make_is_refused_untouched() {
    let sandbox = Sandbox::new();
    let mine = sandbox.path("mine");
    fs::create_dir_all(mine.join("sub")).unwrap();
    fs::write(mine.join("notes.txt"), "my notes").unwrap();
    fs::write(mine.join("sub/keep.bin"), [0u8, 1, 2]).unwrap();
    let before = tree(&mine);
    sandbox
        .run_binary(&["build", "--data", "data", "--out", "mine"])
        .fails()
        .stderr_has("mine: is not empty and was not built by energyboard")
        .stderr_has("--force");
    assert_eq!(tree(&mine), before, "a refused build touched mine/");

    sandbox
        .run_binary(&["build", "--data", "data", "--out", "mine", "--force"])
        .succeeds();
    assert!(mine.join(".energyboard").is_file());
    assert!(mine.join("index.html").is_file());
    assert!(!mine.join("notes.txt").exists());
}

#[test]
fn out_that_is_a_file_is_refused() {
    let sandbox = Sandbox::new();
    fs::write(sandbox.path("page.html"), "mine").unwrap();
    sandbox
        .build_from("data", "page.html", false)
        .fails()
        .stderr_has("page.html: exists and is not a folder");
    assert_eq!(fs::read(sandbox.path("page.html")).unwrap(), b"mine");
}

#[test]
fn leftover_folder_from_a_crashed_swap_does_not_block_the_next_build() {
    // Before the fix, the old site was moved aside to `.out.old`; a folder
    // left there by a crash made every later build fail.
    let sandbox = Sandbox::new();
    fs::create_dir_all(sandbox.path(".out.old/index.html")).unwrap();
    sandbox.build_from("data", "out", false).succeeds();
    assert!(sandbox.path(".out.old/index.html").is_dir());
    assert_eq!(
        names(sandbox.dir.path()),
        [".out.old", "data", "out", "static"]
    );
}

// ---------------------------------------------------------------------------
// Input that must build.

/// Every output file whose type a browser would run markup in.
fn markup_files(out: &Path) -> Vec<(PathBuf, String)> {
    tree(out)
        .into_iter()
        .filter(|(p, _)| {
            p.extension()
                .and_then(|e| e.to_str())
                .is_some_and(|e| matches!(e, "html" | "htm" | "svg" | "xml" | "xhtml"))
        })
        .map(|(p, (_, bytes))| (p, String::from_utf8(bytes.unwrap()).unwrap()))
        .collect()
}

/// One element of a parsed page or chart.
struct Element {
    name: String,
    attrs: Vec<(String, String)>,
    own_text: String,
}

fn svg_elements(path: &Path, text: &str) -> Vec<Element> {
    let doc = roxmltree::Document::parse(text)
        .unwrap_or_else(|e| panic!("{} is not XML: {e}", path.display()));
    doc.descendants()
        .filter(roxmltree::Node::is_element)
        .map(|n| Element {
            name: n.tag_name().name().to_owned(),
            attrs: n
                .attributes()
                .map(|a| (a.name().to_owned(), a.value().to_owned()))
                .collect(),
            own_text: n.text().unwrap_or_default().to_owned(),
        })
        .collect()
}

fn html_elements(text: &str) -> Vec<Element> {
    let doc = scraper::Html::parse_document(text);
    doc.tree
        .nodes()
        .filter_map(|n| n.value().as_element().map(|e| (n, e)))
        .map(|(n, e)| Element {
            name: e.name().to_owned(),
            attrs: e
                .attrs()
                .map(|(k, v)| (k.to_owned(), v.to_owned()))
                .collect(),
            own_text: n
                .children()
                .filter_map(|c| c.value().as_text().map(|t| t.to_string()))
                .collect(),
        })
        .collect()
}

#[test]
fn markup_in_names_is_escaped_on_every_page_and_chart() {
    let sandbox = Sandbox::new().fixture("valid", "script-in-names");
    sandbox.build().succeeds();
    let files = markup_files(&sandbox.path("out"));
    assert!(
        files.iter().any(|(p, _)| p == Path::new("index.html")),
        "no index.html among {:?}",
        files.iter().map(|(p, _)| p).collect::<Vec<_>>()
    );
    for (path, text) in &files {
        for raw in ["<script>alert(1)", "<img src=x", "<b>bold</b>"] {
            assert!(
                !text.contains(raw),
                "{} contains {raw:?} unescaped",
                path.display()
            );
        }
        let is_svg = path.extension().is_some_and(|e| e == "svg");
        let elements = if is_svg {
            svg_elements(path, text)
        } else {
            html_elements(text)
        };
        for Element {
            name,
            attrs,
            own_text,
        } in elements
        {
            // A JSON data block (the latency-limit control's) may carry
            // the text, as data: it must not run, and no `<` in it can
            // close the element early.
            let data_block = attrs
                .iter()
                .any(|(a, v)| a == "type" && v == "application/json");
            if name == "script" && data_block {
                assert!(
                    !own_text.contains('<')
                        && serde_json::from_str::<serde_json::Value>(&own_text).is_ok(),
                    "{}: a JSON data block is not plain JSON without '<'",
                    path.display()
                );
            }
            assert!(
                !(name == "script" && !data_block && own_text.contains("alert(1)")),
                "{}: a <script> runs the model name",
                path.display()
            );
            assert!(
                name != "img" || !attrs.iter().any(|(_, v)| v == "x"),
                "{}: the architecture field became an <img>",
                path.display()
            );
            for (attr, value) in attrs {
                assert!(
                    !attr.starts_with("on") || !value.contains("alert(1)"),
                    "{}: <{name} {attr}={value:?}> came from the data",
                    path.display()
                );
                assert!(
                    !value
                        .trim_start()
                        .to_ascii_lowercase()
                        .starts_with("javascript:"),
                    "{}: <{name} {attr}={value:?}> is a javascript: URL",
                    path.display()
                );
            }
        }
    }
}

#[test]
fn unknown_extra_fields_are_accepted() {
    let sandbox = Sandbox::new().fixture("valid", "unknown-extra-fields");
    sandbox.build().succeeds();
    assert!(
        sandbox
            .path("out/workloads/lm-arena-chat/models/qwen-3-32b/index.html")
            .is_file()
    );
}

#[test]
fn best_may_name_either_of_two_tied_runs() {
    Sandbox::new()
        .fixture("valid", "tied-best-names-the-repeat")
        .build()
        .succeeds();
}

#[test]
fn hidden_files_are_ignored_and_other_files_are_noted() {
    let sandbox = Sandbox::new().fixture("valid", "hidden-and-other-files-skipped");
    sandbox
        .build_binary()
        .succeeds()
        .stderr_has("note: skipped bad/README.txt (not a .json model file)");
    let run = sandbox.build_binary().succeeds();
    assert!(!run.stderr.contains(".draft.json"), "{}", run.stderr);
}

#[test]
fn the_same_slug_twice_in_one_workload_names_both_files() {
    invalid("duplicate-slug-and-workload").problem(
        "bad/second/qwen-3-32b.json",
        "slug",
        "\"qwen-3-32b\" is already used by bad/first/qwen-3-32b.json in the same workload \"lm-arena-chat\"",
    );
}

#[test]
fn files_of_one_workload_that_disagree_on_the_deadline_name_both_files() {
    invalid("workloads-disagree-on-deadline").problem(
        "bad/qwen-3-32b.json",
        "itl_deadline_ms",
        "is 500 ms but bad/gpt-oss-20b.json gives 250 ms for the same workload \"gpqa\"",
    );
}

#[test]
fn a_workload_id_that_is_not_a_path_segment_is_refused() {
    invalid("workload-id-not-a-path-segment").model_problem(
        "source.workload",
        "workload id \"../etc\" is not a valid path segment",
    );
    invalid("workload-object-bad-id").model_problem(
        "workload.id",
        "workload id \"Has Spaces\" is not a valid path segment",
    );
}

#[test]
fn a_workload_without_an_id_is_refused() {
    with_bad_data(|bad| {
        let text = seed_text().replace(
            "\"workload\": \"Text Conversation (lm-arena-chat)\"",
            "\"workload\": \"Text Conversation\"",
        );
        fs::write(bad.join(MODEL), text).unwrap();
    })
    .model_problem("source.workload", "names no workload id");
}

#[test]
fn the_same_slug_on_two_workloads_builds_two_pages_and_one_overview() {
    let sandbox = Sandbox::new().fixture("valid", "same-slug-two-workloads");
    sandbox.build().succeeds();
    let out = sandbox.path("out");
    for page in [
        "workloads/lm-arena-chat/models/qwen-3-32b/index.html",
        "workloads/gpqa/models/qwen-3-32b/index.html",
        "models/qwen-3-32b/index.html",
    ] {
        assert!(out.join(page).is_file(), "{page}");
    }
    // The explicit workload object wins over source.workload.
    let gpqa = fs::read_to_string(out.join("workloads/gpqa/index.html")).unwrap();
    assert!(
        gpqa.contains("<h1>Problem Solving with Reasoning</h1>"),
        "{gpqa}"
    );
}

// ---------------------------------------------------------------------------
// Diffusion files (kind image or video).

#[test]
fn a_diffusion_file_with_per_token_fields_names_the_field() {
    invalid("diffusion-with-per-token-fields").problem(
        "bad/flux-1-dev.json",
        "configurations[3].joules_per_output_token",
        "is a per-token field, which a diffusion configuration must not carry",
    );
}

#[test]
fn a_diffusion_row_without_batch_latency_is_refused() {
    invalid("diffusion-missing-batch-latency").problem(
        "bad/flux-1-dev.json",
        "configurations[1].batch_latency_s",
        "is required but missing",
    );
}

#[test]
fn a_per_token_row_with_a_diffusion_field_is_refused() {
    with_bad_data(|bad| {
        let text = seed_text().replacen(
            "\"max_num_seqs\": 8,",
            "\"max_num_seqs\": 8, \"batch_size\": 8,",
            1,
        );
        fs::write(bad.join(MODEL), text).unwrap();
    })
    .model_problem(
        "configurations[0].batch_size",
        "is a diffusion field, which a per-token configuration (a file without a kind) must not carry",
    );
}

#[test]
fn a_diffusion_row_with_a_response_histogram_is_refused() {
    with_bad_data(|bad| {
        let text = diffusion_text("text-to-image", "pixart").replacen(
            "\"joules_per_image\": 611.37,",
            "\"joules_per_image\": 611.37, \"avg_output_tokens_exact\": 612.5,",
            1,
        );
        fs::write(bad.join("pixart.json"), text).unwrap();
    })
    .problem(
        "bad/pixart.json",
        "configurations[0].avg_output_tokens_exact",
        "is a per-token field, which a diffusion configuration must not carry",
    );
}

#[test]
fn a_video_row_without_frames_is_refused() {
    invalid("diffusion-video-without-frames").problem(
        "bad/wan-2-1-14b.json",
        "configurations[0].num_frames",
        "is required in a file of kind \"video\" but missing (row wan-2-1-14b/B200/1/b1)",
    );
}

fn diffusion_text(workload: &str, slug: &str) -> String {
    fs::read_to_string(
        Path::new(ROOT)
            .join("tests/fixtures/diffusion")
            .join(workload)
            .join(format!("{slug}.json")),
    )
    .unwrap()
}

#[test]
fn an_image_file_with_video_fields_or_a_wrong_unit_is_refused() {
    with_bad_data(|bad| {
        let text = diffusion_text("text-to-image", "pixart")
            .replacen("\"unit\": \"J per image\"", "\"unit\": \"J per video\"", 1)
            .replacen(
                "\"image_width\": 1024,",
                "\"image_width\": 1024, \"fps\": 16,",
                1,
            );
        fs::write(bad.join("pixart.json"), text).unwrap();
    })
    .problem(
        "bad/pixart.json",
        "unit",
        "is \"J per video\" but a file of kind \"image\" must say \"J per image\"",
    )
    .problem(
        "bad/pixart.json",
        "configurations[0].fps",
        "belongs to kind \"video\", but the file's kind is \"image\"",
    );
}

#[test]
fn sequence_parallel_degrees_must_multiply_to_the_gpu_count() {
    with_bad_data(|bad| {
        let text = diffusion_text("text-to-image", "pixart").replacen(
            "\"ring_degree\": 1,",
            "\"ring_degree\": 2,",
            1,
        );
        fs::write(bad.join("pixart.json"), text).unwrap();
    })
    .problem(
        "bad/pixart.json",
        "configurations[0].num_gpus",
        "is 1 but ulysses_degree 1 × ring_degree 2 = 2",
    );
}

#[test]
fn a_workload_cannot_mix_per_token_and_diffusion_files() {
    with_bad_data(|bad| {
        fs::write(bad.join(MODEL), seed_text()).unwrap();
        let text = diffusion_text("text-to-image", "pixart").replacen(
            "\"Text to Image (text-to-image)\"",
            "\"Text to Image (lm-arena-chat)\"",
            1,
        );
        fs::write(bad.join("pixart.json"), text).unwrap();
    })
    .problem(
        &format!("bad/{MODEL}"),
        "kind",
        "the file is a per-token file (no kind) but bad/pixart.json is kind \"image\" in the same workload \"lm-arena-chat\"",
    );
}

#[test]
fn diffusion_files_of_one_workload_share_their_deadline() {
    with_bad_data(|bad| {
        fs::write(
            bad.join("pixart.json"),
            diffusion_text("text-to-image", "pixart"),
        )
        .unwrap();
        let text = diffusion_text("text-to-image", "flux-1-dev").replacen(
            "\"batch_latency_deadline_s\": 30,",
            "\"batch_latency_deadline_s\": 30.0001,",
            1,
        );
        fs::write(bad.join("flux-1-dev.json"), text).unwrap();
    })
    .problem(
        "bad/pixart.json",
        "batch_latency_deadline_s",
        "is 30 s but bad/flux-1-dev.json gives 30.0001 s for the same workload \"text-to-image\"",
    );
}

// ---------------------------------------------------------------------------
// Limits of the format (src/load/limits.rs).

/// The seed with `change` applied to its JSON value, written to `bad/`.
fn seed_changed(change: impl FnOnce(&mut serde_json::Value)) -> Run {
    with_bad_data(|bad| {
        let mut value: serde_json::Value = serde_json::from_str(&seed_text()).unwrap();
        change(&mut value);
        fs::write(
            bad.join(MODEL),
            serde_json::to_string_pretty(&value).unwrap(),
        )
        .unwrap();
    })
}

#[test]
fn a_latency_near_the_top_of_the_float_range_is_refused_not_drawn_for_minutes() {
    let start = Instant::now();
    seed_changed(|v| v["configurations"][0]["p99_itl_ms"] = serde_json::json!(1.7e308))
        .model_problem(
            "configurations[0].p99_itl_ms",
            "1.7e308 is out of range; at most 10000000 ms is accepted (row qwen-3-32b/B200/1/8)",
        );
    assert!(start.elapsed() < Duration::from_secs(20));
}

#[test]
fn figures_at_their_limits_build_quickly() {
    let sandbox = Sandbox::new().bad_data(|bad| {
        let mut v: serde_json::Value = serde_json::from_str(&seed_text()).unwrap();
        let c = &mut v["configurations"][0];
        c["p99_itl_ms"] = serde_json::json!(1e7);
        c["tokens_per_second"] = serde_json::json!(1e9);
        c["avg_output_tokens"] = serde_json::json!(1e9);
        c["avg_running_batch"] = serde_json::json!(5e-324);
        fs::write(bad.join(MODEL), serde_json::to_string_pretty(&v).unwrap()).unwrap();
    });
    let start = Instant::now();
    sandbox.build().succeeds();
    assert!(start.elapsed() < Duration::from_secs(20));
}

#[test]
fn control_characters_in_any_text_field_are_refused_naming_it() {
    for (pointer, field) in [
        ("/name", "name"),
        ("/caveat", "caveat"),
        ("/source/publisher", "source.publisher"),
        ("/source/licence_evidence/1", "source.licence_evidence[1]"),
        ("/configurations/2/precision", "configurations[2].precision"),
    ] {
        seed_changed(|v| {
            let text = v.pointer_mut(pointer).unwrap();
            *text = serde_json::json!(format!("{}\u{0}x", text.as_str().unwrap()));
        })
        .model_problem(field, "contains the control character U+0000")
        .no_control_characters();
    }
    seed_changed(|v| v["architecture"] = serde_json::json!("Dense\tTransformer"))
        .model_problem("architecture", "contains the control character U+0009");
}

#[test]
fn over_long_names_are_refused_in_validation_naming_the_field() {
    seed_changed(|v| {
        let gpu = "G".repeat(300);
        v["gpus"] = serde_json::json!([gpu.clone(), "H100"]);
        for c in v["configurations"].as_array_mut().unwrap() {
            if c["gpu"] == "B200" {
                c["gpu"] = serde_json::json!(gpu.clone());
            }
        }
        let best = v["best"]["B200"].take();
        v["best"].as_object_mut().unwrap().remove("B200");
        v["best"][&gpu] = best;
        v["best"][&gpu]["gpu"] = serde_json::json!(gpu);
    })
    .model_problem("gpus[0]", "is 300 characters long; at most 64 are allowed");
    seed_changed(|v| v["slug"] = serde_json::json!("a".repeat(252)))
        .model_problem("slug", "is 252 characters long; at most 100 are allowed");
}

#[test]
fn dates_must_be_real_iso_dates() {
    for (pointer, field, date) in [
        ("/updated", "updated", "2026-02-30"),
        ("/data_version", "data_version", "27 Sep 2026"),
        ("/source/released", "source.released", "2025-12"),
        ("/source/compiled", "source.compiled", "2026-13-01"),
        ("/source/retrieved", "source.retrieved", "yesterday"),
    ] {
        seed_changed(|v| *v.pointer_mut(pointer).unwrap() = serde_json::json!(date)).model_problem(
            field,
            &format!("{date:?} is not a date; write a real calendar date as YYYY-MM-DD"),
        );
    }
}

#[test]
fn percentiles_must_not_fall() {
    seed_changed(|v| v["configurations"][0]["p99_itl_ms"] = serde_json::json!(10.0)).model_problem(
        "configurations[0].p99_itl_ms",
        "10 is below p95_itl_ms 17.3; a higher percentile cannot be lower",
    );
    seed_changed(|v| v["configurations"][0]["p90_itl_ms"] = serde_json::json!(14.0)).model_problem(
        "configurations[0].p90_itl_ms",
        "is below median_itl_ms 14.1",
    );
}

#[test]
fn parallel_degrees_that_do_not_fit_build_as_published_and_are_marked() {
    // Upstream published such rows before 2026-02-16: a mirror shows them.
    let sandbox = Sandbox::new().bad_data(|bad| {
        let mut value: serde_json::Value = serde_json::from_str(&seed_text()).unwrap();
        value["configurations"][0]["num_gpus"] = serde_json::json!(2);
        fs::write(bad.join(MODEL), value.to_string()).unwrap();
    });
    sandbox.build().succeeds();
    let page = fs::read_to_string(
        sandbox.path("out/workloads/lm-arena-chat/models/qwen-3-32b/index.html"),
    )
    .unwrap();
    assert!(
        page.contains(
            "parallel degrees as recorded upstream; they do not multiply to the GPU count"
        ),
        "the row is not marked"
    );
}

#[test]
fn twenty_thousand_bad_files_print_fifty_problems_and_a_total() {
    let run = with_bad_data(|bad| {
        for i in 0..20_000 {
            fs::write(bad.join(format!("m{i:05}.json")), "{").unwrap();
        }
    });
    let lines = run.stderr.lines().count();
    assert!(lines <= 55, "{lines} lines");
    run.stderr_has("error: 20000 problems in 20000 files:")
        .stderr_has("  … and 19950 more problems in 19950 files not listed");
}

#[test]
fn formula_cells_and_backslashes_are_neutralised_in_downloads_and_citations() {
    let sandbox = Sandbox::new().bad_data(|bad| {
        let mut v: serde_json::Value = serde_json::from_str(&seed_text()).unwrap();
        v["name"] = serde_json::json!("=HYPERLINK(\"http://x\") \\input{/etc/passwd}");
        v["architecture"] = serde_json::json!("@SUM(1)");
        fs::write(bad.join(MODEL), serde_json::to_string_pretty(&v).unwrap()).unwrap();
    });
    sandbox.build().succeeds();
    for csv in ["data/configurations.csv", "data/leaderboard.csv"] {
        let text = fs::read_to_string(sandbox.path("out").join(csv)).unwrap();
        let row = text.lines().nth(1).unwrap();
        assert!(
            row.contains(",\"'=HYPERLINK(\"\"http://x\"\") \\input{/etc/passwd}\",")
                && row.contains(",'@SUM(1),"),
            "{csv}: {row}"
        );
    }
    let page = fs::read_to_string(
        sandbox.path("out/workloads/lm-arena-chat/models/qwen-3-32b/index.html"),
    )
    .unwrap();
    assert!(
        page.contains("\\textbackslash{}input\\{/etc/passwd\\}"),
        "no escaped backslash in the BibTeX"
    );
}

#[test]
fn slugs_of_site_wide_downloads_are_reserved() {
    for slug in ["leaderboard", "configurations"] {
        with_bad_data(|bad| {
            let text = seed_text().replace("qwen-3-32b", slug);
            fs::write(bad.join(MODEL), text).unwrap();
        })
        .model_problem(
            "slug",
            &format!("\"{slug}\" is reserved: data/{slug}.csv is a site-wide download"),
        );
    }
}

#[test]
fn row_anchors_may_not_clash_with_the_page_s_own_anchors() {
    for (suffix, anchor) in [
        ("main", "main"),
        ("best", "best"),
        ("cite", "cite"),
        ("embed", "embed"),
        ("budgets", "budgets"),
        ("gpu/H100", "gpu-h100"),
        ("chart/x", "chart-x"),
    ] {
        with_bad_data(|bad| {
            // The first B200 row, which is not a best row.
            let text = seed_text().replacen(
                "\"row_id\": \"qwen-3-32b/B200/1/8\"",
                &format!("\"row_id\": \"qwen-3-32b/{suffix}\""),
                1,
            );
            fs::write(bad.join(MODEL), text).unwrap();
        })
        .model_problem(
            "configurations[0].row_id",
            &format!("gives the page anchor #{anchor}, which"),
        );
    }
}

#[test]
fn a_gpu_named_like_a_heading_anchor_is_refused() {
    with_bad_data(|bad| {
        let text = seed_text().replace("\"H100\"", "\"H100 H\"");
        fs::write(bad.join(MODEL), text).unwrap();
    })
    .model_problem(
        "gpus[1]",
        "ends in the word \"h\", which the pages add to a GPU's name",
    );
}

#[test]
fn a_gpu_named_like_another_gpus_chart_view_or_anchor_is_refused() {
    // Every word the pages and charts add after a GPU's name (the heading,
    // caption, chart data and log-scale view): "H100 log" would write
    // energy-per-response-h100-log.svg, H100's log view.
    for word in energyboard::model::GPU_SUFFIX_WORDS {
        with_bad_data(|bad| {
            let text = seed_text().replace("\"H100\"", &format!("\"H100 {word}\""));
            fs::write(bad.join(MODEL), text).unwrap();
        })
        .model_problem("gpus[1]", &format!("ends in the word \"{word}\""));
    }
}
