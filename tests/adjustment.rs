//! Bishop Adjustment: one test per ruling in RULES.md.

use modern_chess::{catalog, setup, Move, MoveKind, Position, Rules};

mod support;

fn mrc() -> Rules {
    catalog::load_rules(concat!(env!("CARGO_MANIFEST_DIR"), "/variants/mrc.toml")).unwrap()
}

fn start(r: &Rules, back: &str) -> Position {
    let sp = setup::parse_back_rank(r.variant(), back).unwrap();
    Position::from_fen(r, &setup::start_fen(r.variant(), &sp)).unwrap()
}

fn adjustments(r: &Rules, p: &Position) -> Vec<String> {
    let mut v: Vec<String> = p
        .legal_moves(r)
        .iter()
        .filter(|m| m.kind == MoveKind::Adjust)
        .map(|m| m.uci(r))
        .collect();
    v.sort();
    v
}

fn play(r: &Rules, p: &Position, uci: &str) -> Position {
    let m: Move = *p
        .legal_moves(r)
        .iter()
        .find(|m| m.uci(r) == uci)
        .unwrap_or_else(|| panic!("{uci} is not legal in {}", p.fen(r)));
    p.play(r, m).unwrap()
}

#[test]
fn only_when_both_bishops_start_on_one_colour() {
    let r = mrc();
    // b1 is light, c1 dark: no right, no seventh FEN field
    let p = start(&r, "RBBNMQNKR");
    assert!(adjustments(&r, &p).is_empty());
    assert_eq!(p.fen(&r).split_whitespace().count(), 6);
    // c1 and g1 are both dark: each bishop may swap with either neighbour
    let p = start(&r, "RNBMKQBNR");
    assert_eq!(adjustments(&r, &p), ["c1b1", "c1d1", "g1f1", "g1h1"]);
}

#[test]
fn once_per_game_and_the_side_loses_all_its_letters() {
    let r = mrc();
    let p = start(&r, "RNBMKQBNR");
    let p = play(&r, &p, "c1d1");
    assert_eq!(p.fen(&r).split_whitespace().nth(6), Some("abcdefghi"));
    let p = play(&r, &p, "e8e7");
    assert!(
        adjustments(&r, &p).is_empty(),
        "the g1 bishop is unmoved but White has adjusted"
    );
    // Black still may
    let p = play(&r, &p, "e2e3");
    assert_eq!(adjustments(&r, &p).len(), 4);
}

#[test]
fn only_unmoved_neighbours_on_the_rank_never_a_pawn() {
    let r = mrc();
    let p = start(&r, "BNRMKQBNR");
    // a corner bishop has one partner; the pawn in front is never one
    assert_eq!(adjustments(&r, &p), ["a1b1", "g1f1", "g1h1"]);
    let p = play(&r, &p, "b1c3");
    let p = play(&r, &p, "e8e7");
    let p = play(&r, &p, "c3b1");
    let p = play(&r, &p, "e7e6");
    // the knight is back beside the bishop, but it has moved
    assert_eq!(adjustments(&r, &p), ["g1f1", "g1h1"]);
}

#[test]
fn not_while_in_check() {
    let r = mrc();
    let quiet = Position::from_fen(&r, "r3k4/9/9/9/9/9/9/9/2BNKQB2 w - - 0 1 CDEFG").unwrap();
    assert_eq!(adjustments(&r, &quiet), ["c1d1", "g1f1"]);
    let check = Position::from_fen(&r, "4k4/4r4/9/9/9/9/9/9/2BNKQB2 w - - 0 1 CDEFG").unwrap();
    assert!(check.in_check(&r));
    assert!(adjustments(&r, &check).is_empty());
}

#[test]
fn may_not_expose_the_king() {
    let r = mrc();
    let p = Position::from_fen(&r, "4k4/3r5/9/9/9/9/9/9/2NBK4 w - - 0 1 CDE").unwrap();
    // swapping with the king would put it on the d-file, under the rook
    assert_eq!(adjustments(&r, &p), ["d1c1"]);
}

#[test]
fn swapping_with_king_or_rook_removes_that_castling_right() {
    let r = mrc();
    let p = start(&r, "RBKBMQRNN");
    assert_eq!(p.fen(&r).split_whitespace().nth(2), Some("AGci"));
    let with_rook = play(&r, &p, "b1a1");
    assert_eq!(with_rook.fen(&r).split_whitespace().nth(2), Some("Gci"));
    let with_king = play(&r, &p, "b1c1");
    assert_eq!(with_king.fen(&r).split_whitespace().nth(2), Some("ci"));
    // the king now stands on b1 and counts as moved: no castling move for White, ever
    let q = play(&r, &with_king, "a8a7");
    assert!(q.legal_moves(&r).iter().all(|m| !m.is_castle()));
}

#[test]
fn both_pieces_count_as_moved_and_the_hash_knows_the_rights() {
    let r = mrc();
    let p = start(&r, "RNBMKQBNR");
    let after = play(&r, &p, "g1h1");
    // same placement as a position where the swap had been made by other means, but without rights
    let plain = Position::from_fen(&r, &after.fen_six(&r)).unwrap();
    assert_ne!(
        after.hash(),
        Position::from_fen(&r, &(after.fen_six(&r) + " ABCDEFGHIabcdefghi"))
            .unwrap()
            .hash()
    );
    assert_ne!(
        after.hash(),
        plain.hash(),
        "Black's remaining rights are part of the hash"
    );
    assert_eq!(after.fen(&r).split_whitespace().nth(6), Some("abcdefghi"));
    // the board shows the swap
    assert_eq!(
        after
            .fen_six(&r)
            .split('/')
            .next_back()
            .unwrap()
            .split(' ')
            .next(),
        Some("RNBMKQNBR")
    );
    // it is not a capture or pawn move for the 50-move rule
    assert_eq!(after.halfmove_clock(), 1);
}

#[test]
fn partners_are_data_in_the_variant_file() {
    // Maura's original rule: only Q, N and M; written as a file that extends MRC.
    let text = r#"
extends = "mrc.toml"
name = "Modern Chess (Maura's adjustment)"
[bishop_adjustment]
partners = "QNM"
"#;
    let dir = support::temp_dir("adjustment-maura");
    let path = dir.join("maura-test.toml");
    let base = dir.join("mrc.toml");
    std::fs::write(
        &base,
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/variants/mrc.toml")).unwrap(),
    )
    .unwrap();
    std::fs::write(&path, text).unwrap();
    let r = Rules::compile(modern_chess::catalog::from_path(&path).unwrap());
    let p = start(&r, "RBKBMQRNN");
    // b1 sits between a rook and the king, d1 between the king and the minister
    assert_eq!(adjustments(&r, &p), ["d1e1"]);
}

/// A pinned pawn's en passant capture is not a capture anybody may make: the square is dropped,
/// so the position equals (and hashes as) the same position without it.
#[test]
fn en_passant_square_is_kept_only_when_the_capture_is_legal() {
    let r =
        catalog::load_rules(concat!(env!("CARGO_MANIFEST_DIR"), "/variants/chess.toml")).unwrap();
    // the e5 pawn is pinned along the rank by the a5 rook
    let p = Position::from_fen(&r, "8/3p4/8/r3P2K/8/8/8/k7 b - - 0 1").unwrap();
    let after = play(&r, &p, "d7d5");
    assert_eq!(after.ep_square(), None);
    let plain = Position::from_fen(&r, "8/8/8/r2pP2K/8/8/8/k7 w - - 0 2").unwrap();
    assert_eq!(after.hash(), plain.hash());
    // unpinned, the square stays and changes the hash
    let p = Position::from_fen(&r, "8/3p4/8/4P2K/8/8/8/k7 b - - 0 1").unwrap();
    let after = play(&r, &p, "d7d5");
    assert!(after.ep_square().is_some());
    let plain = Position::from_fen(&r, "8/8/8/3pP2K/8/8/8/k7 w - - 0 2").unwrap();
    assert_ne!(after.hash(), plain.hash());
    // and a FEN naming the pinned square reads as the position without it
    let read = Position::from_fen(&r, "8/8/8/r2pP2K/8/8/8/k7 w - d6 0 2").unwrap();
    assert_eq!(read.ep_square(), None);
}
