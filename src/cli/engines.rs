//! `modern-chess uci`, `xboard` and `match`: talking to GUIs and other engines. The protocol
//! logic lives in the library (`modern_chess::protocol`); this maps flags to it and supplies
//! what a library does not do: the search thread, the clock for random seeds, stdin/stdout.

use super::bench;
use super::matchplay;
use super::worker::ThreadWorker;
use anyhow::{bail, Context, Result};
use clap::Args;
use modern_chess::engine::ExternalEval;
use modern_chess::protocol::{uci, xboard, EvalSource, ProtocolConfig};
use modern_chess::StartChoice;
use std::hash::{Hash, Hasher};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

/// `--hash`: refused on the command line when out of range or more than the machine has
/// free, with the limit in the message (the helper `play` uses too).
pub fn parse_hash(s: &str) -> Result<usize, String> {
    let mb = s
        .parse::<usize>()
        .map_err(|_| format!("`{s}` is not a size in MB"))?;
    super::hash::checked_hash_mb(mb).map_err(|e| e.to_string())
}

/// `--threads`: search threads (Lazy SMP), 1 up to the engine's most.
pub fn parse_threads(s: &str) -> Result<usize, String> {
    s.parse::<usize>()
        .ok()
        .and_then(|n| check_threads(n).ok())
        .ok_or_else(|| threads_error(s))
}

/// A number of search threads already read as a number (`bench --threads`, which perft
/// shares), checked as [`parse_threads`] checks it.
pub fn check_threads(n: usize) -> Result<usize, String> {
    if (1..=modern_chess::engine::MAX_THREADS).contains(&n) {
        Ok(n)
    } else {
        Err(threads_error(&n.to_string()))
    }
}

fn threads_error(s: &str) -> String {
    let max = modern_chess::engine::MAX_THREADS;
    format!("`{s}` is not a number of threads (1..{max})")
}

/// `--contempt`: centipawns within the engine's range.
pub fn parse_contempt(s: &str) -> Result<i32, String> {
    modern_chess::engine::parse_contempt(s).map_err(|e| e.to_string())
}

/// A seed that differs from run to run (for random starts).
pub fn clock_seed() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos() as u64)
        .unwrap_or(1)
}

/// Standard output for a protocol session: when the GUI has closed it (a broken pipe), nobody
/// reads our answers and the input may never end, so the process ends at once.
struct ExitOnClosed(std::io::Stdout);

impl Write for ExitOnClosed {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.write(buf).inspect_err(|_| std::process::exit(0))
    }
    fn flush(&mut self) -> std::io::Result<()> {
        self.0.flush().inspect_err(|_| std::process::exit(0))
    }
}

/// What both engine modes accept before the GUI speaks.
#[derive(Args, Clone)]
pub struct EngineModeArgs {
    /// Variant at start-up: short name (mrc, merc, ...) or a name from --variant-path
    #[arg(long, short = 'v', default_value = "mrc")]
    pub variant: String,
    /// Folder of variant files (or one file) offered besides the built-in ones
    #[arg(long)]
    pub variant_path: Option<PathBuf>,
    /// Start position for `startpos`/`new`: `random`, a start id, or a back rank (BQRMBNKNR)
    #[arg(long, default_value = "random")]
    pub start: String,
    /// Seed for random start positions (default: from the clock)
    #[arg(long)]
    pub seed: Option<u64>,
    /// Hash table size in MB (1..4096)
    #[arg(long, default_value_t = 16, value_parser = parse_hash)]
    pub hash: usize,
    /// Search threads (Lazy SMP, 1..64) until the GUI sets them (UCI `Threads`, XBoard `cores`)
    #[arg(long, default_value_t = 1, value_parser = parse_threads)]
    pub threads: usize,
}

#[derive(Args)]
pub struct UciArgs {
    #[command(flatten)]
    pub common: EngineModeArgs,
    /// A diagnostic: evaluate with this UCI engine's static evaluation (its `eval` command,
    /// e.g. /usr/games/fairy-stockfish) instead of our own
    #[arg(long, value_name = "CMD")]
    pub eval_with: Option<String>,
    /// --eval-with's centipawns per one of ours (Fairy-Stockfish 11.1's run about 1.18)
    #[arg(long, value_name = "X", default_value_t = 1.0, requires = "eval_with",
          value_parser = super::label::parse_eval_scale)]
    pub eval_scale: f64,
}

#[derive(Args)]
pub struct XboardArgs {
    #[command(flatten)]
    pub common: EngineModeArgs,
}

#[derive(Args)]
pub struct MatchArgs {
    /// Variant file path or short name
    #[arg(long, short = 'v', default_value = "mrc")]
    pub variant: String,
    /// The other engine: a UCI program and its arguments (e.g. /usr/games/fairy-stockfish,
    /// or "modern-chess uci --hash 8"; quote a path with spaces inside with double quotes)
    #[arg(long)]
    pub engine: String,
    /// Option for the other engine, sent as `setoption name NAME value VALUE` (repeatable)
    #[arg(long = "engine-option", value_name = "NAME=VALUE")]
    pub engine_options: Vec<String>,
    /// Number of games (start positions are played twice, colours reversed)
    #[arg(long, default_value_t = 2)]
    pub games: u32,
    /// Thinking time per move for both engines, in milliseconds
    #[arg(long, default_value_t = 200)]
    pub movetime: u64,
    /// Our engine searches to this depth every move instead of for --movetime
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=64))]
    pub depth: Option<u32>,
    /// The other engine searches to this depth every move (`go depth N`) instead of --movetime
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=64))]
    pub engine_depth: Option<u32>,
    /// Our engine searches this many nodes every move instead of for --movetime
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    pub nodes: Option<u64>,
    /// The other engine searches this many nodes every move (`go nodes N`) instead of --movetime
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    pub engine_nodes: Option<u64>,
    /// Start position (id or back rank) for the pairs of games; repeatable; default random
    #[arg(long)]
    pub start: Vec<String>,
    /// Seed for the random start positions
    #[arg(long)]
    pub seed: Option<u64>,
    /// Our engine's level 1-8 (its skill: 8 is full strength); the time per move stays --movetime
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=8))]
    pub level: Option<u32>,
    /// Our engine's contempt in centipawns: a draw counts this much below equal for it
    /// (negative: above; default 0, as the UCI option `Contempt`)
    #[arg(long, value_name = "CP", allow_hyphen_values = true, value_parser = parse_contempt)]
    pub contempt: Option<i32>,
    /// Fairy-Stockfish variants.ini to use instead of the one written from our `[fairy]` sections
    #[arg(long)]
    pub fairy_ini: Option<PathBuf>,
    /// Adjudicate a game still running after this many plies as a draw
    #[arg(long, default_value_t = 400)]
    pub max_plies: usize,
    /// Hash table size of our engine in MB (1..4096)
    #[arg(long, default_value_t = 16, value_parser = parse_hash)]
    pub hash: usize,
    /// Search threads of our engine (Lazy SMP, 1..64)
    #[arg(long, default_value_t = 1, value_parser = parse_threads)]
    pub threads: usize,
    /// Keep Bishop Adjustment rights in the start positions (only for engines that know the rule)
    #[arg(long)]
    pub adjustment: bool,
    /// Also write the PGN to this file
    #[arg(long)]
    pub pgn: Option<PathBuf>,
}

fn protocol_config(c: EngineModeArgs) -> ProtocolConfig {
    ProtocolConfig {
        variant: c.variant,
        variant_path: c.variant_path,
        start: StartChoice::parse(&c.start),
        hash_mb: c.hash,
        threads: c.threads,
        seed: c.seed.unwrap_or_else(clock_seed),
        free_memory_mb: super::hash::available_memory_mb(),
        eval_with: None,
    }
}

pub fn uci(args: UciArgs) -> Result<()> {
    let mut cfg = protocol_config(args.common);
    cfg.eval_with = args
        .eval_with
        .map(|command| piped_eval_source(command, args.eval_scale));
    let stdin = std::io::stdin();
    uci::run(
        stdin.lock(),
        ExitOnClosed(std::io::stdout()),
        cfg,
        ThreadWorker::new,
    )?;
    Ok(())
}

/// Starts `command` for each variant the session plays, its evaluations divided by `scale`.
fn piped_eval_source(command: String, scale: f64) -> EvalSource {
    EvalSource(Arc::new(move |rules| {
        let piped = super::label::PipedEval::start(&command, rules, scale)
            .map_err(|e| format!("{command}: {e}"))?;
        Ok(Arc::new(piped) as Arc<dyn ExternalEval>)
    }))
}

pub fn xboard(args: XboardArgs) -> Result<()> {
    let cfg = protocol_config(args.common);
    let stdin = std::io::stdin();
    xboard::run(
        stdin.lock(),
        ExitOnClosed(std::io::stdout()),
        cfg,
        ThreadWorker::new,
    )?;
    Ok(())
}

/// Fairy-Stockfish learns a variant from a variants.ini: one written to the temp dir from the
/// variant file's `[fairy]` section (None when it has none).
///
/// The file is named by a hash of its text, so every run with the same section shares one
/// file instead of each leaving its own behind when it is killed before it can clean up. It
/// is written under a name of its own and renamed into place, so a run never hands its engine
/// a file another run is half-way through writing. Callers must not remove it: another run
/// may be about to pass the same path to its engine.
pub fn write_fairy_ini(rules: &modern_chess::Rules) -> Result<Option<PathBuf>> {
    let Some(section) = bench::fairy_section(rules.variant()) else {
        return Ok(None);
    };
    let text = format!("# written by modern-chess match\n{section}");
    let p = std::env::temp_dir().join(fairy_ini_name(rules.variant().short(), &text));
    // Already there and whole (it only ever appears by a rename): nothing to write.
    if std::fs::read_to_string(&p).is_ok_and(|old| old == text) {
        return Ok(Some(p));
    }
    write_by_rename(&p, &text).with_context(|| format!("cannot write {}", p.display()))?;
    Ok(Some(p))
}

/// `modern-chess-mrc-0123456789abcdef-variants.ini`: the variant's short name (letters and
/// digits only, so a strange name cannot leave the temp dir) and 16 hex digits of a hash of
/// `text`. The std hasher may change between Rust releases; that only costs one more file.
fn fairy_ini_name(short: &str, text: &str) -> String {
    let clean: String = short
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_lowercase()
            } else {
                '_'
            }
        })
        .collect();
    let mut h = std::collections::hash_map::DefaultHasher::new();
    text.hash(&mut h);
    format!("modern-chess-{clean}-{:016x}-variants.ini", h.finish())
}

/// Writes `text` to a name of its own beside `path` (process id and a counter, so neither
/// another run nor another thread shares it) and renames it over `path`: a reader sees no
/// file or a whole one. The temporary file is removed when either step fails.
fn write_by_rename(path: &Path, text: &str) -> std::io::Result<()> {
    static NEXT: AtomicU64 = AtomicU64::new(0);
    let n = NEXT.fetch_add(1, Ordering::Relaxed);
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(format!(".{}-{n}.tmp", std::process::id()));
    let tmp = PathBuf::from(tmp);
    let written = std::fs::write(&tmp, text).and_then(|()| std::fs::rename(&tmp, path));
    if written.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    written
}

/// `game 3: White 1-0 Black (checkmate), start 123, 87 plies`: one finished game.
pub fn game_line(g: &matchplay::GameRecord, white: &str, black: &str) -> String {
    format!(
        "game {}: {white} {} {black} ({}), start {}, {} plies",
        g.round,
        g.result,
        g.reason,
        g.start_id,
        g.game.moves().len()
    )
}

pub fn run_match(a: MatchArgs) -> Result<()> {
    let rules = super::common::load_rules_for_engine(&a.variant)?;
    let mut options = Vec::new();
    for o in &a.engine_options {
        let Some((n, v)) = o.split_once('=') else {
            bail!("--engine-option `{o}`: expected NAME=VALUE");
        };
        options.push((n.trim().to_string(), v.trim().to_string()));
    }
    if a.games == 0 {
        bail!("--games must be at least 1");
    }
    // The written file stays: it is shared with other runs (see `write_fairy_ini`).
    let ini = match &a.fairy_ini {
        Some(p) => Some(p.clone()),
        None => write_fairy_ini(&rules)?,
    };
    let cfg = matchplay::MatchConfig {
        engine: a.engine,
        engine_options: options,
        fairy_ini: ini,
        games: a.games,
        movetime_ms: a.movetime,
        depth: a.depth,
        engine_depth: a.engine_depth,
        nodes: a.nodes,
        engine_nodes: a.engine_nodes,
        starts: a.start,
        seed: a.seed.unwrap_or_else(clock_seed),
        level: a
            .level
            .and_then(|n| modern_chess::engine::Level::new(n).ok()),
        contempt: a.contempt,
        max_plies: a.max_plies,
        hash_mb: a.hash,
        threads: a.threads,
        keep_adjustment: a.adjustment,
        eval_with: None,
    };
    let rules = Arc::new(rules);
    // Each game goes out as it ends, to stdout and to --pgn, so a match cut short (or an
    // opponent that dies) keeps every finished game.
    let mut file = match &a.pgn {
        Some(p) => Some(
            std::fs::File::create(p).with_context(|| format!("cannot write {}", p.display()))?,
        ),
        None => None,
    };
    let mut write_error = None;
    let result = matchplay::play_match(Arc::clone(&rules), &cfg, &mut |g, white, black| {
        eprintln!("{}", game_line(g, white, black));
        let text = matchplay::game_pgn(&rules, g, white, black);
        print!("{text}");
        let _ = std::io::stdout().flush();
        if let Some(f) = file.as_mut() {
            if let Err(e) = f.write_all(text.as_bytes()).and_then(|_| f.flush()) {
                write_error.get_or_insert(e);
            }
        }
    });
    if let Some(e) = write_error {
        bail!("cannot write the PGN file: {e}");
    }
    let outcome = result?;
    // The score goes in as a PGN comment line, so stdout stays one valid PGN file.
    let score = format!("; {}\n", outcome.score_line());
    print!("{score}");
    if let Some(f) = file.as_mut() {
        f.write_all(score.as_bytes())
            .context("cannot write the PGN file")?;
    }
    eprintln!("{}", outcome.score_line());
    Ok(())
}
