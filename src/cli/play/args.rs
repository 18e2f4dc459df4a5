//! The command line of `play`.

use crate::cli::common::Choice;
use clap::{Args, ValueEnum};
use std::path::PathBuf;

/// Who plays a side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Player {
    Human,
    Engine,
}

impl Player {
    pub fn name(self) -> &'static str {
        match self {
            Player::Human => "human",
            Player::Engine => "engine",
        }
    }
}

#[derive(Args)]
pub struct PlayArgs {
    #[command(flatten)]
    pub choice: Choice,
    /// Who plays White (default: human; on --resume, as saved)
    #[arg(long, value_enum)]
    pub white: Option<Player>,
    /// Who plays Black (default: engine; on --resume, as saved)
    #[arg(long, value_enum)]
    pub black: Option<Player>,
    /// Engine strength 1 (weakest) to 8 (full strength, 900 ms a move: the default)
    #[arg(long, value_parser = clap::value_parser!(u8).range(1..=8), conflicts_with_all = ["depth", "movetime"])]
    pub level: Option<u8>,
    /// Engine search depth in plies
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=64))]
    pub depth: Option<u32>,
    /// Engine time per move in milliseconds
    #[arg(long)]
    pub movetime: Option<u64>,
    /// Engine transposition table size in megabytes (at most 4096 and what the machine has free)
    #[arg(long, default_value_t = 16)]
    pub hash: usize,
    /// Engine search threads (Lazy SMP, 1..64)
    #[arg(long, default_value_t = 1, value_parser = crate::cli::engines::parse_threads)]
    pub threads: usize,
    /// Draw pieces as Unicode figurines (pieces without a figurine keep their letter)
    #[arg(long)]
    pub figurines: bool,
    /// No ANSI colours (also the default when output is not a terminal)
    #[arg(long)]
    pub no_color: bool,
    /// Turn the board round (it is shown from Black's side anyway when only Black is human)
    #[arg(long)]
    pub flip: bool,
    /// Continue a saved game: the latest autosave, or the PGN file given
    #[arg(long, value_name = "FILE",
          conflicts_with_all = ["fen", "setup", "id", "random", "seed", "variant"])]
    pub resume: Option<Option<PathBuf>>,
}
