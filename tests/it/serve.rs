//! `energyboard serve`: the real binary on a free loopback port, over a copy
//! of data/ and static/ in a temporary folder, spoken to over raw TCP.

use energyboard::serve::{Resolved, content_type, normalise_base_path, resolve};
use energyboard::stage::copy_tree;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex, mpsc};
use std::time::{Duration, Instant};

/// How long any single wait in these tests may last.
const PATIENCE: Duration = Duration::from_secs(30);

struct Reply {
    status: u16,
    headers: String,
    body: String,
}

impl Reply {
    fn header(&self, name: &str) -> Option<&str> {
        self.headers.lines().find_map(|line| {
            let (k, v) = line.split_once(':')?;
            k.eq_ignore_ascii_case(name).then(|| v.trim())
        })
    }
}

/// A running `energyboard serve` over its own copy of the inputs.
struct Preview {
    child: Child,
    dir: tempfile::TempDir,
    url: String,
    port: u16,
    stdout: Arc<Mutex<String>>,
    stderr: Arc<Mutex<String>>,
}

fn drain(stream: impl Read + Send + 'static, into: Arc<Mutex<String>>) -> mpsc::Receiver<String> {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stream).lines() {
            let Ok(line) = line else { break };
            into.lock().unwrap().push_str(&line);
            into.lock().unwrap().push('\n');
            let _ = tx.send(line);
        }
    });
    rx
}

impl Preview {
    /// Starts the server with `--out <tmp>/site` and `extra` arguments.
    fn start(extra: &[&str]) -> Self {
        Self::launch(extra, |_| {}, true)
    }

    /// Like [`Preview::start`], after `prepare` has changed the inputs.
    fn start_with(extra: &[&str], prepare: impl FnOnce(&Path)) -> Self {
        Self::launch(extra, prepare, true)
    }

    /// Starts the server; with `out`, builds into `<tmp>/site`, otherwise
    /// into its default temporary folder (TMPDIR is `<tmp>`).
    fn launch(extra: &[&str], prepare: impl FnOnce(&Path), out: bool) -> Self {
        Self::launch_in(extra, prepare, out, true)
    }

    /// [`Preview::launch`]; `tmpdir` false leaves TMPDIR unset, so that the
    /// preview chooses its own temporary folder.
    fn launch_in(extra: &[&str], prepare: impl FnOnce(&Path), out: bool, tmpdir: bool) -> Self {
        let dir = tempfile::tempdir().unwrap();
        copy_tree(Path::new("tests/fixtures/seeds"), &dir.path().join("data")).unwrap();
        copy_tree(Path::new("static"), &dir.path().join("static")).unwrap();
        std::fs::write(dir.path().join("secret.txt"), "TOP SECRET").unwrap();
        prepare(dir.path());
        let mut command = Command::new(env!("CARGO_BIN_EXE_energyboard"));
        command
            .arg("serve")
            .args(["--port", "0", "--data"])
            .arg(dir.path().join("data"))
            .arg("--static")
            .arg(dir.path().join("static"));
        if out {
            command.arg("--out").arg(dir.path().join("site"));
        }
        if tmpdir {
            command.env("TMPDIR", dir.path());
        } else {
            command.env_remove("TMPDIR");
        }
        let mut child = command
            .args(extra)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let stdout = Arc::new(Mutex::new(String::new()));
        let stderr = Arc::new(Mutex::new(String::new()));
        let lines = drain(child.stdout.take().unwrap(), Arc::clone(&stdout));
        drain(child.stderr.take().unwrap(), Arc::clone(&stderr));
        let first = lines.recv_timeout(PATIENCE).unwrap_or_else(|_| {
            let _ = child.kill();
            panic!("no URL printed; stderr: {}", stderr.lock().unwrap());
        });
        let url = first
            .strip_prefix("serving ")
            .and_then(|rest| rest.split_whitespace().next())
            .unwrap_or_else(|| panic!("unexpected first line {first:?}"))
            .to_owned();
        let port = url
            .strip_prefix("http://127.0.0.1:")
            .and_then(|rest| rest.split('/').next())
            .and_then(|p| p.parse().ok())
            .unwrap_or_else(|| panic!("URL {url:?} is not on 127.0.0.1"));
        Self {
            child,
            dir,
            url,
            port,
            stdout,
            stderr,
        }
    }

    fn path(&self, rel: &str) -> PathBuf {
        self.dir.path().join(rel)
    }

    /// Sends `GET <target>` exactly as written, with no normalisation.
    fn get(&self, target: &str) -> Reply {
        let mut stream = TcpStream::connect(("127.0.0.1", self.port)).unwrap();
        stream.set_read_timeout(Some(PATIENCE)).unwrap();
        write!(
            stream,
            "GET {target} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"
        )
        .unwrap();
        let mut raw = Vec::new();
        stream.read_to_end(&mut raw).unwrap();
        let raw = String::from_utf8_lossy(&raw).into_owned();
        let (head, body) = raw.split_once("\r\n\r\n").unwrap_or((&raw, ""));
        let (status_line, headers) = head.split_once("\r\n").unwrap_or((head, ""));
        let status = status_line
            .split_whitespace()
            .nth(1)
            .and_then(|s| s.parse().ok())
            .unwrap_or_else(|| panic!("bad status line {status_line:?}"));
        Reply {
            status,
            headers: headers.replace("\r\n", "\n"),
            body: body.to_owned(),
        }
    }

    /// Polls `target` until `done` holds, at most [`PATIENCE`].
    fn wait_for(&self, target: &str, what: &str, done: impl Fn(&Reply) -> bool) -> Reply {
        let start = Instant::now();
        loop {
            let reply = self.get(target);
            if done(&reply) {
                return reply;
            }
            assert!(
                start.elapsed() < PATIENCE,
                "waited {PATIENCE:?} for {what}; last reply {} {}\nstderr:\n{}",
                reply.status,
                reply.body,
                self.stderr.lock().unwrap()
            );
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    /// Sends SIGINT, as Ctrl-C does, and waits for the exit.
    fn interrupt(&mut self) -> std::process::ExitStatus {
        let sent = Command::new("kill")
            .args(["-INT", &self.child.id().to_string()])
            .status()
            .unwrap();
        assert!(sent.success());
        let start = Instant::now();
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                return status;
            }
            assert!(start.elapsed() < PATIENCE, "still running after SIGINT");
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

impl Drop for Preview {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn run_to_end(args: &[&std::ffi::OsStr]) -> std::process::Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_energyboard"))
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let start = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if start.elapsed() > PATIENCE {
            let _ = child.kill();
            panic!("serve did not stop on its own");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    child.wait_with_output().unwrap()
}

#[test]
fn serves_the_built_site_on_loopback() {
    let preview = Preview::start(&[]);
    assert!(preview.url.starts_with("http://127.0.0.1:"));
    assert!(preview.url.ends_with('/'));

    let home = preview.get("/");
    assert_eq!(home.status, 200);
    assert_eq!(
        home.header("Content-Type"),
        Some("text/html; charset=utf-8")
    );
    assert!(home.body.contains("models/qwen-3-32b/"), "{}", home.body);

    let model = preview.get("/models/qwen-3-32b/");
    assert_eq!(model.status, 200);
    let built = std::fs::read_to_string(preview.path("site/models/qwen-3-32b/index.html")).unwrap();
    let head = &built[..built.find("</body>").unwrap_or(built.len())];
    assert!(
        model.body.starts_with(head),
        "served page differs from the file"
    );

    let css = preview.get("/assets/style.css");
    assert_eq!(css.status, 200);
    assert_eq!(css.header("Content-Type"), Some("text/css; charset=utf-8"));

    let bare = preview.get("/models/qwen-3-32b?x=1");
    assert_eq!(bare.status, 301);
    assert_eq!(bare.header("Location"), Some("/models/qwen-3-32b/?x=1"));

    let missing = preview.get("/no-such-page/");
    assert_eq!(missing.status, 404);
    if let Ok(page) = std::fs::read_to_string(preview.path("site/404.html")) {
        let head = &page[..page.find("</body>").unwrap_or(page.len())];
        assert!(missing.body.starts_with(head), "not the site's 404.html");
    }

    assert_eq!(preview.get("/.energyboard").status, 404);
}

#[test]
fn path_traversal_is_refused() {
    let preview = Preview::start(&[]);
    for target in [
        "/../Cargo.toml",
        "/../secret.txt",
        "/%2e%2e/secret.txt",
        "/%2E%2E%2Fsecret.txt",
        "/models/%2e%2e/%2e%2e/secret.txt",
        "/models/..%2f..%2fsecret.txt",
        "/assets/../../secret.txt",
        "//secret.txt",
        "http://127.0.0.1/../secret.txt",
    ] {
        let reply = preview.get(target);
        assert!(
            matches!(reply.status, 403 | 404),
            "{target}: status {}",
            reply.status
        );
        assert!(!reply.body.contains("TOP SECRET"), "{target} leaked a file");
    }
}

#[test]
fn base_path_serves_the_site_under_its_prefix_only() {
    let preview = Preview::start(&["--base-path", "/energyboard/"]);
    assert!(preview.url.ends_with("/energyboard/"), "{}", preview.url);

    let home = preview.get("/energyboard/");
    assert_eq!(home.status, 200);
    assert!(home.body.contains("models/qwen-3-32b/"));
    assert_eq!(preview.get("/energyboard/models/qwen-3-32b/").status, 200);
    assert_eq!(
        preview
            .get("/energyboard/models/qwen-3-32b")
            .header("Location"),
        Some("/energyboard/models/qwen-3-32b/")
    );

    for target in ["/", "/energyboard"] {
        let reply = preview.get(target);
        assert_eq!(reply.status, 302, "{target}");
        assert_eq!(reply.header("Location"), Some("/energyboard/"));
    }
    assert_eq!(preview.get("/models/qwen-3-32b/").status, 404);
    assert_eq!(preview.get("/assets/style.css").status, 404);

    let escape = preview.get("/energyboard/%2e%2e/secret.txt");
    assert_eq!(escape.status, 403);
}

#[test]
fn editing_a_data_file_rebuilds_the_site() {
    let preview = Preview::start(&[]);
    assert_eq!(preview.get("/models/qwen-3-32b-edited/").status, 404);
    // What an open page's reload script asks: the build number once it is
    // not the one seen, which holds the answer until the edit is built.
    let seen: u64 = preview.get("/__energyboard/build").body.parse().unwrap();
    let waiting = std::thread::spawn({
        let port = preview.port;
        move || {
            let start = Instant::now();
            let mut stream = TcpStream::connect(("127.0.0.1", port)).unwrap();
            write!(
                stream,
                "GET /__energyboard/build?after={seen} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
            )
            .unwrap();
            let mut raw = String::new();
            stream.read_to_string(&mut raw).unwrap();
            (start.elapsed(), raw)
        }
    });
    std::thread::sleep(Duration::from_millis(500));
    let file = preview.path("data/qwen-3-32b.json");
    let text = std::fs::read_to_string(&file).unwrap();
    let edited = text.replacen(
        "\"slug\": \"qwen-3-32b\"",
        "\"slug\": \"qwen-3-32b-edited\"",
        1,
    );
    assert_ne!(text, edited);
    std::fs::write(&file, edited).unwrap();

    preview.wait_for("/models/qwen-3-32b-edited/", "the rebuilt page", |r| {
        r.status == 200
    });
    let home = preview.get("/");
    assert!(home.body.contains("models/qwen-3-32b-edited/"));
    assert!(!home.body.contains("energyboard-build-error"));
    let (waited, answer) = waiting.join().unwrap();
    assert!(
        waited >= Duration::from_millis(500),
        "answered before the edit"
    );
    assert!(
        answer.ends_with(&format!("\r\n\r\n{}", seen + 1)),
        "{answer}"
    );
}

/// The build number an open page's reload script waits to see pass.
fn seen_by_page(page: &str) -> u64 {
    let rest = page
        .split_once("const n='")
        .unwrap_or_else(|| panic!("no reload script with a build number in:\n{page}"))
        .1;
    rest[..rest.find('\'').unwrap()].parse().unwrap()
}

#[test]
fn a_page_reloads_for_a_build_that_finished_before_its_script_ran() {
    // A page served, then a failed build before its script first asks (a
    // busy machine, a slow stylesheet): the script must still reload the
    // page, which then shows the banner. A script that took the current
    // number as its first would wait for the build after, which may never
    // come (checks/preview.mjs saw this).
    let preview = Preview::start(&[]);
    let page = preview.get("/models/qwen-3-32b/");
    let seen = seen_by_page(&page.body);
    std::fs::write(preview.path("data/qwen-3-32b.json"), "{ \"name\": ").unwrap();
    preview.wait_for("/", "the error banner", |r| {
        r.body.contains("energyboard-build-error")
    });
    let start = Instant::now();
    let answer = preview.get(&format!("/__energyboard/build?after={seen}"));
    assert!(start.elapsed() < Duration::from_secs(5), "it waited");
    assert_ne!(answer.body, seen.to_string());
    let reloaded = preview.get("/models/qwen-3-32b/");
    assert!(reloaded.body.contains("energyboard-build-error"));
    assert_eq!(seen_by_page(&reloaded.body).to_string(), answer.body);
}

#[cfg(unix)]
#[test]
fn a_rebuild_never_writes_through_a_symbolic_link_in_the_output_folder() {
    let preview = Preview::start(&[]);
    // Someone replaces a folder of the built site by a link elsewhere.
    let victim = preview.path("victim");
    std::fs::create_dir(&victim).unwrap();
    std::fs::write(victim.join("keep.txt"), "mine").unwrap();
    let models = preview.path("site/models");
    std::fs::remove_dir_all(&models).unwrap();
    std::os::unix::fs::symlink(&victim, &models).unwrap();
    // An edit that changes one model's pages only.
    let file = preview.path("data/qwen-3-32b.json");
    let text = std::fs::read_to_string(&file).unwrap();
    let edited = text.replacen("\"name\": \"Qwen 3 32B\"", "\"name\": \"Renamed Qwen\"", 1);
    assert_ne!(text, edited);
    std::fs::write(&file, edited).unwrap();
    preview.wait_for("/models/qwen-3-32b/", "the rebuilt page", |r| {
        r.body.contains("Renamed Qwen")
    });
    let left: Vec<_> = std::fs::read_dir(&victim)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(left, ["keep.txt"], "wrote into the linked folder");
    assert!(!std::fs::symlink_metadata(&models).unwrap().is_symlink());
}

/// The seed `qwen-3-32b.json` with its slug changed to `slug`.
fn seed_with_slug(slug: &str) -> String {
    std::fs::read_to_string("tests/fixtures/seeds/qwen-3-32b.json")
        .unwrap()
        .replacen(
            "\"slug\": \"qwen-3-32b\"",
            &format!("\"slug\": \"{slug}\""),
            1,
        )
}

#[test]
fn a_data_folder_deleted_and_made_again_is_still_watched() {
    let preview = Preview::start(&[]);
    let data = preview.path("data");
    std::fs::remove_dir_all(&data).unwrap();
    preview.wait_for("/", "the error banner", |r| {
        r.body.contains("energyboard-build-error")
    });
    std::fs::create_dir(&data).unwrap();
    std::fs::write(data.join("a.json"), seed_with_slug("remade")).unwrap();
    preview.wait_for("/models/remade/", "the rebuilt page", |r| r.status == 200);
    // And the new folder's files are watched in turn.
    std::fs::write(data.join("a.json"), seed_with_slug("remade-twice")).unwrap();
    preview.wait_for("/models/remade-twice/", "the rebuilt page", |r| {
        r.status == 200
    });
}

#[test]
fn a_data_folder_moved_away_and_back_is_still_watched() {
    let preview = Preview::start(&[]);
    let (data, away) = (preview.path("data"), preview.path("away"));
    std::fs::rename(&data, &away).unwrap();
    preview.wait_for("/", "the error banner", |r| {
        r.body.contains("energyboard-build-error")
    });
    std::fs::write(away.join("qwen-3-32b.json"), seed_with_slug("moved")).unwrap();
    std::fs::rename(&away, &data).unwrap();
    preview.wait_for("/models/moved/", "the rebuilt page", |r| r.status == 200);
    std::fs::write(data.join("qwen-3-32b.json"), seed_with_slug("moved-edited")).unwrap();
    preview.wait_for("/models/moved-edited/", "the rebuilt page", |r| {
        r.status == 200
    });
}

#[test]
fn broken_data_file_keeps_the_last_good_site_and_shows_the_error() {
    let preview = Preview::start(&[]);
    let file = preview.path("data/qwen-3-32b.json");
    let good = std::fs::read_to_string(&file).unwrap();
    std::fs::write(&file, "{ \"slug\": ").unwrap();

    let home = preview.wait_for("/", "the error banner", |r| {
        r.body.contains("energyboard-build-error")
    });
    assert_eq!(home.status, 200);
    assert!(
        home.body.contains("models/qwen-3-32b/"),
        "last good site gone"
    );
    assert!(
        home.body.contains("qwen-3-32b.json"),
        "error does not name the file"
    );
    assert!(home.body.contains("ends too early"), "{}", home.body);
    assert_eq!(preview.get("/models/qwen-3-32b/").status, 200);
    assert_eq!(preview.get("/assets/style.css").status, 200);
    let terminal = preview.stderr.lock().unwrap().clone();
    assert!(terminal.contains("rebuild failed"), "{terminal}");
    assert!(terminal.contains("qwen-3-32b.json"), "{terminal}");

    std::fs::write(&file, good).unwrap();
    preview.wait_for("/", "the banner to go", |r| {
        r.status == 200 && !r.body.contains("energyboard-build-error")
    });
}

#[test]
fn a_broken_first_build_is_shown_until_fixed() {
    let preview = Preview::start_with(&[], |dir| {
        std::fs::write(dir.join("data/qwen-3-32b.json"), "[]").unwrap();
    });
    let page = preview.get("/");
    assert_eq!(page.status, 500);
    assert!(page.body.contains("qwen-3-32b.json"), "{}", page.body);

    std::fs::copy(
        "tests/fixtures/seeds/qwen-3-32b.json",
        preview.path("data/qwen-3-32b.json"),
    )
    .unwrap();
    preview.wait_for("/", "the first good build", |r| r.status == 200);
}

#[test]
fn reading_pages_does_not_trigger_a_rebuild() {
    let preview = Preview::start(&[]);
    let before = preview.get("/__energyboard/build").body;
    for _ in 0..20 {
        assert_eq!(preview.get("/").status, 200);
        assert_eq!(preview.get("/models/qwen-3-32b/").status, 200);
    }
    std::thread::sleep(Duration::from_millis(800));
    assert_eq!(preview.get("/__energyboard/build").body, before);
    assert_eq!(preview.stderr.lock().unwrap().matches("rebuilt").count(), 0);
}

#[test]
fn a_rebuild_reading_the_inputs_does_not_trigger_another() {
    // On Linux a build opening the data files raises watch events too; a
    // watcher that counted them would rebuild forever.
    let preview = Preview::start(&[]);
    let file = preview.path("data/qwen-3-32b.json");
    let text = std::fs::read_to_string(&file).unwrap();
    std::fs::write(
        &file,
        text.replacen("\"slug\": \"qwen-3-32b\"", "\"slug\": \"q\"", 1),
    )
    .unwrap();
    preview.wait_for("/models/q/", "the rebuilt page", |r| r.status == 200);
    std::thread::sleep(Duration::from_secs(1));
    let settled = preview.get("/__energyboard/build").body;
    std::thread::sleep(Duration::from_secs(1));
    assert_eq!(preview.get("/__energyboard/build").body, settled);

    std::fs::write(&file, "{").unwrap();
    preview.wait_for("/", "the error banner", |r| {
        r.body.contains("energyboard-build-error")
    });
    std::thread::sleep(Duration::from_secs(1));
    let settled = preview.get("/__energyboard/build").body;
    std::thread::sleep(Duration::from_secs(1));
    assert_eq!(preview.get("/__energyboard/build").body, settled);
}

#[test]
fn ctrl_c_stops_cleanly() {
    let mut preview = Preview::start(&[]);
    assert_eq!(preview.get("/").status, 200);
    let status = preview.interrupt();
    assert!(status.success(), "{status:?}");
    assert!(preview.stdout.lock().unwrap().contains("stopped"));
    assert!(preview.path("site/index.html").is_file(), "--out site kept");
    assert!(TcpStream::connect(("127.0.0.1", preview.port)).is_err());
}

#[test]
fn default_output_is_a_temporary_folder_removed_on_exit() {
    let mut preview = Preview::launch(&[], |_| {}, false);
    assert_eq!(preview.get("/").status, 200);
    assert_eq!(previews_in(preview.dir.path()), 1);
    assert!(!preview.path("site").exists());
    assert!(preview.interrupt().success());
    assert_eq!(previews_in(preview.dir.path()), 0);
}

/// Without TMPDIR, on Linux, the preview writes in memory (`/dev/shm`) when
/// that has 1 GiB free, else in /tmp; either way its
/// folder is gone when it stops.
#[cfg(target_os = "linux")]
#[test]
fn without_tmpdir_the_output_is_in_memory_when_there_is_room() {
    let shm = Path::new("/dev/shm");
    let roomy = Command::new("df")
        .args(["--output=avail", "-B1", "/dev/shm"])
        .output()
        .ok()
        .and_then(|o| String::from_utf8(o.stdout).ok())
        .and_then(|t| t.lines().nth(1).and_then(|l| l.trim().parse::<u64>().ok()))
        .is_some_and(|free| free >= 1 << 30);
    let mut preview = Preview::launch_in(&[], |_| {}, false, false);
    assert_eq!(preview.get("/").status, 200);
    let pid = preview.child.id();
    let ours = |dir: &Path| {
        std::fs::read_dir(dir).map_or(0, |entries| {
            entries
                .filter(|e| {
                    let name = e.as_ref().unwrap().file_name();
                    name.to_string_lossy()
                        .starts_with(&format!("energyboard-serve-{pid}-"))
                })
                .count()
        })
    };
    let (memory, disk) = (ours(shm), ours(Path::new("/tmp")));
    // Only this user may read the preview's folder, wherever it is.
    for dir in [shm, Path::new("/tmp")] {
        for entry in std::fs::read_dir(dir).unwrap().filter_map(Result::ok) {
            if entry
                .file_name()
                .to_string_lossy()
                .starts_with(&format!("energyboard-serve-{pid}-"))
            {
                use std::os::unix::fs::PermissionsExt;
                let mode = entry.metadata().unwrap().permissions().mode() & 0o777;
                assert_eq!(mode, 0o700, "{}: mode {mode:o}", entry.path().display());
            }
        }
    }
    if roomy {
        assert_eq!((memory, disk), (1, 0), "the preview's folder in /dev/shm");
    } else {
        assert_eq!(
            (memory, disk),
            (0, 1),
            "the preview's folder in the temporary folder"
        );
    }
    assert!(preview.interrupt().success());
    assert_eq!(ours(shm) + ours(Path::new("/tmp")), 0);
}

/// How many preview folders (`energyboard-serve-…`) `dir` holds.
fn previews_in(dir: &Path) -> usize {
    std::fs::read_dir(dir)
        .unwrap()
        .filter(|e| {
            let name = e.as_ref().unwrap().file_name();
            name.to_string_lossy().starts_with("energyboard-serve-")
        })
        .count()
}

#[cfg(target_os = "linux")]
#[test]
fn a_killed_previews_temporary_folder_is_removed_by_the_next_one() {
    let mut killed = Preview::launch(&[], |_| {}, false);
    assert_eq!(killed.get("/").status, 200);
    killed.child.kill().unwrap();
    killed.child.wait().unwrap();
    let pid = killed.child.id();
    let left = |dir: &Path| {
        std::fs::read_dir(dir)
            .unwrap()
            .filter(|e| {
                let name = e.as_ref().unwrap().file_name();
                name.to_string_lossy()
                    .starts_with(&format!("energyboard-serve-{pid}-"))
            })
            .count()
    };
    assert_eq!(left(killed.dir.path()), 1);
    // Not energyboard's: kept.
    let foreign = killed.dir.path().join("energyboard-serve-4194319-x");
    std::fs::create_dir(&foreign).unwrap();
    std::fs::write(foreign.join("notes.txt"), "mine").unwrap();
    // The next preview, with the same temporary folder.
    let start = || {
        let mut next = Command::new(env!("CARGO_BIN_EXE_energyboard"))
            .args(["serve", "--port", "0", "--data"])
            .arg(killed.path("data"))
            .arg("--static")
            .arg(killed.path("static"))
            .env("TMPDIR", killed.dir.path())
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let mut first = String::new();
        BufReader::new(next.stdout.take().unwrap())
            .read_line(&mut first)
            .unwrap();
        assert!(first.starts_with("serving "), "{first}");
        next
    };
    let next = start();
    assert_eq!(left(killed.dir.path()), 0);
    // A running preview's folder is kept by the one after it.
    let third = start();
    assert_eq!(
        previews_in(killed.dir.path()),
        3,
        "two running, one foreign"
    );
    for mut child in [next, third] {
        child.kill().unwrap();
        child.wait().unwrap();
    }
    assert!(foreign.join("notes.txt").is_file());
}

#[test]
fn refuses_an_output_folder_it_did_not_make_or_inside_the_inputs() {
    let dir = tempfile::tempdir().unwrap();
    let mine = dir.path().join("mine");
    std::fs::create_dir(&mine).unwrap();
    std::fs::write(mine.join("notes.txt"), "keep").unwrap();
    let out = run_to_end(&[
        "serve".as_ref(),
        "--port".as_ref(),
        "0".as_ref(),
        "--out".as_ref(),
        mine.as_os_str(),
    ]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("not built by energyboard"), "{err}");
    assert_eq!(
        std::fs::read_to_string(mine.join("notes.txt")).unwrap(),
        "keep"
    );

    let out = run_to_end(&[
        "serve".as_ref(),
        "--port".as_ref(),
        "0".as_ref(),
        "--out".as_ref(),
        "data/site".as_ref(),
    ]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("is inside the input folder data"), "{err}");
    assert!(!Path::new("data/site").exists());
}

/// Resident memory of a process, in KiB (Linux).
#[cfg(target_os = "linux")]
fn rss_kib(pid: u32) -> u64 {
    std::fs::read_to_string(format!("/proc/{pid}/status"))
        .unwrap()
        .lines()
        .find_map(|line| line.strip_prefix("VmRSS:"))
        .and_then(|rest| rest.split_whitespace().next())
        .and_then(|kib| kib.parse().ok())
        .expect("VmRSS in /proc/<pid>/status")
}

/// A file far larger than the kernel's socket buffers, so that a client
/// that reads nothing of it leaves the server's write blocked.
const BIG: usize = 64 << 20;

#[test]
fn slow_readers_do_not_stall_other_requests() {
    let preview = Preview::start_with(&[], |dir| {
        std::fs::write(dir.join("static/big.bin"), vec![b'x'; BIG]).unwrap();
    });
    assert_eq!(preview.get("/assets/big.bin").body.len(), BIG);
    let mut stalled = Vec::new();
    // Readers that ask for the big file and read nothing of the answer …
    for _ in 0..12 {
        let mut stream = TcpStream::connect(("127.0.0.1", preview.port)).unwrap();
        stream
            .write_all(b"GET /assets/big.bin HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            .unwrap();
        stalled.push(stream);
    }
    // … and clients that connect and send nothing, or half a request.
    for i in 0..12 {
        let mut stream = TcpStream::connect(("127.0.0.1", preview.port)).unwrap();
        if i % 2 == 0 {
            stream.write_all(b"GET / HTTP/1.1\r\nHost: 1").unwrap();
        }
        stalled.push(stream);
    }
    std::thread::sleep(Duration::from_millis(500));
    for _ in 0..3 {
        let start = Instant::now();
        let home = preview.get("/");
        let took = start.elapsed();
        assert_eq!(home.status, 200);
        assert!(took < Duration::from_secs(5), "answered after {took:?}");
        let start = Instant::now();
        let css = preview.get("/assets/style.css");
        assert_eq!(css.status, 200);
        assert!(start.elapsed() < Duration::from_secs(5));
    }
    drop(stalled);
}

/// Writes `head` and then `filler` over and over, up to `total` bytes or
/// until the server stops taking them; returns the server's answer: its
/// status, or `None` when it closed the connection without one.
fn flood_headers(port: u16, head: &[u8], filler: &[u8], total: usize) -> Option<u16> {
    let mut stream = TcpStream::connect(("127.0.0.1", port)).unwrap();
    stream.set_read_timeout(Some(PATIENCE)).unwrap();
    stream.set_write_timeout(Some(PATIENCE)).unwrap();
    let mut sent = 0;
    if stream.write_all(head).is_ok() {
        let block = filler.repeat((1 << 16) / filler.len());
        while sent < total {
            if stream.write_all(&block).is_err() {
                break;
            }
            sent += block.len();
        }
    }
    assert!(sent < total, "the server took all {total} bytes of headers");
    let mut raw = Vec::new();
    // A reset after the answer is fine: keep what came.
    let _ = stream.read_to_end(&mut raw);
    let raw = String::from_utf8_lossy(&raw);
    raw.split_whitespace().nth(1).and_then(|s| s.parse().ok())
}

#[cfg(target_os = "linux")]
#[test]
fn endless_headers_are_cut_off_without_memory_growth() {
    let preview = Preview::start(&[]);
    assert_eq!(preview.get("/").status, 200);
    let pid = preview.child.id();
    let before = rss_kib(pid);
    let total = 256 << 20;
    // One endless header line, then an endless block of short headers.
    let line = flood_headers(
        preview.port,
        b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Long: ",
        b"a",
        total,
    );
    assert!(matches!(line, None | Some(431)), "{line:?}");
    let block = flood_headers(
        preview.port,
        b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n",
        b"X-Many: yes\r\n",
        total,
    );
    assert!(matches!(block, None | Some(431)), "{block:?}");
    let url = flood_headers(preview.port, b"GET /", b"a", total);
    assert!(matches!(url, None | Some(414 | 431)), "{url:?}");
    let after = rss_kib(pid);
    assert!(
        after < before + 16 * 1024,
        "memory grew from {before} KiB to {after} KiB"
    );
    assert_eq!(preview.get("/").status, 200);
}

#[test]
fn a_client_that_never_finishes_its_request_is_dropped() {
    let preview = Preview::start(&[]);
    let silent = TcpStream::connect(("127.0.0.1", preview.port)).unwrap();
    let dripping = std::thread::spawn({
        let port = preview.port;
        move || {
            // One byte every half second: each read is quick, the request
            // never ends.
            let mut stream = TcpStream::connect(("127.0.0.1", port)).unwrap();
            let start = Instant::now();
            stream.write_all(b"GET / HTTP/1.1\r\n").unwrap();
            while start.elapsed() < PATIENCE {
                if stream.write_all(b"X").is_err() {
                    return start.elapsed();
                }
                std::thread::sleep(Duration::from_millis(500));
            }
            panic!("still connected after {PATIENCE:?}");
        }
    });
    let start = Instant::now();
    silent.set_read_timeout(Some(PATIENCE)).unwrap();
    let mut rest = Vec::new();
    let _ = (&silent).read_to_end(&mut rest);
    let silent_for = start.elapsed();
    assert!(silent_for < Duration::from_secs(15), "{silent_for:?}");
    assert!(rest.is_empty() || String::from_utf8_lossy(&rest).contains(" 408 "));
    let dripping_for = dripping.join().unwrap();
    assert!(dripping_for < Duration::from_secs(15), "{dripping_for:?}");
}

// Where a request leads (`serve::resolve`), without a server: each URL
// against a small site in a temporary folder.

fn site() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("site");
    std::fs::create_dir_all(root.join("models/a")).unwrap();
    std::fs::write(root.join("index.html"), "<html><body>home</body></html>").unwrap();
    std::fs::write(root.join("models/a/index.html"), "a").unwrap();
    std::fs::write(root.join(".energyboard"), "marker").unwrap();
    std::fs::write(dir.path().join("secret.txt"), "secret").unwrap();
    let root = root.canonicalize().unwrap();
    (dir, root)
}

#[test]
fn directories_serve_their_index_and_gain_a_slash() {
    let (_dir, root) = site();
    assert_eq!(
        resolve(&root, "/", "/"),
        Resolved::File(root.join("index.html"))
    );
    assert_eq!(
        resolve(&root, "/", "/models/a/?x=1"),
        Resolved::File(root.join("models/a/index.html"))
    );
    assert_eq!(
        resolve(&root, "/", "/models/a?x=1"),
        Resolved::Redirect("/models/a/?x=1".into())
    );
    assert_eq!(resolve(&root, "/", "/index.html/"), Resolved::NotFound);
}

#[test]
fn a_redirect_never_names_another_host() {
    let (_dir, root) = site();
    for (url, to) in [
        ("//models", "/models/"),
        ("///models/a", "/models/a/"),
        ("/models//a?x=1", "/models/a/?x=1"),
    ] {
        assert_eq!(
            resolve(&root, "/", url),
            Resolved::Redirect(to.into()),
            "{url}"
        );
    }
    assert_eq!(
        resolve(&root, "/repo/", "/repo//models"),
        Resolved::Redirect("/repo/models/".into())
    );
}

#[test]
fn traversal_in_any_spelling_is_forbidden() {
    let (_dir, root) = site();
    for url in [
        "/../secret.txt",
        "/%2e%2e/secret.txt",
        "/%2E%2E%2fsecret.txt",
        "/models/..%2f..%2f..%2fsecret.txt",
        "/models/./a/",
        "/..",
        "/a%00b",
        "/..%5csecret.txt",
        "http://127.0.0.1/secret.txt",
        "*",
    ] {
        assert_eq!(resolve(&root, "/", url), Resolved::Forbidden, "{url}");
    }
}

#[test]
fn symlink_out_of_the_site_is_forbidden() {
    let (dir, root) = site();
    std::os::unix::fs::symlink(dir.path().join("secret.txt"), root.join("leak.txt")).unwrap();
    assert_eq!(resolve(&root, "/", "/leak.txt"), Resolved::Forbidden);
}

#[test]
fn hidden_files_and_missing_files_are_not_found() {
    let (_dir, root) = site();
    // A `%` without two hex digits is a plain character of the name.
    for url in ["/.energyboard", "/nope.html", "/%zz"] {
        assert_eq!(resolve(&root, "/", url), Resolved::NotFound, "{url}");
    }
}

#[test]
fn base_path_serves_only_under_its_prefix() {
    let (_dir, root) = site();
    assert_eq!(
        resolve(&root, "/repo/", "/repo/models/a/"),
        Resolved::File(root.join("models/a/index.html"))
    );
    assert_eq!(
        resolve(&root, "/repo/", "/repo"),
        Resolved::ToBasePath("/repo/".into())
    );
    assert_eq!(
        resolve(&root, "/repo/", "/"),
        Resolved::ToBasePath("/repo/".into())
    );
    assert_eq!(
        resolve(&root, "/repo/", "/models/a/"),
        Resolved::OutsideBasePath
    );
    assert_eq!(
        resolve(&root, "/repo/", "/repo/%2e%2e/secret.txt"),
        Resolved::Forbidden
    );
}

#[test]
fn base_paths_are_normalised_and_checked() {
    for (raw, base) in [("", "/"), ("/", "/"), ("repo", "/repo/"), ("/a/b", "/a/b/")] {
        assert_eq!(normalise_base_path(raw).unwrap(), base);
    }
    assert!(normalise_base_path("/../x/").is_err());
    assert!(normalise_base_path("/a b/").is_err());
}

#[test]
fn content_types_follow_the_extension() {
    for (name, kind) in [
        ("a.html", "text/html; charset=utf-8"),
        ("a.css", "text/css; charset=utf-8"),
        ("a.js", "text/javascript; charset=utf-8"),
        ("a.svg", "image/svg+xml"),
        ("a.json", "application/json"),
        ("a.csv", "text/csv; charset=utf-8"),
        ("sitemap.xml", "text/xml; charset=utf-8"),
        ("site.webmanifest", "application/manifest+json"),
        ("a.woff2", "font/woff2"),
        ("robots.txt", "text/plain; charset=utf-8"),
        ("a.bin", "application/octet-stream"),
    ] {
        assert_eq!(content_type(Path::new(name)), kind);
    }
}

#[test]
fn a_head_over_32_kib_is_answered_431() {
    let preview = Preview::start(&[]);
    // One header of 40,000 bytes: past the documented 32 KiB.
    let mut stream = TcpStream::connect(("127.0.0.1", preview.port)).unwrap();
    stream.set_read_timeout(Some(PATIENCE)).unwrap();
    let head = format!(
        "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: {}\r\n\r\n",
        "a".repeat(40_000)
    );
    stream.write_all(head.as_bytes()).unwrap();
    let mut raw = Vec::new();
    let _ = stream.read_to_end(&mut raw);
    let raw = String::from_utf8_lossy(&raw);
    assert!(
        raw.starts_with("HTTP/1.1 431"),
        "{}",
        raw.lines().next().unwrap_or("")
    );
    // Within the limit, a request is answered.
    let mut stream = TcpStream::connect(("127.0.0.1", preview.port)).unwrap();
    stream.set_read_timeout(Some(PATIENCE)).unwrap();
    let head = format!(
        "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: {}\r\n\r\n",
        "a".repeat(30_000)
    );
    stream.write_all(head.as_bytes()).unwrap();
    let mut raw = Vec::new();
    let _ = stream.read_to_end(&mut raw);
    assert!(String::from_utf8_lossy(&raw).starts_with("HTTP/1.1 200"));
}
