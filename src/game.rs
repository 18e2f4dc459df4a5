//! A game: the start position, the moves played, and how it ended.
//!
//! Draws are automatic (RULES.md): stalemate, repetition (the variant's count, threefold by
//! default), the move-count rule (100 plies without capture or pawn move by default) and
//! insufficient material. Checkmate is tested first, so a mate on the move that reaches the
//! limit still wins.

use crate::ends::{EndRule, RuleEnd};
use crate::piece::{Colour, PieceKind};
use crate::position::{IllegalMove, Move, Position};
use crate::rules::Rules;
use crate::variant::StalemateResult;
use std::fmt;

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The side to move is mated.
    Checkmate {
        /// The side that gave mate.
        winner: Colour,
    },
    /// A side resigned.
    Resignation {
        /// The side that did not resign.
        winner: Colour,
    },
    /// The side to move has no legal move and is not in check.
    Stalemate,
    /// The same position occurred the variant's number of times.
    Repetition,
    /// The move-count rule (no capture or pawn move for the variant's number of plies).
    MoveLimit,
    /// Neither side can mate.
    InsufficientMaterial,
    /// Agreed or adjudicated draw (protocols, matches).
    DrawAgreed,
    /// A variant rule decided (bare king, campmate, extinction, stalemate as a win or loss).
    Rule {
        /// The winner; `None` for a draw.
        winner: Option<Colour>,
        /// Which rule.
        rule: EndRule,
    },
}

/// Why [`Game::play`] refused a move; the game is unchanged.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PlayError {
    /// The game has ended; no move is played after the end.
    GameOver {
        /// How it ended.
        outcome: Outcome,
        /// The end in words (`checkmate, White wins`).
        description: String,
    },
    /// The move is not legal in the current position.
    Illegal(IllegalMove),
}

impl fmt::Display for PlayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlayError::GameOver { description, .. } => {
                write!(f, "the game is over ({description})")
            }
            PlayError::Illegal(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for PlayError {}

impl Outcome {
    /// The PGN result string.
    pub fn result(&self) -> &'static str {
        match self.winner() {
            Some(Colour::White) => "1-0",
            Some(Colour::Black) => "0-1",
            None => "1/2-1/2",
        }
    }
    /// The side that won, if one did.
    pub fn winner(&self) -> Option<Colour> {
        match self {
            Outcome::Checkmate { winner } | Outcome::Resignation { winner } => Some(*winner),
            Outcome::Rule { winner, .. } => *winner,
            _ => None,
        }
    }
    /// A sentence for people.
    pub fn describe(&self, rules: &Rules) -> String {
        let name = |c: Colour| c.name();
        match self {
            Outcome::Checkmate { winner } => format!("checkmate, {} wins", name(*winner)),
            Outcome::Resignation { winner } => {
                format!("{} resigns, {} wins", name(winner.other()), name(*winner))
            }
            Outcome::Stalemate => "stalemate, draw".into(),
            Outcome::Repetition => {
                format!("{}-fold repetition, draw", rules.variant.rules.repetitions)
            }
            Outcome::MoveLimit => format!(
                "{}-move rule, draw",
                rules.variant.rules.fifty_move_plies / 2
            ),
            Outcome::InsufficientMaterial => "insufficient material, draw".into(),
            Outcome::DrawAgreed => "draw agreed".into(),
            Outcome::Rule { winner, rule } => {
                let why = match rule {
                    EndRule::BareKing => "bare king",
                    EndRule::Campmate => "campmate",
                    EndRule::Extinction => "extinction",
                    EndRule::Stalemate => "stalemate",
                };
                match winner {
                    Some(w) => format!("{why}, {} wins", name(*w)),
                    None => format!("{why}, draw"),
                }
            }
        }
    }
}

/// Pieces that can only ever reach squares of one colour (every step has an even sum).
pub fn colourbound(rules: &Rules, kind: PieceKind) -> bool {
    let atoms = &rules.variant.pieces[kind.index()].atoms;
    !atoms.is_empty() && atoms.iter().all(|a| (a.df as i32 + a.dr as i32) % 2 == 0)
}

/// No sequence of legal moves can mate: bare kings, a king and one lone minor (by the
/// variant's `lone_minors`) against a king, or only colour-bound pieces all on one colour.
pub fn insufficient_material(rules: &Rules, pos: &Position) -> bool {
    if let Some(p) = rules.pawn {
        if pos.kind_bb(PieceKind(p as u8)).any() {
            return false;
        }
    }
    let others = pos.occupied() & !pos.kind_bb(PieceKind(rules.royal as u8));
    if others.is_empty() {
        return true;
    }
    if others.count() == 1 {
        let lone = pos.piece_at(others.lsb()).map(|p| p.kind.index());
        if lone.is_some_and(|t| rules.variant.rules.lone_minors.contains(&t)) {
            return true;
        }
    }
    let all_bound = others.into_iter().all(|sq| {
        pos.piece_at(sq)
            .map(|p| colourbound(rules, p.kind))
            .unwrap_or(false)
    });
    if all_bound {
        let dark = others & rules.dark;
        return dark.is_empty() || dark == others;
    }
    false
}

/// The result of a position alone (mate, stalemate, move limit, material), without history.
pub fn position_outcome(rules: &Rules, pos: &Position) -> Option<Outcome> {
    if let Some(RuleEnd { winner, rule }) = pos.rule_end(rules) {
        return Some(Outcome::Rule { winner, rule });
    }
    let moves = pos.legal_moves(rules);
    if moves.is_empty() {
        let us = pos.side_to_move();
        if pos.in_check(rules) {
            return Some(Outcome::Checkmate { winner: us.other() });
        }
        let winner = match rules.variant.rules.stalemate {
            StalemateResult::Draw => return Some(Outcome::Stalemate),
            StalemateResult::Loses => us.other(),
            StalemateResult::Wins => us,
        };
        return Some(Outcome::Rule {
            winner: Some(winner),
            rule: EndRule::Stalemate,
        });
    }
    if insufficient_material(rules, pos) {
        return Some(Outcome::InsufficientMaterial);
    }
    let limit = rules.variant.rules.fifty_move_plies;
    if limit > 0 && pos.halfmove_clock() >= limit {
        return Some(Outcome::MoveLimit);
    }
    None
}

/// A game in progress or finished: the positions and moves so far, and how it ended.
///
/// ```
/// use modern_chess::{catalog, notation, Colour, Game, Outcome, Position};
///
/// let rules = catalog::load_rules("chess").unwrap();
/// let fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
/// let mut game = Game::new(Position::from_fen(&rules, fen).unwrap());
/// for san in ["f3", "e5", "g4", "Qh4#"] {
///     let m = notation::parse_san(&rules, game.current(), san).unwrap();
///     game.play(&rules, m).unwrap();
/// }
/// let mate = Outcome::Checkmate { winner: Colour::Black };
/// assert_eq!(game.outcome(&rules), Some(mate));
/// assert_eq!(mate.result(), "0-1");
/// ```
#[derive(Clone, Debug)]
pub struct Game {
    positions: Vec<Position>,
    moves: Vec<Move>,
    resigned: Option<Colour>,
    agreed_draw: bool,
}

impl Game {
    /// A game that starts from `start`, with no move played.
    pub fn new(start: Position) -> Game {
        Game {
            positions: vec![start],
            moves: Vec::new(),
            resigned: None,
            agreed_draw: false,
        }
    }
    /// The position the game started from.
    pub fn start(&self) -> &Position {
        &self.positions[0]
    }
    /// The position now (after the last move).
    pub fn current(&self) -> &Position {
        self.positions.last().unwrap_or(&self.positions[0])
    }
    /// The moves played, in order.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }
    /// Positions before each move, then the current one.
    pub fn positions(&self) -> &[Position] {
        &self.positions
    }

    /// Plays a move if it is legal and the game is not over.
    ///
    /// # Errors
    /// When the game is over or the move is illegal; the game is unchanged.
    pub fn play(&mut self, rules: &Rules, m: Move) -> Result<(), PlayError> {
        if let Some(outcome) = self.outcome(rules) {
            let description = outcome.describe(rules);
            return Err(PlayError::GameOver {
                outcome,
                description,
            });
        }
        let next = self.current().play(rules, m).map_err(PlayError::Illegal)?;
        self.positions.push(next);
        self.moves.push(m);
        Ok(())
    }

    /// Takes back the last move; false when there is none.
    pub fn undo(&mut self) -> bool {
        self.resigned = None;
        self.agreed_draw = false;
        if self.moves.pop().is_some() {
            self.positions.pop();
            true
        } else {
            false
        }
    }

    /// The side `loser` resigns.
    pub fn resign(&mut self, loser: Colour) {
        self.resigned = Some(loser);
    }
    /// The players agree to a draw (or a referee adjudicates one).
    pub fn agree_draw(&mut self) {
        self.agreed_draw = true;
    }

    /// How many times the current position has occurred (same pieces, side, rights).
    pub fn repetitions(&self) -> usize {
        let cur = self.current();
        let window = cur.halfmove_clock() as usize + 1;
        self.positions
            .iter()
            .rev()
            .take(window)
            .filter(|p| p.hash() == cur.hash())
            .count()
    }

    /// The result, if the game has ended.
    pub fn outcome(&self, rules: &Rules) -> Option<Outcome> {
        if let Some(loser) = self.resigned {
            return Some(Outcome::Resignation {
                winner: loser.other(),
            });
        }
        if self.agreed_draw {
            return Some(Outcome::DrawAgreed);
        }
        if let Some(o) = position_outcome(rules, self.current()) {
            return Some(o);
        }
        let reps = rules.variant.rules.repetitions as usize;
        if reps > 0 && self.repetitions() >= reps {
            return Some(Outcome::Repetition);
        }
        None
    }
}
