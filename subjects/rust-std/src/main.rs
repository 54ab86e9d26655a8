//! Loadlab subject "rust-std": the subject contract (docs/architecture.md) on nothing but the Rust
//! standard library -- std::net::TcpListener, one OS thread per connection, a hand-written
//! HTTP/1.1 parser on a BufReader.
//!
//!   rust-std-server --port 8080 [--threads N] [--durability memory|fsync --dir DIR]
//!
//! It prints "listening on PORT" once it accepts connections and exits on SIGTERM (no handler is
//! installed, so the default action ends the process; there is no state worth flushing: in fsync
//! mode every acknowledged PUT is already on disk).
//!
//! Why a thread per connection and not the Rust book's fixed ThreadPool: a pool worker that takes
//! a keep-alive connection serves it until the client closes it, so with a pool of N workers only
//! N of the benchmark's 64+ connections would ever be answered and the rest would time out; and
//! a worker sleeping in /delay/{ms} would hold its whole pool slot. With one thread per
//! connection the kernel scheduler does the multiplexing, a sleeping /delay blocks only its own
//! connection, and the cost (a mostly untouched 2 MiB virtual stack per connection) is small at
//! benchmark scale (hundreds of connections). Hence `--threads` is accepted and ignored: the
//! number of threads follows the number of connections, and the CPUs the server may use are set
//! by the harness's CPU pinning.
//!
//! Compatibility: uses no std API newer than Rust 1.63 (Debian bookworm's rustc).

use std::collections::hash_map::DefaultHasher;
use std::collections::HashMap;
use std::fs::{self, File};
use std::hash::{Hash, Hasher};
use std::io::{self, BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::PathBuf;
use std::process;
use std::sync::{Arc, Mutex, RwLock};
use std::thread;
use std::time::Duration;

/// Largest request body and largest /bytes/{n} answer.
const MAX_BYTES: u64 = 64 << 20;
/// Longest request line or header line; longer ones are answered 414 or 431 and the connection
/// closed.
const MAX_LINE: u64 = 8 << 10;
const MAX_HEADERS: usize = 100;
const MAX_DELAY_MS: u64 = 60_000;
/// Locks that serialise fsync-mode PUTs of the same file; see `Store::put`.
const STRIPES: usize = 256;

const PLAINTEXT: &[u8] = b"Hello, World!";
const JSON: &[u8] = br#"{"message":"Hello, World!"}"#;

fn main() {
    let mut port: u16 = 8080;
    let mut durability = String::from("memory");
    let mut dir: Option<PathBuf> = None;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let value = args.next().unwrap_or_else(|| usage(&format!("{} needs a value", a)));
        match a.as_str() {
            "--port" => port = value.parse().unwrap_or_else(|_| usage("--port needs a number")),
            // Accepted for the common command line; see the module comment for why it is unused.
            "--threads" => {
                let _: usize = value.parse().unwrap_or_else(|_| usage("--threads needs a number"));
            }
            "--durability" => durability = value,
            "--dir" => dir = Some(PathBuf::from(value)),
            _ => usage(&format!("unknown argument {}", a)),
        }
    }
    let kv_dir = match durability.as_str() {
        "memory" => None,
        "fsync" => {
            let d = dir.unwrap_or_else(|| usage("--durability fsync needs --dir DIR")).join("kv");
            if let Err(e) = fs::create_dir_all(&d) {
                eprintln!("rust-std: cannot create {}: {}", d.display(), e);
                process::exit(1);
            }
            Some(d)
        }
        other => usage(&format!("durability must be memory or fsync, got '{}'", other)),
    };
    let shared = Arc::new(Shared {
        store: Store {
            map: RwLock::new(HashMap::new()),
            dir: kv_dir,
            stripes: (0..STRIPES).map(|_| Mutex::new(())).collect(),
        },
        pattern: pattern(),
    });

    let listener = TcpListener::bind(("0.0.0.0", port)).unwrap_or_else(|e| {
        eprintln!("rust-std: cannot listen on port {}: {}", port, e);
        process::exit(1);
    });
    println!("listening on {} (thread per connection, durability {})", port, durability);
    let _ = io::stdout().flush();

    for conn in listener.incoming() {
        match conn {
            Ok(stream) => {
                let shared = Arc::clone(&shared);
                let spawned = thread::Builder::new().spawn(move || {
                    // Errors here are the client going away or a broken request: nothing to report.
                    let _ = serve(stream, &shared);
                });
                if let Err(e) = spawned {
                    eprintln!("rust-std: cannot start a connection thread: {}", e);
                }
            }
            Err(e) => {
                // Typically EMFILE: back off briefly instead of spinning on the accept queue.
                eprintln!("rust-std: accept failed: {}", e);
                thread::sleep(Duration::from_millis(10));
            }
        }
    }
}

fn usage(problem: &str) -> ! {
    eprintln!(
        "rust-std: {}; usage: --port P [--threads N] [--durability memory|fsync --dir DIR]",
        problem
    );
    process::exit(2);
}

/// What every connection thread shares.
struct Shared {
    store: Store,
    /// The /bytes/{n} pattern (byte i = 'a' + i % 26), served in slices.
    pattern: Vec<u8>,
}

/// A whole number of 26-byte periods, at least 1 MiB, so that consecutive slices continue the
/// pattern seamlessly for n above its length.
fn pattern() -> Vec<u8> {
    let len = ((1usize << 20) + 25) / 26 * 26;
    (0..len).map(|i| b'a' + (i % 26) as u8).collect()
}

/// The key-value store: values live in memory; in fsync mode each is also written to its own file.
struct Store {
    map: RwLock<HashMap<String, Arc<Vec<u8>>>>,
    dir: Option<PathBuf>,
    stripes: Vec<Mutex<()>>,
}

impl Store {
    /// Stores the value and tells whether the key existed. In fsync mode it returns only after
    /// File::sync_data (fdatasync) of the value's file.
    fn put(&self, key: &str, value: Vec<u8>) -> io::Result<bool> {
        let value = Arc::new(value);
        let dir = match &self.dir {
            None => return Ok(self.insert(key, value)),
            Some(d) => d,
        };
        let name = file_name(key);
        // Two PUTs of one key must not interleave truncate/write/sync on the same file, and the
        // map must end with the value the file ends with: hold the file's lock throughout. Locks
        // are striped by name so that PUTs of different keys (nearly always) fsync in parallel.
        let mut h = DefaultHasher::new();
        name.hash(&mut h);
        let _guard = self.stripes[h.finish() as usize % STRIPES].lock().unwrap();
        let mut f = File::create(dir.join(&name))?;
        f.write_all(&value)?;
        f.sync_data()?;
        Ok(self.insert(key, value))
    }

    fn insert(&self, key: &str, value: Arc<Vec<u8>>) -> bool {
        self.map.write().unwrap().insert(key.to_owned(), value).is_some()
    }

    fn get(&self, key: &str) -> Option<Arc<Vec<u8>>> {
        // Clone the Arc and let go of the lock before the (possibly large) copy into the answer.
        self.map.read().unwrap().get(key).cloned()
    }
}

/// Keys come from URLs: every byte outside [A-Za-z0-9_-] becomes %XX, which keeps distinct keys
/// in distinct files and rules out "/", "." and "..". Keys are at most 80 bytes (checked by the
/// router), so the name stays under the 255-byte limit.
fn file_name(key: &str) -> String {
    let mut s = String::with_capacity(key.len());
    for &b in key.as_bytes() {
        if b.is_ascii_alphanumeric() || b == b'_' || b == b'-' {
            s.push(b as char);
        } else {
            s.push_str(&format!("%{:02X}", b));
        }
    }
    s
}

/// The head of one request, as far as the contract needs it.
struct Head {
    method: String,
    target: String,
    keep_alive: bool,
    http10: bool,
    content_length: u64,
    expect_continue: bool,
}

/// A request we refuse; the answer closes the connection because framing may be lost.
struct Refusal(&'static str);

/// Stands in for the head of a refused request when answering it: the answer closes.
const CLOSING: Head = Head {
    method: String::new(),
    target: String::new(),
    keep_alive: false,
    http10: false,
    content_length: 0,
    expect_continue: false,
};

/// Serves one connection: requests are read and answered one after the other, which answers
/// pipelined requests in order by construction.
fn serve(stream: TcpStream, shared: &Shared) -> io::Result<()> {
    stream.set_nodelay(true)?;
    let mut writer = stream.try_clone()?;
    let mut reader = BufReader::with_capacity(16 << 10, stream);
    // Each answer is built whole in `out` and written with one write_all, so that headers and
    // body never go out as separate small segments. Answers are not held back to coalesce
    // pipelined ones: if the next request sat half-read in the buffer, we would block reading
    // its rest while the client (Nagle) might wait for our ACK or answers -- a 40 ms stall.
    let mut out: Vec<u8> = Vec::with_capacity(4 << 10);
    let mut line = Vec::with_capacity(256);
    loop {
        let head = match read_head(&mut reader, &mut line)? {
            None => break, // the client closed between requests
            Some(Ok(h)) => h,
            Some(Err(Refusal(status))) => {
                append_reply(&mut out, &text(status, status), &CLOSING, &[]);
                writer.write_all(&out)?;
                return Ok(());
            }
        };
        if head.content_length > MAX_BYTES {
            let status = "413 Content Too Large";
            append_reply(&mut out, &text(status, status), &CLOSING, &[]);
            writer.write_all(&out)?;
            return Ok(());
        }
        if head.expect_continue && head.content_length > 0 {
            writer.write_all(b"HTTP/1.1 100 Continue\r\n\r\n")?;
        }
        let mut body = vec![0u8; head.content_length as usize];
        reader.read_exact(&mut body)?;

        let reply = route(&head, body, shared);
        if let Some(wait) = reply.wait {
            // Only this connection's thread sleeps; the others go on.
            thread::sleep(wait);
        }
        append_reply(&mut out, &reply, &head, &shared.pattern);
        writer.write_all(&out)?;
        if !head.keep_alive {
            return Ok(());
        }
        out.clear();
        if out.capacity() > 4 << 20 {
            out = Vec::with_capacity(4 << 10); // don't keep a /bytes/64M buffer per connection
        }
    }
    Ok(())
}

/// Reads one line without its CRLF (or bare LF). Ok(false) at a clean end of stream.
fn read_line(reader: &mut impl BufRead, line: &mut Vec<u8>) -> io::Result<Result<bool, Refusal>> {
    line.clear();
    let n = reader.by_ref().take(MAX_LINE).read_until(b'\n', line)?;
    if n == 0 {
        return Ok(Ok(false));
    }
    if line.last() != Some(&b'\n') {
        // Over MAX_LINE, or the stream ended mid-line (then the answer goes nowhere; harmless).
        return Ok(Err(Refusal("431 Request Header Fields Too Large")));
    }
    line.pop();
    if line.last() == Some(&b'\r') {
        line.pop();
    }
    Ok(Ok(true))
}

/// Reads a request line and headers. None when the client closed cleanly before a request.
fn read_head(reader: &mut impl BufRead, line: &mut Vec<u8>) -> io::Result<Option<Result<Head, Refusal>>> {
    // RFC 9112 2.2: ignore empty lines before the request line.
    loop {
        match read_line(reader, line)? {
            Ok(false) => return Ok(None),
            Err(_) => return Ok(Some(Err(Refusal("414 URI Too Long")))),
            Ok(true) if line.is_empty() => continue,
            Ok(true) => break,
        }
    }
    let bad = |s| Ok(Some(Err(Refusal(s))));
    let request_line = match std::str::from_utf8(line) {
        Ok(s) => s.to_owned(),
        Err(_) => return bad("400 Bad Request"),
    };
    let mut parts = request_line.split(' ');
    let (method, target, version) = match (parts.next(), parts.next(), parts.next(), parts.next()) {
        (Some(m), Some(t), Some(v), None) if !m.is_empty() && !t.is_empty() => (m, t, v),
        _ => return bad("400 Bad Request"),
    };
    let http10 = match version {
        "HTTP/1.1" => false,
        "HTTP/1.0" => true,
        _ => return bad("505 HTTP Version Not Supported"),
    };
    let mut head = Head {
        method: method.to_owned(),
        target: target.to_owned(),
        keep_alive: !http10,
        http10,
        content_length: 0,
        expect_continue: false,
    };
    let mut seen_length: Option<u64> = None;
    let mut count = 0;
    loop {
        match read_line(reader, line)? {
            Ok(true) => {}
            Ok(false) => return bad("400 Bad Request"), // end of stream inside the head
            Err(r) => return Ok(Some(Err(r))),
        }
        if line.is_empty() {
            break;
        }
        count += 1;
        if count > MAX_HEADERS {
            return bad("431 Request Header Fields Too Large");
        }
        let colon = match line.iter().position(|&b| b == b':') {
            // A leading space or tab would be obsolete line folding: refused (RFC 9112 5.2).
            Some(i) if i > 0 && line[0] != b' ' && line[0] != b'\t' => i,
            _ => return bad("400 Bad Request"),
        };
        let name = &line[..colon];
        let value = trim(&line[colon + 1..]);
        if name.eq_ignore_ascii_case(b"content-length") {
            let n = match parse_number(value) {
                Some(n) => n,
                None => return bad("400 Bad Request"),
            };
            if seen_length.map_or(false, |m| m != n) {
                return bad("400 Bad Request");
            }
            seen_length = Some(n);
            head.content_length = n;
        } else if name.eq_ignore_ascii_case(b"transfer-encoding") {
            // Chunked request bodies are not part of the contract; refusing keeps framing safe.
            return bad("501 Not Implemented");
        } else if name.eq_ignore_ascii_case(b"connection") {
            for token in value.split(|&b| b == b',') {
                let token = trim(token);
                if token.eq_ignore_ascii_case(b"close") {
                    head.keep_alive = false;
                } else if token.eq_ignore_ascii_case(b"keep-alive") && http10 {
                    head.keep_alive = true;
                }
            }
        } else if name.eq_ignore_ascii_case(b"expect") {
            head.expect_continue = value.eq_ignore_ascii_case(b"100-continue");
        }
    }
    Ok(Some(Ok(head)))
}

fn trim(mut s: &[u8]) -> &[u8] {
    while let [b' ' | b'\t', rest @ ..] = s {
        s = rest;
    }
    while let [rest @ .., b' ' | b'\t'] = s {
        s = rest;
    }
    s
}

/// A plain decimal number (no sign, at most 12 digits), as in Content-Length or a path segment.
fn parse_number(s: &[u8]) -> Option<u64> {
    if s.is_empty() || s.len() > 12 || !s.iter().all(u8::is_ascii_digit) {
        return None;
    }
    Some(s.iter().fold(0, |n, &d| n * 10 + u64::from(d - b'0')))
}

enum Body {
    Empty,
    Static(&'static [u8]),
    Shared(Arc<Vec<u8>>),
    /// n bytes of the /bytes pattern, copied straight into the answer.
    Pattern(u64),
}

struct Reply {
    status: &'static str,
    content_type: &'static str,
    body: Body,
    /// /delay/{ms}: how long to wait before answering.
    wait: Option<Duration>,
}

fn reply(status: &'static str, content_type: &'static str, body: Body) -> Reply {
    Reply { status, content_type, body, wait: None }
}

fn text(status: &'static str, msg: &'static str) -> Reply {
    reply(status, "text/plain", Body::Static(msg.as_bytes()))
}

fn route(head: &Head, body: Vec<u8>, shared: &Shared) -> Reply {
    let path = head.target.split('?').next().unwrap_or("");
    let get = head.method == "GET" || head.method == "HEAD";
    if let Some(key) = path.strip_prefix("/kv/") {
        if key.is_empty() || key.len() > 80 {
            return text("404 Not Found", "not found");
        }
        return match head.method.as_str() {
            "PUT" => match shared.store.put(key, body) {
                Ok(true) => reply("204 No Content", "text/plain", Body::Empty),
                Ok(false) => reply("201 Created", "text/plain", Body::Static(b"")),
                Err(_) => text("500 Internal Server Error", "cannot store the value"),
            },
            _ if get => match shared.store.get(key) {
                Some(v) => reply("200 OK", "application/octet-stream", Body::Shared(v)),
                None => text("404 Not Found", "no such key"),
            },
            _ => text("405 Method Not Allowed", "use GET or PUT"),
        };
    }
    if !get {
        return text("405 Method Not Allowed", "use GET");
    }
    if path == "/plaintext" {
        reply("200 OK", "text/plain", Body::Static(PLAINTEXT))
    } else if path == "/json" {
        reply("200 OK", "application/json", Body::Static(JSON))
    } else if let Some(n) = path.strip_prefix("/bytes/") {
        match parse_number(n.as_bytes()) {
            Some(n) if n <= MAX_BYTES => reply("200 OK", "application/octet-stream", Body::Pattern(n)),
            _ => text("400 Bad Request", "n must be 0..67108864"),
        }
    } else if let Some(ms) = path.strip_prefix("/delay/") {
        match parse_number(ms.as_bytes()) {
            Some(ms) if ms <= MAX_DELAY_MS => Reply {
                wait: Some(Duration::from_millis(ms)),
                ..reply("200 OK", "text/plain", Body::Static(PLAINTEXT))
            },
            _ => text("400 Bad Request", "ms must be 0..60000"),
        }
    } else {
        text("404 Not Found", "not found")
    }
}

/// Appends a whole answer to `out`: status line, headers and (except for HEAD) the body.
fn append_reply(out: &mut Vec<u8>, reply: &Reply, head: &Head, pattern: &[u8]) {
    let conn = connection(head.keep_alive, head.http10);
    let body: &[u8] = match &reply.body {
        // 204 has no body by definition and so carries no Content-Length (RFC 9110 8.6).
        Body::Empty => {
            let _ = write!(out, "HTTP/1.1 {}\r\n{}\r\n", reply.status, conn);
            return;
        }
        Body::Static(b) => b,
        Body::Shared(v) => v,
        Body::Pattern(_) => &[],
    };
    let len = match reply.body {
        Body::Pattern(n) => n as usize,
        _ => body.len(),
    };
    let _ = write!(
        out,
        "HTTP/1.1 {}\r\nContent-Type: {}\r\nContent-Length: {}\r\n{}\r\n",
        reply.status, reply.content_type, len, conn
    );
    if head.method == "HEAD" {
        return;
    }
    out.extend_from_slice(body);
    if let Body::Pattern(n) = reply.body {
        // Whole slices of the pattern; its length is a multiple of 26, so they join seamlessly.
        let mut left = n as usize;
        while left > 0 {
            let k = left.min(pattern.len());
            out.extend_from_slice(&pattern[..k]);
            left -= k;
        }
    }
}

/// The Connection header line, where one is needed: close whenever we will close, and an explicit
/// keep-alive for HTTP/1.0 clients, whose default is to close.
fn connection(keep_alive: bool, http10: bool) -> &'static str {
    match (keep_alive, http10) {
        (false, _) => "Connection: close\r\n",
        (true, true) => "Connection: keep-alive\r\n",
        (true, false) => "",
    }
}
