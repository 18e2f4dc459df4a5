//! Every protocol fault of issue 14, through the real binary over pipes. Each read has a
//! timeout, so a hang fails the test instead of blocking the suite.

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_modern-chess");
const WAIT: Duration = Duration::from_secs(20);

struct Engine {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    seen: Vec<String>,
}

impl Engine {
    fn start(args: &[&str]) -> Engine {
        let mut child = Command::new(BIN)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("binary starts");
        let stdin = child.stdin.take();
        let stdout = child.stdout.take().unwrap();
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            let mut r = BufReader::new(stdout);
            let mut buf = Vec::new();
            while matches!(r.read_until(b'\n', &mut buf), Ok(n) if n > 0) {
                let l = String::from_utf8_lossy(&buf).trim_end().to_string();
                buf.clear();
                if tx.send(l).is_err() {
                    break;
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

    fn send_bytes(&mut self, bytes: &[u8]) {
        let w = self.stdin.as_mut().expect("stdin open");
        w.write_all(bytes).expect("engine reads");
        w.flush().unwrap();
    }

    fn send(&mut self, cmd: &str) {
        self.send_bytes(format!("{cmd}\n").as_bytes());
    }

    /// Lines until one satisfies `want` (returned last), within `limit`.
    fn until_within(&mut self, limit: Duration, want: impl Fn(&str) -> bool) -> Vec<String> {
        let deadline = Instant::now() + limit;
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
                Err(RecvTimeoutError::Timeout) => panic!(
                    "timed out after {limit:?}; read so far:\n{}",
                    self.seen.join("\n")
                ),
                Err(RecvTimeoutError::Disconnected) => {
                    panic!("engine closed its output; read:\n{}", self.seen.join("\n"))
                }
            }
        }
    }

    fn until(&mut self, want: impl Fn(&str) -> bool) -> Vec<String> {
        self.until_within(WAIT, want)
    }

    /// No line satisfying `bad` arrives within `d`.
    fn quiet_for(&mut self, d: Duration, bad: impl Fn(&str) -> bool) {
        let deadline = Instant::now() + d;
        while let Ok(l) = self
            .lines
            .recv_timeout(deadline.saturating_duration_since(Instant::now()))
        {
            assert!(
                !bad(&l),
                "unexpected `{l}`; read:\n{}",
                self.seen.join("\n")
            );
            self.seen.push(l);
        }
    }

    /// Waits for the process to end by itself within `limit`; kills it and fails otherwise.
    fn exits_within(&mut self, limit: Duration) -> std::process::ExitStatus {
        let deadline = Instant::now() + limit;
        loop {
            if let Some(s) = self.child.try_wait().unwrap() {
                return s;
            }
            if Instant::now() > deadline {
                let _ = self.child.kill();
                let _ = self.child.wait();
                panic!("process still running after {limit:?}");
            }
            std::thread::sleep(Duration::from_millis(10));
        }
    }

    /// Closes our end of its input (end of input).
    fn close_input(&mut self) {
        self.stdin = None;
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn uci(variant: &str) -> Engine {
    let mut e = Engine::start(&["uci", "--variant", variant, "--seed", "3"]);
    e.send("uci");
    e.until(|l| l == "uciok");
    e
}

fn is_best(l: &str) -> bool {
    l.starts_with("bestmove")
}

#[test]
fn uci_go_perft_is_interruptible() {
    let mut e = uci("mrc");
    e.send("position startpos");
    e.send("go perft 20");
    let t = Instant::now();
    e.send("isready");
    e.until_within(Duration::from_secs(2), |l| l == "readyok");
    assert!(t.elapsed() < Duration::from_secs(2));
    e.send("stop");
    e.until_within(Duration::from_secs(5), |l| l == "info string perft stopped");
    e.send("go perft 20");
    e.send("quit");
    assert!(e.exits_within(Duration::from_secs(5)).success());
}

#[test]
fn uci_end_of_input_during_long_searches_quits() {
    for go in [
        "go depth 60",
        "go nodes 100000000000",
        "go movetime 100000000",
        "go wtime 100000000 btime 100000000",
        "go infinite",
        "go perft 20",
    ] {
        let mut e = uci("mrc");
        e.send("position startpos");
        e.send(go);
        std::thread::sleep(Duration::from_millis(100));
        e.close_input();
        let status = e.exits_within(Duration::from_secs(5));
        assert!(status.success(), "{go}: {status}");
        if go != "go perft 20" {
            // The search still answered, once.
            let best = e.until(is_best);
            assert_eq!(best.iter().filter(|l| is_best(l)).count(), 1, "{go}");
        }
    }
}

#[test]
fn xboard_end_of_input_during_long_searches_quits() {
    for limit in ["sd 60", "st 100000"] {
        let mut e = Engine::start(&["xboard", "--variant", "mrc"]);
        e.send("xboard");
        e.send("protover 2");
        e.until(|l| l.contains("done=1"));
        e.send("new");
        e.send(limit);
        e.send("go");
        std::thread::sleep(Duration::from_millis(100));
        e.close_input();
        assert!(e.exits_within(Duration::from_secs(5)).success(), "{limit}");
    }
}

#[test]
fn closed_output_ends_the_engine() {
    let mut child = Command::new(BIN)
        .args(["uci", "--variant", "mrc"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = child.stdout.take().unwrap();
    writeln!(stdin, "uci").unwrap();
    let mut first = [0u8; 8];
    stdout.read_exact(&mut first).unwrap();
    // As `| head -1` does: our reading end closes; the engine's input stays open.
    drop(stdout);
    writeln!(stdin, "go depth 60").unwrap();
    writeln!(stdin, "isready").unwrap();
    let _ = stdin.flush();
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        if child.try_wait().unwrap().is_some() {
            break;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!("engine kept running with nobody reading its output");
        }
        let _ = writeln!(stdin, "isready");
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[test]
fn non_utf8_bytes_cost_one_line_at_most() {
    let mut e = uci("mrc");
    e.send_bytes(b"setoption name J\xfcrgen value caf\xe9\n");
    e.send("isready");
    e.until(|l| l == "readyok");
    e.send_bytes(b"\xff\xfe\n");
    e.send("isready");
    e.until(|l| l == "readyok");
    let mut x = Engine::start(&["xboard", "--variant", "mrc"]);
    x.send("xboard");
    x.send_bytes(b"name J\xfcrgen M\xfcller\n");
    x.send("ping 4");
    x.until(|l| l == "pong 4");
}

#[test]
fn uci_searchmoves_is_obeyed() {
    let mut e = uci("chess");
    e.send("position startpos moves e2e4 e7e5");
    e.send("go depth 4 searchmoves a2a3 h2h3");
    let best = e.until(is_best).pop().unwrap();
    assert!(best == "bestmove a2a3" || best == "bestmove h2h3", "{best}");
    // A searchmoves move that is not legal: no move from a list the GUI did not send.
    e.send("go depth 2 searchmoves e2e4");
    let lines = e.until(is_best);
    assert_eq!(lines.last().unwrap(), "bestmove 0000");
    assert!(lines
        .iter()
        .any(|l| l.starts_with("info string go: searchmoves")));
}

#[test]
fn uci_go_mate_and_a_lone_other_clock_end() {
    let mut e = uci("chess");
    // Mate in 2: 1. Qh7+?? no: 1. Rd8+ Rxd8 2. Rxd8#.
    e.send("position fen 3r2k1/5ppp/8/8/8/8/5PPP/3RR1K1 w - - 0 1");
    e.send("go mate 2");
    let best = e.until(is_best).pop().unwrap();
    assert_ne!(best, "bestmove 0000");
    // White to move, only Black's clock given (a GUI fault): still a bounded search.
    e.send("position startpos");
    e.send("go btime 1000");
    e.until_within(Duration::from_secs(5), is_best);
}

#[test]
fn uci_ponderhit_continues_as_a_timed_search() {
    let mut e = uci("chess");
    e.send("position startpos moves e2e4");
    e.send("go ponder wtime 3000 btime 3000");
    // Pondering: no answer before ponderhit.
    e.quiet_for(Duration::from_millis(700), is_best);
    let t = Instant::now();
    e.send("ponderhit");
    // Not stopped at once: it thinks on (about a thirtieth of its 3 s) and then answers.
    e.until_within(Duration::from_secs(5), is_best);
    assert!(
        t.elapsed() >= Duration::from_millis(40),
        "{:?}",
        t.elapsed()
    );
}

#[test]
fn uci_rejected_position_answers_no_move() {
    let mut e = uci("chess");
    e.send("position startpos moves e2e4");
    e.send("position fen this is not a fen");
    e.send("go depth 1");
    let lines = e.until(is_best);
    assert_eq!(lines.last().unwrap(), "bestmove 0000");
    assert!(lines.iter().any(|l| l.starts_with("info string position:")));
    assert!(lines
        .iter()
        .any(|l| l.starts_with("info string no position to search")));
    // An illegal move in the list is refused the same way.
    e.send("position startpos moves e2e4 e7e4");
    e.send("go depth 1");
    assert_eq!(e.until(is_best).last().unwrap(), "bestmove 0000");
    // The next good position clears the error.
    e.send("position startpos moves e2e4");
    e.send("go depth 1");
    assert_ne!(e.until(is_best).last().unwrap(), "bestmove 0000");
}

#[test]
fn uci_exactly_one_bestmove_per_go_when_stop_races_the_end() {
    let mut e = uci("mrc");
    e.send("position startpos");
    let n = 60;
    for i in 0..n {
        e.send(&format!("go movetime {}", i % 4));
        if i % 2 == 0 {
            e.send("stop");
        }
    }
    e.send("isready");
    e.until(|l| l == "readyok");
    // Answers still on their way after readyok.
    e.quiet_for(Duration::from_millis(300), |_| false);
    let bests = e.seen.iter().filter(|l| is_best(l)).count();
    assert_eq!(bests, n, "{}", e.seen.join("\n"));
}

#[test]
fn uci_isready_during_search_is_answered_at_once() {
    let mut e = uci("mrc");
    e.send("position startpos");
    e.send("go infinite");
    for _ in 0..5 {
        let t = Instant::now();
        e.send("isready");
        e.until_within(Duration::from_secs(1), |l| l == "readyok");
        assert!(
            t.elapsed() < Duration::from_millis(500),
            "{:?}",
            t.elapsed()
        );
    }
    e.send("stop");
    e.until(is_best);
}

fn xboard(args: &[&str]) -> Engine {
    let mut all = vec!["xboard"];
    all.extend_from_slice(args);
    let mut e = Engine::start(&all);
    e.send("xboard");
    e.send("protover 2");
    e.until(|l| l.contains("done=1"));
    e
}

#[test]
fn xboard_ping_during_thinking_comes_after_the_move() {
    let mut e = xboard(&["--variant", "chess"]);
    e.send("new");
    e.send("st 1");
    e.send("go");
    e.send("ping 7");
    let lines = e.until(|l| l == "pong 7");
    assert!(
        lines.iter().any(|l| l.starts_with("move ")),
        "pong before the move: {lines:?}"
    );
}

#[test]
fn xboard_memory_during_search_does_not_block_input() {
    let mut e = xboard(&["--variant", "mrc"]);
    e.send("new");
    e.send("st 30");
    e.send("go");
    std::thread::sleep(Duration::from_millis(200));
    e.send("memory 64");
    let t = Instant::now();
    e.send("?");
    e.until_within(Duration::from_secs(5), |l| l.starts_with("move "));
    assert!(t.elapsed() < Duration::from_secs(5));
    // Out-of-range sizes are clamped, the session goes on.
    e.send("memory 100000");
    e.send("ping 2");
    e.until(|l| l == "pong 2");
}

#[test]
fn xboard_go_in_a_finished_position_sends_the_result() {
    let mut e = xboard(&["--variant", "chess"]);
    e.send("new");
    e.send("force");
    e.send("setboard 8/8/4k3/8/8/4K3/8/8 w - - 0 1");
    e.send("go");
    let l = e.until(|l| l.contains("1/2-1/2")).pop().unwrap();
    assert!(l.starts_with("1/2-1/2 {"), "{l}");
}

#[test]
fn xboard_repeated_variant_keeps_the_start_position() {
    let mut e = xboard(&["--variant", "mrc"]);
    e.send("new");
    e.send("variant mrc");
    let first = e.until(|l| l.starts_with("setup ")).pop().unwrap();
    e.send("new");
    e.send("variant mrc");
    let again = e.until(|l| l.starts_with("setup ")).pop().unwrap();
    assert_eq!(first, again);
    // XBoard reads castling only as KQkq: the setup FEN has no other letters.
    let castling = first.split_whitespace().nth(5).unwrap();
    assert!(castling.chars().all(|c| "KQkq-".contains(c)), "{first}");
}

#[test]
fn xboard_setboard_is_lenient() {
    let mut e = xboard(&["--variant", "chess"]);
    e.send("new");
    e.send("force");
    // What XBoard sends: an en passant square no pawn made.
    e.send("setboard rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq b7 0 1");
    e.send("d");
    let lines = e.until(|l| l.starts_with("Fen: "));
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("# setboard: en passant square `b7` ignored")),
        "{lines:?}"
    );
    assert_eq!(
        lines.last().unwrap(),
        "Fen: rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w AHah - 0 1"
    );
    e.send("usermove e2e4");
    e.send("ping 1");
    let l = e.until(|l| l == "pong 1");
    assert!(!l.iter().any(|l| l.starts_with("Illegal")), "{l:?}");
}

#[test]
fn uci_position_fen_is_lenient_and_the_command_line_is_not() {
    let mut e = uci("mrc");
    // Kings g1 and c9; `C` names no rook: dropped with a warning. b7: impossible en passant.
    let fen = "rmknbqbrn/ppppppppp/9/9/9/9/9/PPPPPPPPP/NRBQBNKMR w KQCkq b7 0 1";
    e.send(&format!("position fen {fen}"));
    e.send("d");
    let lines = e.until(|l| l.starts_with("Legal moves"));
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("info string position: castling right `C` dropped")),
        "{lines:?}"
    );
    assert!(lines
        .iter()
        .any(|l| l.starts_with("info string position: en passant square `b7` ignored")));
    assert!(
        lines
            .iter()
            .any(|l| l == "Fen: rmknbqbrn/ppppppppp/9/9/9/9/9/PPPPPPPPP/NRBQBNKMR w BIah - 0 1"),
        "{lines:?}"
    );
    e.send("go depth 1");
    assert_ne!(e.until(is_best).pop().unwrap(), "bestmove 0000");
    // The command line keeps refusing, with the exact error.
    let out = Command::new(BIN)
        .args(["perft", "--variant", "mrc", "--fen", fen, "1"])
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("bad FEN (castling field)"), "{err}");
    let fen_ep = "rmknbqbrn/ppppppppp/9/9/9/9/9/PPPPPPPPP/NRBQBNKMR w BIah b7 0 1";
    let out = Command::new(BIN)
        .args(["perft", "--variant", "mrc", "--fen", fen_ep, "1"])
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains(
            "bad FEN (en passant field): b7 is not behind a pawn that could just have made a double step"
        ),
        "{err}"
    );
}

#[test]
fn hash_too_large_is_refused_or_clamped_with_a_message() {
    for mode in ["uci", "xboard"] {
        let out = Command::new(BIN)
            .args([mode, "--hash", "100000"])
            .stdin(Stdio::null())
            .output()
            .unwrap();
        assert!(!out.status.success(), "{mode}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("100000") && err.contains("4096"), "{err}");
    }
    let out = Command::new(BIN)
        .args(["match", "--engine", "x", "--hash", "100000"])
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("too large"), "{err}");
    let mut e = uci("mrc");
    e.send("setoption name Hash value 100000");
    e.send("isready");
    let lines = e.until(|l| l == "readyok");
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("info string Hash: `100000` refused")),
        "{lines:?}"
    );
}
