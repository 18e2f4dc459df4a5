//! `modern-chess serve`: a board in the browser for every variant file, served by this binary.
//!
//! The page (`web/`, built in) draws the board with the vendored chessgroundx and asks the JSON
//! API for everything else: legal moves, SAN, results, engine moves. Pages watching a game get
//! its changes and the engine's thinking as Server-Sent Events. Games are stored on disk and
//! come back when the server restarts.

pub mod api;
pub mod assets;
pub mod http;
pub mod pieces;
pub mod room;
pub mod server;
pub mod store;
pub mod thinker;
pub mod variants;

use anyhow::{anyhow, Context, Result};
use clap::Args;
use http::{Request, Response};
use server::{lock, Server};
use std::net::{TcpListener, TcpStream};
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use std::sync::Arc;
use std::time::Duration;

#[derive(Args)]
pub struct ServeArgs {
    /// Address to listen on (0.0.0.0 for every network interface, to play over a LAN)
    #[arg(long, default_value = "127.0.0.1")]
    pub host: String,
    /// Port to listen on (0: any free port)
    #[arg(long, default_value_t = 8080)]
    pub port: u16,
    /// A folder of variant files (or one file) to offer besides the built-in ones
    #[arg(long)]
    pub variant_path: Option<PathBuf>,
    /// Where games are stored (default: $XDG_DATA_HOME/modern-chess/web)
    #[arg(long)]
    pub data_dir: Option<PathBuf>,
    /// Search threads of each engine move (Lazy SMP, 1..64; games thinking at once each
    /// take this many)
    #[arg(long, default_value_t = 1, value_parser = crate::cli::engines::parse_threads)]
    pub threads: usize,
}

/// Connections served at once; more get a 503.
const MAX_CONNECTIONS: usize = 128;
/// How often an idle event stream gets a comment line (so a closed page is noticed).
const KEEPALIVE: Duration = Duration::from_secs(15);

pub fn run(args: ServeArgs) -> Result<()> {
    let (catalog, warnings) =
        variants::Catalog::load(args.variant_path.as_deref()).map_err(|e| anyhow!(e))?;
    for w in warnings {
        eprintln!("warning: {w}");
    }
    let dir = match args.data_dir.clone() {
        Some(d) => Some(d),
        None => match crate::cli::datadir::data_dir() {
            Ok(d) => Some(d.join("web")),
            Err(e) => {
                eprintln!("warning: {e:#}; games are not stored");
                None
            }
        },
    };
    let store = dir.map(store::Store::new);
    let server = Arc::new(Server::new(catalog, store, args.threads));
    let (restored, warnings) = server.restore();
    for w in warnings {
        eprintln!("warning: {w}");
    }
    let listener = TcpListener::bind((args.host.as_str(), args.port))
        .with_context(|| format!("cannot listen on {}:{}", args.host, args.port))?;
    let addr = listener.local_addr()?;
    if let Some(s) = &server.store {
        println!(
            "games are stored in {} ({restored} restored)",
            s.dir.display()
        );
    }
    println!("modern-chess serve: listening on http://{addr}/");
    let active = Arc::new(AtomicUsize::new(0));
    for stream in listener.incoming() {
        let Ok(stream) = stream else { continue };
        let server = Arc::clone(&server);
        let active = Arc::clone(&active);
        if active.fetch_add(1, Ordering::SeqCst) >= MAX_CONNECTIONS {
            active.fetch_sub(1, Ordering::SeqCst);
            let mut s = stream;
            let _ = http::write_response(&mut s, &Response::error(503, "too many connections"));
            continue;
        }
        std::thread::spawn(move || {
            connection(&server, stream);
            active.fetch_sub(1, Ordering::SeqCst);
        });
    }
    Ok(())
}

/// Serves one connection: one request, one answer (or an event stream).
fn connection(server: &Arc<Server>, mut stream: TcpStream) {
    let req = match http::read_from(&stream) {
        Ok(r) => r,
        Err(e) => {
            if let Some((status, message)) = e.answer() {
                let _ = http::write_response(&mut stream, &Response::error(status, &message));
                drain_before_close(&stream);
            }
            return;
        }
    };
    let parts: Vec<&str> = req.path.trim_matches('/').split('/').collect();
    if let ["api", "games", id, "events"] = parts.as_slice() {
        if req.method == "GET" {
            events(server, &mut stream, id);
            return;
        }
    }
    let _ = http::write_response(&mut stream, &answer(server, &req));
}

/// After refusing a request whose rest we did not read (a body too large, say), closing at
/// once would leave the client's bytes unread, and the system answers unread bytes at close
/// with a reset that can destroy our refusal before the client reads it. So our side is
/// closed first and what the client still sends is read and dropped, within bounds (a
/// hostile client holds the thread at most two seconds).
fn drain_before_close(stream: &TcpStream) {
    use std::io::Read;
    let _ = stream.shutdown(std::net::Shutdown::Write);
    let _ = stream.set_read_timeout(Some(Duration::from_millis(500)));
    let deadline = std::time::Instant::now() + Duration::from_secs(2);
    let mut buf = [0u8; 16 * 1024];
    let mut left: usize = 8 << 20;
    while left > 0 && std::time::Instant::now() < deadline {
        match (&*stream).read(&mut buf) {
            Ok(0) | Err(_) => break,
            Ok(n) => left = left.saturating_sub(n),
        }
    }
}

fn answer(server: &Arc<Server>, req: &Request) -> Response {
    if req.path.starts_with("/api/") || req.path == "/api" {
        return api::handle(server, req);
    }
    if req.method != "GET" {
        return Response::error(
            405,
            &format!("{} is not allowed on {}", req.method, req.path),
        );
    }
    match assets::lookup(&req.path) {
        Some((kind, bytes)) => Response::new(200, kind, bytes.to_vec()),
        None => Response::error(404, &format!("no file {}", req.path)),
    }
}

/// A Server-Sent Events stream of one game: its state at once, then every change and every
/// thinking report, until the page goes away.
fn events(server: &Arc<Server>, stream: &mut TcpStream, id: &str) {
    let Some(room_ref) = server.room(id) else {
        let _ = http::write_response(stream, &Response::error(404, &format!("no game `{id}`")));
        return;
    };
    let (tx, rx) = mpsc::channel();
    server.watch(id, tx);
    let first = lock(&room_ref).view().to_string();
    if http::write_sse_head(stream).is_err()
        || http::write_sse_event(stream, "state", &first).is_err()
    {
        return;
    }
    loop {
        let sent = match rx.recv_timeout(KEEPALIVE) {
            Ok((event, data)) => http::write_sse_event(stream, &event, &data),
            Err(mpsc::RecvTimeoutError::Timeout) => {
                std::io::Write::write_all(stream, b": keep-alive\n\n")
            }
            Err(mpsc::RecvTimeoutError::Disconnected) => return,
        };
        if sent.is_err() {
            return;
        }
    }
}
