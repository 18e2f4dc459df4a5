//! Running the real binary with a time limit: a hang fails the test instead of blocking the
//! suite. Shared by the end-to-end tests of `play`, `replay` and the broken-pipe checks.
#![allow(dead_code)]

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

pub const BIN: &str = env!("CARGO_BIN_EXE_modern-chess");

/// What a finished run printed.
pub struct Run {
    pub status: ExitStatus,
    pub stdout: String,
    pub stderr: String,
}

/// A fresh, empty directory under the system temp dir, unique to this test.
pub fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("modern-chess-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
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
