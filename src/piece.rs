//! Colours and pieces: the small value types every other module shares.
//!
//! A variant defines its own pieces at run time, so a piece kind is an index into the
//! variant's piece list ([`PieceKind`]) rather than a fixed enum; colours are a real enum with
//! [`ByColour`] for the per-side arrays that positions and rules keep.

use std::ops::{Index, IndexMut};

/// The two sides. White moves first and sits on the low ranks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Colour {
    /// The side that moves first.
    White = 0,
    /// The side that moves second.
    Black = 1,
}

impl Colour {
    /// Both colours, White first (for loops over the sides).
    pub const ALL: [Colour; 2] = [Colour::White, Colour::Black];

    /// The opponent.
    #[inline]
    #[must_use]
    pub const fn other(self) -> Colour {
        match self {
            Colour::White => Colour::Black,
            Colour::Black => Colour::White,
        }
    }

    /// 0 for White, 1 for Black (table index).
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The colour with this table index (0 White, anything else Black).
    #[inline]
    pub const fn from_index(i: usize) -> Colour {
        if i == 0 {
            Colour::White
        } else {
            Colour::Black
        }
    }

    /// `"White"` or `"Black"`, as messages and PGN results name the sides.
    pub const fn name(self) -> &'static str {
        match self {
            Colour::White => "White",
            Colour::Black => "Black",
        }
    }

    /// The colour a FEN letter stands for: upper case is White.
    #[inline]
    pub fn of_letter(ch: char) -> Colour {
        if ch.is_ascii_uppercase() {
            Colour::White
        } else {
            Colour::Black
        }
    }

    /// A letter in this colour's case (`K` for White, `k` for Black).
    #[inline]
    pub fn cased(self, ch: char) -> char {
        match self {
            Colour::White => ch.to_ascii_uppercase(),
            Colour::Black => ch.to_ascii_lowercase(),
        }
    }
}

/// One value per colour, indexed by [`Colour`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct ByColour<T>(pub [T; 2]);

impl<T> ByColour<T> {
    /// White's value, then Black's.
    pub const fn new(white: T, black: T) -> ByColour<T> {
        ByColour([white, black])
    }

    /// Applies `f` to both values.
    pub fn map<U>(self, f: impl FnMut(T) -> U) -> ByColour<U> {
        ByColour(self.0.map(f))
    }
}

impl<T> Index<Colour> for ByColour<T> {
    type Output = T;
    #[inline]
    fn index(&self, c: Colour) -> &T {
        &self.0[c as usize]
    }
}

impl<T> IndexMut<Colour> for ByColour<T> {
    #[inline]
    fn index_mut(&mut self, c: Colour) -> &mut T {
        &mut self.0[c as usize]
    }
}

/// The per-colour arrays of positions and rules (`[T; 2]`, White first) are indexed by
/// colour directly.
impl<T> Index<Colour> for [T; 2] {
    type Output = T;
    #[inline]
    fn index(&self, c: Colour) -> &T {
        &self[c as usize]
    }
}

impl<T> IndexMut<Colour> for [T; 2] {
    #[inline]
    fn index_mut(&mut self, c: Colour) -> &mut T {
        &mut self[c as usize]
    }
}

/// A piece kind: the index of a piece in the variant's piece list (the order of the
/// `[pieces]` table).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(transparent)]
pub struct PieceKind(pub u8);

impl PieceKind {
    /// The index into the variant's piece list and the per-kind tables.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }
}

/// A piece of one colour and kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    /// Whose piece it is.
    pub colour: Colour,
    /// Which of the variant's pieces it is.
    pub kind: PieceKind,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colours_index_their_arrays() {
        let mut b = ByColour::new(1, 2);
        assert_eq!(b[Colour::White], 1);
        b[Colour::Black] += 5;
        assert_eq!(b.0, [1, 7]);
        assert_eq!(Colour::White.other(), Colour::Black);
        assert_eq!(Colour::from_index(Colour::Black.index()), Colour::Black);
        assert_eq!(Colour::Black.cased('K'), 'k');
        assert_eq!(Colour::of_letter('Q'), Colour::White);
    }
}
