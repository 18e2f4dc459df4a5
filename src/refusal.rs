//! Why a typed move is refused: the reason a person needs to correct it ("the knight on d2 is
//! pinned to the king by the bishop on b4"), not just "no legal move matches".
//!
//! The reader ([`crate::notation`]) first finds what the text asks for (a piece kind and a
//! destination, two squares, a castling side, a Bishop Adjustment) as an [`Intent`]; when no
//! legal move fits, [`explain`] compares it with the pseudo-legal moves and the piece's move
//! tables on an empty board, and names the first rule that stands in the way.

use crate::geometry::{Bitboard, Square};
use crate::movegen::MoveList;
use crate::piece::Colour;
use crate::position::{Move, MoveKind, Position};
use crate::rules::Rules;
use std::fmt;

/// What a typed move asks for, before legality.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Intent {
    /// SAN: a piece kind (the pawn when no letter), optional origin file and rank, destination.
    Piece {
        /// The piece kind (index into the variant's pieces).
        kind: usize,
        /// The origin file the text gives to tell pieces apart (`Nbd2`), from 0.
        file: Option<u8>,
        /// The origin rank the text gives (`R1a3`), from 0.
        rank: Option<u8>,
        /// The destination.
        to: Square,
    },
    /// Coordinates: origin and destination squares.
    Squares {
        /// Where the piece stands.
        from: Square,
        /// Where it goes.
        to: Square,
    },
    /// Castling on side 0 (queen side, `O-O-O`) or 1.
    Castle {
        /// 0 for the queen side, 1 for the king side.
        side: u8,
    },
    /// Bishop Adjustment `Bc<=>Q`: the bishop's letter and file, the partner's letter.
    Adjust {
        /// The adjusting piece's letter.
        bishop: char,
        /// The file it stands on, from 0.
        file: u8,
        /// The letter of the piece it swaps with.
        partner: char,
    },
}

/// A piece on a square, named for a message: "knight on d2".
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Placed {
    /// The piece's name for people ("knight").
    pub name: String,
    /// Its square's name ("d2").
    pub square: String,
}

impl fmt::Display for Placed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} on {}", self.name, self.square)
    }
}

/// The reason a move cannot be played. Names are resolved when it is made, so it prints
/// without the rules.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// The side to move has no piece of that kind where the text says (`place` is
    /// ` on the g-file`, ` on rank 3`, ` on g3`, or empty).
    NoSuchPiece {
        /// The kind's name ("knight").
        piece: String,
        /// Where the text looked: ` on the g-file`, ` on rank 3`, ` on g3`, or empty.
        place: String,
    },
    /// Coordinates from an empty square.
    NoPieceOn {
        /// The empty origin square.
        square: String,
    },
    /// Coordinates from the other side's piece.
    NotYourPiece {
        /// The other side's piece on the origin square.
        piece: Placed,
    },
    /// The piece does not move that way at all.
    CannotMoveThere {
        /// The piece that was to move.
        piece: Placed,
        /// The destination square.
        to: String,
    },
    /// No piece of the kind moves that way (several were tried).
    NoneCanReach {
        /// The kind's name ("knight").
        piece: String,
        /// The destination square.
        to: String,
    },
    /// The destination holds a piece of the side to move.
    OwnPieceOnTarget {
        /// The destination square.
        to: String,
        /// The own piece standing there.
        occupant: Placed,
    },
    /// A piece stands between.
    PathBlocked {
        /// The piece that was to move.
        piece: Placed,
        /// The first piece in the way.
        blocker: Placed,
    },
    /// The piece moves there only by capturing, and the square is empty.
    NothingToCapture {
        /// The piece that was to move.
        piece: Placed,
        /// The destination square.
        to: String,
    },
    /// The piece moves there only without capturing, and an enemy piece stands there.
    CannotCaptureThere {
        /// The piece that was to move.
        piece: Placed,
        /// The enemy piece standing there.
        occupant: Placed,
    },
    /// An initial-only move (a pawn's double step) from a square that is not the start.
    OnlyFromStart {
        /// The piece that was to move.
        piece: Placed,
        /// The destination square.
        to: String,
    },
    /// Moving the piece would expose the king to `pinner`.
    PinnedToKing {
        /// The piece that was to move.
        piece: Placed,
        /// The enemy piece that pins it.
        pinner: Placed,
    },
    /// The king is in check and the move does not answer it.
    InCheck {
        /// The pieces giving check.
        checkers: Vec<Placed>,
    },
    /// The king would stand attacked on its destination.
    KingWouldBeInCheck {
        /// The destination square.
        to: String,
        /// An enemy piece attacking the destination, when one is found.
        attacker: Option<Placed>,
    },
    /// The variant has no castling.
    NoCastling,
    /// The king or that rook has moved (or the rook is gone).
    CastlingRightLost {
        /// The castling as the variant writes it (`O-O`, `O-O-O`).
        notation: String,
    },
    /// Castling out of check.
    CastlingInCheck {
        /// The castling as the variant writes it (`O-O`, `O-O-O`).
        notation: String,
    },
    /// A square the king or rook needs is occupied.
    CastlingBlocked {
        /// The castling as the variant writes it (`O-O`, `O-O-O`).
        notation: String,
        /// The piece in the way.
        occupant: Placed,
    },
    /// The king would pass through or land on an attacked square.
    CastlingThroughCheck {
        /// The castling as the variant writes it (`O-O`, `O-O-O`).
        notation: String,
        /// The attacked square the king would cross or reach.
        square: String,
    },
    /// The variant has no Bishop Adjustment.
    NoAdjustment,
    /// No bishop of the side to move on that file.
    AdjustNoBishop {
        /// The file letter the text gave.
        file: char,
    },
    /// No partner with that letter beside the bishop.
    AdjustPartnerNotBeside {
        /// The bishop that was to adjust.
        bishop: Placed,
        /// The partner's kind name, as the text gave it.
        partner: String,
    },
    /// The bishop or the partner has moved (or adjusted) already.
    AdjustRightUsed {
        /// The piece that was to move.
        piece: Placed,
    },
    /// Adjusting out of check.
    AdjustInCheck,
    /// That kind of piece may not be an adjustment partner.
    AdjustPartnerNotAllowed {
        /// The piece the text named as partner.
        partner: Placed,
    },
    /// A promotion letter on a move that does not promote.
    NotAPromotion {
        /// The piece letter the text gave.
        letter: char,
    },
    /// A pawn reaching the last rank must name its new piece.
    PromotionNeedsPiece {
        /// The kinds a pawn may become, as letters.
        choices: String,
    },
    /// A letter that is not among the promotion pieces.
    NotAPromotionPiece {
        /// The piece letter the text gave.
        letter: char,
        /// The kinds a pawn may become, as letters.
        choices: String,
    },
    /// The move would leave the king attacked (a case none of the above describes).
    LeavesKingInCheck,
    /// Nothing more specific was found.
    NoMatch,
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use Refusal::*;
        match self {
            NoSuchPiece { piece, place } if place.is_empty() => write!(f, "you have no {piece}"),
            NoSuchPiece { piece, place } => write!(f, "you have no {piece}{place}"),
            NoPieceOn { square } => write!(f, "there is no piece on {square}"),
            NotYourPiece { piece } => write!(f, "the {piece} is not yours"),
            CannotMoveThere { piece, to } => write!(f, "the {piece} cannot move to {to}"),
            NoneCanReach { piece, to } => write!(f, "none of your {piece}s can move to {to}"),
            OwnPieceOnTarget { to, occupant } => {
                write!(f, "{to} is occupied by your own {}", occupant.name)
            }
            PathBlocked { piece, blocker } => {
                write!(f, "the path of the {piece} is blocked by the {blocker}")
            }
            NothingToCapture { piece, to } => write!(
                f,
                "the {piece} can go to {to} only by capturing, and {to} is empty"
            ),
            CannotCaptureThere { piece, occupant } => write!(
                f,
                "the {piece} cannot capture the {occupant} (it goes there only without capturing)"
            ),
            OnlyFromStart { piece, to } => write!(
                f,
                "the {piece} can move to {to} only from its starting square"
            ),
            PinnedToKing { piece, pinner } => {
                write!(f, "the {piece} is pinned to the king by the {pinner}")
            }
            InCheck { checkers } => {
                let names: Vec<String> = checkers.iter().map(|c| format!("the {c}")).collect();
                write!(
                    f,
                    "your king is in check from {} and this move does not help",
                    names.join(" and ")
                )
            }
            KingWouldBeInCheck { to, attacker } => match attacker {
                Some(a) => write!(f, "the king would be in check on {to} from the {a}"),
                None => write!(f, "the king would be in check on {to}"),
            },
            NoCastling => write!(f, "this variant has no castling"),
            CastlingRightLost { notation } => write!(
                f,
                "{notation} is no longer possible: the king or that rook has moved"
            ),
            CastlingInCheck { notation } => write!(f, "{notation}: you cannot castle out of check"),
            CastlingBlocked { notation, occupant } => {
                write!(f, "{notation}: the {occupant} is in the way")
            }
            CastlingThroughCheck { notation, square } => write!(
                f,
                "{notation}: the king would cross or land on {square}, which is attacked"
            ),
            NoAdjustment => write!(f, "this variant has no Bishop Adjustment"),
            AdjustNoBishop { file } => write!(f, "you have no bishop on the {file}-file"),
            AdjustPartnerNotBeside { bishop, partner } => {
                write!(f, "there is no {partner} of yours beside the {bishop}")
            }
            AdjustRightUsed { piece } => write!(
                f,
                "the {piece} has already moved or adjusted, so the adjustment right is used"
            ),
            AdjustInCheck => write!(f, "you cannot make a Bishop Adjustment while in check"),
            AdjustPartnerNotAllowed { partner } => {
                write!(f, "the {partner} may not take part in a Bishop Adjustment")
            }
            NotAPromotion { letter } => {
                write!(f, "promotion to {letter} on a move that does not promote")
            }
            PromotionNeedsPiece { choices } => {
                write!(f, "a promotion needs its piece (one of {choices})")
            }
            NotAPromotionPiece { letter, choices } => write!(
                f,
                "`{letter}` is not a piece a pawn can promote to here (one of {choices})"
            ),
            LeavesKingInCheck => write!(f, "the move would leave your king in check"),
            NoMatch => write!(f, "no legal move matches"),
        }
    }
}

/// Why no legal move fits `intent` in `pos`.
pub fn explain(rules: &Rules, pos: &Position, intent: &Intent) -> Refusal {
    match *intent {
        Intent::Piece {
            kind,
            file,
            rank,
            to,
        } => {
            let geo = &rules.geo;
            let from: Vec<Square> = pos
                .pieces_of(pos.side_to_move(), kind)
                .into_iter()
                .filter(|&s| file.is_none_or(|f| geo.file(s) == f))
                .filter(|&s| rank.is_none_or(|r| geo.rank(s) == r))
                .collect();
            if from.is_empty() {
                let place = match (file, rank) {
                    (Some(f), Some(r)) => format!(" on {}", geo.square_name(geo.square(f, r))),
                    (Some(f), None) => {
                        format!(" on the {}-file", crate::geometry::Geometry::file_char(f))
                    }
                    (None, Some(r)) => format!(" on rank {}", r + 1),
                    (None, None) => String::new(),
                };
                return Refusal::NoSuchPiece {
                    piece: piece_name(rules, kind),
                    place,
                };
            }
            explain_candidates(rules, pos, kind, &from, to)
        }
        Intent::Squares { from, to } => match pos.kind_colour_at(from) {
            None => Refusal::NoPieceOn {
                square: rules.geo.square_name(from),
            },
            Some((_, c)) if c != pos.side_to_move() => Refusal::NotYourPiece {
                piece: placed(rules, pos, from),
            },
            Some(_) => explain_move(rules, pos, from, to),
        },
        Intent::Castle { side } => explain_castle(rules, pos, side),
        Intent::Adjust {
            bishop,
            file,
            partner,
        } => explain_adjust(rules, pos, bishop, file, partner),
    }
}

/// A piece kind's name for messages, lower case ("knight", "prime minister").
pub fn piece_name(rules: &Rules, kind: usize) -> String {
    let def = &rules.variant.pieces[kind];
    if def.name.is_empty() {
        def.letter.to_string()
    } else {
        def.name.to_lowercase()
    }
}

fn placed(rules: &Rules, pos: &Position, sq: Square) -> Placed {
    let name = pos.piece_at(sq).map_or_else(
        || "square".to_string(),
        |p| piece_name(rules, p.kind.index()),
    );
    Placed {
        name,
        square: rules.geo.square_name(sq),
    }
}

/// How much a reason tells: a rule about the king beats a blocked path beats "cannot".
fn weight(r: &Refusal) -> u8 {
    match r {
        Refusal::PinnedToKing { .. }
        | Refusal::InCheck { .. }
        | Refusal::KingWouldBeInCheck { .. }
        | Refusal::LeavesKingInCheck => 0,
        Refusal::CannotMoveThere { .. } => 2,
        Refusal::NoMatch => 3,
        _ => 1,
    }
}

fn explain_candidates(
    rules: &Rules,
    pos: &Position,
    kind: usize,
    from: &[Square],
    to: Square,
) -> Refusal {
    let reasons: Vec<Refusal> = from
        .iter()
        .map(|&f| explain_move(rules, pos, f, to))
        .collect();
    let best = reasons.iter().min_by_key(|r| weight(r)).cloned();
    match best {
        Some(Refusal::CannotMoveThere { .. }) if from.len() > 1 => Refusal::NoneCanReach {
            piece: piece_name(rules, kind),
            to: rules.geo.square_name(to),
        },
        Some(r) => r,
        None => Refusal::NoMatch,
    }
}

/// The squares the piece on `from` could capture on (the board as it is).
fn capture_targets(rules: &Rules, pos: &Position, from: Square) -> Bitboard {
    let Some((t, c)) = pos.kind_colour_at(from) else {
        return Bitboard::EMPTY;
    };
    let pm = rules.piece_moves(c, t);
    let occ = pos.occupied();
    let f = from as usize;
    let mut targets = pm.leap_capture[f];
    for r in pm.riders.iter().filter(|r| r.capture) {
        targets |= rules.rays[r.ray].attacks(from, occ);
    }
    for sp in pm.specials.iter().filter(|sp| sp.capture) {
        if sp.initial && !pm.initial_squares.has(from) {
            continue;
        }
        for &(sq, path) in &sp.targets[f] {
            if (path & occ).is_empty() {
                targets.set(sq);
            }
        }
    }
    targets
}

/// The pieces of colour `by` that attack `target`.
fn attackers(rules: &Rules, pos: &Position, target: Square, by: Colour) -> Vec<Square> {
    pos.colour_bb(by)
        .into_iter()
        .filter(|&s| capture_targets(rules, pos, s).has(target))
        .collect()
}

fn explain_move(rules: &Rules, pos: &Position, from: Square, to: Square) -> Refusal {
    let us = pos.side_to_move();
    let mut list = MoveList::new();
    pos.pseudo_moves(rules, &mut list);
    let pseudo: Vec<Move> = list
        .iter()
        .copied()
        .filter(|m| m.from == from && m.to == to)
        .filter(|m| !matches!(m.kind, MoveKind::Castle { .. } | MoveKind::Adjust))
        .collect();
    if let Some(&m) = pseudo.first() {
        return king_reason(rules, pos, m);
    }
    if let Some((_, c)) = pos.kind_colour_at(to) {
        if c == us {
            return Refusal::OwnPieceOnTarget {
                to: rules.geo.square_name(to),
                occupant: placed(rules, pos, to),
            };
        }
    }
    geometry_reason(rules, pos, from, to)
}

/// A pseudo-legal move that is illegal: what about the king forbids it.
fn king_reason(rules: &Rules, pos: &Position, m: Move) -> Refusal {
    let us = pos.side_to_move();
    let after = pos.play_unchecked(rules, m);
    let king_after = after.king_square(us);
    let attacker = attackers(rules, &after, king_after, us.other())
        .first()
        .copied();
    if pos.kind_colour_at(m.from).map(|p| p.0) == Some(rules.royal) {
        return Refusal::KingWouldBeInCheck {
            to: rules.geo.square_name(m.to),
            attacker: attacker.map(|a| placed(rules, &after, a)),
        };
    }
    if pos.in_check(rules) {
        let checkers = attackers(rules, pos, pos.king_square(us), us.other());
        if !checkers.is_empty() {
            return Refusal::InCheck {
                checkers: checkers.iter().map(|&s| placed(rules, pos, s)).collect(),
            };
        }
        return Refusal::LeavesKingInCheck;
    }
    match attacker {
        Some(a) => Refusal::PinnedToKing {
            piece: placed(rules, pos, m.from),
            pinner: placed(rules, &after, a),
        },
        None => Refusal::LeavesKingInCheck,
    }
}

/// The squares a piece reaches on an empty board: (quietly, by capture).
fn empty_board_reach(rules: &Rules, pos: &Position, from: Square) -> (Bitboard, Bitboard) {
    let Some((t, c)) = pos.kind_colour_at(from) else {
        return (Bitboard::EMPTY, Bitboard::EMPTY);
    };
    let pm = rules.piece_moves(c, t);
    let f = from as usize;
    let mut quiet = pm.leap_quiet[f];
    let mut capture = pm.leap_capture[f] | pm.ep_capture[f];
    for r in &pm.riders {
        let ray = rules.rays[r.ray].rays[f];
        if r.quiet {
            quiet |= ray;
        }
        if r.capture {
            capture |= ray;
        }
    }
    for sp in &pm.specials {
        for &(sq, _) in &sp.targets[f] {
            if sp.quiet {
                quiet.set(sq);
            }
            if sp.capture {
                capture.set(sq);
            }
        }
    }
    (quiet, capture)
}

/// A move the piece's pattern allows on an empty board but not here: what is in the way.
fn geometry_reason(rules: &Rules, pos: &Position, from: Square, to: Square) -> Refusal {
    let (quiet, capture) = empty_board_reach(rules, pos, from);
    let piece = placed(rules, pos, from);
    let to_name = rules.geo.square_name(to);
    let enemy_there = pos.kind_colour_at(to).is_some();
    let usable = if enemy_there { capture } else { quiet };
    if !usable.has(to) {
        return match (enemy_there, quiet.has(to), capture.has(to)) {
            (true, true, _) => Refusal::CannotCaptureThere {
                piece,
                occupant: placed(rules, pos, to),
            },
            (false, _, true) => Refusal::NothingToCapture { piece, to: to_name },
            _ => Refusal::CannotMoveThere { piece, to: to_name },
        };
    }
    if let Some(b) = blocker(rules, pos, from, to, enemy_there) {
        return Refusal::PathBlocked {
            piece,
            blocker: placed(rules, pos, b),
        };
    }
    Refusal::OnlyFromStart { piece, to: to_name }
}

/// The first piece standing on a path from `from` to `to` that the piece's moves use.
fn blocker(
    rules: &Rules,
    pos: &Position,
    from: Square,
    to: Square,
    capture: bool,
) -> Option<Square> {
    let (t, c) = pos.kind_colour_at(from)?;
    let pm = rules.piece_moves(c, t);
    let occ = pos.occupied();
    let f = from as usize;
    for r in &pm.riders {
        let rt = &rules.rays[r.ray];
        let fits = if capture { r.capture } else { r.quiet };
        if fits && rt.rays[f].has(to) {
            if let Some(b) = rt.first_blocker(from, occ).filter(|&b| b != to) {
                return Some(b);
            }
        }
    }
    for sp in &pm.specials {
        let fits = if capture { sp.capture } else { sp.quiet };
        if !fits || (sp.initial && !pm.initial_squares.has(from)) {
            continue;
        }
        for &(sq, path) in &sp.targets[f] {
            if sq == to && (path & occ).any() {
                return Some((path & occ).lsb());
            }
        }
    }
    None
}

fn castle_notation(rules: &Rules, side: u8) -> String {
    match &rules.castle_sides {
        Some(s) => s[side as usize & 1].notation.clone(),
        None => if side == 0 { "O-O-O" } else { "O-O" }.to_string(),
    }
}

/// Squares strictly between two squares of one rank.
fn between_on_rank(rules: &Rules, a: Square, b: Square) -> Vec<Square> {
    let geo = &rules.geo;
    let (fa, fb) = (geo.file(a), geo.file(b));
    let (lo, hi) = (fa.min(fb), fa.max(fb));
    (lo + 1..hi).map(|f| geo.square(f, geo.rank(a))).collect()
}

fn explain_castle(rules: &Rules, pos: &Position, side: u8) -> Refusal {
    if rules.castle_sides.is_none() {
        return Refusal::NoCastling;
    }
    let notation = castle_notation(rules, side);
    let us = pos.side_to_move();
    let Some(rook) = pos.castling_rooks(us)[side as usize & 1] else {
        return Refusal::CastlingRightLost { notation };
    };
    if pos.in_check(rules) {
        return Refusal::CastlingInCheck { notation };
    }
    let Some((kd, rd)) = rules.castle_targets(us, side as usize) else {
        return Refusal::NoCastling;
    };
    let king = pos.king_square(us);
    let mut needed = between_on_rank(rules, king, kd);
    needed.extend(between_on_rank(rules, rook, rd));
    needed.extend([kd, rd]);
    if let Some(&sq) = needed
        .iter()
        .find(|&&s| s != king && s != rook && pos.kind_colour_at(s).is_some())
    {
        return Refusal::CastlingBlocked {
            notation,
            occupant: placed(rules, pos, sq),
        };
    }
    let mut path = between_on_rank(rules, king, kd);
    path.push(kd);
    let them = us.other();
    if let Some(&sq) = path.iter().find(|&&s| pos.is_attacked(rules, s, them)) {
        return Refusal::CastlingThroughCheck {
            notation,
            square: rules.geo.square_name(sq),
        };
    }
    Refusal::NoMatch
}

fn explain_adjust(rules: &Rules, pos: &Position, bishop: char, file: u8, partner: char) -> Refusal {
    let Some(b) = rules.adjust_piece else {
        return Refusal::NoAdjustment;
    };
    let geo = &rules.geo;
    let us = pos.side_to_move();
    let letter_of = |sq: Square| {
        pos.kind_colour_at(sq)
            .filter(|p| p.1 == us)
            .map(|p| rules.variant.pieces[p.0].letter)
    };
    let bishops: Vec<Square> = pos
        .pieces_of(us, b)
        .into_iter()
        .filter(|&s| geo.file(s) == file && letter_of(s) == Some(bishop))
        .collect();
    let Some(&bsq) = bishops.first() else {
        return Refusal::AdjustNoBishop {
            file: crate::geometry::Geometry::file_char(file),
        };
    };
    let partner_sq = [-1, 1]
        .into_iter()
        .filter_map(|df| geo.offset(bsq, df, 0))
        .find(|&s| letter_of(s) == Some(partner));
    let Some(psq) = partner_sq else {
        let name = rules
            .variant
            .pieces
            .iter()
            .position(|p| p.letter == partner)
            .map_or_else(|| partner.to_string(), |t| piece_name(rules, t));
        return Refusal::AdjustPartnerNotBeside {
            bishop: placed(rules, pos, bsq),
            partner: name,
        };
    };
    if pos.in_check(rules) {
        return Refusal::AdjustInCheck;
    }
    let rights = pos.adjust_rights(us);
    for sq in [bsq, psq] {
        if !rights.has(sq) {
            return Refusal::AdjustRightUsed {
                piece: placed(rules, pos, sq),
            };
        }
    }
    let pt = pos.kind_colour_at(psq).map_or(0, |p| p.0);
    if rules.adjust_partners >> pt & 1 == 0 {
        return Refusal::AdjustPartnerNotAllowed {
            partner: placed(rules, pos, psq),
        };
    }
    Refusal::LeavesKingInCheck
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog;
    use crate::notation::{parse_san, SanError};
    use crate::setup;

    fn reason(rules: &Rules, fen: &str, text: &str) -> Refusal {
        let pos = Position::from_fen(rules, fen).unwrap();
        match parse_san(rules, &pos, text) {
            Err(SanError::Illegal { reason, .. }) => *reason,
            other => panic!("{text} in {fen}: {other:?}"),
        }
    }

    #[test]
    fn reasons_for_ordinary_moves() {
        let chess = catalog::load_rules("chess").unwrap();
        let pinned = "4k3/8/8/8/1b6/4n3/3P4/4K3 w - - 0 1";
        let r = reason(&chess, pinned, "dxe3");
        assert_eq!(
            r.to_string(),
            "the pawn on d2 is pinned to the king by the bishop on b4"
        );
        let r = reason(&chess, pinned, "d2e3");
        assert!(matches!(r, Refusal::PinnedToKing { .. }), "{r}");
        let blocked = "4k3/8/8/8/8/4n3/4P3/4K3 w - - 0 1";
        let r = reason(&chess, blocked, "e4");
        assert_eq!(
            r.to_string(),
            "the path of the pawn on e2 is blocked by the knight on e3"
        );
        let r = reason(&chess, blocked, "e3");
        assert!(matches!(r, Refusal::CannotCaptureThere { .. }), "{r}");
        let r = reason(&chess, blocked, "d3");
        assert!(matches!(r, Refusal::NothingToCapture { .. }), "{r}");
        let check = "4k3/8/8/8/8/8/3P4/r3K3 w - - 0 1";
        let r = reason(&chess, check, "d3");
        assert_eq!(
            r.to_string(),
            "your king is in check from the rook on a1 and this move does not help"
        );
        let r = reason(&chess, check, "Kf1");
        assert_eq!(
            r.to_string(),
            "the king would be in check on f1 from the rook on a1"
        );
        let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
        let r = reason(&chess, start, "Nd2");
        assert_eq!(r.to_string(), "d2 is occupied by your own pawn");
        let r = reason(&chess, start, "Bb2");
        assert!(matches!(r, Refusal::OwnPieceOnTarget { .. }), "{r}");
        let r = reason(&chess, start, "Bd3");
        assert!(matches!(r, Refusal::PathBlocked { .. }), "{r}");
        let r = reason(&chess, start, "Ne4");
        assert!(matches!(r, Refusal::NoneCanReach { .. }), "{r}");
        let r = reason(&chess, start, "e3e4");
        assert_eq!(r.to_string(), "there is no piece on e3");
        let r = reason(&chess, start, "O-O");
        assert!(matches!(r, Refusal::CastlingBlocked { .. }), "{r}");
    }

    #[test]
    fn reasons_for_bishop_adjustment() {
        let mrc = catalog::load_rules("mrc").unwrap();
        let sp = setup::parse_back_rank(&mrc.variant, "BQRMBNKNR").unwrap();
        let fen = setup::start_fen(&mrc.variant, &sp);
        // Bishops on a1 and e1; the queen is on b1, beside a1 only.
        let r = reason(&mrc, &fen, "Be<=>Q");
        assert_eq!(
            r.to_string(),
            "there is no queen of yours beside the bishop on e1"
        );
        let r = reason(&mrc, &fen, "Bc<=>Q");
        assert_eq!(r.to_string(), "you have no bishop on the c-file");
        // After Ba<=>Q the bishop stands on b1 with its right used.
        let mut pos = Position::from_fen(&mrc, &fen).unwrap();
        for text in ["Ba<=>Q", "a7"] {
            let m = parse_san(&mrc, &pos, text).unwrap();
            pos = pos.play(&mrc, m).unwrap();
        }
        let r = reason(&mrc, &pos.fen(&mrc), "Bb<=>R");
        assert_eq!(
            r.to_string(),
            "the bishop on b1 has already moved or adjusted, so the adjustment right is used"
        );
    }
}
