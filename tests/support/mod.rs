//! Running the real binary with a time limit: a hang fails the test instead of blocking the
//! suite. Shared by the end-to-end tests of `play`, `replay` and the broken-pipe checks.
#![allow(dead_code)]

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::{Duration, Instant};

pub const BIN: &str = env!("CARGO_BIN_EXE_modern-chess");

/// What a finished run printed.
pub struct Run {
    pub status: ExitStatus,
    pub stdout: String,
    pub stderr: String,
}

mod temp;
pub use temp::TempDir;

/// A fresh, empty directory under the system temp dir, removed when the returned guard is
/// dropped. The counter keeps two calls with the same name (parallel tests, or one test
/// twice) from sharing, and so from removing, each other's directory.
pub fn temp_dir(name: &str) -> TempDir {
    static NEXT: AtomicU32 = AtomicU32::new(0);
    let n = NEXT.fetch_add(1, Ordering::Relaxed);
    TempDir::new(
        std::env::temp_dir().join(format!("modern-chess-{}-{n}-{name}", std::process::id())),
    )
}

/// A command for the binary with the user's data directory moved to `data` (autosaves go
/// there, never into the real home).
pub fn command(args: &[&str], data: &Path) -> Command {
    let mut c = Command::new(BIN);
    c.args(args).env("XDG_DATA_HOME", data);
    c
}

/// Waits for `child` at most `limit`; kills it and panics on a hang.
pub fn wait(mut child: Child, limit: Duration, what: &str) -> Run {
    let mut out = child.stdout.take();
    let mut err = child.stderr.take();
    let reader = std::thread::spawn(move || {
        let mut s = Vec::new();
        if let Some(o) = out.as_mut() {
            let _ = o.read_to_end(&mut s);
        }
        s
    });
    let err_reader = std::thread::spawn(move || {
        let mut s = Vec::new();
        if let Some(e) = err.as_mut() {
            let _ = e.read_to_end(&mut s);
        }
        s
    });
    let start = Instant::now();
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        if start.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            panic!("{what}: no exit within {limit:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    Run {
        status,
        stdout: String::from_utf8_lossy(&reader.join().unwrap()).into_owned(),
        stderr: String::from_utf8_lossy(&err_reader.join().unwrap()).into_owned(),
    }
}

/// Runs the command with `input` on standard input, within `limit`.
pub fn run(mut c: Command, input: &[u8], limit: Duration) -> Run {
    let mut child = c
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run modern-chess");
    let mut stdin = child.stdin.take().unwrap();
    let input = input.to_vec();
    std::thread::spawn(move || {
        let _ = stdin.write_all(&input);
    });
    wait(child, limit, &format!("{c:?}"))
}

/// A running `play` session: write lines, wait for output or files, send signals.
pub struct Live {
    pub child: Child,
    stdin: Option<std::process::ChildStdin>,
    out: std::sync::Arc<std::sync::Mutex<String>>,
    reader: Option<std::thread::JoinHandle<()>>,
}

impl Live {
    pub fn start(args: &[&str], data: &Path) -> Live {
        let mut child = command(args, data)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("run modern-chess");
        let stdin = child.stdin.take();
        let mut stdout = child.stdout.take().unwrap();
        let out = std::sync::Arc::new(std::sync::Mutex::new(String::new()));
        let sink = std::sync::Arc::clone(&out);
        let reader = std::thread::spawn(move || {
            let mut buf = [0u8; 4096];
            while let Ok(n) = stdout.read(&mut buf) {
                if n == 0 {
                    break;
                }
                sink.lock()
                    .unwrap()
                    .push_str(&String::from_utf8_lossy(&buf[..n]));
            }
        });
        Live {
            child,
            stdin,
            out,
            reader: Some(reader),
        }
    }

    pub fn send(&mut self, text: &str) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        stdin.write_all(text.as_bytes()).unwrap();
        stdin.flush().unwrap();
    }

    pub fn output(&self) -> String {
        self.out.lock().unwrap().clone()
    }

    /// Waits until the output satisfies `cond`; panics with the output after `limit`.
    pub fn wait_for(&self, what: &str, limit: Duration, cond: impl Fn(&str) -> bool) {
        let start = Instant::now();
        while !cond(&self.output()) {
            if start.elapsed() > limit {
                panic!("waited {limit:?} for {what}; output:\n{}", self.output());
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// Sends a signal by name (`INT`, `TERM`, `HUP`) with the system's `kill`.
    pub fn signal(&self, name: &str) {
        let ok = Command::new("kill")
            .arg(format!("-{name}"))
            .arg(self.child.id().to_string())
            .status()
            .expect("run kill")
            .success();
        assert!(ok, "kill -{name}");
    }

    /// Closes standard input and waits for the exit (at most `limit`).
    pub fn finish(mut self, limit: Duration) -> (ExitStatus, String) {
        drop(self.stdin.take());
        let start = Instant::now();
        let status = loop {
            if let Some(s) = self.child.try_wait().unwrap() {
                break s;
            }
            if start.elapsed() > limit {
                let _ = self.child.kill();
                let _ = self.child.wait();
                panic!("no exit within {limit:?}; output:\n{}", self.output());
            }
            std::thread::sleep(Duration::from_millis(20));
        };
        if let Some(r) = self.reader.take() {
            let _ = r.join();
        }
        (status, self.output())
    }
}

/// Waits until some file in `dir` satisfies `cond` on its text; returns its path.
pub fn wait_for_file(
    dir: &Path,
    limit: Duration,
    what: &str,
    cond: impl Fn(&str) -> bool,
) -> PathBuf {
    let start = Instant::now();
    loop {
        if let Ok(entries) = std::fs::read_dir(dir) {
            for e in entries.flatten() {
                let p = e.path();
                if p.extension().is_some_and(|x| x == "pgn") {
                    if let Ok(text) = std::fs::read_to_string(&p) {
                        if cond(&text) {
                            return p;
                        }
                    }
                }
            }
        }
        if start.elapsed() > limit {
            panic!("waited {limit:?} for {what} in {}", dir.display());
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}
