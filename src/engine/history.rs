//! What the search learns about moves while it runs: killers, counter-moves and the history
//! tables (quiet moves by side, from and to; captures by piece, target and victim; quiet moves
//! by the move played one and two plies before: continuation history).
//!
//! Each thread's history also keeps its cache of static evaluations ([`EvalCache`]).
//!
//! Every table entry moves towards its bound by "gravity" (`h += b - h * |b| / MAX`), so good
//! moves rise, moves that failed get a malus, and nothing overflows.

use super::eval::EvalCache;
use super::huge_pages::HugeBuf;
use super::pawn_cache::PawnCache;
use crate::piece::Colour;
use crate::position::{Move, Position};
use crate::rules::Rules;

/// Bound of every history entry.
pub const HISTORY_MAX: i32 = 16_384;

/// A piece (kind and colour) and the square it moved to: the key of continuation history.
pub type PieceTo = usize;

/// History tables of one search thread, sized for one variant.
pub struct History {
    squares: usize,
    kinds: usize,
    /// `[colour][from][to]`.
    main: Vec<i16>,
    /// `[piece][to][captured kind]`.
    capture: Vec<i16>,
    /// `[previous piece-to][piece-to]`.
    continuation: HugeBuf<i16>,
    /// `[previous piece-to]`: the quiet move that refuted it.
    counter: Vec<Option<Move>>,
    /// Static evaluations of positions this thread has seen.
    pub evals: EvalCache,
    /// Pawn-structure sums of the pawn placements this thread has evaluated.
    pub pawns: PawnCache,
}

impl History {
    pub fn new(rules: &Rules) -> History {
        let squares = rules.geo.squares();
        let kinds = rules.n_types;
        let piece_to = 2 * kinds * squares;
        History {
            squares,
            kinds,
            main: vec![0; 2 * squares * squares],
            capture: vec![0; piece_to * kinds],
            continuation: HugeBuf::zeroed(piece_to * piece_to),
            counter: vec![None; piece_to],
            evals: EvalCache::new(),
            pawns: PawnCache::new(),
        }
    }

    /// Forgets everything (new game).
    pub fn clear(&mut self) {
        self.main.fill(0);
        self.capture.fill(0);
        self.continuation.fill(0);
        self.counter.fill(None);
        self.forget_evaluations();
    }

    /// Forgets the cached evaluations (new weights, another evaluation).
    pub fn forget_evaluations(&mut self) {
        self.evals.clear();
        self.pawns.clear();
    }

    /// Halves what earlier searches learned, so a new search adapts faster.
    pub fn age(&mut self) {
        for h in self.main.iter_mut().chain(self.continuation.iter_mut()) {
            *h /= 2;
        }
    }

    /// The piece-to key of `m` in `pos` (before the move is made).
    pub fn piece_to(&self, pos: &Position, m: Move) -> PieceTo {
        let (t, c) = pos
            .piece_at(m.from)
            .map_or((0, pos.side_to_move()), |p| (p.kind.index(), p.colour));
        (c.index() * self.kinds + t) * self.squares + m.to as usize
    }

    fn main_index(&self, colour: Colour, m: Move) -> usize {
        (colour.index() * self.squares + m.from as usize) * self.squares + m.to as usize
    }

    fn quiet_score(&self, colour: Colour, m: Move) -> i32 {
        self.main[self.main_index(colour, m)] as i32
    }

    /// A quiet move's own history plus its continuation history after each of `prev`.
    pub fn quiet_total(
        &self,
        colour: Colour,
        m: Move,
        cur: PieceTo,
        prev: &[Option<PieceTo>],
    ) -> i32 {
        let cont: i32 = prev.iter().map(|&p| self.continuation_score(p, cur)).sum();
        self.quiet_score(colour, m) + cont
    }

    fn continuation_score(&self, prev: Option<PieceTo>, cur: PieceTo) -> i32 {
        prev.map_or(0, |p| {
            self.continuation[p * self.counter.len() + cur] as i32
        })
    }

    pub fn capture_score(&self, cur: PieceTo, victim: usize) -> i32 {
        self.capture[cur * self.kinds + victim] as i32
    }

    pub fn counter_move(&self, prev: Option<PieceTo>) -> Option<Move> {
        prev.and_then(|p| self.counter[p])
    }

    pub fn set_counter(&mut self, prev: Option<PieceTo>, m: Move) {
        if let Some(p) = prev {
            self.counter[p] = Some(m);
        }
    }

    pub fn update_quiet(&mut self, colour: Colour, m: Move, bonus: i32) {
        let i = self.main_index(colour, m);
        gravity(&mut self.main[i], bonus);
    }

    pub fn update_continuation(&mut self, prev: Option<PieceTo>, cur: PieceTo, bonus: i32) {
        if let Some(p) = prev {
            let i = p * self.counter.len() + cur;
            gravity(&mut self.continuation[i], bonus);
        }
    }

    pub fn update_capture(&mut self, cur: PieceTo, victim: usize, bonus: i32) {
        let i = cur * self.kinds + victim;
        gravity(&mut self.capture[i], bonus);
    }
}

/// The history bonus for a cut-off at `depth` (also the malus for the moves before it).
/// Three times the first sessions' `16d² + 32d` (at most 1,600): each search starts from
/// halved tables, and the weaker bonus left them near empty for most of it (twenty-seventh
/// session: +16.5 ± 10.1 points in 480 games against Fairy-Stockfish, README).
pub fn bonus(depth: i32) -> i32 {
    (depth * depth * 48 + depth * 96).min(4800)
}

fn gravity(h: &mut i16, bonus: i32) {
    let b = bonus.clamp(-HISTORY_MAX, HISTORY_MAX);
    let v = *h as i32;
    *h = (v + b - v * b.abs() / HISTORY_MAX) as i16;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gravity_keeps_entries_bounded() {
        let mut h = 0i16;
        for _ in 0..1000 {
            gravity(&mut h, 1600);
        }
        assert!(h as i32 <= HISTORY_MAX && h > 15_000, "{h}");
        for _ in 0..1000 {
            gravity(&mut h, -1600);
        }
        assert!(h as i32 >= -HISTORY_MAX && h < -15_000, "{h}");
    }
}
