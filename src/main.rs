#![allow(clippy::needless_range_loop)]
//! The `modern-chess` command: a thin layer over the library (parse arguments, call, print).

mod cli;

use anyhow::{anyhow, bail, Result};
use clap::{Parser, Subcommand};
use cli::common::{chosen_start, position_for, rules_for, Choice};
use modern_chess::setup;
use modern_chess::Position;
use std::time::Instant;

#[derive(Parser)]
#[command(
    name = "modern-chess",
    version,
    about = "Play and check the Modern family of random chess variants"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Play a game in the terminal (default: MRC from a random start, you as White)
    Play(cli::play::PlayArgs),
    /// Replay a PGN game record and check every move
    Replay(cli::replay::ReplayArgs),
    /// Measure move generation speed (perft), optionally against Fairy-Stockfish
    Bench(cli::bench::BenchArgs),
    /// Run as a UCI engine
    Uci(cli::engines::UciArgs),
    /// Run as an XBoard/CECP engine
    Xboard(cli::engines::XboardArgs),
    /// Play a match against a UCI engine
    Match(cli::engines::MatchArgs),
    /// Serve a board in the browser (http://127.0.0.1:8080 by default)
    Serve(cli::serve::ServeArgs),
    /// Learn evaluation weights for a variant from self-play or PGN games (Texel's method)
    Tune(cli::tune::TuneArgs),
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

fn run(cli: Cli) -> Result<()> {
    match cli.command {
        Command::Play(a) => cli::play::run(a),
        Command::Replay(a) => cli::replay::run(a),
        Command::Bench(a) => cli::bench::run(a),
        Command::Uci(a) => cli::engines::uci(a),
        Command::Xboard(a) => cli::engines::xboard(a),
        Command::Match(a) => cli::engines::run_match(a),
        Command::Serve(a) => cli::serve::run(a),
        Command::Tune(a) => cli::tune::run(a),
        Command::Perft {
            choice,
            divide,
            depth,
        } => perft(&choice, divide, depth),
        Command::Positions {
            choice,
            count,
            list,
        } => positions(&choice, count, list),
    }
}

/// `perft`: the leaf count (per root move with `--divide`), `Nodes searched: N` last.
fn perft(choice: &Choice, divide: bool, depth: u32) -> Result<()> {
    let rules = rules_for(choice)?;
    let pos = position_for(&rules, choice)?;
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
    eprintln!(
        "{:.3} s, {:.0} nodes/s",
        secs,
        total as f64 / secs.max(1e-9)
    );
    println!("Nodes searched: {total}");

    Ok(())
}

/// `positions`: the count, the list, or one start position with its FEN last.
fn positions(choice: &Choice, count: bool, list: bool) -> Result<()> {
    let rules = rules_for(choice)?;
    let v = rules.variant();
    if count {
        println!("{} start positions", v.short());
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
    let (id, sp) = match chosen_start(&rules, choice)? {
        Some(s) => s,
        // a variant with one start position needs no choice
        None if choice.start_choice().is_none() && setup::count(v) == 1 => {
            (0, setup::from_id(v, 0).map_err(|e| anyhow!(e))?)
        }
        None => bail!(
            "choose a start position with --id, --setup or --random (or use --count / --list)"
        ),
    };
    let fen = setup::start_fen(v, &sp);
    let pos = Position::from_start(&rules, &sp).map_err(|e| anyhow!("{e}"))?;
    print!("{}", pos.diagram(&rules));
    println!("id: {id}");
    println!("setup: {}", setup::back_rank_string(v, &sp));
    println!("{fen}");

    Ok(())
}

fn main() {
    cli::pipe::install();
    let cli = Cli::parse();
    if let Err(e) = run(cli) {
        if cli::pipe::is_broken_pipe(&e) {
            return;
        }
        eprintln!("error: {e:#}");
        std::process::exit(1);
    }
}
