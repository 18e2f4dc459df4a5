//! Does a move give check? Answered from the tables without making the move, so the search
//! can decide to prune a move (checks are never pruned) before paying for it.

use crate::position::{Move, MoveKind, Position};
use crate::rules::Rules;

/// Whether `m` (pseudo-legal in `pos`) attacks the other king once made: directly by the
/// moved piece from its target square, or by a piece of ours whose line the move opens.
/// `None` for the moves this cannot settle from the tables (castling, en passant, Bishop
/// Adjustment, pieces with capturing lame, initial or hopping moves): make the move and test.
pub fn gives_check(rules: &Rules, pos: &Position, m: Move) -> Option<bool> {
    if !matches!(m.kind, MoveKind::Normal | MoveKind::DoubleStep) {
        return None;
    }
    let us = pos.side_to_move();
    let moved = m.promo.unwrap_or(pos.piece_at(m.from)?.kind).index();
    let pm = rules.piece_moves(us, moved);
    if !pm.captures_by_tables {
        return None;
    }
    let king = pos.king_square(us.other());
    let k = king as usize;
    let lines = rules.rider_reach[us][k];
    let special = !rules.special_attackers[us].is_empty() || !rules.hopper_attackers[us].is_empty();
    // Most moves neither land where any of our pieces could attack the king from nor leave
    // a line to it: settled by two lookups.
    if !special && !(lines | rules.leap_reach[us][k]).has(m.to) && !lines.has(m.from) {
        return Some(false);
    }
    let mut occ = pos.occupied();
    occ.clear(m.from);
    occ.set(m.to);
    // Direct: the moved piece from its new square (a ray only when the king is on it).
    if pm.leap_capture[m.to as usize].has(king) {
        return Some(true);
    }
    for rd in pm.riders.iter().filter(|rd| rd.capture) {
        let rt = &rules.rays[rd.ray];
        if rt.rays[m.to as usize].has(king) && rt.attacks(m.to, occ).has(king) {
            return Some(true);
        }
    }
    // Discovered: before the move nothing of ours attacked the king (the position is
    // legal), so only a line through `from` can open. Lame and hopping attackers can be
    // opened other ways: test them all.
    if special {
        return Some(pos.is_attacked_occ(rules, king, us, occ));
    }
    if !lines.has(m.from) {
        return Some(false);
    }
    let ours = pos.colour_bb(us);
    for &(ray, mask) in &rules.rider_attacks[us] {
        let rt = &rules.rays[ray];
        if !rt.rays[king as usize].has(m.from) {
            continue;
        }
        // `to` holds no piece of ours in `pos`, so a blocker there is the moved piece,
        // whose own attack was tested above.
        if let Some(b) = rt.first_blocker(king, occ) {
            if ours.has(b) && mask >> pos.kind_at(b) & 1 != 0 {
                return Some(true);
            }
        }
    }
    Some(false)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog;
    use crate::movegen::MoveList;

    /// Agrees with making the move and testing, over random games in many variants.
    #[test]
    fn agrees_with_make_and_test() {
        let mut rng = 0x1234_5678_u64;
        let mut settled = 0;
        for v in [
            "chess", "mrc", "mrc64", "merc", "icrc", "pmrc", "shako", "grand", "maura",
        ] {
            let rules = catalog::load_rules(v).unwrap();
            for game in 0..6u64 {
                let sp = crate::setup::from_id(&rules.variant, game * 37)
                    .unwrap_or_else(|_| crate::setup::from_id(&rules.variant, 0).unwrap());
                let fen = crate::setup::start_fen(&rules.variant, &sp);
                let mut pos = Position::from_fen(&rules, &fen).unwrap();
                for _ in 0..80 {
                    let mut list = MoveList::new();
                    pos.pseudo_moves(&rules, &mut list);
                    for &m in list.iter() {
                        let child = pos.play_unchecked(&rules, m);
                        if let Some(c) = gives_check(&rules, &pos, m) {
                            settled += 1;
                            let them = pos.side_to_move().other();
                            let truth =
                                child.is_attacked(&rules, child.king_square(them), them.other());
                            assert_eq!(c, truth, "{v} {} {}", pos.fen(&rules), m.uci(&rules));
                        }
                    }
                    let legal = pos.legal_moves(&rules);
                    if legal.is_empty() {
                        break;
                    }
                    let r = super::super::skill::next_random(&mut rng) as usize;
                    pos = pos.play_unchecked(&rules, legal.as_slice()[r % legal.len()]);
                }
            }
        }
        assert!(settled > 10_000, "{settled}");
    }
}
