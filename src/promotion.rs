//! Promotion: which kinds a pawn may become in a position, and the moves a pawn's targets give.
//!
//! The zone may span several ranks: promotion is optional on its ranks before the last (the
//! pawn may also stay a pawn) and compulsory on the last. With `only_captured` (Grand Chess) a
//! side may promote only to kinds of which it has fewer on the board than at the start; a pawn
//! cannot then enter the last rank while no kind is available.

use crate::geometry::{Bitboard, Square};
use crate::piece::{Colour, PieceKind};
use crate::position::{Move, MoveKind, Position};
use crate::rules::Rules;

/// The kinds the side to move may promote to now, as a bit mask over piece kinds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct PromoChoices(pub u32);

impl PromoChoices {
    #[inline]
    fn allows(self, kind: usize) -> bool {
        self.0 >> kind & 1 != 0
    }
}

impl Position {
    /// The promotion choices of the side to move.
    #[inline]
    pub(crate) fn promotion_choices(&self, rules: &Rules) -> PromoChoices {
        let us = self.side_to_move();
        let mut mask = 0u32;
        for &k in &rules.promotion_to {
            let ok = match &rules.promotion_limit {
                None => true,
                Some(limit) => self.pieces_of(us, k).count() < limit[k],
            };
            if ok {
                mask |= 1 << k;
            }
        }
        PromoChoices(mask)
    }
}

/// Calls `push` with every move of the piece on `from` to `targets`: a pawn (`promo` given)
/// gets one move per available choice in the zone, and the plain move outside the zone and on
/// the zone's optional ranks.
#[inline]
pub(crate) fn for_each_target(
    rules: &Rules,
    us: Colour,
    from: Square,
    targets: Bitboard,
    kind: MoveKind,
    promo: Option<PromoChoices>,
    mut push: impl FnMut(Move),
) {
    let Some(choices) = promo else {
        for to in targets {
            push(Move::new(from, to, kind));
        }
        return;
    };
    let forced = rules.promotion_zone[us];
    let zone = forced | rules.promotion_optional[us];
    for to in targets {
        if zone.has(to) {
            for &p in &rules.promotion_to {
                if choices.allows(p) {
                    push(Move {
                        from,
                        to,
                        kind,
                        promo: Some(PieceKind(p as u8)),
                    });
                }
            }
        }
        if !forced.has(to) {
            push(Move::new(from, to, kind));
        }
    }
}

/// How many moves [`for_each_target`] would give, without making them.
#[inline]
pub(crate) fn count_targets(
    rules: &Rules,
    us: Colour,
    targets: Bitboard,
    promo: Option<PromoChoices>,
) -> u64 {
    let all = targets.count() as u64;
    let Some(choices) = promo else {
        return all;
    };
    let forced = (targets & rules.promotion_zone[us]).count() as u64;
    let optional = (targets & rules.promotion_optional[us]).count() as u64;
    let k = choices.0.count_ones() as u64;
    all - forced + (forced + optional) * k
}
