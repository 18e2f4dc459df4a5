//! Static exchange evaluation: what a capture sequence on one square wins, each side always
//! recapturing with its least valuable piece, either side free to stop.
//!
//! Attackers are found from the compiled tables with a given occupancy, so a rider behind a
//! piece that has just captured joins in (x-rays), for any piece a variant defines.

use crate::geometry::{Bitboard, Square};
use crate::piece::Colour;
use crate::position::{Move, MoveKind, Position};
use crate::rules::Rules;

/// Value the exchange counts for a royal piece: more than everything else together.
const ROYAL_VALUE: i32 = 100_000;

/// Piece values for exchanges, and the piece kinds from cheapest to dearest.
#[derive(Clone, Debug)]
pub struct SeeValues {
    pub value: Vec<i32>,
    cheapest_first: Vec<usize>,
}

impl SeeValues {
    /// Values from the variant file (the royal piece above all).
    pub fn new(rules: &Rules) -> SeeValues {
        let value: Vec<i32> = (0..rules.n_types)
            .map(|t| {
                if t == rules.royal {
                    ROYAL_VALUE
                } else {
                    rules.variant.pieces[t].value.max(1)
                }
            })
            .collect();
        let mut cheapest_first: Vec<usize> = (0..rules.n_types).collect();
        cheapest_first.sort_by_key(|&t| value[t]);
        SeeValues {
            value,
            cheapest_first,
        }
    }

    /// What `m` captures (a pawn for en passant), or 0.
    pub fn captured(&self, rules: &Rules, pos: &Position, m: Move) -> i32 {
        match m.kind {
            MoveKind::EnPassant => rules.pawn.map_or(100, |p| self.value[p]),
            MoveKind::Castle { .. } | MoveKind::Adjust => 0,
            _ => pos.piece_at(m.to).map_or(0, |p| self.value[p.kind.index()]),
        }
    }
}

/// Pieces of colour `c` that capture on `sq` with occupancy `occ` (only pieces in `occ`).
pub fn attackers(rules: &Rules, pos: &Position, sq: Square, c: Colour, occ: Bitboard) -> Bitboard {
    let s = sq as usize;
    let theirs = pos.colour_bb(c) & occ;
    let mut found = Bitboard::EMPTY;
    if (rules.leap_reach[c][s] & theirs).any() {
        for &t in &rules.leap_attack_types[c] {
            found |= rules.piece_moves(c, t).leap_attackers[s] & theirs & pos.type_bb(t);
        }
    }
    for b in pos.rider_attackers(rules, sq, c, occ) {
        found.set(b);
    }
    for &t in &rules.special_attackers[c] {
        let pm = rules.piece_moves(c, t);
        for x in theirs & pos.type_bb(t) {
            let hits = pm.specials.iter().any(|sp| {
                sp.capture
                    && (!sp.initial || pm.initial_squares.has(x))
                    && sp.targets[x as usize]
                        .iter()
                        .any(|&(to, path)| to == sq && (path & occ).is_empty())
            });
            if hits {
                found.set(x);
            }
        }
    }
    found
}

/// Does `m` win at least `threshold` by exchange? (Castling and adjustment count as 0.)
pub fn see_ge(rules: &Rules, vals: &SeeValues, pos: &Position, m: Move, threshold: i32) -> bool {
    if matches!(m.kind, MoveKind::Castle { .. } | MoveKind::Adjust) {
        return threshold <= 0;
    }
    let promo_gain = m.promo.map_or(0, |k| {
        vals.value[k.index()] - rules.pawn.map_or(0, |p| vals.value[p])
    });
    let mut swap = vals.captured(rules, pos, m) + promo_gain - threshold;
    if swap < 0 {
        return false;
    }
    let mover = match m.promo {
        Some(k) => k.index(),
        None => pos.piece_at(m.from).map_or(rules.royal, |p| p.kind.index()),
    };
    swap = vals.value[mover] - swap;
    if swap <= 0 {
        return true;
    }
    let to = m.to;
    let mut occ = pos.occupied() & !Bitboard::from_square(m.from);
    occ.set(to);
    if let (MoveKind::EnPassant, Some(ep)) = (m.kind, pos.ep) {
        occ.clear(ep.victim);
    }
    let mut stm = pos.side_to_move();
    let mut res = true;
    loop {
        stm = stm.other();
        let mine = attackers(rules, pos, to, stm, occ);
        if mine.is_empty() {
            break;
        }
        res = !res;
        let (t, sq) = cheapest(vals, pos, mine);
        if t == rules.royal {
            // The king may only take last: if the other side still attacks, it cannot.
            let theirs = attackers(rules, pos, to, stm.other(), occ);
            return if theirs.any() { !res } else { res };
        }
        swap = vals.value[t] - swap;
        if swap < res as i32 {
            break;
        }
        occ.clear(sq);
    }
    res
}

fn cheapest(vals: &SeeValues, pos: &Position, set: Bitboard) -> (usize, Square) {
    for &t in &vals.cheapest_first {
        let bb = set & pos.type_bb(t);
        if bb.any() {
            return (t, bb.lsb());
        }
    }
    // Unreachable for a consistent position; treat as the first square.
    (
        pos.piece_at(set.lsb()).map_or(0, |p| p.kind.index()),
        set.lsb(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog;

    fn see(v: &str, fen: &str, mv: &str, threshold: i32) -> bool {
        let rules = catalog::load_rules(v).unwrap();
        let pos = Position::from_fen(&rules, fen).unwrap();
        let m = *pos
            .legal_moves(&rules)
            .iter()
            .find(|m| m.uci(&rules) == mv)
            .unwrap();
        see_ge(&rules, &SeeValues::new(&rules), &pos, m, threshold)
    }

    #[test]
    fn exchanges_are_counted_with_x_rays() {
        // Rxe5 wins a pawn: nothing defends it.
        let fen = "4k3/8/8/4p3/8/8/8/4RK2 w - - 0 1";
        assert!(see("chess", fen, "e1e5", 100));
        assert!(!see("chess", fen, "e1e5", 101));
        // Defended by a pawn: the rook is lost for a pawn.
        let fen = "4k3/8/3p4/4p3/8/8/8/4RK2 w - - 0 1";
        assert!(!see("chess", fen, "e1e5", 0));
        // Nxd5 with the queen behind the defended pawn... knight takes pawn, pawn retakes,
        // queen retakes: 100 - 300 + 100 = -100.
        let fen = "4k3/8/2p5/3p4/8/4N3/8/3QK3 w - - 0 1";
        assert!(!see("chess", fen, "e3d5", 0));
        assert!(see("chess", fen, "e3d5", -200));
        // Two rooks doubled against one defender: the second rook (an x-ray) wins the pawn.
        let fen = "3rk3/8/8/3p4/8/8/3R4/3RK3 w - - 0 1";
        assert!(see("chess", fen, "d2d5", 100));
    }

    #[test]
    fn quiet_moves_onto_attacked_squares_lose_the_piece() {
        let fen = "4k3/8/8/3p4/8/8/8/1Q2K3 w - - 0 1";
        assert!(!see("chess", fen, "b1e4", 0));
        assert!(see("chess", fen, "b1b2", 0));
    }
}
