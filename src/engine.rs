//! Search and evaluation: the built-in engine.
//!
//! Negamax alpha-beta with principal-variation search, iterative deepening, a quiescence
//! search over captures and promotions, null-move pruning and late-move reductions. Moves are
//! ordered by the transposition-table move, then captures by MVV-LVA, then killer moves and
//! the history table. The transposition table has a fixed number of entries chosen from the
//! hash size, so memory stays bounded however long the engine runs.
//!
//! The evaluation reads everything from the compiled rules: piece values come from the variant
//! file; mobility is counted from the same move tables the move generator uses; king safety is
//! the enemy pressure on the squares the king itself could step to. Nothing depends on a
//! variant's name, so a new variant file gets a working engine without code.

use crate::game::insufficient_material;
use crate::geometry::{Bitboard, Square};
use crate::movegen::MoveList;
use crate::position::{Move, MoveKind, Position, NO_PROMO};
use crate::rules::Rules;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant;

/// How long to search. Every limit that is set applies; with none set the search runs until
/// `stop` is raised or the maximum depth is reached (UCI `go infinite`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    pub depth: Option<u32>,
    pub movetime_ms: Option<u64>,
    pub nodes: Option<u64>,
}

impl Limits {
    /// The level `play` uses when the user names none: about a second a move on a slow
    /// machine, strong enough to beat casual play.
    pub fn default_level() -> Limits {
        Limits {
            depth: None,
            movetime_ms: Some(900),
            nodes: None,
        }
    }
}

/// What a finished iteration found, for `info` lines and the terminal.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchInfo {
    pub depth: u32,
    /// Centipawns from the side to move's point of view.
    pub score_cp: i32,
    /// Moves to mate: positive when the side to move mates, negative when it is mated.
    pub mate: Option<i32>,
    pub nodes: u64,
    pub time_ms: u64,
    pub pv: Vec<Move>,
}

const MAX_PLY: usize = 96;
const MAX_DEPTH: u32 = 64;
const INF: i32 = 1_000_000;
const MATE: i32 = 900_000;
/// Scores beyond this are mates (a mate within `MAX_PLY` plies).
const MATE_BOUND: i32 = MATE - 2 * MAX_PLY as i32;

#[derive(Clone, Copy, PartialEq, Eq)]
enum Bound {
    Exact,
    Lower,
    Upper,
}

#[derive(Clone, Copy)]
struct TtEntry {
    key: u64,
    mv: Option<Move>,
    score: i32,
    depth: i16,
    bound: Bound,
}

const EMPTY_ENTRY: TtEntry = TtEntry {
    key: 0,
    mv: None,
    score: 0,
    depth: -1,
    bound: Bound::Upper,
};

/// Evaluation tables computed once per variant.
struct EvalTables {
    /// Material value per piece type (0 for the royal piece).
    value: Vec<i32>,
    /// Bonus per square a piece of this type may move to.
    mobility: Vec<i32>,
    /// Pawn advance bonus per colour and square (nearer the promotion zone is worth more).
    pawn_advance: [Vec<i32>; 2],
    /// Distance of each square from the centre (for the endgame king).
    centre_distance: Vec<i32>,
    /// Sum of both sides' non-pawn material at the start of a game, for the game phase.
    full_phase: i32,
}

impl EvalTables {
    fn new(rules: &Rules) -> EvalTables {
        let geo = &rules.geo;
        let n = geo.squares();
        let value: Vec<i32> = (0..rules.n_types)
            .map(|t| {
                if t == rules.royal {
                    0
                } else {
                    rules.variant.pieces[t].value.max(0)
                }
            })
            .collect();
        let mobility = (0..rules.n_types)
            .map(|t| {
                if t == rules.royal || Some(t) == rules.pawn {
                    0
                } else if value[t] < 400 {
                    4
                } else {
                    2
                }
            })
            .collect();
        let mut pawn_advance = [vec![0; n], vec![0; n]];
        for c in 0..2 {
            let zone = rules.promotion_zone[c];
            for sq in 0..n as Square {
                let dist = zone
                    .filter(|&z| geo.file(z) == geo.file(sq))
                    .map(|z| geo.rank(z).abs_diff(geo.rank(sq)) as i32)
                    .min();
                pawn_advance[c][sq as usize] = match dist {
                    Some(1) => 90,
                    Some(2) => 50,
                    Some(3) => 25,
                    Some(4) => 10,
                    _ => 0,
                };
            }
        }
        let cf = (geo.files as i32 - 1) as f64 / 2.0;
        let cr = (geo.ranks as i32 - 1) as f64 / 2.0;
        let centre_distance = (0..n as Square)
            .map(|sq| {
                let df = (geo.file(sq) as f64 - cf).abs();
                let dr = (geo.rank(sq) as f64 - cr).abs();
                (df.max(dr) * 2.0) as i32
            })
            .collect();
        // Phase: the army's non-pawn material, both sides.
        let army: i32 = rules
            .variant
            .setup
            .army
            .iter()
            .map(|&t| value.get(t).copied().unwrap_or(0))
            .sum();
        EvalTables {
            value,
            mobility,
            pawn_advance,
            centre_distance,
            full_phase: (2 * army).max(1),
        }
    }
}

/// The built-in engine. Keeps its transposition table between searches; `clear` forgets it.
pub struct Engine {
    rules: Arc<Rules>,
    eval: EvalTables,
    tt: Vec<TtEntry>,
    killers: Vec<[Option<Move>; 2]>,
    /// Quiet-move history, indexed `(colour * squares + from) * squares + to`.
    history: Vec<i32>,
    /// Move buffers per ply, reused so the search allocates nothing after the first moves.
    buffers: Vec<Vec<(Move, i32)>>,
    /// Hashes of the game positions and of the positions on the current search path.
    keys: Vec<u64>,
    nodes: u64,
    start: Instant,
    deadline_ms: Option<u64>,
    node_limit: Option<u64>,
    aborted: bool,
}

fn ms_since(t: Instant) -> u64 {
    t.elapsed().as_millis() as u64
}

impl Engine {
    /// An engine for one variant, with a transposition table of about `hash_mb` megabytes.
    pub fn new(rules: Arc<Rules>, hash_mb: usize) -> Engine {
        let squares = rules.geo.squares();
        let eval = EvalTables::new(&rules);
        let mut e = Engine {
            rules,
            eval,
            tt: Vec::new(),
            killers: vec![[None; 2]; MAX_PLY + 2],
            history: vec![0; 2 * squares * squares],
            buffers: (0..MAX_PLY + 2).map(|_| Vec::new()).collect(),
            keys: Vec::new(),
            nodes: 0,
            start: Instant::now(),
            deadline_ms: None,
            node_limit: None,
            aborted: false,
        };
        e.set_hash_mb(hash_mb);
        e
    }

    /// Resizes the transposition table (at least one megabyte) and clears it.
    pub fn set_hash_mb(&mut self, mb: usize) {
        let mb = mb.clamp(1, 65_536);
        let entries = mb * 1024 * 1024 / std::mem::size_of::<TtEntry>();
        self.tt = vec![EMPTY_ENTRY; entries.max(1024)];
    }

    /// Forgets everything learned (new game).
    pub fn clear(&mut self) {
        self.tt.fill(EMPTY_ENTRY);
        self.history.fill(0);
        self.killers.fill([None; 2]);
    }

    /// Searches the last position of `history` (the game so far, used for repetitions) and
    /// returns the best move found, or `None` when there is no legal move.
    ///
    /// Always returns a legal move when one exists, even when `stop` is already set or the
    /// limits are tiny: the first iteration's best move, or failing that the best-ordered one.
    pub fn search(
        &mut self,
        history: &[Position],
        limits: &Limits,
        stop: &AtomicBool,
        on_info: &mut dyn FnMut(&SearchInfo),
    ) -> Option<Move> {
        let root = history.last()?.clone();
        let rules = Arc::clone(&self.rules);
        let legal = root.legal_moves(&rules);
        if legal.is_empty() {
            return None;
        }
        self.start = Instant::now();
        self.nodes = 0;
        self.aborted = false;
        self.deadline_ms = limits.movetime_ms;
        self.node_limit = limits.nodes;
        self.keys.clear();
        // Only positions since the last irreversible move can repeat.
        let window = root.halfmove_clock() as usize + 1;
        let from = history.len().saturating_sub(window);
        self.keys
            .extend(history[from..history.len() - 1].iter().map(|p| p.hash()));
        for h in self.history.iter_mut() {
            *h /= 8;
        }
        self.killers.fill([None; 2]);

        let max_depth = limits.depth.unwrap_or(MAX_DEPTH).clamp(1, MAX_DEPTH);
        let mut best: Option<Move> = None;
        let mut prev_score = 0;
        for depth in 1..=max_depth {
            let mut root_best = None;
            let score = self.aspiration(&root, depth, prev_score, stop, &mut root_best);
            if self.aborted {
                // A partial iteration's move is trusted when the search got as far as
                // proving it (the first move searched is the previous best).
                if root_best.is_some() {
                    best = root_best;
                }
                break;
            }
            best = root_best.or(best);
            prev_score = score;
            let pv = self.pv_line(&root, depth as usize);
            let mate = if score.abs() >= MATE_BOUND {
                let plies = MATE - score.abs();
                let moves = (plies + 1) / 2;
                Some(if score > 0 { moves } else { -moves })
            } else {
                None
            };
            on_info(&SearchInfo {
                depth,
                score_cp: score,
                mate,
                nodes: self.nodes,
                time_ms: ms_since(self.start),
                pv,
            });
            if legal.len() == 1 && limits.depth.is_none() && limits.nodes.is_none() {
                break;
            }
            if let Some(mt) = limits.movetime_ms {
                // The next iteration takes several times as long as this one: do not start
                // what cannot finish.
                if ms_since(self.start) * 2 >= mt {
                    break;
                }
            }
            if score.abs() >= MATE_BOUND && depth as i32 > 2 * (MATE - score.abs()) + 2 {
                break;
            }
        }
        match best {
            Some(m) if legal.contains(&m) => Some(m),
            _ => Some(legal.as_slice()[0]),
        }
    }

    fn aspiration(
        &mut self,
        root: &Position,
        depth: u32,
        prev: i32,
        stop: &AtomicBool,
        root_best: &mut Option<Move>,
    ) -> i32 {
        if depth < 4 || prev.abs() >= MATE_BOUND {
            return self.negamax(root, depth as i32, -INF, INF, 0, true, stop, root_best);
        }
        let mut window = 40;
        loop {
            let (a, b) = (prev - window, prev + window);
            let s = self.negamax(root, depth as i32, a, b, 0, true, stop, root_best);
            if self.aborted {
                return s;
            }
            if s > a && s < b {
                return s;
            }
            window *= 4;
            if window > 2000 {
                return self.negamax(root, depth as i32, -INF, INF, 0, true, stop, root_best);
            }
        }
    }

    /// Follows the transposition table from the root, checking each move is legal.
    fn pv_line(&self, root: &Position, max: usize) -> Vec<Move> {
        let rules = &*self.rules;
        let mut pv = Vec::new();
        let mut pos = root.clone();
        let mut seen = Vec::new();
        while pv.len() < max.max(1) {
            let e = &self.tt[self.tt_index(pos.hash())];
            if e.key != pos.hash() {
                break;
            }
            let Some(m) = e.mv else { break };
            if !pos.legal_moves(rules).contains(&m) || seen.contains(&pos.hash()) {
                break;
            }
            seen.push(pos.hash());
            pv.push(m);
            pos = pos.play_unchecked(rules, m);
        }
        pv
    }

    #[inline]
    fn tt_index(&self, key: u64) -> usize {
        ((key as u128 * self.tt.len() as u128) >> 64) as usize
    }

    fn tt_store(
        &mut self,
        key: u64,
        mv: Option<Move>,
        score: i32,
        depth: i32,
        bound: Bound,
        ply: usize,
    ) {
        let i = self.tt_index(key);
        let e = &mut self.tt[i];
        // Mate scores are stored relative to this node, so they stay right at any ply.
        let s = if score >= MATE_BOUND {
            score + ply as i32
        } else if score <= -MATE_BOUND {
            score - ply as i32
        } else {
            score
        };
        if e.key != key || depth as i16 >= e.depth - 2 || bound == Bound::Exact {
            let mv = mv.or(if e.key == key { e.mv } else { None });
            *e = TtEntry {
                key,
                mv,
                score: s,
                depth: depth as i16,
                bound,
            };
        }
    }

    fn check_time(&mut self, stop: &AtomicBool) {
        if self.nodes & 1023 == 0 {
            if stop.load(Ordering::Relaxed) {
                self.aborted = true;
            }
            if let Some(mt) = self.deadline_ms {
                if ms_since(self.start) >= mt {
                    self.aborted = true;
                }
            }
        }
        if let Some(n) = self.node_limit {
            if self.nodes >= n {
                self.aborted = true;
            }
        }
    }

    /// Is the position at the end of the path a draw by repetition or the move rule?
    fn is_draw(&self, pos: &Position, ply: usize) -> bool {
        let rules = &*self.rules;
        let limit = rules.variant.rules.fifty_move_plies;
        if limit > 0 && pos.halfmove_clock() >= limit {
            return true;
        }
        let key = pos.hash();
        let window = pos.halfmove_clock() as usize;
        let n = self.keys.len();
        let mut count = 0;
        let mut i = 2;
        while i <= window && i <= n {
            if self.keys[n - i] == key {
                // Inside the search one repetition is enough to call it a draw; against the
                // game's history it takes the variant's full count.
                if n - i >= n.saturating_sub(ply) {
                    return true;
                }
                count += 1;
                let needed = rules.variant.rules.repetitions.max(2) as usize - 1;
                if count >= needed {
                    return true;
                }
            }
            i += 2;
        }
        if pos.occupied().count() <= 4 && insufficient_material(rules, pos) {
            return true;
        }
        false
    }

    fn order_moves(
        &self,
        pos: &Position,
        buf: &mut [(Move, i32)],
        tt_move: Option<Move>,
        ply: usize,
    ) {
        let rules = &*self.rules;
        let us = pos.side_to_move();
        let sqs = rules.geo.squares();
        for (m, score) in buf.iter_mut() {
            *score = if Some(*m) == tt_move {
                10_000_000
            } else if let Some(v) = self.capture_value(pos, *m) {
                let attacker = pos
                    .piece_at(m.from)
                    .map(|(t, _)| self.eval.value[t])
                    .unwrap_or(0);
                let promo = if m.promo != NO_PROMO {
                    self.eval.value[m.promo as usize]
                } else {
                    0
                };
                5_000_000 + (v + promo) * 16 - attacker / 16
            } else if m.promo != NO_PROMO {
                4_000_000 + self.eval.value[m.promo as usize]
            } else if self.killers[ply][0] == Some(*m) {
                3_000_001
            } else if self.killers[ply][1] == Some(*m) {
                3_000_000
            } else {
                self.history[(us * sqs + m.from as usize) * sqs + m.to as usize]
            };
        }
    }

    /// The value of what a move captures, if it captures.
    #[inline]
    fn capture_value(&self, pos: &Position, m: Move) -> Option<i32> {
        match m.kind {
            MoveKind::EnPassant => Some(self.rules.pawn.map(|p| self.eval.value[p]).unwrap_or(100)),
            MoveKind::Castle { .. } | MoveKind::Adjust => None,
            _ => pos.piece_at(m.to).map(|(t, _)| self.eval.value[t]),
        }
    }

    /// Picks the best-scored remaining move into place `i`.
    #[inline]
    fn pick(buf: &mut [(Move, i32)], i: usize) -> Move {
        let mut best = i;
        for j in i + 1..buf.len() {
            if buf[j].1 > buf[best].1 {
                best = j;
            }
        }
        buf.swap(i, best);
        buf[i].0
    }

    #[allow(clippy::too_many_arguments)]
    fn negamax(
        &mut self,
        pos: &Position,
        mut depth: i32,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        allow_null: bool,
        stop: &AtomicBool,
        root_best: &mut Option<Move>,
    ) -> i32 {
        let rules = Arc::clone(&self.rules);
        let rules = &*rules;
        let is_root = ply == 0;
        let pv_node = beta - alpha > 1;
        self.nodes += 1;
        self.check_time(stop);
        if self.aborted {
            return 0;
        }
        if !is_root && self.is_draw(pos, ply) {
            return 0;
        }
        if ply >= MAX_PLY {
            return self.evaluate(pos);
        }
        // Mate distance pruning: no line from here beats a mate already found nearer the root.
        if !is_root && (MATE - ply as i32) <= alpha {
            return alpha;
        }
        let orig_alpha = alpha;
        let in_check = pos.in_check(rules);
        if in_check {
            depth += 1;
        }
        if depth <= 0 {
            return self.quiesce(pos, alpha, beta, ply, stop);
        }

        let key = pos.hash();
        let e = self.tt[self.tt_index(key)];
        let mut tt_move = None;
        if e.key == key {
            tt_move = e.mv;
            if !pv_node && e.depth as i32 >= depth {
                let s = if e.score >= MATE_BOUND {
                    e.score - ply as i32
                } else if e.score <= -MATE_BOUND {
                    e.score + ply as i32
                } else {
                    e.score
                };
                let ok = match e.bound {
                    Bound::Exact => true,
                    Bound::Lower => s >= beta,
                    Bound::Upper => s <= alpha,
                };
                if ok {
                    return s;
                }
            }
        }

        let us = pos.side_to_move();
        let static_eval = if in_check { -INF } else { self.evaluate(pos) };

        // Null move: if passing still fails high, a real move will too (not in check, not
        // in a pawn ending where zugzwang is common).
        if allow_null
            && !pv_node
            && !in_check
            && depth >= 3
            && static_eval >= beta
            && self.has_pieces(pos, us)
        {
            let r = 2 + depth / 4;
            let null = null_move(rules, pos);
            self.keys.push(key);
            let s = -self.negamax(
                &null,
                depth - 1 - r,
                -beta,
                -beta + 1,
                ply + 1,
                false,
                stop,
                root_best,
            );
            self.keys.pop();
            if self.aborted {
                return 0;
            }
            if s >= beta {
                return if s >= MATE_BOUND { beta } else { s };
            }
        }

        // Reverse futility: far above beta near the leaves.
        if !pv_node
            && !in_check
            && depth <= 2
            && static_eval - 120 * depth >= beta
            && static_eval < MATE_BOUND
        {
            return static_eval;
        }

        let mut buf = std::mem::take(&mut self.buffers[ply]);
        gen_pseudo(rules, pos, &mut buf);
        self.order_moves(pos, &mut buf, tt_move, ply);

        let mut best_score = -INF;
        let mut best_move = None;
        let mut legal = 0;
        self.keys.push(key);
        let sqs = rules.geo.squares();
        for i in 0..buf.len() {
            let m = Self::pick(&mut buf, i);
            let child = pos.play_unchecked(rules, m);
            if child.is_attacked(rules, child.king_square(us), us ^ 1) {
                continue;
            }
            legal += 1;
            let quiet = self.capture_value(pos, m).is_none() && m.promo == NO_PROMO;
            let gives_check = child.in_check(rules);
            let mut score;
            if legal == 1 {
                score = -self.negamax(
                    &child,
                    depth - 1,
                    -beta,
                    -alpha,
                    ply + 1,
                    true,
                    stop,
                    root_best,
                );
            } else {
                // Late quiet moves get a shallower look first.
                let mut r = 0;
                if depth >= 3 && quiet && !in_check && !gives_check && legal > 3 {
                    r = 1 + (legal > 8) as i32 + (depth > 6) as i32;
                    if pv_node {
                        r -= 1;
                    }
                }
                score = -self.negamax(
                    &child,
                    depth - 1 - r,
                    -alpha - 1,
                    -alpha,
                    ply + 1,
                    true,
                    stop,
                    root_best,
                );
                if score > alpha && r > 0 {
                    score = -self.negamax(
                        &child,
                        depth - 1,
                        -alpha - 1,
                        -alpha,
                        ply + 1,
                        true,
                        stop,
                        root_best,
                    );
                }
                if score > alpha && score < beta {
                    score = -self.negamax(
                        &child,
                        depth - 1,
                        -beta,
                        -alpha,
                        ply + 1,
                        true,
                        stop,
                        root_best,
                    );
                }
            }
            if self.aborted {
                break;
            }
            if score > best_score {
                best_score = score;
                best_move = Some(m);
                if is_root {
                    *root_best = Some(m);
                }
            }
            if score > alpha {
                alpha = score;
            }
            if alpha >= beta {
                if quiet {
                    if self.killers[ply][0] != Some(m) {
                        self.killers[ply][1] = self.killers[ply][0];
                        self.killers[ply][0] = Some(m);
                    }
                    let h = &mut self.history[(us * sqs + m.from as usize) * sqs + m.to as usize];
                    *h = (*h + depth * depth).min(1_000_000);
                }
                break;
            }
        }
        self.keys.pop();
        self.buffers[ply] = buf;
        if self.aborted {
            return 0;
        }
        if legal == 0 {
            return if in_check { -MATE + ply as i32 } else { 0 };
        }
        let bound = if best_score >= beta {
            Bound::Lower
        } else if best_score > orig_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.tt_store(key, best_move, best_score, depth, bound, ply);
        best_score
    }

    fn quiesce(
        &mut self,
        pos: &Position,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        stop: &AtomicBool,
    ) -> i32 {
        let rules = Arc::clone(&self.rules);
        let rules = &*rules;
        self.nodes += 1;
        self.check_time(stop);
        if self.aborted {
            return 0;
        }
        if ply >= MAX_PLY {
            return self.evaluate(pos);
        }
        let in_check = pos.in_check(rules);
        let stand = if in_check {
            -MATE + ply as i32
        } else {
            self.evaluate(pos)
        };
        if !in_check {
            if stand >= beta {
                return stand;
            }
            if stand > alpha {
                alpha = stand;
            }
        }
        let us = pos.side_to_move();
        let mut buf = std::mem::take(&mut self.buffers[ply]);
        gen_pseudo(rules, pos, &mut buf);
        if !in_check {
            buf.retain(|&(m, _)| self.capture_value(pos, m).is_some() || m.promo != NO_PROMO);
        }
        self.order_moves(pos, &mut buf, None, ply);
        let mut best = stand;
        let mut legal = 0;
        for i in 0..buf.len() {
            let m = Self::pick(&mut buf, i);
            if !in_check {
                // Delta pruning: even winning this piece cannot reach alpha.
                let gain = self.capture_value(pos, m).unwrap_or(0)
                    + if m.promo != NO_PROMO {
                        self.eval.value[m.promo as usize]
                    } else {
                        0
                    };
                if stand + gain + 200 < alpha {
                    continue;
                }
            }
            let child = pos.play_unchecked(rules, m);
            if child.is_attacked(rules, child.king_square(us), us ^ 1) {
                continue;
            }
            legal += 1;
            let s = -self.quiesce(&child, -beta, -alpha, ply + 1, stop);
            if self.aborted {
                break;
            }
            if s > best {
                best = s;
            }
            if s > alpha {
                alpha = s;
                if alpha >= beta {
                    break;
                }
            }
        }
        self.buffers[ply] = buf;
        if in_check && legal == 0 {
            return -MATE + ply as i32;
        }
        best
    }

    fn has_pieces(&self, pos: &Position, c: usize) -> bool {
        let r = &*self.rules;
        let mut others = pos.colour_bb(c) & !pos.type_bb(r.royal);
        if let Some(p) = r.pawn {
            others &= !pos.type_bb(p);
        }
        others.any()
    }

    /// Static evaluation from the side to move's point of view.
    pub fn evaluate(&self, pos: &Position) -> i32 {
        let r = &*self.rules;
        let ev = &self.eval;
        let occ = pos.occupied();
        let mut material = [0i32; 2];
        let mut non_pawn = [0i32; 2];
        let mut positional = [0i32; 2];
        let mut attacks = [Bitboard::EMPTY; 2];
        for c in 0..2 {
            let own = pos.colour_bb(c);
            for t in 0..r.n_types {
                let bb = pos.pieces(c, t);
                if bb.is_empty() {
                    continue;
                }
                let pm = r.piece_moves(c, t);
                let is_pawn = Some(t) == r.pawn;
                for sq in bb {
                    let s = sq as usize;
                    material[c] += ev.value[t];
                    if is_pawn {
                        positional[c] += ev.pawn_advance[c][s];
                        attacks[c] |= pm.leap_capture[s];
                        continue;
                    }
                    if t == r.royal {
                        continue;
                    }
                    non_pawn[c] += ev.value[t];
                    let mut reach = pm.leap_quiet[s] | pm.leap_capture[s];
                    for rd in &pm.riders {
                        reach |= r.rays[rd.ray].attacks(r, sq, occ);
                    }
                    attacks[c] |= reach;
                    positional[c] += ev.mobility[t] * (reach & !own).count() as i32;
                }
            }
        }
        // Game phase: 1.0 with all pieces on, 0.0 with none.
        let phase_num = (non_pawn[0] + non_pawn[1]).min(ev.full_phase);
        let phase_den = ev.full_phase;
        let mut mg = [0i32; 2];
        let mut eg = [0i32; 2];
        for c in 0..2 {
            let k = pos.king_square(c);
            let km = r.piece_moves(c, r.royal);
            let zone = km.leap_quiet[k as usize] | km.leap_capture[k as usize];
            // King safety: enemy control of the squares round the king, and own pawns there.
            let pressure = (attacks[c ^ 1] & zone).count() as i32;
            let shield = r
                .pawn
                .map(|p| (pos.pieces(c, p) & zone).count() as i32)
                .unwrap_or(0);
            mg[c] -= pressure * pressure * 6;
            mg[c] += shield.min(3) * 12;
            // In the endgame the king belongs in the centre.
            eg[c] -= ev.centre_distance[k as usize] * 6;
        }
        let mut score = [0i32; 2];
        for c in 0..2 {
            score[c] = material[c]
                + positional[c]
                + (mg[c] * phase_num + eg[c] * (phase_den - phase_num)) / phase_den;
        }
        // Mop-up: with a clear material lead drive the lone king to the edge and walk the
        // own king towards it, so won endings are won rather than shuffled.
        let diff = material[0] - material[1];
        if diff.abs() > 250 {
            let (w, l) = if diff > 0 { (0, 1) } else { (1, 0) };
            let lk = pos.king_square(l);
            let wk = pos.king_square(w);
            let g = &r.geo;
            let dist = g
                .file(lk)
                .abs_diff(g.file(wk))
                .max(g.rank(lk).abs_diff(g.rank(wk))) as i32;
            score[w] += ev.centre_distance[lk as usize] * 10 - dist * 6;
        }
        let s = score[0] - score[1];
        let tempo = 10;
        if pos.side_to_move() == 0 {
            s + tempo
        } else {
            -s + tempo
        }
    }
}

/// The position with the other side to move and nothing else changed (for null-move pruning).
fn null_move(rules: &Rules, pos: &Position) -> Position {
    let mut p = pos.clone();
    if p.ep != crate::geometry::NO_SQUARE {
        p.hash ^= rules.zobrist.ep[p.ep as usize];
        p.ep = crate::geometry::NO_SQUARE;
        p.ep_victim = crate::geometry::NO_SQUARE;
    }
    p.side ^= 1;
    p.hash ^= rules.zobrist.side;
    p.halfmove += 1;
    p
}

/// Pseudo-legal moves into a buffer. Kept out of line so the fixed-size list lives only in
/// this short frame and not in every frame of the recursive search.
#[inline(never)]
fn gen_pseudo(rules: &Rules, pos: &Position, out: &mut Vec<(Move, i32)>) {
    let mut list = MoveList::new();
    pos.pseudo_moves(rules, &mut list);
    out.clear();
    out.extend(list.iter().map(|&m| (m, 0)));
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog;

    fn engine(v: &str) -> (Arc<Rules>, Engine) {
        let rules = Arc::new(catalog::load_rules(v).unwrap());
        let e = Engine::new(Arc::clone(&rules), 8);
        (rules, e)
    }

    fn best(e: &mut Engine, pos: Position, depth: u32) -> (Move, Vec<SearchInfo>) {
        let stop = AtomicBool::new(false);
        let mut infos = Vec::new();
        let m = e
            .search(
                &[pos],
                &Limits {
                    depth: Some(depth),
                    ..Limits::default()
                },
                &stop,
                &mut |i| infos.push(i.clone()),
            )
            .unwrap();
        (m, infos)
    }

    #[test]
    fn finds_mate_in_one() {
        // Chess back-rank mate: Ra8#.
        let (rules, mut e) = engine("chess");
        let pos = Position::from_fen(&rules, "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1").unwrap();
        let (m, infos) = best(&mut e, pos, 3);
        assert_eq!(m.uci(&rules), "a1a8");
        assert_eq!(infos.last().unwrap().mate, Some(1));
    }

    #[test]
    fn takes_a_hanging_queen() {
        let (rules, mut e) = engine("mrc");
        let pos = Position::from_fen(&rules, "4k4/9/9/9/4q4/9/9/4R4/4K4 w - - 0 1").unwrap();
        let (m, _) = best(&mut e, pos, 4);
        assert_eq!(m.uci(&rules), "e2e5");
    }

    #[test]
    fn no_move_when_mated_or_stalemated() {
        let (rules, mut e) = engine("chess");
        let pos = Position::from_fen(&rules, "R5k1/5ppp/8/8/8/8/8/6K1 b - - 0 1").unwrap();
        let stop = AtomicBool::new(false);
        assert_eq!(
            e.search(&[pos], &Limits::default(), &stop, &mut |_| {}),
            None
        );
    }

    #[test]
    fn returns_a_legal_move_even_when_stopped_at_once() {
        let (rules, mut e) = engine("mrc");
        let pos = Position::from_start(
            &rules,
            &crate::setup::from_id(&rules.variant, 6944).unwrap(),
        )
        .unwrap();
        let stop = AtomicBool::new(true);
        let m = e
            .search(
                std::slice::from_ref(&pos),
                &Limits::default(),
                &stop,
                &mut |_| {},
            )
            .unwrap();
        assert!(pos.legal_moves(&rules).contains(&m));
    }

    #[test]
    fn avoids_stalemating_when_winning() {
        // Chess: Qc7 stalemates the a8 king, Qc8 mates it.
        let (rules, mut e) = engine("chess");
        let pos = Position::from_fen(&rules, "k7/8/1K6/8/8/8/8/2Q5 w - - 0 1").unwrap();
        let (m, _) = best(&mut e, pos.clone(), 5);
        let after = pos.play(&rules, m).unwrap();
        let mated = after.legal_moves(&rules).is_empty() && after.in_check(&rules);
        assert!(mated, "played {} instead of mating", m.uci(&rules));
    }

    #[test]
    fn evaluation_is_symmetric() {
        for v in ["mrc", "mrc64", "merc", "pmrc"] {
            let (rules, e) = engine(v);
            let sp = crate::setup::from_id(&rules.variant, 7).unwrap();
            let pos = Position::from_start(&rules, &sp).unwrap();
            let flipped = pos.colour_flipped(&rules);
            assert_eq!(e.evaluate(&pos), e.evaluate(&flipped), "{v}");
        }
    }

    #[test]
    fn table_size_is_bounded_by_hash_mb() {
        let (_, mut e) = engine("merc");
        for mb in [1, 3, 16] {
            e.set_hash_mb(mb);
            let bytes = e.tt.len() * std::mem::size_of::<TtEntry>();
            assert!(
                bytes <= mb * 1024 * 1024 && bytes > mb * 1024 * 1024 / 2,
                "{mb} MB: {bytes}"
            );
        }
    }

    #[test]
    fn movetime_is_respected() {
        let (rules, mut e) = engine("merc");
        let sp = crate::setup::from_id(&rules.variant, 11).unwrap();
        let pos = Position::from_start(&rules, &sp).unwrap();
        let stop = AtomicBool::new(false);
        let t = Instant::now();
        let limits = Limits {
            movetime_ms: Some(200),
            ..Limits::default()
        };
        let m = e.search(std::slice::from_ref(&pos), &limits, &stop, &mut |_| {});
        let ms = t.elapsed().as_millis();
        assert!(m.is_some());
        assert!(ms < 400, "took {ms} ms for a 200 ms search");
    }
}
