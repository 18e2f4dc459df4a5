//! `modern-chess play` end to end: the real binary with moves piped into standard input.
//!
//! The scripted games were found with the library by `find_scripts` below (run it with
//! `cargo test --release --test play -- --ignored --nocapture find_scripts`): guided random
//! play until the game has had a castling on each side, a Bishop Adjustment (where the variant
//! has the rule), an en passant capture and a promotion, then the engine mates a random mover.

use modern_chess::catalog;
use modern_chess::engine::{Engine, Limits};
use modern_chess::notation;
use modern_chess::setup;
use modern_chess::Colour;
use modern_chess::Game;
use modern_chess::Rules;
use modern_chess::{Move, MoveKind, Position};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

mod support;

use std::io::Write;
use std::process::{Command, Stdio};

/// Runs `modern-chess play ARGS` with `input` on standard input; returns stdout and success.
/// Autosaves go to a temporary data directory of this run, never the real home.
fn play(args: &[&str], input: &str) -> (String, bool) {
    let data = support::temp_dir("play-data");
    let mut child = Command::new(env!("CARGO_BIN_EXE_modern-chess"))
        .arg("play")
        .args(args)
        .env("XDG_DATA_HOME", &data)
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
    ("mrc", 4865, "Bb<=>N b7 i4 c7 f4 c6 c4 d7 Nf2 Ma5 Ng4 a6 c5 e7 f5 h6 d3 Mb3 e3 h5 f6 hxi4 h4 ixh3 axb3 a5 Nf2 Nd8 d4 i6 d5 Bc8 g3 g7 fxe7 b6 cxb6 fxe7 b4 a4 Na3 c5 b5 Nh7 g4 d6 Qd3 Bi8 Mc3 Qh5 O-O-Oc O-O-Og b3 h2 gxh5 hxi1=Q Be4 Kh8 Mxg7+ Ki7 h6#"),
    ("mrc64", 873, "Bg<=>N d6 a3 a5 c3 c6 h4 f6 e3 a4 Ne2 e5 h5 Nb6 g4 c5 d4 f5 dxe5 fxg4 f4 gxf3 h6 Qf5 exd6 Nc7 c4 O-Og e4 g5 e5 Bf6 exf6 g4 f7+ Kh8 dxc7 Rg8 cxb8=Q g3 fxg8=N f2+ Nxf2 g2 Qc8 Qc2 Qe3 gxh1=N Qxa8 Qxe2+ Qxe2 Ng3 O-Ob Nf5 Qe5+ Ng7 hxg7#"),
    ("merc", 1843, "Bh<=>Q c6 e5 h7 d5 f7 dxc6 h6 b4 e7 c7 g7 Bg1 g6 c5 b6 Na1 d6 O-Oc Qb10 c8 bxc5 b5 Qxb5 cxd9 Nf10 d10=Q O-Oh i4 c4 i5 hxi5 h4 i6 exd6 e6 d7 e5 hxi5+ Ki10 Bg4 Bcxd10 f5 exf4 gxf4 Qxb2+ Kxb2 Rf9 Bxi6 Bc7 Bxf9 Bd8 Qh8 Ba5 Bd4 c3+ Kb3 Ng10 Qi8+ Ni9 Qxi9#"),
    ("icrc", 1358, "Bf<=>N d7 g4 f7 Qa2 f6 i4 Bc5 h4 O-Oh Ng3 Bf10 i5 i7 i6 c6 f5 h6 ixh7 e7 Qa4 Kh10 h8 d6 hxg9+ Ki10 gxf10=Q+ Kh9 g5 g7 b5 Bd4 Qj10 Nd10 c4 Nf9 bxc6 d5 Qc10 g6 h5 fxg5 Be1 e6 O-Oc Kg8 Qxc9 Qg7 Bj5+ Kf7 Qxd9+ Kf6 Ng4+ Ke7 Qa3+ Bc5 Qxc5#"),
    ("pmrc", 2037, "b3 i5 c4 f6 a4 g6 h3 Ni7 f4 O-Oh d4 a5 d5 g5 Nc2 e5 dxe6 b6 i3 g4 e4 Ma6 i4 h6 e7 b5 exd8=Q Qxd8 Qd2 Qf8 f5 b4 Bxg4 d6 e5 h5 ixh5 Qc8 h6 i4 h4 Bh7 hxi7+ Ki8 Me2 dxe5 O-Ob Mxc4 bxc4 Rf8 Mg3 Nb6 Mxi4 c5 Mh6#"),
];

/// The library's view of a script: the moves, the positions, and which special moves occur.
fn replay_script(v: &str, id: u64, moves: &str) -> (Arc<Rules>, Game, Vec<Move>) {
    let rules = Arc::new(catalog::load_rules(v).unwrap());
    let sp = setup::from_id(rules.variant(), id).unwrap();
    let start = Position::from_fen(&rules, &setup::start_fen(rules.variant(), &sp)).unwrap();
    let mut game = Game::new(start);
    let mut played = Vec::new();
    for text in moves.split_whitespace() {
        let pos = game.current().clone();
        let m = notation::parse_san(&rules, &pos, text)
            .unwrap_or_else(|e| panic!("{v}: {text} is not legal: {e}"));
        game.play(&rules, m).unwrap();
        played.push(m);
    }
    (rules, game, played)
}

#[test]
fn scripted_games_in_every_seed_variant() {
    for (v, id, moves) in SCRIPTS {
        let (rules, game, played) = replay_script(v, id, moves);
        assert_script_exercises_the_rules(v, &rules, &played);
        let id_s = id.to_string();
        let dir = support::temp_dir(&format!("play-{v}"));
        let pgn_path = dir.join("game.pgn");
        let input = format!(
            "{}\nfen\nsave {}\n",
            moves.replace(' ', "\n"),
            pgn_path.display()
        );
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
        assert_moves_announced(v, &rules, &out, played.len());
        assert!(out.contains("Saved the game to"), "{v}: saved");

        assert_record_replays(v, &pgn_path, &rules, &game);
        assert!(out.contains(&game.current().fen(&rules)), "{v}: final FEN");
    }
}

/// The script really exercises what it claims to: castling both ways, adjustment (where the
/// variant has it), en passant and promotion.
fn assert_script_exercises_the_rules(v: &str, rules: &Rules, played: &[Move]) {
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
        rules.adjust_piece().is_some(),
        "{v}: adjustment"
    );
    assert!(
        played.iter().any(|m| m.kind == MoveKind::EnPassant),
        "{v}: en passant"
    );
    assert!(played.iter().any(|m| m.promo.is_some()), "{v}: promotion");
}

/// One `White plays`/`Black plays` line per move, in the variant's notation, ending in mate.
fn assert_moves_announced(v: &str, rules: &Rules, out: &str, moves: usize) {
    let announced: Vec<&str> = out
        .lines()
        .filter(|l| l.starts_with("White plays") || l.starts_with("Black plays"))
        .collect();
    assert_eq!(announced.len(), moves, "{v}: every move was played");
    // Castling is shown in the variant's own notation, the adjustment with `<=>`, the
    // promotion with `=`, and the last move with the mate sign.
    let sides = rules.castle_sides().unwrap();
    for side in sides.iter() {
        let shown = announced
            .iter()
            .any(|l| l.split_whitespace().last() == Some(side.notation.as_str()));
        assert!(shown, "{v}: {} not shown", side.notation);
    }
    if rules.adjust_piece().is_some() {
        assert!(
            announced.iter().any(|l| l.contains("<=>")),
            "{v}: adjustment shown"
        );
    }
    assert!(
        announced
            .iter()
            .any(|l| l.contains('=') && !l.contains("<=>")),
        "{v}: promotion"
    );
    assert!(announced.last().unwrap().ends_with('#'), "{v}: mate sign");
    assert!(
        out.contains("Game over: checkmate, White wins. Result 1-0"),
        "{v}: mate announced:\n{}",
        &out[out.len().saturating_sub(600)..]
    );
}

/// The saved record replays to the same final position and result.
fn assert_record_replays(v: &str, pgn_path: &std::path::Path, rules: &Rules, game: &Game) {
    let replay = Command::new(env!("CARGO_BIN_EXE_modern-chess"))
        .arg("replay")
        .arg(pgn_path)
        .output()
        .unwrap();
    let rout = String::from_utf8_lossy(&replay.stdout);
    assert!(
        replay.status.success(),
        "{v}: replay failed: {}",
        String::from_utf8_lossy(&replay.stderr)
    );
    assert!(
        rout.contains(&format!("final FEN: {}", game.current().fen(rules))),
        "{v}: {rout}"
    );
    assert!(rout.contains("result: 1-0"), "{v}: {rout}");
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
    // `e2e5` is a move that cannot be played (and says why), `Zz9` no move at all.
    assert_eq!(out.matches("Illegal move: `e2e5`").count(), 1, "{out}");
    assert_eq!(
        out.matches("Not a legal move or a command: `Zz9`").count(),
        1,
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
    // Both plies are taken back, and the message says so.
    assert!(out.contains("Took back 2 moves (1. e4 "), "{out}");
    let start_fen = {
        let rules = catalog::load_rules("mrc").unwrap();
        let sp = setup::parse_back_rank(rules.variant(), "RNBMKQBNR").unwrap();
        Position::from_fen(&rules, &setup::start_fen(rules.variant(), &sp))
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
    let v = rules.variant();
    let sp = setup::from_id(v, id).ok()?;
    let start = Position::from_fen(rules, &setup::start_fen(v, &sp)).ok()?;
    let has_adjust = rules.adjust_piece().is_some();
    if has_adjust && start.adjust_rights(Colour::White).is_empty() {
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
        let m = special_pick(rules, &pos, &legal, &seen)
            .unwrap_or_else(|| random_pick(rules, &pos, &legal, castled[us], &mut rng));
        match m.kind {
            MoveKind::Castle { side } => {
                seen.castle[side as usize] = true;
                castled[us] = true;
            }
            MoveKind::Adjust => seen.adjust = true,
            MoveKind::EnPassant => seen.ep = true,
            _ => {}
        }
        if m.promo.is_some() {
            seen.promo = true;
        }
        game.play(rules, m).ok()?;
    }
    if !done(&seen) {
        return None;
    }
    mate_as_white(rules, game, &mut rng)
}

/// A special move not yet seen: castling (White on the a-side, Black on the other), an
/// adjustment with a piece other than king or castling rook, en passant, promotion.
fn special_pick(rules: &Rules, pos: &Position, legal: &[Move], seen: &Seen) -> Option<Move> {
    let want_side = pos.side_to_move().index();
    let find = |f: &dyn Fn(&Move) -> bool| legal.iter().copied().find(|m| f(m));
    find(&|m| matches!(m.kind, MoveKind::Castle { side } if side as usize == want_side && !seen.castle[want_side]))
        .or_else(|| {
            find(&|m| {
                m.kind == MoveKind::Adjust
                    && !seen.adjust
                    && pos
                        .piece_at(m.to)
                        .map(|p| p.kind.index() != rules.royal() && Some(p.kind.index()) != rules.castle_rook())
                        .unwrap_or(false)
            })
        })
        .or_else(|| find(&|m| m.kind == MoveKind::EnPassant && !seen.ep))
        .or_else(|| {
            find(&|m| m.promo.is_some_and(|k| k.index() == rules.promotion_to()[0]) && !seen.promo)
        })
}

/// A random move, mostly a pawn's; king and castling rooks stay home until the side castled.
fn random_pick(
    rules: &Rules,
    pos: &Position,
    legal: &[Move],
    castled: bool,
    rng: &mut Rng,
) -> Move {
    let us = pos.side_to_move();
    let king = pos.king_square(us);
    let rooks = pos.castling_rooks(us);
    let ok: Vec<Move> = legal
        .iter()
        .copied()
        .filter(|m| {
            castled
                || (m.from != king && !rooks.contains(&Some(m.from)) && m.kind != MoveKind::Adjust)
        })
        .collect();
    let pool = if ok.is_empty() { legal } else { &ok };
    let pawns: Vec<Move> = pool
        .iter()
        .copied()
        .filter(|m| {
            pos.piece_at(m.from)
                .map(|p| Some(p.kind.index()) == rules.pawn())
                .unwrap_or(false)
        })
        .collect();
    if !pawns.is_empty() && rng.below(10) < 7 {
        pawns[rng.below(pawns.len())]
    } else {
        pool[rng.below(pool.len())]
    }
}

/// Mating phase: the engine plays White, a random mover Black; the game if White mates.
fn mate_as_white(rules: &Arc<Rules>, mut game: Game, rng: &mut Rng) -> Option<(Vec<Move>, Game)> {
    let mut engine = Engine::new(Arc::clone(rules), 4);
    let stop = AtomicBool::new(false);
    for _ in 0..300 {
        if let Some(o) = game.outcome(rules) {
            return match o {
                modern_chess::Outcome::Checkmate {
                    winner: Colour::White,
                } => Some((game.moves().to_vec(), game)),
                _ => None,
            };
        }
        let pos = game.current().clone();
        let m = if pos.side_to_move() == Colour::White {
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
        for id in (0..setup::count(rules.variant())).step_by(97) {
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
        let positions = _game.positions();
        let text: Vec<String> = moves
            .iter()
            .enumerate()
            .map(|(i, &m)| notation::to_san(&rules, &positions[i], m))
            .collect();
        println!("{v} id {id} ({} plies):\n{}", moves.len(), text.join(" "));
    }
}
