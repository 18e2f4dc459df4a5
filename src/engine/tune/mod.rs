//! Texel tuning: fit the evaluation weights to game results by logistic regression.
//!
//! Positions come from self-play games (or from PGN records, via [`samples_from_game`]); each
//! is replaced by the leaf of its quiescence search ([`quiet_leaf`]) and reduced once to that
//! leaf's term counts (white minus black) and game phase, so the fit is
//! a cheap sparse regression: the predicted score is `sigmoid(K * eval / 400)`, the loss the
//! mean squared difference from the game result ([`fit`]: held-out games, early stopping and a
//! prior that keeps rarely seen terms where they were). [`compare`] plays the result against
//! other weights.

mod choice;
mod fit;
mod qleaf;
mod siblings;
mod verify;

pub use choice::{choice, fit_choices, Choice, ChoiceConfig, ChoiceReport};
pub use fit::{fit, fit_k, fit_staged, loss, split_by_game, FitConfig, FitReport};
pub use qleaf::quiet_leaf;
pub use siblings::{fit_siblings, quiet_children, Sibling, SiblingConfig, SiblingReport};
pub use verify::{compare, elo, MatchScore, Verify};

use super::eval::{Evaluator, TermSink, PHASE_MAX};
use super::skill::next_random;
use super::weights::Weights;
use super::{Engine, Limits};
use crate::game::{Game, Outcome};
use crate::piece::Colour;
use crate::position::Position;
use crate::rules::Rules;
use crate::setup;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

/// One training position: term counts (white minus black), phase and result.
#[derive(Clone, Debug)]
pub struct Sample {
    /// The non-zero terms: (parameter index, count white minus black).
    pub terms: Vec<(u32, f32)>,
    /// Middlegame share, 0..=1.
    pub phase: f32,
    /// 1 White won, 0.5 draw, 0 Black won (or, after [`blend`], the blended target).
    pub result: f32,
    /// The self-play search's score of the game position, centipawns from White's side,
    /// when one was recorded.
    pub score: Option<f32>,
}

/// Replaces each sample's target by `lambda * result + (1 - lambda) * sigmoid(k * score /
/// 400)` where a search score was recorded: the search's verdict on a position carries far
/// more information than one game's result, which a single later blunder decides.
pub fn blend(samples: &mut [Sample], k: f64, lambda: f64) {
    for s in samples {
        if let Some(score) = s.score {
            let p = 1.0 / (1.0 + (-k * score as f64 / 400.0).exp());
            s.result = (lambda * s.result as f64 + (1.0 - lambda) * p) as f32;
        }
    }
}

/// Blends the targets of both sample sets ([`blend`]) with the logistic scale `K` that fits
/// the game results of `train` with `start`'s weights; returns that `K`.
pub fn blend_targets(
    start: &Weights,
    train: &mut [Sample],
    valid: &mut [Sample],
    lambda: f64,
) -> f64 {
    let k = fit_k(&fit::as_f64(start), train);
    blend(train, k, lambda);
    blend(valid, k, lambda);
    k
}

/// A finished self-play game: the moves, White's result, and the search's score of every
/// position it searched (centipawns from White's side; `None` for random opening plies).
#[derive(Clone, Debug)]
pub struct Played {
    /// The game.
    pub game: Game,
    /// 1 White won, 0.5 draw, 0 Black won.
    pub result: f32,
    /// One entry per position of the game before its last move.
    pub scores: Vec<Option<i32>>,
}

/// Collects term counts, white minus black.
struct Counts(Vec<f32>);

impl TermSink for Counts {
    fn add(&mut self, colour: Colour, param: usize, n: i32) {
        self.0[param] += if colour == Colour::White {
            n as f32
        } else {
            -n as f32
        };
    }
}

/// The training sample of one position with the game's result (`result` from White's side).
pub fn sample(rules: &Rules, eval: &Evaluator, pos: &Position, result: f32) -> Sample {
    let mut c = Counts(vec![0.0; eval.layout().len]);
    eval.terms(rules, pos, &mut c);
    let terms =
        c.0.iter()
            .enumerate()
            .filter(|(_, v)| **v != 0.0)
            .map(|(i, v)| (i as u32, *v))
            .collect();
    Sample {
        terms,
        phase: eval.phase(rules, pos) as f32 / PHASE_MAX as f32,
        result,
        score: None,
    }
}

/// White's result of a finished game: 1, 0.5 or 0.
pub fn white_result(outcome: Option<Outcome>) -> f32 {
    match outcome.and_then(|o| o.winner()) {
        Some(Colour::White) => 1.0,
        Some(Colour::Black) => 0.0,
        None => 0.5,
    }
}

/// Plies at the start of a game that give no training samples: the start positions are few
/// and their evaluation would be learned by heart.
pub const OPENING_PLIES: usize = 8;

/// Training samples of a game: every position after the opening plies that is not in check,
/// each replaced by the leaf of its quiescence search ([`quiet_leaf`]), the position whose
/// static evaluation the search would use for it. `scores` (White's side, by position; may be
/// shorter or empty) are the self-play search's scores, kept with the samples for [`blend`].
pub fn samples_from_game(
    rules: &Rules,
    eval: &Evaluator,
    game: &Game,
    result: f32,
    scores: &[Option<i32>],
) -> Vec<Sample> {
    game.positions()
        .iter()
        .enumerate()
        .skip(OPENING_PLIES)
        .filter_map(|(i, pos)| quiet_leaf(rules, eval, pos).map(|(_, leaf)| (i, leaf)))
        .map(|(i, leaf)| Sample {
            score: scores.get(i).copied().flatten().map(|s| s as f32),
            ..sample(rules, eval, &leaf, result)
        })
        .collect()
}

/// How self-play games are played.
#[derive(Clone, Copy, Debug)]
pub struct SelfPlay {
    /// Number of games to play.
    pub games: usize,
    /// Search nodes per move (reproducible and quick).
    pub nodes_per_move: u64,
    /// Seed for the start positions and the opening plies.
    pub seed: u64,
    /// Random opening plies (both sides), so games differ.
    pub random_plies: usize,
    /// Plies after which a game is stopped and scored a draw.
    pub max_plies: usize,
}

/// A random start position of the variant.
pub fn random_start(rules: &Rules, rng: &mut u64) -> Position {
    let n = setup::count(&rules.variant).max(1);
    let id = next_random(rng) % n;
    let fen = setup::from_id(&rules.variant, id)
        .map(|sp| setup::start_fen(&rules.variant, &sp))
        .unwrap_or_default();
    Position::from_fen(rules, &fen).expect("start positions of a checked variant are valid")
}

/// Plays one game between two engines (`engines[0]` White) from `start`. Random opening
/// plies first; a game is adjudicated when both sides agree it is lost (the score beyond
/// 1000 for 6 plies) or drawn at `max_plies`.
pub fn play_game(
    rules: &Rules,
    engines: [&mut Engine; 2],
    start: Position,
    limits: &Limits,
    cfg: &SelfPlay,
    rng: &mut u64,
) -> Played {
    let mut game = Game::new(start);
    let mut scores = Vec::new();
    let stop = AtomicBool::new(false);
    let mut lopsided = 0;
    let [white, black] = engines;
    let mut sides = [white, black];
    while game.outcome(rules).is_none() && game.moves().len() < cfg.max_plies {
        let pos = game.current().clone();
        let legal = pos.legal_moves(rules);
        let m = if game.moves().len() < cfg.random_plies {
            scores.push(None);
            legal.as_slice()[(next_random(rng) % legal.len() as u64) as usize]
        } else {
            let mut score = 0;
            let e = &mut sides[pos.side_to_move()];
            let m = e.search(game.positions(), limits, &stop, &mut |i| score = i.score_cp);
            let white = pos.side_to_move() == Colour::White;
            scores.push(Some(if white { score } else { -score }));
            lopsided = if score.abs() > 1000 { lopsided + 1 } else { 0 };
            if lopsided >= 6 {
                let result = if (score > 0) == white { 1.0 } else { 0.0 };
                return Played {
                    game,
                    result,
                    scores,
                };
            }
            match m {
                Some(m) => m,
                None => break,
            }
        };
        if game.play(rules, m).is_err() {
            break;
        }
    }
    let result = white_result(game.outcome(rules));
    Played {
        game,
        result,
        scores,
    }
}

/// Self-play games with `weights` on `threads` threads; `progress` gets the number of games
/// finished. Returns every game with White's result and the search's scores.
pub fn self_play(
    rules: &Arc<Rules>,
    weights: &Weights,
    cfg: &SelfPlay,
    threads: usize,
    progress: &(dyn Fn(usize) + Sync),
) -> Vec<Played> {
    let done = std::sync::atomic::AtomicUsize::new(0);
    let threads = threads.clamp(1, 64);
    let limits = Limits {
        nodes: Some(cfg.nodes_per_move),
        ..Limits::default()
    };
    std::thread::scope(|s| {
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                let done = &done;
                s.spawn(move || {
                    let mut a = Engine::with_weights(Arc::clone(rules), 4, weights.clone());
                    let mut b = Engine::with_weights(Arc::clone(rules), 4, weights.clone());
                    let mut out = Vec::new();
                    let mut rng = cfg.seed ^ (t as u64).wrapping_mul(0x9E37_79B9);
                    for _ in (t..cfg.games).step_by(threads) {
                        a.clear();
                        b.clear();
                        let start = random_start(rules, &mut rng);
                        out.push(play_game(
                            rules,
                            [&mut a, &mut b],
                            start,
                            &limits,
                            cfg,
                            &mut rng,
                        ));
                        progress(done.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1);
                    }
                    out
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().unwrap_or_default())
            .collect()
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog;

    #[test]
    fn fitting_recovers_a_material_weight_from_results() {
        // Synthetic data: White wins exactly when it has the extra knight, so the fit must
        // raise the knight's value from a deliberately low start.
        let rules = Arc::new(catalog::load_rules("chess").unwrap());
        let mut start = Weights::derived(&rules);
        let n = rules.variant.piece_index('N').unwrap();
        start.values[start.layout.material + n] = [50, 50];
        let ev = Evaluator::new(&rules, start.clone());
        let with = Position::from_fen(&rules, "4k3/pppp4/8/8/8/8/PPPP4/1N2K3 w - - 0 1").unwrap();
        let without = Position::from_fen(&rules, "4k3/pppp4/8/8/8/8/PPPP4/4K3 w - - 0 1").unwrap();
        let mut samples = Vec::new();
        for i in 0..200 {
            samples.push(sample(
                &rules,
                &ev,
                &with,
                if i % 10 == 0 { 0.5 } else { 1.0 },
            ));
            samples.push(sample(&rules, &ev, &without, 0.5));
        }
        let cfg = FitConfig {
            prior: 0.0,
            ..FitConfig::default()
        };
        let (w, report) = fit(&start, &samples, &[], &cfg);
        assert!(report.loss_after < report.loss_before);
        // The data has one phase, so only the knight's tapered worth at it is determined; its
        // material, mobility and centre terms share the credit, so the test reads the
        // evaluation of the extra knight as a whole, below 80 before the fit.
        let fitted = Evaluator::new(&rules, w);
        let knight = fitted.evaluate(&rules, &with) - fitted.evaluate(&rules, &without);
        let before = ev.evaluate(&rules, &with) - ev.evaluate(&rules, &without);
        assert!(
            knight > 80,
            "the extra knight after the fit: {knight} (before {before})"
        );
        assert!(before < 80, "the extra knight before the fit: {before}");
    }

    #[test]
    fn blending_moves_targets_towards_the_search_score() {
        let mk = |result, score| Sample {
            terms: vec![],
            phase: 1.0,
            result,
            score,
        };
        let mut s = vec![mk(1.0, Some(-400.0)), mk(0.5, None), mk(0.0, Some(0.0))];
        blend(&mut s, 1.0, 0.25);
        // sigmoid(-1) = 0.2689: 0.25 * 1 + 0.75 * 0.2689.
        assert!((s[0].result - 0.4517).abs() < 1e-3, "{}", s[0].result);
        assert_eq!(s[1].result, 0.5, "no score: the result stays");
        assert!((s[2].result - 0.375).abs() < 1e-6, "{}", s[2].result);
    }

    #[test]
    fn self_play_finishes_games_with_results() {
        let rules = Arc::new(catalog::load_rules("mrc64").unwrap());
        let cfg = SelfPlay {
            games: 2,
            nodes_per_move: 200,
            seed: 3,
            random_plies: 4,
            max_plies: 60,
        };
        let games = self_play(&rules, &Weights::derived(&rules), &cfg, 2, &|_| {});
        assert_eq!(games.len(), 2);
        for p in &games {
            assert!(p.game.moves().len() >= 4);
            assert!([0.0, 0.5, 1.0].contains(&p.result));
            assert!(p.scores.len() <= p.game.moves().len() + 1);
            assert!(p.scores[..4].iter().all(Option::is_none), "random plies");
            assert!(p.scores[4..].iter().all(Option::is_some), "searched plies");
        }
    }
}
