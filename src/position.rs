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
use crate::geometry::{Bitboard, Square, NO_SQUARE};
use crate::piece::{ByColour, Colour, Piece, PieceKind};
use crate::rules::{Rules, MAX_PIECE_TYPES};
use std::fmt;

pub const WHITE: usize = 0;
pub const BLACK: usize = 1;

/// What kind of move it is: decides how it is made and written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MoveKind {
    Normal,
    /// A pawn's initial lame double step (may create an en passant square).
    DoubleStep,
    EnPassant,
    /// Castling; `to` is the castling rook's square (king takes own rook).
    Castle {
        side: u8,
    },
    /// Bishop Adjustment; `to` is the partner's square.
    Adjust,
}

/// A move. `promo` is the piece type promoted to, or `NO_PROMO`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    pub from: Square,
    pub to: Square,
    pub kind: MoveKind,
    pub promo: u8,
}

pub const NO_PROMO: u8 = u8::MAX;

impl Move {
    pub const fn new(from: Square, to: Square, kind: MoveKind) -> Move {
        Move {
            from,
            to,
            kind,
            promo: NO_PROMO,
        }
    }
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
        if self.promo != NO_PROMO {
            let letter = rules.variant.pieces.get(self.promo as usize);
            s.push(letter.map_or('?', |p| p.letter.to_ascii_lowercase()));
        }
        s
    }
}

/// The state of a game at one moment.
#[derive(Clone, PartialEq, Eq)]
pub struct Position {
    /// 0 empty, else `(type << 1 | colour) + 1`.
    pub(crate) board: [u8; 128],
    pub(crate) by_colour: [Bitboard; 2],
    pub(crate) by_type: [Bitboard; MAX_PIECE_TYPES],
    pub(crate) side: u8,
    /// Castling rook squares per colour: `[a-side, other side]`, `NO_SQUARE` when gone.
    pub(crate) castle: [[Square; 2]; 2],
    pub(crate) ep: Square,
    pub(crate) ep_victim: Square,
    pub(crate) adjust: [Bitboard; 2],
    pub(crate) halfmove: u32,
    pub(crate) fullmove: u32,
    pub(crate) king: [Square; 2],
    pub(crate) hash: u64,
}

#[inline]
pub(crate) fn code(t: usize, colour: usize) -> u8 {
    ((t << 1) | colour) as u8 + 1
}

impl Position {
    pub(crate) fn empty() -> Position {
        Position {
            board: [0; 128],
            by_colour: [Bitboard::EMPTY; 2],
            by_type: [Bitboard::EMPTY; MAX_PIECE_TYPES],
            side: 0,
            castle: [[NO_SQUARE; 2]; 2],
            ep: NO_SQUARE,
            ep_victim: NO_SQUARE,
            adjust: [Bitboard::EMPTY; 2],
            halfmove: 0,
            fullmove: 1,
            king: [NO_SQUARE; 2],
            hash: 0,
        }
    }

    #[inline]
    pub fn side_to_move(&self) -> usize {
        self.side as usize
    }
    #[inline]
    pub fn hash(&self) -> u64 {
        self.hash
    }
    #[inline]
    pub fn occupied(&self) -> Bitboard {
        self.by_colour[0] | self.by_colour[1]
    }
    #[inline]
    pub fn colour_bb(&self, c: usize) -> Bitboard {
        self.by_colour[c]
    }
    #[inline]
    pub fn type_bb(&self, t: usize) -> Bitboard {
        self.by_type[t]
    }
    #[inline]
    pub fn pieces(&self, c: usize, t: usize) -> Bitboard {
        self.by_colour[c] & self.by_type[t]
    }
    /// (type, colour) of the piece on a square.
    #[inline]
    pub fn piece_at(&self, sq: Square) -> Option<(usize, usize)> {
        let c = self.board[sq as usize];
        if c == 0 {
            None
        } else {
            Some((((c - 1) >> 1) as usize, ((c - 1) & 1) as usize))
        }
    }
    #[inline]
    pub fn king_square(&self, c: usize) -> Square {
        self.king[c]
    }
    pub fn halfmove_clock(&self) -> u32 {
        self.halfmove
    }
    pub fn fullmove_number(&self) -> u32 {
        self.fullmove
    }
    pub fn ep_square(&self) -> Option<Square> {
        (self.ep != NO_SQUARE).then_some(self.ep)
    }
    /// Castling rook squares of a colour, `[a-side, other side]`.
    pub fn castling_rooks(&self, c: usize) -> [Option<Square>; 2] {
        [0, 1].map(|s| (self.castle[c][s] != NO_SQUARE).then_some(self.castle[c][s]))
    }
    /// Unmoved piece-rank squares of a side that still may adjust (empty: no right).
    pub fn adjust_rights(&self, c: usize) -> Bitboard {
        self.adjust[c]
    }

    #[inline]
    pub(crate) fn put(&mut self, rules: &Rules, t: usize, c: usize, sq: Square) {
        self.board[sq as usize] = code(t, c);
        self.by_colour[c].set(sq);
        self.by_type[t].set(sq);
        self.hash ^= rules.piece_key(c, t, sq);
    }

    #[inline]
    pub(crate) fn remove(&mut self, rules: &Rules, sq: Square) -> Option<(usize, usize)> {
        let p = self.piece_at(sq)?;
        self.board[sq as usize] = 0;
        self.by_colour[p.1].clear(sq);
        self.by_type[p.0].clear(sq);
        self.hash ^= rules.piece_key(p.1, p.0, sq);
        Some(p)
    }

    pub(crate) fn compute_hash(&self, rules: &Rules) -> u64 {
        let mut h = 0;
        for sq in self.occupied() {
            if let Some((t, c)) = self.piece_at(sq) {
                h ^= rules.piece_key(c, t, sq);
            }
        }
        h ^= self.state_hash(rules);
        h
    }

    /// Hash of everything but the pieces: side, castling, en passant, adjustment rights.
    fn state_hash(&self, rules: &Rules) -> u64 {
        let z = &rules.zobrist;
        let mut h = 0;
        if self.side == 1 {
            h ^= z.side;
        }
        for c in 0..2 {
            for s in 0..2 {
                if self.castle[c][s] != NO_SQUARE {
                    h ^= z.castle[c][self.castle[c][s] as usize];
                }
            }
            for sq in self.adjust[c] {
                h ^= z.adjust[c][sq as usize];
            }
        }
        if self.ep != NO_SQUARE {
            h ^= z.ep[self.ep as usize];
        }
        h
    }

    /// Is there a pseudo-legal en passant capture onto `self.ep`?
    pub(crate) fn ep_capture_possible(&self, rules: &Rules) -> bool {
        let us = self.side as usize;
        rules.ep_types.iter().any(|&t| {
            let pm = rules.piece_moves(us, t);
            Iterator::any(&mut self.pieces(us, t), |sq| {
                pm.ep_capture[sq as usize].has(self.ep)
            })
        })
    }

    /// Is there a legal en passant capture onto `self.ep` (the position must be complete)?
    pub(crate) fn ep_capture_legal(&self, rules: &Rules) -> bool {
        let us = self.side as usize;
        rules.ep_types.iter().any(|&t| {
            let pm = rules.piece_moves(us, t);
            Iterator::any(&mut self.pieces(us, t), |sq| {
                pm.ep_capture[sq as usize].has(self.ep)
                    && self.is_legal_pseudo(rules, Move::new(sq, self.ep, MoveKind::EnPassant))
            })
        })
    }

    /// The position as a [`Setup`]: castling rights as rook files (a-side first), the en
    /// passant square only when a legal capture onto it exists.
    pub fn to_setup(&self, rules: &Rules) -> Setup {
        let mut setup = Setup::empty(&rules.variant);
        for sq in self.occupied() {
            if let Some((t, c)) = self.piece_at(sq) {
                setup.board[sq as usize] = Some(Piece {
                    colour: Colour::from_index(c),
                    kind: PieceKind(t as u8),
                });
            }
        }
        setup.turn = Colour::from_index(self.side as usize);
        for colour in Colour::ALL {
            for sq in self.castle[colour.index()] {
                if sq != NO_SQUARE {
                    setup.castling.push(CastlingRight {
                        colour,
                        rook: CastlingRook::File(rules.geo.file(sq)),
                    });
                }
            }
            setup.adjustment[colour] = self.adjust[colour.index()];
        }
        if self.ep != NO_SQUARE && self.ep_capture_legal(rules) {
            setup.ep_square = Some(self.ep);
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
        let us = self.side as usize;
        let them = us ^ 1;
        let z = &rules.zobrist;
        let old_castle = p.castle;
        let old_adjust = p.adjust;
        if p.ep != NO_SQUARE {
            p.hash ^= z.ep[p.ep as usize];
            p.ep = NO_SQUARE;
            p.ep_victim = NO_SQUARE;
        }
        let mut reset_clock = false;
        match m.kind {
            MoveKind::Castle { side } => {
                let (kd, rd) = rules
                    .castle_targets(us, side as usize)
                    .unwrap_or((m.from, m.to));
                let (kt, _) = p.remove(rules, m.from).unwrap_or((rules.royal, us));
                let (rt, _) = p.remove(rules, m.to).unwrap_or((0, us));
                p.put(rules, kt, us, kd);
                p.put(rules, rt, us, rd);
                p.king[us] = kd;
                p.castle[us] = [NO_SQUARE; 2];
            }
            MoveKind::Adjust => {
                let a = p.remove(rules, m.from);
                let b = p.remove(rules, m.to);
                if let (Some((ta, _)), Some((tb, _))) = (a, b) {
                    p.put(rules, ta, us, m.to);
                    p.put(rules, tb, us, m.from);
                    if tb == rules.royal {
                        p.king[us] = m.from;
                    }
                }
                p.adjust[us] = Bitboard::EMPTY;
            }
            _ => {
                if m.kind == MoveKind::EnPassant {
                    p.remove(rules, self.ep_victim);
                    reset_clock = true;
                } else if p.remove(rules, m.to).is_some() {
                    reset_clock = true;
                }
                let (t, _) = p.remove(rules, m.from).unwrap_or((0, us));
                if Some(t) == rules.pawn {
                    reset_clock = true;
                }
                let nt = if m.promo != NO_PROMO {
                    m.promo as usize
                } else {
                    t
                };
                p.put(rules, nt, us, m.to);
                if t == rules.royal {
                    p.king[us] = m.to;
                }
                if m.kind == MoveKind::DoubleStep {
                    let f = rules.geo.file(m.from);
                    let mid = rules
                        .geo
                        .square(f, (rules.geo.rank(m.from) + rules.geo.rank(m.to)) / 2);
                    p.ep = mid;
                    p.ep_victim = m.to;
                    p.side ^= 1;
                    let possible = p.ep_capture_possible(rules);
                    p.side ^= 1;
                    if possible {
                        p.hash ^= z.ep[mid as usize];
                    } else {
                        p.ep = NO_SQUARE;
                        p.ep_victim = NO_SQUARE;
                    }
                }
            }
        }
        // Castling rights: a king that moves loses both, a rook that moves or is taken its own.
        let king_moved =
            m.from == self.king[us] || (m.kind == MoveKind::Adjust && m.to == self.king[us]);
        if king_moved {
            p.castle[us] = [NO_SQUARE; 2];
        }
        for c in 0..2 {
            for s in 0..2 {
                let r = p.castle[c][s];
                if r != NO_SQUARE && (r == m.from || r == m.to) {
                    p.castle[c][s] = NO_SQUARE;
                }
            }
        }
        p.adjust[us].clear(m.from);
        p.adjust[us].clear(m.to);
        p.adjust[them].clear(m.to);
        if m.kind == MoveKind::EnPassant {
            p.adjust[them].clear(self.ep_victim);
        }
        if old_castle != p.castle {
            for c in 0..2 {
                for s in 0..2 {
                    if old_castle[c][s] != NO_SQUARE {
                        p.hash ^= z.castle[c][old_castle[c][s] as usize];
                    }
                    if p.castle[c][s] != NO_SQUARE {
                        p.hash ^= z.castle[c][p.castle[c][s] as usize];
                    }
                }
            }
        }
        if old_adjust != p.adjust {
            for c in 0..2 {
                for sq in old_adjust[c] ^ p.adjust[c] {
                    p.hash ^= z.adjust[c][sq as usize];
                }
            }
        }
        p.halfmove = if reset_clock { 0 } else { p.halfmove + 1 };
        if us == BLACK {
            p.fullmove += 1;
        }
        p.side ^= 1;
        p.hash ^= z.side;
        debug_assert_eq!(p.hash, p.compute_hash(rules));
        // Keep the en passant square only when the capture is legal, so that positions which
        // differ by a capture nobody may make are the same for repetition and the hash.
        if p.ep != NO_SQUARE && !p.ep_capture_legal(rules) {
            p.hash ^= z.ep[p.ep as usize];
            p.ep = NO_SQUARE;
            p.ep_victim = NO_SQUARE;
        }
        p
    }

    /// Plays `m` if it is legal here.
    ///
    /// # Errors
    /// When `m` is not one of the legal moves; the position is unchanged.
    pub fn play(&self, rules: &Rules, m: Move) -> Result<Position, String> {
        if self.legal_moves(rules).contains(&m) {
            Ok(self.play_unchecked(rules, m))
        } else {
            Err(format!("{} is not legal here", m.uci(rules)))
        }
    }

    /// A position with the colours exchanged by the variant's symmetry (for tests: it has the
    /// same perft). Reverse symmetry turns the board 180 degrees; mirror and none flip ranks.
    pub fn colour_flipped(&self, rules: &Rules) -> Position {
        let geo = &rules.geo;
        let rotate = rules.variant.setup.symmetry == crate::variant::Symmetry::Reverse;
        let map = |sq: Square| -> Square {
            if sq == NO_SQUARE {
                return sq;
            }
            let f = geo.file(sq);
            let r = geo.ranks - 1 - geo.rank(sq);
            geo.square(if rotate { geo.files - 1 - f } else { f }, r)
        };
        let mut p = Position::empty();
        for sq in self.occupied() {
            if let Some((t, c)) = self.piece_at(sq) {
                p.put(rules, t, c ^ 1, map(sq));
            }
        }
        p.side = self.side ^ 1;
        for c in 0..2 {
            p.king[c ^ 1] = map(self.king[c]);
            let mut rooks = [map(self.castle[c][0]), map(self.castle[c][1])];
            if rotate {
                rooks.swap(0, 1);
            }
            p.castle[c ^ 1] = rooks;
            p.adjust[c ^ 1] = self.adjust[c]
                .map(map)
                .fold(Bitboard::EMPTY, |b, s| b | Bitboard::from_square(s));
        }
        p.ep = map(self.ep);
        p.ep_victim = map(self.ep_victim);
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
                    Some((t, c)) => rules.letter(t, c),
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

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Position(hash {:#x})", self.hash)
    }
}
