//! `tune --search-positions` and `tune --positions`: learning from the positions the search
//! evaluates instead of the positions games pass through.
//!
//! A game's positions are the few the players chose; the evaluation is asked about the
//! hundreds of thousands the search looks at, most of them after a poor move. Weights fitted
//! to a reference engine's evaluation of game positions can stay far from it there (the
//! thirty-sixth session measured a held-out loss 23% lower in PMRC after fitting search
//! positions instead). So `--search-positions FILE` plays self-play games and writes a sample
//! of the positions their searches evaluate, one FEN a line; `--positions FILE` fits them,
//! each line `FEN|cp` (centipawns from White's side, a reference engine's evaluation) or a
//! bare FEN that `--score-with` labels (its labels are kept in `FILE.scores` for later fits).

use super::label::{Labeller, SCORE_CAP};
use super::tune::{scores_path, TuneArgs};
use anyhow::{anyhow, bail, Context, Result};
use modern_chess::engine::tune::{self, SelfPlay};
use modern_chess::engine::weights::Weights;
use modern_chess::engine::{Engine, Evaluator, ExternalEval, Limits};
use modern_chess::{Position, Rules};
use std::io::Write;
use std::path::Path;
use std::sync::{Arc, Mutex};

/// Positions per hold-out group: consecutive lines come from one game, so whole groups, not
/// single positions, are held out.
const GROUP: usize = 1000;

/// Keeps a pseudo-random share of the positions it is asked to evaluate and leaves the
/// evaluation itself to the engine's own (it answers None).
struct Recorder {
    per_mille: u64,
    state: Mutex<(u64, Vec<String>)>,
}

impl ExternalEval for Recorder {
    fn evaluate(&self, rules: &Rules, pos: &Position) -> Option<i32> {
        let mut s = self.state.lock().unwrap_or_else(|e| e.into_inner());
        s.0 ^= s.0 << 13;
        s.0 ^= s.0 >> 7;
        s.0 ^= s.0 << 17;
        if s.0 % 1000 < self.per_mille {
            s.1.push(pos.fen_six(rules));
        }
        None
    }
}

/// Plays `a.games` self-play games at `a.nodes` a move and writes `a.sample_per_mille` per
/// mille of the positions the searches evaluate to `out`.
pub fn write_search_positions(
    a: &TuneArgs,
    rules: &Arc<Rules>,
    start_w: &Weights,
    out: &Path,
) -> Result<()> {
    if a.games == 0 || !(1..=1000).contains(&a.sample_per_mille) {
        bail!("--search-positions needs --games N (N > 0) and --sample-per-mille in 1..1000");
    }
    let mut file =
        std::fs::File::create(out).with_context(|| format!("cannot write {}", out.display()))?;
    let rec = Arc::new(Recorder {
        per_mille: a.sample_per_mille,
        state: Mutex::new((a.seed | 1, Vec::new())),
    });
    let mut engines = [0, 1].map(|_| {
        let mut e = Engine::with_weights(Arc::clone(rules), 16, start_w.clone());
        e.set_external_eval(Some(rec.clone()));
        e
    });
    let cfg = SelfPlay {
        games: a.games,
        nodes_per_move: a.nodes.max(1),
        seed: a.seed,
        random_plies: a.random_plies,
        max_plies: 300,
    };
    let limits = Limits {
        nodes: Some(cfg.nodes_per_move),
        ..Limits::default()
    };
    let (mut rng, mut written) = (a.seed, 0);
    for g in 0..a.games {
        let [e1, e2] = &mut engines;
        e1.clear();
        e2.clear();
        let start = tune::random_start(rules, &mut rng);
        tune::play_game(rules, [e1, e2], start, &limits, &cfg, &mut rng);
        let fens = std::mem::take(&mut rec.state.lock().unwrap_or_else(|e| e.into_inner()).1);
        for f in &fens {
            writeln!(file, "{f}").with_context(|| format!("cannot write {}", out.display()))?;
        }
        written += fens.len();
        if (g + 1) % (a.games / 20).max(1) == 0 || g + 1 == a.games {
            eprintln!(
                "search positions: {}/{} games, {written} positions",
                g + 1,
                a.games
            );
        }
    }
    println!(
        "wrote {written} positions to {}; label and fit them with `tune --positions {} --score-with ENGINE --score-depth 0 --games 0`",
        out.display(),
        out.display()
    );
    Ok(())
}

/// One line of a positions file: the FEN and, when given, its score.
fn parse_line(line: &str) -> Option<(&str, Option<&str>)> {
    let line = line.trim();
    if line.is_empty() || line.starts_with('#') {
        return None;
    }
    Some(match line.rsplit_once('|') {
        Some((fen, cp)) => (fen.trim(), Some(cp.trim())),
        None => (line, None),
    })
}

/// The samples of a positions file, in groups of consecutive lines. Each sample's target is
/// the win probability its score stands for (sigmoid of cp / 400; the fit's K scales our
/// evaluation to it). Positions in check and unscored lines are skipped.
pub fn position_samples(
    rules: &Rules,
    eval: &Evaluator,
    path: &Path,
    mut labeller: Option<&mut Labeller>,
    out: &mut Vec<Vec<tune::Sample>>,
) -> Result<usize> {
    let text =
        std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
    // Labelling again replaces the kept labels, so they are only read when not labelling.
    let stored = match labeller {
        Some(_) => Vec::new(),
        None => read_stored_scores(path, &text)?,
    };
    let mut written = Vec::new();
    let mut group = Vec::new();
    let mut n = 0;
    for (i, line) in text.lines().enumerate() {
        let Some((fen, cp)) = parse_line(line) else {
            continue;
        };
        let pos = Position::from_fen(rules, fen)
            .map_err(|e| anyhow!("{} line {}: {e}", path.display(), i + 1))?;
        let score =
            match (cp, labeller.as_deref_mut()) {
                (Some(cp), _) => Some(cp.parse::<i32>().map_err(|_| {
                    anyhow!("{} line {}: not a score: {cp:?}", path.display(), i + 1)
                })?),
                (None, Some(l)) => {
                    let s = l.score(rules, &pos)?;
                    written.push(s);
                    s
                }
                (None, None) => stored.get(i).copied().flatten(),
            };
        if let Some(cp) = score.filter(|_| !pos.in_check(rules)) {
            let cp = cp.clamp(-SCORE_CAP, SCORE_CAP) as f64;
            let target = 1.0 / (1.0 + (-cp / 400.0).exp());
            group.push(tune::sample(rules, eval, &pos, target as f32));
            n += 1;
        }
        if group.len() >= GROUP {
            out.push(std::mem::take(&mut group));
        }
    }
    out.push(group);
    if labeller.is_some() {
        let file = scores_path(path);
        let text: String = written
            .iter()
            .map(|s| s.map_or("-".to_string(), |v| v.to_string()) + "\n")
            .collect();
        std::fs::write(&file, text).with_context(|| format!("cannot write {}", file.display()))?;
        eprintln!("scores written to {}", file.display());
    }
    Ok(n)
}

/// The stored labels of the lines of `path` (its `text`), by line number (bare-FEN lines
/// only), if any.
fn read_stored_scores(path: &Path, text: &str) -> Result<Vec<Option<i32>>> {
    let Ok(scores) = std::fs::read_to_string(scores_path(path)) else {
        return Ok(Vec::new());
    };
    let labels: Vec<&str> = scores.lines().collect();
    let bare = text
        .lines()
        .filter(|l| matches!(parse_line(l), Some((_, None))))
        .count();
    if labels.len() != bare {
        bail!(
            "{}: {} labels for {bare} unscored positions (label them again with --score-with)",
            scores_path(path).display(),
            labels.len()
        );
    }
    let mut labels = labels.into_iter();
    let by_line = text
        .lines()
        .map(|line| match parse_line(line) {
            Some((_, None)) => labels.next().and_then(|w| w.trim().parse().ok()),
            _ => None,
        })
        .collect();
    Ok(by_line)
}

#[cfg(test)]
mod tests {
    use super::*;
    use modern_chess::catalog;

    #[test]
    fn scored_and_stored_lines_become_samples_and_a_stale_scores_file_is_refused() {
        let rules = catalog::load_rules("mrc").unwrap();
        let eval = Evaluator::new(&rules, Weights::derived(&rules));
        let start = "nrkrnbmqb/ppppppppp/9/9/9/9/9/PPPPPPPPP/BQMBNRKRN w FHbd - 0 1";
        let dir = std::env::temp_dir().join(format!("mc-tree-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("p.fens");
        std::fs::write(&file, format!("{start}|40\n# note\n{start}\n")).unwrap();
        std::fs::write(scores_path(&file), "-25\n").unwrap();
        let mut out = Vec::new();
        let n = position_samples(&rules, &eval, &file, None, &mut out).unwrap();
        assert_eq!(n, 2);
        let targets: Vec<f32> = out.iter().flatten().map(|s| s.result).collect();
        assert!(targets[0] > 0.5 && targets[1] < 0.5, "{targets:?}");
        std::fs::write(scores_path(&file), "-25\n10\n").unwrap();
        assert!(position_samples(&rules, &eval, &file, None, &mut out).is_err());
        std::fs::write(&file, "not a fen|3\n").unwrap();
        assert!(position_samples(&rules, &eval, &file, None, &mut out).is_err());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn lines_are_a_fen_and_an_optional_score() {
        assert_eq!(
            parse_line("8/8 w - - 0 1|-35"),
            Some(("8/8 w - - 0 1", Some("-35")))
        );
        assert_eq!(parse_line(" 8/8 w - - 0 1 "), Some(("8/8 w - - 0 1", None)));
        assert_eq!(parse_line("# comment"), None);
        assert_eq!(parse_line(""), None);
    }
}
