//! The built-in engine through the library: legal answers everywhere, and its strength
//! against a random mover measured (the slow match is `#[ignore]`; run it with
//! `cargo test --release --test engine -- --ignored --nocapture`).

use modern_chess::catalog;
use modern_chess::engine::{Engine, Limits};
use modern_chess::setup;
use modern_chess::Position;
use modern_chess::Rules;
use modern_chess::{Game, Outcome};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

mod support;

const SEEDS: [&str; 5] = ["mrc", "mrc64", "merc", "icrc", "pmrc"];

/// A small deterministic generator, so every run plays the same games.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        self.0 >> 33
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

fn start(rules: &Rules, id: u64) -> Position {
    let v = rules.variant();
    let id = id % setup::count(v);
    let sp = setup::from_id(v, id).unwrap();
    Position::from_fen(rules, &setup::start_fen(v, &sp)).unwrap()
}

/// Along random games in every seed variant, the engine's answer at a tiny node budget is
/// always one of the legal moves, including castling and Bishop Adjustment when offered.
#[test]
fn engine_answers_are_legal_along_random_games() {
    let stop = AtomicBool::new(false);
    for v in SEEDS {
        let rules = Arc::new(catalog::load_rules(v).unwrap());
        let mut engine = Engine::new(Arc::clone(&rules), 2);
        let mut rng = Rng(17);
        for g in 0..3 {
            let mut game = Game::new(start(&rules, 1000 * g + 7));
            for _ in 0..60 {
                if game.outcome(&rules).is_some() {
                    break;
                }
                let legal = game.current().legal_moves(&rules);
                let limits = Limits {
                    nodes: Some(300),
                    ..Limits::default()
                };
                let m = engine
                    .search(game.positions(), &limits, &stop, &mut |_| {})
                    .expect("a move when moves exist");
                assert!(legal.contains(&m), "{v}: illegal answer {}", m.uci(&rules));
                let r = legal.as_slice()[rng.below(legal.len())];
                game.play(&rules, r).unwrap();
            }
        }
    }
}

/// Engine against a random mover: 10 games per seed variant at 50 ms a move, the engine
/// White in half of them. Prints the score table README quotes; fails under 95%.
#[test]
#[ignore]
fn engine_beats_random_mover() {
    let movetime: u64 = std::env::var("MOVETIME_MS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(50);
    let games: u64 = std::env::var("GAMES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(10);
    let stop = AtomicBool::new(false);
    let mut failures = Vec::new();
    for v in SEEDS {
        let rules = Arc::new(catalog::load_rules(v).unwrap());
        let mut engine = Engine::new(Arc::clone(&rules), 16);
        let mut rng = Rng(2024);
        let (mut wins, mut draws, mut losses, mut plies) = (0, 0, 0, 0);
        for g in 0..games {
            let engine_colour = modern_chess::Colour::from_index(g as usize % 2);
            let mut game = Game::new(start(&rules, rng.next()));
            engine.clear();
            let outcome: Outcome = loop {
                if let Some(o) = game.outcome(&rules) {
                    break o;
                }
                let pos = game.current().clone();
                let m = if pos.side_to_move() == engine_colour {
                    let limits = Limits {
                        movetime_ms: Some(movetime),
                        ..Limits::default()
                    };
                    engine
                        .search(game.positions(), &limits, &stop, &mut |_| {})
                        .unwrap()
                } else {
                    let legal = pos.legal_moves(&rules);
                    legal.as_slice()[rng.below(legal.len())]
                };
                game.play(&rules, m).unwrap();
            };
            plies += game.moves().len();
            match outcome.winner() {
                Some(w) if w == engine_colour => wins += 1,
                Some(_) => losses += 1,
                None => {
                    draws += 1;
                    eprintln!("{v} game {g}: {}", outcome.describe(&rules));
                }
            }
        }
        let score = wins as f64 + draws as f64 * 0.5;
        let pct = 100.0 * score / games as f64;
        println!(
            "{v:6} +{wins} ={draws} -{losses}  {score}/{games} = {pct:.0}%  ({:.0} plies a game)",
            plies as f64 / games as f64
        );
        if pct < 95.0 {
            failures.push(format!("{v}: {pct:.0}%"));
        }
    }
    assert!(failures.is_empty(), "below 95%: {failures:?}");
}

/// Runs the binary with a time limit (a hang fails the test instead of blocking the suite).
fn run_binary(args: &[&str], limit_s: u64) -> (bool, String, String) {
    use std::io::Read;
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_modern-chess"))
        .args(args)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("the binary starts");
    let started = std::time::Instant::now();
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        if started.elapsed().as_secs() > limit_s {
            let _ = child.kill();
            panic!("{args:?} did not finish within {limit_s} s");
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    };
    let (mut out, mut err) = (String::new(), String::new());
    child
        .stdout
        .take()
        .unwrap()
        .read_to_string(&mut out)
        .unwrap();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut err)
        .unwrap();
    (status.success(), out, err)
}

/// `bench --strength` plays its games through the match code and prints the table; here
/// against our own binary (no external program needed), two quick games in one variant.
#[test]
fn strength_benchmark_prints_a_score_table() {
    let me = format!("{} uci", env!("CARGO_BIN_EXE_modern-chess"));
    let args = [
        "bench",
        "--strength",
        "--engine",
        &me,
        "--variants",
        "mrc",
        "--games-per-variant",
        "2",
        "--movetime",
        "10",
    ];
    let (ok, out, err) = run_binary(&args, 300);
    assert!(ok, "{out}\n{err}");
    let row = out
        .lines()
        .find(|l| l.starts_with("mrc "))
        .unwrap_or_else(|| panic!("no mrc row in {out}"));
    let fields: Vec<&str> = row.split_whitespace().collect();
    assert_eq!(fields[1], "2", "two games: {row}");
    let points: f64 = fields[2].parse().unwrap();
    assert!((0.0..=2.0).contains(&points), "{row}");
    assert!(out.lines().any(|l| l.starts_with("total ")), "{out}");
    assert_eq!(err.matches("mrc game ").count(), 2, "{err}");
    let (ok, _, err) = run_binary(&["bench", "--strength", "--games-per-variant", "0"], 30);
    assert!(!ok && err.contains("at least 1"), "{err}");
}

/// `bench --strength` of `games` games in `variant` against `engine` (our own binary).
fn strength_args<'a>(engine: &'a str, variant: &'a str, games: &'a str) -> Vec<&'a str> {
    vec![
        "bench",
        "--strength",
        "--engine",
        engine,
        "--variants",
        variant,
        "--games-per-variant",
        games,
    ]
}

/// Plays a two-game benchmark of `variant` (our engine against itself over UCI) with the
/// given per-move limits twice, and checks the header names both sides' limits and that the
/// second run plays exactly the games of the first.
fn benchmark_replays_the_same_games(variant: &str, limits: &[&str], seed: &str, labels: [&str; 2]) {
    let me = format!("{} uci", env!("CARGO_BIN_EXE_modern-chess"));
    let mut args = strength_args(&me, variant, "2");
    args.extend_from_slice(&["--seed", seed]);
    args.extend_from_slice(limits);
    let (ok, out, first) = run_binary(&args, 300);
    assert!(ok, "{out}\n{first}");
    assert!(
        out.contains(&format!("ours at {}", labels[0]))
            && out.contains(&format!("at {}", labels[1])),
        "{out}"
    );
    assert_eq!(
        first.matches(&format!("{variant} game ")).count(),
        2,
        "{first}"
    );
    let (ok, _, second) = run_binary(&args, 300);
    assert!(ok);
    assert_eq!(first, second);
}

/// With both engines searching to a fixed depth, the benchmark's games do not depend on the
/// machine's load or speed: the same seed plays the same games again.
#[test]
fn fixed_depth_benchmark_plays_the_same_games_twice() {
    benchmark_replays_the_same_games(
        "mrc64",
        &["--depth", "4", "--engine-depth", "3"],
        "5",
        ["depth 4", "depth 3"],
    );
}

/// The same with node limits (`--nodes`, `--engine-nodes`, `go nodes N`): equal work for
/// both engines, and again the same games on every run.
#[test]
fn node_limited_benchmark_plays_the_same_games_twice() {
    benchmark_replays_the_same_games(
        "pmrc",
        &["--nodes", "3000", "--engine-nodes", "2000"],
        "6",
        ["3000 nodes", "2000 nodes"],
    );
}

/// Level 8 scores at least 80% against level 2 (UCI `Skill Level` 3, the skill of
/// `engine::Level` 2) over 12 games at 50 ms a move (~1 minute on 2 cores).
#[test]
#[ignore]
fn level_8_beats_level_2() {
    let me = format!("{} uci", env!("CARGO_BIN_EXE_modern-chess"));
    let args = [
        "match",
        "--engine",
        &me,
        "--engine-option",
        "Skill Level=3",
        "--level",
        "8",
        "--games",
        "12",
        "--movetime",
        "50",
        "--seed",
        "12",
    ];
    let (ok, out, err) = run_binary(&args, 900);
    assert!(ok, "{err}");
    let score = out
        .lines()
        .find_map(|l| l.strip_prefix("; Score: "))
        .unwrap_or_else(|| panic!("no score in {err}"));
    eprintln!("level 8 vs level 2: {score}");
    let ours: f64 = score.split_whitespace().nth(2).unwrap().parse().unwrap();
    assert!(ours >= 0.8 * 12.0, "{score}");
}

/// `bench --strength --eval-with` plays our search with another engine's static evaluation
/// (its `eval` command). With our own binary as that engine the evaluations are ours, so the
/// games and every score and node count in them are those of a run without it (only the
/// time differs: every evaluation goes through a pipe); with its
/// scores divided by 4 they are not.
#[test]
fn a_piped_evaluation_is_the_one_the_search_uses() {
    let dir = support::temp_dir("eval-with");
    let me = format!("{} uci", env!("CARGO_BIN_EXE_modern-chess"));
    let run = |extra: &[&str], name: &str| -> String {
        let pgn = dir.join(name);
        let mut args = strength_args(&me, "mrc64", "1");
        args.extend_from_slice(&[
            "--depth",
            "4",
            "--engine-depth",
            "3",
            "--seed",
            "9",
            "--pgn",
            pgn.to_str().unwrap(),
        ]);
        args.extend_from_slice(extra);
        let (ok, out, err) = run_binary(&args, 300);
        assert!(ok, "{out}\n{err}");
        // Every word but the seconds each move took (`0.001s`).
        let text = std::fs::read_to_string(pgn).unwrap();
        let timed = |w: &&str| {
            w.strip_suffix('s')
                .is_some_and(|n| n.parse::<f64>().is_ok())
        };
        let words: Vec<&str> = text.split_whitespace().filter(|w| !timed(w)).collect();
        words.join(" ")
    };
    let own = run(&[], "own.pgn");
    let piped = run(&["--eval-with", &me], "piped.pgn");
    let quarter = run(&["--eval-with", &me, "--eval-scale", "4"], "quarter.pgn");
    assert!(own.contains("n}"), "{own}");
    assert_eq!(own, piped);
    assert_ne!(own, quarter);
    // An engine that cannot start is an error naming the option, with a failing status.
    let mut args = strength_args(&me, "mrc64", "1");
    args.extend_from_slice(&["--depth", "1", "--eval-with", "/nonexistent/engine"]);
    let (ok, _, err) = run_binary(&args, 60);
    assert!(
        !ok && err.contains("--eval-with /nonexistent/engine"),
        "{err}"
    );
}
