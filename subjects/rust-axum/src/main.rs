//! Loadlab subject "rust-axum": the subject contract (docs/architecture.md) on axum 0.8 and
//! tokio's multi-threaded runtime, written the way axum's own examples write handlers.
//!
//!   rust-axum-server --port 8080 [--threads N] [--durability memory|fsync --dir DIR]
//!                    [--protocol h1|h2c|h1-tls|h2-tls --cert FILE --key FILE]
//!
//! axum is built with its http2 feature, so `axum::serve` (hyper-util's automatic connection builder)
//! answers HTTP/1.1 and HTTP/2 with prior knowledge (h2c) on one port; --protocol h1 and h2c name
//! the variant (both serve the same way). h1-tls and h2-tls put rustls (0.23, with the ring
//! provider, TLS 1.2 and 1.3) in front of the same builder and router, as axum's own low-level
//! rustls example does: ALPN offers http/1.1 for h1-tls, and h2 then http/1.1 for h2-tls. Like
//! `axum::serve`, neither sets TCP_NODELAY.
//! --threads is tokio's worker count (upstream's default is one worker per CPU the process sees;
//! the harness passes the number of CPUs it pins the server to, so the two agree when pinned).
//! In fsync mode a PUT is answered only after File::sync_data (fdatasync) of the value's file,
//! done on tokio's blocking pool so that the event loop goes on. It prints "listening on PORT"
//! once it accepts connections; SIGTERM ends it (no handler: the default action).

use axum::body::Bytes;
use axum::extract::{DefaultBodyLimit, Path, State};
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};
use serde::Serialize;
use std::collections::hash_map::DefaultHasher;
use std::collections::HashMap;
use std::hash::{Hash, Hasher};
use std::io::Write;
use std::path::PathBuf;
use std::sync::{Arc, Mutex, RwLock};
use std::time::Duration;

/// Largest request body and largest /bytes/{n} answer.
const MAX_BYTES: usize = 64 << 20;
const MAX_DELAY_MS: u64 = 60_000;
/// Locks that serialise fsync-mode PUTs of one file; see `Store::write_durably`.
const STRIPES: usize = 256;

#[derive(Serialize)]
struct Message {
    message: &'static str,
}

/// The key-value store: values in memory; in fsync mode each also in its own file.
struct Store {
    map: RwLock<HashMap<String, Bytes>>,
    dir: Option<PathBuf>,
    stripes: Vec<Mutex<()>>,
    /// Just over 1 MiB of the contract's pattern (byte i = 'a' + i % 26); /bytes/{n} answers
    /// are slices of it, shared, not copied.
    pattern: Bytes,
}

type Shared = Arc<Store>;

fn main() {
    let mut port: u16 = 8080;
    let mut threads: usize = std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1);
    let mut durability = String::from("memory");
    let mut dir: Option<PathBuf> = None;
    let mut protocol = String::from("h1");
    let mut cert: Option<PathBuf> = None;
    let mut key: Option<PathBuf> = None;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let value = args.next().unwrap_or_else(|| usage(&format!("{} needs a value", a)));
        match a.as_str() {
            "--port" => port = value.parse().unwrap_or_else(|_| usage("--port needs a number")),
            "--threads" => threads = value.parse().ok().filter(|&n| n > 0).unwrap_or_else(|| usage("--threads needs a number >= 1")),
            "--durability" => durability = value,
            "--dir" => dir = Some(PathBuf::from(value)),
            "--protocol" => protocol = value,
            "--cert" => cert = Some(PathBuf::from(value)),
            "--key" => key = Some(PathBuf::from(value)),
            other => usage(&format!("unknown option {}", other)),
        }
    }
    let kv_dir = match durability.as_str() {
        "memory" => None,
        "fsync" => {
            let d = dir.unwrap_or_else(|| usage("--durability fsync needs --dir DIR")).join("kv");
            std::fs::create_dir_all(&d).unwrap_or_else(|e| usage(&format!("cannot create {}: {}", d.display(), e)));
            Some(d)
        }
        other => usage(&format!("durability must be memory or fsync, got '{}'", other)),
    };
    let tls = match protocol.as_str() {
        "h1" | "h2c" => None,
        "h1-tls" | "h2-tls" => {
            let (c, k) = match (cert, key) {
                (Some(c), Some(k)) => (c, k),
                _ => usage(&format!("--protocol {} needs --cert FILE and --key FILE", protocol)),
            };
            Some(tls_config(&c, &k, protocol == "h2-tls"))
        }
        other => usage(&format!("protocol must be h1, h2c, h1-tls or h2-tls, got '{}'", other)),
    };
    let pattern: Vec<u8> = (0..26 * 40330).map(|i| b'a' + (i % 26) as u8).collect();
    let store = Arc::new(Store {
        map: RwLock::new(HashMap::new()),
        dir: kv_dir,
        stripes: (0..STRIPES).map(|_| Mutex::new(())).collect(),
        pattern: Bytes::from(pattern),
    });
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(threads)
        .enable_all()
        .build()
        .unwrap_or_else(|e| usage(&format!("cannot start tokio: {}", e)));
    runtime.block_on(serve(port, threads, format!("{}, {}", durability, protocol), store, tls));
}

/// rustls's server configuration from PEM files: the certificate chain and its private key.
fn tls_config(cert: &std::path::Path, key: &std::path::Path, h2: bool) -> Arc<rustls::ServerConfig> {
    use rustls::pki_types::pem::PemObject;
    use rustls::pki_types::{CertificateDer, PrivateKeyDer};
    let chain: Vec<CertificateDer<'static>> = CertificateDer::pem_file_iter(cert)
        .and_then(|certs| certs.collect())
        .unwrap_or_else(|e| usage(&format!("cannot read the certificate {}: {}", cert.display(), e)));
    let private = PrivateKeyDer::from_pem_file(key)
        .unwrap_or_else(|e| usage(&format!("cannot read the key {}: {}", key.display(), e)));
    let mut config = rustls::ServerConfig::builder_with_provider(Arc::new(rustls::crypto::ring::default_provider()))
        .with_safe_default_protocol_versions()
        .and_then(|b| b.with_no_client_auth().with_single_cert(chain, private))
        .unwrap_or_else(|e| usage(&format!("the certificate and key do not make a TLS configuration: {}", e)));
    config.alpn_protocols = if h2 { vec![b"h2".to_vec(), b"http/1.1".to_vec()] } else { vec![b"http/1.1".to_vec()] };
    Arc::new(config)
}

async fn serve(port: u16, threads: usize, durability: String, store: Shared, tls: Option<Arc<rustls::ServerConfig>>) {
    let app = Router::new()
        .route("/plaintext", get(plaintext))
        .route("/json", get(json))
        .route("/bytes/{n}", get(bytes))
        .route("/kv/{key}", get(kv_get).put(kv_put))
        .route("/delay/{ms}", get(delay))
        .layer(DefaultBodyLimit::max(MAX_BYTES))
        .with_state(store);
    let listener = tokio::net::TcpListener::bind(("0.0.0.0", port))
        .await
        .unwrap_or_else(|e| usage(&format!("cannot listen on port {}: {}", port, e)));
    println!("listening on {} ({} tokio workers, {})", port, threads, durability);
    let _ = std::io::stdout().flush();
    if let Some(config) = tls {
        serve_tls(listener, app, config).await
    } else if let Err(e) = axum::serve(listener, app).await {
        eprintln!("rust-axum: {}", e);
        std::process::exit(1);
    }
}

/// Accepts TCP connections, completes each TLS handshake on its own task, then serves the router
/// over it with hyper-util's automatic builder (HTTP/1.1 or HTTP/2 by the negotiated protocol), as
/// `axum::serve` does over plain TCP. A failed handshake drops that connection only.
async fn serve_tls(listener: tokio::net::TcpListener, app: Router, config: Arc<rustls::ServerConfig>) -> ! {
    use hyper_util::rt::{TokioExecutor, TokioIo};
    use hyper_util::server::conn::auto::Builder;
    use hyper_util::service::TowerToHyperService;
    let acceptor = tokio_rustls::TlsAcceptor::from(config);
    loop {
        let (tcp, _) = match listener.accept().await {
            Ok(c) => c,
            Err(e) => {
                // Out of file descriptors and the like: axum::serve waits a second and goes on too.
                eprintln!("rust-axum: accept: {}", e);
                tokio::time::sleep(Duration::from_secs(1)).await;
                continue;
            }
        };
        let (acceptor, app) = (acceptor.clone(), app.clone());
        tokio::spawn(async move {
            let Ok(stream) = acceptor.accept(tcp).await else { return };
            let service = TowerToHyperService::new(app);
            let _ = Builder::new(TokioExecutor::new())
                .serve_connection_with_upgrades(TokioIo::new(stream), service)
                .await;
        });
    }
}

async fn plaintext() -> &'static str {
    "Hello, World!"
}

async fn json() -> Json<Message> {
    Json(Message { message: "Hello, World!" })
}

async fn bytes(State(store): State<Shared>, Path(n): Path<String>) -> Response {
    let n: usize = match n.parse() {
        Ok(n) if n <= MAX_BYTES => n,
        _ => return (StatusCode::BAD_REQUEST, format!("n must be 0..{}", MAX_BYTES)).into_response(),
    };
    let body = if n <= store.pattern.len() {
        store.pattern.slice(0..n)
    } else {
        Bytes::from((0..n).map(|i| b'a' + (i % 26) as u8).collect::<Vec<u8>>())
    };
    ([(header::CONTENT_TYPE, "application/octet-stream")], body).into_response()
}

async fn kv_get(State(store): State<Shared>, Path(key): Path<String>) -> Response {
    let value = store.map.read().unwrap().get(&key).cloned();
    match value {
        Some(v) => ([(header::CONTENT_TYPE, "application/octet-stream")], v).into_response(),
        None => (StatusCode::NOT_FOUND, "no such key").into_response(),
    }
}

async fn kv_put(State(store): State<Shared>, Path(key): Path<String>, body: Bytes) -> Response {
    if store.dir.is_some() {
        let (s, k, b) = (store.clone(), key.clone(), body.clone());
        // fdatasync blocks its thread for milliseconds: never on a tokio worker.
        match tokio::task::spawn_blocking(move || s.write_durably(&k, &b)).await {
            Ok(Ok(existed)) => return stored(existed),
            Ok(Err(e)) => return (StatusCode::INTERNAL_SERVER_ERROR, e.to_string()).into_response(),
            Err(e) => return (StatusCode::INTERNAL_SERVER_ERROR, e.to_string()).into_response(),
        }
    }
    let existed = store.map.write().unwrap().insert(key, body).is_some();
    stored(existed)
}

fn stored(existed: bool) -> Response {
    if existed { StatusCode::NO_CONTENT.into_response() } else { StatusCode::CREATED.into_response() }
}

impl Store {
    /// Writes the value to its file, fdatasyncs it, then stores it in memory; tells whether the
    /// key existed. Two PUTs of one key must not interleave their writes, and the map must end
    /// with what the file ends with, so the file's (striped) lock is held throughout.
    fn write_durably(&self, key: &str, value: &Bytes) -> std::io::Result<bool> {
        let name = file_name(key);
        let mut h = DefaultHasher::new();
        name.hash(&mut h);
        let _guard = self.stripes[h.finish() as usize % STRIPES].lock().unwrap();
        let mut f = std::fs::File::create(self.dir.as_ref().unwrap().join(&name))?;
        f.write_all(value)?;
        f.sync_data()?;
        Ok(self.map.write().unwrap().insert(key.to_owned(), value.clone()).is_some())
    }
}

/// Keys come from URLs: every byte outside [A-Za-z0-9_-] becomes %XX, which keeps distinct keys
/// in distinct files and rules out "/", "." and ".."; long keys are cut to stay under 255 bytes.
fn file_name(key: &str) -> String {
    let mut s = String::with_capacity(key.len());
    for &b in key.as_bytes().iter().take(80) {
        if b.is_ascii_alphanumeric() || b == b'_' || b == b'-' {
            s.push(b as char);
        } else {
            s.push_str(&format!("%{:02X}", b));
        }
    }
    s
}

async fn delay(Path(ms): Path<String>) -> Response {
    match ms.parse::<u64>() {
        Ok(ms) if ms <= MAX_DELAY_MS => {
            // Only this request's task waits; its connection's later requests wait behind it
            // (HTTP/1.1 order), other connections go on.
            tokio::time::sleep(Duration::from_millis(ms)).await;
            "Hello, World!".into_response()
        }
        _ => (StatusCode::BAD_REQUEST, "ms must be 0..60000").into_response(),
    }
}

fn usage(problem: &str) -> ! {
    eprintln!("rust-axum: {}; usage: --port P [--threads N] [--durability memory|fsync --dir DIR]", problem);
    std::process::exit(2);
}
