//! Squares, board shapes and the `u128` bitboard.
//!
//! A square is an index `rank * files + file`, so every board of up to 128 squares fits one
//! `u128`. Because the index grows with the file inside a rank and with the rank, walking a ray
//! in any fixed direction moves the index monotonically: the first blocker of a ray is its lowest
//! set bit when the step is positive and its highest set bit otherwise.

use std::fmt;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

/// A square index on the variant's board (`rank * files + file`).
pub type Square = u8;

/// Largest board the bitboard can hold.
pub const MAX_SQUARES: usize = 128;

/// A set of squares.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Bitboard(pub u128);

impl Bitboard {
    /// The set with no square.
    pub const EMPTY: Bitboard = Bitboard(0);

    /// The set holding only `sq`.
    #[inline]
    pub const fn from_square(sq: Square) -> Bitboard {
        Bitboard(1u128 << sq)
    }
    /// Is `sq` in the set?
    #[inline]
    pub const fn has(self, sq: Square) -> bool {
        (self.0 >> sq) & 1 != 0
    }
    /// Adds `sq` to the set.
    #[inline]
    pub fn set(&mut self, sq: Square) {
        self.0 |= 1u128 << sq;
    }
    /// Removes `sq` from the set.
    #[inline]
    pub fn clear(&mut self, sq: Square) {
        self.0 &= !(1u128 << sq);
    }
    /// Does the set hold no square?
    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }
    /// Does the set hold at least one square?
    #[inline]
    pub const fn any(self) -> bool {
        self.0 != 0
    }
    /// How many squares the set holds.
    #[inline]
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }
    /// Lowest square; only meaningful when the set is not empty.
    #[inline]
    pub const fn lsb(self) -> Square {
        self.0.trailing_zeros() as Square
    }
    /// Highest square; only meaningful when the set is not empty.
    #[inline]
    pub const fn msb(self) -> Square {
        (127 - self.0.leading_zeros()) as Square
    }
    /// Does the set hold two squares or more (cheaper than `count() > 1`)?
    #[inline]
    pub const fn more_than_one(self) -> bool {
        self.0 & self.0.wrapping_sub(1) != 0
    }
}

impl Iterator for Bitboard {
    type Item = Square;
    #[inline]
    fn next(&mut self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            let sq = self.0.trailing_zeros() as Square;
            self.0 &= self.0 - 1;
            Some(sq)
        }
    }
}

macro_rules! bit_op {
    ($tr:ident, $f:ident, $tra:ident, $fa:ident, $op:tt) => {
        impl $tr for Bitboard {
            type Output = Bitboard;
            #[inline]
            fn $f(self, o: Bitboard) -> Bitboard {
                Bitboard(self.0 $op o.0)
            }
        }
        impl $tra for Bitboard {
            #[inline]
            fn $fa(&mut self, o: Bitboard) {
                self.0 = self.0 $op o.0;
            }
        }
    };
}
bit_op!(BitAnd, bitand, BitAndAssign, bitand_assign, &);
bit_op!(BitOr, bitor, BitOrAssign, bitor_assign, |);
bit_op!(BitXor, bitxor, BitXorAssign, bitxor_assign, ^);

impl Not for Bitboard {
    type Output = Bitboard;
    #[inline]
    fn not(self) -> Bitboard {
        Bitboard(!self.0)
    }
}

impl fmt::Debug for Bitboard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Bitboard({:#x})", self.0)
    }
}

/// The shape of a board: how many files and ranks, and the squares that exist.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Geometry {
    /// Number of files (columns), `a` upwards.
    pub files: u8,
    /// Number of ranks (rows), `1` upwards.
    pub ranks: u8,
}

impl Geometry {
    /// A board of `files` by `ranks`; at most [`MAX_SQUARES`] squares in all.
    pub fn new(files: u8, ranks: u8) -> Geometry {
        debug_assert!(files as usize * ranks as usize <= MAX_SQUARES);
        Geometry { files, ranks }
    }
    /// How many squares the board has (square indices are `0..squares()`).
    #[inline]
    pub fn squares(&self) -> usize {
        self.files as usize * self.ranks as usize
    }
    /// The square on `file` and `rank` (both from 0); the caller keeps them on the board.
    #[inline]
    pub fn square(&self, file: u8, rank: u8) -> Square {
        rank * self.files + file
    }
    /// The file of `sq`, from 0 (`a`).
    #[inline]
    pub fn file(&self, sq: Square) -> u8 {
        sq % self.files
    }
    /// The rank of `sq`, from 0 (rank `1`).
    #[inline]
    pub fn rank(&self, sq: Square) -> u8 {
        sq / self.files
    }
    /// The square `(df, dr)` away, if it is on the board.
    #[inline]
    pub fn offset(&self, sq: Square, df: i32, dr: i32) -> Option<Square> {
        let f = self.file(sq) as i32 + df;
        let r = self.rank(sq) as i32 + dr;
        if f >= 0 && r >= 0 && f < self.files as i32 && r < self.ranks as i32 {
            Some(self.square(f as u8, r as u8))
        } else {
            None
        }
    }
    /// Every square of the board.
    pub fn all(&self) -> Bitboard {
        let n = self.squares();
        if n == 128 {
            Bitboard(u128::MAX)
        } else {
            Bitboard((1u128 << n) - 1)
        }
    }
    /// Every square of one rank (from 0).
    pub fn rank_mask(&self, rank: u8) -> Bitboard {
        let mut b = Bitboard::EMPTY;
        for f in 0..self.files {
            b.set(self.square(f, rank));
        }
        b
    }
    /// Squares of the dark colour (a1 is dark on every board).
    pub fn dark_squares(&self) -> Bitboard {
        let mut b = Bitboard::EMPTY;
        for sq in 0..self.squares() as Square {
            if (self.file(sq) + self.rank(sq)).is_multiple_of(2) {
                b.set(sq);
            }
        }
        b
    }
    /// Is `sq` a dark square (as `a1` is)? Colourbound pieces keep to one colour.
    pub fn is_dark(&self, sq: Square) -> bool {
        (self.file(sq) + self.rank(sq)).is_multiple_of(2)
    }
    /// The letter naming a file: 0 is `a`.
    pub fn file_char(file: u8) -> char {
        (b'a' + file) as char
    }
    /// The algebraic name of `sq`, such as `e4` or `j10`.
    pub fn square_name(&self, sq: Square) -> String {
        format!(
            "{}{}",
            Self::file_char(self.file(sq)),
            self.rank(sq) as u32 + 1
        )
    }
    /// Reads a square like `e4` or `j10`; `None` when malformed or off the board.
    pub fn parse_square(&self, s: &str) -> Option<Square> {
        let mut chars = s.chars();
        let f = chars.next()?;
        if !f.is_ascii_lowercase() {
            return None;
        }
        let file = f as u32 - 'a' as u32;
        let rest = chars.as_str();
        if rest.is_empty()
            || rest.len() > 3
            || !rest.bytes().all(|b| b.is_ascii_digit())
            || rest.starts_with('0')
        {
            return None;
        }
        let rank: u32 = rest.parse().ok()?;
        if file >= self.files as u32 || rank == 0 || rank > self.ranks as u32 {
            return None;
        }
        Some(self.square(file as u8, (rank - 1) as u8))
    }
    /// Reads a file letter (`a`..).
    pub fn parse_file(&self, c: char) -> Option<u8> {
        if c.is_ascii_lowercase() && ((c as u8 - b'a') < self.files) {
            Some(c as u8 - b'a')
        } else {
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn squares_and_names_round_trip() {
        let g = Geometry::new(10, 10);
        assert_eq!(g.parse_square("j10"), Some(99));
        assert_eq!(g.square_name(99), "j10");
        assert_eq!(g.parse_square("k1"), None);
        assert_eq!(g.parse_square("a11"), None);
        assert_eq!(g.parse_square("a0"), None);
        assert_eq!(g.parse_square("a01"), None);
        assert_eq!(g.offset(0, -1, 0), None);
        assert_eq!(g.offset(9, 1, 0), None);
        assert!(g.is_dark(0));
    }

    #[test]
    fn bitboard_iteration_and_ends() {
        let b = Bitboard(0b1010_0000) | Bitboard::from_square(127);
        assert_eq!(b.lsb(), 5);
        assert_eq!(b.msb(), 127);
        assert_eq!(b.collect::<Vec<_>>(), vec![5, 7, 127]);
        assert_eq!(Geometry::new(16, 8).all(), Bitboard(u128::MAX));
    }
}
