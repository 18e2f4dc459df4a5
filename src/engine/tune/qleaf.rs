//! The quiet position a sample stands for: the leaf of the quiescence search's principal
//! variation.
//!
//! The search never uses the static evaluation of a position with a capture pending; it
//! resolves the captures first and evaluates where they end. Texel tuning should fit the
//! evaluation on the positions whose evaluation the search actually uses, so each sampled
//! position is replaced by the leaf of a small quiescence search (stand pat, then captures
//! and promotions that do not lose material by exchange), and its terms are counted there.

use crate::engine::eval::Evaluator;
use crate::engine::see::{see_ge, SeeValues};
use crate::movegen::MoveList;
use crate::position::Position;
use crate::rules::Rules;

/// Most quiescence nodes searched for one sample; past it the search stands pat everywhere.
const NODE_BUDGET: u32 = 4000;

/// The quiescence search of one sample.
struct QLeaf<'a> {
    rules: &'a Rules,
    eval: &'a Evaluator,
    see: SeeValues,
    nodes: u32,
}

impl QLeaf<'_> {
    /// Score (side to move) and the leaf of the principal variation from `pos`.
    fn search(&mut self, pos: &Position, mut alpha: i32, beta: i32) -> (i32, Position) {
        self.nodes += 1;
        let stand = self.eval.evaluate(self.rules, pos);
        if stand >= beta || self.nodes >= NODE_BUDGET {
            return (stand, pos.clone());
        }
        alpha = alpha.max(stand);
        let mut best = (stand, None);
        let mut list = MoveList::new();
        pos.pseudo_noisy_moves(self.rules, &mut list);
        let mut moves: Vec<_> = list
            .as_slice()
            .iter()
            .copied()
            .filter(|&m| see_ge(self.rules, &self.see, pos, m, 0))
            .map(|m| (self.see.captured(self.rules, pos, m), m))
            .collect();
        // Most valuable victim first, so cut-offs come early.
        moves.sort_by_key(|&(v, _)| -v);
        for (_, m) in moves {
            if !pos.is_legal_pseudo(self.rules, m) {
                continue;
            }
            let child = pos.play_unchecked(self.rules, m);
            let (s, leaf) = self.search(&child, -beta, -alpha);
            let s = -s;
            if s > best.0 {
                best = (s, Some(leaf));
                alpha = alpha.max(s);
                if s >= beta {
                    break;
                }
            }
        }
        (best.0, best.1.unwrap_or_else(|| pos.clone()))
    }
}

/// The leaf of the quiescence search's principal variation from `pos`, with its score from
/// the side to move at `pos`; `None` when `pos` or the leaf is in check (this quiescence
/// searches no evasions, so a static evaluation in check means little: a poor sample).
pub fn quiet_leaf(rules: &Rules, eval: &Evaluator, pos: &Position) -> Option<(i32, Position)> {
    if pos.in_check(rules) {
        return None;
    }
    let mut q = QLeaf {
        rules,
        eval,
        see: SeeValues::new(rules),
        nodes: 0,
    };
    let (score, leaf) = q.search(pos, -1_000_000, 1_000_000);
    (!leaf.in_check(rules)).then_some((score, leaf))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog;
    use crate::engine::weights::Weights;

    fn setup() -> (Rules, Evaluator) {
        let rules = catalog::load_rules("chess").unwrap();
        let eval = Evaluator::new(&rules, Weights::derived(&rules));
        (rules, eval)
    }

    #[test]
    fn a_hanging_queen_is_taken_before_the_position_is_sampled() {
        let (rules, eval) = setup();
        // White's rook takes the undefended black queen on a6.
        let pos = Position::from_fen(&rules, "4k3/5pp1/q7/8/8/8/5PP1/R3K3 w - - 0 1").unwrap();
        let (score, leaf) = quiet_leaf(&rules, &eval, &pos).unwrap();
        assert_ne!(leaf.fen(&rules), pos.fen(&rules));
        let black = crate::piece::Colour::Black;
        assert_eq!(
            leaf.colour_bb(black).count() + 1,
            pos.colour_bb(black).count()
        );
        assert!(score > eval.evaluate(&rules, &pos) + 500, "score {score}");
    }

    #[test]
    fn the_leaf_is_quiet_its_own_leaf_and_scored_by_its_static_eval() {
        let (rules, eval) = setup();
        // A free pawn, a free queen, and a pawn exchange in the centre.
        let fens = [
            "4k3/5pp1/8/3p4/4P3/8/5PP1/4K3 w - - 0 1",
            "4k3/5pp1/q7/8/8/8/5PP1/R3K3 w - - 0 1",
            "rnbqkbnr/pppp1ppp/8/4p3/3P4/8/PPP1PPPP/RNBQKBNR w KQkq - 0 2",
        ];
        for fen in fens {
            let pos = Position::from_fen(&rules, fen).unwrap();
            let (score, leaf) = quiet_leaf(&rules, &eval, &pos).unwrap();
            assert_ne!(
                leaf.fen(&rules),
                pos.fen(&rules),
                "{fen}: captures are pending"
            );
            // The leaf's own quiescence stands pat: nothing winning is pending there.
            let stand = eval.evaluate(&rules, &leaf);
            let (again, leaf2) = quiet_leaf(&rules, &eval, &leaf).expect("leaf not in check");
            assert_eq!(leaf2.fen(&rules), leaf.fen(&rules), "{fen}");
            assert_eq!(again, stand, "{fen}");
            // The root's score is the leaf's static eval, from the root's side.
            let sign = if leaf.side_to_move() == pos.side_to_move() {
                1
            } else {
                -1
            };
            assert_eq!(score, sign * stand, "{fen}");
        }
    }

    #[test]
    fn a_position_in_check_gives_no_leaf() {
        let (rules, eval) = setup();
        let pos = Position::from_fen(&rules, "4k3/8/8/8/8/8/8/R3K2r w - - 0 1").unwrap();
        assert!(quiet_leaf(&rules, &eval, &pos).is_none());
    }
}
