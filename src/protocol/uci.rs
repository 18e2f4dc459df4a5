//! The UCI protocol, with the extensions GUIs for Fairy-Stockfish use for variants
//! (`UCI_Variant`, `VariantPath`, the `info string variant ...` line).
//!
//! Castling is always written king-takes-rook (Fischer-Random style) because in the random
//! variants the king's destination can be a square a plain king move also reaches; the
//! king-destination form and `O-O` are still read.

use super::jobs::{perft_divide, search_among};
use super::{
    checked_hash_mb, choose_start, lenient_position, one_line, parse_coord, read_line_lossy,
    session_start, think_time, Out, SessionError, StartChoice, VariantSet, Worker,
};
use crate::engine::{Clock, Engine, Limits, SearchInfo};
use crate::piece::Colour;
use crate::position::{Move, Position};
use crate::rules::Rules;
use std::io::{BufRead, Write};
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Duration;

/// The settings shared with the other protocol (see `super::ProtocolConfig`).
pub type UciConfig = super::ProtocolConfig;

/// The name and version the engine gives in `id name` (and XBoard's `myname`).
pub const ENGINE_NAME: &str = concat!("modern-chess ", env!("CARGO_PKG_VERSION"));

struct Session<W: Write + Send + 'static, K: Worker> {
    out: Out<W>,
    variants: VariantSet,
    variant: String,
    rules: Arc<Rules>,
    start: StartChoice,
    start_id: u64,
    start_fen: String,
    history: Vec<Position>,
    worker: K,
    hash_mb: usize,
    /// `Threads`, kept when the variant changes.
    threads: usize,
    /// `Skill Level`, kept when the variant changes.
    skill: crate::engine::SkillLevel,
    /// `Contempt`, kept when the variant changes.
    contempt: i32,
    free_memory_mb: Option<usize>,
    seed: u64,
    draws: u64,
    /// Why the last `position` command could not be followed: until the next good one, `go`
    /// answers `bestmove 0000` rather than a move from a position the GUI did not send.
    bad_position: Option<String>,
    /// Think time of a `go ponder` search, applied from `ponderhit` on.
    ponder_ms: Option<u64>,
    /// Another engine's evaluation for every variant the session plays (`--eval-with`).
    eval_with: Option<super::EvalSource>,
}

/// Runs a UCI session until `quit`, the end of input, or a closed output.
///
/// `make_worker` gets the engine of the session's first variant and returns what runs its
/// searches (a thread in the binary, [`super::InlineWorker`] in tests).
///
/// # Errors
/// When the preset variant or start position cannot be used (nothing has been written then).
pub fn run<R: BufRead, W: Write + Send + 'static, K: Worker>(
    mut input: R,
    out: W,
    cfg: UciConfig,
    make_worker: impl FnOnce(Engine) -> K,
) -> Result<(), SessionError> {
    let hash_mb = checked_hash_mb(cfg.hash_mb, cfg.free_memory_mb)
        .map_err(|e| SessionError::Hash(e.to_string()))?;
    let (variants, rules, start_id, start_fen, pos) = session_start(&cfg)?;
    let mut engine =
        new_engine(&rules, hash_mb, cfg.eval_with.as_ref()).map_err(SessionError::EvalWith)?;
    engine.set_threads(cfg.threads);
    let threads = engine.threads();
    let mut s = Session {
        out: Out::new(out),
        variants,
        variant: cfg.variant.to_lowercase(),
        worker: make_worker(engine),
        hash_mb,
        threads,
        skill: crate::engine::SkillLevel::MAX,
        contempt: crate::engine::DEFAULT_CONTEMPT,
        free_memory_mb: cfg.free_memory_mb,
        rules,
        start: cfg.start,
        start_id,
        start_fen,
        history: vec![pos],
        seed: cfg.seed,
        draws: 0,
        bad_position: None,
        ponder_ms: None,
        eval_with: cfg.eval_with,
    };
    let mut buf = Vec::new();
    while let Some(line) = read_line_lossy(&mut input, &mut buf) {
        if !s.command(line.trim()) || s.out.closed() {
            break;
        }
    }
    // `quit`, or the end of input: nobody waits for the search any more. A search still
    // running is stopped; it answers with the best move it has.
    s.worker.stop();
    Ok(())
}

/// An engine for `rules`, evaluating with `eval_with`'s engine when there is one.
fn new_engine(
    rules: &Arc<Rules>,
    hash_mb: usize,
    eval_with: Option<&super::EvalSource>,
) -> Result<Engine, String> {
    let mut engine = Engine::new(Arc::clone(rules), hash_mb);
    if let Some(source) = eval_with {
        engine.set_external_eval(Some((source.0)(rules)?));
    }
    Ok(engine)
}

impl<W: Write + Send + 'static, K: Worker> Session<W, K> {
    /// Handles one line; false means quit.
    fn command(&mut self, line: &str) -> bool {
        let mut words = line.split_whitespace();
        let Some(cmd) = words.next() else {
            return true;
        };
        let rest: Vec<&str> = words.collect();
        match cmd {
            "uci" => self.uci(),
            "isready" => self.out.line("readyok"),
            "debug" | "register" => {}
            "setoption" => self.setoption(&rest),
            "ucinewgame" => {
                self.worker.stop();
                self.worker.engine().clear();
                self.history = vec![self.start_position()];
                self.bad_position = None;
            }
            "position" => {
                self.worker.stop();
                self.position(&rest);
            }
            "go" => self.go(&rest),
            "stop" => self.worker.stop(),
            "ponderhit" => match self.ponder_ms.take() {
                Some(ms) => self.worker.stop_after(ms),
                None => self.worker.stop(),
            },
            "d" => self.display(),
            "eval" => self.eval(),
            "quit" => return false,
            _ => self
                .out
                .line(&format!("info string unknown command: {}", one_line(line))),
        }
        true
    }

    fn uci(&self) {
        let names = self.variants.names();
        let combo: String = names.iter().map(|n| format!(" var {n}")).collect();
        self.out.lines(&format!(
            "id name {ENGINE_NAME}\n\
             id author the modern-chess authors\n\
             option name Hash type spin default 16 min 1 max {}\n\
             option name Clear Hash type button\n\
             option name Ponder type check default false\n\
             option name Threads type spin default {} min 1 max {}\n\
             option name Skill Level type spin default 20 min 0 max 20\n\
             option name Contempt type spin default {} min -{} max {}\n\
             option name UCI_Chess960 type check default true\n\
             option name UCI_Variant type combo default {}{combo}\n\
             option name VariantPath type string default <empty>\n\
             option name StartPosition type string default random\n\
             option name Seed type spin default 0 min 0 max 2147483647\n\
             uciok",
            super::MAX_HASH_MB,
            self.threads,
            crate::engine::MAX_THREADS,
            crate::engine::DEFAULT_CONTEMPT,
            crate::engine::MAX_CONTEMPT,
            crate::engine::MAX_CONTEMPT,
            self.variant
        ));
    }

    fn info(&self, text: &str) {
        self.out.line(&format!("info string {}", one_line(text)));
    }

    fn setoption(&mut self, args: &[&str]) {
        // setoption name <words...> [value <words...>]
        let name_at = args.iter().position(|w| w.eq_ignore_ascii_case("name"));
        let value_at = args.iter().position(|w| w.eq_ignore_ascii_case("value"));
        let Some(n) = name_at else {
            self.info("setoption: expected `setoption name NAME value VALUE`");
            return;
        };
        let name_end = value_at.unwrap_or(args.len());
        let name = args[n + 1..name_end.max(n + 1)].join(" ");
        let value = value_at
            .map(|v| args[v + 1..].join(" "))
            .unwrap_or_default();
        self.worker.stop();
        match name.to_ascii_lowercase().as_str() {
            "hash" => match value
                .parse::<usize>()
                .map_err(|e| e.to_string())
                .and_then(|mb| checked_hash_mb(mb, self.free_memory_mb).map_err(|e| e.to_string()))
            {
                Ok(mb) => {
                    self.hash_mb = mb;
                    self.worker.engine().set_hash_mb(mb);
                }
                Err(e) => self.info(&format!(
                    "Hash: `{value}` refused: {e}; the table keeps {} MB",
                    self.hash_mb
                )),
            },
            "clear hash" => self.worker.engine().clear(),
            "threads" => match value.parse::<usize>() {
                Ok(n) if (1..=crate::engine::MAX_THREADS).contains(&n) => {
                    self.threads = n;
                    self.worker.engine().set_threads(n);
                }
                _ => self.info(&format!(
                    "Threads: `{value}` is not a number of threads (1..64)"
                )),
            },
            "skill level" => match value.parse::<u32>() {
                Ok(n) if n <= 20 => {
                    self.skill = crate::engine::SkillLevel::new(n);
                    self.worker.engine().set_skill(self.skill);
                }
                _ => self.info(&format!("Skill Level: `{value}` is not a level (0..20)")),
            },
            "contempt" => match crate::engine::parse_contempt(&value) {
                Ok(c) => {
                    self.contempt = c;
                    self.worker.engine().set_contempt(c);
                }
                Err(e) => self.info(&format!("Contempt: {e}")),
            },
            "uci_chess960" | "uci_analysemode" | "ponder" | "multipv" => {}
            "uci_variant" => self.set_variant(&value),
            "variantpath" => self.variant_path(&value),
            "startposition" => {
                self.start = StartChoice::parse(&value);
                self.new_start();
            }
            "seed" => match value.parse::<u64>() {
                Ok(s) => self.seed = s,
                Err(_) => self.info(&format!("Seed: `{value}` is not a number")),
            },
            _ => self.info(&format!("unknown option `{name}`")),
        }
    }

    fn variant_path(&mut self, value: &str) {
        if value.is_empty() || value == "<empty>" {
            return;
        }
        match self.variants.add_path(std::path::Path::new(value)) {
            Ok((added, problems)) => {
                self.info(&format!(
                    "VariantPath: loaded {} variant(s): {}",
                    added.len(),
                    added.join(" ")
                ));
                for p in problems {
                    self.info(&format!("VariantPath: {p}"));
                }
            }
            Err(e) => self.info(&format!("VariantPath: {e}")),
        }
    }

    fn set_variant(&mut self, name: &str) {
        match self.variants.load(name) {
            Ok(rules) => {
                let rules = Arc::new(rules);
                let engine = match new_engine(&rules, self.hash_mb, self.eval_with.as_ref()) {
                    Ok(e) => e,
                    Err(e) => return self.info(&format!("UCI_Variant: --eval-with: {e}")),
                };
                self.worker.replace_engine(engine);
                self.worker.engine().set_threads(self.threads);
                self.worker.engine().set_skill(self.skill);
                self.worker.engine().set_contempt(self.contempt);
                self.rules = rules;
                self.variant = name.to_lowercase();
                self.new_start();
            }
            Err(e) => self.info(&format!("UCI_Variant: {e}")),
        }
    }

    /// Draws the start position the options name, resets the game to it and tells the GUI
    /// (a random start is drawn here, once, so every later `position startpos` agrees with
    /// the FEN the GUI was told).
    fn new_start(&mut self) {
        self.draws += 1;
        let seed = self.seed.wrapping_add(self.draws - 1);
        let chosen = choose_start(&self.rules, &self.start, seed).or_else(|e| {
            self.info(&format!("StartPosition: {e}; using a random start"));
            choose_start(&self.rules, &StartChoice::Random, seed)
        });
        match chosen.map_err(|e| e.to_string()).and_then(|(id, fen)| {
            Position::from_fen(&self.rules, &fen)
                .map(|p| (id, fen, p))
                .map_err(|e| e.to_string())
        }) {
            Ok((id, fen, pos)) => {
                self.start_id = id;
                self.start_fen = fen;
                let six = pos.fen_six(&self.rules);
                self.history = vec![pos];
                self.bad_position = None;
                let r = &self.rules;
                self.out.line(&format!(
                    "info string variant {} files {} ranks {} pocket 0 template fairy startpos {}",
                    self.variant, r.geo.files, r.geo.ranks, six
                ));
            }
            Err(e) => self.info(&format!("start position: {e}")),
        }
    }

    fn start_position(&self) -> Position {
        Position::from_fen(&self.rules, &self.start_fen).unwrap_or_else(|_| self.history[0].clone())
    }

    fn position(&mut self, args: &[&str]) {
        match self.read_position(args) {
            Ok(history) => {
                self.history = history;
                self.bad_position = None;
            }
            Err(e) => {
                self.info(&format!("position: {e}"));
                self.bad_position = Some(e);
            }
        }
    }

    /// The game the `position` command describes, every move checked.
    fn read_position(&self, args: &[&str]) -> Result<Vec<Position>, String> {
        let moves_at = args.iter().position(|w| *w == "moves");
        let (setup, moves) = match moves_at {
            Some(i) => (&args[..i], &args[i + 1..]),
            None => (args, &args[args.len()..]),
        };
        let pos = match setup.first() {
            Some(&"startpos") => self.start_position(),
            Some(&"fen") => {
                let got = lenient_position(&self.rules, &setup[1..].join(" "))
                    .map_err(|e| e.to_string())?;
                for w in &got.warnings {
                    self.info(&format!("position: {w}"));
                }
                got.position
            }
            _ => return Err("expected `position startpos|fen FEN [moves ...]`".to_string()),
        };
        let mut history = Vec::with_capacity(moves.len() + 1);
        history.push(pos);
        for mv in moves {
            let cur = &history[history.len() - 1];
            let m = parse_coord(&self.rules, cur, mv).map_err(|e| {
                format!(
                    "move {} `{mv}`: {e} (position {}); no position set",
                    history.len(),
                    cur.fen(&self.rules)
                )
            })?;
            let next = cur.play_unchecked(&self.rules, m);
            history.push(next);
        }
        Ok(history)
    }

    fn go(&mut self, args: &[&str]) {
        self.worker.stop();
        if let Some(e) = &self.bad_position {
            self.info(&format!("no position to search: {e}"));
            self.out.line("bestmove 0000");
            return;
        }
        let go = match GoArgs::parse(&self.rules, self.current(), args) {
            Ok(g) => g,
            Err(e) => {
                self.info(&format!("go: {e}"));
                self.out.line("bestmove 0000");
                return;
            }
        };
        for w in &go.warnings {
            self.info(&format!("go: {w}"));
        }
        if let Some(d) = go.perft {
            self.perft(d);
            return;
        }
        let us = self.current().side_to_move();
        let limits = go.limits(us);
        // Wait for `stop`/`ponderhit` before answering: UCI's `infinite` and `ponder`.
        let hold = go.infinite || go.ponder;
        self.ponder_ms = if go.ponder { go.clock_ms(us) } else { None };
        let search_limits = if hold {
            Limits {
                depth: limits.depth,
                nodes: limits.nodes,
                movetime_ms: None,
                ..Limits::default()
            }
        } else {
            limits
        };
        let search_limits = if go.infinite {
            Limits::default()
        } else {
            search_limits
        };
        let out = self.out.clone();
        let rules = Arc::clone(&self.rules);
        let history = self.history.clone();
        let only = go.searchmoves;
        self.worker.start(Box::new(move |engine, stop| {
            let mut on_info = |info: &SearchInfo| out.line(&info_line(&rules, info));
            let best = search_among(
                &rules,
                engine,
                &history,
                &search_limits,
                &only,
                stop,
                &mut on_info,
            );
            while hold && !stop.load(Ordering::SeqCst) {
                std::thread::sleep(Duration::from_millis(2));
            }
            match best {
                Some(m) => out.line(&format!("bestmove {}", m.uci(&rules))),
                None => out.line("bestmove (none)"),
            }
        }));
    }

    fn current(&self) -> &Position {
        &self.history[self.history.len() - 1]
    }

    /// `go perft N` on the worker, so `stop`, `isready` and `quit` are still read.
    fn perft(&mut self, depth: u32) {
        let pos = self.current().clone();
        let rules = Arc::clone(&self.rules);
        let out = self.out.clone();
        self.worker.start(Box::new(move |_, stop| {
            let t = std::time::Instant::now();
            let Some(split) = perft_divide(&rules, &pos, depth, stop) else {
                out.line("info string perft stopped");
                return;
            };
            let mut text = String::new();
            let mut total = 0;
            for (m, n) in split {
                text.push_str(&format!("{}: {n}\n", m.uci(&rules)));
                total += n;
            }
            if depth == 0 {
                total = 1;
            }
            let ms = t.elapsed().as_millis();
            text.push_str(&format!(
                "\nNodes searched: {total}\ninfo string perft time {ms} ms"
            ));
            out.lines(&text);
        }));
    }

    /// `eval`: the current position's static evaluation, term group by term group. Not
    /// while a search runs: the engine is the search's until it ends, and waiting for an
    /// infinite search would stop the session from reading the `stop` that ends it.
    fn eval(&mut self) {
        if self.worker.is_running() {
            self.info("eval: a search is running; send `stop` first");
            return;
        }
        let pos = self.history[self.history.len() - 1].clone();
        let text = self.worker.engine().breakdown(&pos).to_string();
        self.out.lines(&text);
    }

    fn display(&self) {
        let r = &self.rules;
        let pos = &self.history[self.history.len() - 1];
        let mut text = pos.diagram(r);
        text.push_str(&format!(
            "\nVariant: {} ({})\nStart id: {}\nFen: {}\nSide to move: {}\nLegal moves: {}\n",
            self.variant,
            r.variant.name,
            self.start_id,
            pos.fen(r),
            if pos.side_to_move() == crate::piece::Colour::White {
                "white"
            } else {
                "black"
            },
            pos.legal_moves(r).len()
        ));
        self.out.lines(&text);
    }
}

/// `info depth 5 seldepth 9 score cp 31 nodes 1234 nps 5678 time 217 pv e2e4 e7e5`.
pub fn info_line(rules: &Rules, info: &SearchInfo) -> String {
    let score = match info.mate {
        Some(m) => format!("mate {m}"),
        None => format!("cp {}", info.score_cp),
    };
    let nps = info.nodes * 1000 / info.time_ms.max(1);
    let pv: Vec<String> = info.pv.iter().map(|m| m.uci(rules)).collect();
    let mut s = format!(
        "info depth {} seldepth {} score {score} nodes {} nps {nps} time {}",
        info.depth, info.sel_depth, info.nodes, info.time_ms
    );
    if !pv.is_empty() {
        s.push_str(" pv ");
        s.push_str(&pv.join(" "));
    }
    s
}

/// The arguments of one `go` command.
#[derive(Debug, Default)]
struct GoArgs {
    depth: Option<u32>,
    movetime: Option<u64>,
    nodes: Option<u64>,
    /// Remaining time and increment per colour, moves to the next time control.
    time: [Option<u64>; 2],
    inc: [u64; 2],
    movestogo: Option<u32>,
    infinite: bool,
    ponder: bool,
    searchmoves: Vec<Move>,
    perft: Option<u32>,
    warnings: Vec<String>,
}

impl GoArgs {
    /// Reads `go` arguments. Unknown words and numbers that are not are warnings; a
    /// `searchmoves` move that is not legal here is an error (the GUI and we disagree about
    /// the position).
    fn parse(rules: &Rules, pos: &Position, args: &[&str]) -> Result<GoArgs, String> {
        let mut g = GoArgs::default();
        let mut i = 0;
        let num = |i: &mut usize, what: &str, g: &mut GoArgs| -> Option<u64> {
            *i += 1;
            let v = args.get(*i).and_then(|s| s.parse::<i64>().ok());
            if v.is_none() {
                g.warnings.push(format!("`{what}` needs a number"));
            }
            v.map(|v| v.max(0) as u64)
        };
        while i < args.len() {
            match args[i] {
                "perft" => match num(&mut i, "perft", &mut g) {
                    Some(d) if d <= 20 => g.perft = Some(d as u32),
                    _ => return Err("perft: expected a depth 0..20".into()),
                },
                "depth" => g.depth = num(&mut i, "depth", &mut g).map(|d| d.clamp(1, 200) as u32),
                "mate" => {
                    // A mate in N moves is found within 2N plies.
                    g.depth = num(&mut i, "mate", &mut g).map(|n| (2 * n.clamp(1, 100)) as u32)
                }
                "movetime" => g.movetime = num(&mut i, "movetime", &mut g),
                "nodes" => g.nodes = num(&mut i, "nodes", &mut g),
                "wtime" => g.time[0] = num(&mut i, "wtime", &mut g),
                "btime" => g.time[1] = num(&mut i, "btime", &mut g),
                "winc" => g.inc[0] = num(&mut i, "winc", &mut g).unwrap_or(0),
                "binc" => g.inc[1] = num(&mut i, "binc", &mut g).unwrap_or(0),
                "movestogo" => g.movestogo = num(&mut i, "movestogo", &mut g).map(|n| n as u32),
                "infinite" => g.infinite = true,
                "ponder" => g.ponder = true,
                "searchmoves" => {
                    while let Some(t) = args.get(i + 1).filter(|t| !is_go_keyword(t)) {
                        let m =
                            parse_coord(rules, pos, t).map_err(|e| format!("searchmoves: {e}"))?;
                        if !g.searchmoves.contains(&m) {
                            g.searchmoves.push(m);
                        }
                        i += 1;
                    }
                }
                other => g
                    .warnings
                    .push(format!("unknown argument `{other}` ignored")),
            }
            i += 1;
        }
        Ok(g)
    }

    /// Our clock's think time. A clock given only for the other side (a GUI fault) is taken
    /// for ours too, so the search still ends.
    fn clock_ms(&self, us: Colour) -> Option<u64> {
        let (left, inc) = match self.time[us] {
            Some(t) => (t, self.inc[us]),
            None => (self.time[us.other()]?, self.inc[us.other()]),
        };
        Some(think_time(left, inc, self.movestogo))
    }

    /// The search limits. The clock goes to the engine as it is (its time manager divides
    /// it, stretching or cutting a move by how stable the best move is); a clock given only
    /// for the other side is taken for ours too.
    fn limits(&self, us: Colour) -> Limits {
        let mut time = self.time;
        let mut inc = self.inc;
        if time[us].is_none() {
            time[us] = time[us.other()];
            inc[us] = inc[us.other()];
        }
        let clock = time[us].is_some().then_some(Clock {
            wtime_ms: time[Colour::White],
            btime_ms: time[Colour::Black],
            winc_ms: inc[Colour::White],
            binc_ms: inc[Colour::Black],
            moves_to_go: self.movestogo,
        });
        Limits {
            depth: self.depth,
            movetime_ms: self.movetime,
            nodes: self.nodes,
            clock,
        }
    }
}

fn is_go_keyword(w: &str) -> bool {
    matches!(
        w,
        "perft"
            | "depth"
            | "mate"
            | "movetime"
            | "nodes"
            | "wtime"
            | "btime"
            | "winc"
            | "binc"
            | "movestogo"
            | "infinite"
            | "ponder"
            | "searchmoves"
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Cursor;
    use std::sync::Mutex;

    /// A `Write` the test can read back after the session ends.
    #[derive(Clone, Default)]
    struct Shared(Arc<Mutex<Vec<u8>>>);
    impl Write for Shared {
        fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(b);
            Ok(b.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    fn session(script: &str, cfg: UciConfig) -> String {
        let out = Shared::default();
        run(
            Cursor::new(script.to_string()),
            out.clone(),
            cfg,
            super::super::InlineWorker::new,
        )
        .unwrap();
        let bytes = out.0.lock().unwrap().clone();
        String::from_utf8(bytes).unwrap()
    }

    #[test]
    fn threads_from_the_command_line_are_the_options_default() {
        let cfg = UciConfig {
            threads: 3,
            ..UciConfig::default()
        };
        let text = session("uci\n", cfg);
        assert!(
            text.contains("option name Threads type spin default 3 min 1 max 64"),
            "{text}"
        );
        let text = session(
            "uci\nsetoption name Threads value 0\n",
            UciConfig::default(),
        );
        assert!(
            text.contains("Threads: `0` is not a number of threads"),
            "{text}"
        );
    }

    #[test]
    fn handshake_lists_variants_and_options() {
        let text = session("uci\nisready\n", UciConfig::default());
        let lines: Vec<&str> = text.lines().collect();
        assert!(lines[0].starts_with("id name modern-chess"));
        let combo = lines
            .iter()
            .find(|l| l.starts_with("option name UCI_Variant type combo"))
            .unwrap();
        for v in ["mrc", "mrc64", "merc", "icrc", "pmrc", "chess", "chess960"] {
            assert!(combo.contains(&format!(" var {v}")), "{combo}");
        }
        assert!(text.contains("option name VariantPath type string"));
        let ok = lines.iter().position(|l| *l == "uciok").unwrap();
        assert_eq!(lines[ok + 1], "readyok");
    }

    #[test]
    fn variant_change_announces_board_and_start() {
        let text = session(
            "setoption name StartPosition value RNBMKQBNR\nsetoption name UCI_Variant value mrc\n",
            UciConfig::default(),
        );
        let last = text.lines().last().unwrap();
        assert_eq!(
            last,
            "info string variant mrc files 9 ranks 9 pocket 0 template fairy startpos \
             rnbqkmbnr/ppppppppp/9/9/9/9/9/PPPPPPPPP/RNBMKQBNR w AIai - 0 1"
        );
        let text = session(
            "setoption name UCI_Variant value merc\n",
            UciConfig::default(),
        );
        assert!(
            text.contains("variant merc files 10 ranks 10 pocket 0"),
            "{text}"
        );
        let text = session(
            "setoption name UCI_Variant value nosuch\n",
            UciConfig::default(),
        );
        assert!(text.contains("unknown variant `nosuch`"), "{text}");
    }

    #[test]
    fn position_moves_and_display() {
        let cfg = UciConfig {
            variant: "chess".into(),
            ..UciConfig::default()
        };
        let text = session("position startpos moves e2e4 e7e5 g1f3\nd\n", cfg.clone());
        assert!(
            text.contains("Fen: rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b AHah - 1 2"),
            "{text}"
        );
        let text = session("position startpos moves e2e5\nd\n", cfg.clone());
        assert!(text.contains("info string position: move 1"), "{text}");
        assert!(text.contains("Fen: rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w AHah - 0 1"));
        let text = session("position fen 8/8/8 w - - 0 1\nbogus\n", cfg);
        assert!(text.contains("info string position: bad FEN"), "{text}");
        assert!(text.contains("info string unknown command: bogus"));
    }

    #[test]
    fn go_perft_counts_the_start_position() {
        // 20 and 400: the chess start position's perft(1) and perft(2), known values.
        let cfg = UciConfig {
            variant: "chess".into(),
            ..UciConfig::default()
        };
        let text = session("position startpos\ngo perft 2\n", cfg);
        assert!(text.contains("Nodes searched: 400"), "{text}");
        assert!(text.contains("e2e4: 20"), "{text}");
        assert_eq!(text.lines().filter(|l| l.contains(": 20")).count(), 20);
    }

    #[test]
    fn fischer_random_castling_in_position_command() {
        let cfg = UciConfig {
            variant: "chess".into(),
            ..UciConfig::default()
        };
        let fen = "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1";
        let text = session(&format!("position fen {fen} moves e1h1 e8a8\nd\n"), cfg);
        assert!(
            text.contains("Fen: 2kr3r/pppppppp/8/8/8/8/PPPPPPPP/R4RK1 w - - 2 2"),
            "{text}"
        );
    }

    #[test]
    fn go_hands_the_clock_to_the_engine() {
        let rules = crate::catalog::load_rules("chess").unwrap();
        let fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
        let pos = Position::from_fen(&rules, fen).unwrap();
        let args = "wtime 60000 btime 50000 winc 1000 binc 2000 movestogo 20";
        let args: Vec<&str> = args.split(' ').collect();
        let limits = GoArgs::parse(&rules, &pos, &args)
            .unwrap()
            .limits(Colour::Black);
        let clock = Clock {
            wtime_ms: Some(60_000),
            btime_ms: Some(50_000),
            winc_ms: 1_000,
            binc_ms: 2_000,
            moves_to_go: Some(20),
        };
        assert_eq!(limits.clock, Some(clock));
        assert_eq!(
            limits.movetime_ms, None,
            "the clock is not turned into a move time"
        );
        // Only the other side's clock (a GUI fault): taken for ours, so the search ends.
        let limits = GoArgs::parse(&rules, &pos, &["wtime", "5000", "winc", "100"])
            .unwrap()
            .limits(Colour::Black);
        let c = limits.clock.unwrap();
        assert_eq!((c.btime_ms, c.binc_ms), (Some(5000), 100));
        // No clock at all: none.
        let limits = GoArgs::parse(&rules, &pos, &["depth", "3"]).unwrap();
        assert_eq!(limits.limits(Colour::White).clock, None);
    }

    #[test]
    fn go_with_a_clock_spends_a_share_of_it() {
        // Three seconds left and no increment: the time manager plans on ~30 moves, so the
        // answer comes long before the clock runs out.
        let cfg = UciConfig {
            variant: "mrc".into(),
            start: StartChoice::Id(6944),
            ..UciConfig::default()
        };
        let t = std::time::Instant::now();
        let text = session("position startpos\ngo wtime 3000 btime 3000\n", cfg);
        let ms = t.elapsed().as_millis();
        assert!(text.contains("bestmove "), "{text}");
        assert!(ms < 2_000, "{ms} ms for a move with 3 s on the clock");
    }

    #[test]
    fn go_answers_with_a_legal_bestmove() {
        let cfg = UciConfig {
            variant: "mrc".into(),
            start: StartChoice::Id(6944),
            ..UciConfig::default()
        };
        let text = session("position startpos moves e2e4\ngo depth 4\n", cfg.clone());
        // Each finished depth is reported with the selective depth the search reached.
        let info = text
            .lines()
            .find(|l| l.starts_with("info depth 4 "))
            .unwrap_or_else(|| panic!("no depth 4 in {text}"));
        let sel: u32 = info.split_whitespace().nth(4).unwrap().parse().unwrap();
        assert!(info.contains(" seldepth ") && sel >= 1, "{info}");
        let best = text
            .lines()
            .find_map(|l| l.strip_prefix("bestmove "))
            .unwrap_or_else(|| panic!("no bestmove in {text}"));
        let rules = crate::catalog::load_rules("mrc").unwrap();
        let (_, fen) = choose_start(&rules, &StartChoice::Id(6944), 0).unwrap();
        let pos = Position::from_fen(&rules, &fen).unwrap();
        let pos = pos
            .play(&rules, parse_coord(&rules, &pos, "e2e4").unwrap())
            .unwrap();
        assert!(parse_coord(&rules, &pos, best).is_ok(), "{best}");
        // Checkmated side: no move.
        let cfg = UciConfig {
            variant: "chess".into(),
            ..UciConfig::default()
        };
        let text = session(
            "position fen rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3\ngo depth 3\n",
            cfg,
        );
        assert!(text.contains("bestmove (none)"), "{text}");
    }
}
