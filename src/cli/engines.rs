//! `modern-chess uci`, `xboard` and `match`: talking to GUIs and other engines. The protocol
//! logic lives in the library (`modern_chess::protocol`); this only maps flags to it.

use anyhow::Result;
use clap::Args;
use modern_chess::protocol::{uci, xboard, StartChoice};
use std::path::PathBuf;

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
pub struct MatchArgs {}

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

pub fn run_match(_args: MatchArgs) -> Result<()> {
    anyhow::bail!("match is not built yet")
}
