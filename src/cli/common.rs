//! What several commands share: choosing the variant and the position.

use anyhow::{anyhow, bail, Context, Result};
use clap::Args;
use modern_chess::catalog;
use modern_chess::position::Position;
use modern_chess::rules::Rules;
use modern_chess::setup;

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
    catalog::load_rules(&spec).map_err(|e| anyhow!("{e}"))
}

/// The start position the choice names, if it names one (`--id`, `--setup`, `--random`).
pub fn chosen_start(rules: &Rules, choice: &Choice) -> Result<Option<(u64, setup::StartPosition)>> {
    let v = &rules.variant;
    if let Some(s) = &choice.setup {
        let sp = setup::parse_back_rank(v, s).map_err(|e| anyhow!("--setup: {e}"))?;
        let id = setup::to_id(v, &sp).map_err(|e| anyhow!("--setup: {e}"))?;
        return Ok(Some((id, sp)));
    }
    let id = if let Some(id) = choice.id {
        Some(id)
    } else if choice.random {
        let seed = choice.seed.unwrap_or_else(|| {
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map(|d| d.as_nanos() as u64)
                .unwrap_or(1)
        });
        Some(setup::random_id(v, seed))
    } else {
        None
    };
    match id {
        Some(id) => {
            let sp = setup::from_id(v, id).map_err(|e| anyhow!("--id: {e}"))?;
            Ok(Some((id, sp)))
        }
        None => Ok(None),
    }
}

pub fn position_for(rules: &Rules, choice: &Choice) -> Result<Position> {
    if let Some(fen) = &choice.fen {
        return Position::from_fen(rules, fen).map_err(|e| anyhow!("--fen: {e}"));
    }
    let start = match chosen_start(rules, choice)? {
        Some(s) => s,
        None => {
            let n = setup::count(&rules.variant);
            if n != 1 {
                bail!(
                    "{} has {n} start positions: choose one with --setup, --id, --random or --fen",
                    rules.variant.short
                );
            }
            (
                0,
                setup::from_id(&rules.variant, 0).map_err(|e| anyhow!(e))?,
            )
        }
    };
    let fen = setup::start_fen(&rules.variant, &start.1);
    Position::from_fen(rules, &fen).with_context(|| format!("start FEN {fen}"))
}
