//! What the `serve` tests share: the server binary on a free port, a tiny HTTP client with
//! timeouts, and a W3C WebDriver client for chromedriver (std::net only).
#![allow(dead_code)]

use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// How long any one HTTP exchange may take before the test fails.
pub const IO_TIMEOUT: Duration = Duration::from_secs(30);

#[path = "../support/temp.rs"]
mod temp;
pub use temp::TempDir;

/// A fresh, empty folder under the target directory, removed when the guard is dropped.
pub fn temp_dir(name: &str) -> TempDir {
    let base = PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
    TempDir::new(base.join(format!("{name}-{}-{}", std::process::id(), nanos())))
}

fn nanos() -> u128 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_nanos()
}

/// `modern-chess serve` on a free port; killed when dropped (and then its data directory
/// removed, when it owns one: fields drop after `Drop::drop` has stopped the server).
pub struct Served {
    pub child: Child,
    pub addr: SocketAddr,
    pub data: PathBuf,
    _owned: Option<TempDir>,
}

impl Served {
    /// [`Served::start_in`] a temporary data directory that lives as long as the server.
    pub fn start(data: TempDir, args: &[&str]) -> Served {
        let mut s = Served::start_in(&data, args);
        s._owned = Some(data);
        s
    }

    /// Starts the server with `args` after `serve --data-dir DATA` (and `--port 0` unless `args`
    /// name a port), and waits (at
    /// most 30 s) for the line that names its address. The caller keeps `data` alive.
    pub fn start_in(data: &Path, args: &[&str]) -> Served {
        let port: &[&str] = if args.contains(&"--port") {
            &[]
        } else {
            &["--port", "0"]
        };
        let mut child = Command::new(env!("CARGO_BIN_EXE_modern-chess"))
            .arg("serve")
            .args(port)
            .arg("--data-dir")
            .arg(data)
            .args(args)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("start modern-chess serve");
        let stdout = child.stdout.take().unwrap();
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let line = match rx.recv_timeout(left) {
                Ok(l) => l,
                Err(_) => {
                    let _ = child.kill();
                    let _ = child.wait();
                    panic!("serve did not print its address within 30 s");
                }
            };
            if let Some(rest) = line.split("listening on http://").nth(1) {
                let addr = rest.trim_end_matches('/').parse().expect("address");
                return Served {
                    child,
                    addr,
                    data: data.to_path_buf(),
                    _owned: None,
                };
            }
        }
    }

    pub fn url(&self, path: &str) -> String {
        format!("http://{}{path}", self.addr)
    }

    pub fn get(&self, path: &str) -> (u16, String) {
        request(self.addr, "GET", path, None)
    }

    pub fn post(&self, path: &str, body: &str) -> (u16, String) {
        request(self.addr, "POST", path, Some(body.as_bytes()))
    }

    /// GET or POST and read the answer as JSON.
    pub fn get_json(&self, path: &str) -> (u16, Value) {
        let (s, b) = self.get(path);
        (
            s,
            serde_json::from_str(&b).unwrap_or_else(|e| panic!("{path}: {e}: {b}")),
        )
    }

    pub fn post_json(&self, path: &str, body: &Value) -> (u16, Value) {
        let (s, b) = self.post(path, &body.to_string());
        (
            s,
            serde_json::from_str(&b).unwrap_or_else(|e| panic!("{path}: {e}: {b}")),
        )
    }

    /// Creates a game and returns its state.
    pub fn new_game(&self, spec: Value) -> Value {
        let (s, v) = self.post_json("/api/games", &spec);
        assert_eq!(s, 201, "{v}");
        v
    }

    /// Plays a move that must be accepted and returns the new state.
    pub fn play(&self, id: &str, mv: &str) -> Value {
        let (s, v) = self.post_json(&format!("/api/games/{id}/move"), &json!({ "move": mv }));
        assert_eq!(s, 200, "move {mv}: {v}");
        v
    }

    /// Polls a game until `done` holds (at most `secs` seconds).
    pub fn wait_for(&self, id: &str, secs: u64, done: impl Fn(&Value) -> bool) -> Value {
        let deadline = Instant::now() + Duration::from_secs(secs);
        loop {
            let (_, v) = self.get_json(&format!("/api/games/{id}"));
            if done(&v) {
                return v;
            }
            assert!(
                Instant::now() < deadline,
                "game {id} did not get there in {secs} s: {v}"
            );
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    pub fn stop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for Served {
    fn drop(&mut self) {
        self.stop();
    }
}

/// One HTTP/1.1 exchange with `Connection: close`; status and body. Panics on a timeout.
pub fn request(addr: SocketAddr, method: &str, path: &str, body: Option<&[u8]>) -> (u16, String) {
    let raw = raw_request(addr, method, path, &[], body);
    parse_response(&raw)
}

/// Sends a request with extra header lines and returns the whole raw answer.
pub fn raw_request(
    addr: SocketAddr,
    method: &str,
    path: &str,
    headers: &[&str],
    body: Option<&[u8]>,
) -> Vec<u8> {
    let mut s = TcpStream::connect_timeout(&addr, IO_TIMEOUT).expect("connect");
    s.set_read_timeout(Some(IO_TIMEOUT)).unwrap();
    s.set_write_timeout(Some(IO_TIMEOUT)).unwrap();
    let mut head = format!("{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n");
    for h in headers {
        head.push_str(h);
        head.push_str("\r\n");
    }
    if let Some(b) = body {
        head.push_str(&format!(
            "Content-Type: application/json\r\nContent-Length: {}\r\n",
            b.len()
        ));
    }
    head.push_str("\r\n");
    s.write_all(head.as_bytes()).unwrap();
    if let Some(b) = body {
        // The server may answer (and close) before reading a refused body.
        let _ = s.write_all(b);
    }
    read_answer(&mut s).unwrap_or_else(|e| panic!("{method} {path}: no whole answer: {e}"))
}

/// Reads an answer: up to the end of its head, then `Content-Length` bytes (or to the end when
/// there is none), so a server that keeps the connection open does not stall the test.
fn read_answer(s: &mut TcpStream) -> std::io::Result<Vec<u8>> {
    let mut out = Vec::new();
    let mut buf = [0u8; 8192];
    let head_end = loop {
        if let Some(i) = out.windows(4).position(|w| w == b"\r\n\r\n") {
            break i + 4;
        }
        let n = s.read(&mut buf)?;
        if n == 0 {
            return Ok(out);
        }
        out.extend_from_slice(&buf[..n]);
    };
    let head = String::from_utf8_lossy(&out[..head_end]).to_ascii_lowercase();
    let length = head
        .lines()
        .find_map(|l| l.strip_prefix("content-length:"))
        .and_then(|v| v.trim().parse::<usize>().ok());
    match length {
        Some(len) => {
            while out.len() < head_end + len {
                let n = s.read(&mut buf)?;
                if n == 0 {
                    break;
                }
                out.extend_from_slice(&buf[..n]);
            }
        }
        None => {
            s.read_to_end(&mut out)?;
        }
    }
    Ok(out)
}

/// Status code and body of a raw answer.
pub fn parse_response(raw: &[u8]) -> (u16, String) {
    let text = String::from_utf8_lossy(raw).to_string();
    let (head, body) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
    let status = head
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("bad answer: {text}"));
    (status, body.to_string())
}

/// A port nobody listens on right now.
pub fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// Whether an external program is there; when it is not, the test fails under CI and is
/// skipped (with a message) otherwise.
pub fn have_program(path: &str) -> bool {
    if std::path::Path::new(path).exists() {
        return true;
    }
    assert!(
        std::env::var_os("CI").is_none(),
        "{path} is missing (CI is set)"
    );
    eprintln!("skipping: {path} is not installed");
    false
}

/// chromedriver with one headless Chromium session; both end when dropped.
pub struct Browser {
    driver: Child,
    addr: SocketAddr,
    session: String,
    profile: TempDir,
}

impl Browser {
    pub fn start(width: u32, height: u32) -> Browser {
        let port = free_port();
        let driver = Command::new("/usr/bin/chromedriver")
            .arg(format!("--port={port}"))
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("start chromedriver");
        let addr: SocketAddr = format!("127.0.0.1:{port}").parse().unwrap();
        let deadline = Instant::now() + Duration::from_secs(30);
        while TcpStream::connect_timeout(&addr, Duration::from_secs(1)).is_err() {
            assert!(
                Instant::now() < deadline,
                "chromedriver did not start in 30 s"
            );
            std::thread::sleep(Duration::from_millis(100));
        }
        let profile = temp_dir("chromium-profile");
        let args = vec![
            "--headless".to_string(),
            "--no-sandbox".into(),
            "--disable-gpu".into(),
            "--disable-quic".into(),
            "--no-first-run".into(),
            "--disable-background-networking".into(),
            "--disable-component-update".into(),
            "--disable-sync".into(),
            "--disable-dev-shm-usage".into(),
            format!("--window-size={width},{height}"),
            format!("--user-data-dir={}", profile.display()),
        ];
        let caps = json!({ "capabilities": { "alwaysMatch": {
            "browserName": "chrome",
            "goog:chromeOptions": { "binary": "/usr/bin/chromium", "args": args }
        }}});
        let mut b = Browser {
            driver,
            addr,
            session: String::new(),
            profile,
        };
        let v = b.call("POST", "/session", Some(caps));
        b.session = v["sessionId"]
            .as_str()
            .unwrap_or_else(|| panic!("no session: {v}"))
            .to_string();
        b
    }

    /// One WebDriver command; returns its `value` and panics on an error answer.
    pub fn call(&self, method: &str, path: &str, body: Option<Value>) -> Value {
        let text = body.map(|b| b.to_string());
        let (status, answer) = request(self.addr, method, path, text.as_deref().map(str::as_bytes));
        let v: Value = serde_json::from_str(&answer).unwrap_or(Value::Null);
        assert_eq!(status, 200, "webdriver {method} {path}: {answer}");
        if v.get("sessionId").is_some() {
            return v;
        }
        v["value"].clone()
    }

    fn session_call(&self, method: &str, path: &str, body: Option<Value>) -> Value {
        self.call(method, &format!("/session/{}{path}", self.session), body)
    }

    pub fn goto(&self, url: &str) {
        self.session_call("POST", "/url", Some(json!({ "url": url })));
    }

    /// Runs JavaScript in the page and returns its result.
    pub fn js(&self, script: &str) -> Value {
        self.session_call(
            "POST",
            "/execute/sync",
            Some(json!({ "script": script, "args": [] })),
        )
    }

    /// Waits until a JavaScript expression is true (at most `secs` seconds).
    pub fn wait_js(&self, expr: &str, secs: u64) {
        let deadline = Instant::now() + Duration::from_secs(secs);
        let script = format!("return !!({expr});");
        while self.js(&script) != Value::Bool(true) {
            assert!(
                Instant::now() < deadline,
                "not true within {secs} s: {expr}"
            );
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    /// A real mouse click (pointer down and up) at page coordinates.
    pub fn click_at(&self, x: f64, y: f64) {
        let actions = json!({ "actions": [{
            "type": "pointer", "id": "mouse", "parameters": { "pointerType": "mouse" },
            "actions": [
                { "type": "pointerMove", "duration": 0, "origin": "viewport", "x": x.round() as i64, "y": y.round() as i64 },
                { "type": "pointerDown", "button": 0 },
                { "type": "pause", "duration": 50 },
                { "type": "pointerUp", "button": 0 }
            ]
        }]});
        self.session_call("POST", "/actions", Some(actions));
        self.session_call("DELETE", "/actions", None);
    }

    /// Clicks the element a CSS selector names, in its centre.
    pub fn click(&self, selector: &str) {
        let r = self.js(&format!(
            "const e = document.querySelector({sel}); if (!e) return null; e.scrollIntoView({{block: 'center'}}); const r = e.getBoundingClientRect(); return [r.left + r.width / 2, r.top + r.height / 2];",
            sel = Value::String(selector.to_string())
        ));
        let (x, y) = (r[0].as_f64(), r[1].as_f64());
        let (Some(x), Some(y)) = (x, y) else {
            panic!("no element {selector}");
        };
        self.click_at(x, y);
    }

    /// A PNG screenshot of the window.
    pub fn screenshot(&self) -> Vec<u8> {
        let v = self.session_call("GET", "/screenshot", None);
        decode_base64(v.as_str().expect("screenshot data"))
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        if !self.session.is_empty() {
            let path = format!("/session/{}", self.session);
            let _ = std::panic::catch_unwind(|| request(self.addr, "DELETE", &path, None));
        }
        let _ = self.driver.kill();
        let _ = self.driver.wait();
        // `profile` is removed when the fields drop, after this.
    }
}

/// Standard base64 (with padding) to bytes.
pub fn decode_base64(text: &str) -> Vec<u8> {
    let value = |c: u8| -> Option<u32> {
        Some(match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'+' => 62,
            b'/' => 63,
            _ => return None,
        } as u32)
    };
    let mut out = Vec::new();
    let (mut acc, mut bits) = (0u32, 0);
    for c in text.bytes() {
        let Some(v) = value(c) else { continue };
        acc = (acc << 6) | v;
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
            acc &= (1 << bits) - 1;
        }
    }
    out
}
