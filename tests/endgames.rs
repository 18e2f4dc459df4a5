//! The engine mates a lone king with king and queen, king and rook, and king and minister
//! (the bishop-knight compound, in the variants that have one) from random positions in every
//! seed variant, within 50 moves, against its own best defence.
//!
//! The default test plays a few positions per variant and material at a node limit, so it is
//! deterministic and quick; the `#[ignore]` one plays more positions at 100 ms a move:
//! `cargo test --release --test endgames -- --ignored --nocapture`.

use modern_chess::catalog;
use modern_chess::engine::{Engine, Limits};
use modern_chess::Rules;
use modern_chess::{Colour, Game, Position};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

const SEEDS: [&str; 5] = ["mrc", "mrc64", "merc", "icrc", "pmrc"];

/// The winning pieces, by their moves (so the letters come from each variant's file).
const MATERIAL: [(&str, &[&str]); 3] = [
    ("queen", &["Q"]),
    ("rook", &["R"]),
    ("minister", &["BN", "NB"]),
];

struct Rng(u64);
impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((self.0 >> 33) % n as u64) as usize
    }
}

/// The letter of the variant's piece with one of these Betza strings.
fn letter(rules: &Rules, betza: &[&str]) -> Option<char> {
    rules
        .variant()
        .pieces()
        .iter()
        .find(|p| betza.contains(&p.betza.as_str()))
        .map(|p| p.letter)
}

/// A random legal position: White king and `piece` against the lone black king, White to
/// move, Black not in check, neither side mated or stalemated yet.
fn random_position(rules: &Rules, piece: char, rng: &mut Rng) -> Position {
    let (files, ranks) = (
        rules.variant().files() as usize,
        rules.variant().ranks() as usize,
    );
    loop {
        let mut board = vec![None; files * ranks];
        let mut squares = Vec::new();
        for ch in ['K', piece, 'k'] {
            let sq = loop {
                let s = rng.below(files * ranks);
                if board[s].is_none() {
                    break s;
                }
            };
            board[sq] = Some(ch);
            squares.push(sq);
        }
        let (wk, bk) = (squares[0], squares[2]);
        let near = (wk % files).abs_diff(bk % files) <= 1 && (wk / files).abs_diff(bk / files) <= 1;
        if near {
            continue;
        }
        let fen = fen_of(&board, files, ranks);
        let Ok(pos) = Position::from_fen(rules, &fen) else {
            continue;
        };
        let black_checked = {
            let flipped = Position::from_fen(rules, &fen.replace(" w ", " b "));
            flipped.map_or(true, |p| p.in_check(rules))
        };
        if black_checked || pos.legal_moves(rules).is_empty() {
            continue;
        }
        return pos;
    }
}

/// The FEN of a board listed from a1 (index 0) along the ranks.
fn fen_of(board: &[Option<char>], files: usize, ranks: usize) -> String {
    let mut rows = Vec::new();
    for r in (0..ranks).rev() {
        let mut row = String::new();
        let mut empty = 0;
        for f in 0..files {
            match board[r * files + f] {
                Some(ch) => {
                    if empty > 0 {
                        row.push_str(&empty.to_string());
                        empty = 0;
                    }
                    row.push(ch);
                }
                None => empty += 1,
            }
        }
        if empty > 0 {
            row.push_str(&empty.to_string());
        }
        rows.push(row);
    }
    format!("{} w - - 0 1", rows.join("/"))
}

/// Plays the ending out: both sides the engine with `limits`. The number of White moves
/// until mate, or None when there was none within 50 moves.
fn moves_to_mate(rules: &Arc<Rules>, start: Position, limits: &Limits) -> Option<usize> {
    let stop = AtomicBool::new(false);
    let mut white = Engine::new(Arc::clone(rules), 8);
    let mut black = Engine::new(Arc::clone(rules), 8);
    let mut game = Game::new(start);
    for _ in 0..100 {
        if let Some(o) = game.outcome(rules) {
            return (o.winner() == Some(Colour::White)).then(|| game.moves().len().div_ceil(2));
        }
        let engine = if game.current().side_to_move() == Colour::White {
            &mut white
        } else {
            &mut black
        };
        let m = engine.search(game.positions(), limits, &stop, &mut |_| {})?;
        game.play(rules, m).ok()?;
    }
    let o = game.outcome(rules)?;
    (o.winner() == Some(Colour::White)).then(|| game.moves().len().div_ceil(2))
}

/// Every variant and material, `per_set` random positions; the failures, described.
fn play_all(per_set: usize, limits: &Limits, seed: u64) -> (usize, Vec<String>) {
    let mut failures = Vec::new();
    let mut played = 0;
    for (i, v) in SEEDS.into_iter().enumerate() {
        let rules = Arc::new(catalog::load_rules(v).unwrap());
        let mut rng = Rng(seed + 1000 * i as u64);
        for (name, betza) in MATERIAL {
            let Some(piece) = letter(&rules, betza) else {
                eprintln!("{v}: no {name} in this variant");
                continue;
            };
            let mut lengths = Vec::new();
            for _ in 0..per_set {
                let pos = random_position(&rules, piece, &mut rng);
                let fen = pos.fen(&rules);
                played += 1;
                match moves_to_mate(&rules, pos, limits) {
                    Some(n) => lengths.push(n),
                    None => failures.push(format!("{v} K+{name}: no mate in 50 from {fen}")),
                }
            }
            eprintln!("{v} K+{name}: mates in {lengths:?} moves");
        }
    }
    (played, failures)
}

#[test]
fn mates_with_queen_rook_and_minister_in_every_seed_variant() {
    let limits = Limits {
        nodes: Some(20_000),
        ..Limits::default()
    };
    let (played, failures) = play_all(2, &limits, 7);
    assert!(played >= 2 * 12, "{played}");
    assert!(failures.is_empty(), "{failures:#?}");
}

#[test]
#[ignore]
fn mates_from_many_random_positions_at_100_ms() {
    let limits = Limits::movetime(100);
    let (played, failures) = play_all(6, &limits, 2026);
    println!(
        "{} of {played} endings mated within 50 moves",
        played - failures.len()
    );
    assert!(failures.is_empty(), "{failures:#?}");
}
