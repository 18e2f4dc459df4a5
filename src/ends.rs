//! Game ends decided by a variant rule before any move is made: a bare king, a royal piece in
//! its camp (campmate), a kind wiped out (extinction). In such a position no move is generated
//! (as Fairy-Stockfish does), so perft counts none below it; [`crate::game`] turns the end into
//! an outcome. Stalemate as a win or loss is decided in [`crate::game`], when no move exists.

use crate::piece::Colour;
use crate::position::Position;
use crate::rules::Rules;
use crate::variant::BareKing;

/// Which rule ended the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EndRule {
    /// A side was left with only its royal piece (`rules.bare_king`).
    BareKing,
    /// A royal piece reached its camp (`rules.campmate`).
    Campmate,
    /// A side lost every piece of a kind (`rules.extinction`).
    Extinction,
    /// The side to move is stalemated and the variant scores that (`rules.stalemate`).
    Stalemate,
}

/// A game end by a variant rule: the winner (`None` for a draw) and the rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RuleEnd {
    /// `None` when drawn.
    pub winner: Option<Colour>,
    /// The rule that decided.
    pub rule: EndRule,
}

impl Position {
    /// The end a variant rule makes of this position before any move, if any.
    ///
    /// - bare king (Fairy-Stockfish's rule): the game ends when the side *not* to move has only
    ///   its royal piece and the side to move has more, so the bared side had one move to bare
    ///   the other king back; the side to move wins (two bare kings play on: a material draw);
    /// - extinction: a side without any piece of a listed kind loses (the side to move first);
    /// - campmate: the side that just moved wins when its royal piece stands in its camp.
    pub fn rule_end(&self, rules: &Rules) -> Option<RuleEnd> {
        let us = self.side_to_move();
        let them = us.other();
        let v = &rules.variant.rules;
        let win = |winner: Colour, rule| {
            Some(RuleEnd {
                winner: Some(winner),
                rule,
            })
        };
        if v.bare_king == BareKing::Loses {
            let bare = |c: Colour| (self.colour_bb(c) & !self.type_bb(rules.royal)).is_empty();
            if bare(them) && !bare(us) {
                return win(us, EndRule::BareKing);
            }
        }
        for &k in &v.extinction {
            if self.pieces_of(us, k).is_empty() {
                return win(them, EndRule::Extinction);
            }
            if self.pieces_of(them, k).is_empty() {
                return win(us, EndRule::Extinction);
            }
        }
        if rules.campmate[them].has(self.king_square(them)) {
            return win(them, EndRule::Campmate);
        }
        None
    }
}
