//! Time management: how long one move may take, from a fixed move time or from the clock.
//!
//! From the clock the engine plans on `movestogo` more moves (30 when not told), spends a
//! share of the remaining time plus most of the increment, and never more than a fraction of
//! what is left. There are two limits: the soft one ends iterative deepening between
//! iterations (stretched when the best move keeps changing, shrunk when it is stable), the
//! hard one aborts the search in the middle.

use super::limits::Limits;
use crate::piece::Colour;
use std::time::Instant;

/// Time the engine keeps back for the moves' transport (pipes, the GUI).
const OVERHEAD_MS: u64 = 10;

/// The time budget of one search.
#[derive(Clone, Copy, Debug)]
pub struct TimeBudget {
    pub start: Instant,
    /// Do not start another iteration after this (before stability scaling).
    pub soft_ms: Option<u64>,
    /// Abort the search at this point.
    pub hard_ms: Option<u64>,
    /// The soft limit came from the clock, so best-move stability may move it.
    pub flexible: bool,
}

impl TimeBudget {
    /// The budget for a search that starts now with `limits`, `side` to move.
    pub fn new(limits: &Limits, side: Colour) -> TimeBudget {
        let mut soft = None;
        let mut hard = None;
        let mut flexible = false;
        if let Some(c) = limits.clock {
            let (time, inc) = if side == Colour::White {
                (c.wtime_ms, c.winc_ms)
            } else {
                (c.btime_ms, c.binc_ms)
            };
            if let Some(time) = time {
                let (s, h) = clock_budget(time, inc, c.moves_to_go);
                soft = Some(s);
                hard = Some(h);
                flexible = true;
            }
        }
        if let Some(mt) = limits.movetime_ms {
            // A fixed time per move is there to be used: iterate until it is gone.
            if hard.is_none_or(|h| mt < h) {
                hard = Some(mt);
                soft = Some(mt);
                flexible = false;
            }
        }
        TimeBudget {
            start: Instant::now(),
            soft_ms: soft,
            hard_ms: hard,
            flexible,
        }
    }

    pub fn elapsed_ms(&self) -> u64 {
        self.start.elapsed().as_millis() as u64
    }

    /// Has the hard limit passed?
    pub fn out_of_time(&self) -> bool {
        self.hard_ms.is_some_and(|h| self.elapsed_ms() >= h)
    }

    /// Should iterative deepening stop here? `stability` scales the soft limit: below 1 when
    /// the best move has stayed the same, above 1 after it changed.
    pub fn stop_iterating(&self, stability: f64) -> bool {
        match self.soft_ms {
            Some(s) => {
                let scale = if self.flexible { stability } else { 1.0 };
                let soft = (s as f64 * scale) as u64;
                let soft = self.hard_ms.map_or(soft, |h| soft.min(h));
                self.elapsed_ms() >= soft
            }
            None => false,
        }
    }
}

/// (soft, hard) milliseconds for a move with `time` left, `inc` per move and `moves_to_go`.
pub fn clock_budget(time: u64, inc: u64, moves_to_go: Option<u32>) -> (u64, u64) {
    let usable = time.saturating_sub(OVERHEAD_MS).max(1);
    let mtg = moves_to_go.unwrap_or(30).clamp(1, 50) as u64;
    let base = usable / mtg + inc * 3 / 4;
    // With few moves to go the whole share may be spent; otherwise keep a reserve.
    let cap = if mtg == 1 {
        usable * 9 / 10
    } else {
        usable / 3
    };
    let soft = base.min(cap).max(1);
    let hard = (base * 4).min(cap).max(soft);
    (soft, hard)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clock_budgets_are_sensible() {
        // A minute with no increment: about two seconds, never more than a third.
        let (s, h) = clock_budget(60_000, 0, None);
        assert!((1_500..=2_500).contains(&s), "{s}");
        assert!(h >= s && h <= 20_000, "{h}");
        // Increment counts.
        let (s2, _) = clock_budget(60_000, 2_000, None);
        assert!(s2 > s + 1_000);
        // Last move before the time control: most of the time.
        let (s3, h3) = clock_budget(10_000, 0, Some(1));
        assert!(s3 >= 8_000 && h3 <= 9_000, "{s3} {h3}");
        // Almost no time: still a positive budget below what is left.
        let (s4, h4) = clock_budget(5, 0, None);
        assert!(s4 >= 1 && h4 <= 5);
    }
}
