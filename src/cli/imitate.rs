//! `modern-chess tune --imitate FILE`: fit the weights to a teacher's move choices (the
//! moves of PGN games) instead of to positions' results or scores.

use super::tune::{movable, verify, write_weights, TuneArgs};
use anyhow::{anyhow, bail, Context, Result};
use modern_chess::engine::tune::{self, Choice, ChoiceConfig, FitConfig};
use modern_chess::engine::weights::{self, Weights};
use modern_chess::engine::Evaluator;
use modern_chess::{pgn, setup, Colour, Game, Position, Rules};
use std::path::Path;
use std::sync::Arc;
use std::time::Instant;

/// Reads the games, fits, writes the weights and verifies them when asked.
pub fn run(a: &TuneArgs, rules: &Arc<Rules>) -> Result<()> {
    if a.games != 0 || !a.pgn.is_empty() {
        bail!("--imitate learns only from its own games: give --games 0 and no --pgn");
    }
    if a.teacher.as_deref().is_some_and(|t| t.trim().is_empty()) {
        bail!("--teacher needs a name to look for in the White and Black tags");
    }
    let start_w = weights::for_variant(rules).map_err(|e| anyhow!("{e}"))?;
    let t = Instant::now();
    let mut games = Vec::new();
    for path in &a.imitate {
        games.extend(read_games(rules, path, a.teacher.as_deref())?);
    }
    if a.teacher.is_some() && games.is_empty() {
        bail!("no game has a player named like --teacher in its White or Black tag");
    }
    let eval = Evaluator::new(rules, start_w.clone());
    let choices = choices_of(rules, &eval, &games, a.threads.max(1));
    let (train, valid) = tune::split_by_game(choices, a.holdout);
    if train.is_empty() {
        bail!("the games gave no positions to learn from");
    }
    eprintln!(
        "imitate: {} games, {} training positions, {} held out, {:.0} s",
        games.len(),
        train.len(),
        valid.len(),
        t.elapsed().as_secs_f64()
    );
    let cfg = ChoiceConfig {
        fit: FitConfig {
            epochs: a.epochs,
            lr: a.lr,
            prior: a.prior,
            min_share: a.min_share,
            patience: 150,
            movable: Some(choice_movable(a, &start_w.layout.names(rules))?),
        },
        threads: a.threads.max(1),
    };
    let (tuned, r) = tune::fit_choices(&start_w, &train, &valid, &cfg);
    eprintln!(
        "imitate: temperature {:.0} cp, {} parameter halves free; loss {:.4} -> {:.4}, held-out \
         {:.4} -> {:.4}; teacher's move evaluated best (held out) {:.1}% -> {:.1}%; best epoch \
         {} of {}, {:.0} s",
        r.temperature,
        r.free,
        r.loss_before.0,
        r.loss_after.0,
        r.loss_before.1,
        r.loss_after.1,
        100.0 * r.agree_before,
        100.0 * r.agree_after,
        r.best_epoch,
        r.epochs_run,
        t.elapsed().as_secs_f64()
    );
    let header = format!(
        "Evaluation weights for {} written by `modern-chess tune --imitate`\n{} games, {} + {} \
         held-out positions, loss {:.4} -> {:.4}, held-out {:.4} -> {:.4}",
        rules.variant().name(),
        games.len(),
        train.len(),
        valid.len(),
        r.loss_before.0,
        r.loss_after.0,
        r.loss_before.1,
        r.loss_after.1
    );
    write_weights(a, rules, &tuned, &header)?;
    if a.verify > 0 {
        verify(a, rules, &tuned, &Weights::derived(rules));
    }
    Ok(())
}

/// The parameters the choice fit may move: those `--terms` names, or every one but the
/// tempo. The moves of a position all hand the move to the same side, so the tempo only
/// tells apart leaves that quiescence reached after an odd or even number of captures,
/// which says nothing about its value.
fn choice_movable(a: &TuneArgs, names: &[String]) -> Result<Vec<bool>> {
    Ok(match movable(&a.terms, names)? {
        Some(m) => m,
        None => names.iter().map(|n| n != "tempo").collect(),
    })
}

/// Whose moves in a game are the teacher's.
#[derive(Clone, Copy)]
enum Side {
    Both,
    Only(Colour),
}

/// A replayed game and the side whose moves are learnt.
type Taught = (Game, Side);

/// Which side of `g` the teacher played: both when no teacher is named, `None` when the
/// named teacher did not play this game.
fn teacher_side(g: &pgn::PgnGame, teacher: Option<&str>) -> Option<Side> {
    let Some(name) = teacher else {
        return Some(Side::Both);
    };
    let plays = |tag: &str| g.tag(tag).is_some_and(|p| p.contains(name));
    match (plays("White"), plays("Black")) {
        (true, true) => Some(Side::Both),
        (true, false) => Some(Side::Only(Colour::White)),
        (false, true) => Some(Side::Only(Colour::Black)),
        (false, false) => None,
    }
}

/// The games of a PGN file, replayed; a game that does not replay is kept up to the move
/// that fails (a record that goes on after a repetition ended the game, say), and reported.
/// With a teacher named, only the games it played, with its side.
fn read_games(rules: &Rules, path: &Path, teacher: Option<&str>) -> Result<Vec<Taught>> {
    let text =
        std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
    let parsed = pgn::parse_games(&text).map_err(|e| anyhow!("{}: {e}", path.display()))?;
    let mut out = Vec::new();
    for (i, g) in parsed.iter().enumerate() {
        let Some(side) = teacher_side(g, teacher) else {
            continue;
        };
        let start = match pgn::start_position(rules, g) {
            Ok(Some(s)) => s,
            Ok(None) => only_start(rules)
                .with_context(|| format!("{} game {}: no FEN tag", path.display(), i + 1))?,
            Err(e) => bail!("{} game {}: {e}", path.display(), i + 1),
        };
        match pgn::replay(rules, start, &g.moves, &mut |_, _, _| {}) {
            Ok(game) => out.push((game, side)),
            Err(e) => {
                let (n, why) = (e.index + 1, &e.message);
                eprintln!(
                    "{} game {}: kept up to ply {n}: {why}",
                    path.display(),
                    i + 1
                );
                out.push((e.game.clone(), side));
            }
        }
    }
    Ok(out)
}

/// The variant's start position when it has only one (a record needs no FEN tag then).
fn only_start(rules: &Rules) -> Result<Position> {
    let n = setup::count(rules.variant());
    if n != 1 {
        bail!("{} has {n} start positions", rules.variant().short());
    }
    let sp = setup::from_id(rules.variant(), 0).map_err(|e| anyhow!(e))?;
    Position::from_start(rules, &sp).map_err(|e| anyhow!("{e}"))
}

/// Every teacher's move of every game as a choice, by game, computed on `threads` threads.
fn choices_of(
    rules: &Rules,
    eval: &Evaluator,
    games: &[Taught],
    threads: usize,
) -> Vec<Vec<Choice>> {
    let per_game = |(g, side): &Taught| -> Vec<Choice> {
        g.positions()
            .iter()
            .zip(g.moves())
            .filter(|(pos, _)| match side {
                Side::Both => true,
                Side::Only(c) => pos.side_to_move() == *c,
            })
            .filter_map(|(pos, &m)| tune::choice(rules, eval, pos, m))
            .collect()
    };
    let chunk = games.len().div_ceil(threads).max(1);
    std::thread::scope(|s| {
        let handles: Vec<_> = games
            .chunks(chunk)
            .map(|part| s.spawn(move || part.iter().map(per_game).collect::<Vec<_>>()))
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().unwrap_or_default())
            .collect()
    })
}
