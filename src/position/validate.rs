//! From a [`Setup`] to a [`Position`]: one named check per rule, each with its own
//! [`PositionError`] kind.
//!
//! The checks run in a fixed order (board, kings, pawn ranks, castling, en passant, clocks,
//! adjustment, the side not to move in check), so the first broken rule is reported. Three
//! kinds describe rights rather than the placement (castling, en passant, adjustment):
//! [`Position::from_setup_lenient`] drops those and returns them as warnings, which is what a
//! GUI front end wants for FENs like XBoard's `setboard ... KQ b7`.

use super::MAX_MOVES;
use super::{EnPassant, Position};
use crate::fen::{
    parse_fen, CastlingRight, CastlingRook, CastlingSide, FenError, Setup, MAX_CLOCK,
};
use crate::geometry::{Bitboard, Geometry, Square};
use crate::piece::Colour;
use crate::rules::Rules;
use crate::setup::{start_setup, StartPosition};
use std::fmt;

/// Why a castling right does not fit the position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CastlingProblem {
    /// The variant has no castling.
    NoCastling,
    /// The king is not on its castling rank.
    KingNotOnCastlingRank,
    /// `K`/`Q`: no rook on that side of the king.
    NoRookOnSide,
    /// No castling rook on the square the letter names.
    NoRook {
        /// The square named, e.g. `h1`.
        square: String,
    },
    /// A second castling rook on a side that already has one.
    TwoRooksOnOneSide,
}

/// Why a position cannot be made from a [`Setup`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PositionError {
    /// The board has a different number of squares than the variant's.
    BoardSize {
        /// Squares of the variant's board.
        squares: usize,
        /// Entries in the setup's board.
        given: usize,
    },
    /// A piece kind the variant does not define.
    UnknownPiece {
        /// Where it stands.
        square: String,
    },
    /// A side without its royal piece.
    MissingRoyal {
        /// The side.
        colour: Colour,
        /// The royal piece's name, lower case.
        royal: String,
    },
    /// A side with more than one royal piece.
    SeveralRoyals {
        /// The side.
        colour: Colour,
        /// The royal piece's name, lower case.
        royal: String,
    },
    /// A pawn on its promotion rank.
    PawnOnPromotionRank {
        /// Where it stands.
        square: String,
    },
    /// A pawn behind its starting rank.
    PawnBehindStartRank {
        /// Where it stands.
        square: String,
    },
    /// A castling right that does not fit (droppable).
    Castling {
        /// The right's FEN letter.
        letter: char,
        /// What is wrong.
        problem: CastlingProblem,
    },
    /// An en passant square no pawn could have made with a double step (droppable).
    InvalidEpSquare {
        /// The square named.
        square: String,
    },
    /// Clock values above [`MAX_CLOCK`].
    ClocksTooLarge,
    /// The variant has no Bishop Adjustment, but the setup gives the right (droppable).
    NoAdjustment,
    /// An adjustment right for a square without an own piece on the piece rank (droppable).
    AdjustmentWithoutPiece {
        /// The right's FEN letter.
        letter: char,
        /// The side.
        colour: Colour,
        /// The square named.
        square: String,
    },
    /// The side not to move is in check.
    OppositeCheck,
    /// So many pieces that a side could one day have more moves than a move list holds.
    TooManyMoves {
        /// The side.
        colour: Colour,
        /// The bound on its moves.
        bound: usize,
    },
}

impl PositionError {
    /// True for the kinds that describe a right rather than the placement: a lenient reader
    /// drops the right and goes on.
    pub fn is_droppable(&self) -> bool {
        matches!(
            self,
            PositionError::Castling { .. }
                | PositionError::InvalidEpSquare { .. }
                | PositionError::NoAdjustment
                | PositionError::AdjustmentWithoutPiece { .. }
        )
    }

    /// The FEN field the error belongs to (as [`FenError::field`] names it).
    pub fn fen_field(&self) -> &'static str {
        match self {
            PositionError::Castling { .. } => "castling",
            PositionError::InvalidEpSquare { .. } => "en passant",
            PositionError::ClocksTooLarge => "fullmove number",
            PositionError::NoAdjustment | PositionError::AdjustmentWithoutPiece { .. } => {
                "adjustment"
            }
            _ => "placement",
        }
    }
}

impl fmt::Display for CastlingProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CastlingProblem::NoCastling => write!(f, "this variant has no castling"),
            CastlingProblem::KingNotOnCastlingRank => {
                write!(f, "the king is not on its castling rank")
            }
            CastlingProblem::NoRookOnSide => write!(f, "no rook on that side of the king"),
            CastlingProblem::NoRook { square } => write!(f, "no castling rook on {square}"),
            CastlingProblem::TwoRooksOnOneSide => {
                write!(f, "two castling rooks on one side of the king")
            }
        }
    }
}

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use PositionError as E;
        match self {
            E::BoardSize { squares, given } => {
                write!(f, "{given} squares given, the board has {squares}")
            }
            E::UnknownPiece { square } => write!(f, "unknown piece kind on {square}"),
            E::MissingRoyal { colour, royal } => write!(f, "{} has no {royal}", colour.name()),
            E::SeveralRoyals { colour, royal } => {
                write!(f, "{} has more than one {royal}", colour.name())
            }
            E::PawnOnPromotionRank { square } => {
                write!(f, "pawn on {square}, its promotion rank")
            }
            E::PawnBehindStartRank { square } => {
                write!(f, "pawn on {square}, behind its starting rank")
            }
            E::Castling {
                problem: p @ CastlingProblem::NoCastling,
                ..
            } => write!(f, "{p}"),
            E::Castling { letter, problem } => write!(f, "`{letter}`: {problem}"),
            E::InvalidEpSquare { square } => write!(
                f,
                "{square} is not behind a pawn that could just have made a double step"
            ),
            E::ClocksTooLarge => write!(f, "clock values are too large"),
            E::NoAdjustment => write!(f, "this variant has no Bishop Adjustment"),
            E::AdjustmentWithoutPiece {
                letter,
                colour,
                square,
            } => write!(f, "`{letter}`: no {} piece on {square}", colour.name()),
            E::OppositeCheck => write!(f, "the side not to move is in check"),
            E::TooManyMoves { colour, bound } => write!(
                f,
                "{} could have up to {bound} moves, more than the {MAX_MOVES} a move list holds",
                colour.name()
            ),
        }
    }
}
impl std::error::Error for PositionError {}

impl From<PositionError> for FenError {
    fn from(e: PositionError) -> FenError {
        FenError {
            field: e.fen_field(),
            message: e.to_string(),
        }
    }
}

/// Where the errors of droppable kinds go: strict mode refuses the setup, lenient mode drops
/// the right and keeps the error as a warning.
struct Rights<'a> {
    warnings: Option<&'a mut Vec<PositionError>>,
}

impl Rights<'_> {
    fn refuse(&mut self, e: PositionError) -> Result<(), PositionError> {
        match &mut self.warnings {
            Some(w) => {
                w.push(e);
                Ok(())
            }
            None => Err(e),
        }
    }
}

impl Position {
    /// Reads a FEN as RULES.md defines it: six standard fields (the clocks may be missing)
    /// and an optional seventh with the Bishop Adjustment rights ([`parse_fen`], then
    /// [`Position::from_setup`]).
    ///
    /// # Errors
    /// Names the field and what is wrong: bad rank lengths, unknown letters, a missing or
    /// extra king, pawns on a rank they can never stand on, castling rights without a rook or
    /// king, an impossible en passant square, the side not to move in check.
    pub fn from_fen(rules: &Rules, fen: &str) -> Result<Position, FenError> {
        let setup = parse_fen(rules, fen)?;
        Ok(Position::from_setup(rules, setup)?)
    }

    /// As [`Position::from_fen`], but castling, en passant and adjustment rights that do not
    /// fit are dropped and returned as warnings.
    ///
    /// # Errors
    /// As [`Position::from_fen`], for every other kind of error.
    pub fn from_fen_lenient(
        rules: &Rules,
        fen: &str,
    ) -> Result<(Position, Vec<PositionError>), FenError> {
        let setup = parse_fen(rules, fen)?;
        Ok(Position::from_setup_lenient(rules, setup)?)
    }

    /// A start position of the variant (see [`setup`](crate::setup)), built directly
    /// rather than through a FEN.
    ///
    /// # Errors
    /// Only when the variant file itself allows an illegal start (e.g. a pawn rank that is
    /// also the promotion rank).
    pub fn from_start(rules: &Rules, start: &StartPosition) -> Result<Position, PositionError> {
        Position::from_setup(rules, start_setup(&rules.variant, start))
    }

    /// The position a setup describes, if it is legal.
    ///
    /// # Errors
    /// The first rule the setup breaks (see [`PositionError`]).
    pub fn from_setup(rules: &Rules, setup: Setup) -> Result<Position, PositionError> {
        build(rules, &setup, Rights { warnings: None })
    }

    /// The position a setup describes, with the rights that do not fit dropped (the kinds for
    /// which [`PositionError::is_droppable`] holds); the dropped ones are returned.
    ///
    /// # Errors
    /// The first rule about the placement the setup breaks.
    pub fn from_setup_lenient(
        rules: &Rules,
        setup: Setup,
    ) -> Result<(Position, Vec<PositionError>), PositionError> {
        let mut warnings = Vec::new();
        let pos = build(
            rules,
            &setup,
            Rights {
                warnings: Some(&mut warnings),
            },
        )?;
        Ok((pos, warnings))
    }
}

/// The checks in order; `rights` decides what happens to rights that do not fit.
fn build(rules: &Rules, setup: &Setup, mut rights: Rights) -> Result<Position, PositionError> {
    let mut p = place_pieces(rules, setup)?;
    p.king = check_royals(rules, &p)?;
    check_move_bound(rules, &p)?;
    check_pawn_ranks(rules, &p)?;
    p.side = setup.turn;
    p.castle = castling_rooks(rules, &p, &setup.castling, &mut rights)?;
    set_en_passant(rules, &mut p, setup.ep_square, &mut rights)?;
    if setup.halfmove_clock > MAX_CLOCK || setup.fullmove_number > MAX_CLOCK {
        return Err(PositionError::ClocksTooLarge);
    }
    p.halfmove = setup.halfmove_clock;
    p.fullmove = setup.fullmove_number.max(1);
    p.adjust = adjustment_rights(rules, &p, setup, &mut rights)?;
    check_opposite_check(rules, &p)?;
    p.hash = p.compute_hash(rules);
    // Keep the en passant square only when the capture is legal (as after a move).
    if p.ep.is_some() && !p.ep_capture_legal(rules) {
        p.ep = None;
        p.hash = p.compute_hash(rules);
    }
    Ok(p)
}

fn square_name(geo: &Geometry, sq: Square) -> String {
    if (sq as usize) < geo.squares() {
        geo.square_name(sq)
    } else {
        format!("square {sq}")
    }
}

/// The pieces on an otherwise empty position.
fn place_pieces(rules: &Rules, setup: &Setup) -> Result<Position, PositionError> {
    let squares = rules.geo.squares();
    if setup.board.len() != squares {
        return Err(PositionError::BoardSize {
            squares,
            given: setup.board.len(),
        });
    }
    let mut p = Position::empty();
    for (sq, piece) in setup.board.iter().enumerate() {
        let Some(piece) = piece else { continue };
        if piece.kind.index() >= rules.n_types {
            return Err(PositionError::UnknownPiece {
                square: rules.geo.square_name(sq as Square),
            });
        }
        p.put(rules, piece.colour, piece.kind.index(), sq as Square);
    }
    Ok(p)
}

/// Exactly one royal piece per side; returns their squares.
fn check_royals(rules: &Rules, p: &Position) -> Result<[Square; 2], PositionError> {
    let royal = rules.variant.pieces[rules.royal].name.to_lowercase();
    let mut king = [0; 2];
    for colour in Colour::ALL {
        let kings = p.pieces_of(colour, rules.royal);
        if kings.is_empty() {
            return Err(PositionError::MissingRoyal { colour, royal });
        }
        if kings.more_than_one() {
            return Err(PositionError::SeveralRoyals { colour, royal });
        }
        king[colour] = kings.lsb();
    }
    Ok(king)
}

/// Every move list of this position and of every position after it fits a
/// [`MoveList`](crate::movegen::MoveList): the
/// sum of the pieces' move bounds (plus castling and adjustment) stays within [`MAX_MOVES`].
fn check_move_bound(rules: &Rules, p: &Position) -> Result<(), PositionError> {
    for colour in Colour::ALL {
        let mut bound = 2; // castling
        for t in 0..rules.n_types {
            let n = p.pieces_of(colour, t).count() as usize;
            let adjust = if Some(t) == rules.adjust_piece { 2 } else { 0 };
            bound += n * (rules.move_bound[t] + adjust);
        }
        if bound > MAX_MOVES {
            return Err(PositionError::TooManyMoves { colour, bound });
        }
    }
    Ok(())
}

/// No pawn on its promotion rank or behind its starting rank.
fn check_pawn_ranks(rules: &Rules, p: &Position) -> Result<(), PositionError> {
    let (Some(pawn), Some((_, start))) = (rules.pawn, rules.variant.setup.pawn) else {
        return Ok(());
    };
    let geo = &rules.geo;
    for c in Colour::ALL {
        for sq in p.pieces_of(c, pawn) {
            let relative_rank = if c == Colour::White {
                geo.rank(sq)
            } else {
                geo.ranks - 1 - geo.rank(sq)
            };
            let square = geo.square_name(sq);
            if rules.promotion_zone[c].has(sq) {
                return Err(PositionError::PawnOnPromotionRank { square });
            }
            if relative_rank < start {
                return Err(PositionError::PawnBehindStartRank { square });
            }
        }
    }
    Ok(())
}

/// The castling rook squares per colour, `[a-side, other side]`.
fn castling_rooks(
    rules: &Rules,
    p: &Position,
    list: &[CastlingRight],
    rights: &mut Rights,
) -> Result<[[Option<Square>; 2]; 2], PositionError> {
    let mut castle = [[None; 2]; 2];
    for right in list {
        let c = right.colour;
        match castling_rook(rules, p, right) {
            Ok((side, sq)) if castle[c][side].is_none_or(|r| r == sq) => {
                castle[c][side] = Some(sq);
            }
            Ok(_) => rights.refuse(PositionError::Castling {
                letter: right.letter(),
                problem: CastlingProblem::TwoRooksOnOneSide,
            })?,
            Err(problem) => rights.refuse(PositionError::Castling {
                letter: right.letter(),
                problem,
            })?,
        }
    }
    Ok(castle)
}

/// The side (0: a-side) and square of the rook one castling right names.
fn castling_rook(
    rules: &Rules,
    p: &Position,
    right: &CastlingRight,
) -> Result<(usize, Square), CastlingProblem> {
    let geo = &rules.geo;
    let Some(rook) = rules.castle_rook else {
        return Err(CastlingProblem::NoCastling);
    };
    let c = right.colour;
    let rank = rules.castle_rank[c];
    let king = p.king[c];
    if geo.rank(king) != rank {
        return Err(CastlingProblem::KingNotOnCastlingRank);
    }
    let kf = geo.file(king);
    let rooks = p.pieces_of(c, rook) & geo.rank_mask(rank);
    let file = match right.rook {
        CastlingRook::Outermost(side) => {
            let mut files = rooks.map(|sq| geo.file(sq));
            let found = match side {
                CastlingSide::HSide => files.filter(|&f| f > kf).last(),
                CastlingSide::ASide => files.find(|&f| f < kf),
            };
            found.ok_or(CastlingProblem::NoRookOnSide)?
        }
        CastlingRook::File(f) => f,
    };
    if file >= geo.files || !rooks.has(geo.square(file, rank)) {
        return Err(CastlingProblem::NoRook {
            square: format!("{}{}", Geometry::file_char(file), rank as u32 + 1),
        });
    }
    let side = if file < kf { 0 } else { 1 };
    Ok((side, geo.square(file, rank)))
}

/// The en passant square, if a pawn of the side not to move could just have made a double
/// step over it; dropped when no capture onto it is even pseudo-legal.
fn set_en_passant(
    rules: &Rules,
    p: &mut Position,
    ep: Option<Square>,
    rights: &mut Rights,
) -> Result<(), PositionError> {
    let Some(sq) = ep else { return Ok(()) };
    let Some(victim) = ep_victim(rules, p, sq) else {
        return rights.refuse(PositionError::InvalidEpSquare {
            square: square_name(&rules.geo, sq),
        });
    };
    p.ep = Some(EnPassant { square: sq, victim });
    if !p.ep_capture_possible(rules) {
        p.ep = None;
    }
    Ok(())
}

/// The pawn that made the double step over `sq`, if the position allows one.
fn ep_victim(rules: &Rules, p: &Position, sq: Square) -> Option<Square> {
    let geo = &rules.geo;
    if sq as usize >= geo.squares() {
        return None;
    }
    let them = p.side.other();
    let forward: i32 = if them == Colour::White { 1 } else { -1 };
    let pawn = rules.pawn?;
    let victim = geo.offset(sq, 0, forward)?;
    let origin = geo.offset(sq, 0, -forward)?;
    let (_, start) = rules.variant.setup.pawn?;
    let origin_rank = if them == Colour::White {
        start
    } else {
        geo.ranks - 1 - start
    };
    (p.pieces_of(them, pawn).has(victim)
        && p.piece_at(sq).is_none()
        && p.piece_at(origin).is_none()
        && geo.rank(origin) == origin_rank)
        .then_some(victim)
}

/// Adjustment rights only on the own pieces (not pawns) of each side's piece rank.
fn adjustment_rights(
    rules: &Rules,
    p: &Position,
    setup: &Setup,
    rights: &mut Rights,
) -> Result<[Bitboard; 2], PositionError> {
    let mut adjust = [Bitboard::EMPTY; 2];
    if setup.adjustment.0.iter().all(|b| b.is_empty()) {
        return Ok(adjust);
    }
    if rules.adjust_piece.is_none() {
        rights.refuse(PositionError::NoAdjustment)?;
        return Ok(adjust);
    }
    for colour in Colour::ALL {
        let c = colour;
        for sq in setup.adjustment[colour] {
            let own_piece = (sq as usize) < rules.geo.squares()
                && rules.geo.rank(sq) == rules.piece_rank[c]
                && p.piece_at(sq)
                    .is_some_and(|pc| pc.colour == c && Some(pc.kind.index()) != rules.pawn);
            if own_piece {
                adjust[c].set(sq);
                continue;
            }
            rights.refuse(PositionError::AdjustmentWithoutPiece {
                letter: colour.cased(Geometry::file_char(rules.geo.file(sq))),
                colour,
                square: square_name(&rules.geo, sq),
            })?;
        }
    }
    Ok(adjust)
}

/// The side that just moved may not have left its king attacked.
fn check_opposite_check(rules: &Rules, p: &Position) -> Result<(), PositionError> {
    let us = p.side;
    if p.is_attacked(rules, p.king[us.other()], us) {
        return Err(PositionError::OppositeCheck);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog;

    #[test]
    fn each_rule_has_its_own_kind() {
        let chess = catalog::load_rules("chess").unwrap();
        let kind = |fen: &str| Position::from_setup(&chess, parse_fen(&chess, fen).unwrap()).err();
        assert!(matches!(
            kind("8/8/8/8/8/8/8/4K3 w - - 0 1"),
            Some(PositionError::MissingRoyal {
                colour: Colour::Black,
                ..
            })
        ));
        assert!(matches!(
            kind("4k3/8/8/8/8/8/8/4K3 w K - 0 1"),
            Some(PositionError::Castling {
                letter: 'K',
                problem: CastlingProblem::NoRookOnSide
            })
        ));
        assert_eq!(
            kind("4k3/4R3/8/8/8/8/8/4K3 w - - 0 1"),
            Some(PositionError::OppositeCheck)
        );
    }

    #[test]
    fn positions_whose_moves_could_overflow_a_move_list_are_refused() {
        let chess = catalog::load_rules("chess").unwrap();
        // Every shipped start position is far inside the bound.
        for name in ["mrc", "merc", "icrc", "pmrc", "crc"] {
            let rules = catalog::load_rules(name).unwrap();
            let sp = crate::setup::from_id(&rules.variant, 0).unwrap();
            assert!(Position::from_start(&rules, &sp).is_ok(), "{name}");
        }
        // Forty-seven queens could have up to 47 * 27 moves.
        let fen = "k7/8/QQQQQQQQ/QQQQQQQQ/QQQQQQQQ/QQQQQQQQ/QQQQQQQQ/QQQQQQQK b - - 0 1";
        let e = Position::from_setup(&chess, parse_fen(&chess, fen).unwrap()).unwrap_err();
        assert!(matches!(e, PositionError::TooManyMoves { .. }), "{e}");
    }

    #[test]
    fn lenient_reading_drops_rights_that_do_not_fit() {
        let chess = catalog::load_rules("chess").unwrap();
        // XBoard sends castling rights and an en passant square without checking them.
        let fen = "4k3/1P6/8/8/8/8/8/4K3 b KQ b7 0 1";
        let e = Position::from_setup(&chess, parse_fen(&chess, fen).unwrap()).unwrap_err();
        assert!(e.is_droppable(), "{e}");
        assert_eq!(
            Position::from_fen(&chess, fen).unwrap_err().field,
            "castling"
        );
        let (pos, warnings) = Position::from_fen_lenient(&chess, fen).unwrap();
        assert_eq!(pos.fen(&chess), "4k3/1P6/8/8/8/8/8/4K3 b - - 0 1");
        assert_eq!(warnings.len(), 3, "{warnings:?}");
        assert!(warnings
            .iter()
            .any(|w| matches!(w, PositionError::InvalidEpSquare { square } if square == "b7")));
        // A placement error is never dropped.
        assert!(Position::from_fen_lenient(&chess, "8/8/8/8/8/8/8/4K3 w - - 0 1").is_err());
    }
}
