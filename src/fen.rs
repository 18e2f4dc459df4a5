//! FEN text to and from [`Setup`], a position that is not yet known to be legal.
//!
//! Reading is in two steps, as in shakmaty: [`parse_fen`] checks only the text (field counts,
//! letters, numbers, squares that exist) and returns a [`Setup`] with public fields;
//! [`Position::from_setup`](crate::position::Position::from_setup) then checks the rules
//! (kings, pawn ranks, castling rooks, en passant, the side not to move in check). Start
//! positions build a [`Setup`] directly, so nothing has to go through text.
//!
//! The FEN is the one RULES.md defines: six standard fields (the clocks may be missing) and an
//! optional seventh with the Bishop Adjustment rights as file letters (upper case White).

use crate::geometry::{Bitboard, Geometry, Square};
use crate::piece::{ByColour, Colour, Piece, PieceKind};
use crate::rules::Rules;
use crate::variant::Variant;
use std::fmt;

/// Which side of its king a castling rook stands on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CastlingSide {
    /// Towards the a-file (`O-O-O` in orthodox chess).
    ASide = 0,
    /// Away from the a-file (`O-O` in orthodox chess).
    HSide = 1,
}

impl CastlingSide {
    /// 0 for the a-side, 1 for the other (the index of [`Position::castling_rooks`](crate::position::Position::castling_rooks)).
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }
}

/// Which rook a castling letter names.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CastlingRook {
    /// `K`/`Q` (X-FEN): the outermost rook on that side of the king.
    Outermost(CastlingSide),
    /// A file letter (Shredder-FEN): the rook on that file of the castling rank.
    File(u8),
}

/// One castling right: a colour and the rook it may castle with.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct CastlingRight {
    /// Whose right it is.
    pub colour: Colour,
    /// The rook, as the FEN named it.
    pub rook: CastlingRook,
}

impl CastlingRight {
    /// The FEN letter of the right (`K`, `q`, `A`, `h`...).
    pub fn letter(&self) -> char {
        let ch = match self.rook {
            CastlingRook::Outermost(CastlingSide::HSide) => 'k',
            CastlingRook::Outermost(CastlingSide::ASide) => 'q',
            CastlingRook::File(f) => Geometry::file_char(f),
        };
        self.colour.cased(ch)
    }
}

/// A position as a FEN describes it, not necessarily legal: build one by hand or with
/// [`parse_fen`], then make a [`Position`](crate::position::Position) of it with
/// [`Position::from_setup`](crate::position::Position::from_setup).
///
/// ```
/// use modern_chess::{catalog, parse_fen, Colour, Position, PositionError};
///
/// let rules = catalog::load_rules("chess").unwrap();
/// let mut setup = parse_fen(&rules, "4k3/8/8/8/8/8/8/R3K3 w - - 0 1").unwrap();
/// setup.turn = Colour::Black;
/// let pos = Position::from_setup(&rules, setup.clone()).unwrap();
/// assert_eq!(pos.side_to_move(), Colour::Black);
///
/// // A setup may be anything; the position it makes must be legal.
/// setup.board.iter_mut().for_each(|sq| *sq = None);
/// assert!(matches!(
///     Position::from_setup(&rules, setup),
///     Err(PositionError::MissingRoyal { .. })
/// ));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Setup {
    /// The piece on each square, indexed by square (`rank * files + file`); one entry per
    /// square of the board.
    pub board: Vec<Option<Piece>>,
    /// The side to move.
    pub turn: Colour,
    /// Castling rights, in the order the FEN lists them.
    pub castling: Vec<CastlingRight>,
    /// The square a pawn passed over with its double step, if the FEN names one.
    pub ep_square: Option<Square>,
    /// Plies since the last capture or pawn move.
    pub halfmove_clock: u32,
    /// The move number, starting at 1.
    pub fullmove_number: u32,
    /// Per colour, the unmoved piece-rank squares that may still take part in a Bishop
    /// Adjustment (empty: the side has no right).
    pub adjustment: ByColour<Bitboard>,
}

impl Setup {
    /// An empty board of this variant, White to move, no rights, move 1.
    pub fn empty(variant: &Variant) -> Setup {
        Setup {
            board: vec![None; variant.files as usize * variant.ranks as usize],
            turn: Colour::White,
            castling: Vec::new(),
            ep_square: None,
            halfmove_clock: 0,
            fullmove_number: 1,
            adjustment: ByColour::default(),
        }
    }

    /// The FEN of the setup; the seventh (adjustment) field only when a side has the right.
    pub fn to_fen(&self, variant: &Variant) -> String {
        let geo = Geometry::new(variant.files, variant.ranks);
        let mut s = placement_text(self, variant, &geo);
        s.push_str(if self.turn == Colour::White {
            " w "
        } else {
            " b "
        });
        if self.castling.is_empty() {
            s.push('-');
        }
        s.extend(self.castling.iter().map(CastlingRight::letter));
        s.push(' ');
        match self.ep_square {
            Some(sq) => s.push_str(&geo.square_name(sq)),
            None => s.push('-'),
        }
        s.push_str(&format!(
            " {} {}",
            self.halfmove_clock, self.fullmove_number
        ));
        if self.adjustment.0.iter().any(|b| b.any()) {
            s.push(' ');
            for c in Colour::ALL {
                for sq in self.adjustment[c] {
                    s.push(c.cased(Geometry::file_char(geo.file(sq))));
                }
            }
        }
        s
    }
}

/// The first FEN field: ranks from the top, `/` between them, digits for empty runs.
fn placement_text(setup: &Setup, variant: &Variant, geo: &Geometry) -> String {
    let mut s = String::new();
    for rank in (0..geo.ranks).rev() {
        let mut empty = 0;
        for file in 0..geo.files {
            let piece = setup
                .board
                .get(geo.square(file, rank) as usize)
                .copied()
                .flatten();
            match piece {
                None => empty += 1,
                Some(p) => {
                    if empty > 0 {
                        s.push_str(&empty.to_string());
                        empty = 0;
                    }
                    let letter = variant.pieces.get(p.kind.index()).map_or('?', |d| d.letter);
                    s.push(p.colour.cased(letter));
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
    s
}

/// An error in a FEN: which field and what is wrong. (To tell the rules a well-formed FEN
/// breaks apart, use [`parse_fen`] and
/// [`Position::from_setup`](crate::position::Position::from_setup), whose
/// [`PositionError`](crate::position::PositionError) is an enum.)
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FenError {
    /// The field at fault: `placement`, `side`, `castling`, `en passant`, `halfmove clock`,
    /// `fullmove number` or `adjustment`.
    pub field: &'static str,
    /// What is wrong, for people.
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

/// Largest clock value a FEN may give (larger ones are refused, not wrapped).
pub const MAX_CLOCK: u32 = 100_000;

/// Reads the text of a FEN into a [`Setup`]; only the text is checked here, the rules by
/// [`Position::from_setup`](crate::position::Position::from_setup).
///
/// # Errors
/// Names the field and what is wrong: too many fields, bad rank lengths, unknown letters, a
/// side other than `w`/`b`, castling letters that are neither file letters nor K/Q, squares
/// off the board, clocks that are not numbers or too large.
pub fn parse_fen(rules: &Rules, fen: &str) -> Result<Setup, FenError> {
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
    let field = |i: usize, default: &'static str| fields.get(i).copied().unwrap_or(default);
    let mut setup = Setup::empty(&rules.variant);
    setup.board = parse_placement(rules, fields[0])?;
    setup.turn = parse_side(field(1, "w"))?;
    setup.castling = parse_castling(rules, field(2, "-"))?;
    setup.ep_square = parse_ep_square(rules, field(3, "-"))?;
    setup.halfmove_clock = parse_number(fields.get(4).copied(), "halfmove clock", 0)?;
    setup.fullmove_number = parse_number(fields.get(5).copied(), "fullmove number", 1)?.max(1);
    if setup.halfmove_clock > MAX_CLOCK || setup.fullmove_number > MAX_CLOCK {
        return err("fullmove number", "clock values are too large");
    }
    setup.adjustment = parse_adjustment(rules, field(6, "-"))?;
    Ok(setup)
}

/// The first field: one piece or empty square per entry, ranks from the top.
fn parse_placement(rules: &Rules, text: &str) -> Result<Vec<Option<Piece>>, FenError> {
    let geo = &rules.geo;
    let rows: Vec<&str> = text.split('/').collect();
    if rows.len() != geo.ranks as usize {
        return err(
            "placement",
            format!("{} ranks given, the board has {}", rows.len(), geo.ranks),
        );
    }
    let mut board = vec![None; geo.squares()];
    for (i, row) in rows.iter().enumerate() {
        let rank = geo.ranks - 1 - i as u8;
        for (file, piece) in parse_rank(rules, rank, row)? {
            board[geo.square(file, rank) as usize] = Some(piece);
        }
    }
    Ok(board)
}

/// One rank of the placement: the pieces and their files.
fn parse_rank(rules: &Rules, rank: u8, row: &str) -> Result<Vec<(u8, Piece)>, FenError> {
    let files = rules.geo.files as usize;
    let mut pieces = Vec::new();
    let mut file: usize = 0;
    let mut digits = String::new();
    for ch in row.chars() {
        if ch.is_ascii_digit() {
            digits.push(ch);
            if digits.len() > 3 {
                return err("placement", format!("rank {}: number too long", rank + 1));
            }
            continue;
        }
        file += empty_run(&mut digits)?;
        let kind = match rules.variant.piece_index(ch) {
            Some(t) if ch.is_ascii_alphabetic() => PieceKind(t as u8),
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
        if file >= files {
            return err(
                "placement",
                format!("rank {} has more than {files} files", rank + 1),
            );
        }
        let colour = Colour::of_letter(ch);
        pieces.push((file as u8, Piece { colour, kind }));
        file += 1;
    }
    file += empty_run(&mut digits)?;
    if file != files {
        return err(
            "placement",
            format!("rank {} has {file} files, the board has {files}", rank + 1),
        );
    }
    Ok(pieces)
}

/// The number of empty squares the pending digits stand for (0 when there are none).
fn empty_run(digits: &mut String) -> Result<usize, FenError> {
    if digits.is_empty() {
        return Ok(0);
    }
    let n: usize = match digits.parse() {
        Ok(n) => n,
        Err(_) => return err("placement", format!("bad number `{digits}`")),
    };
    if n == 0 {
        return err("placement", "empty-square count 0");
    }
    digits.clear();
    Ok(n)
}

fn parse_side(text: &str) -> Result<Colour, FenError> {
    match text {
        "w" | "W" => Ok(Colour::White),
        "b" | "B" => Ok(Colour::Black),
        other => err("side", format!("`{other}`: expected `w` or `b`")),
    }
}

/// Castling letters: `K`/`Q` (either case) the outermost rook on that side of the king, as
/// Fairy-Stockfish and X-FEN read them, even on boards of 11 or more files where `k` and `q`
/// are also file letters; any other file letter names the rook on that file.
fn parse_castling(rules: &Rules, text: &str) -> Result<Vec<CastlingRight>, FenError> {
    if text == "-" {
        return Ok(Vec::new());
    }
    let mut rights = Vec::new();
    for ch in text.chars() {
        let lower = ch.to_ascii_lowercase();
        let rook = match (lower, rules.geo.parse_file(lower)) {
            ('k', _) => CastlingRook::Outermost(CastlingSide::HSide),
            ('q', _) => CastlingRook::Outermost(CastlingSide::ASide),
            (_, Some(f)) => CastlingRook::File(f),
            _ => {
                return err(
                    "castling",
                    format!("`{ch}` is neither a file letter nor K/Q/k/q"),
                )
            }
        };
        rights.push(CastlingRight {
            colour: Colour::of_letter(ch),
            rook,
        });
    }
    Ok(rights)
}

fn parse_ep_square(rules: &Rules, text: &str) -> Result<Option<Square>, FenError> {
    if text == "-" {
        return Ok(None);
    }
    match rules.geo.parse_square(text) {
        Some(sq) => Ok(Some(sq)),
        None => err(
            "en passant",
            format!("`{text}` is not a square of this board"),
        ),
    }
}

fn parse_number(text: Option<&str>, field: &'static str, default: u32) -> Result<u32, FenError> {
    match text {
        None => Ok(default),
        Some(s) => match s.parse::<u32>() {
            Ok(n) => Ok(n),
            Err(_) => err(field, format!("`{s}` is not a number")),
        },
    }
}

/// The seventh field: file letters of the pieces on each side's piece rank that may still
/// adjust (upper case White).
fn parse_adjustment(rules: &Rules, text: &str) -> Result<ByColour<Bitboard>, FenError> {
    let mut rights = ByColour::<Bitboard>::default();
    if text == "-" {
        return Ok(rights);
    }
    for ch in text.chars() {
        let Some(f) = rules.geo.parse_file(ch.to_ascii_lowercase()) else {
            return err(
                "adjustment",
                format!("`{ch}` is not a file letter of this board"),
            );
        };
        let colour = Colour::of_letter(ch);
        rights[colour].set(rules.geo.square(f, rules.piece_rank[colour.index()]));
    }
    Ok(rights)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog;
    use crate::piece::Colour;

    #[test]
    fn text_round_trips_through_a_setup() {
        let rules = catalog::load_rules("mrc").unwrap();
        let fen =
            "rnbqkmbnr/ppppppppp/9/9/9/9/9/PPPPPPPPP/RNBMKQBNR w AIai - 0 1 ABCDEFGHIabcdefghi";
        let setup = parse_fen(&rules, fen).unwrap();
        assert_eq!(setup.castling.len(), 4);
        assert_eq!(setup.adjustment[Colour::White].count(), 9);
        assert_eq!(setup.to_fen(&rules.variant), fen);
    }

    #[test]
    fn k_and_q_are_files_on_wide_boards() {
        let rules = catalog::load_rules("chess").unwrap();
        let s = parse_fen(&rules, "4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1").unwrap();
        assert_eq!(
            s.castling[0].rook,
            CastlingRook::Outermost(CastlingSide::HSide)
        );
        assert_eq!(s.castling[1].letter(), 'Q');
        let e = parse_fen(&rules, "4k3/8/8/8/8/8/8/R3K2R w Kz - 0 1").unwrap_err();
        assert_eq!(e.field, "castling");
    }

    /// On a board of 12 files `k` is also a file letter; `KQkq` still names the sides.
    #[test]
    fn kq_letters_name_sides_on_boards_of_eleven_files_or_more() {
        let text = r#"
name = "Wide"
[board]
files = 12
ranks = 8
[pieces]
K = { betza = "K", royal = true }
R = { betza = "R" }
[setup]
army = "R5K4R"
files = "a-l"
[castling]
a_side = { king = "c", rook = "d" }
h_side = { king = "k", rook = "j" }
"#;
        let text = text.replace("R5K4R", "RRRRRKRRRRRR");
        let v = crate::variant::Variant::from_text("wide.toml", &text, &crate::variant::NoResolver)
            .unwrap();
        let rules = Rules::compile(v);
        let fen = "r5k4r/12/12/12/12/12/12/R5K4R w KQkq - 0 1";
        let s = parse_fen(&rules, fen).unwrap();
        assert_eq!(s.castling.len(), 4);
        assert!(s
            .castling
            .iter()
            .all(|c| matches!(c.rook, CastlingRook::Outermost(_))));
        let pos = crate::Position::from_fen(&rules, fen).unwrap();
        let white: Vec<_> = pos
            .castling_rooks(Colour::White)
            .into_iter()
            .flatten()
            .collect();
        assert_eq!(white, vec![0, 11], "a1 and l1");
    }
}
