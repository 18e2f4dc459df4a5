//! XBoard 4.9 (a real GUI, under the virtual X server Xvfb) plays whole engine-vs-engine games
//! between two instances of `modern-chess xboard` with its own legality testing on, and its
//! saved PGN must show the game ended by a rule (mate, a draw rule, or adjudication), never by
//! a forfeit or an illegal-move claim.
//!
//! Needs `xboard` and `xvfb` (Debian packages; `.ci/run` installs them). Without them the tests
//! fail when `CI` is set and are skipped otherwise. One variant runs in the default suite; all
//! five seed variants: `cargo test --release --test xboard_gui -- --ignored`.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::{Duration, Instant};

mod support;

const BIN: &str = env!("CARGO_BIN_EXE_modern-chess");
const XBOARD: &str = "/usr/games/xboard";

fn which(prog: &str) -> Option<PathBuf> {
    if prog.starts_with('/') {
        return Path::new(prog).exists().then(|| PathBuf::from(prog));
    }
    std::env::var_os("PATH").and_then(|paths| {
        std::env::split_paths(&paths)
            .map(|d| d.join(prog))
            .find(|p| p.exists())
    })
}

/// Xvfb and xboard, or `None` (skip) when they are missing outside CI.
fn tools() -> Option<(PathBuf, PathBuf)> {
    match (which("Xvfb"), which(XBOARD)) {
        (Some(x), Some(b)) => Some((x, b)),
        _ if std::env::var_os("CI").is_some() => {
            panic!("CI: xboard and Xvfb are required (apt-get install xboard xvfb)")
        }
        _ => {
            eprintln!("skipped: xboard or Xvfb not installed (apt-get install xboard xvfb)");
            None
        }
    }
}

/// A virtual X display, stopped when dropped.
struct Display {
    child: Child,
    name: String,
}

impl Drop for Display {
    /// SIGTERM first: Xvfb then removes its `/tmp/.X<n>-lock` and `/tmp/.X11-unix/X<n>`,
    /// which a SIGKILL leaves behind for good. SIGKILL only if it has not gone in 5 s.
    fn drop(&mut self) {
        let _ = Command::new("kill")
            .args(["-TERM", &self.child.id().to_string()])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status();
        let deadline = Instant::now() + Duration::from_secs(5);
        while Instant::now() < deadline {
            if !matches!(self.child.try_wait(), Ok(None)) {
                return;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

static NEXT: AtomicU32 = AtomicU32::new(0);

fn start_xvfb(xvfb: &Path) -> Display {
    for _ in 0..20 {
        let n = 40 + (std::process::id() % 40) * 10 + NEXT.fetch_add(1, Ordering::SeqCst) % 10;
        if Path::new(&format!("/tmp/.X11-unix/X{n}")).exists() {
            continue;
        }
        let name = format!(":{n}");
        let mut child = Command::new(xvfb)
            .args([
                name.as_str(),
                "-screen",
                "0",
                "1200x900x24",
                "-nolisten",
                "tcp",
            ])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("Xvfb starts");
        let deadline = Instant::now() + Duration::from_secs(10);
        while Instant::now() < deadline {
            if Path::new(&format!("/tmp/.X11-unix/X{n}")).exists() {
                return Display { child, name };
            }
            if child.try_wait().unwrap().is_some() {
                break;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        let _ = child.kill();
        let _ = child.wait();
    }
    panic!("no free X display for Xvfb");
}

/// What XBoard saved of one game.
struct Played {
    pgn: String,
    plies: usize,
    /// The `{reason} result` at the end of the game text.
    ending: String,
}

/// One whole game in `variant`, legality testing on; XBoard is stopped after `limit`.
fn play(xvfb: &Path, xboard: &Path, variant: &str, limit: Duration) -> Played {
    let display = start_xvfb(xvfb);
    let dir = support::temp_dir(&format!("xboard-{variant}"));
    let pgn = dir.join("game.pgn");
    let debug = dir.join("debug.txt");
    let engine = format!("{BIN} xboard --variant {variant}");
    let d = dir.to_str().unwrap();
    #[rustfmt::skip]
    let args = [
        "-fcp", engine.as_str(), "-scp", engine.as_str(), "-fd", d, "-sd", d,
        "-variant", variant, "-testLegality", "true",
        // Fast clock: 20 s a game plus 0.1 s a move; a game still running after 100 moves
        // is adjudicated a draw by XBoard.
        "-tc", "0:20", "-mps", "0", "-inc", "0.1", "-adjudicateDrawMoves", "100",
        "-mg", "1", "-autoCallFlag", "true", "-popupExitMessage", "false",
        "-saveGameFile", pgn.to_str().unwrap(),
        "-debug", "-nameOfDebugFile", debug.to_str().unwrap(),
        "-noGUI",
    ];
    let mut child = Command::new(xboard)
        .args(args)
        .env("DISPLAY", &display.name)
        .env("HOME", &dir)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("xboard starts");
    let deadline = Instant::now() + limit;
    loop {
        if child.try_wait().unwrap().is_some() {
            break;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            // The directory goes with the panic: the end of the log goes into the message.
            let log = std::fs::read_to_string(&debug).unwrap_or_default();
            let tail: Vec<&str> = log.lines().rev().take(40).collect();
            let tail: Vec<&str> = tail.into_iter().rev().collect();
            panic!(
                "{variant}: XBoard did not finish the game within {limit:?}; the end of its log:\n{}",
                tail.join("\n")
            );
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    drop(display);
    let text = std::fs::read_to_string(&pgn).unwrap_or_default();
    let log = std::fs::read_to_string(&debug).unwrap_or_default();
    let plies = log
        .lines()
        .filter(|l| l.contains(">first : usermove") || l.contains(">second: usermove"))
        .count();
    let ending = ending(&text);
    Played {
        pgn: text,
        plies,
        ending,
    }
}

/// The last `{...} result` of a PGN text.
fn ending(pgn: &str) -> String {
    let Some(close) = pgn.rfind('}') else {
        return String::new();
    };
    let Some(open) = pgn[..close].rfind('{') else {
        return String::new();
    };
    pgn[open..].split_whitespace().collect::<Vec<_>>().join(" ")
}

fn check_game(variant: &str, played: &Played) {
    let e = &played.ending;
    assert!(!played.pgn.is_empty(), "{variant}: XBoard saved no game");
    for bad in ["llegal", "orfeit", "nvalid", "False", "disconnect", "crash"] {
        assert!(
            !e.contains(bad),
            "{variant}: ended by `{e}`\n{}",
            played.pgn
        );
    }
    let by_rule = [
        "mate",
        "Checkmate",
        "Stalemate",
        "stalemate",
        "repetition",
        "50-move",
        "move rule",
        "Insufficient",
        "insufficient",
        "material",
        "adjudication",
        "Draw",
        "draw",
    ];
    assert!(
        by_rule.iter().any(|r| e.contains(r)),
        "{variant}: not a rule ending: `{e}`\n{}",
        played.pgn
    );
    assert!(
        ["1-0", "0-1", "1/2-1/2"].iter().any(|r| e.ends_with(r)),
        "{variant}: no result in `{e}`"
    );
    assert!(played.plies >= 10, "{variant}: only {} plies", played.plies);
    eprintln!("{variant}: {} plies, {e}", played.plies);
}

#[test]
fn xboard_plays_a_whole_mrc_game_with_legality_testing() {
    let Some((xvfb, xboard)) = tools() else {
        return;
    };
    let played = play(&xvfb, &xboard, "mrc", Duration::from_secs(240));
    check_game("mrc", &played);
}

#[test]
#[ignore]
fn xboard_plays_a_whole_game_in_every_seed_variant() {
    let Some((xvfb, xboard)) = tools() else {
        return;
    };
    for v in ["mrc", "mrc64", "merc", "icrc", "pmrc"] {
        let played = play(&xvfb, &xboard, v, Duration::from_secs(240));
        check_game(v, &played);
    }
}

#[test]
fn endings_are_read_from_the_pgn() {
    let pgn = "1. e4 e5 {+0.1/3} 2. Qh5 {Xboard adjudication: Checkmate} 1-0\n";
    assert_eq!(ending(pgn), "{Xboard adjudication: Checkmate} 1-0");
    assert_eq!(ending("no comment"), "");
}
