//! The XBoard/WinBoard protocol (CECP version 2), the subset XBoard needs to play a variant it
//! does not know: the engine names its variants in `feature variants=...` and answers
//! `variant NAME` with the board (`setup (PIECETOCHAR) WxH+0_fairy FEN`) and the moves of the
//! pieces XBoard cannot guess (`piece M& BN`).
//!
//! XBoard's conventions differ from ours in two places: on a board with ten or more ranks it
//! numbers ranks from 0 (`a0`..`j9`) in moves and FEN squares, and it reads `O-O`/`O-O-O` by
//! its own board-width rules, so castling is sent as the king's move (`e1g1`). Conversion
//! happens only at the edge (`notation.rs`).
//!
//! XBoard tests the legality of every engine move by its own rules unless it runs with
//! `-testLegality false`. By default the session therefore plays only what XBoard can test
//! (`legality.rs`): castlings of the orthodox shape, no Bishop Adjustment. The engine option
//! `Full rules` (for `-testLegality false`) keeps every rule.

mod legality;
mod notation;

pub use notation::{
    fen_from_xboard, fen_to_xboard, move_from_xboard, move_to_xboard, piece_slots, setup_lines,
};

use super::{
    checked_hash_mb, choose_start, lenient_position, one_line, read_line_lossy, session_start,
    think_time, Out, SessionError, StartChoice, VariantSet, Worker,
};
use crate::engine::{Engine, Limits, SearchInfo};
use crate::game::Game;
use crate::piece::Colour;
use crate::position::{Move, Position};
use crate::rules::Rules;
use std::io::{BufRead, Write};
use std::sync::{Arc, Mutex, MutexGuard};

/// The settings shared with the other protocol (see `super::ProtocolConfig`).
pub type XboardConfig = super::ProtocolConfig;

/// The game as both threads see it.
struct State {
    rules: Arc<Rules>,
    game: Game,
    /// The side the engine plays; `None` in force mode.
    engine_side: Option<Colour>,
    /// Bumped by every command that changes the game, so a search started before it knows its
    /// move is stale.
    generation: u64,
    post: bool,
    /// A search for the engine's own move is running: `ping` is answered after the move.
    thinking: bool,
    pending_pongs: Vec<String>,
}

/// XBoard's clock settings. Without `level`, XBoard's own default: 40 moves in 5 minutes.
#[derive(Clone, Debug)]
struct Clock {
    /// Moves per session (0: the whole game), base time, increment.
    mps: u32,
    base_ms: u64,
    inc_ms: u64,
    st_ms: Option<u64>,
    sd: Option<u32>,
    time_ms: Option<u64>,
}

impl Default for Clock {
    fn default() -> Self {
        Clock {
            mps: 40,
            base_ms: 5 * 60_000,
            inc_ms: 0,
            st_ms: None,
            sd: None,
            time_ms: None,
        }
    }
}

struct Session<W: Write + Send + 'static, K: Worker> {
    out: Out<W>,
    variants: VariantSet,
    variant: String,
    state: Arc<Mutex<State>>,
    worker: K,
    hash_mb: usize,
    free_memory_mb: Option<usize>,
    /// `memory` while a search runs: applied before the next one (resizing waits for it).
    pending_hash: Option<usize>,
    /// Search threads (`cores`, or `--threads` before it), kept when the variant changes.
    threads: usize,
    /// `cores` while a search runs: applied before the next one.
    pending_threads: Option<usize>,
    clock: Clock,
    start: StartChoice,
    /// The start position told to XBoard for `variant`; `new` and a repeated `variant` of the
    /// same name keep it (XBoard keeps the first `setup` it gets, and sends `variant` again at
    /// every `new`).
    start_fen: String,
    seed: u64,
    draws: u64,
    /// Play every rule (castlings XBoard cannot test, Bishop Adjustment).
    full_rules: bool,
    /// After a refused `setboard`, moves are refused until the next good position.
    bad_position: bool,
}

fn lock(s: &Mutex<State>) -> MutexGuard<'_, State> {
    match s.lock() {
        Ok(g) => g,
        Err(p) => p.into_inner(),
    }
}

/// Runs an XBoard session until `quit`, the end of input, or a closed output.
///
/// # Errors
/// When the preset variant or start position cannot be used.
pub fn run<R: BufRead, W: Write + Send + 'static, K: Worker>(
    mut input: R,
    out: W,
    cfg: XboardConfig,
    make_worker: impl FnOnce(Engine) -> K,
) -> Result<(), SessionError> {
    let hash_mb = checked_hash_mb(cfg.hash_mb, cfg.free_memory_mb)
        .map_err(|e| SessionError::Hash(e.to_string()))?;
    let (variants, rules, _, _, pos) = session_start(&cfg)?;
    let (pos, _) = legality::gui_checkable(&rules, &pos);
    let mut engine = Engine::new(Arc::clone(&rules), hash_mb);
    engine.set_threads(cfg.threads);
    let threads = engine.threads();
    let mut s = Session {
        out: Out::new(out),
        variants,
        variant: cfg.variant.to_lowercase(),
        worker: make_worker(engine),
        hash_mb,
        free_memory_mb: cfg.free_memory_mb,
        pending_hash: None,
        threads,
        pending_threads: None,
        start_fen: pos.fen(&rules),
        state: Arc::new(Mutex::new(State {
            rules,
            game: Game::new(pos),
            engine_side: Some(Colour::Black),
            generation: 0,
            post: false,
            thinking: false,
            pending_pongs: Vec::new(),
        })),
        clock: Clock::default(),
        start: cfg.start,
        seed: cfg.seed,
        draws: 0,
        full_rules: false,
        bad_position: false,
    };
    let mut buf = Vec::new();
    while let Some(line) = read_line_lossy(&mut input, &mut buf) {
        if !s.command(line.trim()) || s.out.closed() {
            break;
        }
    }
    // End of input: a move being thought about is given at once.
    s.worker.stop();
    Ok(())
}

impl<W: Write + Send + 'static, K: Worker> Session<W, K> {
    fn rules(&self) -> Arc<Rules> {
        Arc::clone(&lock(&self.state).rules)
    }

    /// Stops a search whose move is no longer wanted, and marks the game changed.
    fn abandon_search(&mut self) {
        lock(&self.state).generation += 1;
        self.worker.stop();
    }

    fn command(&mut self, line: &str) -> bool {
        let (cmd, arg) = match line.split_once(char::is_whitespace) {
            Some((c, a)) => (c, a.trim()),
            None => (line, ""),
        };
        match cmd {
            "" => {}
            "xboard" | "accepted" | "rejected" | "random" | "hard" | "easy" | "computer"
            | "name" | "rating" | "ics" | "draw" | "hint" | "bk" | "nps" | "exit" | "."
            | "otim" => {}
            "protover" => self.protover(),
            "cores" => self.cores(arg),
            "new" => self.new_game(),
            "variant" => {
                self.abandon_search();
                self.set_variant(arg);
            }
            "setboard" => {
                self.abandon_search();
                self.setboard(arg);
            }
            "usermove" => {
                self.abandon_search();
                self.usermove(arg);
            }
            "go" => {
                self.abandon_search();
                {
                    let mut st = lock(&self.state);
                    let side = st.game.current().side_to_move();
                    st.engine_side = Some(side);
                }
                self.think();
            }
            "playother" => {
                self.abandon_search();
                let mut st = lock(&self.state);
                let side = st.game.current().side_to_move();
                st.engine_side = Some(side.other());
            }
            "force" | "result" => {
                self.abandon_search();
                lock(&self.state).engine_side = None;
            }
            "white" | "black" => {
                self.abandon_search();
                let mut st = lock(&self.state);
                st.engine_side = Some(if cmd == "white" {
                    Colour::Black
                } else {
                    Colour::White
                });
            }
            "?" => self.worker.stop(),
            "undo" | "remove" => {
                self.abandon_search();
                let mut st = lock(&self.state);
                let n = if cmd == "undo" { 1 } else { 2 };
                for _ in 0..n {
                    st.game.undo();
                }
            }
            "ping" => self.ping(arg),
            "post" | "nopost" => lock(&self.state).post = cmd == "post",
            "level" => self.level(arg),
            "st" | "sd" | "time" => self.clock_command(cmd, arg),
            "memory" => self.memory(arg),
            "option" => self.option(arg),
            "d" => {
                let st = lock(&self.state);
                let text = format!(
                    "{}Fen: {}",
                    st.game.current().diagram(&st.rules),
                    st.game.current().fen(&st.rules)
                );
                drop(st);
                self.out.lines(&text);
            }
            "quit" => {
                self.abandon_search();
                return false;
            }
            _ => self
                .out
                .line(&format!("Error (unknown command): {}", one_line(line))),
        }
        true
    }

    /// `st SECONDS`, `sd DEPTH` and `time CENTISECONDS`: the limits of the engine's moves.
    fn clock_command(&mut self, cmd: &str, arg: &str) {
        match cmd {
            "st" => match arg.parse::<f64>() {
                Ok(s) if s > 0.0 && s.is_finite() => {
                    self.clock.st_ms = Some((s * 1000.0).min(1e12) as u64)
                }
                _ => self.out.line(&format!("Error (bad time): {arg}")),
            },
            "sd" => match arg.parse::<u32>() {
                Ok(d) if d > 0 => self.clock.sd = Some(d.min(200)),
                _ => self.out.line(&format!("Error (bad depth): {arg}")),
            },
            _ => match arg.parse::<u64>() {
                Ok(cs) => self.clock.time_ms = Some(cs.saturating_mul(10)),
                _ => self.out.line(&format!("Error (bad time): {arg}")),
            },
        }
    }

    fn protover(&self) {
        let names = self.variants.names().join(",");
        self.out.line(&format!(
            "feature ping=1 setboard=1 usermove=1 time=1 draw=0 sigint=0 sigterm=0 reuse=1 \
             analyze=0 colors=0 san=0 name=0 memory=1 smp=1 myname=\"{}\" variants=\"{names}\" \
             option=\"StartPosition -string random\" option=\"Full rules -check 0\" done=1",
            super::uci::ENGINE_NAME
        ));
    }

    /// `ping N`: answered at once, or, while the engine thinks about its move, right after
    /// that move (the protocol: every reply to a command before the ping comes first).
    fn ping(&mut self, arg: &str) {
        let mut st = lock(&self.state);
        if st.thinking {
            st.pending_pongs.push(format!("pong {arg}"));
        } else {
            drop(st);
            self.out.line(&format!("pong {arg}"));
        }
    }

    fn memory(&mut self, arg: &str) {
        match arg.parse::<usize>() {
            // XBoard asks for the memory of all tables together; more than we allow is
            // clamped rather than refused.
            Ok(mb) => {
                let mb = crate::hash_size::clamp_hash_mb(mb, self.free_memory_mb);
                if self.worker.is_running() {
                    self.pending_hash = Some(mb);
                } else {
                    self.set_hash(mb);
                }
            }
            Err(_) => self.out.line(&format!("Error (bad memory size): {arg}")),
        }
    }

    /// `cores N`: the most threads the engine may search with (XBoard sends it when the
    /// engine announced `smp=1`). More than we allow is clamped, as `memory` is.
    fn cores(&mut self, arg: &str) {
        match arg.parse::<usize>() {
            Ok(n) if n >= 1 => {
                if self.worker.is_running() {
                    self.pending_threads = Some(n);
                } else {
                    self.set_threads(n);
                }
            }
            _ => self
                .out
                .line(&format!("Error (bad number of cores): {arg}")),
        }
    }

    fn set_threads(&mut self, n: usize) {
        let engine = self.worker.engine();
        engine.set_threads(n);
        self.threads = engine.threads();
    }

    fn set_hash(&mut self, mb: usize) {
        if mb != self.hash_mb {
            self.hash_mb = mb;
            self.worker.engine().set_hash_mb(mb);
        }
    }

    fn new_game(&mut self) {
        self.abandon_search();
        self.clock.sd = None;
        self.clock.st_ms = None;
        self.bad_position = false;
        let rules = self.rules();
        let pos = Position::from_fen(&rules, &self.start_fen);
        let mut st = lock(&self.state);
        if let Ok(p) = pos {
            st.game = Game::new(p);
        }
        st.engine_side = Some(Colour::Black);
    }

    fn option(&mut self, arg: &str) {
        match arg.split_once('=') {
            Some((name, value)) if name.trim() == "StartPosition" => {
                self.start = StartChoice::parse(value);
                let name = self.variant.clone();
                self.abandon_search();
                self.draw_start(&name);
            }
            Some((name, value)) if name.trim() == "Full rules" => {
                self.full_rules = value.trim() == "1";
                let name = self.variant.clone();
                self.abandon_search();
                self.draw_start(&name);
            }
            _ => self.out.line(&format!("Error (unknown option): {arg}")),
        }
    }

    /// `variant NAME`: the same variant again keeps its start position (see `start_fen`).
    fn set_variant(&mut self, name: &str) {
        let same = name.eq_ignore_ascii_case(&self.variant) && self.draws > 0;
        if !same {
            self.draw_start(name);
            return;
        }
        let rules = self.rules();
        if let Ok(pos) = Position::from_fen(&rules, &self.start_fen) {
            let lines = setup_lines(&rules, &fen_to_xboard(&rules, &pos));
            lock(&self.state).game = Game::new(pos);
            self.out.lines(&lines.join("\n"));
        }
    }

    /// Draws a start position for `name` and tells XBoard (`setup`, `piece`).
    fn draw_start(&mut self, name: &str) {
        let rules = match self.variants.load(name) {
            Ok(r) => Arc::new(r),
            Err(_) => {
                self.out.line(&format!("Error (unknown variant): {name}"));
                return;
            }
        };
        self.draws += 1;
        let seed = self.seed.wrapping_add(self.draws);
        let chosen = choose_start(&rules, &self.start, seed)
            .or_else(|_| choose_start(&rules, &StartChoice::Random, seed))
            .map_err(|e| e.to_string())
            .and_then(|(_, fen)| Position::from_fen(&rules, &fen).map_err(|e| e.to_string()));
        let pos = match chosen {
            Ok(p) if self.full_rules => p,
            Ok(p) => legality::gui_checkable(&rules, &p).0,
            Err(e) => {
                self.out
                    .line(&format!("Error (bad start position): {}", one_line(&e)));
                return;
            }
        };
        let mut engine = Engine::new(Arc::clone(&rules), self.hash_mb);
        engine.set_threads(self.threads);
        self.worker.replace_engine(engine);
        self.variant = name.to_lowercase();
        self.start_fen = pos.fen(&rules);
        let lines = setup_lines(&rules, &fen_to_xboard(&rules, &pos));
        {
            let mut st = lock(&self.state);
            st.rules = rules;
            st.game = Game::new(pos);
        }
        self.out.lines(&lines.join("\n"));
    }

    fn setboard(&mut self, fen: &str) {
        let rules = self.rules();
        let ours = fen_from_xboard(&rules, fen);
        let got = match lenient_position(&rules, &ours) {
            Ok(g) => g,
            Err(e) => {
                self.bad_position = true;
                self.out
                    .line(&format!("tellusererror Illegal position: {e}"));
                return;
            }
        };
        for w in &got.warnings {
            self.out.line(&format!("# setboard: {w}"));
        }
        let mut p = got.position;
        if let Ok(start) = Position::from_fen(&rules, &self.start_fen) {
            // XBoard echoes the start FEN without our seventh field: keep the start's rights.
            if start.fen_six(&rules) == p.fen_six(&rules) {
                p = start;
            }
        }
        if !self.full_rules {
            p = legality::gui_checkable(&rules, &p).0;
        }
        self.bad_position = false;
        lock(&self.state).game = Game::new(p);
    }

    fn usermove(&mut self, text: &str) {
        if self.bad_position {
            self.out
                .line(&format!("Illegal move (no valid position): {text}"));
            return;
        }
        let mut st = lock(&self.state);
        let rules = Arc::clone(&st.rules);
        let pos = st.game.current().clone();
        let m = match move_from_xboard(&rules, &pos, text) {
            Ok(m) => m,
            Err(_) => {
                drop(st);
                self.out.line(&format!("Illegal move: {text}"));
                return;
            }
        };
        if let Err(e) = st.game.play(&rules, m) {
            drop(st);
            self.out.line(&format!(
                "Illegal move ({}): {text}",
                one_line(&e.to_string())
            ));
            return;
        }
        let over = st.game.outcome(&rules);
        let engine_to_move = st.engine_side == Some(st.game.current().side_to_move());
        drop(st);
        if let Some(o) = over {
            self.out
                .line(&format!("{} {{{}}}", o.result(), o.describe(&rules)));
        } else if engine_to_move {
            self.think();
        }
    }

    fn level(&mut self, arg: &str) {
        let parts: Vec<&str> = arg.split_whitespace().collect();
        let parsed = (|| -> Option<Clock> {
            let mps = parts.first()?.parse::<u32>().ok()?;
            let base = parts.get(1)?;
            let base_ms = match base.split_once(':') {
                Some((m, s)) => m.parse::<u64>().ok()? * 60_000 + s.parse::<u64>().ok()? * 1000,
                None => (base.parse::<f64>().ok()? * 60_000.0) as u64,
            };
            let inc_ms = (parts.get(2)?.parse::<f64>().ok()? * 1000.0) as u64;
            Some(Clock {
                mps,
                base_ms,
                inc_ms,
                st_ms: None,
                sd: None,
                time_ms: None,
            })
        })();
        match parsed {
            Some(c) => self.clock = c,
            None => self.out.line(&format!("Error (bad level): {arg}")),
        }
    }

    /// The search limits the clock allows for the next move.
    fn limits(&self, fullmove: u32) -> Limits {
        let c = &self.clock;
        let movetime = match c.st_ms {
            Some(ms) => Some(ms),
            None if c.sd.is_some() && c.time_ms.is_none() => None,
            None => {
                let left = c.time_ms.unwrap_or(c.base_ms);
                let to_go = (c.mps > 0).then(|| c.mps - (fullmove.max(1) - 1) % c.mps);
                Some(think_time(left, c.inc_ms, to_go))
            }
        };
        Limits {
            depth: c.sd,
            movetime_ms: movetime,
            nodes: None,
            ..Limits::default()
        }
    }

    /// Starts thinking about the engine's move in the current position; in a finished game
    /// says the result instead.
    fn think(&mut self) {
        if let Some(mb) = self.pending_hash.take() {
            self.set_hash(mb);
        }
        if let Some(n) = self.pending_threads.take() {
            self.set_threads(n);
        }
        let (history, generation, rules, post, fullmove) = {
            let mut st = lock(&self.state);
            if let Some(o) = st.game.outcome(&st.rules) {
                let text = format!("{} {{{}}}", o.result(), o.describe(&st.rules));
                drop(st);
                self.out.line(&text);
                return;
            }
            st.thinking = true;
            (
                st.game.positions().to_vec(),
                st.generation,
                Arc::clone(&st.rules),
                st.post,
                st.game.current().fullmove_number(),
            )
        };
        let limits = self.limits(fullmove);
        let out = self.out.clone();
        let state = Arc::clone(&self.state);
        self.worker.start(Box::new(move |engine, stop| {
            let mut on_info = |info: &SearchInfo| {
                if post {
                    out.line(&thinking_line(&rules, info));
                }
            };
            let best = engine.search(&history, &limits, stop, &mut on_info);
            let mut st = lock(&state);
            st.thinking = false;
            let pongs = std::mem::take(&mut st.pending_pongs);
            if st.generation == generation {
                if let Some(m) = best {
                    play_engine_move(&mut st, &out, m);
                }
            }
            for p in pongs {
                out.line(&p);
            }
        }));
    }
}

/// Plays the engine's move in the shared game and sends it (and the result if it ends the
/// game), all under the state's lock so a `ping` cannot overtake it.
fn play_engine_move<W: Write>(st: &mut State, out: &Out<W>, m: Move) {
    let rules = Arc::clone(&st.rules);
    if st.game.play(&rules, m).is_err() {
        return;
    }
    st.generation += 1;
    out.line(&format!("move {}", move_to_xboard(&rules, m)));
    if let Some(o) = st.game.outcome(&rules) {
        out.line(&format!("{} {{{}}}", o.result(), o.describe(&rules)));
    }
}

/// `depth score time nodes pv` as XBoard's `post` output wants it (time in centiseconds).
fn thinking_line(rules: &Rules, info: &SearchInfo) -> String {
    let score = match info.mate {
        Some(m) if m > 0 => 100_000 + m,
        Some(m) => -100_000 + m,
        None => info.score_cp,
    };
    let pv: Vec<String> = info.pv.iter().map(|m| move_to_xboard(rules, *m)).collect();
    format!(
        "{} {} {} {} {}",
        info.depth,
        score,
        info.time_ms / 10,
        info.nodes,
        pv.join(" ")
    )
}
