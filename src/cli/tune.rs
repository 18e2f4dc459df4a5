//! `modern-chess tune`: learn evaluation weights for a variant (Texel's method) and write
//! the weights file its `[engine] weights` names.

use super::label::Labeller;
use anyhow::{anyhow, bail, Context, Result};
use clap::Args;
use modern_chess::catalog;
use modern_chess::engine::tune::{self, FitConfig, SelfPlay, Verify, OPENING_PLIES};
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
    #[arg(long, default_value_t = 600)]
    pub games: usize,
    /// Search nodes per move in the self-play games
    #[arg(long, default_value_t = 1000)]
    pub nodes: u64,
    /// Random opening plies of each self-play game (so the games differ)
    #[arg(long, default_value_t = 8)]
    pub random_plies: usize,
    /// PGN files of games in this variant to learn from as well
    #[arg(long = "pgn", value_name = "FILE")]
    pub pgn: Vec<PathBuf>,
    /// Positions to learn from as well: a file of lines `FEN|cp` (centipawns from White's
    /// side, a reference engine's evaluation), or bare FENs for --score-with to label (its
    /// labels are kept in FILE.scores for later fits); targets are the scores alone
    #[arg(long = "positions", value_name = "FILE")]
    pub positions: Vec<PathBuf>,
    /// Instead of fitting: play --games self-play games at --nodes a move and write a sample
    /// of the positions their searches evaluate to FILE, one FEN a line (for --positions)
    #[arg(long, value_name = "FILE")]
    pub search_positions: Option<PathBuf>,
    /// Instead of a Texel fit: fit how the evaluation ranks the quiet moves of the parent
    /// positions in FILE (one FEN a line) against a reference engine's static evaluation of
    /// each child (--score-with labels them once into FILE.siblings; later fits read that)
    #[arg(long, value_name = "FILE")]
    pub siblings: Option<PathBuf>,
    /// With --siblings: weight of the error among one position's children against the error
    /// of the families' means
    #[arg(long, default_value_t = 3.0)]
    pub within_weight: f64,
    /// With --siblings: pull towards the starting weights (ridge, per squared centipawn)
    #[arg(long, default_value_t = 1000.0)]
    pub ridge: f64,
    /// With --search-positions: how many of every thousand evaluated positions are written
    #[arg(long, default_value_t = 15)]
    pub sample_per_mille: u64,
    /// Threads playing self-play and verification games
    #[arg(long, default_value_t = 2)]
    pub threads: usize,
    /// Hold out every Nth game to check the fit on (0: none, no early stopping)
    #[arg(long, default_value_t = 5)]
    pub holdout: usize,
    /// Most gradient steps of the fit (it stops earlier when the held-out loss stops falling)
    #[arg(long, default_value_t = 1500)]
    pub epochs: usize,
    /// Pull towards the starting weights, in pseudo-positions (0: none)
    #[arg(long, default_value_t = 2000.0)]
    pub prior: f64,
    /// Share of the way to each parameter's own minimum moved per step of the fit
    #[arg(long, default_value_t = 0.1)]
    pub lr: f64,
    /// Weight of the game result in the target (1: results only, Texel's method; below 1,
    /// blended with the self-play search's score of the position: lambda * result +
    /// (1 - lambda) * sigmoid(K * score / 400)); PGN positions have no score and keep results
    #[arg(long, default_value_t = 1.0)]
    pub lambda: f64,
    /// Score every position of the games with this UCI engine (a program and its arguments,
    /// e.g. /usr/games/fairy-stockfish) and learn from its scores: use with --lambda 0 (its
    /// scores alone) or a blend. The scores of a PGN file F are written to F.scores, which a
    /// later fit reads without this option
    #[arg(long, value_name = "CMD")]
    pub score_with: Option<String>,
    /// Search depth of --score-with's engine per position; 0: no search, the engine's static
    /// evaluation (its `eval` command) of the quiet position each sample is taken at
    #[arg(long, default_value_t = 7)]
    pub score_depth: u32,
    /// Print the training and held-out loss every this many epochs (0: never)
    #[arg(long, default_value_t = 0)]
    pub trace: usize,
    /// Only fit these term groups (comma-separated name prefixes: material, centre, rank, file,
    /// square, mobility, king, pawn, passed, threat, tempo); default all
    #[arg(long, value_delimiter = ',')]
    pub terms: Vec<String>,
    /// Fit every term at once instead of material first, then everything
    #[arg(long)]
    pub single_phase: bool,
    /// Parameters in fewer than this share of the training positions are not moved
    #[arg(long, default_value_t = 0.01)]
    pub min_share: f64,
    /// Also write the self-play games to this PGN file (to fit again later with --pgn)
    #[arg(long, value_name = "FILE")]
    pub save_games: Option<PathBuf>,
    /// Where to write the weights (default: the file the variant's [engine] weights names,
    /// or VARIANT.weights.toml beside the variant file)
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Learn to choose the moves of these PGN games instead (a stronger engine's games, say):
    /// every recorded move's position is fitted to evaluate above the other legal moves'
    /// (needs --games 0 and no --pgn)
    #[arg(long, value_name = "FILE")]
    pub imitate: Vec<PathBuf>,
    /// With --imitate: learn only the moves of the player whose White or Black tag contains
    /// NAME (the stronger engine of match records); every move when not given
    #[arg(long, value_name = "NAME")]
    pub teacher: Option<String>,
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
    if !a.imitate.is_empty() {
        return super::imitate::run(&a, &rules);
    }
    if a.teacher.is_some() {
        bail!("--teacher names whose moves --imitate learns: give --imitate FILE too");
    }
    if let Some(file) = &a.siblings {
        return super::siblings::run(&a, &rules, file);
    }
    if let Some(out) = &a.search_positions {
        let start_w = weights::for_variant(&rules).map_err(|e| anyhow!("{e}"))?;
        return super::tree_positions::write_search_positions(&a, &rules, &start_w, out);
    }
    if a.games == 0 && a.pgn.is_empty() && a.positions.is_empty() {
        bail!("nothing to learn from: give --games N, --pgn FILE or --positions FILE");
    }
    if !(a.prior >= 0.0 && (0.0..1.0).contains(&a.min_share)) {
        bail!("--prior must be at least 0 and --min-share in 0..1");
    }
    if !(0.0..=1.0).contains(&a.lambda) {
        bail!("--lambda must be in 0..1");
    }
    let start_w = weights::for_variant(&rules).map_err(|e| anyhow!("{e}"))?;
    let derived = Weights::derived(&rules);
    let games = collect_games(&a, &rules, &start_w)?;
    let n_games = games.len();
    let (mut train, mut valid) = tune::split_by_game(games, a.holdout);
    if train.is_empty() {
        bail!("the games gave no positions to learn from");
    }
    if a.lambda < 1.0 {
        let k = tune::blend_targets(&start_w, &mut train, &mut valid, a.lambda);
        eprintln!(
            "fit: targets blended, lambda {}, K {k:.2} from the results",
            a.lambda
        );
    }
    let t = Instant::now();
    let cfg = FitConfig {
        epochs: a.epochs,
        lr: a.lr,
        prior: a.prior,
        min_share: a.min_share,
        movable: movable(&a.terms, &start_w.layout.names(&rules))?,
        ..FitConfig::default()
    };
    let (tuned, r) = if a.single_phase {
        tune::fit(&start_w, &train, &valid, &cfg)
    } else {
        tune::fit_staged(&start_w, &train, &valid, &cfg)
    };
    for (e, (lt, lv)) in r.history.iter().enumerate() {
        if a.trace > 0 && e % a.trace == 0 {
            eprintln!("fit: epoch {e}: training loss {lt:.5}, held-out {lv:.5}");
        }
    }
    eprintln!(
        "fit: {} games, {} training positions, {} held out; K {:.2}; {} parameters free\n\
         fit: training loss {:.5} -> {:.5}, held-out loss {:.5} -> {:.5} (after material: {:.5}; \
         best epoch {} of {}), {:.0} s",
        n_games,
        train.len(),
        valid.len(),
        r.k,
        r.free,
        r.loss_before,
        r.loss_after,
        r.valid_before,
        r.valid_after,
        r.first_phase,
        r.best_epoch,
        r.epochs_run,
        t.elapsed().as_secs_f64()
    );
    if r.best_epoch == 0 {
        eprintln!(
            "fit: no step improved the held-out loss; the weights written are the start weights"
        );
    }
    let header = format!(
        "Evaluation weights for {} written by `modern-chess tune`\n{} self-play games at {} nodes a move, {} PGN file(s), {} positions file(s), {} + {} held-out positions, loss {:.5} -> {:.5}, held-out {:.5} -> {:.5}",
        rules.variant().name(), a.games, a.nodes, a.pgn.len(), a.positions.len(), train.len(), valid.len(),
        r.loss_before, r.loss_after, r.valid_before, r.valid_after
    );
    write_weights(&a, &rules, &tuned, &header)?;
    if a.verify > 0 {
        verify(&a, &rules, &tuned, &derived);
    }
    Ok(())
}

/// Writes the fitted weights where `--out` or the variant says, and says how to use them.
pub(super) fn write_weights(
    a: &TuneArgs,
    rules: &modern_chess::Rules,
    tuned: &Weights,
    header: &str,
) -> Result<()> {
    let out = a
        .out
        .clone()
        .unwrap_or_else(|| default_out(rules, &a.variant));
    std::fs::write(&out, tuned.to_toml(rules, header))
        .with_context(|| format!("cannot write {}", out.display()))?;
    println!("wrote {}", out.display());
    if rules.variant().engine().weights.is_none() {
        let name = out
            .file_name()
            .map(|n| n.to_string_lossy().to_string())
            .unwrap_or_default();
        println!("add to the variant file:\n[engine]\nweights = \"{name}\"");
    }
    Ok(())
}

/// The samples of every game to learn from, by game: the PGN files', then the self-play
/// games', each position scored by `--score-with`'s engine when one is named.
fn collect_games(
    a: &TuneArgs,
    rules: &Arc<modern_chess::Rules>,
    start_w: &Weights,
) -> Result<Vec<Vec<tune::Sample>>> {
    let eval = Evaluator::new(rules, start_w.clone());
    let mut labeller = match &a.score_with {
        Some(cmd) => Some(Labeller::start(cmd, rules, a.score_depth)?),
        None => None,
    };
    let mut games = Vec::new();
    for path in &a.pgn {
        let n = pgn_samples(rules, &eval, path, labeller.as_mut(), &mut games)?;
        eprintln!("{}: {n} positions", path.display());
    }
    for path in &a.positions {
        let n = super::tree_positions::position_samples(
            rules,
            &eval,
            path,
            labeller.as_mut(),
            &mut games,
        )?;
        eprintln!("{}: {n} positions", path.display());
    }
    if a.games > 0 {
        self_play(a, rules, start_w, &eval, labeller.as_mut(), &mut games)?;
    }
    Ok(games)
}

/// Which parameters `--terms` lets the fit move (`None`: all).
pub(super) fn movable(terms: &[String], names: &[String]) -> Result<Option<Vec<bool>>> {
    if terms.is_empty() {
        return Ok(None);
    }
    let group = |n: &str| n.split('.').next().unwrap_or("").to_string();
    for t in terms {
        if !names.iter().any(|n| group(n) == *t) {
            bail!("--terms: no term group {t:?} (groups: material, centre, rank, file, square, mobility, king, pawn, passed, threat, tempo)");
        }
    }
    Ok(Some(
        names.iter().map(|n| terms.contains(&group(n))).collect(),
    ))
}

/// Plays the self-play games and adds each game's positions to `games`.
fn self_play(
    a: &TuneArgs,
    rules: &Arc<modern_chess::Rules>,
    start_w: &Weights,
    eval: &Evaluator,
    labeller: Option<&mut Labeller>,
    games: &mut Vec<Vec<tune::Sample>>,
) -> Result<()> {
    let t = Instant::now();
    let cfg = SelfPlay {
        games: a.games,
        nodes_per_move: a.nodes.max(1),
        seed: a.seed,
        random_plies: a.random_plies,
        max_plies: 300,
    };
    let total = a.games;
    let step = (total / 20).max(1);
    let mut played = tune::self_play(rules, start_w, &cfg, a.threads, &|done| {
        if done % step == 0 || done == total {
            let s = t.elapsed().as_secs_f64();
            eprintln!(
                "self-play: {done}/{total} games, {s:.0} s, {:.2} games/s",
                done as f64 / s.max(1e-3)
            );
        }
    });
    if let Some(l) = labeller {
        for (i, p) in played.iter_mut().enumerate() {
            p.scores = label_game(l, rules, eval, &p.game, i, total)?;
        }
    }
    let before: usize = games.iter().map(Vec::len).sum();
    for p in &played {
        games.push(tune::samples_from_game(
            rules, eval, &p.game, p.result, &p.scores,
        ));
    }
    let after: usize = games.iter().map(Vec::len).sum();
    eprintln!(
        "self-play: {} games, {} positions, {:.0} s",
        played.len(),
        after - before,
        t.elapsed().as_secs_f64()
    );
    if let Some(path) = &a.save_games {
        let mut text = String::new();
        for (i, p) in played.iter().enumerate() {
            let (g, r) = (&p.game, p.result);
            let result = match r {
                r if r > 0.75 => "1-0",
                r if r < 0.25 => "0-1",
                _ => "1/2-1/2",
            };
            let tags = [
                ("Event", "modern-chess tune self-play".to_string()),
                ("Round", (i + 1).to_string()),
                ("Result", result.to_string()),
            ]
            .map(|(k, v)| (k.to_string(), v));
            text.push_str(&pgn::write_game(rules, g, &tags));
            text.push('\n');
        }
        std::fs::write(path, text).with_context(|| format!("cannot write {}", path.display()))?;
        let scores = scores_path(path);
        std::fs::write(&scores, scores_text(&played))
            .with_context(|| format!("cannot write {}", scores.display()))?;
        eprintln!(
            "self-play: games written to {}, search scores to {}",
            path.display(),
            scores.display()
        );
    }
    Ok(())
}

/// Plays the tuned weights against the derived ones and prints the score.
pub(super) fn verify(
    a: &TuneArgs,
    rules: &Arc<modern_chess::Rules>,
    tuned: &Weights,
    derived: &Weights,
) {
    let t = Instant::now();
    let cfg = Verify {
        pairs: a.verify,
        limits: Limits::movetime(a.verify_movetime),
        seed: a.seed ^ 0xabc,
        threads: a.threads,
    };
    let m = tune::compare(rules, tuned, derived, &cfg, &|m| {
        eprintln!("verify: {}", m.summary());
    });
    println!(
        "tuned vs derived, {} ms a move, {:.0} s: {}",
        a.verify_movetime,
        t.elapsed().as_secs_f64(),
        m.summary()
    );
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

/// The file beside a saved PGN that holds its search scores: `F.scores`.
/// Where the scores of a PGN or positions file are kept: `FILE.scores`.
pub(super) fn scores_path(pgn: &std::path::Path) -> PathBuf {
    let mut s = pgn.as_os_str().to_owned();
    s.push(".scores");
    PathBuf::from(s)
}

/// One line per game: the search score of each position (White's side), `-` where none.
fn scores_text(played: &[tune::Played]) -> String {
    score_lines(played.iter().map(|p| p.scores.as_slice()))
}

/// Scores, a game at a time, as the lines of a scores file.
fn score_lines<'a>(games: impl Iterator<Item = &'a [Option<i32>]>) -> String {
    let mut out = String::new();
    for game in games {
        let line: Vec<String> = game
            .iter()
            .map(|s| s.map_or("-".to_string(), |v| v.to_string()))
            .collect();
        out.push_str(&line.join(" "));
        out.push('\n');
    }
    out
}

/// The scores file of a PGN file, when there is one (a game per line, as [`scores_text`]).
fn read_scores(pgn: &std::path::Path) -> Result<Vec<Vec<Option<i32>>>> {
    let path = scores_path(pgn);
    let Ok(text) = std::fs::read_to_string(&path) else {
        return Ok(Vec::new());
    };
    text.lines()
        .enumerate()
        .map(|(i, line)| {
            line.split_whitespace()
                .map(|w| match w {
                    "-" => Ok(None),
                    _ => w.parse().map(Some).map_err(|_| {
                        anyhow!("{} line {}: not a score: {w:?}", path.display(), i + 1)
                    }),
                })
                .collect()
        })
        .collect()
}

/// `labeller`'s scores of the positions of game `i` (of `n`), after the opening plies, with
/// a progress line now and then.
fn label_game(
    labeller: &mut Labeller,
    rules: &modern_chess::Rules,
    eval: &Evaluator,
    game: &modern_chess::Game,
    i: usize,
    n: usize,
) -> Result<Vec<Option<i32>>> {
    let scores = labeller.score_game(rules, eval, game, OPENING_PLIES)?;
    if (i + 1).is_multiple_of((n / 20).max(1)) || i + 1 == n {
        eprintln!("score-with {}: {}/{n} games", labeller.name(), i + 1);
    }
    Ok(scores)
}

fn pgn_samples(
    rules: &modern_chess::Rules,
    eval: &Evaluator,
    path: &PathBuf,
    mut labeller: Option<&mut Labeller>,
    out: &mut Vec<Vec<tune::Sample>>,
) -> Result<usize> {
    let text =
        std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
    let games = pgn::parse_games(&text).map_err(|e| anyhow!("{}: {e}", path.display()))?;
    let mut scores = if labeller.is_some() {
        Vec::new()
    } else {
        read_scores(path)?
    };
    if !scores.is_empty() && scores.len() != games.len() {
        bail!(
            "{}: {} lines for {} games",
            scores_path(path).display(),
            scores.len(),
            games.len()
        );
    }
    let before: usize = out.iter().map(Vec::len).sum();
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
            Ok(game) => {
                if let Some(l) = labeller.as_deref_mut() {
                    scores.resize(i, Vec::new());
                    scores.push(label_game(l, rules, eval, &game, i, games.len())?);
                }
                let sc = scores.get(i).map_or(&[][..], Vec::as_slice);
                out.push(tune::samples_from_game(rules, eval, &game, result, sc));
            }
            Err(e) => eprintln!("{} game {}: skipped: {e}", path.display(), i + 1),
        }
    }
    if labeller.is_some() {
        scores.resize(games.len(), Vec::new());
        let file = scores_path(path);
        std::fs::write(&file, score_lines(scores.iter().map(Vec::as_slice)))
            .with_context(|| format!("cannot write {}", file.display()))?;
        eprintln!("scores written to {}", file.display());
    }
    Ok(out.iter().map(Vec::len).sum::<usize>() - before)
}
