//! `modern-chess replay`: check a game record move by move.

use super::common::Choice;
use anyhow::{bail, Result};
use clap::Args;

#[derive(Args)]
pub struct ReplayArgs {
    #[command(flatten)]
    pub choice: Choice,
}

pub fn run(_args: ReplayArgs) -> Result<()> {
    bail!("replay is not built yet")
}
