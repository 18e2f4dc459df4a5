//! What several commands share: choosing the variant and the position.

use anyhow::{anyhow, bail, Result};
use clap::Args;
use modern_chess::catalog;
use modern_chess::setup;
use modern_chess::Position;
use modern_chess::Rules;
use modern_chess::{Start, StartChoice, StartError};

/// How a command picks its position.
#[derive(Args, Clone, Default)]
pub struct Choice {
    /// Variant file path, or the short name of a file in variants/ (mrc, mrc64, merc, icrc, pmrc, chess, chess960)
    #[arg(long, short = 'v')]
    pub variant: Option<String>,
    /// Start from this FEN
    #[arg(long, conflicts_with_all = ["setup", "id", "random"])]
    pub fen: Option<String>,
    /// Start position by White's back rank, e.g. BQRMBNKNR
    #[arg(long, conflicts_with_all = ["id", "random"])]
    pub setup: Option<String>,
    /// Start position by its number
    #[arg(long, conflicts_with = "random")]
    pub id: Option<u64>,
    /// A random start position
    #[arg(long)]
    pub random: bool,
    /// Seed for --random
    #[arg(long, requires = "random")]
    pub seed: Option<u64>,
}

pub fn rules_for(choice: &Choice) -> Result<Rules> {
    let spec = choice
        .variant
        .clone()
        .unwrap_or_else(|| catalog::DEFAULT_VARIANT.to_string());
    load_rules_for_engine(&spec)
}

/// The rules of a variant the engine will play: a weights file the variant names that
/// cannot be used is an error here (the engine would otherwise fall back to the derived
/// weights without a word).
pub fn load_rules_for_engine(spec: &str) -> Result<Rules> {
    let rules = catalog::load_rules(spec).map_err(|e| anyhow!("{e}"))?;
    modern_chess::engine::weights::for_variant(&rules)
        .map_err(|e| anyhow!("{spec}: [engine] weights: {e}"))?;
    Ok(rules)
}

impl Choice {
    /// The library's start choice for `--fen`, `--setup`, `--id` or `--random` (`None` when
    /// none of them is given).
    pub(crate) fn start_choice(&self) -> Option<StartChoice> {
        if let Some(fen) = &self.fen {
            Some(StartChoice::Fen(fen.clone()))
        } else if let Some(s) = &self.setup {
            Some(StartChoice::BackRank(s.clone()))
        } else if let Some(id) = self.id {
            Some(StartChoice::Id(id))
        } else {
            self.random.then_some(StartChoice::Random)
        }
    }

    /// The seed for `--random`: `--seed`, else the clock.
    fn seed(&self) -> u64 {
        self.seed.unwrap_or_else(|| {
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map(|d| d.as_nanos() as u64)
                .unwrap_or(1)
        })
    }
}

/// Resolves a start choice, naming the flag in errors.
fn resolve(rules: &Rules, choice: &Choice, start: &StartChoice) -> Result<Start> {
    start.resolve(rules, choice.seed()).map_err(|e| match e {
        StartError::BackRank(e) => anyhow!("--setup: {e}"),
        StartError::Id(e) => anyhow!("--id: {e}"),
        StartError::Fen(e) => anyhow!("--fen: {e}"),
        e @ StartError::Illegal(_) => anyhow!("{e}"),
    })
}

/// The start position the choice names, if it names one (`--id`, `--setup`, `--random`).
pub fn chosen_start(rules: &Rules, choice: &Choice) -> Result<Option<(u64, setup::StartPosition)>> {
    let start = match choice.start_choice() {
        None | Some(StartChoice::Fen(_)) => return Ok(None),
        Some(start) => resolve(rules, choice, &start)?,
    };
    Ok(start.id.zip(start.back_ranks))
}

/// The position the choice names: `--fen`, a start position, or the variant's only start.
pub fn position_for(rules: &Rules, choice: &Choice) -> Result<Position> {
    let start = match choice.start_choice() {
        Some(start) => start,
        None => {
            let n = setup::count(rules.variant());
            if n != 1 {
                bail!(
                    "{} has {n} start positions: choose one with --setup, --id, --random or --fen",
                    rules.variant().short()
                );
            }
            StartChoice::Id(0)
        }
    };
    Ok(resolve(rules, choice, &start)?.position)
}
