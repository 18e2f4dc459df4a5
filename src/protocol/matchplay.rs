//! Matches between our engine and another UCI engine over pipes.
//!
//! Every start position is played twice, colours reversed, so neither engine profits from a
//! lucky start. Every move of the other engine is checked by our rules before it is played:
//! an illegal move ends the game as a loss for that engine and is reported with the position.
//! With Fairy-Stockfish the variant is given as `UCI_Variant` (its `[fairy]` name) and a
//! variants.ini through `VariantPath`; castling is exchanged king-takes-rook (`UCI_Chess960`).

use super::{clock_seed, parse_coord, StartChoice};
use crate::engine::{Engine, Limits};
use crate::game::Game;
use crate::pgn;
use crate::position::{Move, Position};
use crate::rules::Rules;
use anyhow::{anyhow, bail, Context, Result};
use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::atomic::AtomicBool;
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::sync::Arc;
use std::time::{Duration, Instant};

#[derive(Clone, Debug)]
pub struct MatchConfig {
    pub engine: PathBuf,
    /// `setoption` pairs sent after ours, so they can override them.
    pub engine_options: Vec<(String, String)>,
    /// A Fairy-Stockfish variants.ini defining the variant.
    pub fairy_ini: Option<PathBuf>,
    pub games: u32,
    pub movetime_ms: u64,
    /// Start positions by id or back rank; empty: random ones from `seed`.
    pub starts: Vec<String>,
    pub seed: Option<u64>,
    /// A game still running after this many plies is adjudicated a draw.
    pub max_plies: usize,
    pub hash_mb: usize,
    /// Keep the Bishop Adjustment rights of the start positions (only for engines that know
    /// the rule; the FEN then has its seventh field).
    pub keep_adjustment: bool,
}

impl Default for MatchConfig {
    fn default() -> Self {
        MatchConfig {
            engine: PathBuf::new(),
            engine_options: Vec::new(),
            fairy_ini: None,
            games: 2,
            movetime_ms: 200,
            starts: Vec::new(),
            seed: None,
            max_plies: 400,
            hash_mb: 16,
            keep_adjustment: false,
        }
    }
}

/// One finished game.
#[derive(Clone, Debug)]
pub struct GameRecord {
    pub round: u32,
    pub start_id: u64,
    pub game: Game,
    /// Which colour our engine had.
    pub our_colour: usize,
    pub result: &'static str,
    pub reason: String,
}

#[derive(Clone, Debug)]
pub struct MatchOutcome {
    pub our_name: String,
    pub their_name: String,
    pub games: Vec<GameRecord>,
}

impl MatchOutcome {
    /// Our points and theirs.
    pub fn score(&self) -> (f64, f64) {
        let mut ours = 0.0;
        for g in &self.games {
            ours += match g.result {
                "1-0" if g.our_colour == 0 => 1.0,
                "0-1" if g.our_colour == 1 => 1.0,
                "1/2-1/2" => 0.5,
                _ => 0.0,
            };
        }
        (ours, self.games.len() as f64 - ours)
    }

    /// `modern-chess 1.5 - 0.5 Fairy-Stockfish (+1 =1 -0)`.
    pub fn score_line(&self) -> String {
        let (ours, theirs) = self.score();
        let wins = self
            .games
            .iter()
            .filter(|g| g.result == ["1-0", "0-1"][g.our_colour])
            .count();
        let draws = self.games.iter().filter(|g| g.result == "1/2-1/2").count();
        let losses = self.games.len() - wins - draws;
        format!(
            "Score: {} {ours} - {theirs} {} (+{wins} ={draws} -{losses})",
            self.our_name, self.their_name
        )
    }
}

// ---------------------------------------------------------------------------------------------
// The other engine
// ---------------------------------------------------------------------------------------------

/// A UCI engine on the other end of two pipes; its output is read on a thread so every wait
/// can time out.
pub struct UciClient {
    pub name: String,
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    /// Options it declared, and the values of its `UCI_Variant` combo.
    pub options: Vec<String>,
    pub variants: Vec<String>,
}

impl UciClient {
    pub fn start(path: &std::path::Path) -> Result<UciClient> {
        let mut child = Command::new(path)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .with_context(|| format!("cannot start engine {}", path.display()))?;
        let stdin = child.stdin.take().context("engine stdin")?;
        let stdout = child.stdout.take().context("engine stdout")?;
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(l) = line else { break };
                if tx.send(l).is_err() {
                    break;
                }
            }
        });
        let mut e = UciClient {
            name: path.display().to_string(),
            child,
            stdin,
            lines: rx,
            options: Vec::new(),
            variants: Vec::new(),
        };
        e.send("uci")?;
        for l in e.read_until("uciok", Duration::from_secs(10))? {
            if let Some(n) = l.strip_prefix("id name ") {
                e.name = n.trim().to_string();
            }
            if let Some(rest) = l.strip_prefix("option name ") {
                let name = rest.split(" type ").next().unwrap_or("").trim().to_string();
                if name == "UCI_Variant" {
                    e.variants = rest
                        .split(" var ")
                        .skip(1)
                        .map(|v| v.trim().to_string())
                        .collect();
                }
                e.options.push(name);
            }
        }
        Ok(e)
    }

    pub fn has_option(&self, name: &str) -> bool {
        self.options.iter().any(|o| o.eq_ignore_ascii_case(name))
    }

    pub fn send(&mut self, line: &str) -> Result<()> {
        writeln!(self.stdin, "{line}")
            .and_then(|_| self.stdin.flush())
            .with_context(|| format!("{} stopped reading its input", self.name))
    }

    /// Lines up to and including the first that starts with `prefix`.
    pub fn read_until(&mut self, prefix: &str, timeout: Duration) -> Result<Vec<String>> {
        let deadline = Instant::now() + timeout;
        let mut got = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(l) => {
                    let done = l.trim_start().starts_with(prefix);
                    got.push(l);
                    if done {
                        return Ok(got);
                    }
                }
                Err(RecvTimeoutError::Timeout) => bail!(
                    "{} did not answer `{prefix}` within {:.1} s",
                    self.name,
                    timeout.as_secs_f64()
                ),
                Err(RecvTimeoutError::Disconnected) => {
                    bail!("{} ended while we waited for `{prefix}`", self.name)
                }
            }
        }
    }

    pub fn is_ready(&mut self) -> Result<Vec<String>> {
        self.send("isready")?;
        self.read_until("readyok", Duration::from_secs(30))
    }
}

impl Drop for UciClient {
    fn drop(&mut self) {
        let _ = writeln!(self.stdin, "quit");
        let _ = self.stdin.flush();
        let deadline = Instant::now() + Duration::from_secs(2);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Tells the engine which variant to play and checks it agrees about the board.
fn configure(e: &mut UciClient, rules: &Rules, cfg: &MatchConfig) -> Result<()> {
    let v = &rules.variant;
    if e.has_option("UCI_Chess960") {
        e.send("setoption name UCI_Chess960 value true")?;
    }
    let is_fairy = e.name.starts_with("Fairy-Stockfish");
    if is_fairy {
        if let Some(ini) = &cfg.fairy_ini {
            e.send(&format!(
                "setoption name VariantPath value {}",
                ini.display()
            ))?;
        }
    }
    let short = v.short.to_lowercase();
    let name = if is_fairy {
        v.fairy.variant.clone().unwrap_or(short)
    } else {
        short
    };
    if e.has_option("UCI_Variant") {
        e.send(&format!("setoption name UCI_Variant value {name}"))?;
    } else if name != "chess" && name != "chess960" {
        bail!(
            "{} has no UCI_Variant option: it cannot play {}",
            e.name,
            v.short
        );
    }
    for (n, val) in &cfg.engine_options {
        e.send(&format!("setoption name {n} value {val}"))?;
    }
    let lines = e.is_ready()?;
    // Fairy-Stockfish (and we) announce the board of the chosen variant: it must be ours.
    if let Some(info) = lines.iter().find(|l| l.starts_with("info string variant ")) {
        let words: Vec<&str> = info.split_whitespace().collect();
        let field = |k: &str| {
            words
                .iter()
                .position(|w| *w == k)
                .and_then(|i| words.get(i + 1))
                .and_then(|w| w.parse::<u8>().ok())
        };
        if field("files") != Some(rules.geo.files) || field("ranks") != Some(rules.geo.ranks) {
            bail!(
                "{} plays `{name}` on another board than {} ({}x{}): `{info}`",
                e.name,
                v.short,
                rules.geo.files,
                rules.geo.ranks
            );
        }
    } else if is_fairy && name != "chess" {
        bail!(
            "{} does not know the variant `{name}` (is the variants.ini right?)",
            e.name
        );
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// The match
// ---------------------------------------------------------------------------------------------

/// The start positions of the match: `(id, position)` per pair of games.
pub fn match_starts(rules: &Rules, cfg: &MatchConfig) -> Result<Vec<(u64, Position)>> {
    let pairs = cfg.games.div_ceil(2) as usize;
    let seed = cfg.seed.unwrap_or_else(clock_seed);
    let mut out = Vec::new();
    for i in 0..pairs {
        let seed = seed.wrapping_add(i as u64);
        let (choice, text) = if cfg.starts.is_empty() {
            (StartChoice::Random, "random")
        } else {
            let s = &cfg.starts[i % cfg.starts.len()];
            (StartChoice::parse(s), s.as_str())
        };
        let start = choice
            .resolve(rules, seed)
            .map_err(|e| anyhow!("start {text}: {e}"))?;
        let id = start.id.unwrap_or(0);
        let mut pos = start.position;
        if !cfg.keep_adjustment {
            let mut setup = pos.to_setup(rules);
            setup.adjustment = Default::default();
            pos = Position::from_setup(rules, setup).map_err(|e| anyhow!("{e}"))?;
        }
        out.push((id, pos));
    }
    Ok(out)
}

/// Plays the match. `progress` gets a line per finished game.
///
/// # Errors
/// When the other engine cannot be started, does not know the variant, stops answering or
/// dies. An illegal move is not an error: it loses the game.
pub fn play_match(
    rules: Arc<Rules>,
    cfg: &MatchConfig,
    progress: &mut dyn FnMut(&str),
) -> Result<MatchOutcome> {
    let starts = match_starts(&rules, cfg)?;
    let mut them = UciClient::start(&cfg.engine)?;
    configure(&mut them, &rules, cfg)?;
    let mut ours = Engine::new(Arc::clone(&rules), cfg.hash_mb.max(1));
    let mut games = Vec::new();
    let mut round = 0;
    'pairs: for (id, start) in &starts {
        for our_colour in 0..2 {
            if round >= cfg.games {
                break 'pairs;
            }
            round += 1;
            ours.clear();
            them.send("ucinewgame")?;
            them.is_ready()?;
            let rec = play_game(&rules, cfg, &mut ours, &mut them, start, our_colour)?;
            let rec = GameRecord {
                round,
                start_id: *id,
                ..rec
            };
            progress(&format!(
                "game {round}: {} {} {} ({}), start {id}, {} plies",
                if our_colour == 0 {
                    "modern-chess"
                } else {
                    them.name.as_str()
                },
                rec.result,
                if our_colour == 0 {
                    them.name.as_str()
                } else {
                    "modern-chess"
                },
                rec.reason,
                rec.game.moves().len()
            ));
            games.push(rec);
        }
    }
    let our_name = super::uci::ENGINE_NAME.to_string();
    // Against itself the two sides still need different names in the PGN.
    let their_name = if them.name == our_name {
        format!("{} (opponent)", them.name)
    } else {
        them.name.clone()
    };
    Ok(MatchOutcome {
        our_name,
        their_name,
        games,
    })
}

fn play_game(
    rules: &Rules,
    cfg: &MatchConfig,
    ours: &mut Engine,
    them: &mut UciClient,
    start: &Position,
    our_colour: usize,
) -> Result<GameRecord> {
    let mut game = Game::new(start.clone());
    let start_fen = if cfg.keep_adjustment {
        start.fen(rules)
    } else {
        start.fen_six(rules)
    };
    let limits = Limits {
        movetime_ms: Some(cfg.movetime_ms),
        ..Limits::default()
    };
    let stop = AtomicBool::new(false);
    let mut moves_text: Vec<String> = Vec::new();
    let finish = |game: Game, result: &'static str, reason: String| GameRecord {
        round: 0,
        start_id: 0,
        game,
        our_colour,
        result,
        reason,
    };
    loop {
        if let Some(o) = game.outcome(rules) {
            let reason = o.describe(rules);
            return Ok(finish(game, o.result(), reason));
        }
        if game.moves().len() >= cfg.max_plies {
            let reason = format!("adjudicated a draw after {} plies", cfg.max_plies);
            return Ok(finish(game, "1/2-1/2", reason));
        }
        let pos = game.current().clone();
        let side = pos.side_to_move();
        let m: Move = if side == our_colour {
            match ours.search(game.positions(), &limits, &stop, &mut |_| {}) {
                Some(m) => m,
                None => bail!("our engine found no move in {}", pos.fen(rules)),
            }
        } else {
            let mut cmd = format!("position fen {start_fen}");
            if !moves_text.is_empty() {
                cmd.push_str(" moves ");
                cmd.push_str(&moves_text.join(" "));
            }
            them.send(&cmd)?;
            them.send(&format!("go movetime {}", cfg.movetime_ms))?;
            let wait = Duration::from_millis(cfg.movetime_ms * 5 + 10_000);
            let lines = them.read_until("bestmove", wait)?;
            let last = lines.last().map(String::as_str).unwrap_or("");
            let text = last
                .split_whitespace()
                .nth(1)
                .unwrap_or("(none)")
                .to_string();
            match parse_coord(rules, &pos, &text) {
                Ok(m) => m,
                Err(e) => {
                    let name = if side == 0 { "White" } else { "Black" };
                    let reason = format!(
                        "illegal move `{text}` by {} ({name}) in {}: {e}",
                        them.name,
                        pos.fen(rules)
                    );
                    let result = if side == 0 { "0-1" } else { "1-0" };
                    return Ok(finish(game, result, reason));
                }
            }
        };
        moves_text.push(m.uci(rules));
        game.play(rules, m).map_err(|e| anyhow!("{e}"))?;
    }
}

/// The games as PGN (standard SAN through [`pgn::write_game`]); why each game ended is in its
/// `Termination` tag, with the position for an illegal move.
pub fn write_pgn(rules: &Rules, outcome: &MatchOutcome) -> String {
    let mut s = String::new();
    for g in &outcome.games {
        let (white, black) = if g.our_colour == 0 {
            (&outcome.our_name, &outcome.their_name)
        } else {
            (&outcome.their_name, &outcome.our_name)
        };
        let tags: Vec<(String, String)> = [
            ("Event", format!("{} match", rules.variant.short)),
            ("Site", "modern-chess match".to_string()),
            ("Round", g.round.to_string()),
            ("White", white.clone()),
            ("Black", black.clone()),
            ("Result", g.result.to_string()),
            ("StartId", g.start_id.to_string()),
            ("Termination", g.reason.clone()),
        ]
        .into_iter()
        .map(|(k, v)| (k.to_string(), v))
        .collect();
        s.push_str(&pgn::write_game(rules, &g.game, &tags));
        s.push('\n');
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog;

    #[test]
    fn starts_come_in_pairs_without_adjustment_rights() {
        let rules = catalog::load_rules("mrc").unwrap();
        let cfg = MatchConfig {
            games: 5,
            seed: Some(3),
            ..MatchConfig::default()
        };
        let starts = match_starts(&rules, &cfg).unwrap();
        assert_eq!(starts.len(), 3);
        for (_, p) in &starts {
            assert_eq!(p.fen(&rules), p.fen_six(&rules));
        }
        let keep = MatchConfig {
            keep_adjustment: true,
            starts: vec!["RNBMKQBNR".into()],
            ..cfg
        };
        let starts = match_starts(&rules, &keep).unwrap();
        assert!(starts[0].1.fen(&rules).ends_with(" ABCDEFGHIabcdefghi"));
        let bad = MatchConfig {
            starts: vec!["KKK".into()],
            ..MatchConfig::default()
        };
        assert!(match_starts(&rules, &bad).is_err());
    }

    #[test]
    fn score_counts_from_our_side() {
        let rules = catalog::load_rules("chess").unwrap();
        let start = Position::from_fen(&rules, "4k3/8/8/8/8/8/8/4K3 w - - 0 1").unwrap();
        let rec = |our_colour, result| GameRecord {
            round: 1,
            start_id: 0,
            game: Game::new(start.clone()),
            our_colour,
            result,
            reason: "test".into(),
        };
        let o = MatchOutcome {
            our_name: "us".into(),
            their_name: "them".into(),
            games: vec![rec(0, "1-0"), rec(1, "1-0"), rec(1, "1/2-1/2")],
        };
        assert_eq!(o.score(), (1.5, 1.5));
        assert_eq!(o.score_line(), "Score: us 1.5 - 1.5 them (+1 =1 -1)");
        let pgn = write_pgn(&rules, &o);
        assert_eq!(pgn.matches("[Result ").count(), 3);
        assert!(pgn.contains("[White \"them\"]"));
    }

    #[test]
    fn missing_engine_is_an_error() {
        let rules = Arc::new(catalog::load_rules("mrc").unwrap());
        let cfg = MatchConfig {
            engine: PathBuf::from("/nonexistent/engine"),
            ..MatchConfig::default()
        };
        let e = play_match(rules, &cfg, &mut |_| {}).unwrap_err();
        assert!(e.to_string().contains("cannot start engine"), "{e}");
    }
}
