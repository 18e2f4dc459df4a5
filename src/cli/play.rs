//! `modern-chess play`: a whole game in the terminal.

use super::common::Choice;
use anyhow::{bail, Result};
use clap::Args;

#[derive(Args)]
pub struct PlayArgs {
    #[command(flatten)]
    pub choice: Choice,
}

pub fn run(_args: PlayArgs) -> Result<()> {
    bail!("play is not built yet")
}
