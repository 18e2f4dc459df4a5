//! `modern-chess uci`, `xboard` and `match`: talking to GUIs and other engines.

use anyhow::{bail, Result};
use clap::Args;

#[derive(Args)]
pub struct UciArgs {}

#[derive(Args)]
pub struct XboardArgs {}

#[derive(Args)]
pub struct MatchArgs {}

pub fn uci(_args: UciArgs) -> Result<()> {
    bail!("uci is not built yet")
}

pub fn xboard(_args: XboardArgs) -> Result<()> {
    bail!("xboard is not built yet")
}

pub fn run_match(_args: MatchArgs) -> Result<()> {
    bail!("match is not built yet")
}
