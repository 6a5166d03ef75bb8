//! The preview's HTTP/1.1 server: `std::net` sockets, a thread per
//! connection, one request per connection, and hard limits on everything a
//! client controls.
//!
//! - At most [`Limits::connections`] connections are open at once; one more
//!   is answered `503` at once and closed, without a thread.
//! - The request head (request line and headers) must arrive whole within
//!   [`Limits::head_time`], however slowly it trickles, and fit in
//!   [`Limits::head_bytes`] and [`Limits::headers`]: a longer one is answered
//!   `431` (`414` when the request line alone is too long), a slower one
//!   `408`, and the connection is closed. The buffer never grows past the
//!   limit, so an endless header costs no memory.
//! - The answer must be taken by the client within [`Limits::write_time`]
//!   in all, or the connection is dropped: a client that reads nothing
//!   holds its own thread for that long and no other.
//! - Every answer says `Connection: close`. A request body is never read.
//!
//! The head is parsed by `httparse`; this module only moves bytes.

use std::fs::File;
use std::io::{self, Read, Write};
use std::net::{Shutdown, SocketAddr, TcpListener, TcpStream};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use anyhow::{Context, Result};

/// What one client may cost the server.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// Connections open at once.
    pub connections: usize,
    /// Bytes of request line and headers.
    pub head_bytes: usize,
    /// Header lines.
    pub headers: usize,
    /// Time from accepting a connection to having its whole request head.
    pub head_time: Duration,
    /// Time to hand over the whole answer.
    pub write_time: Duration,
}

impl Limits {
    /// The preview's limits. 32 KiB of head is what Node.js allows (nginx
    /// allows 4 × 8 KiB); cookies set by other programs on `localhost`
    /// arrive here too, so it is not smaller.
    pub const PREVIEW: Self = Self {
        connections: 256,
        head_bytes: 32 * 1024,
        headers: 100,
        head_time: Duration::from_secs(10),
        write_time: Duration::from_secs(10),
    };
}

/// A request, as far as the preview cares.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Request {
    /// `GET`, `HEAD`, …
    pub method: String,
    /// The request target exactly as sent, e.g. `/models/a/?x=1`.
    pub target: String,
}

/// An answer.
#[derive(Debug)]
pub struct Response {
    /// Status code.
    pub status: u16,
    /// Header lines besides `Content-Length` and `Connection`.
    pub headers: Vec<(&'static str, String)>,
    /// The body; not sent for `HEAD`.
    pub body: Body,
}

/// What follows the head of an answer.
#[derive(Debug)]
pub enum Body {
    /// Bytes in memory.
    Bytes(Vec<u8>),
    /// An open file of this length, sent in pieces so that memory does not
    /// grow with the file or with the number of clients reading it.
    File(File, u64),
}

impl Body {
    fn len(&self) -> u64 {
        match self {
            Self::Bytes(bytes) => bytes.len() as u64,
            Self::File(_, len) => *len,
        }
    }
}

impl Response {
    /// An answer with a `Content-Type`.
    pub fn new(status: u16, content_type: &str, body: Body) -> Self {
        Self {
            status,
            headers: vec![("Content-Type", content_type.to_owned())],
            body,
        }
    }

    /// A plain-text answer.
    pub fn text(status: u16, text: &str) -> Self {
        Self::new(
            status,
            "text/plain; charset=utf-8",
            Body::Bytes(text.as_bytes().to_vec()),
        )
    }

    /// Adds a header line.
    #[must_use]
    pub fn with_header(mut self, name: &'static str, value: &str) -> Self {
        self.headers.push((name, value.to_owned()));
        self
    }
}

/// Answers requests; called on the connection's own thread.
pub type Handler = dyn Fn(&Request) -> Response + Send + Sync;

/// A listening server; dropping it does not stop it, [`Server::stop`] does.
pub struct Server {
    addr: SocketAddr,
    stopping: Arc<AtomicBool>,
    acceptor: Option<JoinHandle<()>>,
}

/// Stops a [`Server`] from any thread.
#[derive(Clone)]
pub struct StopHandle {
    addr: SocketAddr,
    stopping: Arc<AtomicBool>,
}

impl StopHandle {
    /// Stops accepting connections; requests under way finish on their
    /// own threads within the limits.
    pub fn stop(&self) {
        if !self.stopping.swap(true, Ordering::SeqCst) {
            // Wakes the blocking accept, which then sees the flag.
            let _ = TcpStream::connect_timeout(&self.addr, Duration::from_secs(1));
        }
    }

    /// Whether [`StopHandle::stop`] was called.
    pub fn is_stopping(&self) -> bool {
        self.stopping.load(Ordering::SeqCst)
    }
}

impl Server {
    /// Starts accepting on `listener`, answering each request with `handler`.
    pub fn start(listener: TcpListener, limits: Limits, handler: Arc<Handler>) -> Result<Self> {
        let addr = listener
            .local_addr()
            .context("the server has no local address")?;
        let stopping = Arc::new(AtomicBool::new(false));
        let acceptor = {
            let stopping = Arc::clone(&stopping);
            std::thread::Builder::new()
                .name("serve-accept".into())
                .spawn(move || accept_loop(&listener, limits, &handler, &stopping))
                .context("cannot start the server thread")?
        };
        Ok(Self {
            addr,
            stopping,
            acceptor: Some(acceptor),
        })
    }

    /// A handle that stops it.
    pub fn stop_handle(&self) -> StopHandle {
        StopHandle {
            addr: self.addr,
            stopping: Arc::clone(&self.stopping),
        }
    }

    /// Waits until the server has stopped accepting.
    pub fn join(mut self) {
        if let Some(acceptor) = self.acceptor.take() {
            let _ = acceptor.join();
        }
    }
}

/// Counts an open connection for as long as it lives.
struct Slot(Arc<AtomicUsize>);

impl Drop for Slot {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

fn accept_loop(
    listener: &TcpListener,
    limits: Limits,
    handler: &Arc<Handler>,
    stopping: &AtomicBool,
) {
    let open = Arc::new(AtomicUsize::new(0));
    for stream in listener.incoming() {
        if stopping.load(Ordering::SeqCst) {
            return;
        }
        let Ok(stream) = stream else {
            // Out of file descriptors, say: back off instead of spinning.
            std::thread::sleep(Duration::from_millis(10));
            continue;
        };
        if open.fetch_add(1, Ordering::SeqCst) >= limits.connections {
            let _slot = Slot(Arc::clone(&open));
            refuse(&stream);
            continue;
        }
        let slot = Slot(Arc::clone(&open));
        let handler = Arc::clone(handler);
        let spawned = std::thread::Builder::new()
            .name("serve-connection".into())
            .spawn(move || {
                let _slot = slot;
                serve_connection(stream, limits, &*handler);
            });
        if let Err(err) = spawned {
            eprintln!("serve: cannot start a connection thread: {err}");
        }
    }
}

/// Answers `503` on a connection over the limit, without blocking: a fresh
/// socket's send buffer takes the few bytes at once, or they are dropped.
fn refuse(stream: &TcpStream) {
    let _ = stream.set_nonblocking(true);
    let head = head_bytes(
        &Response::text(503, "503 Service Unavailable: too many connections\n")
            .with_header("Retry-After", "1"),
    );
    let _ = (&*stream).write(&head);
    let _ = stream.shutdown(Shutdown::Both);
}

/// Why no request came.
enum HeadError {
    /// The client closed, or sent nothing before the time ran out.
    Gone,
    /// Part of a head came, then the time ran out.
    TooSlow,
    /// The request line alone is over the limit.
    UriTooLong,
    /// Request line and headers are over the limit.
    TooLarge,
    /// Not HTTP.
    Malformed,
}

fn serve_connection(mut stream: TcpStream, limits: Limits, handler: &Handler) {
    let head_deadline = Instant::now() + limits.head_time;
    let (response, head_only, rejected) = match read_request(&mut stream, limits, head_deadline) {
        Ok(request) => {
            let head_only = request.method == "HEAD";
            (handler(&request), head_only, false)
        }
        Err(HeadError::Gone) => return,
        Err(refused) => (refusal(&refused, limits), false, true),
    };
    let deadline = Instant::now() + limits.write_time;
    if send(&mut stream, response, head_only, deadline).is_err() {
        return;
    }
    let _ = stream.shutdown(Shutdown::Write);
    if rejected {
        // The client may still be sending what was refused; closing with
        // unread bytes resets the connection and can destroy the answer in
        // flight. Read and discard a little, briefly, then close.
        linger(&mut stream);
    }
}

/// The answer to a request head that broke a limit or was not HTTP.
fn refusal(why: &HeadError, limits: Limits) -> Response {
    match why {
        HeadError::TooSlow => Response::text(
            408,
            &format!(
                "408 Request Timeout: the request head must arrive within {} s\n",
                limits.head_time.as_secs()
            ),
        ),
        HeadError::UriTooLong => Response::text(
            414,
            &format!(
                "414 URI Too Long: the request line must fit in {} KiB\n",
                limits.head_bytes / 1024
            ),
        ),
        HeadError::TooLarge => Response::text(
            431,
            &format!(
                "431 Request Header Fields Too Large: at most {} KiB and {} header lines\n",
                limits.head_bytes / 1024,
                limits.headers
            ),
        ),
        HeadError::Malformed | HeadError::Gone => {
            Response::text(400, "400 Bad Request: not an HTTP/1.x request\n")
        }
    }
}

/// Reads one request head within the limits.
fn read_request(
    stream: &mut TcpStream,
    limits: Limits,
    deadline: Instant,
) -> Result<Request, HeadError> {
    let mut buf = vec![0u8; limits.head_bytes];
    let mut len = 0;
    loop {
        let Some(left) = deadline
            .checked_duration_since(Instant::now())
            .filter(|d| !d.is_zero())
        else {
            return Err(if len == 0 {
                HeadError::Gone
            } else {
                HeadError::TooSlow
            });
        };
        if len == buf.len() {
            return Err(if buf.contains(&b'\n') {
                HeadError::TooLarge
            } else {
                HeadError::UriTooLong
            });
        }
        stream
            .set_read_timeout(Some(left))
            .map_err(|_| HeadError::Gone)?;
        match stream.read(&mut buf[len..]) {
            Ok(0) => return Err(HeadError::Gone),
            Ok(n) => {
                // Parse only once the blank line that ends a head is in:
                // parsing after every read would cost time quadratic in
                // the head for a client that sends a byte at a time.
                let fresh = &buf[len.saturating_sub(3)..len + n];
                len += n;
                if !(fresh.windows(2).any(|w| w == b"\n\n")
                    || fresh.windows(3).any(|w| w == b"\n\r\n"))
                {
                    continue;
                }
            }
            Err(err) if err.kind() == io::ErrorKind::Interrupted => continue,
            Err(err)
                if matches!(
                    err.kind(),
                    io::ErrorKind::WouldBlock | io::ErrorKind::TimedOut
                ) =>
            {
                continue;
            }
            Err(_) => return Err(HeadError::Gone),
        }
        let mut headers = vec![httparse::EMPTY_HEADER; limits.headers];
        let mut request = httparse::Request::new(&mut headers);
        match request.parse(&buf[..len]) {
            Ok(httparse::Status::Complete(_)) => {
                return Ok(Request {
                    method: request.method.unwrap_or_default().to_owned(),
                    target: request.path.unwrap_or_default().to_owned(),
                });
            }
            Ok(httparse::Status::Partial) => {}
            Err(httparse::Error::TooManyHeaders) => return Err(HeadError::TooLarge),
            Err(_) => return Err(HeadError::Malformed),
        }
    }
}

/// Sends `response` (only its head for a `HEAD` request) before `deadline`.
fn send(
    stream: &mut TcpStream,
    response: Response,
    head_only: bool,
    deadline: Instant,
) -> io::Result<()> {
    let mut head = head_bytes(&response);
    match response.body {
        _ if head_only => write_before(stream, &head, deadline),
        Body::Bytes(bytes) => {
            head.extend_from_slice(&bytes);
            write_before(stream, &head, deadline)
        }
        Body::File(file, len) => {
            write_before(stream, &head, deadline)?;
            let mut file = file.take(len);
            let mut piece = vec![0u8; 64 * 1024];
            loop {
                match file.read(&mut piece) {
                    // A file cut short under a running request ends the
                    // answer early; the client sees the length mismatch.
                    Ok(0) => return Ok(()),
                    Ok(n) => write_before(stream, &piece[..n], deadline)?,
                    Err(err) if err.kind() == io::ErrorKind::Interrupted => {}
                    Err(err) => return Err(err),
                }
            }
        }
    }
}

/// The status line and headers of `response`, ending in the blank line.
fn head_bytes(response: &Response) -> Vec<u8> {
    let mut head = format!(
        "HTTP/1.1 {} {}\r\n",
        response.status,
        reason(response.status)
    );
    for (name, value) in &response.headers {
        head.push_str(name);
        head.push_str(": ");
        head.push_str(value);
        head.push_str("\r\n");
    }
    head.push_str(&format!(
        "Content-Length: {}\r\nConnection: close\r\n\r\n",
        response.body.len()
    ));
    head.into_bytes()
}

/// Writes all of `bytes` before `deadline`, or fails.
fn write_before(stream: &mut TcpStream, mut bytes: &[u8], deadline: Instant) -> io::Result<()> {
    while !bytes.is_empty() {
        let left = deadline
            .checked_duration_since(Instant::now())
            .filter(|d| !d.is_zero())
            .ok_or(io::ErrorKind::TimedOut)?;
        // Each write waits at most the time left, so a client that takes a
        // byte now and then cannot stretch the whole past the deadline.
        stream.set_write_timeout(Some(left))?;
        match stream.write(bytes) {
            Ok(0) => return Err(io::ErrorKind::WriteZero.into()),
            Ok(n) => bytes = &bytes[n..],
            Err(err) if err.kind() == io::ErrorKind::Interrupted => {}
            Err(err) => return Err(err),
        }
    }
    Ok(())
}

/// Reads and discards what the client still sends, at most 1 MiB and one
/// second, so that a close does not reset an answer the client has not read.
fn linger(stream: &mut TcpStream) {
    let deadline = Instant::now() + Duration::from_secs(1);
    let mut sink = [0u8; 16 * 1024];
    let mut left = 1usize << 20;
    while left > 0 {
        let Some(time) = deadline
            .checked_duration_since(Instant::now())
            .filter(|d| !d.is_zero())
        else {
            return;
        };
        if stream.set_read_timeout(Some(time)).is_err() {
            return;
        }
        match stream.read(&mut sink) {
            Ok(0) | Err(_) => return,
            Ok(n) => left = left.saturating_sub(n),
        }
    }
}

/// The reason phrase of the status codes the preview sends.
fn reason(status: u16) -> &'static str {
    match status {
        200 => "OK",
        301 => "Moved Permanently",
        302 => "Found",
        400 => "Bad Request",
        403 => "Forbidden",
        404 => "Not Found",
        405 => "Method Not Allowed",
        408 => "Request Timeout",
        414 => "URI Too Long",
        431 => "Request Header Fields Too Large",
        500 => "Internal Server Error",
        503 => "Service Unavailable",
        _ => "",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A server on a free loopback port whose handler answers `body`.
    fn server(limits: Limits, body: usize) -> (Server, SocketAddr) {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let server = Server::start(
            listener,
            limits,
            Arc::new(move |_: &Request| {
                Response::new(200, "text/plain", Body::Bytes(vec![b'x'; body]))
            }),
        )
        .unwrap();
        let addr = server.addr;
        (server, addr)
    }

    const QUICK: Limits = Limits {
        connections: 8,
        head_bytes: 1024,
        headers: 8,
        head_time: Duration::from_millis(400),
        write_time: Duration::from_millis(400),
    };

    fn answer(stream: &mut TcpStream) -> Vec<u8> {
        stream
            .set_read_timeout(Some(Duration::from_secs(10)))
            .unwrap();
        let mut raw = Vec::new();
        let _ = stream.read_to_end(&mut raw);
        raw
    }

    fn status(raw: &[u8]) -> Option<u16> {
        String::from_utf8_lossy(raw)
            .split_whitespace()
            .nth(1)
            .and_then(|s| s.parse().ok())
    }

    #[test]
    fn answers_get_and_head_with_a_length_and_close() {
        let (server, addr) = server(QUICK, 5);
        let mut get = TcpStream::connect(addr).unwrap();
        get.write_all(b"GET /a?b HTTP/1.1\r\nHost: x\r\n\r\n")
            .unwrap();
        let raw = String::from_utf8(answer(&mut get)).unwrap();
        assert!(raw.starts_with("HTTP/1.1 200 OK\r\n"), "{raw}");
        assert!(raw.contains("\r\nContent-Length: 5\r\nConnection: close\r\n\r\nxxxxx"));
        let mut head = TcpStream::connect(addr).unwrap();
        head.write_all(b"HEAD / HTTP/1.0\r\n\r\n").unwrap();
        let raw = String::from_utf8(answer(&mut head)).unwrap();
        assert!(
            raw.ends_with("Content-Length: 5\r\nConnection: close\r\n\r\n"),
            "{raw}"
        );
        server.stop_handle().stop();
        server.join();
    }

    #[test]
    fn a_reader_that_reads_nothing_is_dropped_at_the_write_deadline() {
        let body = 64 << 20;
        let (_server, addr) = server(QUICK, body);
        let mut stream = TcpStream::connect(addr).unwrap();
        stream.write_all(b"GET / HTTP/1.1\r\n\r\n").unwrap();
        std::thread::sleep(QUICK.write_time * 3);
        stream
            .set_read_timeout(Some(Duration::from_secs(10)))
            .unwrap();
        let mut raw = Vec::new();
        let start = Instant::now();
        // The server hangs up: an end, or a reset (which may discard what
        // was already received), but never a wait for more.
        if let Err(err) = stream.read_to_end(&mut raw) {
            assert!(
                !matches!(
                    err.kind(),
                    io::ErrorKind::WouldBlock | io::ErrorKind::TimedOut
                ),
                "the connection was kept open: {err}"
            );
        }
        assert!(start.elapsed() < Duration::from_secs(5));
        assert!(
            raw.len() < body,
            "the whole answer waited for a client that read nothing"
        );
    }

    #[test]
    fn connections_over_the_cap_are_refused_at_once() {
        let limits = Limits {
            connections: 2,
            head_time: Duration::from_secs(30),
            ..QUICK
        };
        let (_server, addr) = server(limits, 1);
        let idle: Vec<TcpStream> = (0..limits.connections)
            .map(|_| TcpStream::connect(addr).unwrap())
            .collect();
        std::thread::sleep(Duration::from_millis(100));
        let start = Instant::now();
        let mut over = TcpStream::connect(addr).unwrap();
        let _ = over.write_all(b"GET / HTTP/1.1\r\n\r\n");
        assert_eq!(status(&answer(&mut over)), Some(503));
        assert!(start.elapsed() < Duration::from_secs(2));
        drop(idle);
        std::thread::sleep(Duration::from_millis(200));
        let mut next = TcpStream::connect(addr).unwrap();
        next.write_all(b"GET / HTTP/1.1\r\n\r\n").unwrap();
        assert_eq!(status(&answer(&mut next)), Some(200));
    }

    #[test]
    fn a_head_that_trickles_in_gets_408_at_the_deadline() {
        let (_server, addr) = server(QUICK, 1);
        let mut stream = TcpStream::connect(addr).unwrap();
        let start = Instant::now();
        for _ in 0..3 {
            stream.write_all(b"GET / HTTP/1.1\r\nX: ").unwrap();
            std::thread::sleep(QUICK.head_time / 4);
        }
        assert_eq!(status(&answer(&mut stream)), Some(408));
        assert!(start.elapsed() < QUICK.head_time * 4);
    }

    #[test]
    fn oversized_and_malformed_heads_are_refused() {
        let (_server, addr) = server(QUICK, 1);
        for (head, want) in [
            (format!("GET /{} HTTP/1.1\r\n\r\n", "a".repeat(2000)), 414),
            (
                format!("GET / HTTP/1.1\r\nX: {}\r\n\r\n", "a".repeat(2000)),
                431,
            ),
            (
                format!("GET / HTTP/1.1\r\n{}\r\n", "X: y\r\n".repeat(20)),
                431,
            ),
            ("not http\r\n\r\n".to_owned(), 400),
        ] {
            let mut stream = TcpStream::connect(addr).unwrap();
            let _ = stream.write_all(head.as_bytes());
            assert_eq!(status(&answer(&mut stream)), Some(want), "{head:.40}");
        }
    }
}
