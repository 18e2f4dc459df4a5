//! Our UCI engine against python-chess's engine client (`import chess.engine`): a whole game,
//! `analyse`, `ucinewgame` mid-session, hundreds of moves in `position`, every clock field,
//! `stop` racing the end of a search, `isready` during a search, one `bestmove` per `go`.
//! The checks are `tests/python/uci_clients.py`.
//!
//! Python with python-chess is taken from `MODERN_CHESS_PYTHON`, else `python3` on PATH (CI
//! puts the venv `target/ci-venv` first), else `target/ci-venv/bin/python3`. Without it the
//! test fails when `CI` is set and is skipped otherwise.

use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_modern-chess");

fn has_python_chess(python: &str) -> bool {
    Command::new(python)
        .args(["-c", "import chess.engine"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

fn python() -> Option<String> {
    let venv = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target/ci-venv/bin/python3");
    let candidates = [
        std::env::var("MODERN_CHESS_PYTHON").ok(),
        Some("python3".to_string()),
        Some(venv.to_string_lossy().into_owned()),
    ];
    candidates
        .into_iter()
        .flatten()
        .find(|p| has_python_chess(p))
}

#[test]
fn python_chess_engine_client_gets_what_it_expects() {
    let Some(python) = python() else {
        if std::env::var_os("CI").is_some() {
            panic!("CI: python3 with python-chess is required (pip install chess)");
        }
        eprintln!("skipped: no python3 with python-chess (pip install chess)");
        return;
    };
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/python/uci_clients.py");
    let mut child = Command::new(&python)
        .arg(&script)
        .arg(BIN)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("python starts");
    let limit = Duration::from_secs(180);
    let deadline = Instant::now() + limit;
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            let out = child.wait_with_output().unwrap();
            panic!(
                "python-chess checks did not finish in {limit:?}:\n{}{}",
                String::from_utf8_lossy(&out.stdout),
                String::from_utf8_lossy(&out.stderr)
            );
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    let out = child.wait_with_output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(status.success(), "{stdout}\n{stderr}");
    for check in [
        "whole_game",
        "analyse",
        "new_game_mid_session",
        "long_move_list",
        "every_clock_field",
        "stop_races_the_end",
        "isready_during_search",
        "one_bestmove_per_go",
    ] {
        assert!(
            stdout.lines().any(|l| l == format!("ok {check}")),
            "{check} did not pass:\n{stdout}\n{stderr}"
        );
    }
}
