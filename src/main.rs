//! The `modern-chess` command: a thin layer over the library (parse arguments, call, print).

use anyhow::{anyhow, bail, Context, Result};
use clap::{Args, Parser, Subcommand};
use modern_chess::catalog;
use modern_chess::position::Position;
use modern_chess::rules::Rules;
use modern_chess::setup;
use std::time::Instant;

#[derive(Parser)]
#[command(name = "modern-chess", version, about = "Play and check the Modern family of random chess variants")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

/// How a command picks its position.
#[derive(Args, Clone, Default)]
struct Choice {
    /// Variant file path, or the short name of a file in variants/ (mrc, mrc64, merc, icrc, pmrc, chess, chess960)
    #[arg(long, short = 'v')]
    variant: Option<String>,
    /// Start from this FEN
    #[arg(long, conflicts_with_all = ["setup", "id", "random"])]
    fen: Option<String>,
    /// Start position by White's back rank, e.g. BQRMBNKNR
    #[arg(long, conflicts_with_all = ["id", "random"])]
    setup: Option<String>,
    /// Start position by its number
    #[arg(long, conflicts_with = "random")]
    id: Option<u64>,
    /// A random start position
    #[arg(long)]
    random: bool,
    /// Seed for --random
    #[arg(long, requires = "random")]
    seed: Option<u64>,
}

#[derive(Subcommand)]
enum Command {
    /// Count leaf nodes of the move tree (perft)
    Perft {
        #[command(flatten)]
        choice: Choice,
        /// Print the count under each legal move
        #[arg(long)]
        divide: bool,
        /// Depth in plies
        depth: u32,
    },
    /// Count, number, list and show start positions
    Positions {
        #[command(flatten)]
        choice: Choice,
        /// Print the number of start positions
        #[arg(long)]
        count: bool,
        /// Print every start position: id and back rank
        #[arg(long)]
        list: bool,
    },
}

fn rules_for(choice: &Choice) -> Result<Rules> {
    let spec = choice.variant.clone().unwrap_or_else(|| catalog::DEFAULT_VARIANT.to_string());
    catalog::load_rules(&spec).map_err(|e| anyhow!("{e}"))
}

/// The start position the choice names, if it names one (`--id`, `--setup`, `--random`).
fn chosen_start(rules: &Rules, choice: &Choice) -> Result<Option<(u64, setup::StartPosition)>> {
    let v = &rules.variant;
    if let Some(s) = &choice.setup {
        let sp = setup::parse_back_rank(v, s).map_err(|e| anyhow!("--setup: {e}"))?;
        let id = setup::to_id(v, &sp).map_err(|e| anyhow!("--setup: {e}"))?;
        return Ok(Some((id, sp)));
    }
    let id = if let Some(id) = choice.id {
        Some(id)
    } else if choice.random {
        let seed = choice.seed.unwrap_or_else(|| std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_nanos() as u64).unwrap_or(1));
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

fn position_for(rules: &Rules, choice: &Choice) -> Result<Position> {
    if let Some(fen) = &choice.fen {
        return Position::from_fen(rules, fen).map_err(|e| anyhow!("--fen: {e}"));
    }
    let start = match chosen_start(rules, choice)? {
        Some(s) => s,
        None => {
            let n = setup::count(&rules.variant);
            if n != 1 {
                bail!("{} has {n} start positions: choose one with --setup, --id, --random or --fen", rules.variant.short);
            }
            (0, setup::from_id(&rules.variant, 0).map_err(|e| anyhow!(e))?)
        }
    };
    let fen = setup::start_fen(&rules.variant, &start.1);
    Position::from_fen(rules, &fen).with_context(|| format!("start FEN {fen}"))
}

fn run(cli: Cli) -> Result<()> {
    match cli.command {
        Command::Perft { choice, divide, depth } => {
            let rules = rules_for(&choice)?;
            let pos = position_for(&rules, &choice)?;
            if depth > 20 {
                bail!("depth {depth} is too deep (at most 20)");
            }
            let t = Instant::now();
            let total = if divide {
                let mut total = 0;
                for (m, n) in pos.divide(&rules, depth) {
                    println!("{}: {n}", m.uci(&rules));
                    total += n;
                }
                println!();
                total
            } else {
                pos.perft(&rules, depth)
            };
            let secs = t.elapsed().as_secs_f64();
            eprintln!("{:.3} s, {:.0} nodes/s", secs, total as f64 / secs.max(1e-9));
            println!("Nodes searched: {total}");
        }
        Command::Positions { choice, count, list } => {
            let rules = rules_for(&choice)?;
            let v = &rules.variant;
            if count {
                println!("{} start positions", v.short);
                println!("{}", setup::count(v));
                return Ok(());
            }
            if list {
                for id in 0..setup::count(v) {
                    let sp = setup::from_id(v, id).map_err(|e| anyhow!(e))?;
                    println!("{id} {}", setup::back_rank_string(v, &sp));
                }
                return Ok(());
            }
            let (id, sp) = match chosen_start(&rules, &choice)? {
                Some(s) => s,
                None => bail!("choose a start position with --id, --setup or --random (or use --count / --list)"),
            };
            let fen = setup::start_fen(v, &sp);
            let pos = Position::from_fen(&rules, &fen).map_err(|e| anyhow!("{e}"))?;
            print!("{}", pos.diagram(&rules));
            println!("id: {id}");
            println!("setup: {}", setup::back_rank_string(v, &sp));
            println!("{fen}");
        }
    }
    Ok(())
}

fn main() {
    let cli = Cli::parse();
    if let Err(e) = run(cli) {
        eprintln!("error: {e:#}");
        std::process::exit(1);
    }
}
