//! The transposition table: what earlier searches learned about a position, shared by every
//! search thread.
//!
//! Entries live in buckets of four (one cache line). Each entry is two atomic words: the data,
//! and the key's lower 48 bits with the position's static evaluation in the other 16, stored
//! xor-ed with the data, so a torn write by another thread reads as a miss instead of as a
//! wrong move (the "lockless hashing" trick; the bucket comes from the key's upper bits, so
//! the lower ones are the ones worth checking); a move read from the table is still checked
//! against the move list before it is played. An entry records the search generation that
//! wrote it, so a new search replaces old entries before shallow recent ones.

use super::huge_pages::{HugeBuf, ZeroValid};
use crate::piece::PieceKind;
use crate::position::{Move, MoveKind};
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

/// What a stored score says about the true value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The true value is at most the score (every move failed low).
    Upper = 1,
    /// The true value is at least the score (a move failed high).
    Lower = 2,
    Exact = 3,
}

/// A table hit, unpacked.
#[derive(Clone, Copy, Debug)]
pub struct TtHit {
    pub mv: Option<Move>,
    pub score: i32,
    pub depth: i32,
    pub bound: Bound,
    /// The position's static evaluation, when the node that stored it had one (not in
    /// check): a hit saves evaluating the position again.
    pub eval: Option<i32>,
}

const SLOTS: usize = 4;
const SCORE_BIAS: i64 = 1 << 21;
/// The key bits an entry keeps.
const KEY_BITS: u32 = 48;
/// The evaluation field's value for "none".
const NO_EVAL: u16 = i16::MIN as u16;

#[derive(Default)]
struct Slot {
    /// `(key << 16 | eval) ^ data`.
    check_xor_data: AtomicU64,
    data: AtomicU64,
}

/// The key part of an entry's check word.
fn key_check(key: u64) -> u64 {
    key << (64 - KEY_BITS)
}

/// An entry's check word: the key's lower bits above the evaluation.
fn check_word(key: u64, eval: Option<i32>) -> u64 {
    let e = eval
        .filter(|&e| e > i16::MIN as i32 && e <= i16::MAX as i32)
        .map_or(NO_EVAL, |e| e as i16 as u16);
    key_check(key) | e as u64
}

/// The data word and the stored evaluation of a slot, if it holds `key`.
fn read_slot(s: &Slot, key: u64) -> Option<(u64, Option<i32>)> {
    let data = s.data.load(Relaxed);
    let check = s.check_xor_data.load(Relaxed) ^ data;
    let e = check as u16;
    (data != 0 && check & !0xffff == key_check(key))
        .then_some((data, (e != NO_EVAL).then_some(e as i16 as i32)))
}

/// One cache line of slots: a probe touches one line only.
#[derive(Default)]
#[repr(align(64))]
struct Bucket([Slot; SLOTS]);

// SAFETY: a bucket is atomics only, and an all-zero bucket is the empty one.
unsafe impl ZeroValid for Bucket {}

/// The shared table. Sized once from megabytes; `clear` and `resize` need exclusive access.
pub struct Tt {
    slots: HugeBuf<Bucket>,
    buckets: usize,
    generation: std::sync::atomic::AtomicU8,
}

/// Bytes one entry takes, for sizing.
pub const ENTRY_BYTES: usize = std::mem::size_of::<[u64; 2]>();

impl Tt {
    /// A table of at most `mb` megabytes (at least one bucket).
    pub fn new(mb: usize) -> Tt {
        let entries = mb.clamp(1, 65_536) * 1024 * 1024 / ENTRY_BYTES;
        let buckets = (entries / SLOTS).max(1);
        let slots = HugeBuf::zeroed(buckets);
        Tt {
            slots,
            buckets,
            generation: Default::default(),
        }
    }

    /// Number of entries.
    #[cfg(test)]
    pub fn len(&self) -> usize {
        self.slots.len() * SLOTS
    }

    /// Forgets every entry.
    pub fn clear(&mut self) {
        for s in self.slots.iter_mut() {
            *s = Bucket::default();
        }
    }

    /// Starts a new search: older entries become the first to be replaced.
    pub fn new_search(&self) {
        self.generation.fetch_add(1, Relaxed);
    }

    fn bucket(&self, key: u64) -> &[Slot] {
        let b = ((key as u128 * self.buckets as u128) >> 64) as usize;
        &self.slots[b].0
    }

    /// Asks the processor to start loading `key`'s bucket, so the probe a little later
    /// finds it in cache (a hint only: it changes no result).
    #[inline]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            let b = ((key as u128 * self.buckets as u128) >> 64) as usize;
            let p = &self.slots[b] as *const Bucket as *const i8;
            // SAFETY: prefetching is a hint; it never faults, and `p` points into the table.
            unsafe { std::arch::x86_64::_mm_prefetch(p, std::arch::x86_64::_MM_HINT_T0) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// The entry for `key`, if the table has one.
    pub fn probe(&self, key: u64) -> Option<TtHit> {
        for s in self.bucket(key) {
            if let Some((data, eval)) = read_slot(s, key) {
                return unpack(data).map(|h| TtHit { eval, ..h });
            }
        }
        None
    }

    /// Stores a search result and the position's static evaluation. A shallower result for
    /// the same position keeps the move it had when the new one has none, and does not
    /// replace a deeper exact result.
    pub fn store(
        &self,
        key: u64,
        mv: Option<Move>,
        score: i32,
        depth: i32,
        bound: Bound,
        eval: Option<i32>,
    ) {
        let generation = self.generation.load(Relaxed);
        let bucket = self.bucket(key);
        let mut victim = 0;
        let mut victim_worth = i32::MAX;
        for (i, s) in bucket.iter().enumerate() {
            let data = s.data.load(Relaxed);
            if data == 0 || read_slot(s, key).is_some() {
                victim = i;
                break;
            }
            // Replace the shallowest entry, counting each generation of age as eight plies.
            let age = generation.wrapping_sub(field(data, 54, 8) as u8) as i32;
            let worth = field(data, 44, 8) as i32 - 8 * age;
            if worth < victim_worth {
                victim_worth = worth;
                victim = i;
            }
        }
        let s = &bucket[victim];
        let mut mv = mv;
        if let Some((old, _)) = read_slot(s, key) {
            let prev = unpack(old);
            if mv.is_none() {
                mv = prev.and_then(|h| h.mv);
            }
            if let Some(p) = prev {
                let fresh = field(old, 54, 8) as u8 == generation;
                if fresh && bound != Bound::Exact && p.depth > depth + 3 {
                    return;
                }
            }
        }
        let data = pack(mv, score, depth, bound, generation);
        s.data.store(data, Relaxed);
        s.check_xor_data
            .store(check_word(key, eval) ^ data, Relaxed);
    }
}

fn field(data: u64, shift: u32, bits: u32) -> u64 {
    (data >> shift) & ((1 << bits) - 1)
}

fn pack_move(m: Option<Move>) -> u64 {
    let Some(m) = m else { return 0 };
    let kind = match m.kind {
        MoveKind::Normal => 1,
        MoveKind::DoubleStep => 2,
        MoveKind::EnPassant => 3,
        MoveKind::Castle { side } => 4 + (side & 1) as u64,
        MoveKind::Adjust => 6,
    };
    let promo = m.promo.map_or(31, |k| k.0 as u64 & 31);
    (m.from as u64 & 127) | (m.to as u64 & 127) << 7 | kind << 14 | promo << 17
}

fn unpack_move(bits: u64) -> Option<Move> {
    let kind = match field(bits, 14, 3) {
        1 => MoveKind::Normal,
        2 => MoveKind::DoubleStep,
        3 => MoveKind::EnPassant,
        4 => MoveKind::Castle { side: 0 },
        5 => MoveKind::Castle { side: 1 },
        6 => MoveKind::Adjust,
        _ => return None,
    };
    let promo = field(bits, 17, 5) as u8;
    Some(Move {
        from: field(bits, 0, 7) as _,
        to: field(bits, 7, 7) as _,
        kind,
        promo: (promo != 31).then_some(PieceKind(promo)),
    })
}

fn pack(mv: Option<Move>, score: i32, depth: i32, bound: Bound, generation: u8) -> u64 {
    let score = (score as i64).clamp(-SCORE_BIAS + 1, SCORE_BIAS - 1) + SCORE_BIAS;
    let depth = (depth + 2).clamp(0, 255) as u64;
    pack_move(mv)
        | (score as u64) << 22
        | depth << 44
        | (bound as u64) << 52
        | (generation as u64) << 54
}

fn unpack(data: u64) -> Option<TtHit> {
    let bound = match field(data, 52, 2) {
        1 => Bound::Upper,
        2 => Bound::Lower,
        3 => Bound::Exact,
        _ => return None,
    };
    Some(TtHit {
        mv: unpack_move(field(data, 0, 22)),
        score: (field(data, 22, 22) as i64 - SCORE_BIAS) as i32,
        depth: field(data, 44, 8) as i32 - 2,
        bound,
        eval: None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_round_trip() {
        let tt = Tt::new(1);
        let m = Move {
            from: 80,
            to: 3,
            kind: MoveKind::Castle { side: 1 },
            promo: None,
        };
        tt.store(
            0xdead_beef,
            Some(m),
            -899_990,
            17,
            Bound::Lower,
            Some(-1234),
        );
        let h = tt.probe(0xdead_beef).unwrap();
        assert_eq!(
            (h.mv, h.score, h.depth, h.bound, h.eval),
            (Some(m), -899_990, 17, Bound::Lower, Some(-1234))
        );
        assert!(tt.probe(0xdead_bee0).is_none());
        let p = Move {
            promo: Some(PieceKind(5)),
            kind: MoveKind::Normal,
            ..m
        };
        tt.store(7, Some(p), 12, 0, Bound::Exact, None);
        assert_eq!(tt.probe(7).unwrap().mv, Some(p));
        assert_eq!(tt.probe(7).unwrap().eval, None);
        // A result without a move keeps the move already stored.
        tt.store(7, None, 30, 1, Bound::Upper, Some(i16::MAX as i32));
        assert_eq!(tt.probe(7).unwrap().mv, Some(p));
        assert_eq!(tt.probe(7).unwrap().eval, Some(i16::MAX as i32));
        // An evaluation beyond the field is not kept.
        tt.store(7, None, 30, 1, Bound::Upper, Some(40_000));
        assert_eq!(tt.probe(7).unwrap().eval, None);
    }

    #[test]
    fn size_is_bounded_by_megabytes() {
        for mb in [1, 3, 16] {
            let bytes = Tt::new(mb).len() * ENTRY_BYTES;
            assert!(
                bytes <= mb << 20 && bytes > (mb << 20) / 2,
                "{mb} MB: {bytes}"
            );
        }
    }
}
