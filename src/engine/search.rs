//! The alpha-beta search of one thread: principal-variation search with a transposition
//! table, check extensions (checks that do not lose material), selectivity (reverse
//! futility, razoring, null move with verification, internal iterative reduction, late-move
//! reductions by history and by the opponent's last move's history, late-move, futility and
//! SEE pruning) and a
//! quiescence search over captures that do not lose material (and, far below alpha, only
//! those that win some).
//!
//! Every pruning rule is a short named function; none of them knows a variant.

use super::checks::gives_check;
use super::eval::Evaluator;
use super::history::{bonus, History, PieceTo};
use super::movepick::{is_noisy, MovePicker, PickContext, PickMode};
use super::see::{see_ge, SeeValues};
use super::time::TimeBudget;
use super::tt::{Bound, Tt, TtHit};
use crate::game::insufficient_material;
use crate::piece::Colour;
use crate::position::{Move, Position};
use crate::rules::Rules;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

pub const MAX_PLY: usize = 96;
pub const INF: i32 = 1_000_000;
pub const MATE: i32 = 900_000;
/// Scores beyond this are mates (a mate within `MAX_PLY` plies).
pub const MATE_BOUND: i32 = MATE - 2 * MAX_PLY as i32;

/// What every thread of one search shares.
pub struct Shared<'a> {
    pub rules: &'a Rules,
    pub eval: &'a Evaluator,
    pub see: &'a SeeValues,
    pub tt: &'a Tt,
    pub lmr: &'a LmrTable,
    /// Raised by the caller (UCI `stop`).
    pub stop: &'a AtomicBool,
    /// Raised by the main thread when it has finished, so the helpers stop too.
    pub done: &'a AtomicBool,
    pub nodes: &'a AtomicU64,
    pub node_limit: Option<u64>,
    pub budget: TimeBudget,
    /// Hashes of the game's positions before the root that can still repeat.
    pub game_keys: &'a [u64],
    /// What a draw is worth to each side to move (contempt: not zero for the engine).
    pub draw_score: [i32; 2],
}

/// How far beyond its material gain a capture in quiescence is allowed to lift the score:
/// the margin of both quiescence futility rules (75 did not play better: README).
const QS_FUTILITY_MARGIN: i32 = 150;

/// Late-move reductions by depth and move number: `ln(depth) * ln(moves) / 2`.
pub struct LmrTable([[u8; 64]; 64]);

impl LmrTable {
    pub fn new() -> LmrTable {
        let mut t = [[0u8; 64]; 64];
        for (d, row) in t.iter_mut().enumerate().skip(1) {
            for (m, r) in row.iter_mut().enumerate().skip(1) {
                *r = (0.4 + (d as f64).ln() * (m as f64).ln() / 2.1) as u8;
            }
        }
        LmrTable(t)
    }
    fn get(&self, depth: i32, moves: usize) -> i32 {
        self.0[(depth.max(0) as usize).min(63)][moves.min(63)] as i32
    }
}

impl Default for LmrTable {
    fn default() -> Self {
        LmrTable::new()
    }
}

/// What the search remembers per ply of the current path.
#[derive(Clone, Copy, Default)]
struct Frame {
    static_eval: i32,
    killers: [Option<Move>; 2],
    /// The move made from this ply (for continuation history), None after a null move.
    piece_to: Option<PieceTo>,
    null: bool,
    /// The history of the move made from this ply, offset so a typical move is below zero
    /// (Stockfish 11's `statScore`; zero for captures and the null move).
    stat_score: i32,
}

/// Reused move buffers of one ply.
#[derive(Default)]
struct Buffers {
    pick: (Vec<(Move, i32)>, Vec<Move>),
    quiets: Vec<Move>,
    noisy: Vec<Move>,
}

/// The bounds and facts of one node, passed between the steps of [`Worker::negamax`].
#[derive(Clone, Copy)]
struct Node {
    depth: i32,
    alpha: i32,
    beta: i32,
    ply: usize,
    cut: bool,
    pv: bool,
    in_check: bool,
    eval: i32,
    improving: bool,
    tt_move: Option<Move>,
    key: u64,
}

/// What the move loop knows about a move before making it, for pruning and reductions.
#[derive(Clone, Copy)]
struct MoveFacts {
    quiet: bool,
    gives_check: bool,
    /// Quiet history (own and continuation) or capture history.
    history: i32,
}

/// A position to search, with whether its side to move is in check (the parent usually
/// knows already: it tested the move for check).
#[derive(Clone, Copy)]
pub struct At<'p> {
    pub pos: &'p Position,
    pub in_check: bool,
}

impl<'p> At<'p> {
    /// Works out the check status itself.
    pub fn new(rules: &Rules, pos: &'p Position) -> At<'p> {
        At {
            pos,
            in_check: pos.in_check(rules),
        }
    }
}

/// One search thread.
pub struct Worker<'a> {
    sh: &'a Shared<'a>,
    history: &'a mut History,
    keys: Vec<u64>,
    stack: Vec<Frame>,
    pool: Vec<Buffers>,
    nodes: u64,
    pub aborted: bool,
    is_main: bool,
    pub sel_depth: usize,
    /// Root moves not to search (multi-PV: the lines already found).
    pub root_excluded: Vec<Move>,
    /// The best root move of the iteration so far, with its score.
    pub root_best: Option<(Move, i32)>,
    pub root_depth: i32,
    nmp_min_ply: usize,
}

impl<'a> Worker<'a> {
    pub fn new(sh: &'a Shared<'a>, history: &'a mut History, is_main: bool) -> Worker<'a> {
        Worker {
            sh,
            history,
            keys: sh.game_keys.to_vec(),
            stack: vec![Frame::default(); MAX_PLY + 4],
            pool: (0..MAX_PLY + 2).map(|_| Buffers::default()).collect(),
            nodes: 0,
            aborted: false,
            is_main,
            sel_depth: 0,
            root_excluded: Vec::new(),
            root_best: None,
            root_depth: 1,
            nmp_min_ply: 0,
        }
    }

    /// Nodes of every thread (the others' counts as of their last report).
    pub fn total_nodes(&self) -> u64 {
        self.sh.nodes.load(Ordering::Relaxed) + (self.nodes & 1023)
    }

    pub fn is_main_thread(&self) -> bool {
        self.is_main
    }

    pub fn budget(&self) -> &TimeBudget {
        &self.sh.budget
    }

    pub fn table(&self) -> &Tt {
        self.sh.tt
    }

    /// Searches the root to `depth` inside the window `(alpha, beta)`.
    pub fn search_root(&mut self, pos: &Position, depth: i32, alpha: i32, beta: i32) -> i32 {
        self.root_best = None;
        self.root_depth = depth;
        self.negamax(At::new(self.sh.rules, pos), depth, alpha, beta, 0, false)
    }

    fn negamax(&mut self, at: At, depth: i32, alpha: i32, beta: i32, ply: usize, cut: bool) -> i32 {
        let (pos, in_check) = (at.pos, at.in_check);
        if depth <= 0 {
            return self.quiesce(at, alpha, beta, ply);
        }
        if let Some(s) = self.enter_node(pos, alpha, ply) {
            return s;
        }
        let key = pos.hash();
        let pv = beta - alpha > 1;
        let hit = self.sh.tt.probe(key);
        if let Some(s) = tt_cutoff(hit, depth, alpha, beta, ply, pv) {
            return s;
        }
        let eval = self.static_eval(pos, ply, in_check, hit);
        let improving = !in_check && ply >= 2 && eval > self.stack[ply - 2].static_eval;
        let mut n = Node {
            depth,
            alpha,
            beta,
            ply,
            cut,
            pv,
            in_check,
            eval,
            improving,
            tt_move: hit.and_then(|h| h.mv),
            key,
        };
        if ply + 2 < self.stack.len() {
            self.stack[ply + 2].killers = [None; 2];
            self.stack[ply + 2].stat_score = 0;
        }
        let mate_window = alpha.abs() >= MATE_BOUND || beta.abs() >= MATE_BOUND;
        if !pv && !in_check && !mate_window {
            if let Some(s) = self.prune_node(pos, &n) {
                return s;
            }
        }
        // Internal iterative reduction: without a table move this node was not searched
        // before, so a shallower look is a cheaper way to find one.
        if n.tt_move.is_none() && depth >= 4 && (pv || cut) {
            n.depth -= 1;
        }
        self.search_moves(pos, n)
    }

    /// Counts the node and answers the nodes that need no search: aborted, drawn, too deep,
    /// or unable to beat a mate already found.
    fn enter_node(&mut self, pos: &Position, alpha: i32, ply: usize) -> Option<i32> {
        self.nodes += 1;
        self.sel_depth = self.sel_depth.max(ply);
        if self.nodes & 1023 == 0 {
            self.poll();
        }
        if self.aborted {
            return Some(0);
        }
        if ply > 0 && self.is_draw(pos, ply) {
            return Some(self.sh.draw_score[pos.side_to_move()]);
        }
        if ply >= MAX_PLY {
            return Some(self.sh.eval.evaluate(self.sh.rules, pos));
        }
        if ply > 0 && MATE - ply as i32 <= alpha {
            return Some(alpha);
        }
        None
    }

    /// Shares the node count and looks at the stop flags, the clock and the node limit.
    fn poll(&mut self) {
        let total = self.sh.nodes.fetch_add(1024, Ordering::Relaxed) + 1024;
        let sh = self.sh;
        if sh.stop.load(Ordering::Relaxed) || sh.done.load(Ordering::Relaxed) {
            self.aborted = true;
        }
        if self.is_main && sh.budget.out_of_time() {
            self.aborted = true;
        }
        if sh.node_limit.is_some_and(|n| total >= n) {
            self.aborted = true;
        }
    }

    fn static_eval(
        &mut self,
        pos: &Position,
        ply: usize,
        in_check: bool,
        hit: Option<TtHit>,
    ) -> i32 {
        if in_check {
            self.stack[ply].static_eval = -INF;
            return -INF;
        }
        let key = pos.hash();
        let cached = hit
            .and_then(|h| h.eval)
            .or_else(|| self.history.evals.get(key));
        let raw = match cached {
            Some(v) => v,
            None => {
                let h = &mut *self.history;
                let v = self
                    .sh
                    .eval
                    .evaluate_cached(self.sh.rules, pos, &mut h.pawns);
                h.evals.put(key, v);
                v
            }
        };
        self.stack[ply].static_eval = raw;
        // A table score bounding the true value on the right side is a better guess.
        match hit {
            Some(h) if h.score.abs() < MATE_BOUND => match h.bound {
                Bound::Lower if h.score > raw => h.score,
                Bound::Upper if h.score < raw => h.score,
                Bound::Exact => h.score,
                _ => raw,
            },
            _ => raw,
        }
    }

    /// Pruning before any move is searched (non-PV nodes, not in check).
    fn prune_node(&mut self, pos: &Position, n: &Node) -> Option<i32> {
        if let Some(s) = reverse_futility(n) {
            return Some(s);
        }
        if n.depth <= 2 && n.eval + 400 * n.depth <= n.alpha {
            // Razoring: hopeless near the leaves unless a capture saves it.
            let at = At {
                pos,
                in_check: false,
            };
            let s = self.quiesce(at, n.alpha, n.alpha + 1, n.ply);
            if s <= n.alpha {
                return Some(s);
            }
        }
        self.null_move(pos, n)
    }

    /// Null move: if passing still fails high, a real move will too. Deep results are
    /// verified by a reduced normal search (zugzwang).
    fn null_move(&mut self, pos: &Position, n: &Node) -> Option<i32> {
        let us = pos.side_to_move();
        let prev_null = n.ply > 0 && self.stack[n.ply - 1].null;
        if n.depth < 2
            || prev_null
            || n.eval < n.beta
            || n.ply < self.nmp_min_ply
            || self.stack[n.ply].static_eval < n.beta - 20 * n.depth + 120
            || !has_pieces(self.sh.rules, pos, us)
            || n.beta.abs() >= MATE_BOUND
        {
            return None;
        }
        let r = 3 + n.depth / 3 + ((n.eval - n.beta) / 200).min(3);
        let child = pos.null_move(self.sh.rules);
        self.stack[n.ply].piece_to = None;
        self.stack[n.ply].null = true;
        self.stack[n.ply].stat_score = 0;
        self.keys.push(n.key);
        // The side that passed was not in check, so the other side is not either.
        let at = At {
            pos: &child,
            in_check: false,
        };
        let s = -self.negamax(at, n.depth - r, -n.beta, -n.beta + 1, n.ply + 1, !n.cut);
        self.keys.pop();
        self.stack[n.ply].null = false;
        if self.aborted || s < n.beta {
            return None;
        }
        let s = if s >= MATE_BOUND { n.beta } else { s };
        if self.nmp_min_ply != 0 || n.depth < 12 {
            return Some(s);
        }
        self.nmp_min_ply = n.ply + 3 * (n.depth - r) as usize / 4;
        let at = At {
            pos,
            in_check: false,
        };
        let v = self.negamax(at, n.depth - r, n.beta - 1, n.beta, n.ply, false);
        self.nmp_min_ply = 0;
        (v >= n.beta).then_some(s)
    }

    fn pick_context<'b>(&'b self, pos: &'b Position, ply: usize) -> PickContext<'b> {
        PickContext {
            rules: self.sh.rules,
            see: self.sh.see,
            history: self.history,
            pos,
            prev: self.previous_moves(ply),
        }
    }

    /// Continuation keys of the moves one and two plies before `ply`.
    fn previous_moves(&self, ply: usize) -> [Option<PieceTo>; 2] {
        let back = |k: usize| ply.checked_sub(k).and_then(|p| self.stack[p].piece_to);
        [back(1), back(2)]
    }

    /// The move loop of a main-search node, then the table store.
    fn search_moves(&mut self, pos: &Position, mut n: Node) -> i32 {
        let rules = self.sh.rules;
        let mut bufs = std::mem::take(&mut self.pool[n.ply]);
        bufs.quiets.clear();
        bufs.noisy.clear();
        let killers = self.stack[n.ply].killers;
        let mut picker = {
            let cx = self.pick_context(pos, n.ply);
            let pick = std::mem::take(&mut bufs.pick);
            MovePicker::new(&cx, pick, PickMode::All, n.tt_move, killers, false)
        };
        let orig_alpha = n.alpha;
        let mut best_score = -INF;
        let mut best_move = None;
        let mut count = 0;
        self.keys.push(n.key);
        loop {
            let m = {
                let cx = self.pick_context(pos, n.ply);
                picker.next(&cx)
            };
            let Some(m) = m else { break };
            if n.ply == 0 && self.root_excluded.contains(&m) {
                continue;
            }
            let quiet = !is_noisy(pos, m);
            let mut child = None;
            let gives_check = gives_check(rules, pos, m).unwrap_or_else(|| {
                let c = child.insert(pos.play_unchecked(rules, m));
                c.in_check(rules)
            });
            let facts = MoveFacts {
                quiet,
                gives_check,
                history: self.move_history(pos, m, n.ply, quiet),
            };
            // Pruning comes before the move is made and tested for legality: a pruned move
            // needs neither. It only happens once a legal move has been searched, so mates
            // are still recognised.
            let may_prune = n.ply > 0 && best_score > -MATE_BOUND && n.alpha.abs() < MATE_BOUND;
            if may_prune && self.prune_move(pos, m, &n, count + 1, facts) {
                continue;
            }
            let child = child.unwrap_or_else(|| pos.play_unchecked(rules, m));
            self.sh.tt.prefetch(child.hash());
            if !is_legal(rules, pos, m, n.in_check, &child) {
                continue;
            }
            count += 1;
            self.stack[n.ply].piece_to = Some(self.history.piece_to(pos, m));
            self.stack[n.ply].stat_score = stat_score(facts);
            let is_killer = killers.contains(&Some(m));
            let r = self.reduction(&n, count, facts, is_killer);
            let at = At {
                pos: &child,
                in_check: gives_check,
            };
            let ext = self.check_extension(pos, m, &n, gives_check);
            let score = self.pvs(at, &n, count, r, ext);
            if self.aborted {
                break;
            }
            best_score = best_score.max(score);
            if score > n.alpha {
                if n.ply == 0 {
                    self.root_best = Some((m, score));
                }
                best_move = Some(m);
                n.alpha = score;
                if n.alpha >= n.beta {
                    self.on_cutoff(pos, m, &n, quiet, &bufs);
                    break;
                }
            }
            if quiet {
                bufs.quiets.push(m);
            } else {
                bufs.noisy.push(m);
            }
        }
        self.keys.pop();
        bufs.pick = picker.into_buffers();
        self.pool[n.ply] = bufs;
        if self.aborted {
            return 0;
        }
        if count == 0 {
            return if n.in_check {
                -MATE + n.ply as i32
            } else {
                self.sh.draw_score[pos.side_to_move()]
            };
        }
        let bound = bound_of(best_score, orig_alpha, n.beta);
        self.store(&n, best_move, best_score, bound);
        best_score
    }

    /// The node's result into the table, with its static evaluation when it has one.
    fn store(&self, n: &Node, best_move: Option<Move>, score: i32, bound: Bound) {
        let eval = self.eval_to_store(n.ply, n.in_check);
        let stored = to_tt(score, n.ply);
        self.sh
            .tt
            .store(n.key, best_move, stored, n.depth, bound, eval);
    }

    /// The static evaluation a node at `ply` keeps in the table: none in check, where it
    /// was not computed.
    fn eval_to_store(&self, ply: usize, in_check: bool) -> Option<i32> {
        (!in_check).then_some(self.stack[ply].static_eval)
    }

    /// The child search: full window for the first move, then a reduced null-window probe,
    /// re-searched at full depth and then with the full window when it beats alpha. `ext`
    /// plies are added to every depth (a check extension).
    fn pvs(&mut self, child: At, n: &Node, count: usize, r: i32, ext: i32) -> i32 {
        let d = n.depth - 1 + ext;
        let ply = n.ply + 1;
        if count == 1 {
            return -self.negamax(child, d, -n.beta, -n.alpha, ply, !n.pv && !n.cut);
        }
        let mut s = -self.negamax(child, d - r, -n.alpha - 1, -n.alpha, ply, true);
        if s > n.alpha && r > 0 {
            s = -self.negamax(child, d, -n.alpha - 1, -n.alpha, ply, !n.cut);
        }
        if s > n.alpha && s < n.beta && n.pv {
            s = -self.negamax(child, d, -n.beta, -n.alpha, ply, false);
        }
        s
    }

    /// Check extension, Stockfish 11's rule: one ply for a check that does not lose
    /// material (against Fairy-Stockfish 71.5/360 where extending every check scored 53/360
    /// on the same starts, +18.5 ± 8.6: README, forty-third session), and none beyond twice
    /// the root depth, so perpetual checks cannot grow the tree forever.
    fn check_extension(&self, pos: &Position, m: Move, n: &Node, gives_check: bool) -> i32 {
        let sh = self.sh;
        (gives_check && n.ply < 2 * self.root_depth as usize && see_ge(sh.rules, sh.see, pos, m, 0))
            as i32
    }

    /// History score of a move: quiet (own + continuation) or capture history.
    fn move_history(&self, pos: &Position, m: Move, ply: usize, quiet: bool) -> i32 {
        let pt = self.history.piece_to(pos, m);
        if quiet {
            let prev = self.previous_moves(ply);
            self.history.quiet_total(pos.side_to_move(), m, pt, &prev)
        } else {
            let victim = pos.piece_at(m.to).map_or(0, |p| p.kind.index());
            self.history.capture_score(pt, victim)
        }
    }

    /// Move-level pruning: late-move, futility, continuation-history and SEE pruning.
    fn prune_move(&self, pos: &Position, m: Move, n: &Node, count: usize, f: MoveFacts) -> bool {
        let MoveFacts {
            quiet,
            gives_check,
            history: hist,
        } = f;
        let sh = self.sh;
        let lmr_depth = (n.depth - 1 - self.sh.lmr.get(n.depth, count)).max(0);
        if quiet {
            let lmp = (3 + n.depth * n.depth) / (2 - n.improving as i32);
            // Checks are never pruned: a quiet check may be mate.
            if gives_check {
                return false;
            }
            if n.depth <= 8 && count as i32 > lmp {
                return true;
            }
            if !n.in_check && lmr_depth < 7 && n.eval + 100 + 110 * lmr_depth <= n.alpha {
                return true;
            }
            if lmr_depth < 4 && hist < -3000 * n.depth {
                return true;
            }
            return lmr_depth < 8 && !see_ge(sh.rules, sh.see, pos, m, -25 * lmr_depth * lmr_depth);
        }
        n.depth < 7 && !gives_check && !see_ge(sh.rules, sh.see, pos, m, -90 * n.depth)
    }

    /// Late-move reduction of the `count`-th legal move (a killer is reduced one ply less).
    fn reduction(&self, n: &Node, count: usize, f: MoveFacts, is_killer: bool) -> i32 {
        if n.depth < 2 || count <= 1 + n.pv as usize + (n.ply == 0) as usize {
            return 0;
        }
        let mut r = self.sh.lmr.get(n.depth, count);
        if f.quiet {
            r += (!n.pv) as i32 + n.cut as i32 + (!n.improving) as i32;
            r -= is_killer as i32;
            r -= f.history / 6000;
            r += self.stat_reduction(n, stat_score(f));
        } else {
            r = (r - 1 - f.history / 4000).max(0) * (!n.pv) as i32;
        }
        r -= f.gives_check as i32 + n.in_check as i32;
        r.clamp(0, (n.depth - 2).max(0))
    }

    /// Stockfish 11's comparison with the opponent's last move: one ply less when our move's
    /// history is good and the move that led here had a poor one, one more the other way round.
    /// Against Fairy-Stockfish at 100 ms, beside the search without it on the same starts:
    /// +7.0 ± 7.8 over 278 games, then +21.0 ± 11.1 over 520 (README, forty-seventh session).
    /// The thresholds are Stockfish's (−99, −116, −117, −150) scaled as [`STAT_OFFSET`] is.
    fn stat_reduction(&self, n: &Node, stat: i32) -> i32 {
        let theirs = n.ply.checked_sub(1).map_or(0, |p| self.stack[p].stat_score);
        if stat >= -50 && theirs < -56 {
            -1
        } else if theirs >= -57 && stat < -75 {
            1
        } else {
            0
        }
    }

    /// A move failed high: killers, counter-move, and history bonus for it with a malus for
    /// the moves tried before it.
    fn on_cutoff(&mut self, pos: &Position, m: Move, n: &Node, quiet: bool, bufs: &Buffers) {
        let b = bonus(n.depth);
        let us = pos.side_to_move();
        let prev = self.previous_moves(n.ply);
        if quiet {
            let k = &mut self.stack[n.ply].killers;
            if k[0] != Some(m) {
                k[1] = k[0];
                k[0] = Some(m);
            }
            self.history.set_counter(prev[0], m);
            for (q, sign) in std::iter::once((m, 1)).chain(bufs.quiets.iter().map(|&q| (q, -1))) {
                let pt = self.history.piece_to(pos, q);
                self.history.update_quiet(us, q, sign * b);
                for &p in &prev {
                    self.history.update_continuation(p, pt, sign * b);
                }
            }
        } else {
            let pt = self.history.piece_to(pos, m);
            let victim = pos.piece_at(m.to).map_or(0, |p| p.kind.index());
            self.history.update_capture(pt, victim, b);
        }
        for &c in &bufs.noisy {
            let pt = self.history.piece_to(pos, c);
            let victim = pos.piece_at(c.to).map_or(0, |p| p.kind.index());
            self.history.update_capture(pt, victim, -b);
        }
    }

    /// Quiescence: stand pat, then captures and promotions that do not lose material (every
    /// move when in check, but no quiet evasion that loses material once the king is safe).
    fn quiesce(&mut self, at: At, mut alpha: i32, beta: i32, ply: usize) -> i32 {
        let (pos, in_check) = (at.pos, at.in_check);
        if let Some(s) = self.enter_node(pos, alpha, ply) {
            return s;
        }
        let rules = self.sh.rules;
        let key = pos.hash();
        let hit = self.sh.tt.probe(key);
        if let Some(s) = tt_cutoff(hit, 0, alpha, beta, ply, beta - alpha > 1) {
            return s;
        }
        let stand = if in_check {
            -INF
        } else {
            self.static_eval(pos, ply, false, hit)
        };
        if stand >= beta {
            return stand;
        }
        alpha = alpha.max(stand);
        let mut bufs = std::mem::take(&mut self.pool[ply]);
        let mut picker = {
            let cx = self.pick_context(pos, ply);
            let pick = std::mem::take(&mut bufs.pick);
            MovePicker::new(
                &cx,
                pick,
                PickMode::Noisy,
                hit.and_then(|h| h.mv),
                [None; 2],
                in_check,
            )
        };
        let mut best = stand;
        let mut best_move = None;
        let mut legal = 0;
        self.keys.push(key);
        loop {
            let m = {
                let cx = self.pick_context(pos, ply);
                picker.next(&cx)
            };
            let Some(m) = m else { break };
            let pruned = if in_check {
                self.losing_evasion(pos, m, best)
            } else {
                self.delta_prune(pos, m, stand, alpha) || self.hopeless_trade(pos, m, stand, alpha)
            };
            if pruned {
                continue;
            }
            let child = pos.play_unchecked(rules, m);
            self.sh.tt.prefetch(child.hash());
            if !is_legal(rules, pos, m, in_check, &child) {
                continue;
            }
            legal += 1;
            self.stack[ply].piece_to = Some(self.history.piece_to(pos, m));
            let s = -self.quiesce(At::new(rules, &child), -beta, -alpha, ply + 1);
            if self.aborted {
                break;
            }
            if s > best {
                best = s;
                if s > alpha {
                    alpha = s;
                    best_move = Some(m);
                    if s >= beta {
                        break;
                    }
                }
            }
        }
        self.keys.pop();
        bufs.pick = picker.into_buffers();
        self.pool[ply] = bufs;
        if self.aborted {
            return 0;
        }
        if in_check && legal == 0 {
            return -MATE + ply as i32;
        }
        let bound = if best >= beta {
            Bound::Lower
        } else {
            Bound::Upper
        };
        let eval = self.eval_to_store(ply, in_check);
        self.sh
            .tt
            .store(key, best_move, to_tt(best, ply), 0, bound, eval);
        best
    }

    /// In check, once an evasion has saved the king, a quiet evasion that loses material
    /// is not searched (Stockfish 11's quiescence rule).
    fn losing_evasion(&self, pos: &Position, m: Move, best: i32) -> bool {
        let sh = self.sh;
        best > -MATE_BOUND && !is_noisy(pos, m) && !see_ge(sh.rules, sh.see, pos, m, 0)
    }

    /// Far below alpha, a capture that does not win material cannot lift the score to it,
    /// unless it checks or promotes (Stockfish 11's quiescence futility).
    fn hopeless_trade(&self, pos: &Position, m: Move, stand: i32, alpha: i32) -> bool {
        let sh = self.sh;
        stand + QS_FUTILITY_MARGIN <= alpha
            && m.promo.is_none()
            && gives_check(sh.rules, pos, m) == Some(false)
            && !see_ge(sh.rules, sh.see, pos, m, 1)
    }

    /// Even winning the captured piece cannot lift the score to alpha.
    fn delta_prune(&self, pos: &Position, m: Move, stand: i32, alpha: i32) -> bool {
        if m.promo.is_some() {
            return false;
        }
        let gain = self.sh.see.captured(self.sh.rules, pos, m);
        stand + gain + QS_FUTILITY_MARGIN <= alpha
    }

    /// Is the position at the end of the path a draw by repetition, the move rule or
    /// material? Inside the search one repetition is enough; against the game's history it
    /// takes the variant's full count.
    fn is_draw(&self, pos: &Position, ply: usize) -> bool {
        let rules = self.sh.rules;
        let limit = rules.variant.rules.fifty_move_plies;
        if limit > 0 && pos.halfmove_clock() >= limit {
            // Mate on the last move still counts as mate.
            return !(pos.in_check(rules) && pos.legal_moves(rules).is_empty());
        }
        let key = pos.hash();
        let window = pos.halfmove_clock() as usize;
        let n = self.keys.len();
        let needed = rules.variant.rules.repetitions.max(2) as usize - 1;
        let mut count = 0;
        let mut i = 2;
        while i <= window && i <= n {
            if self.keys[n - i] == key {
                if n - i >= n.saturating_sub(ply) {
                    return true;
                }
                count += 1;
                if count >= needed {
                    return true;
                }
            }
            i += 2;
        }
        pos.occupied().count() <= 4 && insufficient_material(rules, pos)
    }
}

/// Is the pseudo-legal move `m` from `pos` (which led to `child`) legal? Most moves can be
/// seen to be without looking at `child`'s attacks.
#[inline]
fn is_legal(rules: &Rules, pos: &Position, m: Move, in_check: bool, child: &Position) -> bool {
    let us = pos.side_to_move();
    pos.keeps_king_safe(rules, m, in_check)
        || !child.is_attacked(rules, child.king_square(us), us.other())
}

/// What a node's best score says about its true value, searched in the window (alpha, beta).
fn bound_of(best: i32, alpha: i32, beta: i32) -> Bound {
    if best >= beta {
        Bound::Lower
    } else if best > alpha {
        Bound::Exact
    } else {
        Bound::Upper
    }
}

/// A table hit that settles a non-PV node.
fn tt_cutoff(
    hit: Option<TtHit>,
    depth: i32,
    alpha: i32,
    beta: i32,
    ply: usize,
    pv: bool,
) -> Option<i32> {
    let h = hit?;
    if pv || h.depth < depth {
        return None;
    }
    let s = from_tt(h.score, ply);
    let ok = match h.bound {
        Bound::Exact => true,
        Bound::Lower => s >= beta,
        Bound::Upper => s <= alpha,
    };
    ok.then_some(s)
}

/// Subtracted from a quiet move's history to give its `stat_score`: Stockfish 11's 4,926 on
/// the scale of our three tables (each bounded by 16,384 against its 10,692 + 3 × 29,952).
const STAT_OFFSET: i32 = 2400;

/// A move's `statScore`: its history less [`STAT_OFFSET`] when quiet, 0 for a capture.
fn stat_score(f: MoveFacts) -> i32 {
    if f.quiet {
        f.history - STAT_OFFSET
    } else {
        0
    }
}

/// Reverse futility: far enough above beta near the leaves that no move will fall below it.
fn reverse_futility(n: &Node) -> Option<i32> {
    let margin = 90 * (n.depth - n.improving as i32);
    (n.depth <= 7 && n.eval - margin >= n.beta && n.eval < MATE_BOUND).then_some(n.eval)
}

/// Mate scores are stored relative to the node, so they stay right at any ply.
fn to_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score + ply as i32
    } else if score <= -MATE_BOUND {
        score - ply as i32
    } else {
        score
    }
}

fn from_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score - ply as i32
    } else if score <= -MATE_BOUND {
        score + ply as i32
    } else {
        score
    }
}

/// Does colour `c` have a piece besides its king and pawns (null move is unsafe without)?
fn has_pieces(rules: &Rules, pos: &Position, c: Colour) -> bool {
    let mut others = pos.colour_bb(c) & !pos.type_bb(rules.royal);
    if let Some(p) = rules.pawn {
        others &= !pos.type_bb(p);
    }
    others.any()
}
