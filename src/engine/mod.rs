//! Search and evaluation: the built-in engine.
//!
//! - `search`: principal-variation alpha-beta with selectivity and quiescence;
//! - `root`: iterative deepening, aspiration windows, multi-PV;
//! - `movepick`, `see`, `history`, `checks`: move ordering, exchange evaluation, check tests;
//! - `tt`: the shared transposition table; `time`: time management;
//! - `eval` ([`Evaluator`]), [`weights`]: the evaluation and its parameter set (tuned by
//!   [`tune`]);
//! - `limits` ([`Limits`], [`Level`], [`SkillLevel`]), `skill`: what a caller asks for, and
//!   weaker play on purpose.
//!
//! Only [`Engine`], what a caller passes and gets back, and the `weights` and `tune`
//! namespaces are public; the other submodules are the search's own.
//!
//! Several threads search the same root and share the table (Lazy SMP). Nothing here names a
//! variant: everything comes from the compiled rules.

mod breakdown;
mod checks;
mod eval;
mod history;
mod huge_pages;
mod limits;
mod movepick;
mod pawn_cache;
mod root;
mod search;
mod see;
mod skill;
mod time;
mod tt;
pub mod tune;
pub mod weights;

pub use breakdown::{Breakdown, GroupScore};
pub use eval::{Evaluator, ExternalEval, TermSink};
pub use limits::{Clock, Level, LevelError, Limits, SkillLevel};
use weights::Weights;

use crate::piece::Colour;
use crate::position::{Move, Position};
use crate::rules::Rules;
use history::History;
use root::Plan;
use search::{LmrTable, Shared, Worker};
use see::SeeValues;
use skill::RootLine;
use std::sync::atomic::{AtomicBool, AtomicU64};
use std::sync::Arc;
use time::TimeBudget;
use tt::Tt;

/// What a finished iteration found, for `info` lines and the terminal.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchInfo {
    /// The iteration's depth in plies.
    pub depth: u32,
    /// The deepest ply the iteration reached (extensions and quiescence included).
    pub sel_depth: u32,
    /// Centipawns from the side to move's point of view.
    pub score_cp: i32,
    /// Moves to mate: positive when the side to move mates, negative when it is mated.
    pub mate: Option<i32>,
    /// Nodes searched so far, all threads together.
    pub nodes: u64,
    /// Milliseconds since the search started.
    pub time_ms: u64,
    /// The principal variation: the best move first, then the expected replies.
    pub pv: Vec<Move>,
}

/// The deepest iteration the engine starts.
pub const MAX_DEPTH: u32 = 64;
/// Most search threads `set_threads` accepts.
pub const MAX_THREADS: usize = 64;

/// The largest contempt, either way, in centipawns.
pub const MAX_CONTEMPT: i32 = 200;

/// The contempt a new engine starts with (see [`Engine::set_contempt`]).
pub const DEFAULT_CONTEMPT: i32 = 0;

/// A contempt that is not a number of centipawns within ±[`MAX_CONTEMPT`]: the text given.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ContemptError(pub String);

impl std::fmt::Display for ContemptError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let m = MAX_CONTEMPT;
        write!(f, "`{}` is not a number of centipawns (-{m}..{m})", self.0)
    }
}

impl std::error::Error for ContemptError {}

/// Reads a contempt as `--contempt` and UCI `Contempt` take it.
///
/// # Errors
/// Not a whole number, or beyond ±[`MAX_CONTEMPT`].
pub fn parse_contempt(s: &str) -> Result<i32, ContemptError> {
    match s.trim().parse::<i32>() {
        Ok(c) if c.abs() <= MAX_CONTEMPT => Ok(c),
        _ => Err(ContemptError(s.to_string())),
    }
}

/// The value of a draw for each side to move when `engine` is to move at the root.
fn draw_scores(engine: Colour, contempt: i32) -> [i32; 2] {
    let mut s = [contempt; 2];
    s[engine] = -contempt;
    s
}

/// The built-in engine. Keeps its transposition table and history between searches;
/// `clear` forgets them.
///
/// ```
/// use modern_chess::engine::{Engine, Limits};
/// use modern_chess::{catalog, Position};
/// use std::sync::atomic::AtomicBool;
/// use std::sync::Arc;
///
/// let rules = Arc::new(catalog::load_rules("chess").unwrap());
/// // White mates in one: Ra8#.
/// let pos = Position::from_fen(&rules, "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1").unwrap();
/// let mut engine = Engine::new(Arc::clone(&rules), 1);
/// let limits = Limits { depth: Some(3), ..Limits::default() };
/// let best = engine.search(&[pos], &limits, &AtomicBool::new(false), &mut |_| {});
/// assert_eq!(best.unwrap().uci(&rules), "a1a8");
/// ```
pub struct Engine {
    rules: Arc<Rules>,
    eval: Evaluator,
    see: SeeValues,
    tt: Tt,
    lmr: LmrTable,
    /// One history per thread (the first is the main thread's).
    histories: Vec<History>,
    skill: SkillLevel,
    /// How many centipawns below equal a draw counts for the engine (UCI `Contempt`).
    contempt: i32,
    rng: u64,
    /// Nodes of the last search, all threads (to within 1,024 a thread).
    last_nodes: u64,
}

impl Engine {
    /// An engine for one variant with the weights its `[engine] weights` file gives (the
    /// weights derived from its rules when it names none, or the file is missing or bad:
    /// [`weights::for_variant`] tells why), and a transposition table of about `hash_mb`
    /// megabytes.
    pub fn new(rules: Arc<Rules>, hash_mb: usize) -> Engine {
        let w = weights::for_variant(&rules).unwrap_or_else(|_| Weights::derived(&rules));
        Engine::with_weights(rules, hash_mb, w)
    }

    /// An engine with the given evaluation weights.
    pub fn with_weights(rules: Arc<Rules>, hash_mb: usize, weights: Weights) -> Engine {
        Engine {
            eval: Evaluator::new(&rules, weights),
            see: SeeValues::new(&rules),
            tt: Tt::new(hash_mb),
            lmr: LmrTable::new(),
            histories: vec![History::new(&rules)],
            skill: SkillLevel::MAX,
            contempt: DEFAULT_CONTEMPT,
            rng: 0x5eed,
            last_nodes: 0,
            rules,
        }
    }

    /// Replaces the evaluation weights (a weights file, or the tuner's candidate).
    pub fn set_weights(&mut self, weights: Weights) {
        self.eval = Evaluator::new(&self.rules, weights);
        for h in &mut self.histories {
            h.forget_evaluations();
        }
    }

    /// Evaluates with `external` (another engine's evaluation) instead of ours wherever it
    /// gives a score, or with ours again for `None`; forgets the cached evaluations.
    pub fn set_external_eval(&mut self, external: Option<Arc<dyn ExternalEval>>) {
        self.eval.set_external(external);
        for h in &mut self.histories {
            h.forget_evaluations();
        }
    }

    /// The evaluation weights in use.
    pub fn weights(&self) -> &Weights {
        &self.eval.weights
    }

    /// Resizes the transposition table (at least one megabyte) and clears it.
    pub fn set_hash_mb(&mut self, mb: usize) {
        self.tt = Tt::new(mb);
    }

    /// Number of search threads (1..=`MAX_THREADS`).
    pub fn set_threads(&mut self, n: usize) {
        let n = n.clamp(1, MAX_THREADS);
        let rules = &self.rules;
        self.histories.resize_with(n, || History::new(rules));
    }

    /// Number of search threads.
    pub fn threads(&self) -> usize {
        self.histories.len()
    }

    /// Playing strength (UCI `Skill Level`); full strength by default.
    pub fn set_skill(&mut self, skill: SkillLevel) {
        self.skill = skill;
    }

    /// The playing strength set by [`Engine::set_skill`].
    pub fn skill(&self) -> SkillLevel {
        self.skill
    }

    /// How the engine scores a draw: `contempt` centipawns below equal for itself (and as
    /// much above for its opponent), as Stockfish's `Contempt`; negative values make it seek
    /// draws. Clamped to -`MAX_CONTEMPT`..=`MAX_CONTEMPT`.
    pub fn set_contempt(&mut self, contempt: i32) {
        self.contempt = contempt.clamp(-MAX_CONTEMPT, MAX_CONTEMPT);
    }

    /// The contempt set by [`Engine::set_contempt`].
    pub fn contempt(&self) -> i32 {
        self.contempt
    }

    /// Seeds the random choices of weaker skill levels (reproducible games).
    pub fn set_seed(&mut self, seed: u64) {
        self.rng = seed;
    }

    /// Forgets everything learned (new game).
    pub fn clear(&mut self) {
        self.tt.clear();
        for h in &mut self.histories {
            h.clear();
        }
    }

    /// Nodes the last search visited, the unfinished last iteration included (the
    /// reports of [`SearchInfo`] stop at the last finished one).
    pub fn last_search_nodes(&self) -> u64 {
        self.last_nodes
    }

    /// Static evaluation from the side to move's point of view.
    pub fn evaluate(&self, pos: &Position) -> i32 {
        self.eval.evaluate(&self.rules, pos)
    }

    /// The static evaluation split into term groups (UCI `eval`).
    pub fn breakdown(&self, pos: &Position) -> Breakdown {
        self.eval.breakdown(&self.rules, pos)
    }

    /// Searches the last position of `history` (the game so far, used for repetitions) and
    /// returns the best move found, or `None` when there is no legal move.
    ///
    /// Always returns a legal move when one exists, even when `stop` is already set or the
    /// limits are tiny: the first iteration's best move, or failing that the first legal one.
    pub fn search(
        &mut self,
        history: &[Position],
        limits: &Limits,
        stop: &AtomicBool,
        on_info: &mut dyn FnMut(&SearchInfo),
    ) -> Option<Move> {
        let root = history.last()?;
        let legal = root.legal_moves(&self.rules);
        if legal.is_empty() {
            return None;
        }
        let lines = self.run_threads(history, limits, stop, legal.len(), on_info);
        let chosen = skill::pick(&lines, self.skill, &mut self.rng);
        match chosen {
            Some(m) if legal.contains(&m) => Some(m),
            _ => Some(legal.as_slice()[0]),
        }
    }

    /// Runs the main thread here and the helpers beside it; the main thread's lines.
    fn run_threads(
        &mut self,
        history: &[Position],
        limits: &Limits,
        stop: &AtomicBool,
        legal_moves: usize,
        on_info: &mut dyn FnMut(&SearchInfo),
    ) -> Vec<RootLine> {
        let root = &history[history.len() - 1];
        self.tt.new_search();
        for h in &mut self.histories {
            h.age();
        }
        // Only positions since the last irreversible move can repeat.
        let window = root.halfmove_clock() as usize + 1;
        let from = history.len().saturating_sub(window);
        let game_keys: Vec<u64> = history[from..history.len() - 1]
            .iter()
            .map(|p| p.hash())
            .collect();
        let done = AtomicBool::new(false);
        let nodes = AtomicU64::new(0);
        let shared = Shared {
            rules: &self.rules,
            eval: &self.eval,
            see: &self.see,
            tt: &self.tt,
            lmr: &self.lmr,
            stop,
            done: &done,
            nodes: &nodes,
            node_limit: limits.nodes,
            budget: TimeBudget::new(limits, root.side_to_move()),
            game_keys: &game_keys,
            draw_score: draw_scores(root.side_to_move(), self.contempt),
        };
        let max_depth = limits.depth.unwrap_or(MAX_DEPTH).clamp(1, MAX_DEPTH);
        let plan = Plan {
            max_depth,
            multipv: skill::multipv(self.skill),
            stop_depth: skill::pick_depth(self.skill),
            legal_moves,
            exact_limits: limits.depth.is_some() || limits.nodes.is_some(),
            depth_offset: 0,
        };
        let (main_history, helpers) = self.histories.split_first_mut().expect("one history");
        let rules = &*self.rules;
        let lines = std::thread::scope(|s| {
            for (i, h) in helpers.iter_mut().enumerate() {
                let shared = &shared;
                let helper_plan = Plan {
                    depth_offset: (i as u32 + 1) & 1,
                    ..plan
                };
                s.spawn(move || {
                    let mut w = Worker::new(shared, h, false);
                    w.iterate(root, &helper_plan, rules, &mut |_| {});
                });
            }
            let mut w = Worker::new(&shared, main_history, true);
            let lines = w.iterate(root, &plan, rules, on_info);
            done.store(true, std::sync::atomic::Ordering::Relaxed);
            lines
        });
        self.last_nodes = nodes.load(std::sync::atomic::Ordering::Relaxed);
        lines
    }
}

#[cfg(test)]
mod tests;
