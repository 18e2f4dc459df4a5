//! Move generation: attacks, pseudo-legal moves, legality, castling, Bishop Adjustment, perft.
//!
//! Moves are generated from the compiled tables into a fixed-capacity list (no allocation),
//! then filtered: a move is legal when the mover's king is not attacked afterwards. Castling
//! checks every square the king crosses first; adjustment is refused while in check.

use crate::geometry::{Bitboard, Square, NO_SQUARE};
use crate::position::{Move, MoveKind, Position, NO_PROMO};
use crate::rules::Rules;
use std::mem::MaybeUninit;

/// Capacity of a move list. Far above any reachable position (a 10x10 board with every
/// pawn promoted to a queen has well under 1,000 moves); pushes beyond it are dropped
/// rather than overflow, so even a hostile FEN cannot crash generation.
pub const MAX_MOVES: usize = 4096;

/// A fixed-capacity list of moves that lives on the stack.
pub struct MoveList {
    len: usize,
    moves: [MaybeUninit<Move>; MAX_MOVES],
}

impl Default for MoveList {
    fn default() -> Self {
        Self::new()
    }
}

impl MoveList {
    #[inline]
    pub fn new() -> MoveList {
        MoveList {
            len: 0,
            moves: [const { MaybeUninit::uninit() }; MAX_MOVES],
        }
    }
    #[inline]
    pub fn push(&mut self, m: Move) {
        if self.len < MAX_MOVES {
            self.moves[self.len] = MaybeUninit::new(m);
            self.len += 1;
        }
    }
    #[inline]
    pub fn len(&self) -> usize {
        self.len
    }
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
    #[inline]
    pub fn as_slice(&self) -> &[Move] {
        // SAFETY: the first `len` entries were written by `push`.
        unsafe { std::slice::from_raw_parts(self.moves.as_ptr() as *const Move, self.len) }
    }
    pub fn iter(&self) -> std::slice::Iter<'_, Move> {
        self.as_slice().iter()
    }
    pub fn contains(&self, m: &Move) -> bool {
        self.as_slice().contains(m)
    }
    #[inline]
    fn retain(&mut self, mut keep: impl FnMut(&Move) -> bool) {
        let mut j = 0;
        for i in 0..self.len {
            // SAFETY: i < len, written by push.
            let m = unsafe { self.moves[i].assume_init() };
            if keep(&m) {
                self.moves[j] = MaybeUninit::new(m);
                j += 1;
            }
        }
        self.len = j;
    }
}

impl<'a> IntoIterator for &'a MoveList {
    type Item = &'a Move;
    type IntoIter = std::slice::Iter<'a, Move>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

/// Squares strictly between two squares of one rank.
fn between_on_rank(_rules: &Rules, a: Square, b: Square) -> Bitboard {
    let (lo, hi) = if a < b { (a, b) } else { (b, a) };
    let mut m = Bitboard::EMPTY;
    for s in lo + 1..hi {
        m.set(s);
    }
    m
}

impl Position {
    /// Is `sq` attacked by a piece of colour `by` (with the current occupancy)?
    pub fn is_attacked(&self, rules: &Rules, sq: Square, by: usize) -> bool {
        self.is_attacked_occ(rules, sq, by, self.occupied())
    }

    pub(crate) fn is_attacked_occ(
        &self,
        rules: &Rules,
        sq: Square,
        by: usize,
        occ: Bitboard,
    ) -> bool {
        let theirs = self.by_colour[by];
        for t in 0..rules.n_types {
            let pm = rules.piece_moves(by, t);
            if pm.has_leap_capture
                && (pm.leap_attackers[sq as usize] & theirs & self.by_type[t]).any()
            {
                return true;
            }
        }
        for &(ray, mask) in &rules.rider_attacks[by] {
            if let Some(b) = rules.rays[ray].first_blocker(sq, occ) {
                if theirs.has(b) {
                    let t = ((self.board[b as usize] - 1) >> 1) as u32;
                    if mask >> t & 1 != 0 {
                        return true;
                    }
                }
            }
        }
        for &t in &rules.special_attackers[by] {
            let pm = rules.piece_moves(by, t);
            for x in theirs & self.by_type[t] {
                for sp in &pm.specials {
                    if !sp.capture || (sp.initial && !pm.initial_squares.has(x)) {
                        continue;
                    }
                    if sp.targets[x as usize]
                        .iter()
                        .any(|&(to, path)| to == sq && (path & occ).is_empty())
                    {
                        return true;
                    }
                }
            }
        }
        false
    }

    /// Is the side to move in check?
    pub fn in_check(&self, rules: &Rules) -> bool {
        let us = self.side as usize;
        self.is_attacked(rules, self.king[us], us ^ 1)
    }

    #[inline]
    fn push_move(
        &self,
        rules: &Rules,
        list: &mut MoveList,
        from: Square,
        to: Square,
        kind: MoveKind,
        pawn: bool,
    ) {
        if pawn && rules.promotion_zone[self.side as usize].has(to) {
            for &p in &rules.promotion_to {
                list.push(Move {
                    from,
                    to,
                    kind,
                    promo: p as u8,
                });
            }
        } else {
            list.push(Move {
                from,
                to,
                kind,
                promo: NO_PROMO,
            });
        }
    }

    /// Every pseudo-legal move (legal except that the own king may be left attacked).
    pub fn pseudo_moves(&self, rules: &Rules, list: &mut MoveList) {
        let us = self.side as usize;
        let them = us ^ 1;
        let occ = self.occupied();
        let enemy = self.by_colour[them];
        let empty = !occ & rules.all;
        for t in 0..rules.n_types {
            let mine = self.pieces(us, t);
            if mine.is_empty() {
                continue;
            }
            let pm = rules.piece_moves(us, t);
            let is_pawn = Some(t) == rules.pawn;
            for from in mine {
                let f = from as usize;
                let mut targets = (pm.leap_quiet[f] & empty) | (pm.leap_capture[f] & enemy);
                for r in &pm.riders {
                    let a = rules.rays[r.ray].attacks(rules, from, occ);
                    if r.quiet {
                        targets |= a & empty;
                    }
                    if r.capture {
                        targets |= a & enemy;
                    }
                }
                for to in targets {
                    self.push_move(rules, list, from, to, MoveKind::Normal, is_pawn);
                }
                for sp in &pm.specials {
                    if sp.initial && !pm.initial_squares.has(from) {
                        continue;
                    }
                    for &(to, path) in &sp.targets[f] {
                        if (path & occ).any() || targets.has(to) {
                            continue;
                        }
                        let quiet = empty.has(to);
                        if !(quiet && sp.quiet || enemy.has(to) && sp.capture) {
                            continue;
                        }
                        targets.set(to);
                        let double = is_pawn
                            && quiet
                            && rules.geo.file(from) == rules.geo.file(to)
                            && rules.geo.rank(from).abs_diff(rules.geo.rank(to)) == 2;
                        self.push_move(
                            rules,
                            list,
                            from,
                            to,
                            if double {
                                MoveKind::DoubleStep
                            } else {
                                MoveKind::Normal
                            },
                            is_pawn,
                        );
                    }
                }
                if self.ep != NO_SQUARE && pm.ep_capture[f].has(self.ep) && empty.has(self.ep) {
                    self.push_move(rules, list, from, self.ep, MoveKind::EnPassant, is_pawn);
                }
            }
        }
        self.castling_moves(rules, list);
        self.adjustment_moves(rules, list);
    }

    fn castling_moves(&self, rules: &Rules, list: &mut MoveList) {
        let us = self.side as usize;
        let them = us ^ 1;
        let k = self.king[us];
        let occ = self.occupied();
        for side in 0..2 {
            let r = self.castle[us][side];
            if r == NO_SQUARE {
                continue;
            }
            let Some((kd, rd)) = rules.castle_targets(us, side) else {
                continue;
            };
            if rules.geo.rank(k) != rules.geo.rank(r) {
                continue;
            }
            let mut must_be_empty = between_on_rank(rules, k, kd) | between_on_rank(rules, r, rd);
            must_be_empty.set(kd);
            must_be_empty.set(rd);
            must_be_empty.clear(k);
            must_be_empty.clear(r);
            if (must_be_empty & occ).any() {
                continue;
            }
            let mut path = between_on_rank(rules, k, kd);
            path.set(k);
            path.set(kd);
            if Iterator::any(&mut path, |s| self.is_attacked(rules, s, them)) {
                continue;
            }
            list.push(Move::new(k, r, MoveKind::Castle { side: side as u8 }));
        }
    }

    fn adjustment_moves(&self, rules: &Rules, list: &mut MoveList) {
        let us = self.side as usize;
        let Some(b) = rules.adjust_piece else { return };
        let rights = self.adjust[us];
        if rights.is_empty() {
            return;
        }
        let bishops = rights & self.pieces(us, b);
        if bishops.is_empty() || self.in_check(rules) {
            return;
        }
        for from in bishops {
            for df in [-1, 1] {
                let Some(to) = rules.geo.offset(from, df, 0) else {
                    continue;
                };
                if !rights.has(to) {
                    continue;
                }
                if let Some((t, c)) = self.piece_at(to) {
                    if c == us && rules.adjust_partners >> t & 1 != 0 {
                        list.push(Move::new(from, to, MoveKind::Adjust));
                    }
                }
            }
        }
    }

    /// Is the pseudo-legal move `m` legal (own king not attacked afterwards)?
    #[inline]
    pub fn is_legal_pseudo(&self, rules: &Rules, m: Move) -> bool {
        let after = self.play_unchecked(rules, m);
        let us = self.side as usize;
        !after.is_attacked(rules, after.king[us], us ^ 1)
    }

    /// Every legal move, into `list`.
    pub fn generate_legal(&self, rules: &Rules, list: &mut MoveList) {
        self.pseudo_moves(rules, list);
        list.retain(|&m| self.is_legal_pseudo(rules, m));
    }

    /// Every legal move.
    pub fn legal_moves(&self, rules: &Rules) -> MoveList {
        let mut list = MoveList::new();
        self.generate_legal(rules, &mut list);
        list
    }

    /// Counts leaf nodes `depth` plies deep.
    pub fn perft(&self, rules: &Rules, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let moves = self.legal_moves(rules);
        if depth == 1 {
            return moves.len() as u64;
        }
        moves
            .iter()
            .map(|&m| self.play_unchecked(rules, m).perft(rules, depth - 1))
            .sum()
    }

    /// Perft per root move, in generation order.
    pub fn divide(&self, rules: &Rules, depth: u32) -> Vec<(Move, u64)> {
        let depth = depth.max(1);
        self.legal_moves(rules)
            .iter()
            .map(|&m| (m, self.play_unchecked(rules, m).perft(rules, depth - 1)))
            .collect()
    }
}
