//! `modern-chess tune-net`: train the network that corrects a variant's evaluation, from
//! games whose positions another engine has scored (`tune --score-with ENGINE --score-depth
//! 0 --save-games F` writes them: `F` and `F.scores`).

use anyhow::{anyhow, bail, Context, Result};
use clap::Args;
use modern_chess::engine::network::Network;
use modern_chess::engine::tune::net::{self, NetFitConfig, NetSample};
use modern_chess::engine::tune::quiet_leaf;
use modern_chess::engine::{weights, Evaluator};
use modern_chess::pgn;
use modern_chess::{Position, Rules};
use std::path::PathBuf;
use std::time::Instant;

#[derive(Args)]
pub struct TuneNetArgs {
    /// Variant file (or short name of a built-in one)
    #[arg(long, short = 'v', default_value = "mrc")]
    pub variant: String,
    /// PGN files with scores beside them (`F.scores`, as `tune --save-games` writes)
    #[arg(long = "pgn", value_name = "FILE", required = true)]
    pub pgn: Vec<PathBuf>,
    /// Where to write the network
    #[arg(long)]
    pub out: PathBuf,
    /// Hidden units per side
    #[arg(long, default_value_t = 32)]
    pub hidden: usize,
    /// Most passes over the samples (it stops earlier when the held-out loss stops falling)
    #[arg(long, default_value_t = 40)]
    pub epochs: usize,
    /// Adam's step size
    #[arg(long, default_value_t = 0.002)]
    pub lr: f32,
    /// Hold out every Nth game to check the fit on (at least 2)
    #[arg(long, default_value_t = 10)]
    pub holdout: usize,
    /// Seed of the initial weights and the sample order
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
}

/// One scored quiet position: the game it came from, the leaf, and the score for White.
struct Scored {
    game: usize,
    leaf: Position,
    label: f32,
}

pub fn run(a: TuneNetArgs) -> Result<()> {
    if a.holdout < 2 {
        bail!("--holdout must be at least 2");
    }
    let rules = super::common::load_rules_for_engine(&a.variant)?;
    let w = weights::for_variant(&rules).map_err(|e| anyhow!("{e}"))?;
    // The terms alone, as when the positions were scored: the same quiet leaves.
    let eval = Evaluator::new(&rules, w);
    let t0 = Instant::now();
    let mut scored = Vec::new();
    for path in &a.pgn {
        read_scored(&rules, &eval, path, &mut scored)?;
    }
    if scored.is_empty() {
        bail!("no scored positions: run `tune --score-with ENGINE --score-depth 0 --save-games F` first");
    }
    let pairs: Vec<(f32, f32)> = scored
        .iter()
        .map(|s| (white_terms(&rules, &eval, &s.leaf), s.label))
        .collect();
    let scale = net::label_scale(&pairs);
    let shape = Network::new(&rules, a.hidden, &mut || 0.0);
    let (mut train, mut valid): (Vec<NetSample>, Vec<NetSample>) = (Vec::new(), Vec::new());
    for s in &scored {
        let both = net::net_samples(&rules, &eval, &shape, &s.leaf, s.label, scale);
        let into = if s.game % a.holdout == 0 {
            &mut valid
        } else {
            &mut train
        };
        into.extend(both);
    }
    eprintln!(
        "tune-net: {} positions ({} training samples with mirror images, {} held out), label scale {scale:.3}, {:.0} s",
        scored.len(),
        train.len(),
        valid.len(),
        t0.elapsed().as_secs_f64()
    );
    let cfg = NetFitConfig {
        hidden: a.hidden,
        epochs: a.epochs,
        lr: a.lr,
        seed: a.seed,
        ..NetFitConfig::default()
    };
    let (network, report) = net::fit_network(&rules, &mut train, &valid, &cfg, &mut |e, t, v| {
        eprintln!("epoch {e}: training loss {t:.5}, held-out loss {v:.5}");
    });
    println!(
        "held-out loss {:.5} -> {:.5} (best epoch {}), error {:.0} -> {:.0} cp rms",
        report.start_loss, report.best_loss, report.best_epoch, report.rms_cp.0, report.rms_cp.1
    );
    std::fs::write(&a.out, network.to_bytes())
        .with_context(|| format!("cannot write {}", a.out.display()))?;
    println!("wrote {}", a.out.display());
    Ok(())
}

/// The terms' score of `pos` for White.
fn white_terms(rules: &Rules, eval: &Evaluator, pos: &Position) -> f32 {
    let s = eval.evaluate_terms(rules, pos) as f32;
    if pos.side_to_move() == modern_chess::Colour::White {
        s
    } else {
        -s
    }
}

/// The scored quiet positions of one PGN file and its scores file.
fn read_scored(
    rules: &Rules,
    eval: &Evaluator,
    path: &PathBuf,
    out: &mut Vec<Scored>,
) -> Result<()> {
    let text =
        std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
    let games = pgn::parse_games(&text).map_err(|e| anyhow!("{}: {e}", path.display()))?;
    let scores = super::tune::read_scores(path)?;
    if scores.len() != games.len() {
        bail!(
            "{}: {} games but {} lines of scores beside it",
            path.display(),
            games.len(),
            scores.len()
        );
    }
    let first = out.last().map_or(0, |s: &Scored| s.game + 1);
    for (i, (g, sc)) in games.iter().zip(&scores).enumerate() {
        let Some(start) =
            pgn::start_position(rules, g).map_err(|e| anyhow!("game {}: {e}", i + 1))?
        else {
            continue;
        };
        let game = match pgn::replay(rules, start, &g.moves, &mut |_, _, _| {}) {
            Ok(game) => game,
            Err(e) => {
                eprintln!("{} game {}: skipped: {e}", path.display(), i + 1);
                continue;
            }
        };
        for (pos, label) in game.positions().iter().zip(sc) {
            let Some(label) = label else { continue };
            if let Some((_, leaf)) = quiet_leaf(rules, eval, pos) {
                out.push(Scored {
                    game: first + i,
                    leaf,
                    label: *label as f32,
                });
            }
        }
    }
    Ok(())
}
