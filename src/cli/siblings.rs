//! `tune --siblings FILE`: fit how the evaluation ranks the quiet moves of one position
//! against a reference engine's static evaluation (the library's `fit_siblings` says why).
//!
//! FILE holds parent positions, one FEN a line (`tune --search-positions` writes such a
//! file). With `--score-with` every legal quiet child of every parent is scored by that
//! engine's static evaluation (its `eval` command) and the labelled children are kept in
//! `FILE.siblings`, one `family|FEN|cp` line each (cp from White's side), which a later fit
//! reads without the engine.

use super::label::Labeller;
use super::tune::{write_weights, TuneArgs};
use anyhow::{anyhow, bail, Context, Result};
use modern_chess::engine::tune::{self, Sibling, SiblingConfig};
use modern_chess::engine::Evaluator;
use modern_chess::{Position, Rules};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Reference scores beyond this (centipawns) are left out: a won or lost position says
/// little about how quiet moves compare.
const MAX_CP: i32 = 1500;

/// Where the labelled children of a parents file are kept: `FILE.siblings`.
fn cache_path(file: &Path) -> PathBuf {
    let mut s = file.as_os_str().to_owned();
    s.push(".siblings");
    PathBuf::from(s)
}

/// Runs the sibling fit of `a.siblings` and writes the weights.
pub fn run(a: &TuneArgs, rules: &Arc<Rules>, file: &Path) -> Result<()> {
    let start = modern_chess::engine::weights::for_variant(rules).map_err(|e| anyhow!("{e}"))?;
    let cache = cache_path(file);
    if let Some(cmd) = &a.score_with {
        label_children(rules, file, &cache, cmd)?;
    } else if !cache.exists() {
        bail!(
            "{} not found: give --score-with ENGINE to label the children of {}",
            cache.display(),
            file.display()
        );
    }
    let eval = Evaluator::new(rules, start.clone());
    let sibs = read_labelled(rules, &eval, &cache)?;
    let cfg = SiblingConfig {
        within_weight: a.within_weight,
        ridge: a.ridge,
        holdout: a.holdout,
    };
    if !(cfg.within_weight >= 0.0 && cfg.ridge > 0.0) {
        bail!("--within-weight must be at least 0 and --ridge above 0");
    }
    let Some((tuned, r)) = tune::fit_siblings(&start, &sibs, &cfg) else {
        bail!("the sibling fit found nothing to fit (too few families, or no spread)");
    };
    eprintln!(
        "siblings: {} families, {} children; reference scale {:.2} of ours\n\
         siblings: held-out correlation over all children {:.4} -> {:.4}, within families {:.4} -> {:.4}",
        r.families, r.children, r.scale, r.before.0, r.after.0, r.before.1, r.after.1
    );
    let header = format!(
        "Evaluation weights for {} written by `modern-chess tune --siblings`\n{} families, {} children; within weight {}, ridge {}; held-out correlation all {:.4} -> {:.4}, within families {:.4} -> {:.4}",
        rules.variant().name(), r.families, r.children, cfg.within_weight, cfg.ridge,
        r.before.0, r.after.0, r.before.1, r.after.1
    );
    write_weights(a, rules, &tuned, &header)
}

/// Scores every quiet child of every parent in `file` with `cmd`'s static evaluation and
/// writes them to `cache`.
fn label_children(rules: &Arc<Rules>, file: &Path, cache: &Path, cmd: &str) -> Result<()> {
    let text =
        std::fs::read_to_string(file).with_context(|| format!("cannot read {}", file.display()))?;
    let mut labeller = Labeller::start(cmd, rules, 0)?;
    let mut out = String::new();
    let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
    for (family, line) in lines.iter().enumerate() {
        let fen = line.split('|').next().unwrap_or("").trim();
        let parent = Position::from_fen(rules, fen)
            .map_err(|e| anyhow!("{} line {}: {e}", file.display(), family + 1))?;
        for child in tune::quiet_children(rules, &parent) {
            if let Some(cp) = labeller.score(rules, &child)? {
                out.push_str(&format!("{family}|{}|{cp}\n", child.fen_six(rules)));
            }
        }
        if (family + 1) % 500 == 0 || family + 1 == lines.len() {
            eprintln!("siblings: {}/{} parents labelled", family + 1, lines.len());
        }
    }
    std::fs::write(cache, out).with_context(|| format!("cannot write {}", cache.display()))?;
    eprintln!("siblings: labelled children written to {}", cache.display());
    Ok(())
}

/// The children of a `family|FEN|cp` file, as samples of `eval`'s terms.
fn read_labelled(rules: &Rules, eval: &Evaluator, cache: &Path) -> Result<Vec<Sibling>> {
    let text = std::fs::read_to_string(cache)
        .with_context(|| format!("cannot read {}", cache.display()))?;
    let mut sibs = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let bad = || anyhow!("{} line {}: expected family|FEN|cp", cache.display(), i + 1);
        let mut parts = line.split('|');
        let (Some(f), Some(fen), Some(cp), None) =
            (parts.next(), parts.next(), parts.next(), parts.next())
        else {
            return Err(bad());
        };
        let family: usize = f.trim().parse().map_err(|_| bad())?;
        let cp: i32 = cp.trim().parse().map_err(|_| bad())?;
        let pos = Position::from_fen(rules, fen.trim())
            .map_err(|e| anyhow!("{} line {}: {e}", cache.display(), i + 1))?;
        if cp.abs() >= MAX_CP || pos.in_check(rules) {
            continue;
        }
        let sample = tune::sample(rules, eval, &pos, 0.5);
        sibs.push(Sibling {
            family,
            sample,
            cp: cp as f64,
        });
    }
    Ok(sibs)
}
