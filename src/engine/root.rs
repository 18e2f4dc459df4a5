//! Iterative deepening at the root: aspiration windows, multi-PV lines, the info reported
//! after each iteration, and when to stop iterating.

use super::search::{Worker, INF, MATE, MATE_BOUND};
use super::skill::RootLine;
use super::SearchInfo;
use crate::position::{Move, Position};
use crate::rules::Rules;

/// What one thread's iterative deepening aims for.
#[derive(Clone, Copy, Debug)]
pub struct Plan {
    pub max_depth: u32,
    pub multipv: usize,
    /// Stop after this depth (skill levels pick from it).
    pub stop_depth: Option<u32>,
    pub legal_moves: usize,
    /// Only the node or depth limit ends the search (no early stop on a forced move).
    pub exact_limits: bool,
    /// Helper threads search one ply deeper on odd ids, so threads spread over depths.
    pub depth_offset: u32,
}

impl Worker<'_> {
    /// Deepens until a limit ends it; the lines of the last completed iteration (a partial
    /// iteration's new best move counts, since the previous best is searched first).
    pub fn iterate(
        &mut self,
        root: &Position,
        plan: &Plan,
        rules: &Rules,
        on_info: &mut dyn FnMut(&SearchInfo),
    ) -> Vec<RootLine> {
        let mut lines: Vec<RootLine> = Vec::new();
        let mut instability = 0.0f64;
        let multipv = plan.multipv.clamp(1, plan.legal_moves.max(1));
        for base in 1..=plan.max_depth {
            let depth = (base + plan.depth_offset).min(plan.max_depth);
            self.sel_depth = 0;
            let Some(found) = self.one_iteration(root, depth, multipv, &lines) else {
                break;
            };
            if lines.first().map(|l| l.mv) != found.first().map(|l| l.mv) && depth > 1 {
                instability += 1.0;
            }
            instability *= 0.5;
            lines = found;
            on_info(&self.info(root, rules, depth, lines[0]));
            if self.should_stop(plan, depth, &lines, instability) {
                break;
            }
        }
        if self.aborted {
            // A partial iteration's proven improvement of the best move.
            if let (Some((m, s)), Some(first)) = (self.root_best, lines.first_mut()) {
                if m != first.mv && s > first.score - 30 {
                    *first = RootLine { mv: m, score: s };
                }
            }
        }
        lines
    }

    /// Searches every multi-PV line at `depth`; None when aborted before the first line.
    fn one_iteration(
        &mut self,
        root: &Position,
        depth: u32,
        multipv: usize,
        prev: &[RootLine],
    ) -> Option<Vec<RootLine>> {
        let mut found = Vec::with_capacity(multipv);
        self.root_excluded.clear();
        for k in 0..multipv {
            let guess = prev.get(k).map(|l| l.score);
            let score = self.aspiration(root, depth as i32, guess);
            if self.aborted {
                if k == 0 {
                    if let (Some((m, s)), true) = (self.root_best, prev.is_empty()) {
                        return Some(vec![RootLine { mv: m, score: s }]);
                    }
                    return None;
                }
                // Keep the lines already finished, the rest from the previous iteration.
                break;
            }
            let Some((mv, _)) = self.root_best else { break };
            found.push(RootLine { mv, score });
            self.root_excluded.push(mv);
        }
        self.root_excluded.clear();
        if found.is_empty() {
            return None;
        }
        found.sort_by_key(|l| -l.score);
        Some(found)
    }

    fn aspiration(&mut self, root: &Position, depth: i32, guess: Option<i32>) -> i32 {
        let Some(g) = guess.filter(|g| depth >= 4 && g.abs() < MATE_BOUND) else {
            return self.search_root(root, depth, -INF, INF);
        };
        let mut delta = 25;
        let (mut alpha, mut beta) = (g - delta, g + delta);
        loop {
            let s = self.search_root(root, depth, alpha, beta);
            if self.aborted {
                return s;
            }
            if s <= alpha {
                beta = (alpha + beta) / 2;
                alpha = (s - delta).max(-INF);
            } else if s >= beta {
                beta = (s + delta).min(INF);
            } else {
                return s;
            }
            delta += delta / 2;
            if delta > 1500 {
                alpha = -INF;
                beta = INF;
            }
        }
    }

    fn should_stop(&self, plan: &Plan, depth: u32, lines: &[RootLine], instability: f64) -> bool {
        if plan.stop_depth.is_some_and(|d| depth >= d) {
            return true;
        }
        if !self.is_main_thread() || plan.exact_limits {
            return false;
        }
        if plan.legal_moves == 1 {
            return true;
        }
        let score = lines[0].score;
        if score.abs() >= MATE_BOUND && depth as i32 > 2 * (MATE - score.abs()) + 4 {
            return true;
        }
        self.budget()
            .stop_iterating((0.6 + instability).clamp(0.5, 1.8))
    }

    fn info(&self, root: &Position, rules: &Rules, depth: u32, best: RootLine) -> SearchInfo {
        let score = best.score;
        let mate = (score.abs() >= MATE_BOUND).then(|| {
            let moves = (MATE - score.abs() + 1) / 2;
            if score > 0 {
                moves
            } else {
                -moves
            }
        });
        SearchInfo {
            depth,
            sel_depth: self.sel_depth as u32,
            score_cp: score,
            mate,
            nodes: self.total_nodes(),
            time_ms: self.budget().elapsed_ms(),
            pv: self.pv_line(root, rules, best.mv, depth as usize),
        }
    }

    /// Follows the table from the root, checking each move is legal.
    pub fn pv_line(&self, root: &Position, rules: &Rules, first: Move, max: usize) -> Vec<Move> {
        let mut pv: Vec<Move> = Vec::new();
        let mut pos = root.clone();
        let mut seen = Vec::new();
        if pos.legal_moves(rules).contains(&first) {
            pv.push(first);
            seen.push(pos.hash());
            pos = pos.play_unchecked(rules, first);
        }
        while pv.len() < max.max(1) {
            let Some(m) = self.table().probe(pos.hash()).and_then(|h| h.mv) else {
                break;
            };
            if !pos.legal_moves(rules).contains(&m) || seen.contains(&pos.hash()) {
                break;
            }
            seen.push(pos.hash());
            pv.push(m);
            pos = pos.play_unchecked(rules, m);
        }
        pv
    }
}
