//! Position: the state of a game at one moment (always legal: made by
//! [`Position::from_setup`] or by playing moves), make (copy-make) and the incremental hash.
//!
//! The position holds no heap data, so cloning it is a memcpy and copy-make is cheap. Castling
//! rights are rook squares (Fischer-Random style), so any rook may be the castling rook.
//! Bishop Adjustment rights are, per side, the set of its unmoved piece-rank squares; the set is
//! empty when the side has no right (never had it, or already adjusted).

mod validate;

pub use crate::fen::FenError;
pub use validate::{CastlingProblem, PositionError};

use crate::fen::{CastlingRight, CastlingRook, Setup};
use crate::geometry::{Bitboard, Square};
use crate::piece::{ByColour, Colour, Piece, PieceKind};
use crate::rules::{Rules, MAX_PIECE_TYPES};
use std::fmt;

/// What kind of move it is: decides how it is made and written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MoveKind {
    /// Any move not listed below (captures and promotions included).
    Normal,
    /// A pawn's initial lame double step (may create an en passant square).
    DoubleStep,
    /// A capture en passant; `to` is the square passed over.
    EnPassant,
    /// Castling; `to` is the castling rook's square (king takes own rook).
    Castle {
        /// 0: with the rook on the a-side of the king, 1: the other.
        side: u8,
    },
    /// Bishop Adjustment; `to` is the partner's square.
    Adjust,
}

/// A move: from and to squares, its kind, and the piece a pawn promotes to.
///
/// Moves come from a position's move list; castling is written as the king taking its rook:
/// ```
/// use modern_chess::{catalog, MoveKind, Position};
///
/// let rules = catalog::load_rules("chess").unwrap();
/// let pos = Position::from_fen(&rules, "r3k3/1P6/8/8/8/8/8/4K2R w Kq - 0 1").unwrap();
/// let moves = pos.legal_moves(&rules);
/// let castle = moves.iter().find(|m| m.is_castle()).unwrap();
/// assert_eq!(castle.kind, MoveKind::Castle { side: 1 });
/// assert_eq!(castle.uci(&rules), "e1h1");
/// let promotions = moves.iter().filter(|m| m.promo.is_some()).count();
/// assert_eq!(promotions, 8); // b8 and bxa8, each to Q, R, B or N
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    /// The square the moving piece (for castling the king, for adjustment the bishop) leaves.
    pub from: Square,
    /// The target square (for castling the rook's, for adjustment the partner's).
    pub to: Square,
    /// How the move is made.
    pub kind: MoveKind,
    /// The piece a pawn promotes to.
    pub promo: Option<PieceKind>,
}

impl Move {
    /// A move without promotion.
    pub const fn new(from: Square, to: Square, kind: MoveKind) -> Move {
        Move {
            from,
            to,
            kind,
            promo: None,
        }
    }
    /// Is it castling?
    pub fn is_castle(&self) -> bool {
        matches!(self.kind, MoveKind::Castle { .. })
    }
    /// Coordinate notation (`e2e4`, `f8f9m`; castling as king-takes-rook; adjustment as bishop
    /// square then partner square).
    pub fn uci(&self, rules: &Rules) -> String {
        let mut s = format!(
            "{}{}",
            rules.geo.square_name(self.from),
            rules.geo.square_name(self.to)
        );
        // A hand-made move may name no piece; it is still written, never a panic.
        if let Some(kind) = self.promo {
            let letter = rules.variant.pieces.get(kind.index());
            s.push(letter.map_or('?', |p| p.letter.to_ascii_lowercase()));
        }
        s
    }
}

/// The square passed over by the double step just played, and the pawn that made it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct EnPassant {
    pub(crate) square: Square,
    pub(crate) victim: Square,
}

/// Capacity of a move list. Enough by proof, not by hope: every position is made by
/// [`Position::from_setup`] (or by moves from one), which refuses a position whose pieces could
/// ever have more moves than this. The bound it checks (`Rules::move_bound`) adds, over a
/// side's pieces, the most targets the piece's kind (or, for a pawn, any kind it promotes to)
/// has from any square, times the promotion choices, plus castling and adjustment. The worst
/// shipped case is MERC or ICRC with all twenty pieces of a side promoted to queens: about 750.
pub const MAX_MOVES: usize = 1024;

/// A move that is not one of the legal moves of the position it was played in.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IllegalMove {
    /// The move refused.
    pub mv: Move,
    /// It in coordinates, for the message.
    pub uci: String,
}

impl fmt::Display for IllegalMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} is not legal here", self.uci)
    }
}

impl std::error::Error for IllegalMove {}

/// The state of a game at one moment, always legal: it is made from a checked [`Setup`] (or
/// FEN) and changed only by legal moves.
///
/// ```
/// use modern_chess::{catalog, notation, setup, Position};
///
/// let rules = catalog::load_rules("mrc").unwrap();
/// let start = setup::parse_back_rank(rules.variant(), "RNBMKQBNR").unwrap();
/// let pos = Position::from_fen(&rules, &setup::start_fen(rules.variant(), &start)).unwrap();
/// let e4 = notation::parse_san(&rules, &pos, "e4").unwrap();
/// let after = pos.play(&rules, e4).unwrap();
/// assert!(!after.in_check(&rules));
/// assert!(Position::from_fen(&rules, "9/9/9/9/9/9/9/9/9 w - - 0 1").is_err()); // no kings
/// ```
#[derive(Clone, PartialEq, Eq)]
pub struct Position {
    /// 0 empty, else `(kind << 1 | colour) + 1`.
    pub(crate) board: [u8; 128],
    pub(crate) by_colour: [Bitboard; 2],
    pub(crate) by_type: [Bitboard; MAX_PIECE_TYPES],
    pub(crate) side: Colour,
    /// Castling rook squares per colour: `[a-side, other side]`.
    pub(crate) castle: [[Option<Square>; 2]; 2],
    /// Kept only when a legal capture onto it exists.
    pub(crate) ep: Option<EnPassant>,
    pub(crate) adjust: [Bitboard; 2],
    pub(crate) halfmove: u32,
    pub(crate) fullmove: u32,
    pub(crate) king: [Square; 2],
    pub(crate) hash: u64,
}

#[inline]
pub(crate) fn code(colour: Colour, t: usize) -> u8 {
    ((t << 1) | colour as usize) as u8 + 1
}

impl Position {
    pub(crate) fn empty() -> Position {
        Position {
            board: [0; 128],
            by_colour: [Bitboard::EMPTY; 2],
            by_type: [Bitboard::EMPTY; MAX_PIECE_TYPES],
            side: Colour::White,
            castle: [[None; 2]; 2],
            ep: None,
            adjust: [Bitboard::EMPTY; 2],
            halfmove: 0,
            fullmove: 1,
            king: [0; 2],
            hash: 0,
        }
    }

    /// The side to move.
    #[inline]
    pub fn side_to_move(&self) -> Colour {
        self.side
    }
    /// The Zobrist hash (pieces, side, castling, en passant and adjustment rights).
    #[inline]
    pub fn hash(&self) -> u64 {
        self.hash
    }
    /// Every occupied square.
    #[inline]
    pub fn occupied(&self) -> Bitboard {
        self.by_colour[0] | self.by_colour[1]
    }
    /// The squares of one side's pieces.
    #[inline]
    pub fn colour_bb(&self, c: Colour) -> Bitboard {
        self.by_colour[c]
    }
    /// The squares of every piece of one kind, both colours.
    #[inline]
    pub fn kind_bb(&self, kind: PieceKind) -> Bitboard {
        self.by_type[kind.index()]
    }
    /// The squares of one side's pieces of one kind.
    #[inline]
    pub fn pieces(&self, c: Colour, kind: PieceKind) -> Bitboard {
        self.by_colour[c] & self.by_type[kind.index()]
    }
    /// The squares of every piece of one kind index, both colours (the crate's fast path).
    #[inline]
    pub(crate) fn type_bb(&self, t: usize) -> Bitboard {
        self.by_type[t]
    }
    #[inline]
    pub(crate) fn pieces_of(&self, c: Colour, t: usize) -> Bitboard {
        self.by_colour[c] & self.by_type[t]
    }
    /// The piece on a square.
    #[inline]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        let c = self.board[sq as usize];
        if c == 0 {
            None
        } else {
            Some(Piece {
                colour: Colour::from_index(((c - 1) & 1) as usize),
                kind: PieceKind((c - 1) >> 1),
            })
        }
    }
    /// The kind index and colour of the piece on a square.
    #[inline]
    pub(crate) fn kind_colour_at(&self, sq: Square) -> Option<(usize, Colour)> {
        self.piece_at(sq).map(|p| (p.kind.index(), p.colour))
    }
    /// The kind index of the piece on an occupied square (movegen's fast path).
    #[inline]
    pub(crate) fn kind_at(&self, sq: Square) -> usize {
        ((self.board[sq as usize] - 1) >> 1) as usize
    }
    /// The square of a side's royal piece.
    #[inline]
    pub fn king_square(&self, c: Colour) -> Square {
        self.king[c]
    }
    /// Plies since the last capture or pawn move.
    pub fn halfmove_clock(&self) -> u32 {
        self.halfmove
    }
    /// The move number, starting at 1.
    pub fn fullmove_number(&self) -> u32 {
        self.fullmove
    }
    /// The en passant square, when a legal capture onto it exists.
    pub fn ep_square(&self) -> Option<Square> {
        self.ep.map(|e| e.square)
    }
    /// Castling rook squares of a colour, `[a-side, other side]`.
    pub fn castling_rooks(&self, c: Colour) -> [Option<Square>; 2] {
        self.castle[c]
    }
    /// Unmoved piece-rank squares of a side that still may adjust (empty: no right).
    pub fn adjust_rights(&self, c: Colour) -> Bitboard {
        self.adjust[c]
    }

    #[inline]
    pub(crate) fn put(&mut self, rules: &Rules, c: Colour, t: usize, sq: Square) {
        self.board[sq as usize] = code(c, t);
        self.by_colour[c].set(sq);
        self.by_type[t].set(sq);
        self.hash ^= rules.piece_key(c, t, sq);
    }

    /// Takes the piece off a square: its colour and kind index.
    #[inline]
    pub(crate) fn remove(&mut self, rules: &Rules, sq: Square) -> Option<(Colour, usize)> {
        let p = self.piece_at(sq)?;
        let (c, t) = (p.colour, p.kind.index());
        self.board[sq as usize] = 0;
        self.by_colour[c].clear(sq);
        self.by_type[t].clear(sq);
        self.hash ^= rules.piece_key(c, t, sq);
        Some((c, t))
    }

    pub(crate) fn compute_hash(&self, rules: &Rules) -> u64 {
        let mut h = 0;
        for sq in self.occupied() {
            if let Some(p) = self.piece_at(sq) {
                h ^= rules.piece_key(p.colour, p.kind.index(), sq);
            }
        }
        h ^= self.state_hash(rules);
        h
    }

    /// Hash of everything but the pieces: side, castling, en passant, adjustment rights.
    fn state_hash(&self, rules: &Rules) -> u64 {
        let z = &rules.zobrist;
        let mut h = 0;
        if self.side == Colour::Black {
            h ^= z.side;
        }
        for c in Colour::ALL {
            h ^= castle_hash(rules, c, self.castle[c]);
            for sq in self.adjust[c] {
                h ^= z.adjust[c][sq as usize];
            }
        }
        if let Some(ep) = self.ep {
            h ^= z.ep[ep.square as usize];
        }
        h
    }

    /// Is there a pseudo-legal en passant capture onto the en passant square?
    pub(crate) fn ep_capture_possible(&self, rules: &Rules) -> bool {
        let Some(ep) = self.ep else { return false };
        let us = self.side;
        rules.ep_types.iter().any(|&t| {
            let pm = rules.piece_moves(us, t);
            Iterator::any(&mut self.pieces_of(us, t), |sq| {
                pm.ep_capture[sq as usize].has(ep.square)
            })
        })
    }

    /// Is there a legal en passant capture onto the en passant square (the position must be
    /// complete)?
    pub(crate) fn ep_capture_legal(&self, rules: &Rules) -> bool {
        let Some(ep) = self.ep else { return false };
        let us = self.side;
        rules.ep_types.iter().any(|&t| {
            let pm = rules.piece_moves(us, t);
            Iterator::any(&mut self.pieces_of(us, t), |sq| {
                pm.ep_capture[sq as usize].has(ep.square)
                    && self.is_legal_pseudo(rules, Move::new(sq, ep.square, MoveKind::EnPassant))
            })
        })
    }

    /// The position as a [`Setup`]: castling rights as rook files (a-side first), the en
    /// passant square only when a legal capture onto it exists.
    pub fn to_setup(&self, rules: &Rules) -> Setup {
        let mut setup = Setup::empty(&rules.variant);
        for sq in self.occupied() {
            setup.board[sq as usize] = self.piece_at(sq);
        }
        setup.turn = self.side;
        for colour in Colour::ALL {
            for sq in self.castle[colour].into_iter().flatten() {
                setup.castling.push(CastlingRight {
                    colour,
                    rook: CastlingRook::File(rules.geo.file(sq)),
                });
            }
            setup.adjustment[colour] = self.adjust[colour];
        }
        if self.ep_capture_legal(rules) {
            setup.ep_square = self.ep_square();
        }
        setup.halfmove_clock = self.halfmove;
        setup.fullmove_number = self.fullmove;
        setup
    }

    /// The FEN, with the adjustment field when a side still has the right. En passant is
    /// written only when a legal capture exists.
    pub fn fen(&self, rules: &Rules) -> String {
        self.to_setup(rules).to_fen(&rules.variant)
    }

    /// The six standard FEN fields (for programs that do not know Bishop Adjustment).
    pub fn fen_six(&self, rules: &Rules) -> String {
        let mut setup = self.to_setup(rules);
        setup.adjustment = ByColour::default();
        setup.to_fen(&rules.variant)
    }

    // -----------------------------------------------------------------------------------------
    // Make
    // -----------------------------------------------------------------------------------------

    /// The position after `m`, which must be pseudo-legal here (use [`Position::play`] for
    /// checked input).
    pub fn play_unchecked(&self, rules: &Rules, m: Move) -> Position {
        let mut p = self.clone();
        if let Some(ep) = p.ep.take() {
            p.hash ^= rules.zobrist.ep[ep.square as usize];
        }
        let reset_clock = match m.kind {
            MoveKind::Castle { side } => {
                p.make_castling(rules, m, side as usize);
                false
            }
            MoveKind::Adjust => {
                p.make_adjustment(rules, m);
                false
            }
            _ => p.make_piece_move(rules, m, self.ep),
        };
        p.update_rights(rules, self, m);
        p.halfmove = if reset_clock { 0 } else { p.halfmove + 1 };
        if self.side == Colour::Black {
            p.fullmove += 1;
        }
        p.side = self.side.other();
        p.hash ^= rules.zobrist.side;
        debug_assert_eq!(p.hash, p.compute_hash(rules));
        // Keep the en passant square only when the capture is legal, so that positions which
        // differ by a capture nobody may make are the same for repetition and the hash.
        if p.ep.is_some() && !p.ep_capture_legal(rules) {
            p.clear_ep(rules);
        }
        p
    }

    /// The position with the other side to move and nothing else changed but the en passant
    /// square and the clock (for the engine's null-move pruning; not a legal move).
    pub(crate) fn null_move(&self, rules: &Rules) -> Position {
        let mut p = self.clone();
        p.clear_ep(rules);
        p.side = p.side.other();
        p.hash ^= rules.zobrist.side;
        p.halfmove += 1;
        p
    }

    fn clear_ep(&mut self, rules: &Rules) {
        if let Some(ep) = self.ep.take() {
            self.hash ^= rules.zobrist.ep[ep.square as usize];
        }
    }

    /// King and rook to their castling squares.
    fn make_castling(&mut self, rules: &Rules, m: Move, side: usize) {
        let us = self.side;
        let (kd, rd) = rules.castle_targets(us, side).unwrap_or((m.from, m.to));
        let (_, kt) = self.remove(rules, m.from).unwrap_or((us, rules.royal));
        let (_, rt) = self.remove(rules, m.to).unwrap_or((us, 0));
        self.put(rules, us, kt, kd);
        self.put(rules, us, rt, rd);
        self.king[us] = kd;
    }

    /// The bishop and its partner change places; the side's adjustment right is used up.
    fn make_adjustment(&mut self, rules: &Rules, m: Move) {
        let us = self.side;
        let a = self.remove(rules, m.from);
        let b = self.remove(rules, m.to);
        if let (Some((_, ta)), Some((_, tb))) = (a, b) {
            self.put(rules, us, ta, m.to);
            self.put(rules, us, tb, m.from);
            if tb == rules.royal {
                self.king[us] = m.from;
            }
        }
        self.adjust[us] = Bitboard::EMPTY;
    }

    /// A normal move, capture, en passant or double step (`ep`: the en passant square before
    /// the move). Returns whether the move resets the move-count clock.
    fn make_piece_move(&mut self, rules: &Rules, m: Move, ep: Option<EnPassant>) -> bool {
        let us = self.side;
        let mut reset_clock = false;
        if m.kind == MoveKind::EnPassant {
            if let Some(ep) = ep {
                self.remove(rules, ep.victim);
                self.adjust[us.other()].clear(ep.victim);
            }
            reset_clock = true;
        } else if self.remove(rules, m.to).is_some() {
            reset_clock = true;
        }
        let (_, t) = self.remove(rules, m.from).unwrap_or((us, 0));
        if Some(t) == rules.pawn {
            reset_clock = true;
        }
        let new_kind = m.promo.map_or(t, PieceKind::index);
        self.put(rules, us, new_kind, m.to);
        if t == rules.royal {
            self.king[us] = m.to;
        }
        if m.kind == MoveKind::DoubleStep {
            self.set_double_step_ep(rules, m);
        }
        reset_clock
    }

    /// After a double step: the square passed over, if the opponent could capture onto it.
    fn set_double_step_ep(&mut self, rules: &Rules, m: Move) {
        let geo = &rules.geo;
        let mid = geo.square(geo.file(m.from), (geo.rank(m.from) + geo.rank(m.to)) / 2);
        self.ep = Some(EnPassant {
            square: mid,
            victim: m.to,
        });
        self.side = self.side.other();
        let possible = self.ep_capture_possible(rules);
        self.side = self.side.other();
        if possible {
            self.hash ^= rules.zobrist.ep[mid as usize];
        } else {
            self.ep = None;
        }
    }

    /// Castling rights (a king that moves loses both, a rook that moves or is taken its own)
    /// and adjustment rights (a piece that moves or is taken loses its own), with their hash.
    fn update_rights(&mut self, rules: &Rules, before: &Position, m: Move) {
        let us = before.side;
        let king_moved = m.from == before.king[us]
            || m.is_castle()
            || (m.kind == MoveKind::Adjust && m.to == before.king[us]);
        if king_moved {
            self.castle[us] = [None; 2];
        }
        for c in Colour::ALL {
            for rook in &mut self.castle[c] {
                if *rook == Some(m.from) || *rook == Some(m.to) {
                    *rook = None;
                }
            }
            if self.castle[c] != before.castle[c] {
                self.hash ^= castle_hash(rules, c, before.castle[c]);
                self.hash ^= castle_hash(rules, c, self.castle[c]);
            }
        }
        self.adjust[us].clear(m.from);
        self.adjust[us].clear(m.to);
        self.adjust[us.other()].clear(m.to);
        for c in Colour::ALL {
            for sq in before.adjust[c] ^ self.adjust[c] {
                self.hash ^= rules.zobrist.adjust[c][sq as usize];
            }
        }
    }

    /// Plays `m` if it is legal here.
    ///
    /// # Errors
    /// When `m` is not one of the legal moves; the position is unchanged.
    pub fn play(&self, rules: &Rules, m: Move) -> Result<Position, IllegalMove> {
        if self.legal_moves(rules).contains(&m) {
            Ok(self.play_unchecked(rules, m))
        } else {
            Err(IllegalMove {
                mv: m,
                uci: m.uci(rules),
            })
        }
    }

    /// A position with the colours exchanged by the variant's symmetry (for tests: it has the
    /// same perft). Reverse symmetry turns the board 180 degrees when castling looks the same
    /// turned round (a king that castles to d or h on ten files would end on g or c, so that
    /// board is flipped by ranks instead); mirror and none flip ranks.
    pub fn colour_flipped(&self, rules: &Rules) -> Position {
        let geo = &rules.geo;
        let rotate = rules.variant.setup.symmetry == crate::variant::Symmetry::Reverse
            && castling_turns_round(rules);
        let map = |sq: Square| -> Square {
            let f = geo.file(sq);
            let r = geo.ranks - 1 - geo.rank(sq);
            geo.square(if rotate { geo.files - 1 - f } else { f }, r)
        };
        let mut p = Position::empty();
        for sq in self.occupied() {
            if let Some(piece) = self.piece_at(sq) {
                p.put(rules, piece.colour.other(), piece.kind.index(), map(sq));
            }
        }
        p.side = self.side.other();
        for c in Colour::ALL {
            p.king[c.other()] = map(self.king[c]);
            let mut rooks = self.castle[c].map(|r| r.map(map));
            if rotate {
                rooks.swap(0, 1);
            }
            p.castle[c.other()] = rooks;
            p.adjust[c.other()] = self.adjust[c]
                .map(map)
                .fold(Bitboard::EMPTY, |b, s| b | Bitboard::from_square(s));
        }
        p.ep = self.ep.map(|e| EnPassant {
            square: map(e.square),
            victim: map(e.victim),
        });
        p.halfmove = self.halfmove;
        p.fullmove = self.fullmove;
        p.hash = p.compute_hash(rules);
        p
    }

    /// A text diagram (White at the bottom), for debugging and the `d` command.
    pub fn diagram(&self, rules: &Rules) -> String {
        let geo = &rules.geo;
        let mut s = String::new();
        for rank in (0..geo.ranks).rev() {
            s.push_str(&format!("{:>3} ", rank + 1));
            for file in 0..geo.files {
                let ch = match self.piece_at(geo.square(file, rank)) {
                    Some(p) => rules.letter(p.colour, p.kind.index()),
                    None => '.',
                };
                s.push(ch);
                s.push(' ');
            }
            s.push('\n');
        }
        s.push_str("    ");
        for file in 0..geo.files {
            s.push((b'a' + file) as char);
            s.push(' ');
        }
        s.push('\n');
        s
    }
}

/// The hash of one side's castling rights.
#[inline]
fn castle_hash(rules: &Rules, c: Colour, rooks: [Option<Square>; 2]) -> u64 {
    rooks
        .into_iter()
        .flatten()
        .fold(0, |h, sq| h ^ rules.zobrist.castle[c][sq as usize])
}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Position(hash {:#x})", self.hash)
    }
}

/// Do the castling sides swap into each other when the board is turned 180 degrees (the
/// king's and the rook's end files mirrored)? True without castling.
fn castling_turns_round(rules: &Rules) -> bool {
    let last = rules.geo.files - 1;
    rules
        .castle_sides()
        .is_none_or(|[a, h]| a.king_file == last - h.king_file && a.rook_file == last - h.rook_file)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Copy-make clones a position per node and move lists hold thousands of moves: both
    /// sizes are part of perft's speed.
    #[test]
    fn moves_and_positions_stay_small() {
        assert_eq!(std::mem::size_of::<Move>(), 6);
        assert!(std::mem::size_of::<Position>() <= 480);
    }
}
