//! Move generation: attacks, pseudo-legal moves, legality, castling, Bishop Adjustment, perft.
//!
//! Moves are generated from the compiled tables into a fixed-capacity list (no allocation),
//! then filtered: a move is legal when the mover's king is not attacked afterwards. Castling
//! checks every square the king crosses first; adjustment is refused while in check.

use crate::geometry::{Bitboard, Square, MAX_SQUARES};
use crate::piece::Colour;
use crate::position::{Move, MoveKind, Position};
use crate::promotion::{count_targets, for_each_target, PromoChoices};
use crate::rules::{PieceMoves, Rules};
use std::mem::MaybeUninit;

pub use crate::position::MAX_MOVES;

/// A fixed-capacity list of moves that lives on the stack (6 KiB).
///
/// Generation fills one list, so a search can reuse it without allocating:
/// ```
/// use modern_chess::{catalog, MoveList, Position};
///
/// let rules = catalog::load_rules("chess").unwrap();
/// let pos = Position::from_fen(&rules, "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1").unwrap();
/// let mut list = MoveList::new();
/// pos.generate_legal(&rules, &mut list);
/// let uci: Vec<String> = list.iter().map(|m| m.uci(&rules)).collect();
/// assert!(uci.contains(&"e2e4".to_string()));
/// assert_eq!(list.len(), pos.legal_moves(&rules).len());
/// ```
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
    /// An empty list.
    #[inline]
    pub fn new() -> MoveList {
        MoveList {
            len: 0,
            moves: [const { MaybeUninit::uninit() }; MAX_MOVES],
        }
    }
    /// Adds a move.
    ///
    /// # Panics
    /// Past [`MAX_MOVES`], which no position made by [`Position::from_setup`] reaches: a
    /// silent drop would hide a bug in the bound.
    #[inline]
    pub fn push(&mut self, m: Move) {
        assert!(
            self.len < MAX_MOVES,
            "move list overflow: the move bound is wrong"
        );
        self.moves[self.len] = MaybeUninit::new(m);
        self.len += 1;
    }
    /// How many moves the list holds.
    #[inline]
    pub fn len(&self) -> usize {
        self.len
    }
    /// Is the list empty?
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
    /// The moves.
    #[inline]
    pub fn as_slice(&self) -> &[Move] {
        // SAFETY: the first `len` entries were written by `push`.
        unsafe { std::slice::from_raw_parts(self.moves.as_ptr() as *const Move, self.len) }
    }
    /// The moves, mutable (for ordering them in place).
    #[inline]
    pub fn as_mut_slice(&mut self) -> &mut [Move] {
        // SAFETY: the first `len` entries were written by `push`.
        unsafe { std::slice::from_raw_parts_mut(self.moves.as_mut_ptr() as *mut Move, self.len) }
    }
    /// Iterates over the moves.
    pub fn iter(&self) -> std::slice::Iter<'_, Move> {
        self.as_slice().iter()
    }
    /// Is `m` in the list?
    pub fn contains(&self, m: &Move) -> bool {
        self.as_slice().contains(m)
    }
}

impl<'a> IntoIterator for &'a MoveList {
    type Item = &'a Move;
    type IntoIter = std::slice::Iter<'a, Move>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

/// Where generated moves go: a list, or only their number (perft's last ply needs no list).
pub(crate) trait Sink {
    fn push(&mut self, m: Move);
    /// Moves of the piece on `from` to every square of `targets` (a pawn, `promo` given,
    /// reaching its zone gives one move per promotion choice).
    fn targets(
        &mut self,
        rules: &Rules,
        us: Colour,
        from: Square,
        targets: Bitboard,
        kind: MoveKind,
        promo: Option<PromoChoices>,
    );
}

impl Sink for MoveList {
    #[inline]
    fn push(&mut self, m: Move) {
        MoveList::push(self, m);
    }
    #[inline]
    fn targets(
        &mut self,
        rules: &Rules,
        us: Colour,
        from: Square,
        targets: Bitboard,
        kind: MoveKind,
        promo: Option<PromoChoices>,
    ) {
        for_each_target(rules, us, from, targets, kind, promo, |m| {
            MoveList::push(self, m)
        });
    }
}

/// Counts moves instead of listing them.
pub(crate) struct Counter(pub u64);

impl Sink for Counter {
    #[inline]
    fn push(&mut self, _m: Move) {
        self.0 += 1;
    }
    #[inline]
    fn targets(
        &mut self,
        rules: &Rules,
        us: Colour,
        _from: Square,
        targets: Bitboard,
        _kind: MoveKind,
        promo: Option<PromoChoices>,
    ) {
        self.0 += count_targets(rules, us, targets, promo);
    }
}

/// Looks for one move among those generated.
struct Finder {
    wanted: Move,
    found: bool,
}

impl Sink for Finder {
    #[inline]
    fn push(&mut self, m: Move) {
        self.found |= m == self.wanted;
    }
    fn targets(
        &mut self,
        rules: &Rules,
        us: Colour,
        from: Square,
        targets: Bitboard,
        kind: MoveKind,
        promo: Option<PromoChoices>,
    ) {
        if targets.has(self.wanted.to) && kind == self.wanted.kind {
            for_each_target(rules, us, from, targets, kind, promo, |m| self.push(m));
        }
    }
}

/// Passes on only the moves that do not leave the own king attacked, found by making them:
/// for the rare moves whose legality the pin and check masks do not settle (en passant,
/// castling, adjustment) and for variants with capturing lame or initial moves.
struct Verified<'a, S: Sink> {
    pos: &'a Position,
    rules: &'a Rules,
    inner: &'a mut S,
}

impl<S: Sink> Sink for Verified<'_, S> {
    #[inline]
    fn push(&mut self, m: Move) {
        if self.pos.is_legal_pseudo(self.rules, m) {
            self.inner.push(m);
        }
    }
    fn targets(
        &mut self,
        rules: &Rules,
        us: Colour,
        from: Square,
        targets: Bitboard,
        kind: MoveKind,
        promo: Option<PromoChoices>,
    ) {
        for_each_target(rules, us, from, targets, kind, promo, |m| self.push(m));
    }
}

/// Which targets a pseudo-legal generation covers.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Targets {
    All,
    /// Enemy pieces, and for pawns the promotion zone (en passant too).
    Noisy,
    /// Squares without an enemy piece (en passant too), castling and adjustment.
    Quiet,
}

/// Squares strictly between two squares of one rank.
#[inline]
fn between_on_rank(a: Square, b: Square) -> Bitboard {
    let (lo, hi) = if a < b { (a, b) } else { (b, a) };
    if lo == hi {
        return Bitboard::EMPTY;
    }
    Bitboard(((1u128 << hi) - 1) & !((1u128 << (lo + 1)) - 1))
}

/// What the opponent's pieces do to the king of the side to move.
struct Threats {
    /// Pieces giving check.
    checkers: Bitboard,
    /// Squares between the king and a checking rider.
    block: Bitboard,
    /// Own pieces pinned to the king.
    pinned: Bitboard,
}

impl Position {
    /// Is `sq` attacked by a piece of colour `by` (with the current occupancy)?
    pub fn is_attacked(&self, rules: &Rules, sq: Square, by: Colour) -> bool {
        self.is_attacked_occ(rules, sq, by, self.occupied())
    }

    /// The pieces of colour `c` of the types in the bit mask.
    #[inline]
    fn types_of(&self, c: Colour, mut mask: u32) -> Bitboard {
        let mut b = Bitboard::EMPTY;
        while mask != 0 {
            b |= self.by_type[mask.trailing_zeros() as usize];
            mask &= mask - 1;
        }
        b & self.by_colour[c]
    }

    /// The riders of colour `by` (among the pieces in `occ`) that capture on `sq`, one by one:
    /// the first piece on each line to `sq`, when it rides that line. One test on the empty
    /// board's lines rules them all out first.
    #[inline]
    pub(crate) fn rider_attackers<'a>(
        &'a self,
        rules: &'a Rules,
        sq: Square,
        by: Colour,
        occ: Bitboard,
    ) -> impl Iterator<Item = Square> + 'a {
        let s = sq as usize;
        let riders = self.types_of(by, rules.rider_types[by]) & occ;
        let lines = if (rules.rider_reach[by][s] & riders).any() {
            &rules.rider_attacks[by][..]
        } else {
            &[]
        };
        lines.iter().filter_map(move |&(ray, mask)| {
            let rt = &rules.rays[ray];
            if (rt.rays[s] & riders).is_empty() {
                return None;
            }
            let b = rt.first_blocker(sq, occ)?;
            (riders.has(b) && mask >> self.kind_at(b) & 1 != 0).then_some(b)
        })
    }

    pub(crate) fn is_attacked_occ(
        &self,
        rules: &Rules,
        sq: Square,
        by: Colour,
        occ: Bitboard,
    ) -> bool {
        let theirs = self.by_colour[by] & occ;
        let s = sq as usize;
        if (rules.leap_reach[by][s] & theirs).any() {
            for &t in &rules.leap_attack_types[by] {
                let pm = rules.piece_moves(by, t);
                if (pm.leap_attackers[s] & theirs & self.by_type[t]).any() {
                    return true;
                }
            }
        }
        if self.rider_attackers(rules, sq, by, occ).next().is_some() {
            return true;
        }
        if !rules.hopper_attackers[by].is_empty() && self.hopper_attacks(rules, sq, by, occ) {
            return true;
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
        let us = self.side;
        self.is_attacked(rules, self.king[us], us.other())
    }

    /// Leap and rider targets of a piece (before any legality test).
    #[inline]
    fn plain_targets(
        rules: &Rules,
        pm: &PieceMoves,
        from: Square,
        occ: Bitboard,
        empty: Bitboard,
        enemy: Bitboard,
    ) -> Bitboard {
        let f = from as usize;
        let mut targets = (pm.leap_quiet[f] & empty) | (pm.leap_capture[f] & enemy);
        let mut add = |a: Bitboard, quiet: bool, capture: bool| {
            if quiet {
                targets |= a & empty;
            }
            if capture {
                targets |= a & enemy;
            }
        };
        for l in &pm.lines {
            add(l.attacks(&rules.rays, from, occ), l.quiet, l.capture);
        }
        for r in &pm.lone_riders {
            add(rules.rays[r.ray].attacks(from, occ), r.quiet, r.capture);
        }
        targets
    }

    /// The lame and initial moves of a piece whose target is not in `seen` and within `allowed`;
    /// adds their targets to `seen`.
    #[inline]
    #[allow(clippy::too_many_arguments)]
    fn special_moves<S: Sink>(
        &self,
        rules: &Rules,
        sink: &mut S,
        pm: &PieceMoves,
        from: Square,
        seen: &mut Bitboard,
        allowed: Bitboard,
        is_pawn: Option<PromoChoices>,
    ) {
        let us = self.side;
        let occ = self.occupied();
        let enemy = self.by_colour[us.other()];
        let double_step = 2 * rules.geo.files as u32;
        for sp in &pm.specials {
            if sp.initial && !pm.initial_squares.has(from) {
                continue;
            }
            for &(to, path) in &sp.targets[from as usize] {
                if (path & occ).any() || seen.has(to) {
                    continue;
                }
                let quiet = !occ.has(to);
                if !(quiet && sp.quiet || enemy.has(to) && sp.capture) {
                    continue;
                }
                seen.set(to);
                if !allowed.has(to) {
                    continue;
                }
                let double =
                    is_pawn.is_some() && quiet && (from as u32).abs_diff(to as u32) == double_step;
                let kind = if double {
                    MoveKind::DoubleStep
                } else {
                    MoveKind::Normal
                };
                sink.targets(rules, us, from, Bitboard::from_square(to), kind, is_pawn);
            }
        }
    }

    /// Every pseudo-legal move (legal except that the own king may be left attacked).
    pub fn pseudo_moves(&self, rules: &Rules, list: &mut MoveList) {
        self.pseudo_into(rules, list, Targets::All);
    }

    /// The pseudo-legal moves that may capture or promote (what quiescence searches): a
    /// superset of them, since a pawn's quiet step into the zone may also be generated
    /// without promotion where promotion is optional. Castling and adjustment are left out.
    pub fn pseudo_noisy_moves(&self, rules: &Rules, list: &mut MoveList) {
        self.pseudo_into(rules, list, Targets::Noisy);
    }

    /// The pseudo-legal moves onto squares no enemy piece stands on, castling and adjustment
    /// included: a superset of the moves that neither capture nor promote (promotions and en
    /// passant onto empty squares come too), so a search that cut off on a capture never
    /// generates them. Filtered by what they do, the two parts list the moves in the order
    /// [`Position::pseudo_moves`] does.
    pub fn pseudo_quiet_moves(&self, rules: &Rules, list: &mut MoveList) {
        self.pseudo_into(rules, list, Targets::Quiet);
    }

    /// The pseudo-legal moves whose targets are in `part`.
    fn pseudo_into<S: Sink>(&self, rules: &Rules, sink: &mut S, part: Targets) {
        let us = self.side;
        let choices = self.promotion_choices(rules);
        let enemy = self.by_colour[us.other()];
        for t in 0..rules.n_types {
            let mine = self.pieces_of(us, t);
            if mine.is_empty() {
                continue;
            }
            let is_pawn = (Some(t) == rules.pawn).then_some(choices);
            let allowed = match (part, is_pawn) {
                (Targets::All, _) => rules.all,
                (Targets::Noisy, Some(_)) => enemy | rules.promotion_zone[us],
                (Targets::Noisy, None) => enemy,
                (Targets::Quiet, _) => rules.all & !enemy,
            };
            for from in mine {
                self.piece_pseudo_into(rules, sink, t, from, allowed, is_pawn);
            }
        }
        if part != Targets::Noisy {
            self.castling_moves(rules, sink);
            self.adjustment_moves(rules, sink);
        }
    }

    /// The pseudo-legal moves of the side to move's piece of type `t` on `from` whose target
    /// is within `allowed` (castling and adjustment aside).
    #[inline]
    fn piece_pseudo_into<S: Sink>(
        &self,
        rules: &Rules,
        sink: &mut S,
        t: usize,
        from: Square,
        allowed: Bitboard,
        is_pawn: Option<PromoChoices>,
    ) {
        let us = self.side;
        let occ = self.occupied();
        let enemy = self.by_colour[us.other()];
        let empty = !occ & rules.all;
        let pm = rules.piece_moves(us, t);
        let mut targets = Self::plain_targets(rules, pm, from, occ, empty, enemy);
        if !pm.hoppers.is_empty() {
            targets |= crate::hop::hop_targets(rules, pm, from, occ, enemy);
        }
        sink.targets(
            rules,
            us,
            from,
            targets & allowed,
            MoveKind::Normal,
            is_pawn,
        );
        if pm.specials_may_reach(from, allowed) {
            self.special_moves(rules, sink, pm, from, &mut targets, allowed, is_pawn);
        }
        let ep = self.ep_target(pm, from, empty);
        if ep.any() {
            sink.targets(rules, us, from, ep, MoveKind::EnPassant, is_pawn);
        }
    }

    /// Is `m` a pseudo-legal move here (one [`Position::pseudo_moves`] would give)? Only the
    /// moving piece's moves are generated, so the search can try a table move, which may come
    /// from another position with the same hash, before generating the node's moves.
    pub fn is_pseudo_legal(&self, rules: &Rules, m: Move) -> bool {
        let on_board = |sq: Square| (sq as usize) < MAX_SQUARES && rules.all.has(sq);
        if !on_board(m.from) || !on_board(m.to) {
            return false;
        }
        if matches!(m.kind, MoveKind::Castle { .. } | MoveKind::Adjust) {
            let mut list = MoveList::new();
            self.pseudo_moves(rules, &mut list);
            return list.iter().any(|&x| x == m);
        }
        let Some(piece) = self.piece_at(m.from) else {
            return false;
        };
        if piece.colour != self.side {
            return false;
        }
        let t = piece.kind.index();
        let is_pawn = (Some(t) == rules.pawn).then(|| self.promotion_choices(rules));
        let mut finder = Finder {
            wanted: m,
            found: false,
        };
        let to = Bitboard::from_square(m.to);
        self.piece_pseudo_into(rules, &mut finder, t, m.from, to, is_pawn);
        finder.found
    }

    /// Where the pinned piece on `from` may go: the lines from the king through it to each
    /// pinner (pinner included).
    #[cold]
    fn pin_mask(&self, rules: &Rules, from: Square, occ: Bitboard) -> Bitboard {
        let us = self.side;
        let them = us.other();
        let k = self.king[us];
        let theirs = self.by_colour[them];
        let without = occ ^ Bitboard::from_square(from);
        let mut allowed = rules.all;
        for &(ray, mask) in &rules.rider_attacks[them] {
            let rt = &rules.rays[ray];
            if !rt.rays[k as usize].has(from) || rt.first_blocker(k, occ) != Some(from) {
                continue;
            }
            if let Some(b) = rt.first_blocker(k, without) {
                let t = self.kind_at(b) as u32;
                if theirs.has(b) && mask >> t & 1 != 0 {
                    allowed &= rt.attacks(k, without);
                }
            }
        }
        allowed
    }

    /// The en passant square as a target of the piece on `from`, if it may capture onto it.
    #[inline]
    fn ep_target(&self, pm: &PieceMoves, from: Square, empty: Bitboard) -> Bitboard {
        match self.ep_square() {
            Some(ep) if pm.ep_capture[from as usize].has(ep) && empty.has(ep) => {
                Bitboard::from_square(ep)
            }
            _ => Bitboard::EMPTY,
        }
    }

    /// Legal moves into a sink: pieces are kept to the check and pin masks, the king to
    /// squares not attacked once it has left its square; en passant, castling and
    /// adjustment are made and tested.
    pub(crate) fn legal_into<S: Sink>(&self, rules: &Rules, sink: &mut S) {
        let them = self.side.other();
        if rules.rule_ends && self.rule_end(rules).is_some() {
            // the game is over by a variant rule (bare king, campmate, ...): no moves
            return;
        }
        if !rules.special_attackers[them].is_empty() || !rules.hopper_attackers[them].is_empty() {
            // a lame or initial capture can be blocked off its line, and a hopper's check can be
            // made or unmade by any piece on its line: no masks, test each move
            let mut verified = Verified {
                pos: self,
                rules,
                inner: sink,
            };
            self.pseudo_into(rules, &mut verified, Targets::All);
            return;
        }
        let threats = self.threats(rules);
        self.king_moves(rules, sink);
        self.non_king_moves(rules, sink, &threats);
        if threats.checkers.is_empty() {
            let mut v = Verified {
                pos: self,
                rules,
                inner: sink,
            };
            self.castling_moves(rules, &mut v);
            self.adjustment_moves(rules, &mut v);
        }
    }

    /// The pieces giving check, the squares that block a rider's check, and the own pieces
    /// pinned to the king.
    #[inline]
    fn threats(&self, rules: &Rules) -> Threats {
        let us = self.side;
        let them = us.other();
        let occ = self.occupied();
        let own = self.by_colour[us];
        let theirs = self.by_colour[them];
        let k = self.king[us];
        let mut t = Threats {
            checkers: Bitboard::EMPTY,
            block: Bitboard::EMPTY,
            pinned: Bitboard::EMPTY,
        };
        if (rules.leap_reach[them][k as usize] & theirs).any() {
            for &kind in &rules.leap_attack_types[them] {
                t.checkers |= rules.piece_moves(them, kind).leap_attackers[k as usize]
                    & theirs
                    & self.by_type[kind];
            }
        }
        let riders = self.types_of(them, rules.rider_types[them]);
        if (rules.rider_reach[them][k as usize] & riders).is_empty() {
            return t;
        }
        for &(ray, mask) in &rules.rider_attacks[them] {
            let rt = &rules.rays[ray];
            if (rt.rays[k as usize] & riders).is_empty() {
                continue;
            }
            let Some(b) = rt.first_blocker(k, occ) else {
                continue;
            };
            if own.has(b) {
                if let Some(b2) = rt.first_blocker(k, occ ^ Bitboard::from_square(b)) {
                    if riders.has(b2) && mask >> self.kind_at(b2) & 1 != 0 {
                        t.pinned.set(b);
                    }
                }
            } else if riders.has(b) && mask >> self.kind_at(b) & 1 != 0 {
                t.checkers.set(b);
                t.block |= rt.attacks(k, occ);
            }
        }
        t
    }

    /// The king's moves: every target tested with the king off the board; its special and en
    /// passant moves (rare for a king) made and tested.
    #[inline]
    fn king_moves<S: Sink>(&self, rules: &Rules, sink: &mut S) {
        let us = self.side;
        let them = us.other();
        let occ = self.occupied();
        let empty = !occ & rules.all;
        let k = self.king[us];
        let pm = rules.piece_moves(us, rules.royal);
        let is_pawn = (Some(rules.royal) == rules.pawn).then(|| self.promotion_choices(rules));
        let without = occ ^ Bitboard::from_square(k);
        let theirs = self.by_colour[them];
        let mut seen = Self::plain_targets(rules, pm, k, occ, empty, theirs);
        if !pm.hoppers.is_empty() {
            seen |= crate::hop::hop_targets(rules, pm, k, occ, theirs);
        }
        let mut safe = Bitboard::EMPTY;
        for to in seen {
            if !self.is_attacked_occ(rules, to, them, without) {
                safe.set(to);
            }
        }
        sink.targets(rules, us, k, safe, MoveKind::Normal, is_pawn);
        if pm.specials.is_empty() && pm.ep_capture[k as usize].is_empty() {
            return;
        }
        let mut v = Verified {
            pos: self,
            rules,
            inner: sink,
        };
        if !pm.specials.is_empty() {
            self.special_moves(rules, &mut v, pm, k, &mut seen, rules.all, is_pawn);
        }
        let ep = self.ep_target(pm, k, empty);
        if ep.any() {
            v.targets(rules, us, k, ep, MoveKind::EnPassant, is_pawn);
        }
    }

    /// Every other piece's moves, kept to the check and pin masks (en passant made and tested).
    #[inline]
    fn non_king_moves<S: Sink>(&self, rules: &Rules, sink: &mut S, threats: &Threats) {
        let us = self.side;
        let occ = self.occupied();
        let theirs = self.by_colour[us.other()];
        let empty = !occ & rules.all;
        let choices = self.promotion_choices(rules);
        let allowed = match threats.checkers.count() {
            0 => rules.all,
            1 => threats.checkers | threats.block,
            // double check: only the king moves (en passant is still made and tested)
            _ => Bitboard::EMPTY,
        };
        for t in 0..rules.n_types {
            let mine = self.pieces_of(us, t);
            if t == rules.royal || mine.is_empty() {
                continue;
            }
            let pm = rules.piece_moves(us, t);
            let is_pawn = (Some(t) == rules.pawn).then_some(choices);
            for from in mine {
                let mut seen = Self::plain_targets(rules, pm, from, occ, empty, theirs);
                if !pm.hoppers.is_empty() {
                    seen |= crate::hop::hop_targets(rules, pm, from, occ, theirs);
                }
                let mut legal = allowed;
                if threats.pinned.has(from) {
                    legal &= self.pin_mask(rules, from, occ);
                }
                sink.targets(rules, us, from, seen & legal, MoveKind::Normal, is_pawn);
                if pm.specials_may_reach(from, legal) {
                    self.special_moves(rules, sink, pm, from, &mut seen, legal, is_pawn);
                }
                let ep = self.ep_target(pm, from, empty);
                if ep.any() {
                    let mut v = Verified {
                        pos: self,
                        rules,
                        inner: sink,
                    };
                    v.targets(rules, us, from, ep, MoveKind::EnPassant, is_pawn);
                }
            }
        }
    }

    fn castling_moves<S: Sink>(&self, rules: &Rules, list: &mut S) {
        let us = self.side;
        if self.castle[us] == [None; 2] {
            return;
        }
        let them = us.other();
        let k = self.king[us];
        let occ = self.occupied();
        for side in 0..2 {
            let Some(r) = self.castle[us][side] else {
                continue;
            };
            let Some((kd, rd)) = rules.castle_targets(us, side) else {
                continue;
            };
            if rules.geo.rank(k) != rules.geo.rank(r) {
                continue;
            }
            let mut must_be_empty = between_on_rank(k, kd) | between_on_rank(r, rd);
            must_be_empty.set(kd);
            must_be_empty.set(rd);
            must_be_empty.clear(k);
            must_be_empty.clear(r);
            if (must_be_empty & occ).any() {
                continue;
            }
            let mut path = between_on_rank(k, kd);
            path.set(k);
            path.set(kd);
            if Iterator::any(&mut path, |s| self.is_attacked(rules, s, them)) {
                continue;
            }
            list.push(Move::new(k, r, MoveKind::Castle { side: side as u8 }));
        }
    }

    fn adjustment_moves<S: Sink>(&self, rules: &Rules, list: &mut S) {
        let us = self.side;
        let Some(b) = rules.adjust_piece else { return };
        let rights = self.adjust[us];
        if rights.is_empty() {
            return;
        }
        let bishops = rights & self.pieces_of(us, b);
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
                if let Some(p) = self.piece_at(to) {
                    if p.colour == us && rules.adjust_partners >> p.kind.0 & 1 != 0 {
                        list.push(Move::new(from, to, MoveKind::Adjust));
                    }
                }
            }
        }
    }

    /// Can the pseudo-legal move `m` be seen to keep the mover's king safe without making
    /// it? True when the side to move is not in check (`in_check`, which the caller knows),
    /// the king stays put, nothing but the moving piece leaves its square (no en passant,
    /// castling or adjustment), and it leaves no square from which an enemy rider could reach
    /// the king on an empty board; an opponent with hoppers or lame pieces, whose attacks a
    /// move can open in other ways, gets no shortcut. False means "make it and test".
    #[inline]
    pub(crate) fn keeps_king_safe(&self, rules: &Rules, m: Move, in_check: bool) -> bool {
        let us = self.side;
        let them = us.other();
        let k = self.king[us];
        !in_check
            && matches!(m.kind, MoveKind::Normal | MoveKind::DoubleStep)
            && m.from != k
            && !rules.rider_reach[them][k as usize].has(m.from)
            && rules.special_attackers[them].is_empty()
            && rules.hopper_attackers[them].is_empty()
    }

    /// Is the pseudo-legal move `m` legal (own king not attacked afterwards)?
    #[inline]
    pub fn is_legal_pseudo(&self, rules: &Rules, m: Move) -> bool {
        let after = self.play_unchecked(rules, m);
        let us = self.side;
        !after.is_attacked(rules, after.king[us], us.other())
    }

    /// Every legal move, into `list`.
    pub fn generate_legal(&self, rules: &Rules, list: &mut MoveList) {
        self.legal_into(rules, list);
    }

    /// Every legal move.
    pub fn legal_moves(&self, rules: &Rules) -> MoveList {
        let mut list = MoveList::new();
        self.generate_legal(rules, &mut list);
        list
    }

    /// The number of legal moves, without listing them (perft's last ply).
    pub fn count_legal(&self, rules: &Rules) -> u64 {
        let mut c = Counter(0);
        self.legal_into(rules, &mut c);
        c.0
    }

    /// Counts leaf nodes `depth` plies deep.
    pub fn perft(&self, rules: &Rules, depth: u32) -> u64 {
        match depth {
            0 => 1,
            1 => self.count_legal(rules),
            _ => {
                let mut moves = MoveList::new();
                self.legal_into(rules, &mut moves);
                moves
                    .iter()
                    .map(|&m| self.play_unchecked(rules, m).perft(rules, depth - 1))
                    .sum()
            }
        }
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog;
    use crate::setup;
    use crate::variant::{NoResolver, Variant};
    use std::collections::HashSet;

    /// The reference: every pseudo-legal move, kept when the own king is safe after making it.
    fn by_make_and_test(pos: &Position, rules: &Rules) -> HashSet<Move> {
        let mut list = MoveList::new();
        pos.pseudo_moves(rules, &mut list);
        list.iter()
            .copied()
            .filter(|&m| pos.is_legal_pseudo(rules, m))
            .collect()
    }

    struct Rng(u64);
    impl Rng {
        fn next(&mut self, n: usize) -> usize {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            (self.0 % n as u64) as usize
        }
    }

    /// Random games from random start positions: the mask-based generator, the counter and
    /// the make-and-test reference must agree everywhere, the moves `keeps_king_safe` passes
    /// must be legal, and the incremental hash must equal the hash computed from scratch.
    /// `is_pseudo_legal` must accept exactly the pseudo-legal moves, among them and the moves
    /// of the position two plies before (table moves).
    fn random_games(rules: &Rules, games: usize, plies: usize, seed: u64) -> usize {
        let mut rng = Rng(seed | 1);
        let mut checked = 0;
        for g in 0..games {
            let id = setup::random_id(&rules.variant, seed + g as u64);
            let sp = setup::from_id(&rules.variant, id).unwrap();
            let mut pos = Position::from_start(rules, &sp).unwrap();
            let mut earlier: Vec<Vec<Move>> = Vec::new();
            for _ in 0..plies {
                let mut pseudo = MoveList::new();
                pos.pseudo_moves(rules, &mut pseudo);
                let pseudo: Vec<Move> = pseudo.iter().copied().collect();
                let stale = earlier
                    .len()
                    .checked_sub(2)
                    .map_or(&[][..], |i| &earlier[i][..]);
                for &m in pseudo.iter().chain(stale) {
                    let want = pseudo.contains(&m);
                    assert_eq!(
                        pos.is_pseudo_legal(rules, m),
                        want,
                        "{m:?} in {}",
                        pos.fen(rules)
                    );
                }
                // The captures-only and quiet generators together give the same moves.
                let mut parts: HashSet<Move> = HashSet::new();
                for generate in [Position::pseudo_noisy_moves, Position::pseudo_quiet_moves] {
                    let mut list = MoveList::new();
                    generate(&pos, rules, &mut list);
                    parts.extend(list.iter().copied());
                }
                let whole: HashSet<Move> = pseudo.iter().copied().collect();
                assert_eq!(parts, whole, "noisy and quiet parts in {}", pos.fen(rules));
                let in_check = pos.in_check(rules);
                for &m in &pseudo {
                    if pos.keeps_king_safe(rules, m, in_check) {
                        assert!(pos.is_legal_pseudo(rules, m), "{m:?} in {}", pos.fen(rules));
                    }
                }
                earlier.push(pseudo);
                let legal = pos.legal_moves(rules);
                let set: HashSet<Move> = legal.iter().copied().collect();
                assert_eq!(
                    set.len(),
                    legal.len(),
                    "duplicate moves in {}",
                    pos.fen(rules)
                );
                assert_eq!(set, by_make_and_test(&pos, rules), "{}", pos.fen(rules));
                assert_eq!(
                    pos.count_legal(rules),
                    legal.len() as u64,
                    "{}",
                    pos.fen(rules)
                );
                assert_eq!(pos.hash(), pos.compute_hash(rules), "{}", pos.fen(rules));
                checked += 1;
                if legal.is_empty() {
                    break;
                }
                pos = pos.play_unchecked(rules, legal.as_slice()[rng.next(legal.len())]);
            }
        }
        checked
    }

    #[test]
    fn masks_agree_with_make_and_test_on_the_shipped_variants() {
        for name in ["mrc", "mrc64", "merc", "icrc", "pmrc", "chess", "chess960"] {
            let rules = catalog::load_rules(name).unwrap();
            assert!(random_games(&rules, 12, 120, 7) > 500, "{name}");
        }
    }

    fn test_variant(pieces: &str, army: &str) -> Rules {
        let text = format!(
            r#"
name = "Test"
short = "test"
[board]
files = 8
ranks = 8
[pieces]
{pieces}
P = {{ name = "Pawn", betza = "fmWfceFifmnD", pawn = true }}
[setup]
army = "{army}"
random = true
symmetry = "mirror"
bishops = "any"
[promotion]
rank = 8
to = "Q"
"#
        );
        Rules::compile(Variant::from_text("test.toml", &text, &NoResolver).unwrap())
    }

    /// Pins and checks along nightrider lines and by step-limited riders.
    #[test]
    fn masks_agree_with_exotic_riders() {
        let rules = test_variant(
            r#"K = { name = "King", betza = "K", royal = true }
Q = { name = "Queen", betza = "Q" }
N = { name = "Nightrider", betza = "NN" }
S = { name = "Short rook", betza = "R2F" }
D = { name = "Dabbaba rider", betza = "DDW" }"#,
            "SNDQKDNS",
        );
        assert!(random_games(&rules, 20, 150, 11) > 1000);
    }

    /// A lame capturing leaper can be blocked off any line: the generator falls back to
    /// making and testing every move.
    #[test]
    fn masks_agree_with_lame_capturers() {
        let rules = test_variant(
            r#"K = { name = "King", betza = "K", royal = true }
Q = { name = "Queen", betza = "Q" }
H = { name = "Horse", betza = "nN" }
E = { name = "Elephant", betza = "nA" }
I = { name = "Initial queen", betza = "iQW" }"#,
            "HEIQKIEH",
        );
        assert!(random_games(&rules, 20, 150, 13) > 1000);
    }
}
