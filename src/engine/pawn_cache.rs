//! The pawn-structure sums of recently seen pawn placements (one cache per search thread).
//! Pawns move rarely, so most evaluations in a search meet a placement seen before, and
//! its pawns' placement terms and their doubled, isolated, supported, connected and passed
//! pawns need not be counted again.
//!
//! An entry keeps the whole placement it was computed for, so a hit is never a collision
//! and the cached sums are exactly what counting would give: the search's tree does not
//! depend on the cache.

use crate::geometry::Bitboard;

/// Per colour, the (middlegame, endgame) sum of its pawns' placement and structure terms.
pub type PawnSums = [[i32; 2]; 2];

/// One placement and its sums. The empty entry stands for the placement without pawns,
/// whose sums are zero, so it needs no flag saying it is unused.
#[derive(Clone, Copy, Default)]
struct Entry {
    pawns: [Bitboard; 2],
    sums: PawnSums,
}

pub struct PawnCache(Vec<Entry>);

const ENTRIES: usize = 1 << 13;

impl PawnCache {
    pub fn new() -> PawnCache {
        PawnCache(vec![Entry::default(); ENTRIES])
    }

    /// The sums for `pawns` (White's, Black's), if this placement is cached.
    #[inline]
    pub fn get(&self, pawns: [Bitboard; 2]) -> Option<PawnSums> {
        let e = &self.0[slot(pawns)];
        (e.pawns == pawns).then_some(e.sums)
    }

    #[inline]
    pub fn put(&mut self, pawns: [Bitboard; 2], sums: PawnSums) {
        self.0[slot(pawns)] = Entry { pawns, sums };
    }

    /// Forgets every entry (new weights).
    pub fn clear(&mut self) {
        self.0.fill(Entry::default());
    }
}

impl Default for PawnCache {
    fn default() -> Self {
        PawnCache::new()
    }
}

/// Where a placement lives: its four 64-bit halves mixed, the top bits of a product.
#[inline]
fn slot(pawns: [Bitboard; 2]) -> usize {
    let [w, b] = pawns.map(|p| p.0);
    let mixed = (w as u64) ^ ((w >> 64) as u64).rotate_left(17);
    let mixed = mixed ^ (b as u64).rotate_left(31) ^ ((b >> 64) as u64).rotate_left(47);
    (mixed.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - ENTRIES.trailing_zeros())) as usize
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_placement_is_found_only_under_its_own_pawns() {
        let mut c = PawnCache::new();
        let a = [Bitboard(0xff00), Bitboard(0xff << 48)];
        let b = [Bitboard(0xff << 48), Bitboard(0xff00)];
        assert_eq!(c.get(a), None);
        c.put(a, [[1, 2], [3, 4]]);
        assert_eq!(c.get(a), Some([[1, 2], [3, 4]]));
        assert_eq!(c.get(b), None);
        // Without pawns the sums are zero, cached or not.
        assert_eq!(c.get([Bitboard::EMPTY; 2]), Some([[0; 2]; 2]));
        c.clear();
        assert_eq!(c.get(a), None);
    }
}
