//! `modern-chess uci`, `xboard` and `match`: talking to GUIs and other engines. The protocol
//! logic lives in the library (`modern_chess::protocol`); this only maps flags to it.

use super::bench;
use anyhow::{anyhow, bail, Context, Result};
use clap::Args;
use modern_chess::protocol::{matchplay, uci, xboard, StartChoice};
use std::path::PathBuf;
use std::sync::Arc;

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
    /// Hash table size in MB
    #[arg(long, default_value_t = 16)]
    pub hash: usize,
}

#[derive(Args)]
pub struct UciArgs {
    #[command(flatten)]
    pub common: EngineModeArgs,
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
    /// The other engine: a UCI program (e.g. /usr/games/fairy-stockfish)
    #[arg(long)]
    pub engine: PathBuf,
    /// Option for the other engine, sent as `setoption name NAME value VALUE` (repeatable)
    #[arg(long = "engine-option", value_name = "NAME=VALUE")]
    pub engine_options: Vec<String>,
    /// Number of games (start positions are played twice, colours reversed)
    #[arg(long, default_value_t = 2)]
    pub games: u32,
    /// Thinking time per move for both engines, in milliseconds
    #[arg(long, default_value_t = 200)]
    pub movetime: u64,
    /// Start position (id or back rank) for the pairs of games; repeatable; default random
    #[arg(long)]
    pub start: Vec<String>,
    /// Seed for the random start positions
    #[arg(long)]
    pub seed: Option<u64>,
    /// Fairy-Stockfish variants.ini to use instead of the one written from our `[fairy]` sections
    #[arg(long)]
    pub fairy_ini: Option<PathBuf>,
    /// Adjudicate a game still running after this many plies as a draw
    #[arg(long, default_value_t = 400)]
    pub max_plies: usize,
    /// Hash table size of our engine in MB
    #[arg(long, default_value_t = 16)]
    pub hash: usize,
    /// Keep Bishop Adjustment rights in the start positions (only for engines that know the rule)
    #[arg(long)]
    pub adjustment: bool,
    /// Also write the PGN to this file
    #[arg(long)]
    pub pgn: Option<PathBuf>,
}

pub fn uci(args: UciArgs) -> Result<()> {
    let c = args.common;
    let cfg = uci::UciConfig {
        variant: c.variant,
        variant_path: c.variant_path,
        start: StartChoice::parse(&c.start),
        hash_mb: c.hash,
        seed: c.seed,
    };
    let stdin = std::io::stdin();
    uci::run(stdin.lock(), std::io::stdout(), cfg)
}

pub fn xboard(args: XboardArgs) -> Result<()> {
    let c = args.common;
    let cfg = xboard::XboardConfig {
        variant: c.variant,
        variant_path: c.variant_path,
        start: StartChoice::parse(&c.start),
        hash_mb: c.hash,
        seed: c.seed,
    };
    let stdin = std::io::stdin();
    xboard::run(stdin.lock(), std::io::stdout(), cfg)
}

pub fn run_match(a: MatchArgs) -> Result<()> {
    let rules = modern_chess::catalog::load_rules(&a.variant).map_err(|e| anyhow!("{e}"))?;
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
    // Fairy-Stockfish learns the variant from a variants.ini written from our [fairy] section.
    let ini = match &a.fairy_ini {
        Some(p) => Some(p.clone()),
        None => match bench::fairy_section(&rules.variant) {
            Some(section) => {
                let p = std::env::temp_dir()
                    .join(format!("modern-chess-{}-variants.ini", std::process::id()));
                std::fs::write(&p, format!("# written by modern-chess match\n{section}"))
                    .with_context(|| format!("cannot write {}", p.display()))?;
                Some(p)
            }
            None => None,
        },
    };
    let cfg = matchplay::MatchConfig {
        engine: a.engine,
        engine_options: options,
        fairy_ini: ini.clone(),
        games: a.games,
        movetime_ms: a.movetime,
        starts: a.start,
        seed: a.seed,
        max_plies: a.max_plies,
        hash_mb: a.hash,
        keep_adjustment: a.adjustment,
    };
    let rules = Arc::new(rules);
    let result = matchplay::play_match(Arc::clone(&rules), &cfg, &mut |l| eprintln!("{l}"));
    if a.fairy_ini.is_none() {
        if let Some(p) = &ini {
            let _ = std::fs::remove_file(p);
        }
    }
    let outcome = result?;
    // The score goes in as a PGN comment line, so stdout stays one valid PGN file.
    let pgn = format!(
        "{}; {}\n",
        matchplay::write_pgn(&rules, &outcome),
        outcome.score_line()
    );
    print!("{pgn}");
    if let Some(p) = &a.pgn {
        std::fs::write(p, &pgn).with_context(|| format!("cannot write {}", p.display()))?;
    }
    eprintln!("{}", outcome.score_line());
    Ok(())
}
