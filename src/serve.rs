//! Live preview: builds the site, serves it on 127.0.0.1 only, and rebuilds
//! it whenever a file under the data or static folder changes.
//!
//! Only the inputs are watched, never the output: on Linux reading a served
//! file counts as an access, and watching the output would turn every page
//! view into a rebuild. A failed rebuild keeps the last good site: the
//! error is printed in the terminal and shown as a banner on every HTML page
//! until a rebuild succeeds. Pages also carry a small script that reloads
//! them after each finished rebuild.
//!
//! Requests are resolved segment by segment: `.` and `..` segments (plain or
//! percent-encoded) are refused, the file is canonicalised and must lie
//! inside the canonical site folder, and hidden files (such as the build
//! marker) are not served.

use std::fs;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use anyhow::{Context, Result, anyhow, bail};
use notify::event::{AccessKind, AccessMode};
use notify::{Event, EventKind, RecommendedWatcher, RecursiveMode, Watcher};
use tiny_http::{Header, Method, Request, Response, Server};

use crate::BuildOptions;

/// Path of the endpoint that answers the number of the last finished build;
/// the reload script polls it. It sits outside any base path.
pub const BUILD_ENDPOINT: &str = "/__energyboard/build";

/// Threads answering requests.
const WORKERS: usize = 4;

/// How long the inputs must stay quiet after a change before a rebuild.
const DEBOUNCE: Duration = Duration::from_millis(150);

type WatchEvent = notify::Result<Event>;

/// What `energyboard serve` builds and how it serves it.
#[derive(Debug, Clone)]
pub struct ServeOptions {
    /// Folder of model files, watched.
    pub data_dir: PathBuf,
    /// Folder of static assets, watched.
    pub static_dir: PathBuf,
    /// Where to build. `None` builds into a new temporary folder that is
    /// removed on exit, so a preview never rewrites the committed `site/`.
    pub out_dir: Option<PathBuf>,
    /// Replace a non-empty `out_dir` that energyboard did not create.
    pub force: bool,
    /// TCP port on 127.0.0.1; 0 picks a free one.
    pub port: u16,
    /// URL path the site is served under, e.g. `/repo/` for a GitHub Pages
    /// project site; `/` for the root.
    pub base_path: String,
    /// Workload names, descriptions and order from the settings file.
    pub workloads: Vec<crate::workload::WorkloadSettings>,
    /// Carbon and cost settings from the settings file.
    pub footprint: Option<crate::footprint::Footprint>,
}

/// Normalises a base path to start and end with `/`: `repo`, `/repo` and
/// `/repo/` all become `/repo/`; empty becomes `/`. Refuses `.`/`..`
/// segments and characters that would need escaping in a URL.
pub fn normalise_base_path(raw: &str) -> Result<String> {
    let segments: Vec<&str> = raw.split('/').filter(|s| !s.is_empty()).collect();
    for seg in &segments {
        let safe = seg
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.' | '~'));
        if !safe || *seg == "." || *seg == ".." {
            bail!(
                "--base-path {raw:?}: {seg:?} is not a plain URL path segment; \
                 use letters, digits, '-', '_', '.' or '~', e.g. /repo/"
            );
        }
    }
    if segments.is_empty() {
        Ok("/".to_owned())
    } else {
        Ok(format!("/{}/", segments.join("/")))
    }
}

/// Where a request leads, before any file is read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Resolved {
    /// A file inside the site.
    File(PathBuf),
    /// Send the client to this URL for good (301): a directory asked for
    /// without its trailing slash.
    Redirect(String),
    /// Send the client to the base path for now (302): the server root, or
    /// the base path without its slash. Temporary, so a browser does not
    /// remember it when the same port is later served without a base path.
    ToBasePath(String),
    /// Nothing there, or a hidden file: the site's own 404 page.
    NotFound,
    /// Outside the base path: not this site's to answer, so a plain 404
    /// (on Pages, another site would answer there).
    OutsideBasePath,
    /// The path tries to leave the site, or cannot be a path at all.
    Forbidden,
    /// The reload script's build-number endpoint.
    BuildNumber,
}

/// Resolves the request target `raw_url` (as sent on the request line)
/// against the site folder `root` served under `base_path` (normalised, see
/// [`normalise_base_path`]).
pub fn resolve(root: &Path, base_path: &str, raw_url: &str) -> Resolved {
    let (path, query) = match raw_url.find(['?', '#']) {
        Some(i) => raw_url.split_at(i),
        None => (raw_url, ""),
    };
    let query = if query.starts_with('?') { query } else { "" };
    if !path.starts_with('/') {
        // Absolute-form (`http://…`), `*`, or garbage.
        return Resolved::Forbidden;
    }
    if path == BUILD_ENDPOINT {
        return Resolved::BuildNumber;
    }
    let rest = if base_path == "/" {
        &path[1..]
    } else if let Some(rest) = path.strip_prefix(base_path) {
        rest
    } else if path == "/" || path == base_path.trim_end_matches('/') {
        return Resolved::ToBasePath(format!("{base_path}{query}"));
    } else {
        return Resolved::OutsideBasePath;
    };
    let Some(decoded) = percent_decode(rest) else {
        return Resolved::Forbidden;
    };
    if decoded.contains('\0') || decoded.contains('\\') {
        return Resolved::Forbidden;
    }
    let wants_dir = decoded.is_empty() || decoded.ends_with('/');
    let mut candidate = root.to_path_buf();
    for seg in decoded.split('/').filter(|s| !s.is_empty()) {
        if seg == "." || seg == ".." {
            return Resolved::Forbidden;
        }
        if seg.starts_with('.') {
            return Resolved::NotFound;
        }
        candidate.push(seg);
    }
    let (Ok(root), Ok(found)) = (root.canonicalize(), candidate.canonicalize()) else {
        return Resolved::NotFound;
    };
    if !found.starts_with(&root) {
        return Resolved::Forbidden;
    }
    if found.is_dir() {
        if !wants_dir {
            // Built from the base path and the segments, never from the
            // raw path: `//host` would send the browser to another host.
            let segments: Vec<&str> = rest.split('/').filter(|s| !s.is_empty()).collect();
            return Resolved::Redirect(format!("{base_path}{}/{query}", segments.join("/")));
        }
        let index = found.join("index.html");
        if index.is_file() {
            Resolved::File(index)
        } else {
            Resolved::NotFound
        }
    } else if wants_dir {
        Resolved::NotFound
    } else {
        Resolved::File(found)
    }
}

/// Decodes `%XX` escapes; `None` for a broken escape or a result that is
/// not UTF-8.
fn percent_decode(s: &str) -> Option<String> {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = std::str::from_utf8(bytes.get(i + 1..i + 3)?).ok()?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

/// The `Content-Type` for a file, by extension.
pub fn content_type(path: &Path) -> &'static str {
    let ext = path
        .extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase);
    match ext.as_deref() {
        Some("html" | "htm") => "text/html; charset=utf-8",
        Some("css") => "text/css; charset=utf-8",
        Some("js" | "mjs") => "text/javascript; charset=utf-8",
        Some("svg") => "image/svg+xml",
        Some("json") => "application/json",
        Some("webmanifest") => "application/manifest+json",
        Some("csv") => "text/csv; charset=utf-8",
        Some("xml") => "application/xml",
        Some("txt") => "text/plain; charset=utf-8",
        Some("md") => "text/markdown; charset=utf-8",
        Some("png") => "image/png",
        Some("ico") => "image/x-icon",
        Some("woff2") => "font/woff2",
        _ => "application/octet-stream",
    }
}

/// What the watcher thread tells the request threads.
#[derive(Debug, Default)]
struct BuildState {
    /// Finished builds, good or bad; the reload script watches it.
    number: u64,
    /// Whether some build has succeeded, so there is a site to serve.
    has_site: bool,
    /// The error of the last build, when it failed.
    error: Option<String>,
}

/// A running preview server.
pub struct Preview {
    url: String,
    stopper: Stopper,
    workers: Vec<JoinHandle<()>>,
    rebuilder: Option<JoinHandle<()>>,
    _temp: Option<tempfile::TempDir>,
}

/// Stops a [`Preview`] from another thread (e.g. a Ctrl-C handler).
#[derive(Clone)]
pub struct Stopper {
    server: Arc<Server>,
    stopping: Arc<AtomicBool>,
}

impl Stopper {
    /// Asks every request thread and the rebuild thread to finish.
    pub fn stop(&self) {
        if !self.stopping.swap(true, Ordering::SeqCst) {
            for _ in 0..WORKERS {
                self.server.unblock();
            }
        }
    }
}

impl Preview {
    /// The site's URL, e.g. `http://127.0.0.1:8000/repo/`.
    pub fn url(&self) -> &str {
        &self.url
    }

    /// A handle that stops the server.
    pub fn stopper(&self) -> Stopper {
        self.stopper.clone()
    }

    /// Blocks until [`Stopper::stop`] is called, then shuts down: stops
    /// watching, waits for a running rebuild, and removes the temporary
    /// output folder if one was made.
    pub fn wait(mut self) {
        for worker in self.workers.drain(..) {
            let _ = worker.join();
        }
        if let Some(rebuilder) = self.rebuilder.take() {
            let _ = rebuilder.join();
        }
    }
}

/// Builds the site once, starts the server on 127.0.0.1 and the watcher on
/// the inputs, and returns at once. A failed first build is reported and
/// shown in the browser; the server keeps running and rebuilds on change.
pub fn start(opts: &ServeOptions) -> Result<Preview> {
    let base_path = normalise_base_path(&opts.base_path)?;
    let (out_dir, temp) = if let Some(dir) = &opts.out_dir {
        (dir.clone(), None)
    } else {
        remove_dead_previews(&std::env::temp_dir());
        let temp = tempfile::Builder::new()
            .prefix(&format!("{PREVIEW_PREFIX}{}-", std::process::id()))
            .tempdir()
            .context("cannot create a temporary folder for the preview")?;
        (temp.path().join("site"), Some(temp))
    };
    // The output must not be, sit inside, or contain a watched folder:
    // each build would trigger the next, or replace the input whole.
    crate::write::guard_output(&out_dir, &[&opts.data_dir, &opts.static_dir])?;
    if opts.out_dir.is_some() {
        // Refuse a foreign folder now, not after the server is up.
        crate::write::check_target(&out_dir, crate::write::Made::Site, opts.force)?;
    }

    let server = Server::http(("127.0.0.1", opts.port))
        .map_err(|err| anyhow!("cannot listen on 127.0.0.1:{}: {err}", opts.port))?;
    let port = server
        .server_addr()
        .to_ip()
        .map(|a| a.port())
        .context("the server has no IP address")?;
    let url = format!("http://127.0.0.1:{port}{base_path}");

    let build_opts = BuildOptions {
        data_dir: opts.data_dir.clone(),
        static_dir: opts.static_dir.clone(),
        out_dir: out_dir.clone(),
        force: opts.force,
        // The preview's own URL, so canonical links, the sitemap and link
        // previews are those Pages would serve, only on this host.
        base_url: Some(url.clone()),
        workloads: opts.workloads.clone(),
        footprint: opts.footprint.clone(),
    };
    let state = Arc::new(Mutex::new(BuildState::default()));
    rebuild(&build_opts, &state, "built");

    let inputs = vec![
        watched_path(&opts.data_dir)?,
        watched_path(&opts.static_dir)?,
    ];
    let (tx, rx) = mpsc::channel::<WatchEvent>();
    let mut watcher = notify::recommended_watcher(tx).context("cannot start the file watcher")?;
    // Each input's parent too (not recursively), so that an input that is
    // deleted and made again, or moved away and back, is watched again.
    for dir in &inputs {
        if let Some(parent) = dir.parent() {
            watcher
                .watch(parent, RecursiveMode::NonRecursive)
                .with_context(|| format!("cannot watch {} for changes", parent.display()))?;
        }
    }
    rewatch(&mut watcher, &inputs);

    let server = Arc::new(server);
    let stopping = Arc::new(AtomicBool::new(false));
    let stopper = Stopper {
        server: Arc::clone(&server),
        stopping: Arc::clone(&stopping),
    };

    let rebuilder = {
        let state = Arc::clone(&state);
        let stopping = Arc::clone(&stopping);
        std::thread::spawn(move || {
            watch_and_rebuild(&rx, &mut watcher, &inputs, &build_opts, &state, &stopping);
        })
    };

    let site = Arc::new(SiteRoot {
        root: out_dir,
        base_path,
    });
    let workers = (0..WORKERS)
        .map(|_| {
            let server = Arc::clone(&server);
            let stopping = Arc::clone(&stopping);
            let state = Arc::clone(&state);
            let site = Arc::clone(&site);
            std::thread::spawn(move || {
                while !stopping.load(Ordering::SeqCst) {
                    match server.recv() {
                        Ok(request) => site.answer(request, &state),
                        Err(err) if !stopping.load(Ordering::SeqCst) => {
                            eprintln!("serve: {err}");
                        }
                        Err(_) => {}
                    }
                }
            })
        })
        .collect();

    Ok(Preview {
        url,
        stopper,
        workers,
        rebuilder: Some(rebuilder),
        _temp: temp,
    })
}

/// Start of the name of a preview's temporary folder, followed by the
/// process id and a random part.
const PREVIEW_PREFIX: &str = "energyboard-serve-";

/// Removes the temporary folders of previews that were killed before they
/// could clean up: named `energyboard-serve-<pid>-…` for a process that is
/// gone, and holding nothing but energyboard's own site, staging folders
/// and lock.
fn remove_dead_previews(temp: &Path) {
    let Ok(entries) = fs::read_dir(temp) else {
        return;
    };
    for entry in entries.filter_map(Result::ok) {
        let name = entry.file_name();
        let Some(pid) = name
            .to_str()
            .and_then(|n| n.strip_prefix(PREVIEW_PREFIX))
            .and_then(|rest| rest.split_once('-'))
            .and_then(|(pid, _)| pid.parse::<u32>().ok())
        else {
            continue;
        };
        let dir = entry.path();
        if pid == std::process::id() || crate::write::process_alive(pid) {
            continue;
        }
        let ours = fs::read_dir(&dir).is_ok_and(|inner| {
            inner.filter_map(Result::ok).all(|e| {
                let n = e.file_name().to_string_lossy().into_owned();
                (n == "site" && crate::write::made_by(&e.path()).is_some())
                    || n.starts_with(".site.tmp-")
                    || n == ".site.lock"
            })
        });
        if ours && fs::symlink_metadata(&dir).is_ok_and(|m| m.is_dir()) {
            let _ = fs::remove_dir_all(&dir);
        }
    }
}

/// An input folder as the watcher names it: resolved through symbolic
/// links where it exists, else its resolved parent joined with its name.
fn watched_path(path: &Path) -> Result<PathBuf> {
    if let Ok(real) = path.canonicalize() {
        return Ok(real);
    }
    let abs =
        std::path::absolute(path).with_context(|| format!("cannot resolve {}", path.display()))?;
    Ok(
        match (abs.parent().map(Path::canonicalize), abs.file_name()) {
            (Some(Ok(parent)), Some(name)) => parent.join(name),
            _ => abs,
        },
    )
}

/// (Re)watches every input folder that exists now, recursively: after it
/// was deleted and made again, or moved back, the old watch is gone or
/// follows the moved folder.
fn rewatch(watcher: &mut RecommendedWatcher, inputs: &[PathBuf]) {
    for dir in inputs {
        let _ = watcher.unwatch(dir);
        if dir.is_dir() {
            if let Err(err) = watcher.watch(dir, RecursiveMode::Recursive) {
                eprintln!("watch: cannot watch {}: {err}", dir.display());
            }
        }
    }
}

/// Runs one build and records its outcome.
fn rebuild(opts: &BuildOptions, state: &Mutex<BuildState>, verb: &str) {
    let result = crate::build(opts);
    let mut state = state
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    state.number += 1;
    match result {
        Ok(summary) => {
            eprintln!("{verb} site: {summary}");
            state.has_site = true;
            state.error = None;
        }
        Err(err) => {
            let text = format!("{err:#}");
            if state.has_site {
                eprintln!("error: rebuild failed, still serving the last good site:\n{text}");
            } else {
                eprintln!("error: build failed, nothing to serve until it is fixed:\n{text}");
            }
            state.error = Some(text);
        }
    }
}

fn watch_and_rebuild(
    rx: &mpsc::Receiver<WatchEvent>,
    watcher: &mut RecommendedWatcher,
    inputs: &[PathBuf],
    opts: &BuildOptions,
    state: &Mutex<BuildState>,
    stopping: &AtomicBool,
) {
    while !stopping.load(Ordering::SeqCst) {
        let event = match rx.recv_timeout(Duration::from_millis(200)) {
            Ok(event) => event,
            Err(mpsc::RecvTimeoutError::Timeout) => {
                if stopping.load(Ordering::SeqCst) {
                    return;
                }
                continue;
            }
            Err(mpsc::RecvTimeoutError::Disconnected) => return,
        };
        if !is_change(&event, inputs) {
            continue;
        }
        // Wait for the burst of events one save makes to settle, so it
        // gives one rebuild.
        let mut quiet_until = Instant::now() + DEBOUNCE;
        while let Some(left) = quiet_until.checked_duration_since(Instant::now()) {
            match rx.recv_timeout(left) {
                Ok(event) if is_change(&event, inputs) => quiet_until = Instant::now() + DEBOUNCE,
                Ok(_) => {}
                Err(mpsc::RecvTimeoutError::Timeout) => break,
                Err(mpsc::RecvTimeoutError::Disconnected) => return,
            }
        }
        if stopping.load(Ordering::SeqCst) {
            return;
        }
        rewatch(watcher, inputs);
        // A change made while this build runs queues an event of its own,
        // so it is never lost.
        rebuild(opts, state, "rebuilt");
    }
}

/// Whether an event changes a file the build reads. Opening or reading a
/// file is no change (the build itself opens every input), nor is anything
/// under a hidden name (editor swap files; the loader skips them too).
/// `inputs` are the canonical watched folders.
fn is_change(event: &WatchEvent, inputs: &[PathBuf]) -> bool {
    let event = match event {
        Ok(event) => event,
        Err(err) => {
            eprintln!("watch: {err}");
            return true;
        }
    };
    let counts = match event.kind {
        EventKind::Access(AccessKind::Close(AccessMode::Write)) => true,
        EventKind::Access(_) => false,
        _ => true,
    };
    // Only paths at or under an input count: the inputs' parents are
    // watched too, and hold other things (the output folder, say).
    counts
        && event.paths.iter().any(|path| {
            inputs
                .iter()
                .find_map(|dir| path.strip_prefix(dir).ok())
                .is_some_and(|rel| {
                    !rel.components()
                        .any(|c| c.as_os_str().to_string_lossy().starts_with('.'))
                })
        })
}

/// The served folder and the path it is served under.
struct SiteRoot {
    root: PathBuf,
    base_path: String,
}

impl SiteRoot {
    fn answer(&self, request: Request, state: &Mutex<BuildState>) {
        let (error, number, has_site) = {
            let s = state
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            (s.error.clone(), s.number, s.has_site)
        };
        let response = match request.method() {
            Method::Get | Method::Head => match resolve(&self.root, &self.base_path, request.url())
            {
                Resolved::BuildNumber => {
                    bytes(200, "text/plain; charset=utf-8", number.to_string().into())
                }
                Resolved::Forbidden => plain(403, "403 Forbidden: outside the site\n"),
                _ if !has_site => bytes(
                    500,
                    "text/html; charset=utf-8",
                    error_page(
                        error
                            .as_deref()
                            .unwrap_or("the first build has not finished"),
                    )
                    .into(),
                ),
                Resolved::File(path) => self.file(&path, 200, error.as_deref()),
                Resolved::Redirect(to) => {
                    plain(301, &format!("moved to {to}\n")).with_header(header("Location", &to))
                }
                Resolved::ToBasePath(to) => plain(302, &format!("the site is at {to}\n"))
                    .with_header(header("Location", &to)),
                Resolved::NotFound => self.not_found(error.as_deref()),
                Resolved::OutsideBasePath => plain(
                    404,
                    &format!(
                        "404 Not Found: this preview serves the site under {}\n",
                        self.base_path
                    ),
                ),
            },
            _ => plain(
                405,
                "405 Method Not Allowed: this preview answers GET and HEAD\n",
            )
            .with_header(header("Allow", "GET, HEAD")),
        };
        let response = response
            .with_header(header("Cache-Control", "no-store"))
            .with_header(header("X-Content-Type-Options", "nosniff"));
        // A client that hung up is no concern of the server's.
        let _ = request.respond(response);
    }

    fn file(
        &self,
        path: &Path,
        status: u16,
        error: Option<&str>,
    ) -> Response<std::io::Cursor<Vec<u8>>> {
        match fs::read(path) {
            Ok(body) => {
                let kind = content_type(path);
                if kind.starts_with("text/html") {
                    bytes(status, kind, decorate_html(&body, error))
                } else {
                    bytes(status, kind, body)
                }
            }
            // Swapped away mid-request by a rebuild.
            Err(_) => self.not_found(error),
        }
    }

    fn not_found(&self, error: Option<&str>) -> Response<std::io::Cursor<Vec<u8>>> {
        let page = self.root.join("404.html");
        match fs::read(&page) {
            Ok(body) => bytes(404, "text/html; charset=utf-8", decorate_html(&body, error)),
            Err(_) => plain(404, "404 Not Found\n"),
        }
    }
}

fn header(name: &str, value: &str) -> Header {
    Header::from_bytes(name.as_bytes(), value.as_bytes()).expect("valid header")
}

fn bytes(status: u16, kind: &str, body: Vec<u8>) -> Response<std::io::Cursor<Vec<u8>>> {
    // A whole body in memory: send its Content-Length rather than chunks.
    Response::from_data(body)
        .with_chunked_threshold(usize::MAX)
        .with_status_code(status)
        .with_header(header("Content-Type", kind))
}

fn plain(status: u16, text: &str) -> Response<std::io::Cursor<Vec<u8>>> {
    bytes(
        status,
        "text/plain; charset=utf-8",
        text.as_bytes().to_vec(),
    )
}

/// Escapes text for HTML content and attribute values.
fn escape_html(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for ch in text.chars() {
        match ch {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// The banner shown on every HTML page while the last rebuild is broken.
fn error_banner(error: &str) -> String {
    format!(
        "<div id=\"energyboard-build-error\" role=\"alert\" style=\"position:sticky;top:0;\
         z-index:2147483647;margin:0;padding:.75rem 1rem;background:#fde8e8;color:#5a0000;\
         border-bottom:3px solid #b00020;font:14px/1.4 system-ui,sans-serif\">\
         <strong>energyboard serve: the rebuild failed; this is the last good site.</strong>\
         <pre style=\"white-space:pre-wrap;margin:.5rem 0 0;font:13px/1.4 ui-monospace,monospace\">{}</pre></div>",
        escape_html(error)
    )
}

/// Reloads the page once a newer build has finished.
const RELOAD_SCRIPT: &str = "<script>(()=>{let n=null;const p=()=>fetch('/__energyboard/build',\
{cache:'no-store'}).then(r=>r.text()).then(t=>{if(n!==null&&t!==n)location.reload();n=t})\
.catch(()=>{}).finally(()=>setTimeout(p,1000));p()})()</script>";

/// A whole page for when no build has succeeded yet.
fn error_page(error: &str) -> String {
    format!(
        "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\">\
         <title>Build failed: energyboard serve</title></head><body>{}{RELOAD_SCRIPT}</body></html>",
        error_banner(error)
    )
}

/// Adds the error banner (after `<body …>`) and the reload script (before
/// `</body>`) to a page.
fn decorate_html(body: &[u8], error: Option<&str>) -> Vec<u8> {
    let text = String::from_utf8_lossy(body);
    let lower = text.to_ascii_lowercase();
    let mut out = String::with_capacity(text.len() + 1024);
    let after_body_tag = lower
        .find("<body")
        .and_then(|i| lower[i..].find('>').map(|j| i + j + 1))
        .unwrap_or(0);
    out.push_str(&text[..after_body_tag]);
    if let Some(error) = error {
        out.push_str(&error_banner(error));
    }
    let rest = &text[after_body_tag..];
    let end = lower[after_body_tag..]
        .rfind("</body")
        .unwrap_or(rest.len());
    out.push_str(&rest[..end]);
    out.push_str(RELOAD_SCRIPT);
    out.push_str(&rest[end..]);
    out.into_bytes()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn site() -> (tempfile::TempDir, PathBuf) {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join("site");
        fs::create_dir_all(root.join("models/a")).unwrap();
        fs::write(root.join("index.html"), "<html><body>home</body></html>").unwrap();
        fs::write(root.join("models/a/index.html"), "a").unwrap();
        fs::write(root.join(".energyboard"), "marker").unwrap();
        fs::write(dir.path().join("secret.txt"), "secret").unwrap();
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
            "/%zz",
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
        assert_eq!(resolve(&root, "/", "/.energyboard"), Resolved::NotFound);
        assert_eq!(resolve(&root, "/", "/nope.html"), Resolved::NotFound);
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
        assert_eq!(normalise_base_path("").unwrap(), "/");
        assert_eq!(normalise_base_path("/").unwrap(), "/");
        assert_eq!(normalise_base_path("repo").unwrap(), "/repo/");
        assert_eq!(normalise_base_path("/a/b").unwrap(), "/a/b/");
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
            ("sitemap.xml", "application/xml"),
            ("robots.txt", "text/plain; charset=utf-8"),
            ("a.bin", "application/octet-stream"),
        ] {
            assert_eq!(content_type(Path::new(name)), kind);
        }
    }

    #[test]
    fn banner_goes_after_body_and_escapes_the_error() {
        let page = decorate_html(
            b"<html><BODY class=x><h1>t</h1></body></html>",
            Some("bad <file>"),
        );
        let page = String::from_utf8(page).unwrap();
        let banner = page.find("energyboard-build-error").unwrap();
        assert!(page.find("<BODY class=x>").unwrap() < banner);
        assert!(banner < page.find("<h1>").unwrap());
        assert!(page.contains("bad &lt;file&gt;"));
        assert!(page.find("<script>").unwrap() < page.find("</body>").unwrap());
    }
}
