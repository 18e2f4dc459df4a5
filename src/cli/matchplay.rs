//! Matches between our engine and another UCI engine over pipes.
//!
//! Every start position is played twice, colours reversed, so neither engine profits from a
//! lucky start. Every move of the other engine is checked by our rules before it is played:
//! an illegal move ends the game as a loss for that engine and is reported with the position.
//! With Fairy-Stockfish the variant is given as `UCI_Variant` (its `[fairy]` name) and a
//! variants.ini through `VariantPath`; castling is exchanged king-takes-rook (`UCI_Chess960`).

use super::movenote::MoveNote;
use super::uci_client::UciClient;
use anyhow::{anyhow, bail, Result};
use modern_chess::engine::{Engine, Level, Limits};
use modern_chess::pgn;
use modern_chess::protocol::{parse_coord, uci::ENGINE_NAME};
use modern_chess::Game;
use modern_chess::Rules;
use modern_chess::StartChoice;
use modern_chess::{Move, Position};
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::{Duration, Instant};

#[derive(Clone, Debug)]
pub struct MatchConfig {
    /// The other engine's command line: a program and its arguments.
    pub engine: String,
    /// `setoption` pairs sent after ours, so they can override them.
    pub engine_options: Vec<(String, String)>,
    /// A Fairy-Stockfish variants.ini defining the variant.
    pub fairy_ini: Option<PathBuf>,
    pub games: u32,
    pub movetime_ms: u64,
    /// Search our engine to this depth every move instead of for `movetime_ms`: with
    /// `engine_depth`, a match whose games do not depend on how busy the machine is.
    pub depth: Option<u32>,
    /// Ask the other engine for this depth (`go depth N`) instead of `go movetime`.
    pub engine_depth: Option<u32>,
    /// Search our engine this many nodes every move (with `depth`, whichever comes first).
    pub nodes: Option<u64>,
    /// Ask the other engine for this many nodes (`go nodes N`); with `engine_depth` that wins.
    pub engine_nodes: Option<u64>,
    /// Start positions by id or back rank; empty: random ones from `seed`.
    pub starts: Vec<String>,
    pub seed: u64,
    /// Our engine's playing level (`--level`): its skill; the time per move stays
    /// `movetime_ms`, the same for both sides.
    pub level: Option<Level>,
    /// Our engine's contempt in centipawns (`--contempt`; its default when None).
    pub contempt: Option<i32>,
    /// A game still running after this many plies is adjudicated a draw.
    pub max_plies: usize,
    pub hash_mb: usize,
    /// Our engine's search threads.
    pub threads: usize,
    /// Keep the Bishop Adjustment rights of the start positions (only for engines that know
    /// the rule; the FEN then has its seventh field).
    pub keep_adjustment: bool,
    /// Evaluate with this engine's static evaluation (its command line) instead of ours,
    /// its scores divided by the factor: a diagnostic of our search alone.
    pub eval_with: Option<(String, f64)>,
}

impl Default for MatchConfig {
    fn default() -> Self {
        MatchConfig {
            engine: String::new(),
            engine_options: Vec::new(),
            fairy_ini: None,
            games: 2,
            movetime_ms: 200,
            depth: None,
            engine_depth: None,
            nodes: None,
            engine_nodes: None,
            starts: Vec::new(),
            seed: 1,
            level: None,
            contempt: None,
            max_plies: 400,
            hash_mb: 16,
            threads: 1,
            keep_adjustment: false,
            eval_with: None,
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
    /// Per ply: what the engine that moved said about its search (its last report).
    pub notes: Vec<Option<MoveNote>>,
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

/// Tells the engine which variant to play and checks it agrees about the board.
pub fn configure(e: &mut UciClient, rules: &Rules, cfg: &MatchConfig) -> Result<()> {
    let v = rules.variant();
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
    let short = v.short().to_lowercase();
    let name = if is_fairy {
        v.fairy().variant.clone().unwrap_or(short)
    } else {
        short
    };
    if e.has_option("UCI_Variant") {
        e.send(&format!("setoption name UCI_Variant value {name}"))?;
    } else if name != "chess" && name != "chess960" {
        bail!(
            "{} has no UCI_Variant option: it cannot play {}",
            e.name,
            v.short()
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
        if field("files") != Some(rules.geo().files) || field("ranks") != Some(rules.geo().ranks) {
            bail!(
                "{} plays `{name}` on another board than {} ({}x{}): `{info}`",
                e.name,
                v.short(),
                rules.geo().files,
                rules.geo().ranks
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
    let seed = cfg.seed;
    let mut out = Vec::new();
    for i in 0..pairs {
        let seed = pair_seed(seed, i);
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

/// The seed of pair `i`'s random start. Seeds are spread apart before the pair is added, so
/// that matches on neighbouring seeds play different starts: with `seed + i`, seed S + 1
/// replayed S's starts but one, and four matches on seeds S..S + 3 had seven starts between
/// them, not sixteen.
fn pair_seed(seed: u64, i: usize) -> u64 {
    seed.wrapping_mul(0x9E37_79B9_7F4A_7C15)
        .wrapping_add(i as u64)
}

/// The other engine, started again after it crashed or stopped answering.
struct Opponent {
    client: Option<UciClient>,
    name: String,
}

impl Opponent {
    /// The running engine, started and configured if it is not.
    fn get(&mut self, rules: &Rules, cfg: &MatchConfig) -> Result<&mut UciClient> {
        if self.client.is_none() {
            let mut c = UciClient::start(&cfg.engine)?;
            configure(&mut c, rules, cfg)?;
            self.name = c.name.clone();
            self.client = Some(c);
        }
        Ok(self.client.as_mut().expect("just started"))
    }
}

/// Plays the match. `on_game` gets every game as it ends (the caller writes it out then, so a
/// match cut short keeps its finished games).
///
/// A crash or time-out of the other engine loses the game for it; the engine is started
/// again for the next game.
///
/// # Errors
/// When the other engine cannot be started (at first or after a crash) or does not know the
/// variant.
pub fn play_match(
    rules: Arc<Rules>,
    cfg: &MatchConfig,
    on_game: &mut dyn FnMut(&GameRecord, &str, &str),
) -> Result<MatchOutcome> {
    let starts = match_starts(&rules, cfg)?;
    let mut them = Opponent {
        client: None,
        name: String::new(),
    };
    them.get(&rules, cfg)?;
    let mut ours = Engine::new(Arc::clone(&rules), cfg.hash_mb.max(1));
    ours.set_threads(cfg.threads);
    if let Some((command, scale)) = &cfg.eval_with {
        let piped = super::label::PipedEval::start(command, &rules, *scale)
            .map_err(|e| anyhow!("--eval-with {command}: {e}"))?;
        ours.set_external_eval(Some(Arc::new(piped)));
    }
    if let Some(level) = cfg.level {
        ours.set_skill(level.skill());
    }
    if let Some(c) = cfg.contempt {
        ours.set_contempt(c);
    }
    let mut games = Vec::new();
    let mut round = 0;
    'pairs: for (id, start) in &starts {
        for our_colour in 0..2 {
            if round >= cfg.games {
                break 'pairs;
            }
            round += 1;
            ours.clear();
            let client = them.get(&rules, cfg)?;
            let ready = client
                .send("ucinewgame")
                .and_then(|_| client.is_ready().map(|_| ()));
            let rec = match ready {
                Ok(()) => play_game(&rules, cfg, &mut ours, client, start, our_colour)?,
                Err(e) => GameRecord {
                    round: 0,
                    start_id: 0,
                    game: Game::new(start.clone()),
                    our_colour,
                    result: ["1-0", "0-1"][our_colour],
                    reason: FAULT.to_string() + &e.to_string(),
                    notes: Vec::new(),
                },
            };
            if rec.reason.starts_with(FAULT) {
                // Dropping the client ends the process; the next game starts a new one.
                them.client = None;
            }
            let rec = GameRecord {
                round,
                start_id: *id,
                ..rec
            };
            let (white, black) = names(our_colour, &them.name);
            on_game(&rec, &white, &black);
            games.push(rec);
        }
    }
    let (_, their_name) = names(0, &them.name);
    Ok(MatchOutcome {
        our_name: ENGINE_NAME.to_string(),
        their_name,
        games,
    })
}

/// The start of the reason of a game the other engine lost by crashing or hanging.
const FAULT: &str = "the other engine failed: ";

/// White's and Black's names; against itself the other side is "(opponent)".
fn names(our_colour: usize, theirs: &str) -> (String, String) {
    let them = if theirs == ENGINE_NAME {
        format!("{theirs} (opponent)")
    } else {
        theirs.to_string()
    };
    if our_colour == 0 {
        (ENGINE_NAME.to_string(), them)
    } else {
        (them, ENGINE_NAME.to_string())
    }
}

/// Each side's limit for one move: our search limits, the other engine's `go` command, and
/// how long to wait for its answer (a depth or a node count takes as long as it takes: a
/// minute a move).
fn move_limits(cfg: &MatchConfig) -> (Limits, String, u64) {
    let limits = match (cfg.depth, cfg.nodes) {
        (None, None) => Limits::movetime(cfg.movetime_ms),
        (depth, nodes) => Limits {
            depth,
            nodes,
            ..Limits::default()
        },
    };
    let their_go = match (cfg.engine_depth, cfg.engine_nodes) {
        (Some(d), _) => format!("go depth {d}"),
        (None, Some(n)) => format!("go nodes {n}"),
        (None, None) => format!("go movetime {}", cfg.movetime_ms),
    };
    let patience_ms = if cfg.engine_depth.is_some() || cfg.engine_nodes.is_some() {
        60_000
    } else {
        cfg.movetime_ms.saturating_mul(5)
    };
    (limits, their_go, patience_ms)
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
    let (limits, their_go, patience_ms) = move_limits(cfg);
    let stop = AtomicBool::new(false);
    let mut moves_text: Vec<String> = Vec::new();
    let mut notes: Vec<Option<MoveNote>> = Vec::new();
    let finish = |game: Game, result: &'static str, reason: String, notes| GameRecord {
        round: 0,
        start_id: 0,
        game,
        our_colour,
        result,
        reason,
        notes,
    };
    loop {
        if let Some(o) = game.outcome(rules) {
            let reason = o.describe(rules);
            return Ok(finish(game, o.result(), reason, notes));
        }
        if game.moves().len() >= cfg.max_plies {
            let reason = format!("adjudicated a draw after {} plies", cfg.max_plies);
            return Ok(finish(game, "1/2-1/2", reason, notes));
        }
        let pos = game.current().clone();
        let side = pos.side_to_move().index();
        let m: Move = if side == our_colour {
            let mut note = None;
            let started = Instant::now();
            let found = ours.search(game.positions(), &limits, &stop, &mut |i| {
                note = Some(MoveNote::from_info(i))
            });
            // Time and nodes are the whole move's, not the last finished iteration's.
            let spent = started.elapsed().as_millis() as u64;
            let nodes = ours.last_search_nodes();
            notes.push(note.map(|n| MoveNote {
                time_ms: spent,
                nodes: nodes.max(n.nodes),
                ..n
            }));
            match found {
                Some(m) => m,
                None => bail!("our engine found no move in {}", pos.fen(rules)),
            }
        } else {
            let mut cmd = format!("position fen {start_fen}");
            if !moves_text.is_empty() {
                cmd.push_str(" moves ");
                cmd.push_str(&moves_text.join(" "));
            }
            let wait = Duration::from_millis(patience_ms + 10_000);
            let asked = them
                .send(&cmd)
                .and_then(|_| them.send(&their_go))
                .and_then(|_| them.read_until("bestmove", wait));
            let lines = match asked {
                Ok(l) => l,
                Err(e) => {
                    let result = if side == 0 { "0-1" } else { "1-0" };
                    return Ok(finish(game, result, format!("{FAULT}{e}"), notes));
                }
            };
            notes.push(MoveNote::from_uci(&lines));
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
                    return Ok(finish(game, result, reason, notes));
                }
            }
        };
        moves_text.push(m.uci(rules));
        game.play(rules, m).map_err(|e| anyhow!("{e}"))?;
    }
}

/// The games as PGN (standard SAN through [`pgn::write_game`]); why each game ended is in its
/// `Termination` tag, with the position for an illegal move.
#[cfg(test)]
pub fn write_pgn(rules: &Rules, outcome: &MatchOutcome) -> String {
    let mut s = String::new();
    for g in &outcome.games {
        let (white, black) = if g.our_colour == 0 {
            (&outcome.our_name, &outcome.their_name)
        } else {
            (&outcome.their_name, &outcome.our_name)
        };
        s.push_str(&game_pgn(rules, g, white, black));
    }
    s
}

/// One game as PGN, followed by an empty line.
pub fn game_pgn(rules: &Rules, g: &GameRecord, white: &str, black: &str) -> String {
    let mut s = String::new();
    {
        let tags: Vec<(String, String)> = [
            ("Event", format!("{} match", rules.variant().short())),
            ("Site", "modern-chess match".to_string()),
            ("Round", g.round.to_string()),
            ("White", white.to_string()),
            ("Black", black.to_string()),
            ("Result", g.result.to_string()),
            ("StartId", g.start_id.to_string()),
            ("Termination", g.reason.clone()),
        ]
        .into_iter()
        .map(|(k, v)| (k.to_string(), v))
        .collect();
        let comments: Vec<Option<String>> = g
            .notes
            .iter()
            .map(|n| n.as_ref().map(MoveNote::to_string))
            .collect();
        s.push_str(&pgn::write_game_annotated(rules, &g.game, &tags, &comments));
        s.push('\n');
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use modern_chess::catalog;

    #[test]
    fn starts_come_in_pairs_without_adjustment_rights() {
        let rules = catalog::load_rules("mrc").unwrap();
        let cfg = MatchConfig {
            games: 5,
            seed: 3,
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
    fn neighbouring_seeds_play_different_starts() {
        let rules = catalog::load_rules("mrc").unwrap();
        let ids = |seed| {
            let cfg = MatchConfig {
                games: 8,
                seed,
                ..MatchConfig::default()
            };
            let starts = match_starts(&rules, &cfg).unwrap();
            starts.into_iter().map(|(id, _)| id).collect::<Vec<u64>>()
        };
        let mut all: Vec<u64> = (900..904).flat_map(ids).collect();
        assert_eq!(ids(901), ids(901), "the same seed, the same starts");
        all.sort();
        all.dedup();
        // 16 draws from MRC's millions of starts: any repeat is the old overlap.
        assert_eq!(all.len(), 16);
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
            notes: Vec::new(),
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
            engine: "/nonexistent/engine".into(),
            ..MatchConfig::default()
        };
        let e = play_match(rules, &cfg, &mut |_, _, _| {}).unwrap_err();
        assert!(e.to_string().contains("cannot start engine"), "{e}");
    }
}
