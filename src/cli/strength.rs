//! `modern-chess bench --strength`: the engine's strength benchmark. In each variant a match
//! against another UCI engine (Fairy-Stockfish 11.1 by default), random starts each played
//! twice with colours reversed, through the same code as `modern-chess match`; then a table
//! of the score per variant and in total.

use super::bench::BenchArgs;
use super::engines::{game_line, write_fairy_ini};
use super::matchplay::{self, MatchConfig, MatchOutcome};
use anyhow::{anyhow, bail, Context, Result};
use std::io::Write;
use std::sync::Arc;

/// The variants the benchmark plays unless `--variants` names others: the seed variants.
pub const DEFAULT_VARIANTS: [&str; 5] = ["mrc", "mrc64", "merc", "icrc", "pmrc"];

/// One variant's line of the table.
struct Row {
    variant: String,
    games: usize,
    points: f64,
    wins: usize,
    draws: usize,
}

impl Row {
    fn of(variant: &str, outcome: &MatchOutcome) -> Row {
        let (points, _) = outcome.score();
        let wins = outcome
            .games
            .iter()
            .filter(|g| g.result == ["1-0", "0-1"][g.our_colour])
            .count();
        let draws = outcome
            .games
            .iter()
            .filter(|g| g.result == "1/2-1/2")
            .count();
        Row {
            variant: variant.to_string(),
            games: outcome.games.len(),
            points,
            wins,
            draws,
        }
    }

    fn line(&self) -> String {
        let losses = self.games - self.wins - self.draws;
        let pct = 100.0 * self.points / (self.games.max(1) as f64);
        format!(
            "{:<8} {:>5} {:>6.1} {:>4} {:>4} {:>4} {:>6.1}%",
            self.variant, self.games, self.points, self.wins, self.draws, losses, pct
        )
    }
}

/// Plays every variant's match and prints the table.
pub fn run(args: &BenchArgs) -> Result<()> {
    if args.games_per_variant == 0 {
        bail!("--games-per-variant must be at least 1");
    }
    let variants: Vec<String> = if args.variants.is_empty() {
        DEFAULT_VARIANTS.iter().map(|s| s.to_string()).collect()
    } else {
        args.variants.clone()
    };
    let mut pgn = match &args.pgn {
        Some(p) => Some(
            std::fs::File::create(p).with_context(|| format!("cannot write {}", p.display()))?,
        ),
        None => None,
    };
    let threads = args.threads.unwrap_or(1);
    super::engines::check_threads(threads).map_err(|e| anyhow!("--threads: {e}"))?;
    let ms = format!("{} ms a move", args.movetime);
    let mut ours = work_label(args.depth, args.nodes, &ms);
    if threads > 1 {
        ours.push_str(&format!(" on {threads} threads"));
    }
    let theirs = work_label(args.engine_depth, args.engine_nodes, &ms);
    println!(
        "Strength benchmark: {} games per variant, ours at {ours}, against `{}` at {theirs}, seed {}",
        args.games_per_variant, args.engine, args.seed
    );
    let mut rows = Vec::new();
    for v in &variants {
        let rules = Arc::new(super::common::load_rules_for_engine(v)?);
        // Not removed afterwards: the file is shared with other runs (see `write_fairy_ini`).
        let cfg = MatchConfig {
            engine: args.engine.clone(),
            fairy_ini: write_fairy_ini(&rules)?,
            games: args.games_per_variant,
            movetime_ms: args.movetime,
            depth: args.depth,
            engine_depth: args.engine_depth,
            nodes: args.nodes,
            engine_nodes: args.engine_nodes,
            seed: args.seed,
            contempt: args.contempt,
            threads,
            eval_with: args.eval_with.clone().map(|c| (c, args.eval_scale)),
            ..MatchConfig::default()
        };
        let mut write_error = None;
        let outcome = matchplay::play_match(Arc::clone(&rules), &cfg, &mut |g, white, black| {
            eprintln!("{v} {}", game_line(g, white, black));
            if let Some(f) = pgn.as_mut() {
                let text = matchplay::game_pgn(&rules, g, white, black);
                if let Err(e) = f.write_all(text.as_bytes()).and_then(|_| f.flush()) {
                    write_error.get_or_insert(e);
                }
            }
        });
        if let Some(e) = write_error {
            bail!("cannot write the PGN file: {e}");
        }
        let outcome = outcome.with_context(|| format!("the {v} match"))?;
        eprintln!("{v}: {}", outcome.score_line());
        rows.push(Row::of(v, &outcome));
    }
    print_table(&rows);
    Ok(())
}

/// How much one side searches a move, for the header: a depth, a node count, or the time.
fn work_label(depth: Option<u32>, nodes: Option<u64>, time: &str) -> String {
    match (depth, nodes) {
        (Some(d), Some(n)) => format!("depth {d} or {n} nodes"),
        (Some(d), None) => format!("depth {d}"),
        (None, Some(n)) => format!("{n} nodes"),
        (None, None) => time.to_string(),
    }
}

fn print_table(rows: &[Row]) {
    println!("Variant  Games  Score    +    =    -  Score%");
    for r in rows {
        println!("{}", r.line());
    }
    let total = Row {
        variant: "total".into(),
        games: rows.iter().map(|r| r.games).sum(),
        points: rows.iter().map(|r| r.points).sum(),
        wins: rows.iter().map(|r| r.wins).sum(),
        draws: rows.iter().map(|r| r.draws).sum(),
    };
    println!("{}", total.line());
}
