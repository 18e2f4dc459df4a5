//! Hoppers: riders that jump a piece on their line (Betza `p`, the cannon) or land just
//! beyond it (`g`, the grasshopper).
//!
//! ```text
//!  C . . x . y . .     the cannon (mRcpR) on a: x is the hurdle; it may capture y,
//!                      the first piece beyond x, and (as a hopper move) reach the empty
//!  G . . x z . . .     squares between; the grasshopper (gQ) on a lands on z only
//! ```
//! A hopper's attack depends on pieces that are not on a line with the king in the ordinary
//! sense (moving a piece onto the line can give check), so move generation tests every move by
//! making it when the opponent has a capturing hopper; these functions only list targets.

use crate::geometry::{Bitboard, Square};
use crate::piece::Colour;
use crate::position::Position;
use crate::rules::{HopMove, PieceMoves, Rules};

/// The squares one hopper move reaches from `from` with occupancy `occ` (occupied or empty;
/// the caller keeps what the move may do there).
#[inline]
pub(crate) fn hop_reach(rules: &Rules, hm: &HopMove, from: Square, occ: Bitboard) -> Bitboard {
    let rt = &rules.rays[hm.ray];
    let Some(hurdle) = rt.first_blocker(from, occ) else {
        return Bitboard::EMPTY;
    };
    if hm.grasshopper {
        rules
            .geo
            .offset(hurdle, rt.df as i32, rt.dr as i32)
            .map_or(Bitboard::EMPTY, Bitboard::from_square)
    } else {
        rt.attacks(hurdle, occ)
    }
}

/// Every hopper target of a piece: empty squares for its quiet moves, enemy pieces for its
/// captures.
#[inline]
pub(crate) fn hop_targets(
    rules: &Rules,
    pm: &PieceMoves,
    from: Square,
    occ: Bitboard,
    enemy: Bitboard,
) -> Bitboard {
    let empty = !occ & rules.all;
    let mut targets = Bitboard::EMPTY;
    for hm in &pm.hoppers {
        let reach = hop_reach(rules, hm, from, occ);
        if hm.quiet {
            targets |= reach & empty;
        }
        if hm.capture {
            targets |= reach & enemy;
        }
    }
    targets
}

impl Position {
    /// Does a hopper of colour `by` capture on `sq` with occupancy `occ`?
    pub(crate) fn hopper_attacks(
        &self,
        rules: &Rules,
        sq: Square,
        by: Colour,
        occ: Bitboard,
    ) -> bool {
        rules.hopper_attackers[by].iter().any(|&t| {
            let pm = rules.piece_moves(by, t);
            let mut pieces = self.pieces_of(by, t) & occ;
            Iterator::any(&mut pieces, |from| {
                pm.hoppers
                    .iter()
                    .any(|hm| hm.capture && hop_reach(rules, hm, from, occ).has(sq))
            })
        })
    }
}
