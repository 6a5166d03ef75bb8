//! Live preview: builds the site, serves it on 127.0.0.1 only, and builds
//! it again whenever a file under the data or static folder changes.
//!
//! Each change rebuilds the whole site into a staging folder and swaps it
//! in, as [`crate::build`] does: the leaderboard builds in a fraction of a
//! second, so nothing is kept between edits. Only the inputs are watched,
//! never the output: on Linux reading a served file counts as an access, so
//! every page view would trigger a rebuild. A failed rebuild keeps the last
//! good site, its error printed and shown as a banner on every HTML page
//! until a rebuild succeeds. Pages carry a script that reloads them after
//! each finished rebuild.
//!
//! Requests are resolved segment by segment ([`resolve`]): `.` and `..`
//! segments (plain or percent-encoded) are refused, the file is
//! canonicalised and must lie inside the canonical site folder, and hidden
//! files (such as the build marker) are not served. HTTP is hyper's, files
//! are sent by tower-http's `ServeFile`; what one client may cost is
//! bounded: [`MAX_CONNECTIONS`] at once, a request head of [`HEAD_BYTES`]
//! that must arrive within [`HEAD_TIME`], and one request per connection,
//! closed after [`CONNECTION_TIME`] whatever it does.

use std::fs;
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::sync::{Arc, mpsc};
use std::time::Duration;

use anyhow::{Context, Result, bail};
use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::{HeaderValue, Method, StatusCode, header};
use axum::response::{IntoResponse, Response};
use notify::event::{AccessKind, AccessMode};
use notify::{EventKind, RecommendedWatcher, RecursiveMode};
use notify_debouncer_full::{DebounceEventResult, Debouncer, RecommendedCache, new_debouncer};
use tokio::sync::{Semaphore, watch};

use crate::BuildOptions;

/// Path of the endpoint that answers the number of the last finished build;
/// the reload script polls it. It sits outside any base path.
pub const BUILD_ENDPOINT: &str = "/__energyboard/build";

/// How long a changed path must stay quiet before a rebuild: long enough
/// for the few events of one save (an editor writes a new file and renames
/// it over the old), short next to the 500 ms an edit may take to show.
const DEBOUNCE: Duration = Duration::from_millis(50);

/// How long a request for the build number may wait for the next build
/// (`?after=N`): the reload script asks again at once, so a page reloads as
/// soon as a build finishes, not a polling interval later.
const LONG_POLL: Duration = Duration::from_secs(20);

/// Connections served at once; more wait to be accepted.
pub const MAX_CONNECTIONS: usize = 256;
/// Bytes of request line and headers (hyper answers 431 beyond). 32 KiB is
/// what Node.js allows; cookies other programs set on `localhost` arrive
/// here too, so it is not smaller.
pub const HEAD_BYTES: usize = 32 * 1024;
/// Time from accepting a connection to having its whole request head.
pub const HEAD_TIME: Duration = Duration::from_secs(10);
/// Time a connection may stay open in all: its one request, the longest
/// wait for the build number and the sending of the answer.
pub const CONNECTION_TIME: Duration = Duration::from_secs(30);

type InputWatcher = Debouncer<RecommendedWatcher, RecommendedCache>;

/// What `energyboard serve` builds and how it serves it.
#[derive(Debug, Clone)]
pub struct ServeOptions {
    /// The build, as `energyboard build` runs it (its data and static
    /// folders are watched), but that the base URL is the preview's own.
    pub build: BuildOptions,
    /// Build into a new temporary folder, removed on exit, instead of
    /// `build.out_dir`, so a preview never rewrites the committed `site/`.
    pub temporary: bool,
    /// TCP port on 127.0.0.1; 0 picks a free one.
    pub port: u16,
    /// URL path the site is served under, e.g. `/repo/` for a GitHub Pages
    /// project site; `/` for the root.
    pub base_path: String,
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

/// Resolves `raw_url`, as sent on the request line, in the site folder
/// `root` served under `base_path` (normalised: [`normalise_base_path`]).
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
    // One pass: `%252e` is the name `%2e`, never `.`.
    let Ok(decoded) = percent_encoding::percent_decode_str(rest).decode_utf8() else {
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

/// The `Content-Type` for a file, by extension (`mime_guess`'s table);
/// text types say UTF-8, which is all the site writes.
pub fn content_type(path: &Path) -> String {
    let kind = mime_guess::from_path(path).first_raw();
    match kind {
        Some(kind) if kind.starts_with("text/") => format!("{kind}; charset=utf-8"),
        Some(kind) => kind.to_owned(),
        None => "application/octet-stream".to_owned(),
    }
}

/// The builds' outcome so far, published by the watcher thread.
#[derive(Debug, Clone, Default)]
struct BuildState {
    /// Finished builds, good or bad; the reload script watches it.
    number: u64,
    /// Whether some build has succeeded.
    has_site: bool,
    /// The error of the last build, when it failed.
    error: Option<String>,
}

/// Builds the site once, starts the server on 127.0.0.1 and the input
/// watcher, and serves until Ctrl-C; then closes the port, drops open
/// connections, waits for a running rebuild and removes any temporary
/// output folder. A failed first build is reported and shown in the
/// browser; the server keeps running and rebuilds on change.
pub fn run(opts: &ServeOptions) -> Result<()> {
    let base_path = normalise_base_path(&opts.base_path)?;
    let mut build = opts.build.clone();
    let temp = if opts.temporary {
        let temp = preview_folder()?;
        build.out_dir = temp.path().join("site");
        Some(temp)
    } else {
        None
    };
    // Held while the preview runs, so another preview can tell that its
    // temporary folder is in use; let go after the folder is removed.
    let alive = temp
        .as_ref()
        .map(|t| crate::stage::Lock::take(&t.path().join(ALIVE_LOCK), t.path(), "start again"))
        .transpose()?;
    // The output must not be, sit inside, or contain a watched folder:
    // each build would trigger the next, or replace the input whole.
    crate::write::guard_output(&build.out_dir, &[&build.data_dir, &build.static_dir])?;
    if !opts.temporary {
        // Refuse a foreign folder now, not after the server is up.
        crate::write::check_target(&build.out_dir, crate::write::Made::Site, build.force)?;
    }

    let listener = TcpListener::bind(("127.0.0.1", opts.port))
        .with_context(|| format!("cannot listen on 127.0.0.1:{}", opts.port))?;
    let port = listener.local_addr()?.port();
    let url = format!("http://127.0.0.1:{port}{base_path}");
    // The preview's own URL, so canonical links, the sitemap and link
    // previews are those Pages would serve, only on this host.
    build.base_url = Some(url.clone());
    let (builds, _) = watch::channel(BuildState::default());
    let builds = Arc::new(builds);
    rebuild(&build, &builds, "built");

    let inputs = vec![
        watched_path(&build.data_dir)?,
        watched_path(&build.static_dir)?,
    ];
    let (tx, rx) = mpsc::channel::<DebounceEventResult>();
    let mut watcher = watch_inputs(&inputs, tx)?;

    let (stop, stopping) = watch::channel(false);
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .context("cannot start the server's runtime")?;
    listener.set_nonblocking(true)?;
    let listener = {
        let _in_runtime = runtime.enter();
        tokio::net::TcpListener::from_std(listener)?
    };
    let site = Arc::new(Site {
        root: build.out_dir.clone(),
        base_path,
        builds: builds.subscribe(),
    });
    let app = axum::Router::new().fallback(answer).with_state(site);
    let server = runtime.spawn(accept(listener, app, stopping.clone()));
    let rebuilder = std::thread::spawn(move || {
        watch_and_rebuild(&rx, &mut watcher, &inputs, &build, &builds, &stopping);
    });
    ctrlc::set_handler(move || {
        stop.send_replace(true);
    })
    .map_err(|err| anyhow::anyhow!("cannot catch Ctrl-C: {err}"))?;
    println!("serving {url} (Ctrl-C to stop)");
    let _ = runtime.block_on(server);
    runtime.shutdown_timeout(Duration::from_secs(1));
    let _ = rebuilder.join();
    drop(temp);
    drop(alive);
    println!("stopped");
    Ok(())
}

/// A new temporary folder for a preview, only this user's, in memory
/// (`/dev/shm`) where there is one; dead previews' folders are removed
/// first.
fn preview_folder() -> Result<tempfile::TempDir> {
    let make = |parent: &Path| {
        remove_dead_previews(parent);
        let prefix = format!("{PREVIEW_PREFIX}{}-", std::process::id());
        let mut builder = tempfile::Builder::new();
        builder.prefix(&prefix);
        // Only this user's: /dev/shm and /tmp are shared by every user.
        #[cfg(unix)]
        builder.permissions(std::os::unix::fs::PermissionsExt::from_mode(0o700));
        builder.tempdir_in(parent)
    };
    memory_folder()
        .and_then(|shm| make(&shm).ok())
        .map_or_else(|| make(&std::env::temp_dir()), Ok)
        .context("cannot create a temporary folder for the preview")
}

/// A file watcher that reports changes to `inputs` through `tx`.
fn watch_inputs(inputs: &[PathBuf], tx: mpsc::Sender<DebounceEventResult>) -> Result<InputWatcher> {
    let mut watcher = new_debouncer(DEBOUNCE, None, tx).context("cannot start the file watcher")?;
    // Each input's parent too (not recursively), so that an input that is
    // deleted and made again, or moved away and back, is watched again.
    for dir in inputs {
        if let Some(parent) = dir.parent() {
            watcher
                .watch(parent, RecursiveMode::NonRecursive)
                .with_context(|| format!("cannot watch {} for changes", parent.display()))?;
        }
    }
    rewatch(&mut watcher, inputs);
    Ok(watcher)
}

/// Accepts connections until `stopping`, each in its own task within the limits above.
async fn accept(
    listener: tokio::net::TcpListener,
    app: axum::Router,
    mut stopping: watch::Receiver<bool>,
) {
    let slots = Arc::new(Semaphore::new(MAX_CONNECTIONS));
    let mut stopped = std::pin::pin!(async move { drop(stopping.wait_for(|stop| *stop).await) });
    loop {
        let accepted = tokio::select! {
            () = &mut stopped => return,
            accepted = async {
                let slot = Arc::clone(&slots).acquire_owned().await;
                (slot, listener.accept().await)
            } => accepted,
        };
        let (Ok(slot), Ok((stream, _))) = accepted else {
            // Out of file descriptors, say: wait for some to close.
            tokio::time::sleep(Duration::from_millis(50)).await;
            continue;
        };
        let service = hyper_util::service::TowerToHyperService::new(app.clone());
        tokio::spawn(async move {
            let connection = hyper::server::conn::http1::Builder::new()
                .timer(hyper_util::rt::TokioTimer::new())
                .header_read_timeout(HEAD_TIME)
                .max_buf_size(HEAD_BYTES)
                .keep_alive(false)
                .serve_connection(hyper_util::rt::TokioIo::new(stream), service);
            let _ = tokio::time::timeout(CONNECTION_TIME, connection).await;
            drop(slot);
        });
    }
}

const PREVIEW_PREFIX: &str = "energyboard-serve-";

/// The lock a running preview holds in its temporary folder.
const ALIVE_LOCK: &str = ".serve.lock";

/// Free space a memory folder needs before the preview writes there.
const MEMORY_FOLDER_MIN_FREE: u64 = 1 << 30;

/// Where the preview's own output goes when `TMPDIR` does not say: on Linux
/// `/dev/shm`, a folder in memory, when it has [`MEMORY_FOLDER_MIN_FREE`]
/// free (a container's 64 MiB one is passed over). Every edit rewrites the
/// whole site: the leaderboard's 1,284 files take 0.18 s there and 0.5 s on
/// this machine's disk, the difference between an edit showing within
/// 500 ms or not (`bench/serve-edit.sh`, 2026-12-02).
#[cfg(target_os = "linux")]
fn memory_folder() -> Option<PathBuf> {
    if std::env::var_os("TMPDIR").is_some() {
        return None;
    }
    let shm = Path::new("/dev/shm");
    let stat = rustix::fs::statvfs(shm).ok()?;
    (stat.f_bavail.saturating_mul(stat.f_frsize) >= MEMORY_FOLDER_MIN_FREE)
        .then(|| shm.to_path_buf())
}

/// Elsewhere the system's temporary folder serves.
#[cfg(not(target_os = "linux"))]
fn memory_folder() -> Option<PathBuf> {
    None
}

/// Removes the temporary folders of previews that were killed before they
/// could clean up: named `energyboard-serve-…`, with a lock no process
/// holds (the kernel lets go of a killed process's locks), and holding
/// nothing but energyboard's own site, staging folders and locks.
fn remove_dead_previews(temp: &Path) {
    let Ok(entries) = fs::read_dir(temp) else {
        return;
    };
    for entry in entries.filter_map(Result::ok) {
        let dir = entry.path();
        let lock = dir.join(ALIVE_LOCK);
        if !entry
            .file_name()
            .to_string_lossy()
            .starts_with(PREVIEW_PREFIX)
            || !fs::symlink_metadata(&dir).is_ok_and(|m| m.is_dir())
            || !fs::symlink_metadata(&lock).is_ok_and(|m| m.is_file())
        {
            continue;
        }
        // Held by a running preview: leave its folder alone.
        let Ok(_held) = crate::stage::Lock::take(&lock, &dir, "") else {
            continue;
        };
        let ours = fs::read_dir(&dir).is_ok_and(|inner| {
            inner.filter_map(Result::ok).all(|e| {
                let n = e.file_name().to_string_lossy().into_owned();
                (n == "site" && crate::write::made_by(&e.path()).is_some())
                    || n.starts_with(".site.tmp-")
                    || n == ".site.lock"
                    || n == ALIVE_LOCK
            })
        });
        if ours {
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

/// (Re)watches every input folder that exists now, recursively: one deleted
/// and made again, or moved back, lost its old watch or took it along.
fn rewatch(watcher: &mut InputWatcher, inputs: &[PathBuf]) {
    for dir in inputs {
        let _ = watcher.unwatch(dir);
        if dir.is_dir() {
            if let Err(err) = watcher.watch(dir, RecursiveMode::Recursive) {
                eprintln!("watch: cannot watch {}: {err}", dir.display());
            }
        }
    }
}

/// Builds the whole site, swaps it in, and publishes the outcome.
fn rebuild(opts: &BuildOptions, builds: &watch::Sender<BuildState>, verb: &str) {
    let result = crate::build(opts);
    builds.send_modify(|state| {
        state.number += 1;
        match result {
            Ok(summary) => {
                eprintln!("{verb} site: {summary}");
                state.has_site = true;
                state.error = None;
            }
            Err(err) => {
                let text = format!("{err:#}");
                let what = if state.has_site {
                    "rebuild failed, still serving the last good site"
                } else {
                    "build failed, nothing to serve until it is fixed"
                };
                eprintln!("error: {what}:\n{text}");
                state.error = Some(text);
            }
        }
    });
}

fn watch_and_rebuild(
    rx: &mpsc::Receiver<DebounceEventResult>,
    watcher: &mut InputWatcher,
    inputs: &[PathBuf],
    opts: &BuildOptions,
    builds: &watch::Sender<BuildState>,
    stopping: &watch::Receiver<bool>,
) {
    while !*stopping.borrow() {
        // The debouncer hands over a path's events once it has been quiet
        // for DEBOUNCE, so the burst one save makes gives one batch.
        let batch = match rx.recv_timeout(Duration::from_millis(200)) {
            Ok(batch) => batch,
            Err(mpsc::RecvTimeoutError::Timeout) => continue,
            Err(mpsc::RecvTimeoutError::Disconnected) => return,
        };
        if !is_change(&batch, inputs) {
            continue;
        }
        // Batches already waiting are older than the build about to start,
        // which reads their changes too.
        while rx.try_recv().is_ok() {}
        if *stopping.borrow() {
            return;
        }
        rewatch(watcher, inputs);
        // A change made while this build runs queues a batch of its own,
        // so it is never lost.
        rebuild(opts, builds, "rebuilt");
    }
}

/// Whether a batch of events changes a file the build reads. Opening or
/// reading a file is no change (the build itself opens every input), nor is
/// anything under a hidden name (editor swap files; the loader skips them
/// too). `inputs` are the canonical watched folders.
fn is_change(batch: &DebounceEventResult, inputs: &[PathBuf]) -> bool {
    let events = match batch {
        Ok(events) => events,
        Err(errors) => {
            for err in errors {
                eprintln!("watch: {err}");
            }
            return true;
        }
    };
    events.iter().any(|event| {
        let counts = !matches!(
            event.kind,
            EventKind::Access(kind) if kind != AccessKind::Close(AccessMode::Write)
        );
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
    })
}

struct Site {
    root: PathBuf,
    base_path: String,
    builds: watch::Receiver<BuildState>,
}

/// The size of a request's head as it came: request line and headers,
/// each with its separators and line end.
fn head_size(request: &Request) -> usize {
    let line = request.method().as_str().len() + request.uri().to_string().len() + 12;
    let headers: usize = request
        .headers()
        .iter()
        .map(|(name, value)| name.as_str().len() + value.len() + 4)
        .sum();
    line + headers + 2
}

/// Answers one request; every answer is not to be cached and not sniffed.
async fn answer(State(site): State<Arc<Site>>, request: Request) -> Response {
    let mut response = site.answer(request).await;
    let headers = response.headers_mut();
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    headers.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    response
}

impl Site {
    async fn answer(&self, request: Request) -> Response {
        if head_size(&request) > HEAD_BYTES {
            // hyper's read buffer may take in a little more than its bound
            // in one read; the documented limit is this one.
            let text =
                "431 Request Header Fields Too Large: at most 32 KiB of request line and headers\n";
            return (StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE, text).into_response();
        }
        if !matches!(*request.method(), Method::GET | Method::HEAD) {
            let text = "405 Method Not Allowed: this preview answers GET and HEAD\n";
            return (
                StatusCode::METHOD_NOT_ALLOWED,
                [(header::ALLOW, "GET, HEAD")],
                text,
            )
                .into_response();
        }
        let target = request.uri().to_string();
        let state = self.builds.borrow().clone();
        match resolve(&self.root, &self.base_path, &target) {
            Resolved::BuildNumber => {
                let mut builds = self.builds.clone();
                if build_seen(&target) == Some(state.number) {
                    let next = builds.wait_for(|s| s.number != state.number);
                    let _ = tokio::time::timeout(LONG_POLL, next).await;
                }
                builds.borrow().number.to_string().into_response()
            }
            Resolved::Forbidden => {
                (StatusCode::FORBIDDEN, "403 Forbidden: outside the site\n").into_response()
            }
            _ if !state.has_site => {
                let error = state
                    .error
                    .as_deref()
                    .unwrap_or("the first build has not finished");
                let page = markup(&ErrorPage {
                    error,
                    seen: state.number,
                });
                html(StatusCode::INTERNAL_SERVER_ERROR, page.into_bytes())
            }
            Resolved::File(path) => self.file(&path, request, &state).await,
            Resolved::Redirect(to) => moved(StatusCode::MOVED_PERMANENTLY, &to, "moved to"),
            Resolved::ToBasePath(to) => moved(StatusCode::FOUND, &to, "the site is at"),
            Resolved::NotFound => self.not_found(&state).await,
            Resolved::OutsideBasePath => (
                StatusCode::NOT_FOUND,
                format!(
                    "404 Not Found: this preview serves the site under {}\n",
                    self.base_path
                ),
            )
                .into_response(),
        }
    }

    /// A page gets the reload script and any error banner of `state` (as it
    /// was before the file was read); any other file is sent as it is.
    async fn file(&self, path: &Path, request: Request, state: &BuildState) -> Response {
        let kind = content_type(path);
        if kind.starts_with("text/html") {
            return match tokio::fs::read(path).await {
                Ok(page) => html(StatusCode::OK, decorate_html(&page, state)),
                // Swapped away mid-request by a rebuild.
                Err(_) => self.not_found(state).await,
            };
        }
        let Ok(mut response) = tower_http::services::ServeFile::new(path)
            .try_call(request)
            .await
        else {
            return self.not_found(state).await;
        };
        if let Ok(kind) = HeaderValue::from_str(&kind) {
            response.headers_mut().insert(header::CONTENT_TYPE, kind);
        }
        response.map(Body::new)
    }

    async fn not_found(&self, state: &BuildState) -> Response {
        match tokio::fs::read(self.root.join("404.html")).await {
            Ok(page) => html(StatusCode::NOT_FOUND, decorate_html(&page, state)),
            Err(_) => (StatusCode::NOT_FOUND, "404 Not Found\n").into_response(),
        }
    }
}

fn moved(status: StatusCode, to: &str, says: &str) -> Response {
    (status, [(header::LOCATION, to)], format!("{says} {to}\n")).into_response()
}

fn html(status: StatusCode, page: Vec<u8>) -> Response {
    let kind = [(header::CONTENT_TYPE, "text/html; charset=utf-8")];
    (status, kind, page).into_response()
}

/// The build number a request for it has seen: `N` in `?after=N`.
fn build_seen(target: &str) -> Option<u64> {
    let (_, query) = target.split_once('?')?;
    query
        .split('&')
        .find_map(|pair| pair.strip_prefix("after="))
        .and_then(|n| n.parse().ok())
}

/// The banner shown on every HTML page while the last rebuild is broken.
#[derive(askama::Template)]
#[template(path = "serve/banner.html")]
struct ErrorBanner<'a> {
    error: &'a str,
}

/// Reloads the page once a build newer than `seen` has finished.
#[derive(askama::Template)]
#[template(path = "serve/reload.html")]
struct ReloadScript {
    /// The number of the last finished build when the page was asked for.
    /// A script that asked for it itself would miss a build finished while
    /// the page loaded, and its banner (checks/preview.mjs did, on a busy
    /// machine).
    seen: u64,
}

/// A whole page for when no build has succeeded yet.
#[derive(askama::Template)]
#[template(path = "serve/error.html")]
struct ErrorPage<'a> {
    error: &'a str,
    seen: u64,
}

/// Renders one of serve's own templates, which take only text: failing is a bug.
fn markup(template: &impl askama::Template) -> String {
    template.render().expect("serve's templates render")
}

/// Adds the error banner of `state` (after `<body …>`) and the reload
/// script (before `</body>`) to a page of its build.
fn decorate_html(body: &[u8], state: &BuildState) -> Vec<u8> {
    let text = String::from_utf8_lossy(body);
    let lower = text.to_ascii_lowercase();
    let mut out = String::with_capacity(text.len() + 1024);
    let after_body_tag = lower
        .find("<body")
        .and_then(|i| lower[i..].find('>').map(|j| i + j + 1))
        .unwrap_or(0);
    out.push_str(&text[..after_body_tag]);
    if let Some(error) = &state.error {
        out.push_str(&markup(&ErrorBanner { error }));
    }
    let rest = &text[after_body_tag..];
    let end = lower[after_body_tag..]
        .rfind("</body")
        .unwrap_or(rest.len());
    out.push_str(&rest[..end]);
    out.push_str(&markup(&ReloadScript { seen: state.number }));
    out.push_str(&rest[end..]);
    out.into_bytes()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_request_for_the_build_number_waits_for_the_next_build() {
        assert_eq!(build_seen("/__energyboard/build?after=7"), Some(7));
        assert_eq!(build_seen("/__energyboard/build?x=1&after=12"), Some(12));
        assert_eq!(build_seen("/__energyboard/build"), None);
        assert_eq!(build_seen("/__energyboard/build?after=-1"), None);
    }

    #[test]
    fn banner_goes_after_body_and_escapes_the_error() {
        let state = BuildState {
            number: 7,
            has_site: true,
            error: Some("bad <file>".into()),
        };
        let page = decorate_html(b"<html><BODY class=x><h1>t</h1></body></html>", &state);
        let page = String::from_utf8(page).unwrap();
        let banner = page.find("energyboard-build-error").unwrap();
        assert!(page.find("<BODY class=x>").unwrap() < banner);
        assert!(banner < page.find("<h1>").unwrap());
        assert!(page.contains("bad &#60;file&#62;"), "{page}");
        assert!(!page.contains("<file>"));
        assert!(page.find("<script>").unwrap() < page.find("</body>").unwrap());
        assert!(page.contains("const n='7'"), "{page}");
    }
}
