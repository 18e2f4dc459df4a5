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
