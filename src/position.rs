//! Position: the state of a game at one moment, FEN read and write, make (copy-make) and the
//! incremental hash.
//!
//! The position holds no heap data, so cloning it is a memcpy and copy-make is cheap. Castling
//! rights are rook squares (Fischer-Random style), so any rook may be the castling rook.
//! Bishop Adjustment rights are, per side, the set of its unmoved piece-rank squares; the set is
//! empty when the side has no right (never had it, or already adjusted).

use crate::geometry::{Bitboard, Square, NO_SQUARE};
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

/// An error in a FEN: which field and what is wrong.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FenError {
    pub field: &'static str,
    pub message: String,
}

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "bad FEN ({} field): {}", self.field, self.message)
    }
}
impl std::error::Error for FenError {}

fn err<T>(field: &'static str, message: impl Into<String>) -> Result<T, FenError> {
    Err(FenError {
        field,
        message: message.into(),
    })
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
    fn empty() -> Position {
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

    // -----------------------------------------------------------------------------------------
    // FEN
    // -----------------------------------------------------------------------------------------

    /// Reads a FEN as RULES.md defines it: six standard fields (the clocks may be missing) and
    /// an optional seventh with the Bishop Adjustment rights.
    ///
    /// # Errors
    /// Names the field and what is wrong: bad rank lengths, unknown letters, a missing or extra
    /// king, pawns on a rank they can never stand on, castling rights without a rook or king,
    /// an impossible en passant square, the side not to move in check.
    pub fn from_fen(rules: &Rules, fen: &str) -> Result<Position, FenError> {
        let geo = &rules.geo;
        let fields: Vec<&str> = fen.split_whitespace().collect();
        if fields.is_empty() {
            return err("placement", "empty FEN");
        }
        if fields.len() > 7 {
            return err(
                "placement",
                format!("{} fields; at most 7 expected", fields.len()),
            );
        }
        let mut p = Position::empty();
        let rows: Vec<&str> = fields[0].split('/').collect();
        if rows.len() != geo.ranks as usize {
            return err(
                "placement",
                format!("{} ranks given, the board has {}", rows.len(), geo.ranks),
            );
        }
        for (i, row) in rows.iter().enumerate() {
            let rank = geo.ranks - 1 - i as u8;
            let mut file: usize = 0;
            let mut digits = String::new();
            let flush = |digits: &mut String, file: &mut usize| -> Result<(), FenError> {
                if !digits.is_empty() {
                    let n: usize = digits.parse().map_err(|_| FenError {
                        field: "placement",
                        message: format!("bad number `{digits}`"),
                    })?;
                    if n == 0 {
                        return err("placement", "empty-square count 0");
                    }
                    *file += n;
                    digits.clear();
                }
                Ok(())
            };
            for ch in row.chars() {
                if ch.is_ascii_digit() {
                    digits.push(ch);
                    if digits.len() > 3 {
                        return err("placement", format!("rank {}: number too long", rank + 1));
                    }
                    continue;
                }
                flush(&mut digits, &mut file)?;
                let colour = if ch.is_ascii_uppercase() {
                    WHITE
                } else {
                    BLACK
                };
                let t = match rules.variant.piece_index(ch) {
                    Some(t) if ch.is_ascii_alphabetic() => t,
                    _ => {
                        return err(
                            "placement",
                            format!(
                                "rank {}: `{ch}` is not a piece letter of {}",
                                rank + 1,
                                rules.variant.short
                            ),
                        )
                    }
                };
                if file >= geo.files as usize {
                    return err(
                        "placement",
                        format!("rank {} has more than {} files", rank + 1, geo.files),
                    );
                }
                let sq = geo.square(file as u8, rank);
                p.put(rules, t, colour, sq);
                file += 1;
            }
            flush(&mut digits, &mut file)?;
            if file != geo.files as usize {
                return err(
                    "placement",
                    format!(
                        "rank {} has {file} files, the board has {}",
                        rank + 1,
                        geo.files
                    ),
                );
            }
        }
        for c in 0..2 {
            let kings = p.pieces(c, rules.royal);
            let name = if c == 0 { "White" } else { "Black" };
            if kings.is_empty() {
                return err(
                    "placement",
                    format!(
                        "{name} has no {}",
                        rules.variant.pieces[rules.royal].name.to_lowercase()
                    ),
                );
            }
            if kings.more_than_one() {
                return err(
                    "placement",
                    format!(
                        "{name} has more than one {}",
                        rules.variant.pieces[rules.royal].name.to_lowercase()
                    ),
                );
            }
            p.king[c] = kings.lsb();
        }
        if let (Some(pawn), Some((_, prank))) = (rules.pawn, rules.variant.setup.pawn) {
            for c in 0..2 {
                for sq in p.pieces(c, pawn) {
                    let r = if c == 0 {
                        geo.rank(sq)
                    } else {
                        geo.ranks - 1 - geo.rank(sq)
                    };
                    if rules.promotion_zone[c].has(sq) {
                        return err(
                            "placement",
                            format!("pawn on {}, its promotion rank", geo.square_name(sq)),
                        );
                    }
                    if r < prank {
                        return err(
                            "placement",
                            format!("pawn on {}, behind its starting rank", geo.square_name(sq)),
                        );
                    }
                }
            }
        }

        p.side = match fields.get(1).copied().unwrap_or("w") {
            "w" | "W" => 0,
            "b" | "B" => 1,
            other => return err("side", format!("`{other}`: expected `w` or `b`")),
        };

        // Castling
        let castling = fields.get(2).copied().unwrap_or("-");
        if castling != "-" {
            let Some(rook_t) = rules.castle_rook else {
                return err("castling", "this variant has no castling");
            };
            for ch in castling.chars() {
                let colour = if ch.is_ascii_uppercase() {
                    WHITE
                } else {
                    BLACK
                };
                let rank = rules.castle_rank[colour];
                let ksq = p.king[colour];
                if geo.rank(ksq) != rank {
                    return err(
                        "castling",
                        format!("`{ch}`: the king is not on its castling rank"),
                    );
                }
                let kf = geo.file(ksq);
                let lower = ch.to_ascii_lowercase();
                let rooks_on_rank: Vec<u8> = (0..geo.files)
                    .filter(|&f| p.pieces(colour, rook_t).has(geo.square(f, rank)))
                    .collect();
                let file = match lower {
                    'k' | 'q' if (lower as u8 - b'a') >= geo.files => {
                        let cand: Vec<u8> = if lower == 'k' {
                            rooks_on_rank.iter().copied().filter(|&f| f > kf).collect()
                        } else {
                            rooks_on_rank.iter().copied().filter(|&f| f < kf).collect()
                        };
                        let f = if lower == 'k' {
                            cand.last()
                        } else {
                            cand.first()
                        };
                        match f {
                            Some(&f) => f,
                            None => {
                                return err(
                                    "castling",
                                    format!("`{ch}`: no rook on that side of the king"),
                                )
                            }
                        }
                    }
                    c if c.is_ascii_lowercase() && (c as u8 - b'a') < geo.files => c as u8 - b'a',
                    _ => {
                        return err(
                            "castling",
                            format!("`{ch}` is neither a file letter nor K/Q/k/q"),
                        )
                    }
                };
                if !rooks_on_rank.contains(&file) {
                    return err(
                        "castling",
                        format!(
                            "`{ch}`: no castling rook on {}",
                            geo.square_name(geo.square(file, rank))
                        ),
                    );
                }
                let side = if file < kf { 0 } else { 1 };
                let sq = geo.square(file, rank);
                if p.castle[colour][side] != NO_SQUARE && p.castle[colour][side] != sq {
                    return err(
                        "castling",
                        format!("`{ch}`: two castling rooks on one side of the king"),
                    );
                }
                p.castle[colour][side] = sq;
            }
        }

        // En passant
        let ep = fields.get(3).copied().unwrap_or("-");
        if ep != "-" {
            let Some(sq) = geo.parse_square(ep) else {
                return err(
                    "en passant",
                    format!("`{ep}` is not a square of this board"),
                );
            };
            let us = p.side as usize;
            let them = us ^ 1;
            let fwd_them: i32 = if them == 0 { 1 } else { -1 };
            let valid = (|| {
                let pawn = rules.pawn?;
                let victim = geo.offset(sq, 0, fwd_them)?;
                let origin = geo.offset(sq, 0, -fwd_them)?;
                let (_, prank) = rules.variant.setup.pawn?;
                let origin_rank = if them == 0 {
                    prank
                } else {
                    geo.ranks - 1 - prank
                };
                (p.pieces(them, pawn).has(victim)
                    && p.piece_at(sq).is_none()
                    && p.piece_at(origin).is_none()
                    && geo.rank(origin) == origin_rank)
                    .then_some(victim)
            })();
            match valid {
                Some(victim) => {
                    p.ep = sq;
                    p.ep_victim = victim;
                    if !p.ep_capture_possible(rules) {
                        p.ep = NO_SQUARE;
                        p.ep_victim = NO_SQUARE;
                    }
                }
                None => {
                    return err(
                        "en passant",
                        format!(
                            "{ep} is not behind a pawn that could just have made a double step"
                        ),
                    )
                }
            }
        }

        let num = |i: usize, name: &'static str, default: u32| -> Result<u32, FenError> {
            match fields.get(i) {
                None => Ok(default),
                Some(s) => s.parse::<u32>().map_err(|_| FenError {
                    field: name,
                    message: format!("`{s}` is not a number"),
                }),
            }
        };
        p.halfmove = num(4, "halfmove clock", 0)?;
        p.fullmove = num(5, "fullmove number", 1)?.max(1);
        if p.halfmove > 100_000 || p.fullmove > 100_000 {
            return err("fullmove number", "clock values are too large");
        }

        if let Some(adj) = fields.get(6).copied() {
            if adj != "-" {
                let Some(_) = rules.adjust_piece else {
                    return err("adjustment", "this variant has no Bishop Adjustment");
                };
                for ch in adj.chars() {
                    let colour = if ch.is_ascii_uppercase() {
                        WHITE
                    } else {
                        BLACK
                    };
                    let Some(f) = geo.parse_file(ch.to_ascii_lowercase()) else {
                        return err(
                            "adjustment",
                            format!("`{ch}` is not a file letter of this board"),
                        );
                    };
                    let sq = geo.square(f, rules.piece_rank[colour]);
                    match p.piece_at(sq) {
                        Some((t, c)) if c == colour && Some(t) != rules.pawn => {
                            p.adjust[colour].set(sq)
                        }
                        _ => {
                            return err(
                                "adjustment",
                                format!(
                                    "`{ch}`: no {} piece on {}",
                                    if colour == 0 { "White" } else { "Black" },
                                    geo.square_name(sq)
                                ),
                            )
                        }
                    }
                }
            }
        }

        let us = p.side as usize;
        if p.is_attacked(rules, p.king[us ^ 1], us) {
            return err("placement", "the side not to move is in check");
        }
        p.hash = p.compute_hash(rules);
        if p.ep != NO_SQUARE && !p.ep_capture_legal(rules) {
            p.ep = NO_SQUARE;
            p.ep_victim = NO_SQUARE;
            p.hash = p.compute_hash(rules);
        }
        Ok(p)
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
    fn ep_capture_legal(&self, rules: &Rules) -> bool {
        let us = self.side as usize;
        rules.ep_types.iter().any(|&t| {
            let pm = rules.piece_moves(us, t);
            Iterator::any(&mut self.pieces(us, t), |sq| {
                pm.ep_capture[sq as usize].has(self.ep)
                    && self.is_legal_pseudo(rules, Move::new(sq, self.ep, MoveKind::EnPassant))
            })
        })
    }

    /// The FEN, with the adjustment field when a side still has the right. En passant is
    /// written only when a legal capture exists.
    pub fn fen(&self, rules: &Rules) -> String {
        let mut s = self.fen_six(rules);
        if self.adjust[0].any() || self.adjust[1].any() {
            s.push(' ');
            for c in 0..2 {
                for sq in self.adjust[c] {
                    let ch = Geometryext::file_char(rules, sq);
                    s.push(if c == 0 { ch.to_ascii_uppercase() } else { ch });
                }
            }
        }
        s
    }

    /// The six standard FEN fields (for programs that do not know Bishop Adjustment).
    pub fn fen_six(&self, rules: &Rules) -> String {
        let geo = &rules.geo;
        let mut s = String::new();
        for rank in (0..geo.ranks).rev() {
            let mut empty = 0;
            for file in 0..geo.files {
                match self.piece_at(geo.square(file, rank)) {
                    None => empty += 1,
                    Some((t, c)) => {
                        if empty > 0 {
                            s.push_str(&empty.to_string());
                            empty = 0;
                        }
                        s.push(rules.letter(t, c));
                    }
                }
            }
            if empty > 0 {
                s.push_str(&empty.to_string());
            }
            if rank > 0 {
                s.push('/');
            }
        }
        s.push_str(if self.side == 0 { " w " } else { " b " });
        let mut castle = String::new();
        for c in 0..2 {
            let mut files: Vec<u8> = self.castle[c]
                .iter()
                .filter(|&&sq| sq != NO_SQUARE)
                .map(|&sq| geo.file(sq))
                .collect();
            files.sort_unstable();
            for f in files {
                let ch = (b'a' + f) as char;
                castle.push(if c == 0 { ch.to_ascii_uppercase() } else { ch });
            }
        }
        if castle.is_empty() {
            castle.push('-');
        }
        s.push_str(&castle);
        s.push(' ');
        let ep_legal = self.ep != NO_SQUARE
            && self
                .legal_moves(rules)
                .iter()
                .any(|m| m.kind == MoveKind::EnPassant);
        if ep_legal {
            s.push_str(&geo.square_name(self.ep));
        } else {
            s.push('-');
        }
        s.push_str(&format!(" {} {}", self.halfmove, self.fullmove));
        s
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

struct Geometryext;
impl Geometryext {
    fn file_char(rules: &Rules, sq: Square) -> char {
        (b'a' + rules.geo.file(sq)) as char
    }
}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Position(hash {:#x})", self.hash)
    }
}
