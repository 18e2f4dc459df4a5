//! End-to-end: the binary as a UCI and as an XBoard engine, talked to over pipes the way a GUI
//! does, and (ignored: needs Fairy-Stockfish) a short match against Fairy-Stockfish.
//!
//! Every read has a timeout, so a hang fails the test instead of blocking the suite.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

mod support;

const BIN: &str = env!("CARGO_BIN_EXE_modern-chess");
const WAIT: Duration = Duration::from_secs(20);

struct Engine {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    seen: Vec<String>,
}

impl Engine {
    fn start(args: &[&str]) -> Engine {
        let mut child = Command::new(BIN)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("binary starts");
        let stdin = child.stdin.take().unwrap();
        let stdout = child.stdout.take().unwrap();
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                match line {
                    Ok(l) => {
                        if tx.send(l).is_err() {
                            break;
                        }
                    }
                    Err(_) => break,
                }
            }
        });
        Engine {
            child,
            stdin,
            lines: rx,
            seen: Vec::new(),
        }
    }

    fn send(&mut self, cmd: &str) {
        writeln!(self.stdin, "{cmd}").expect("engine reads");
        self.stdin.flush().unwrap();
    }

    /// Reads lines until one satisfies `want`; returns the lines read (the match last).
    fn until(&mut self, what: &str, want: impl Fn(&str) -> bool) -> Vec<String> {
        let deadline = Instant::now() + WAIT;
        let mut got = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(l) => {
                    self.seen.push(l.clone());
                    got.push(l.clone());
                    if want(&l) {
                        return got;
                    }
                }
                Err(RecvTimeoutError::Timeout) => {
                    panic!(
                        "timed out waiting for {what}; read so far:\n{}",
                        self.seen.join("\n")
                    )
                }
                Err(RecvTimeoutError::Disconnected) => {
                    panic!(
                        "engine closed its output waiting for {what}; read:\n{}",
                        self.seen.join("\n")
                    )
                }
            }
        }
    }

    fn line_starting(&mut self, prefix: &str) -> String {
        let p = prefix.to_string();
        self.until(prefix, move |l| l.starts_with(&p))
            .pop()
            .unwrap()
    }

    /// Sends `quit` and checks the process ends by itself, successfully.
    fn quit(mut self) {
        self.send("quit");
        let deadline = Instant::now() + WAIT;
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                assert!(status.success(), "exit status {status}");
                return;
            }
            if Instant::now() > deadline {
                let _ = self.child.kill();
                panic!("engine did not quit");
            }
            std::thread::sleep(Duration::from_millis(10));
        }
    }
}

#[test]
fn uci_session() {
    let mut e = Engine::start(&["uci", "--start", "RNBMKQBNR"]);
    e.send("uci");
    let hello = e.until("uciok", |l| l == "uciok");
    assert!(hello[0].starts_with("id name modern-chess"), "{hello:?}");
    let combo = hello
        .iter()
        .find(|l| l.starts_with("option name UCI_Variant type combo"))
        .expect("UCI_Variant option");
    for v in ["mrc", "mrc64", "merc", "icrc", "pmrc", "chess", "chess960"] {
        assert!(combo.contains(&format!(" var {v}")), "{combo}");
    }
    assert!(
        hello
            .iter()
            .any(|l| l.starts_with("option name Contempt type spin")),
        "{hello:?}"
    );
    e.send("setoption name Contempt value lots");
    let refused = e.line_starting("info string Contempt");
    assert!(refused.contains("`lots`"), "{refused}");
    e.send("setoption name Contempt value -20");
    e.send("isready");
    e.line_starting("readyok");

    // A variant change is announced with the board size and the start FEN.
    e.send("setoption name UCI_Variant value mrc");
    let info = e.line_starting("info string variant");
    assert_eq!(
        info,
        "info string variant mrc files 9 ranks 9 pocket 0 template fairy startpos \
         rnbqkmbnr/ppppppppp/9/9/9/9/9/PPPPPPPPP/RNBMKQBNR w AIai - 0 1"
    );

    // Moves in coordinates, then the board.
    e.send("position startpos moves e2e4 e8e6 f1c4"); // f1 is the queen
    e.send("d");
    let fen = e.line_starting("Fen: ");
    assert!(
        fen.starts_with(
            "Fen: rnbqkmbnr/pppp1pppp/9/4p4/9/2Q1P4/9/PPPP1PPPP/RNBMK1BNR b AIai - 1 2"
        ),
        "{fen}"
    );
    // An illegal move is reported, not played.
    e.send("position startpos moves e2e5");
    e.line_starting("info string position: move 1");

    // Perft from the start position: counted by our own move generator, cross-checked
    // against the perft command line (the same numbers must come out of both paths).
    e.send("position startpos");
    e.send("go perft 2");
    let nodes = e.line_starting("Nodes searched:");
    let cli = Command::new(BIN)
        .args(["perft", "-v", "mrc", "--setup", "RNBMKQBNR", "2"])
        .output()
        .unwrap();
    let cli_out = String::from_utf8_lossy(&cli.stdout);
    assert!(
        cli_out.contains(&nodes),
        "uci `{nodes}` vs perft command `{cli_out}`"
    );

    // A search gives a legal move (checked with `position ... moves best` and `d`).
    e.send("position startpos moves e2e4");
    e.send("go depth 2");
    let best = e.line_starting("bestmove ");
    let mv = best.split_whitespace().nth(1).unwrap().to_string();
    e.send(&format!("position startpos moves e2e4 {mv}"));
    e.send("d");
    e.send("isready");
    let after = e.until("readyok", |l| l == "readyok");
    assert!(
        !after.iter().any(|l| l.contains("info string position")),
        "bestmove {mv} was not legal: {after:?}"
    );

    // An infinite search answers only after `stop`, and `isready` is answered meanwhile.
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(200));
    e.send("isready");
    let got = e.until("readyok", |l| l == "readyok");
    assert!(!got.iter().any(|l| l.starts_with("bestmove")), "{got:?}");
    e.send("stop");
    e.line_starting("bestmove ");

    // Ten-rank boards and unknown input.
    e.send("setoption name UCI_Variant value merc");
    let info = e.line_starting("info string variant");
    assert!(info.contains("files 10 ranks 10"), "{info}");
    e.send("frobnicate");
    e.line_starting("info string unknown command: frobnicate");
    e.quit();
}

#[test]
fn uci_eval_splits_the_evaluation_into_term_groups() {
    let mut e = Engine::start(&["uci", "--variant", "chess"]);
    e.send("uci");
    e.until("uciok", |l| l == "uciok");
    // White is a queen up: material is most of the difference, in White's favour.
    e.send("position fen rnb1kbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 2");
    e.send("eval");
    let lines = e.until("total", |l| l.starts_with("total"));
    let material = lines
        .iter()
        .find(|l| l.starts_with("material"))
        .expect("a material line");
    let diff_mg: i32 = material.split_whitespace().nth(5).unwrap().parse().unwrap();
    assert!((800..=1000).contains(&diff_mg), "{lines:?}");
    let total: i32 = lines
        .last()
        .unwrap()
        .split_whitespace()
        .nth(1)
        .unwrap()
        .parse()
        .unwrap();
    assert!(total > 700, "{lines:?}");
    assert!(lines.iter().any(|l| l.starts_with("phase ")), "{lines:?}");
    // During a search `eval` answers at once instead of waiting for it.
    e.send("go infinite");
    e.send("eval");
    e.until("eval refused", |l| l.starts_with("info string eval:"));
    e.send("stop");
    e.until("bestmove", |l| l.starts_with("bestmove"));
}

/// `uci --eval-with` (a diagnostic): the search judges positions with the other engine's
/// static evaluation. Our own binary as that engine gives the very search our evaluation
/// gives; the same divided by four gives another; an engine that cannot start is an error.
#[test]
fn uci_eval_with_searches_with_the_other_engines_evaluation() {
    let me = format!("{BIN} uci");
    let search = |extra: &[&str]| -> Vec<String> {
        let mut args = vec!["uci", "--variant", "mrc64"];
        args.extend_from_slice(extra);
        let mut e = Engine::start(&args);
        e.send("uci");
        e.until("uciok", |l| l == "uciok");
        e.send("position fen r2k1r2/3bppp1/1p1p1n1q/1Np5/2P4p/3B1PP1/PP1P1P1P/1QR1R1K1 b f - 4 14");
        e.send("go depth 4");
        let lines = e.until("bestmove", |l| l.starts_with("bestmove"));
        e.quit();
        // Every word but the clock's (`nps N`, `time N`).
        let words = |l: &String| {
            let w: Vec<&str> = l.split_whitespace().collect();
            let clock = |i: usize| matches!(w[i], "nps" | "time");
            let keep = |i: usize| !clock(i) && (i == 0 || !clock(i - 1));
            (0..w.len())
                .filter(|&i| keep(i))
                .map(|i| w[i])
                .collect::<Vec<_>>()
                .join(" ")
        };
        lines
            .iter()
            .filter(|l| !l.starts_with("info string"))
            .map(words)
            .collect()
    };
    let own = search(&[]);
    let piped = search(&["--eval-with", &me]);
    let quarter = search(&["--eval-with", &me, "--eval-scale", "4"]);
    assert!(own.iter().any(|l| l.starts_with("info depth 4")), "{own:?}");
    assert_eq!(own, piped);
    assert_ne!(own, quarter);
    let (ok, _, err) = run_limited(&["uci", "--eval-with", "/nonexistent/engine"], WAIT);
    assert!(!ok && err.contains("--eval-with"), "{err}");
}

#[test]
fn uci_bishop_adjustment_and_castling_in_coordinates() {
    // MRC: Bishop Adjustment is written bishop square -> partner square, castling king takes
    // rook. Each side: rooks a and i, bishop d beside king e, and the right to adjust.
    let fen = "r2bk3r/9/9/9/9/9/9/9/R2BK3R w AIai - 0 1 ADEIadei";
    let mut e = Engine::start(&["uci", "--variant", "mrc"]);
    e.send(&format!("position fen {fen} moves d1e1"));
    e.send("d");
    let fen1 = e.line_starting("Fen: ");
    // Bishop and king swapped; White's castling and adjustment rights are gone, Black's stay.
    assert!(
        fen1.starts_with("Fen: r2bk3r/9/9/9/9/9/9/9/R2KB3R b ai - "),
        "{fen1}"
    );
    assert!(fen1.ends_with(" adei"), "{fen1}");
    e.send(&format!("position fen {fen} moves e1i1"));
    e.send("d");
    let fen2 = e.line_starting("Fen: ");
    // MRC castles the king to g1 and the rook to f1.
    assert!(
        fen2.starts_with("Fen: r2bk3r/9/9/9/9/9/9/9/R2B1RK2 b ai - "),
        "{fen2}"
    );
    e.quit();
}

#[test]
fn xboard_session() {
    let mut e = Engine::start(&["xboard", "--start", "RNBMKQBNR"]);
    e.send("xboard");
    e.send("protover 2");
    let features = e.until("done=1", |l| l.contains("done=1"));
    let all = features.join(" ");
    for f in ["setboard=1", "usermove=1", "ping=1", "variants=\""] {
        assert!(all.contains(f), "{all}");
    }
    assert!(all.contains("mrc,mrc64,merc,icrc,pmrc"), "{all}");

    e.send("new");
    e.send("variant mrc");
    let setup = e.line_starting("setup ");
    // Castling as KQkq: outside Fischer-Random mode XBoard reads no file letters (AIai).
    assert_eq!(
        setup,
        "setup (PNBRQ..M.............Kpnbrq..m.............k) 9x9+0_fairy \
         rnbqkmbnr/ppppppppp/9/9/9/9/9/PPPPPPPPP/RNBMKQBNR w KQkq - 0 1"
    );
    let piece = e.line_starting("piece ");
    assert_eq!(piece, "piece M& BN");

    e.send("ping 1");
    e.line_starting("pong 1");
    e.send("force");
    e.send("usermove e2e4");
    e.send("usermove e2e4");
    e.line_starting("Illegal move: e2e4");
    e.send("e7e5");
    e.line_starting("Error (unknown command): e7e5");
    e.send("undo");
    e.send("usermove e2e4");
    e.send("ping 2");
    let got = e.until("pong 2", |l| l == "pong 2");
    assert!(!got.iter().any(|l| l.starts_with("Illegal")), "{got:?}");

    // The engine moves for Black when told to go.
    e.send("sd 2");
    e.send("go");
    let mv = e.line_starting("move ");
    let mv = mv.trim_start_matches("move ").to_string();
    e.send("force");
    // Its move is on our board: undoing it and playing it again must be accepted.
    e.send("undo");
    e.send(&format!("usermove {mv}"));
    e.send("ping 3");
    let got = e.until("pong 3", |l| l == "pong 3");
    assert!(!got.iter().any(|l| l.starts_with("Illegal")), "{got:?}");

    // Ten ranks: XBoard numbers them from 0, so MERC's pawn push is e2e4 (our e3e5).
    e.send("new");
    e.send("variant merc");
    let setup = e.line_starting("setup ");
    assert!(setup.contains(" 10x10+0_fairy "), "{setup}");
    e.send("force");
    e.send("usermove e2e4");
    e.send("usermove e2e3");
    e.line_starting("Illegal move: e2e3");
    e.send("d");
    let fen = e.line_starting("Fen: ");
    assert!(fen.contains("/4P5/"), "{fen}");

    // setboard with an impossible position, and an unknown variant.
    e.send("setboard 8/8/8 w - - 0 1");
    e.line_starting("tellusererror Illegal position");
    e.send("variant nosuch");
    e.line_starting("Error (unknown variant): nosuch");
    e.quit();
}

#[test]
fn xboard_cores_set_the_search_threads() {
    let mut e = Engine::start(&["xboard", "--threads", "2"]);
    e.send("xboard");
    e.send("protover 2");
    let all = e.until("done=1", |l| l.contains("done=1")).join(" ");
    assert!(all.contains("smp=1"), "{all}");
    e.send("new");
    e.send("cores none");
    e.line_starting("Error (bad number of cores): none");
    // Two threads, then more than the engine has: clamped, as `memory` is.
    e.send("cores 2");
    e.send("cores 1000");
    e.send("sd 3");
    e.send("go");
    e.line_starting("move ");
    e.quit();
}

#[test]
fn threads_on_the_command_line_are_checked() {
    for args in [
        &["uci", "--threads", "0"][..],
        &["xboard", "--threads", "65"],
        &["match", "--engine", "x", "--threads", "many"],
        &["play", "--threads", "0"],
        &["bench", "--strength", "--threads", "0"],
        &["serve", "--port", "0", "--threads", "0"],
    ] {
        let (ok, _, err) = run_limited(args, Duration::from_secs(20));
        assert!(!ok, "{args:?}");
        assert!(err.contains("--threads"), "{args:?}: {err}");
        assert!(
            err.contains("not a number of threads (1..64)"),
            "{args:?}: {err}"
        );
    }
    let mut e = Engine::start(&["uci", "--threads", "3"]);
    e.send("uci");
    let opts = e.until("uciok", |l| l == "uciok").join("\n");
    assert!(
        opts.contains("option name Threads type spin default 3 min 1 max 64"),
        "{opts}"
    );
    e.send("position startpos");
    e.send("go depth 4");
    e.line_starting("bestmove ");
    e.quit();
}

#[test]
fn xboard_castling_is_written_o_o() {
    let mut e = Engine::start(&["xboard", "--variant", "chess"]);
    e.send("protover 2");
    e.until("done=1", |l| l.contains("done=1"));
    e.send("force");
    e.send("setboard r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1");
    e.send("usermove O-O");
    e.send("usermove O-O-O");
    e.send("d");
    let fen = e.line_starting("Fen: ");
    assert!(
        fen.starts_with("Fen: 2kr3r/pppppppp/8/8/8/8/PPPPPPPP/R4RK1 w - -"),
        "{fen}"
    );
    e.quit();
}

// ---------------------------------------------------------------------------------------------
// match
// ---------------------------------------------------------------------------------------------

/// Runs the binary with `args`, killing it after `limit`; returns (success, stdout, stderr).
fn run_limited(args: &[&str], limit: Duration) -> (bool, String, String) {
    let mut child = Command::new(BIN)
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut out = child.stdout.take().unwrap();
    let mut err = child.stderr.take().unwrap();
    let t_out = std::thread::spawn(move || {
        let mut s = String::new();
        std::io::Read::read_to_string(&mut out, &mut s).unwrap();
        s
    });
    let t_err = std::thread::spawn(move || {
        let mut s = String::new();
        std::io::Read::read_to_string(&mut err, &mut s).unwrap();
        s
    });
    let deadline = Instant::now() + limit;
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!(
                "`modern-chess {}` did not finish in {limit:?}",
                args.join(" ")
            );
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    (
        status.success(),
        t_out.join().unwrap(),
        t_err.join().unwrap(),
    )
}

/// A shell script standing in for an engine executable, in the test's own `dir`.
fn script(dir: &std::path::Path, name: &str, body: &str) -> std::path::PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, format!("#!/bin/sh\n{body}\n")).unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    path
}

#[cfg(unix)]
#[test]
fn match_against_our_own_uci_engine() {
    let dir = support::temp_dir("protocols-self-uci");
    let me = script(&dir, "self-uci", &format!("exec \"{BIN}\" uci"));
    let me = me.to_str().unwrap();
    let (ok, out, err) = run_limited(
        &[
            "match",
            "-v",
            "mrc64",
            "--engine",
            me,
            "--games",
            "2",
            "--movetime",
            "20",
            "--max-plies",
            "30",
            "--seed",
            "4",
        ],
        Duration::from_secs(120),
    );
    assert!(ok, "{err}");
    assert_eq!(out.matches("[Result \"").count(), 2, "{out}");
    assert!(!out.contains("illegal move"), "{out}");
    // Same start position for both games, colours reversed.
    let fens: Vec<&str> = out.lines().filter(|l| l.starts_with("[FEN ")).collect();
    assert_eq!(fens.len(), 2);
    assert_eq!(fens[0], fens[1]);
    let whites: Vec<&str> = out.lines().filter(|l| l.starts_with("[White ")).collect();
    assert_eq!(whites[0], "[White \"modern-chess 0.1.0\"]");
    assert_eq!(whites[1], "[White \"modern-chess 0.1.0 (opponent)\"]");
    let score = out.lines().last().unwrap();
    assert!(score.starts_with("; Score: modern-chess"), "{score}");
    // Every move carries both engines' summaries as comments: score/depth, time, nodes.
    let moves: String = out.lines().filter(|l| !l.starts_with('[')).collect();
    let comments = moves.matches('{').count();
    assert!(comments >= 20, "{out}");
    assert!(moves.contains("s ") && moves.contains("n}"), "{out}");
    // The output is a PGN file our own replay command accepts (every move re-checked).
    let file = dir.join("self-match.pgn");
    std::fs::write(&file, &out).unwrap();
    let (ok, replayed, err) =
        run_limited(&["replay", file.to_str().unwrap()], Duration::from_secs(60));
    assert!(ok, "{replayed}\n{err}");
}

#[cfg(unix)]
#[test]
fn match_reports_an_illegal_move_with_the_position() {
    // An "engine" that answers every `go` with a move that is never legal.
    let dir = support::temp_dir("protocols-liar");
    let liar = script(
        &dir,
        "liar",
        r#"while read cmd rest; do
  case "$cmd" in
    uci) echo "id name Liar"; echo "uciok" ;;
    isready) echo "readyok" ;;
    go) echo "bestmove a1a1" ;;
    quit) exit 0 ;;
  esac
done"#,
    );
    let (ok, out, err) = run_limited(
        &[
            "match",
            "-v",
            "chess",
            "--engine",
            liar.to_str().unwrap(),
            "--games",
            "2",
            "--movetime",
            "10",
        ],
        Duration::from_secs(60),
    );
    assert!(ok, "{err}");
    // Game 1: we are White and move first; the liar's reply loses the game for Black.
    // Game 2: the liar is White and loses at once, in the start position.
    assert!(
        out.contains("illegal move `a1a1` by Liar (Black) in "),
        "{out}"
    );
    assert!(
        out.contains(
            "illegal move `a1a1` by Liar (White) in rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w"
        ),
        "{out}"
    );
    assert!(
        out.contains("Score: modern-chess 0.1.0 2 - 0 Liar (+2 =0 -0)"),
        "{out}"
    );
}

/// Needs Fairy-Stockfish (`apt-get install fairy-stockfish`): a short match in each seed
/// variant; every one of its moves is checked by our rules on the way in.
#[test]
#[ignore]
fn match_against_fairy_stockfish_in_every_seed_variant() {
    let fsf = "/usr/games/fairy-stockfish";
    assert!(
        std::path::Path::new(fsf).exists(),
        "install fairy-stockfish first"
    );
    let dir = support::temp_dir("protocols-fsf");
    for v in ["mrc", "mrc64", "merc", "icrc", "pmrc"] {
        let (ok, out, err) = run_limited(
            &[
                "match",
                "-v",
                v,
                "--engine",
                fsf,
                "--games",
                "2",
                "--movetime",
                "50",
                "--max-plies",
                "160",
                "--seed",
                "11",
            ],
            Duration::from_secs(300),
        );
        assert!(ok, "{v}: {err}");
        assert_eq!(out.matches("[Result \"").count(), 2, "{v}: {out}");
        assert!(!out.contains("illegal move"), "{v}: {out}");
        // Fairy-Stockfish does not know Bishop Adjustment: six-field start FENs.
        for fen in out.lines().filter(|l| l.starts_with("[FEN ")) {
            assert_eq!(fen.split_whitespace().count(), 7, "{v}: {fen}");
        }
        assert!(out.contains("; Score: modern-chess"), "{v}: {out}");
        // Our replay re-reads the SAN record and re-checks every move.
        let file = dir.join(format!("{v}.pgn"));
        std::fs::write(&file, &out).unwrap();
        let (ok, replayed, err) =
            run_limited(&["replay", file.to_str().unwrap()], Duration::from_secs(60));
        assert!(ok, "{v}: {replayed}\n{err}");
    }
}

/// An opponent that dies after its first game: that game is in the PGN, the next is its loss,
/// it is started again and the match goes on. The engine is named with arguments
/// (`--engine "SCRIPT BINARY"`).
#[cfg(unix)]
#[test]
fn match_survives_an_opponent_that_dies_after_game_one() {
    let dir = support::temp_dir("protocols-dies");
    let state = dir.join("started");
    let dies = script(
        &dir,
        "dies-after-one",
        &format!(
            r#"if [ -e "{state}" ]; then exec "$1" uci; fi
touch "{state}"
n=0
while IFS= read -r line; do
  case "$line" in ucinewgame) n=$((n+1)); [ $n -ge 2 ] && exit 0;; esac
  printf '%s\n' "$line"
done | "$1" uci"#,
            state = state.display()
        ),
    );
    let pgn = dir.join("match.pgn");
    let engine = format!("{} {BIN}", dies.display());
    let (ok, out, err) = run_limited(
        &[
            "match",
            "-v",
            "mrc64",
            "--engine",
            &engine,
            "--games",
            "4",
            "--movetime",
            "10",
            "--max-plies",
            "20",
            "--seed",
            "5",
            "--pgn",
            pgn.to_str().unwrap(),
        ],
        Duration::from_secs(120),
    );
    assert!(ok, "{err}");
    let file = std::fs::read_to_string(&pgn).unwrap();
    assert_eq!(file.matches("[Result \"").count(), 4, "{file}");
    let games: Vec<&str> = file.split("[Event ").skip(1).collect();
    assert!(
        !games[0].contains("the other engine failed"),
        "{}",
        games[0]
    );
    assert!(games[0].contains("[Round \"1\"]"));
    // Game 2: the other engine is White and died before it: its loss.
    assert!(
        games[1].contains("[Termination \"the other engine failed: "),
        "{}",
        games[1]
    );
    assert!(games[1].contains("[Result \"1-0\"]") || games[1].contains("[Result \"0-1\"]"));
    let black_is_us = games[1].contains("[Black \"modern-chess");
    assert!(games[1].contains(if black_is_us {
        "[Result \"0-1\"]"
    } else {
        "[Result \"1-0\"]"
    }));
    // Games 3 and 4 were played by the restarted engine.
    for g in &games[2..] {
        assert!(!g.contains("the other engine failed"), "{g}");
    }
    assert!(out.contains("; Score: "), "{out}");
}
