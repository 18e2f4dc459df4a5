//! `modern-chess tune`: learn evaluation weights for a variant (Texel's method) and write
//! the weights file its `[engine] weights` names.

use anyhow::{anyhow, bail, Context, Result};
use clap::Args;
use modern_chess::catalog;
use modern_chess::engine::tune::{self, SelfPlay};
use modern_chess::engine::weights::{self, Weights};
use modern_chess::engine::{Evaluator, Limits};
use modern_chess::pgn;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Instant;

#[derive(Args)]
pub struct TuneArgs {
    /// Variant file (or short name of a built-in one)
    #[arg(long, short = 'v', default_value = "mrc")]
    pub variant: String,
    /// Self-play games to learn from (0: only the PGN files)
    #[arg(long, default_value_t = 200)]
    pub games: usize,
    /// Search nodes per move in the self-play games
    #[arg(long, default_value_t = 2000)]
    pub nodes: u64,
    /// PGN files of games in this variant to learn from as well
    #[arg(long = "pgn", value_name = "FILE")]
    pub pgn: Vec<PathBuf>,
    /// Threads playing self-play games
    #[arg(long, default_value_t = 2)]
    pub threads: usize,
    /// Gradient steps of the fit
    #[arg(long, default_value_t = 400)]
    pub epochs: usize,
    /// Where to write the weights (default: the file the variant's [engine] weights names,
    /// or VARIANT.weights.toml beside the variant file)
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Then play this many colour-reversed pairs, tuned against the derived weights
    #[arg(long, default_value_t = 0)]
    pub verify: usize,
    /// Time per move in the verification games (ms)
    #[arg(long, default_value_t = 50)]
    pub verify_movetime: u64,
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
}

pub fn run(a: TuneArgs) -> Result<()> {
    let rules = Arc::new(catalog::load_rules(&a.variant).map_err(|e| anyhow!("{e}"))?);
    if a.games == 0 && a.pgn.is_empty() {
        bail!("nothing to learn from: give --games N or --pgn FILE");
    }
    let start_w = weights::for_variant(&rules).map_err(|e| anyhow!("{e}"))?;
    let derived = Weights::derived(&rules);
    let eval = Evaluator::new(&rules, start_w.clone());
    let mut samples = Vec::new();
    for path in &a.pgn {
        let n = pgn_samples(&rules, &eval, path, &mut samples)?;
        eprintln!("{}: {n} positions", path.display());
    }
    if a.games > 0 {
        let t = Instant::now();
        let cfg = SelfPlay {
            games: a.games,
            nodes_per_move: a.nodes.max(1),
            seed: a.seed,
            random_plies: 6,
            max_plies: 300,
        };
        let total = a.games;
        let games = tune::self_play(&rules, &start_w, &cfg, a.threads, &|done| {
            if done % 10 == 0 || done == total {
                eprintln!("self-play: {done}/{total} games");
            }
        });
        for (g, r) in &games {
            samples.extend(tune::samples_from_game(&rules, &eval, g, *r));
        }
        eprintln!(
            "self-play: {} games, {:.0} s",
            games.len(),
            t.elapsed().as_secs_f64()
        );
    }
    if samples.is_empty() {
        bail!("the games gave no positions to learn from");
    }
    let t = Instant::now();
    let (tuned, report) = tune::fit(&start_w, &samples, a.epochs);
    eprintln!(
        "fit: {} positions, K {:.2}, loss {:.5} -> {:.5}, {:.0} s",
        samples.len(),
        report.k,
        report.loss_before,
        report.loss_after,
        t.elapsed().as_secs_f64()
    );
    let out = a
        .out
        .clone()
        .unwrap_or_else(|| default_out(&rules, &a.variant));
    let header = format!(
        "Evaluation weights for {} written by `modern-chess tune`\n{} self-play games at {} nodes a move, {} PGN file(s), {} positions, loss {:.5} -> {:.5}",
        rules.variant().name(), a.games, a.nodes, a.pgn.len(), samples.len(), report.loss_before, report.loss_after
    );
    std::fs::write(&out, tuned.to_toml(&rules, &header))
        .with_context(|| format!("cannot write {}", out.display()))?;
    println!("wrote {}", out.display());
    if rules.variant().engine().weights.is_none() {
        let name = out
            .file_name()
            .map(|n| n.to_string_lossy().to_string())
            .unwrap_or_default();
        println!("add to the variant file:\n[engine]\nweights = \"{name}\"");
    }
    if a.verify > 0 {
        let limits = Limits::movetime(a.verify_movetime);
        let (p, n) = tune::compare(&rules, &tuned, &derived, a.verify, &limits, a.seed ^ 0xabc);
        println!("tuned vs derived: {p} / {n} ({:.0}%)", 100.0 * p / n as f32);
    }
    Ok(())
}

fn default_out(rules: &modern_chess::Rules, spec: &str) -> PathBuf {
    if let Some(p) = weights::weights_path(rules) {
        if !rules.variant().origin().starts_with("<built-in") {
            return p;
        }
    }
    let stem = std::path::Path::new(spec)
        .file_stem()
        .map(|s| s.to_string_lossy().to_string())
        .unwrap_or_else(|| "variant".into());
    let base = std::path::Path::new(&rules.variant().origin())
        .parent()
        .filter(|_| !rules.variant().origin().starts_with("<built-in"))
        .map(PathBuf::from)
        .unwrap_or_default();
    base.join(
        rules
            .variant()
            .engine()
            .weights
            .clone()
            .unwrap_or(format!("{stem}.weights.toml")),
    )
}

fn pgn_samples(
    rules: &modern_chess::Rules,
    eval: &Evaluator,
    path: &PathBuf,
    out: &mut Vec<tune::Sample>,
) -> Result<usize> {
    let text =
        std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
    let games = pgn::parse_games(&text).map_err(|e| anyhow!("{}: {e}", path.display()))?;
    let before = out.len();
    for (i, g) in games.iter().enumerate() {
        let result = match g.result.as_deref().or(g.tag("Result")) {
            Some("1-0") => 1.0,
            Some("0-1") => 0.0,
            Some("1/2-1/2") => 0.5,
            _ => continue,
        };
        let Some(start) =
            pgn::start_position(rules, g).map_err(|e| anyhow!("game {}: {e}", i + 1))?
        else {
            continue;
        };
        match pgn::replay(rules, start, &g.moves, &mut |_, _, _| {}) {
            Ok(game) => out.extend(tune::samples_from_game(rules, eval, &game, result)),
            Err(e) => eprintln!("{} game {}: skipped: {e}", path.display(), i + 1),
        }
    }
    Ok(out.len() - before)
}
