//! Verification of tuned weights: colour-reversed pairs against other weights, played on
//! several threads, scored with an error estimate.

use super::{play_game, random_start, SelfPlay};
use crate::engine::weights::Weights;
use crate::engine::{Engine, Limits};
use crate::rules::Rules;
use std::sync::{Arc, Mutex};

/// The result of a match, from the first weights' side.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MatchScore {
    /// Games won, drawn and lost.
    pub wins: usize,
    /// Games drawn.
    pub draws: usize,
    /// Games lost.
    pub losses: usize,
    /// Points of each finished pair (0..=2), in the order they finished.
    pub pairs: Vec<f64>,
}

impl MatchScore {
    /// Games played.
    pub fn games(&self) -> usize {
        self.wins + self.draws + self.losses
    }

    /// Points scored.
    pub fn points(&self) -> f64 {
        self.wins as f64 + 0.5 * self.draws as f64
    }

    /// Share of the points, 0..=1 (0.5 before any game).
    pub fn score(&self) -> f64 {
        match self.games() {
            0 => 0.5,
            n => self.points() / n as f64,
        }
    }

    /// Two standard errors of [`score`](Self::score), from the spread of the pairs' points
    /// (the two games of a pair share a start, so they are not independent).
    pub fn two_sigma(&self) -> f64 {
        let n = self.pairs.len();
        if n < 2 {
            return 0.5;
        }
        let mean = self.pairs.iter().sum::<f64>() / n as f64;
        let var = self.pairs.iter().map(|p| (p - mean).powi(2)).sum::<f64>() / (n - 1) as f64;
        2.0 * (var / n as f64).sqrt() / 2.0
    }

    /// A one-line summary: points, score ± two sigma, Elo with its range.
    pub fn summary(&self) -> String {
        let (s, e) = (self.score(), self.two_sigma());
        format!(
            "{} / {} (+{} ={} -{}), score {:.1}% ± {:.1}%, Elo {:+.0} ({:+.0} to {:+.0})",
            self.points(),
            self.games(),
            self.wins,
            self.draws,
            self.losses,
            100.0 * s,
            100.0 * e,
            elo(s),
            elo(s - e),
            elo(s + e)
        )
    }

    fn add_pair(&mut self, results: [f32; 2]) {
        for r in results {
            match r {
                r if r > 0.75 => self.wins += 1,
                r if r < 0.25 => self.losses += 1,
                _ => self.draws += 1,
            }
        }
        self.pairs.push((results[0] + results[1]) as f64);
    }
}

/// The Elo difference of an expected score (clamped to 0.1%..99.9%).
pub fn elo(score: f64) -> f64 {
    let s = score.clamp(0.001, 0.999);
    400.0 * (s / (1.0 - s)).log10()
}

/// How a verification match is played.
#[derive(Clone, Debug)]
pub struct Verify {
    /// Colour-reversed pairs (two games each, from one random start).
    pub pairs: usize,
    /// Search limits of every move.
    pub limits: Limits,
    /// Seed of the start positions.
    pub seed: u64,
    /// Games played at once.
    pub threads: usize,
}

/// Plays `cfg.pairs` colour-reversed pairs of `a` against `b` from random starts, pairs spread
/// over `cfg.threads` threads; `progress` sees the score after each pair. `a`'s score.
pub fn compare(
    rules: &Arc<Rules>,
    a: &Weights,
    b: &Weights,
    cfg: &Verify,
    progress: &(dyn Fn(&MatchScore) + Sync),
) -> MatchScore {
    let mut rng = cfg.seed;
    let starts: Vec<_> = (0..cfg.pairs)
        .map(|_| random_start(rules, &mut rng))
        .collect();
    let game_cfg = SelfPlay {
        games: 0,
        nodes_per_move: 0,
        seed: cfg.seed,
        random_plies: 0,
        max_plies: 300,
    };
    let score = Mutex::new(MatchScore::default());
    let threads = cfg.threads.clamp(1, 64);
    std::thread::scope(|s| {
        for t in 0..threads {
            let (starts, score, game_cfg) = (&starts, &score, &game_cfg);
            s.spawn(move || {
                let mut ea = Engine::with_weights(Arc::clone(rules), 8, a.clone());
                let mut eb = Engine::with_weights(Arc::clone(rules), 8, b.clone());
                let mut rng = cfg.seed ^ t as u64;
                for start in starts.iter().skip(t).step_by(threads) {
                    let mut results = [0.0; 2];
                    for (i, a_white) in [true, false].into_iter().enumerate() {
                        ea.clear();
                        eb.clear();
                        let sides = if a_white {
                            [&mut ea, &mut eb]
                        } else {
                            [&mut eb, &mut ea]
                        };
                        let pos = start.clone();
                        let r =
                            play_game(rules, sides, pos, &cfg.limits, game_cfg, &mut rng).result;
                        results[i] = if a_white { r } else { 1.0 - r };
                    }
                    let mut sc = score.lock().unwrap_or_else(|e| e.into_inner());
                    sc.add_pair(results);
                    progress(&sc);
                }
            });
        }
    });
    score.into_inner().unwrap_or_else(|e| e.into_inner())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog;

    #[test]
    fn score_error_and_elo() {
        let mut m = MatchScore::default();
        assert_eq!(m.score(), 0.5);
        m.add_pair([1.0, 0.5]);
        m.add_pair([1.0, 1.0]);
        m.add_pair([0.0, 0.5]);
        m.add_pair([1.0, 0.0]);
        assert_eq!((m.wins, m.draws, m.losses), (4, 2, 2));
        assert_eq!(m.points(), 5.0);
        // Pair points 1.5, 2, 0.5, 1: sample sd 0.6455, se of the score 0.6455 / 2 / 2.
        assert!((m.two_sigma() - 0.3227).abs() < 1e-3, "{}", m.two_sigma());
        assert!((elo(0.75) - 190.85).abs() < 0.1);
        assert!(elo(0.5).abs() < 1e-9 && elo(0.25) < -190.0);
        assert!(
            m.summary().starts_with("5 / 8 (+4 =2 -2), score 62.5%"),
            "{}",
            m.summary()
        );
    }

    #[test]
    fn a_parallel_match_plays_every_pair() {
        let rules = Arc::new(catalog::load_rules("mrc64").unwrap());
        let w = Weights::derived(&rules);
        let cfg = Verify {
            pairs: 3,
            limits: Limits {
                nodes: Some(100),
                ..Limits::default()
            },
            seed: 4,
            threads: 2,
        };
        let m = compare(&rules, &w, &w, &cfg, &|_| {});
        assert_eq!((m.games(), m.pairs.len()), (6, 3));
    }
}
