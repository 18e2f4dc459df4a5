//! Property tests over every variant file in `variants/` (found by reading the directory, so a
//! new file is covered with no change here; `MODERN_CHESS_VARIANT_DIR=dir` adds the files of
//! another directory, for variants a user writes elsewhere).
//!
//! Each property runs once per variant file with its own proptest runner, from random start
//! positions (`setup::random_id`) and random legal move sequences (a seeded generator picks the
//! moves, with a random bias towards captures so that games also reach endings):
//! - the move generator agrees with a slow reference mover written here, straight from the
//!   Betza atoms, RULES.md's castling and Bishop Adjustment rules and brute-force king-attack
//!   checks; making a move gives the same board, rights and clocks as the reference make;
//! - copy-make leaves the original untouched; the hash after a move equals the hash of the same
//!   position read back from its FEN; FEN write -> read -> write is the identity;
//! - no legal move leaves the mover's king attacked;
//! - the colour-flipped position has the same perft;
//! - start positions: the count equals a brute-force enumeration of the army's arrangements,
//!   ids round-trip, and start castling and adjustment rights follow the rules;
//! - random games end with the result the draw rules give, and not before.
//!
//! - every legal move's SAN (`notation::to_san`) is unique and reads back as that move.
//!
//! Case counts keep the whole file within about a minute in release mode on two cores;
//! `MODERN_CHESS_PROPTEST_CASES=N` runs N cases of every property for every variant.

use modern_chess::betza::{Hop, MoveAtom};
use modern_chess::notation;
use modern_chess::variant::{BareKing, BishopRule, StalemateResult, Symmetry, Variant};
use modern_chess::EndRule;
use modern_chess::{setup, Move, MoveKind, Position, Rules};
use modern_chess::{Colour, PieceKind};
use modern_chess::{Game, Outcome};
use proptest::prelude::*;
use proptest::test_runner::{Config, TestCaseError, TestRunner};
use std::collections::{BTreeSet, HashMap, HashSet};
use std::path::PathBuf;

// ---------------------------------------------------------------------------------------------
// Variants and runners
// ---------------------------------------------------------------------------------------------

fn variant_files() -> Vec<PathBuf> {
    let mut dirs = vec![PathBuf::from(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/variants"
    ))];
    if let Ok(extra) = std::env::var("MODERN_CHESS_VARIANT_DIR") {
        dirs.push(PathBuf::from(extra));
    }
    let mut files = Vec::new();
    for dir in dirs {
        let entries = std::fs::read_dir(&dir)
            .unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()));
        for e in entries {
            let path = e.unwrap().path();
            if path.extension().and_then(|x| x.to_str()) == Some("toml") {
                files.push(path);
            }
        }
    }
    files.sort();
    files
}

fn all_rules() -> Vec<(String, Rules)> {
    let files = variant_files();
    assert!(files.len() >= 10, "expected at least 10 variant files");
    files
        .iter()
        .map(|p| {
            let v = modern_chess::catalog::from_path(p)
                .unwrap_or_else(|e| panic!("{}: {e}", p.display()));
            (
                p.file_name().unwrap().to_string_lossy().into_owned(),
                Rules::compile(v),
            )
        })
        .collect()
}

/// Cases per variant: the default, or `MODERN_CHESS_PROPTEST_CASES`.
fn cases(default: u32) -> u32 {
    std::env::var("MODERN_CHESS_PROPTEST_CASES")
        .ok()
        .and_then(|s| s.trim().parse::<u32>().ok())
        .map(|n| n.max(1))
        .unwrap_or(default)
}

/// Runs `test` for every variant with its own runner; failures name the variant file.
fn for_each_variant<S: Strategy>(
    default_cases: u32,
    strategy: S,
    test: impl Fn(&Rules, S::Value) -> Result<(), TestCaseError>,
) where
    S::Value: std::fmt::Debug,
{
    let mut failures = Vec::new();
    for (name, rules) in all_rules() {
        let mut runner = TestRunner::new(Config {
            cases: cases(default_cases),
            failure_persistence: None,
            max_shrink_iters: 64,
            ..Config::default()
        });
        if let Err(e) = runner.run(&strategy, |v| test(&rules, v)) {
            failures.push(format!("{name}: {e}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

fn start_position(rules: &Rules, seed: u64) -> Position {
    let v = rules.variant();
    let id = setup::random_id(v, seed);
    let sp = setup::from_id(v, id).expect("random_id gives an id in range");
    let fen = setup::start_fen(v, &sp);
    Position::from_fen(rules, &fen).unwrap_or_else(|e| panic!("start FEN {fen}: {e}"))
}

// ---------------------------------------------------------------------------------------------
// The reference mover: slow and plain, from the variant data and RULES.md only
// ---------------------------------------------------------------------------------------------

/// A position as the reference sees it: a board array and the rights, tracked by its own make.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct RefPos {
    files: i32,
    ranks: i32,
    /// (type, colour) per square, square = rank * files + file.
    board: Vec<Option<(usize, usize)>>,
    side: usize,
    /// Castling rook squares per colour.
    castle: [BTreeSet<usize>; 2],
    /// Unmoved piece-rank squares of a side that may still adjust.
    adjust: [BTreeSet<usize>; 2],
    /// After a pawn double step: (square passed over, the pawn's square).
    ep: Option<(usize, usize)>,
    halfmove: u32,
}

impl RefPos {
    fn from_engine(rules: &Rules, p: &Position, ep: Option<(usize, usize)>) -> RefPos {
        let n = rules.variant().files() as usize * rules.variant().ranks() as usize;
        let mut castle = [BTreeSet::new(), BTreeSet::new()];
        let mut adjust = [BTreeSet::new(), BTreeSet::new()];
        for c in 0..2 {
            for r in p
                .castling_rooks(Colour::from_index(c))
                .into_iter()
                .flatten()
            {
                castle[c].insert(r as usize);
            }
            for sq in p.adjust_rights(Colour::from_index(c)) {
                adjust[c].insert(sq as usize);
            }
        }
        RefPos {
            files: rules.variant().files() as i32,
            ranks: rules.variant().ranks() as i32,
            board: (0..n)
                .map(|sq| {
                    p.piece_at(sq as u8)
                        .map(|pc| (pc.kind.index(), pc.colour.index()))
                })
                .collect(),
            side: p.side_to_move().index(),
            castle,
            adjust,
            ep,
            halfmove: p.halfmove_clock(),
        }
    }

    fn at(&self, f: i32, r: i32) -> Option<usize> {
        (f >= 0 && r >= 0 && f < self.files && r < self.ranks)
            .then_some((r * self.files + f) as usize)
    }
    fn file(&self, sq: usize) -> i32 {
        sq as i32 % self.files
    }
    fn rank(&self, sq: usize) -> i32 {
        sq as i32 / self.files
    }
    fn king(&self, v: &Variant, c: usize) -> usize {
        let royal = v.pieces().iter().position(|p| p.royal).unwrap();
        (0..self.board.len())
            .find(|&sq| self.board[sq] == Some((royal, c)))
            .expect("each side has its king")
    }
}

/// White's rank `r` as seen by colour `c`.
fn rank_for(rp: &RefPos, c: usize, r: u8) -> i32 {
    if c == 0 {
        r as i32
    } else {
        rp.ranks - 1 - r as i32
    }
}

/// The squares an atom reaches from `from`, in order; a rider's list ends at the first occupied
/// square. A lame (`n`) leap needs its path empty: the squares on the line for a straight leap,
/// the orthogonal first step (along the longer leg) for an oblique one.
fn atom_reach(rp: &RefPos, a: &MoveAtom, colour: usize, from: usize) -> Vec<usize> {
    let df = a.df as i32;
    let dr = if colour == 0 {
        a.dr as i32
    } else {
        -(a.dr as i32)
    };
    let (f0, r0) = (rp.file(from), rp.rank(from));
    let mut out = Vec::new();
    if a.range == 1 {
        let Some(to) = rp.at(f0 + df, r0 + dr) else {
            return out;
        };
        if a.lame && (df.abs() > 1 || dr.abs() > 1) {
            let mut path = Vec::new();
            if df == 0 || dr == 0 || df.abs() == dr.abs() {
                for k in 1..df.abs().max(dr.abs()) {
                    path.push(rp.at(f0 + df.signum() * k, r0 + dr.signum() * k));
                }
            } else if df.abs() > dr.abs() {
                path.push(rp.at(f0 + df.signum(), r0));
            } else {
                path.push(rp.at(f0, r0 + dr.signum()));
            }
            if path
                .iter()
                .any(|s| s.map(|s| rp.board[s].is_some()).unwrap_or(true))
            {
                return out;
            }
        }
        out.push(to);
    } else {
        let (mut f, mut r) = (f0, r0);
        let mut steps = 0;
        while let Some(sq) = rp.at(f + df, r + dr) {
            out.push(sq);
            steps += 1;
            if rp.board[sq].is_some() || (a.range != 0 && steps >= a.range as u32) {
                break;
            }
            f += df;
            r += dr;
        }
        if a.hop != Hop::None {
            return hop_beyond(rp, a.hop, out.last().copied(), df, dr);
        }
    }
    out
}

/// A hopper's squares beyond the first piece of its line (the hurdle): the cannon goes on up
/// to and including the next piece, the grasshopper lands on the square just beyond.
fn hop_beyond(rp: &RefPos, hop: Hop, last: Option<usize>, df: i32, dr: i32) -> Vec<usize> {
    let mut out = Vec::new();
    let Some(hurdle) = last.filter(|&sq| rp.board[sq].is_some()) else {
        return out;
    };
    let (mut f, mut r) = (rp.file(hurdle), rp.rank(hurdle));
    while let Some(sq) = rp.at(f + df, r + dr) {
        out.push(sq);
        if hop == Hop::Grasshopper || rp.board[sq].is_some() {
            break;
        }
        f += df;
        r += dr;
    }
    out
}

/// The end a variant rule makes of a position before any move (the winner, `None` a draw):
/// the side not to move bare while the side to move is not; a kind of `extinction` gone; the
/// side that just moved with its royal piece in its camp.
fn ref_rule_end(v: &Variant, rp: &RefPos) -> Option<(Option<usize>, EndRule)> {
    let (us, them) = (rp.side, rp.side ^ 1);
    let count = |c: usize, pred: &dyn Fn(usize) -> bool| {
        rp.board
            .iter()
            .filter(|b| matches!(b, Some((t, cc)) if *cc == c && pred(*t)))
            .count()
    };
    if v.rules().bare_king == BareKing::Loses {
        let others = |c| count(c, &|t| !v.pieces()[t].royal);
        if others(them) == 0 && others(us) > 0 {
            return Some((Some(us), EndRule::BareKing));
        }
    }
    for &k in &v.rules().extinction {
        if count(us, &|t| t == k) == 0 {
            return Some((Some(them), EndRule::Extinction));
        }
        if count(them, &|t| t == k) == 0 {
            return Some((Some(us), EndRule::Extinction));
        }
    }
    let k = rp.king(v, them);
    let here = (rp.file(k) as u8, rp.rank(k) as u8);
    if v.rules().campmate[them].contains(&here) {
        return Some((Some(them), EndRule::Campmate));
    }
    None
}

/// May an `i` (initial) atom of piece `t` be used from `sq`? Pawns start on the pawn rank,
/// every other piece on the piece rank.
fn initial_ok(v: &Variant, rp: &RefPos, t: usize, c: usize, sq: usize) -> bool {
    let white_rank = match (v.pieces()[t].pawn, v.setup().pawn) {
        (true, Some((_, r))) => r,
        _ => v.setup().rank,
    };
    rp.rank(sq) == rank_for(rp, c, white_rank)
}

/// Is `sq` attacked by colour `by`: can one of its pieces capture there by one of its atoms?
fn ref_attacked(v: &Variant, rp: &RefPos, sq: usize, by: usize) -> bool {
    (0..rp.board.len()).any(|from| match rp.board[from] {
        Some((t, c)) if c == by => v.pieces()[t].atoms.iter().any(|a| {
            a.capture
                && (!a.initial || initial_ok(v, rp, t, c, from))
                && atom_reach(rp, a, c, from).contains(&sq)
        }),
        _ => false,
    })
}

/// How many pieces of kind `t` White has in the start position (the army and the placement).
fn start_count(v: &Variant, t: usize) -> usize {
    let army = v.setup().army.iter().filter(|&&x| x == t).count();
    let placed = v
        .setup()
        .placement
        .iter()
        .filter(|p| p.white && p.piece == t)
        .count();
    let pawns = match v.setup().pawn {
        Some((p, _)) if p == t && v.setup().placement.is_empty() => {
            (v.setup().files.1 - v.setup().files.0 + 1) as usize
        }
        _ => 0,
    };
    army + placed + pawns
}

/// A pawn move into the promotion zone: one move per choice (with `only_captured`, only kinds
/// the side has fewer of than at the start), and the plain move too before the zone's last rank;
/// on the last rank with no choice the move does not exist.
fn push_with_promotions(v: &Variant, rp: &RefPos, out: &mut Vec<Move>, t: usize, m: Move) {
    let Some(p) = v.promotion().filter(|_| v.pieces()[t].pawn) else {
        out.push(m);
        return;
    };
    let r = rp.rank(m.to as usize);
    let (first, last) = (
        rank_for(rp, rp.side, p.zone.0),
        rank_for(rp, rp.side, p.zone.1),
    );
    let inside = (first.min(last)..=first.max(last)).contains(&r);
    if !inside {
        out.push(m);
        return;
    }
    for &k in &p.to {
        let have = rp
            .board
            .iter()
            .filter(|&&b| b == Some((k, rp.side)))
            .count();
        if !p.only_captured || have < start_count(v, k) {
            out.push(Move {
                promo: Some(PieceKind(k as u8)),
                ..m
            });
        }
    }
    if r != last {
        out.push(m);
    }
}

/// Every pseudo-legal move, square by square.
fn ref_pseudo(v: &Variant, rp: &RefPos) -> Vec<Move> {
    let us = rp.side;
    let mut out = Vec::new();
    if ref_rule_end(v, rp).is_some() {
        return out;
    }
    for from in 0..rp.board.len() {
        let Some((t, c)) = rp.board[from] else {
            continue;
        };
        if c != us {
            continue;
        }
        for a in &v.pieces()[t].atoms {
            if a.initial && !initial_ok(v, rp, t, c, from) {
                continue;
            }
            for to in atom_reach(rp, a, us, from) {
                let mv = |kind| Move {
                    from: from as u8,
                    to: to as u8,
                    kind,
                    promo: None,
                };
                match rp.board[to] {
                    None => {
                        if a.quiet {
                            let double = v.pieces()[t].pawn
                                && rp.file(from) == rp.file(to)
                                && (rp.rank(from) - rp.rank(to)).abs() == 2;
                            let kind = if double {
                                MoveKind::DoubleStep
                            } else {
                                MoveKind::Normal
                            };
                            push_with_promotions(v, rp, &mut out, t, mv(kind));
                        }
                        if a.en_passant && rp.ep.map(|e| e.0) == Some(to) {
                            push_with_promotions(v, rp, &mut out, t, mv(MoveKind::EnPassant));
                        }
                    }
                    Some((_, c2)) if c2 != us && a.capture => {
                        push_with_promotions(v, rp, &mut out, t, mv(MoveKind::Normal));
                    }
                    _ => {}
                }
            }
        }
    }
    ref_castlings(v, rp, &mut out);
    ref_adjustments(v, rp, &mut out);
    out
}

/// Castling (RULES.md): the king and one rook with rights, king and rook to their files on
/// the king's rank; squares from the king to its destination not attacked; squares between
/// each piece and its destination, destinations included, empty but for these two.
fn ref_castlings(v: &Variant, rp: &RefPos, out: &mut Vec<Move>) {
    let us = rp.side;
    if let Some(cd) = v.castling() {
        let k = rp.king(v, us);
        for &r in &rp.castle[us] {
            if rp.rank(r) != rp.rank(k) || rp.board[r] != Some((cd.rook, us)) {
                continue;
            }
            let side = if rp.file(r) < rp.file(k) { 0 } else { 1 };
            let kd = rp.at(cd.sides[side].king_file as i32, rp.rank(k)).unwrap();
            let rd = rp.at(cd.sides[side].rook_file as i32, rp.rank(k)).unwrap();
            let span = |a: usize, b: usize| -> Vec<usize> { (a.min(b)..=a.max(b)).collect() };
            if span(k, kd).iter().any(|&s| ref_attacked(v, rp, s, us ^ 1)) {
                continue;
            }
            let blocked = span(k, kd)
                .into_iter()
                .chain(span(r, rd))
                .any(|s| s != k && s != r && rp.board[s].is_some());
            if !blocked {
                out.push(Move {
                    from: k as u8,
                    to: r as u8,
                    kind: MoveKind::Castle { side: side as u8 },
                    promo: None,
                });
            }
        }
    }
}

/// Bishop Adjustment (RULES.md): an unmoved bishop swaps with an unmoved, allowed piece
/// directly beside it on its rank; not while in check.
fn ref_adjustments(v: &Variant, rp: &RefPos, out: &mut Vec<Move>) {
    let us = rp.side;
    if let Some(adj) = v.adjustment() {
        if !rp.adjust[us].is_empty() && !ref_attacked(v, rp, rp.king(v, us), us ^ 1) {
            for &b in &rp.adjust[us] {
                if rp.board[b] != Some((adj.piece, us)) {
                    continue;
                }
                for df in [-1, 1] {
                    let Some(n) = rp.at(rp.file(b) + df, rp.rank(b)) else {
                        continue;
                    };
                    if let Some((t, c)) = rp.board[n] {
                        if c == us
                            && rp.adjust[us].contains(&n)
                            && adj.partners.contains(&t)
                            && !v.pieces()[t].pawn
                        {
                            out.push(Move {
                                from: b as u8,
                                to: n as u8,
                                kind: MoveKind::Adjust,
                                promo: None,
                            });
                        }
                    }
                }
            }
        }
    }
}

/// The position after `m`, by the rules as written.
fn ref_make(v: &Variant, rp: &RefPos, m: Move) -> RefPos {
    let mut n = rp.clone();
    let us = rp.side;
    let (from, to) = (m.from as usize, m.to as usize);
    let royal = v.pieces().iter().position(|p| p.royal).unwrap();
    let mover = rp.board[from].unwrap();
    let mut irreversible = false;
    n.ep = None;
    match m.kind {
        MoveKind::Castle { side } => {
            let cd = v.castling().unwrap();
            let rank = rp.rank(from);
            let kd = rp
                .at(cd.sides[side as usize].king_file as i32, rank)
                .unwrap();
            let rd = rp
                .at(cd.sides[side as usize].rook_file as i32, rank)
                .unwrap();
            let rook = rp.board[to];
            n.board[from] = None;
            n.board[to] = None;
            n.board[kd] = Some(mover);
            n.board[rd] = rook;
            n.castle[us].clear();
        }
        MoveKind::Adjust => {
            n.board.swap(from, to);
            if rp.board[to].map(|p| p.0) == Some(royal) {
                n.castle[us].clear();
            }
            n.adjust[us].clear();
        }
        _ => {
            if rp.board[to].is_some() {
                irreversible = true;
            }
            if m.kind == MoveKind::EnPassant {
                let victim = rp.ep.unwrap().1;
                n.board[victim] = None;
                n.adjust[us ^ 1].remove(&victim);
                irreversible = true;
            }
            if v.pieces()[mover.0].pawn {
                irreversible = true;
            }
            let t = m.promo.map_or(mover.0, PieceKind::index);
            n.board[from] = None;
            n.board[to] = Some((t, us));
            if mover.0 == royal {
                n.castle[us].clear();
            }
            if m.kind == MoveKind::DoubleStep {
                let mid = rp
                    .at(rp.file(from), (rp.rank(from) + rp.rank(to)) / 2)
                    .unwrap();
                n.ep = Some((mid, to));
            }
        }
    }
    for c in 0..2 {
        n.castle[c].remove(&from);
        n.castle[c].remove(&to);
    }
    n.adjust[us].remove(&from);
    n.adjust[us].remove(&to);
    n.adjust[us ^ 1].remove(&to);
    n.halfmove = if irreversible { 0 } else { rp.halfmove + 1 };
    n.side ^= 1;
    n
}

/// Every legal move: pseudo-legal moves after which the mover's king is not attacked.
fn ref_legal(v: &Variant, rp: &RefPos) -> Vec<Move> {
    ref_pseudo(v, rp)
        .into_iter()
        .filter(|&m| {
            let after = ref_make(v, rp, m);
            !ref_attacked(v, &after, after.king(v, rp.side), rp.side ^ 1)
        })
        .collect()
}

/// The double step a move makes, as the reference tracks en passant.
fn ep_after(v: &Variant, rp: &RefPos, m: Move) -> Option<(usize, usize)> {
    ref_make(v, rp, m).ep
}

// ---------------------------------------------------------------------------------------------
// Walks
// ---------------------------------------------------------------------------------------------

fn is_capture(p: &Position, m: Move) -> bool {
    m.kind == MoveKind::EnPassant
        || (!matches!(m.kind, MoveKind::Castle { .. } | MoveKind::Adjust)
            && p.piece_at(m.to).is_some())
}

/// Picks a random legal move, a capture with probability `bias` percent when there is one.
fn pick(rng: &mut Rng, p: &Position, moves: &[Move], bias: u32) -> Move {
    if rng.below(100) < bias as usize {
        let caps: Vec<Move> = moves
            .iter()
            .copied()
            .filter(|&m| is_capture(p, m))
            .collect();
        if !caps.is_empty() {
            return caps[rng.below(caps.len())];
        }
    }
    moves[rng.below(moves.len())]
}

fn uci_list(rules: &Rules, ms: &[Move]) -> String {
    ms.iter()
        .map(|m| format!("{}({:?})", m.uci(rules), m.kind))
        .collect::<Vec<_>>()
        .join(" ")
}

// ---------------------------------------------------------------------------------------------
// Properties
// ---------------------------------------------------------------------------------------------

fn walk_strategy() -> impl Strategy<Value = (u64, u64, u32, usize)> {
    (any::<u64>(), any::<u64>(), 0u32..=90, 10usize..=70)
}

/// The generator and make agree with the reference mover at every ply of a random walk.
#[test]
fn generator_matches_reference_mover() {
    for_each_variant(16, walk_strategy(), |rules, (seed, mseed, bias, plies)| {
        let v = rules.variant();
        let mut rng = Rng(mseed);
        let mut pos = start_position(rules, seed);
        let mut rp = RefPos::from_engine(rules, &pos, None);
        for _ in 0..plies {
            let fen = pos.fen(rules);
            let engine: Vec<Move> = pos.legal_moves(rules).iter().copied().collect();
            let eset: HashSet<Move> = engine.iter().copied().collect();
            prop_assert_eq!(eset.len(), engine.len(), "duplicate moves in {}", fen);
            let reference = ref_legal(v, &rp);
            let rset: HashSet<Move> = reference.iter().copied().collect();
            let extra: Vec<Move> = engine
                .iter()
                .copied()
                .filter(|m| !rset.contains(m))
                .collect();
            let missing: Vec<Move> = reference
                .iter()
                .copied()
                .filter(|m| !eset.contains(m))
                .collect();
            prop_assert!(
                extra.is_empty() && missing.is_empty(),
                "{}\ngenerated but not legal: {}\nlegal but not generated: {}",
                fen,
                uci_list(rules, &extra),
                uci_list(rules, &missing)
            );
            if let Some(ep) = pos.ep_square() {
                prop_assert_eq!(
                    Some(ep as usize),
                    rp.ep.map(|e| e.0),
                    "ep square in {}",
                    fen
                );
            }
            if engine.is_empty() {
                break;
            }
            let us = pos.side_to_move();
            for &m in &engine {
                let after = pos.play_unchecked(rules, m);
                // No legal move leaves the own king attacked (engine's and brute-force view).
                prop_assert!(
                    !after.is_attacked(rules, after.king_square(us), us.other()),
                    "{} leaves the king attacked in {}",
                    m.uci(rules),
                    fen
                );
                let want = ref_make(v, &rp, m);
                let got = RefPos::from_engine(rules, &after, want.ep);
                prop_assert_eq!(&got, &want, "make {} in {}", m.uci(rules), fen);
            }
            let m = pick(&mut rng, &pos, &engine, bias);
            let ep = ep_after(v, &rp, m);
            rp = ref_make(v, &rp, m);
            pos = pos.play_unchecked(rules, m);
            prop_assert_eq!(rp.ep, ep);
        }
        Ok(())
    });
}

/// Copy-make, hashes, FEN and SAN round trips at every ply of a random walk.
#[test]
fn make_hash_and_fen_round_trip() {
    for_each_variant(12, walk_strategy(), |rules, (seed, mseed, bias, plies)| {
        let mut rng = Rng(mseed);
        let mut pos = start_position(rules, seed);
        for _ in 0..plies {
            let fen = pos.fen(rules);
            let back = Position::from_fen(rules, &fen)
                .map_err(|e| TestCaseError::fail(format!("{fen}: {e}")))?;
            prop_assert_eq!(back.fen(rules), fen.clone(), "FEN write-read-write");
            let six = pos.fen_six(rules);
            let back6 = Position::from_fen(rules, &six)
                .map_err(|e| TestCaseError::fail(format!("{six}: {e}")))?;
            prop_assert_eq!(back6.fen_six(rules), six.clone());
            let moves: Vec<Move> = pos.legal_moves(rules).iter().copied().collect();
            if moves.is_empty() {
                break;
            }
            // SAN: every legal move's SAN reads back as that move, and no two moves share one.
            let mut sans = HashSet::new();
            for &m in &moves {
                let san = notation::to_san(rules, &pos, m);
                prop_assert_eq!(
                    notation::parse_san(rules, &pos, &san),
                    Ok(m),
                    "SAN {} in {}",
                    san,
                    fen
                );
                prop_assert!(
                    sans.insert(san.clone()),
                    "SAN {} written twice in {}",
                    san,
                    fen
                );
            }
            let saved = pos.clone();
            for &m in &moves {
                let after = pos.play_unchecked(rules, m);
                prop_assert!(
                    pos == saved && pos.hash() == saved.hash(),
                    "make changed the original"
                );
                let afen = after.fen(rules);
                let reread = Position::from_fen(rules, &afen).map_err(|e| {
                    TestCaseError::fail(format!("{afen} (after {}): {e}", m.uci(rules)))
                })?;
                // The position keeps an en passant square only when the capture is legal, as
                // the FEN writes it, so the hash must equal the re-read position's.
                prop_assert_eq!(after.ep_square(), reread.ep_square());
                prop_assert_eq!(
                    after.hash(),
                    reread.hash(),
                    "hash after {} from {} differs from {}",
                    m.uci(rules),
                    fen,
                    afen
                );
                prop_assert_eq!(reread.fen(rules), afen);
            }
            pos = pos.play_unchecked(rules, pick(&mut rng, &pos, &moves, bias));
        }
        Ok(())
    });
}

/// The colour-flipped position has the same perft, and flipping twice gives the position back.
#[test]
fn colour_flipped_perft_matches() {
    for_each_variant(8, walk_strategy(), |rules, (seed, mseed, bias, plies)| {
        let mut rng = Rng(mseed);
        let mut pos = start_position(rules, seed);
        for _ in 0..plies % 24 {
            let moves: Vec<Move> = pos.legal_moves(rules).iter().copied().collect();
            if moves.is_empty() {
                break;
            }
            pos = pos.play_unchecked(rules, pick(&mut rng, &pos, &moves, bias));
        }
        let flipped = pos.colour_flipped(rules);
        let fen = pos.fen(rules);
        prop_assert!(
            flipped.colour_flipped(rules) == pos,
            "double flip of {}",
            fen
        );
        let ffen = flipped.fen(rules);
        Position::from_fen(rules, &ffen)
            .map_err(|e| TestCaseError::fail(format!("flipped FEN {ffen}: {e}")))?;
        let depth = if rules.variant().files() as u32 * rules.variant().ranks() as u32 > 81 {
            2
        } else {
            3
        };
        prop_assert_eq!(
            pos.perft(rules, depth),
            flipped.perft(rules, depth),
            "perft {} of {} and of {}",
            depth,
            fen,
            ffen
        );
        Ok(())
    });
}

/// The bishop-like piece the `bishops` rule is about, and the castling rook, as the setup
/// module's documentation defines them.
fn bishop_and_rook(v: &Variant) -> (Option<usize>, Option<usize>) {
    let b = v
        .adjustment()
        .as_ref()
        .map(|a| a.piece)
        .or_else(|| v.piece_index('B'));
    let r = v
        .castling()
        .as_ref()
        .map(|c| c.rook)
        .or_else(|| v.piece_index('R'));
    (b, r)
}

fn dark(v: &Variant, file: usize, white: bool) -> bool {
    let rank = if white {
        v.setup().rank as usize
    } else {
        v.ranks() as usize - 1 - v.setup().rank as usize
    };
    (file + rank).is_multiple_of(2)
}

/// Does one side's back rank (from the a-side of the setup files) satisfy the constraints?
fn ref_valid_rank(v: &Variant, back: &[usize]) -> bool {
    let (b, r) = bishop_and_rook(v);
    let f0 = v.setup().files.0 as usize;
    if v.setup().bishops == BishopRule::Opposite {
        if let Some(b) = b {
            let sq: Vec<usize> = (0..back.len()).filter(|&i| back[i] == b).collect();
            if sq.len() == 2 && dark(v, f0 + sq[0], true) == dark(v, f0 + sq[1], true) {
                return false;
            }
        }
    }
    if v.setup().king_between_rooks {
        let royal = v.pieces().iter().position(|p| p.royal).unwrap();
        let k = back.iter().position(|&p| p == royal).unwrap();
        if let Some(r) = r {
            if !(back[..k].contains(&r) && back[k + 1..].contains(&r)) {
                return false;
            }
        }
    }
    true
}

fn next_permutation(a: &mut [usize]) -> bool {
    if a.len() < 2 {
        return false;
    }
    let mut i = a.len() - 1;
    while i > 0 && a[i - 1] >= a[i] {
        i -= 1;
    }
    if i == 0 {
        return false;
    }
    let mut j = a.len() - 1;
    while a[j] <= a[i - 1] {
        j -= 1;
    }
    a.swap(i - 1, j);
    a[i..].reverse();
    true
}

/// Start positions: count by brute force, ids round-trip, symmetry, start rights.
#[test]
fn start_positions_follow_the_setup_rules() {
    for (name, rules) in all_rules() {
        let v = rules.variant();
        assert_eq!(
            setup::count(v),
            ref_start_count(v),
            "{name}: start position count"
        );
    }
    for_each_variant(48, any::<u64>(), |rules, seed| {
        let v = rules.variant();
        let id = setup::random_id(v, seed);
        let sp = setup::from_id(v, id).map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert_eq!(setup::to_id(v, &sp), Ok(id));
        prop_assert!(ref_valid_rank(v, &sp.white) && ref_valid_rank(v, &sp.black));
        match v.setup().symmetry {
            Symmetry::Reverse => {
                let rev: Vec<usize> = sp.white.iter().rev().copied().collect();
                prop_assert_eq!(&sp.black, &rev)
            }
            Symmetry::Mirror => prop_assert_eq!(&sp.black, &sp.white),
            Symmetry::None => {}
        }
        let s = setup::back_rank_string(v, &sp);
        prop_assert_eq!(setup::parse_back_rank(v, &s), Ok(sp.clone()));
        let pos = start_position(rules, seed);
        for (c, back) in [(0usize, &sp.white), (1, &sp.black)] {
            let rank = if c == 0 {
                v.setup().rank as usize
            } else {
                v.ranks() as usize - 1 - v.setup().rank as usize
            };
            // Castling: the outermost rook on each side of the king; none when the file asks
            // for the king between the rooks and it is not.
            // The rank as it stands (a fixed placement may hold more than the back rank).
            let want = ref_castling_rooks(v, &pos, c, rank);
            let mut got: Vec<usize> = pos
                .castling_rooks(Colour::from_index(c))
                .into_iter()
                .flatten()
                .map(|s| s as usize)
                .collect();
            got.sort_unstable();
            prop_assert_eq!(got, want, "castling rights of colour {}", c);
            // Adjustment: every piece-rank square when the side's bishops share a colour.
            let want = ref_adjust_squares(v, back, c, rank);
            let got: Vec<usize> = pos
                .adjust_rights(Colour::from_index(c))
                .map(|s| s as usize)
                .collect();
            prop_assert_eq!(got, want, "adjustment rights of colour {}", c);
        }
        Ok(())
    });
}

/// The number of start positions by enumeration: valid back ranks for one side, squared when
/// the sides are shuffled independently.
fn ref_start_count(v: &Variant) -> u64 {
    let one_side = if v.setup().random {
        let mut a = v.setup().army.clone();
        a.sort_unstable();
        let mut n = 0u64;
        loop {
            if ref_valid_rank(v, &a) {
                n += 1;
            }
            if !next_permutation(&mut a) {
                break;
            }
        }
        n
    } else {
        1
    };
    if v.setup().symmetry == Symmetry::None && v.setup().random {
        one_side * one_side
    } else {
        one_side
    }
}

/// Castling rooks of colour `c` at the start: the outermost rook on each side of the king;
/// none when the file asks for the king between the rooks and it is not. Read from the rank
/// as it stands (a fixed placement may hold more than the back rank).
fn ref_castling_rooks(v: &Variant, pos: &Position, c: usize, rank: usize) -> Vec<usize> {
    let files = v.files() as usize;
    let royal = v.pieces().iter().position(|p| p.royal).unwrap();
    let row: Vec<Option<usize>> = (0..files)
        .map(|f| match pos.piece_at((rank * files + f) as u8) {
            Some(p) if p.colour.index() == c => Some(p.kind.index()),
            _ => None,
        })
        .collect();
    let mut want: Vec<usize> = Vec::new();
    if let (Some(cd), Some(k)) = (v.castling(), row.iter().position(|&p| p == Some(royal))) {
        let left = row[..k].iter().position(|&p| p == Some(cd.rook));
        let right = row[k + 1..]
            .iter()
            .rposition(|&p| p == Some(cd.rook))
            .map(|x| x + k + 1);
        if !(cd.king_between_rooks && (left.is_none() || right.is_none())) {
            want.extend(
                [left, right]
                    .into_iter()
                    .flatten()
                    .map(|i| rank * files + i),
            );
        }
    }
    want
}

/// Adjustment rights of colour `c` at the start: every piece-rank square when the side's
/// bishops share a colour (or the variant does not ask that).
fn ref_adjust_squares(v: &Variant, back: &[usize], c: usize, rank: usize) -> Vec<usize> {
    let f0 = v.setup().files.0 as usize;
    let files = v.files() as usize;
    let Some(a) = v.adjustment() else {
        return Vec::new();
    };
    let sq: Vec<usize> = (0..back.len()).filter(|&i| back[i] == a.piece).collect();
    let same = sq.len() >= 2
        && sq
            .iter()
            .all(|&i| dark(v, f0 + i, c == 0) == dark(v, f0 + sq[0], c == 0));
    if !a.same_colour_only || same {
        (0..back.len()).map(|i| rank * files + f0 + i).collect()
    } else {
        Vec::new()
    }
}

/// The TOML examples in variants/README.md are valid variant files.
#[test]
fn readme_examples_load() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/variants");
    let text = std::fs::read_to_string(format!("{dir}/README.md")).unwrap();
    let blocks: Vec<&str> = text
        .split("```toml\n")
        .skip(1)
        .map(|b| b.split("```").next().unwrap())
        .collect();
    assert_eq!(blocks.len(), 3);
    for b in blocks {
        let v = Variant::from_text(
            &format!("{dir}/README-example.toml"),
            b,
            &modern_chess::catalog::FileResolver,
        )
        .unwrap_or_else(|e| panic!("{e}\n{b}"));
        let rules = Rules::compile(v);
        let pos = start_position(&rules, 1);
        assert!(pos.perft(&rules, 2) > 0);
    }
}

/// Pieces whose every step keeps the square colour.
fn colour_bound(v: &Variant, t: usize) -> bool {
    let atoms = &v.pieces()[t].atoms;
    !atoms.is_empty() && atoms.iter().all(|a| (a.df + a.dr) % 2 == 0)
}

/// No sequence of legal moves can mate (RULES.md, with the variant's lone minors).
fn ref_insufficient(v: &Variant, rp: &RefPos) -> bool {
    let others: Vec<(usize, usize)> = (0..rp.board.len())
        .filter_map(|sq| rp.board[sq].map(|(t, _)| (sq, t)))
        .filter(|&(_, t)| !v.pieces()[t].royal)
        .collect();
    if others.iter().any(|&(_, t)| v.pieces()[t].pawn) {
        return false;
    }
    match others.as_slice() {
        [] => true,
        [(_, t)] if v.rules().lone_minors.contains(t) => true,
        _ => {
            others.iter().all(|&(_, t)| colour_bound(v, t))
                && others
                    .iter()
                    .map(|&(sq, _)| (rp.file(sq) + rp.rank(sq)) % 2)
                    .collect::<HashSet<_>>()
                    .len()
                    == 1
        }
    }
}

/// What identifies a position for repetition: placement, side, rights, and en passant when a
/// legal capture exists.
fn repetition_key(v: &Variant, rp: &RefPos) -> RefPos {
    let mut k = rp.clone();
    k.halfmove = 0;
    let ep_legal = ref_legal(v, rp)
        .iter()
        .any(|m| m.kind == MoveKind::EnPassant);
    if !ep_legal {
        k.ep = None;
    }
    k
}

/// Random games end with the result the rules give, and no earlier.
#[test]
fn random_games_end_correctly() {
    let strategy = (any::<u64>(), any::<u64>(), 0u32..=100);
    for_each_variant(10, strategy, |rules, (seed, mseed, bias)| {
        let v = rules.variant();
        let mut rng = Rng(mseed);
        let mut game = Game::new(start_position(rules, seed));
        let mut rp = RefPos::from_engine(rules, game.current(), None);
        let mut seen: HashMap<RefPos, usize> = HashMap::new();
        for ply in 0..1500 {
            let pos = game.current().clone();
            let fen = pos.fen(rules);
            prop_assert_eq!(pos.halfmove_clock(), rp.halfmove, "clock in {}", fen);
            let moves: Vec<Move> = pos.legal_moves(rules).iter().copied().collect();
            let key = repetition_key(v, &rp);
            let count = {
                let c = seen.entry(key).or_insert(0);
                *c += 1;
                *c
            };
            let us = pos.side_to_move().index();
            let in_check = ref_attacked(v, &rp, rp.king(v, us), us ^ 1);
            // Which results the rules allow here (mate and stalemate come first).
            let mut allowed: Vec<Outcome> = Vec::new();
            if let Some((winner, rule)) = ref_rule_end(v, &rp) {
                let winner = winner.map(Colour::from_index);
                allowed.push(Outcome::Rule { winner, rule });
            } else if moves.is_empty() {
                allowed.push(match (in_check, v.rules().stalemate) {
                    (true, _) => Outcome::Checkmate {
                        winner: Colour::from_index(us ^ 1),
                    },
                    (false, StalemateResult::Draw) => Outcome::Stalemate,
                    (false, StalemateResult::Loses) => Outcome::Rule {
                        winner: Some(Colour::from_index(us ^ 1)),
                        rule: EndRule::Stalemate,
                    },
                    (false, StalemateResult::Wins) => Outcome::Rule {
                        winner: Some(Colour::from_index(us)),
                        rule: EndRule::Stalemate,
                    },
                });
            } else {
                if ref_insufficient(v, &rp) {
                    allowed.push(Outcome::InsufficientMaterial);
                }
                let limit = v.rules().fifty_move_plies;
                if limit > 0 && rp.halfmove >= limit {
                    allowed.push(Outcome::MoveLimit);
                }
                let reps = v.rules().repetitions as usize;
                if reps > 0 && count >= reps {
                    allowed.push(Outcome::Repetition);
                }
            }
            let got = game.outcome(rules);
            match got {
                None => prop_assert!(
                    allowed.is_empty(),
                    "ply {}: no result, but the rules give {:?} in {}",
                    ply,
                    allowed,
                    fen
                ),
                Some(o) => {
                    prop_assert!(
                        allowed.contains(&o),
                        "ply {}: result {:?}, the rules allow {:?} in {}",
                        ply,
                        o,
                        allowed,
                        fen
                    );
                    prop_assert!(game
                        .play(
                            rules,
                            moves
                                .first()
                                .copied()
                                .unwrap_or(Move::new(0, 0, MoveKind::Normal))
                        )
                        .is_err());
                    return Ok(());
                }
            }
            let m = pick(&mut rng, &pos, &moves, bias);
            rp = ref_make(v, &rp, m);
            game.play(rules, m)
                .map_err(|e| TestCaseError::fail(e.to_string()))?;
        }
        Ok(())
    });
}
