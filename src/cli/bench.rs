//! `modern-chess bench`: perft speed, optionally against Fairy-Stockfish and Stockfish.

use anyhow::{bail, Result};
use clap::Args;

#[derive(Args)]
pub struct BenchArgs {}

pub fn run(_args: BenchArgs) -> Result<()> {
    bail!("bench is not built yet")
}
