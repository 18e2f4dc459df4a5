//! `modern-chess play` end to end: the real binary with moves piped into standard input.
//!
//! The scripted games were found with the library by `find_scripts` below (run it with
//! `cargo test --release --test play -- --ignored --nocapture find_scripts`): guided random
//! play until the game has had a castling on each side, a Bishop Adjustment (where the variant
//! has the rule), an en passant capture and a promotion, then the engine mates a random mover.

use modern_chess::catalog;
use modern_chess::engine::{Engine, Limits};
use modern_chess::game::Game;
use modern_chess::position::{Move, MoveKind, Position, NO_PROMO};
use modern_chess::rules::Rules;
use modern_chess::setup;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use std::io::Write;
use std::process::{Command, Stdio};

/// Runs `modern-chess play ARGS` with `input` on standard input; returns stdout and success.
fn play(args: &[&str], input: &str) -> (String, bool) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_modern-chess"))
        .arg("play")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run modern-chess");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.trim().is_empty(), "stderr: {stderr}");
    (stdout, out.status.success())
}

fn lines_with<'a>(out: &'a str, prefix: &str) -> Vec<&'a str> {
    out.lines().filter(|l| l.starts_with(prefix)).collect()
}

/// One scripted game per seed variant: found by `find_scripts`, each has a castling on
/// each side, a Bishop Adjustment (not PMRC, which lacks the rule), an en passant capture and
/// a promotion, and ends in White's checkmate.
const SCRIPTS: [(&str, u64, &str); 5] = [
    ("mrc", 2425, "b1a1 b8b7 i2i4 c8c7 f2f4 c7c6 c2c4 d8d7 d1f2 e9a5 f2g4 a8a6 c4c5 e8e7 f4f5 h8h6 d2d3 a5b3 e2e3 h6h5 f5f6 h5i4 h2h4 i4h3 a2b3 a6a5 g4f2 f9d8 d3d4 i8i6 d4d5 b9c8 g2g3 g8g7 f6e7 b7b6 c5b6 f8e7 b3b4 a5a4 b1a3 c6c5 b4b5 i9h7 g3g4 d7d6 f1d3 h9i8 e1c3 d9h5 g1c1 c9g9 b2b3 h3h2 g4h5 h2i1q h1e4 g9h8 c3g7 h8i7 h5h6"),
    ("mrc64", 873, "g1f1 d7d6 a2a3 a7a5 c2c3 c7c6 h2h4 f7f6 e2e3 a5a4 g1e2 e7e5 h4h5 c8b6 g2g4 c6c5 d2d4 f6f5 d4e5 f5g4 f2f4 g4f3 h5h6 f8f5 e5d6 e8c7 c3c4 d8g8 e3e4 g7g5 e4e5 h8f6 e5f6 g5g4 f6f7 g8h8 d6c7 f8g8 c7b8q g4g3 f7g8n f3f2 d1f2 g3g2 b8c8 f5c2 c1e3 g2h1n c8a8 c2e2 e3e2 h1g3 e1b1 g3f5 e2e5 f5g7 h6g7"),
    ("merc", 1843, "h2i2 c8c6 e3e5 h8h7 d3d5 f8f7 d5c6 h7h6 b3b4 e8e7 c6c7 g8g7 f2g1 g7g6 c3c5 b8b6 c2a1 d8d6 e2d2 b9b10 c7c8 b6c5 b4b5 b10b5 c8d9 h9f10 d9d10q f9g9 i3i4 c5c4 i4i5 h6i5 h3h4 i8i6 e5d6 e7e6 d6d7 e6e5 h4i5 h9i10 i2g4 c9d10 f3f5 e5f4 g3f4 b5b2 c2b2 g9f9 g4i6 e9c7 i6f9 c7d8 h2h8 d8a5 g1d4 c4c3 b2b3 i9g10 h8i8 g10i9 i8i9"),
    ("icrc", 1358, "f2g2 d8d7 g3g4 f8f7 b2a2 f7f6 i3i4 g9c5 h3h4 f9h9 i2g3 e9f10 i4i5 i8i7 i5i6 c8c6 f3f5 h8h6 i6h7 e8e7 a2a4 h9h10 h7h8 d7d6 h8g9 h10i10 g9f10q i10h9 g4g5 g8g7 b3b5 c5d4 f10j10 b9d10 c3c4 d10f9 b5c6 d6d5 j10c10 g7g6 h4h5 f6g5 d2e1 e7e6 e2c2 h9g8 c10c9 i9g7 g2j5 g8f7 c9d9 f7f6 f2g4 f6e7 a4a3 d4c5 a3c5"),
    ("pmrc", 2037, "b2b3 i7i5 c2c4 f7f6 a2a4 g7g6 h2h3 g8i7 f2f4 f8h8 d2d4 a7a5 d4d5 g6g5 a1c2 e7e5 d5e6 b7b6 i2i3 g5g4 e2e4 c8a6 i3i4 h7h6 e6e7 b6b5 e7d8q e8d8 e1d2 d8f8 f4f5 b5b4 d1g4 d7d6 e4e5 h6h5 i4h5 f8c8 h5h6 i5i4 h3h4 i8h7 h6i7 h8i8 c1e2 d6e5 f1b1 a6c4 b3c4 g8f8 e2g3 a8b6 g3i4 c7c5 i4h6"),
];

/// The library's view of a script: the moves, the positions, and which special moves occur.
fn replay_script(v: &str, id: u64, moves: &str) -> (Arc<Rules>, Game, Vec<Move>) {
    let rules = Arc::new(catalog::load_rules(v).unwrap());
    let sp = setup::from_id(&rules.variant, id).unwrap();
    let start = Position::from_fen(&rules, &setup::start_fen(&rules.variant, &sp)).unwrap();
    let mut game = Game::new(start);
    let mut played = Vec::new();
    for text in moves.split_whitespace() {
        let pos = game.current().clone();
        let m = pos
            .legal_moves(&rules)
            .iter()
            .copied()
            .find(|m| m.uci(&rules) == text)
            .unwrap_or_else(|| panic!("{v}: {text} is not legal"));
        game.play(&rules, m).unwrap();
        played.push(m);
    }
    (rules, game, played)
}

#[test]
fn scripted_games_in_every_seed_variant() {
    for (v, id, moves) in SCRIPTS {
        let (rules, game, played) = replay_script(v, id, moves);
        // The script really exercises what it claims to.
        let castles: Vec<u8> = played
            .iter()
            .filter_map(|m| match m.kind {
                MoveKind::Castle { side } => Some(side),
                _ => None,
            })
            .collect();
        assert!(
            castles.contains(&0) && castles.contains(&1),
            "{v}: castling on both sides"
        );
        assert_eq!(
            played.iter().any(|m| m.kind == MoveKind::Adjust),
            rules.adjust_piece.is_some(),
            "{v}: adjustment"
        );
        assert!(
            played.iter().any(|m| m.kind == MoveKind::EnPassant),
            "{v}: en passant"
        );
        assert!(played.iter().any(|m| m.promo != NO_PROMO), "{v}: promotion");

        let id_s = id.to_string();
        let input = format!("{}\nfen\n", moves.replace(' ', "\n"));
        let (out, ok) = play(
            &[
                "--variant",
                v,
                "--id",
                &id_s,
                "--white",
                "human",
                "--black",
                "human",
            ],
            &input,
        );
        assert!(ok, "{v}: exit status");
        assert!(
            out.contains(&format!("start position #{id}")),
            "{v}: start id shown"
        );
        assert!(
            !out.contains("Not a legal move"),
            "{v}: a move was refused:\n{out}"
        );
        assert_eq!(
            lines_with(&out, "White plays").len() + lines_with(&out, "Black plays").len(),
            played.len(),
            "{v}: every move was played"
        );
        assert!(
            out.contains("Game over: checkmate, White wins. Result 1-0"),
            "{v}: mate announced:\n{}",
            &out[out.len().saturating_sub(600)..]
        );
        // After the game the position is the one the library reaches.
        assert!(out.contains(&game.current().fen(&rules)), "{v}: final FEN");
    }
}

#[test]
fn threefold_repetition_is_a_draw() {
    // MRC RNBMKQBNR (Maura's arrangement): the knights go out and back. The start position
    // never recurs (a knight that moved loses its Bishop Adjustment letter); the position
    // with both knights out does, after plies 2, 6 and 10.
    let cycle = "b1c3\nh9g7\nc3b1\ng7h9\n";
    let (out, ok) = play(
        &[
            "--variant",
            "mrc",
            "--setup",
            "RNBMKQBNR",
            "--black",
            "human",
        ],
        &cycle.repeat(3),
    );
    assert!(ok);
    assert!(
        out.contains("Game over: 3-fold repetition, draw. Result 1/2-1/2"),
        "{out}"
    );
    // Nothing after the repetition was played.
    assert_eq!(lines_with(&out, "Black plays").len(), 5, "{out}");
    assert!(
        out.contains("The game is over (3-fold repetition, draw)"),
        "{out}"
    );
}

#[test]
fn fifty_move_rule_is_a_draw() {
    let (out, ok) = play(
        &[
            "--variant",
            "mrc",
            "--fen",
            "4k4/9/9/9/9/9/9/9/R3K4 w - - 99 80",
            "--black",
            "human",
        ],
        "a1a2\n",
    );
    assert!(ok);
    assert!(
        out.contains("Game over: 50-move rule, draw. Result 1/2-1/2"),
        "{out}"
    );
}

#[test]
fn stalemate_is_a_draw() {
    // Black's king on a9 has no move once the queen reaches c8; it is not in check.
    let (out, ok) = play(
        &[
            "--variant",
            "mrc",
            "--fen",
            "k8/9/1K7/9/9/9/9/9/2Q6 w - - 0 1",
            "--black",
            "human",
        ],
        "c1c8\n",
    );
    assert!(ok);
    assert!(
        out.contains("Game over: stalemate, draw. Result 1/2-1/2"),
        "{out}"
    );
}

#[test]
fn bare_kings_are_insufficient_material() {
    let (out, ok) = play(
        &[
            "--variant",
            "pmrc",
            "--fen",
            "4k4/9/9/9/9/9/3p5/4K4 w - - 0 1",
            "--black",
            "human",
        ],
        "e1d2\n",
    );
    assert!(ok);
    assert!(
        out.contains("Game over: insufficient material, draw. Result 1/2-1/2"),
        "{out}"
    );
}

#[test]
fn invalid_input_changes_nothing() {
    let (out, ok) = play(
        &["--variant", "mrc64", "--id", "500", "--black", "human"],
        "fen\ne2e5\nZz9\nsave\nfen\n",
    );
    assert!(ok);
    let fens: Vec<&str> = out
        .lines()
        .filter(|l| l.contains(" w ") && l.contains('/'))
        .collect();
    assert_eq!(fens.len(), 2, "{out}");
    assert_eq!(fens[0], fens[1]);
    assert_eq!(
        out.matches("Not a legal move or a command").count(),
        2,
        "{out}"
    );
    assert!(out.contains("save needs a file name"));
    assert!(!out.contains("White plays"));
}

#[test]
fn end_of_input_ends_the_game_cleanly() {
    let (out, ok) = play(&["--variant", "merc", "--id", "3"], "");
    assert!(ok);
    assert!(out.contains("left unfinished"), "{out}");
}

#[test]
fn default_game_is_mrc_from_a_random_start_against_the_engine() {
    let (out, ok) = play(&["--movetime", "100"], "e2e3\n");
    assert!(ok);
    assert!(out.contains("MRC start position #"), "{out}");
    assert!(out.contains("White human, Black engine"), "{out}");
    assert_eq!(lines_with(&out, "White plays").len(), 1, "{out}");
    assert_eq!(lines_with(&out, "Black plays").len(), 1, "{out}");
}

#[test]
fn engine_against_engine_plays_a_whole_game_unattended() {
    let (out, ok) = play(
        &[
            "--variant",
            "mrc64",
            "--id",
            "100",
            "--white",
            "engine",
            "--black",
            "engine",
            "--depth",
            "2",
        ],
        "",
    );
    assert!(ok);
    assert!(
        out.contains("Game over: "),
        "{}",
        &out[out.len().saturating_sub(800)..]
    );
    assert!(!out.contains("left unfinished"));
}

#[test]
fn resigning_and_undo() {
    // White plays, the engine answers, undo takes both back, then White resigns.
    let (out, ok) = play(
        &["--variant", "mrc", "--setup", "RNBMKQBNR", "--depth", "2"],
        "e2e4\nundo\nfen\nresign\n",
    );
    assert!(ok);
    assert!(out.contains("Move taken back."));
    let start_fen = {
        let rules = catalog::load_rules("mrc").unwrap();
        let sp = setup::parse_back_rank(&rules.variant, "RNBMKQBNR").unwrap();
        Position::from_fen(&rules, &setup::start_fen(&rules.variant, &sp))
            .unwrap()
            .fen(&rules)
    };
    assert!(out.lines().any(|l| l == start_fen), "{out}");
    assert!(
        out.contains("Game over: White resigns, Black wins. Result 0-1"),
        "{out}"
    );
}

#[test]
fn figurines_keep_the_minister_letter() {
    let (out, ok) = play(
        &[
            "--variant",
            "mrc",
            "--setup",
            "RNBMKQBNR",
            "--figurines",
            "--black",
            "human",
        ],
        "",
    );
    assert!(ok);
    assert!(
        out.contains('♔') && out.contains('♚') && out.contains('♙'),
        "{out}"
    );
    assert!(out.contains(" M ") && out.contains(" m "), "{out}");
    assert!(!out.contains('\x1b'), "no colour codes when piped");
}

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

#[derive(Default, Debug)]
struct Seen {
    castle: [bool; 2],
    adjust: bool,
    ep: bool,
    promo: bool,
}

fn find_one(rules: &Arc<Rules>, id: u64, seed: u64) -> Option<(Vec<Move>, Game)> {
    let v = &rules.variant;
    let sp = setup::from_id(v, id).ok()?;
    let start = Position::from_fen(rules, &setup::start_fen(v, &sp)).ok()?;
    let has_adjust = rules.adjust_piece.is_some();
    if has_adjust && start.adjust_rights(0).is_empty() {
        return None;
    }
    let mut game = Game::new(start);
    let mut rng = Rng(seed);
    let mut seen = Seen::default();
    let mut castled = [false; 2];
    let done =
        |s: &Seen| s.castle[0] && s.castle[1] && (s.adjust || !has_adjust) && s.ep && s.promo;
    // Guided phase.
    for _ in 0..260 {
        if game.outcome(rules).is_some() {
            return None;
        }
        if done(&seen) {
            break;
        }
        let pos = game.current().clone();
        let us = pos.side_to_move();
        let legal: Vec<Move> = pos.legal_moves(rules).iter().copied().collect();
        let want_side = us; // White castles on the a-side, Black on the other side
        let pick = legal
            .iter()
            .copied()
            .find(|m| matches!(m.kind, MoveKind::Castle { side } if side as usize == want_side && !seen.castle[want_side]))
            .or_else(|| {
                legal.iter().copied().find(|m| {
                    m.kind == MoveKind::Adjust
                        && !seen.adjust
                        && pos
                            .piece_at(m.to)
                            .map(|(t, _)| t != rules.royal && Some(t) != rules.castle_rook)
                            .unwrap_or(false)
                })
            })
            .or_else(|| legal.iter().copied().find(|m| m.kind == MoveKind::EnPassant && !seen.ep))
            .or_else(|| {
                legal
                    .iter()
                    .copied()
                    .find(|m| m.promo != NO_PROMO && !seen.promo && m.promo as usize == rules.promotion_to[0])
            });
        let m = match pick {
            Some(m) => m,
            None => {
                let king = pos.king_square(us);
                let rooks = pos.castling_rooks(us);
                let ok: Vec<Move> = legal
                    .iter()
                    .copied()
                    .filter(|m| {
                        castled[us]
                            || (m.from != king
                                && !rooks.contains(&Some(m.from))
                                && m.kind != MoveKind::Adjust)
                    })
                    .collect();
                let pool = if ok.is_empty() { &legal } else { &ok };
                let pawns: Vec<Move> = pool
                    .iter()
                    .copied()
                    .filter(|m| {
                        pos.piece_at(m.from)
                            .map(|(t, _)| Some(t) == rules.pawn)
                            .unwrap_or(false)
                    })
                    .collect();
                if !pawns.is_empty() && rng.below(10) < 7 {
                    pawns[rng.below(pawns.len())]
                } else {
                    pool[rng.below(pool.len())]
                }
            }
        };
        match m.kind {
            MoveKind::Castle { side } => {
                seen.castle[side as usize] = true;
                castled[us] = true;
            }
            MoveKind::Adjust => seen.adjust = true,
            MoveKind::EnPassant => seen.ep = true,
            _ => {}
        }
        if m.promo != NO_PROMO {
            seen.promo = true;
        }
        game.play(rules, m).ok()?;
    }
    if !done(&seen) {
        return None;
    }
    // Mating phase: the engine plays White, a random mover Black.
    let mut engine = Engine::new(Arc::clone(rules), 4);
    let stop = AtomicBool::new(false);
    for _ in 0..300 {
        if let Some(o) = game.outcome(rules) {
            return match o {
                modern_chess::game::Outcome::Checkmate { winner: 0 } => {
                    Some((game.moves().to_vec(), game))
                }
                _ => None,
            };
        }
        let pos = game.current().clone();
        let m = if pos.side_to_move() == 0 {
            let limits = Limits {
                depth: Some(3),
                ..Limits::default()
            };
            engine.search(game.positions(), &limits, &stop, &mut |_| {})?
        } else {
            let legal = pos.legal_moves(rules);
            legal.as_slice()[rng.below(legal.len())]
        };
        game.play(rules, m).ok()?;
    }
    None
}

/// Prints, per seed variant, the shortest game found with every special move and a mate.
#[test]
#[ignore]
fn find_scripts() {
    for v in ["mrc", "mrc64", "merc", "icrc", "pmrc"] {
        let rules = Arc::new(catalog::load_rules(v).unwrap());
        let mut best: Option<(u64, Vec<Move>, Game)> = None;
        let mut tries = 0;
        for id in (0..setup::count(&rules.variant)).step_by(97) {
            for seed in 0..20 {
                tries += 1;
                if let Some((moves, game)) = find_one(&rules, id, seed) {
                    if best
                        .as_ref()
                        .map(|b| moves.len() < b.1.len())
                        .unwrap_or(true)
                    {
                        best = Some((id, moves, game));
                    }
                }
            }
            if tries > 600 {
                break;
            }
        }
        let (id, moves, _game) = best.expect("no game found");
        let text: Vec<String> = moves.iter().map(|m| m.uci(&rules)).collect();
        println!("{v} id {id} ({} plies):\n{}", moves.len(), text.join(" "));
    }
}
