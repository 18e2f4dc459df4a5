//! The UCI protocol, with the extensions GUIs for Fairy-Stockfish use for variants
//! (`UCI_Variant`, `VariantPath`, the `info string variant ...` line).
//!
//! Castling is always written king-takes-rook (Fischer-Random style) because in the random
//! variants the king's destination can be a square a plain king move also reaches; the
//! king-destination form and `O-O` are still read.

use super::{
    choose_start, clock_seed, one_line, parse_coord, Out, SearchThread, StartChoice, VariantSet,
};
use crate::engine::{Clock, Limits, SearchInfo};
use crate::position::{Move, Position};
use crate::rules::Rules;
use std::io::{BufRead, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

/// The settings shared with the other protocol (see `super::ProtocolConfig`).
pub type UciConfig = super::ProtocolConfig;

pub const ENGINE_NAME: &str = concat!("modern-chess ", env!("CARGO_PKG_VERSION"));

struct Session<W: Write + Send + 'static> {
    out: Out<W>,
    variants: VariantSet,
    variant: String,
    rules: Arc<Rules>,
    start: StartChoice,
    start_id: u64,
    start_fen: String,
    history: Vec<Position>,
    search: SearchThread,
    seed: Option<u64>,
    draws: u64,
    /// The running search is `go infinite`: at the end of input it is stopped, not awaited.
    infinite: bool,
}

/// Runs a UCI session until `quit` or the end of input.
///
/// # Errors
/// When the preset variant or start position cannot be used (nothing has been written then).
pub fn run<R: BufRead, W: Write + Send + 'static>(
    mut input: R,
    out: W,
    cfg: UciConfig,
) -> anyhow::Result<()> {
    let mut variants = VariantSet::builtin();
    if let Some(p) = &cfg.variant_path {
        let (_, problems) = variants.add_path(p).map_err(anyhow::Error::msg)?;
        if let Some(p) = problems.first() {
            anyhow::bail!("{p}");
        }
    }
    let rules = Arc::new(variants.load(&cfg.variant).map_err(anyhow::Error::msg)?);
    let seed = cfg.seed;
    let (start_id, start_fen) = choose_start(&rules, &cfg.start, seed.unwrap_or_else(clock_seed))
        .map_err(anyhow::Error::msg)?;
    let pos = Position::from_fen(&rules, &start_fen).map_err(|e| anyhow::anyhow!("{e}"))?;
    let mut s = Session {
        out: Out::new(out),
        variants,
        variant: cfg.variant.to_lowercase(),
        search: SearchThread::new(Arc::clone(&rules), cfg.hash_mb.max(1)),
        rules,
        start: cfg.start,
        start_id,
        start_fen,
        history: vec![pos],
        seed,
        draws: 0,
        infinite: false,
    };
    let mut line = String::new();
    loop {
        line.clear();
        match input.read_line(&mut line) {
            Ok(0) | Err(_) => break,
            Ok(_) => {}
        }
        if !s.command(line.trim()) {
            s.search.stop();
            return Ok(());
        }
    }
    // End of input (a script piped in): let a bounded search answer first.
    if s.infinite {
        s.search.stop();
    } else {
        s.search.wait_idle();
    }
    Ok(())
}

impl<W: Write + Send + 'static> Session<W> {
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
                self.search.stop();
                self.search.clear();
                self.history.truncate(1);
                self.history[0] = self.start_position();
            }
            "position" => {
                self.search.stop();
                self.position(&rest);
            }
            "go" => self.go(&rest),
            "stop" | "ponderhit" => self.search.stop(),
            "d" => self.display(),
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
             option name Hash type spin default 16 min 1 max 4096\n\
             option name Clear Hash type button\n\
             option name Threads type spin default 1 min 1 max 64\n\
             option name Skill Level type spin default 20 min 0 max 20\n\
             option name UCI_Chess960 type check default true\n\
             option name UCI_Variant type combo default {}{combo}\n\
             option name VariantPath type string default <empty>\n\
             option name StartPosition type string default random\n\
             option name Seed type spin default 0 min 0 max 2147483647\n\
             uciok",
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
        self.search.stop();
        match name.to_ascii_lowercase().as_str() {
            "hash" => match value.parse::<usize>() {
                Ok(mb) if (1..=4096).contains(&mb) => self.search.set_hash_mb(mb),
                _ => self.info(&format!("Hash: `{value}` is not a size in MB (1..4096)")),
            },
            "clear hash" => self.search.clear(),
            "threads" => match value.parse::<usize>() {
                Ok(n) if (1..=crate::engine::MAX_THREADS).contains(&n) => {
                    self.search.set_threads(n)
                }
                _ => self.info(&format!(
                    "Threads: `{value}` is not a number of threads (1..64)"
                )),
            },
            "skill level" => match value.parse::<u32>() {
                Ok(n) if n <= 20 => self.search.set_skill(crate::engine::SkillLevel::new(n)),
                _ => self.info(&format!("Skill Level: `{value}` is not a level (0..20)")),
            },
            "uci_chess960" | "uci_analysemode" | "ponder" | "multipv" => {}
            "uci_variant" => self.set_variant(&value),
            "variantpath" => {
                if value.is_empty() || value == "<empty>" {
                    return;
                }
                match self.variants.add_path(std::path::Path::new(&value)) {
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
            "startposition" => {
                self.start = StartChoice::parse(&value);
                self.new_start();
            }
            "seed" => match value.parse::<u64>() {
                Ok(0) => self.seed = None,
                Ok(s) => self.seed = Some(s),
                Err(_) => self.info(&format!("Seed: `{value}` is not a number")),
            },
            _ => self.info(&format!("unknown option `{name}`")),
        }
    }

    fn set_variant(&mut self, name: &str) {
        match self.variants.load(name) {
            Ok(rules) => {
                let rules = Arc::new(rules);
                self.search.set_rules(Arc::clone(&rules));
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
        let seed = self
            .seed
            .map(|s| s.wrapping_add(self.draws - 1))
            .unwrap_or_else(clock_seed);
        let chosen = choose_start(&self.rules, &self.start, seed).or_else(|e| {
            self.info(&format!("StartPosition: {e}; using a random start"));
            choose_start(&self.rules, &StartChoice::Random, seed)
        });
        match chosen.and_then(|(id, fen)| {
            Position::from_fen(&self.rules, &fen)
                .map(|p| (id, fen, p))
                .map_err(|e| e.to_string())
        }) {
            Ok((id, fen, pos)) => {
                self.start_id = id;
                self.start_fen = fen;
                let six = pos.fen_six(&self.rules);
                self.history = vec![pos];
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
        let moves_at = args.iter().position(|w| *w == "moves");
        let (setup, moves) = match moves_at {
            Some(i) => (&args[..i], &args[i + 1..]),
            None => (args, &args[args.len()..]),
        };
        let pos = match setup.first() {
            Some(&"startpos") => Ok(self.start_position()),
            Some(&"fen") => {
                Position::from_fen(&self.rules, &setup[1..].join(" ")).map_err(|e| e.to_string())
            }
            _ => Err("expected `position startpos|fen FEN [moves ...]`".to_string()),
        };
        let pos = match pos {
            Ok(p) => p,
            Err(e) => {
                self.info(&format!("position: {e}"));
                return;
            }
        };
        let mut history = vec![pos];
        for mv in moves {
            let cur = history[history.len() - 1].clone();
            match parse_coord(&self.rules, &cur, mv) {
                Ok(m) => history.push(cur.play_unchecked(&self.rules, m)),
                Err(e) => {
                    self.info(&format!(
                        "position: move {}: {e} (position {}); later moves ignored",
                        history.len(),
                        cur.fen(&self.rules)
                    ));
                    break;
                }
            }
        }
        self.history = history;
    }

    fn go(&mut self, args: &[&str]) {
        self.search.stop();
        let mut it = args.iter();
        let mut limits = Limits::default();
        let (mut wtime, mut btime, mut winc, mut binc) = (None, None, 0u64, 0u64);
        let mut movestogo = None;
        let mut infinite = false;
        let num = |w: Option<&&str>| -> Option<u64> { w.and_then(|s| s.parse::<u64>().ok()) };
        while let Some(&w) = it.next() {
            match w {
                "perft" => {
                    match num(it.next()) {
                        Some(d) if d <= 20 => self.perft(d as u32),
                        _ => self.info("go perft: expected a depth 0..20"),
                    }
                    return;
                }
                "depth" => limits.depth = num(it.next()).map(|d| d.min(200) as u32),
                "movetime" => limits.movetime_ms = num(it.next()),
                "nodes" => limits.nodes = num(it.next()),
                "wtime" => wtime = num(it.next()),
                "btime" => btime = num(it.next()),
                "winc" => winc = num(it.next()).unwrap_or(0),
                "binc" => binc = num(it.next()).unwrap_or(0),
                "movestogo" => movestogo = num(it.next()).map(|n| n as u32),
                "infinite" | "ponder" => infinite = true,
                "mate" | "searchmoves" => {
                    it.next();
                }
                other => {
                    self.info(&format!("go: unknown argument `{other}` ignored"));
                }
            }
        }
        if wtime.is_some() || btime.is_some() {
            // The engine divides the clock itself (engine::time).
            limits.clock = Some(Clock {
                wtime_ms: wtime,
                btime_ms: btime,
                winc_ms: winc,
                binc_ms: binc,
                moves_to_go: movestogo,
            });
        }
        if infinite {
            limits = Limits::default();
        }
        self.infinite = infinite || limits.is_infinite();
        let out = self.out.clone();
        let out2 = self.out.clone();
        let rules = Arc::clone(&self.rules);
        let rules2 = Arc::clone(&self.rules);
        self.search.ensure_engine(&self.rules);
        self.search.start(
            self.history.clone(),
            limits,
            move |info: &SearchInfo| out.line(&info_line(&rules, info)),
            move |best: Option<Move>, stop: &AtomicBool| {
                // UCI: an infinite search answers only after `stop`.
                while infinite && !stop.load(Ordering::SeqCst) {
                    std::thread::sleep(Duration::from_millis(5));
                }
                match best {
                    Some(m) => out2.line(&format!("bestmove {}", m.uci(&rules2))),
                    None => out2.line("bestmove (none)"),
                }
            },
        );
    }

    fn perft(&self, depth: u32) {
        let pos = &self.history[self.history.len() - 1];
        let t = std::time::Instant::now();
        let mut text = String::new();
        let mut total = 0;
        for (m, n) in pos.divide(&self.rules, depth) {
            text.push_str(&format!("{}: {n}\n", m.uci(&self.rules)));
            total += n;
        }
        if depth == 0 {
            total = 1;
        }
        let ms = t.elapsed().as_millis();
        text.push_str(&format!(
            "\nNodes searched: {total}\ninfo string perft time {ms} ms"
        ));
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
            if pos.side_to_move() == 0 {
                "white"
            } else {
                "black"
            },
            pos.legal_moves(r).len()
        ));
        self.out.lines(&text);
    }
}

/// `info depth 5 score cp 31 nodes 1234 nps 5678 time 217 pv e2e4 e7e5`.
pub fn info_line(rules: &Rules, info: &SearchInfo) -> String {
    let score = match info.mate {
        Some(m) => format!("mate {m}"),
        None => format!("cp {}", info.score_cp),
    };
    let nps = info.nodes * 1000 / info.time_ms.max(1);
    let pv: Vec<String> = info.pv.iter().map(|m| m.uci(rules)).collect();
    let mut s = format!(
        "info depth {} score {score} nodes {} nps {nps} time {}",
        info.depth, info.nodes, info.time_ms
    );
    if !pv.is_empty() {
        s.push_str(" pv ");
        s.push_str(&pv.join(" "));
    }
    s
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
        run(Cursor::new(script.to_string()), out.clone(), cfg).unwrap();
        let bytes = out.0.lock().unwrap().clone();
        String::from_utf8(bytes).unwrap()
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
    fn go_answers_with_a_legal_bestmove() {
        let cfg = UciConfig {
            variant: "mrc".into(),
            start: StartChoice::Id(6944),
            ..UciConfig::default()
        };
        let text = session("position startpos moves e2e4\ngo depth 1\n", cfg.clone());
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
