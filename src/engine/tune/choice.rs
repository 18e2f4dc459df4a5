//! Learning from a teacher's moves: fit the weights so that the position a recorded move
//! leads to is evaluated above those of the other legal moves.
//!
//! Texel's method fits the evaluation to what positions are worth; a search only needs the
//! evaluation to put the moves of one position in the right order. Here every legal move of
//! a teacher's position (a stronger engine's game, say) is played and replaced by the quiet
//! leaf of its quiescence search, as the search would see it, and the fit maximises the
//! likelihood of the teacher's choice under a softmax over those leaves' evaluations (the
//! comparison training of shogi's Bonanza, with a softmax). The evaluation is linear in the
//! weights, so each option reduces to the sparse difference between its term counts and the
//! teacher's move's, and the objective is convex.

use super::fit::{as_f64, FitConfig};
use super::{quiet_leaf, sample, Sample};
use crate::engine::eval::Evaluator;
use crate::engine::weights::Weights;
use crate::piece::Colour;
use crate::position::{Move, Position};
use crate::rules::Rules;

/// One teacher's position: for every other legal move, how its quiet leaf's weighted terms
/// differ from the teacher's move's, from the chooser's side.
#[derive(Clone, Debug, Default)]
pub struct Choice {
    /// Per other move: (parameter half `2 * index + phase`, count difference times the
    /// phase share, from the side to move's view).
    pub others: Vec<Vec<(u32, f32)>>,
}

/// The choice at `pos` of `teacher` among the legal moves; `None` when the teacher's move is
/// not legal here, its quiet leaf is in check, or it was the only move.
pub fn choice(rules: &Rules, eval: &Evaluator, pos: &Position, teacher: Move) -> Option<Choice> {
    let moves = pos.legal_moves(rules);
    if !moves.contains(&teacher) || moves.len() < 2 {
        return None;
    }
    let sign = if pos.side_to_move() == Colour::White {
        1.0
    } else {
        -1.0
    };
    let features = |m: Move| {
        let child = pos.play_unchecked(rules, m);
        let (_, leaf) = quiet_leaf(rules, eval, &child)?;
        Some(halves(&sample(rules, eval, &leaf, 0.0), sign))
    };
    let base = features(teacher)?;
    let others: Vec<_> = moves
        .iter()
        .filter(|&&m| m != teacher)
        .filter_map(|&m| features(m))
        .map(|f| difference(&f, &base))
        .filter(|d| !d.is_empty())
        .collect();
    (!others.is_empty()).then_some(Choice { others })
}

/// A sample's terms as sorted (half, value) pairs: the middlegame half weighted by the
/// phase, the endgame half by the rest, both signed to the chooser's side.
fn halves(s: &Sample, sign: f32) -> Vec<(u32, f32)> {
    let mut out = Vec::with_capacity(2 * s.terms.len());
    for &(i, c) in &s.terms {
        out.push((2 * i, sign * c * s.phase));
        out.push((2 * i + 1, sign * c * (1.0 - s.phase)));
    }
    out.retain(|&(_, v)| v != 0.0);
    out.sort_unstable_by_key(|&(k, _)| k);
    out
}

/// `a - b` for two sorted sparse vectors, without the zero entries.
fn difference(a: &[(u32, f32)], b: &[(u32, f32)]) -> Vec<(u32, f32)> {
    let mut out = Vec::new();
    let (mut i, mut j) = (0, 0);
    while i < a.len() || j < b.len() {
        let ka = a.get(i).map_or(u32::MAX, |e| e.0);
        let kb = b.get(j).map_or(u32::MAX, |e| e.0);
        let (k, v) = if ka == kb {
            i += 1;
            j += 1;
            (ka, a[i - 1].1 - b[j - 1].1)
        } else if ka < kb {
            i += 1;
            (ka, a[i - 1].1)
        } else {
            j += 1;
            (kb, -b[j - 1].1)
        };
        if v.abs() > 1e-6 {
            out.push((k, v));
        }
    }
    out
}

/// How the choice fit runs: the Texel fit's settings (epochs, step, prior, rare parameters,
/// patience, movable terms), and the threads sharing each step.
#[derive(Clone, Debug)]
pub struct ChoiceConfig {
    /// The same knobs as Texel's fit, with the same meaning.
    pub fit: FitConfig,
    /// Threads sharing each step's pass over the choices.
    pub threads: usize,
}

/// What a choice fit did.
#[derive(Clone, Debug)]
pub struct ChoiceReport {
    /// The softmax temperature in centipawns, fitted to the starting weights.
    pub temperature: f64,
    /// Mean negative log-likelihood of the teacher's moves, training and held out.
    pub loss_before: (f64, f64),
    /// The same with the fitted weights.
    pub loss_after: (f64, f64),
    /// Share of held-out choices where the teacher's move evaluates best.
    pub agree_before: f64,
    /// The same with the fitted weights.
    pub agree_after: f64,
    /// The epoch whose weights are returned (0: the starting weights).
    pub best_epoch: usize,
    /// Epochs run before stopping.
    pub epochs_run: usize,
    /// Parameter halves (middlegame and endgame apart) the fit could move.
    pub free: usize,
}

/// The teacher's move's negative log-likelihood at one choice, and whether it evaluates
/// best; `z` receives each other move's score relative to it.
fn nll(v: &[f64], c: &Choice, t: f64, z: &mut Vec<f64>) -> (f64, bool) {
    z.clear();
    z.extend(c.others.iter().map(|d| {
        d.iter()
            .map(|&(k, x)| v[k as usize] * x as f64)
            .sum::<f64>()
            / t
    }));
    let top = z.iter().copied().fold(0.0f64, f64::max);
    let sum: f64 = (-top).exp() + z.iter().map(|&x| (x - top).exp()).sum::<f64>();
    (top + sum.ln(), z.iter().all(|&x| x < 0.0))
}

/// Mean loss and agreement over `choices`.
fn measure(v: &[f64], choices: &[Choice], t: f64) -> (f64, f64) {
    let mut z = Vec::new();
    let (mut loss, mut agree) = (0.0, 0usize);
    for c in choices {
        let (l, a) = nll(v, c, t, &mut z);
        loss += l;
        agree += a as usize;
    }
    let n = choices.len().max(1) as f64;
    (loss / n, agree as f64 / n)
}

/// The temperature that fits the starting weights best (a scan over 5..=400 cp).
fn fit_temperature(v: &[f64], choices: &[Choice]) -> f64 {
    let mut best = (f64::MAX, 50.0);
    for t in (1..=80).map(|i| i as f64 * 5.0) {
        let l = measure(v, choices, t).0;
        if l < best.0 {
            best = (l, t);
        }
    }
    best.1
}

/// Gradient and diagonal Hessian of the mean loss plus the prior's pull, the choices shared
/// among `threads` threads.
fn slope(
    v: &[f64],
    choices: &[Choice],
    t: f64,
    (start, pull): (&[f64], f64),
    threads: usize,
) -> (Vec<f64>, Vec<f64>) {
    let n = choices.len().max(1) as f64;
    let chunk = choices.len().div_ceil(threads.max(1)).max(1);
    let parts: Vec<(Vec<f64>, Vec<f64>)> = std::thread::scope(|s| {
        let hs: Vec<_> = choices
            .chunks(chunk)
            .map(|part| s.spawn(move || partial_slope(v, part, t, n)))
            .collect();
        hs.into_iter().filter_map(|h| h.join().ok()).collect()
    });
    let mut g = vec![0.0; v.len()];
    let mut h = vec![0.0; v.len()];
    for (pg, ph) in parts {
        for k in 0..v.len() {
            g[k] += pg[k];
            h[k] += ph[k];
        }
    }
    for k in 0..v.len() {
        g[k] += pull * (v[k] - start[k]);
        h[k] = h[k].max(0.0) + pull;
    }
    (g, h)
}

/// One thread's share of [`slope`]: the loss's gradient and diagonal Hessian over `choices`,
/// each divided by `n`, the number of choices in all.
fn partial_slope(v: &[f64], choices: &[Choice], t: f64, n: f64) -> (Vec<f64>, Vec<f64>) {
    let mut g = vec![0.0; v.len()];
    let mut h = vec![0.0; v.len()];
    let mut mean = vec![0.0; v.len()];
    let mut z = Vec::new();
    for c in choices {
        nll(v, c, t, &mut z);
        let top = z.iter().copied().fold(0.0f64, f64::max);
        let sum: f64 = (-top).exp() + z.iter().map(|&x| (x - top).exp()).sum::<f64>();
        for (d, &zi) in c.others.iter().zip(&z) {
            let p = (zi - top).exp() / sum;
            for &(k, x) in d {
                let a = x as f64 / t;
                g[k as usize] += p * a / n;
                h[k as usize] += p * a * a / n;
                mean[k as usize] += p * a;
            }
        }
        for d in &c.others {
            for &(k, _) in d {
                let m = std::mem::take(&mut mean[k as usize]);
                h[k as usize] -= m * m / n;
            }
        }
    }
    (g, h)
}

/// Which parameter halves may move: seen in at least `min_share` of the choices, and
/// allowed by `movable`.
fn free_mask(len: usize, choices: &[Choice], cfg: &ChoiceConfig) -> Vec<bool> {
    let mut seen = vec![0usize; len];
    let mut last = vec![usize::MAX; len];
    for (ci, c) in choices.iter().enumerate() {
        for d in &c.others {
            for &(k, _) in d {
                if last[k as usize] != ci {
                    last[k as usize] = ci;
                    seen[k as usize] += 1;
                }
            }
        }
    }
    let need = (cfg.fit.min_share * choices.len() as f64).max(1.0);
    (0..len)
        .map(|k| {
            seen[k] as f64 >= need
                && cfg
                    .fit
                    .movable
                    .as_ref()
                    .is_none_or(|m| m.get(k / 2).copied().unwrap_or(false))
        })
        .collect()
}

/// Fits `start` to the teacher's choices by diagonally scaled gradient descent, keeping the
/// weights of the epoch with the lowest held-out loss.
pub fn fit_choices(
    start: &Weights,
    train: &[Choice],
    valid: &[Choice],
    cfg: &ChoiceConfig,
) -> (Weights, ChoiceReport) {
    let start_v: Vec<f64> = as_f64(start).iter().flat_map(|p| [p[0], p[1]]).collect();
    let t = fit_temperature(&start_v, train);
    let free = free_mask(start_v.len(), train, cfg);
    let pull = cfg.fit.prior * 0.25 / (t * t) / train.len().max(1) as f64;
    let check = if valid.is_empty() { train } else { valid };
    let before = (measure(&start_v, train, t).0, measure(&start_v, check, t));
    let mut v = start_v.clone();
    let mut best = (before.1 .0, v.clone(), 0);
    let mut epochs_run = 0;
    for epoch in 1..=cfg.fit.epochs {
        epochs_run = epoch;
        let (g, h) = slope(&v, train, t, (&start_v, pull), cfg.threads);
        for k in 0..v.len() {
            if free[k] && h[k] > 0.0 {
                v[k] -= (cfg.fit.lr * g[k] / h[k]).clamp(-20.0, 20.0);
            }
        }
        let l = measure(&v, check, t).0;
        if l < best.0 {
            best = (l, v.clone(), epoch);
        } else if epoch - best.2 >= cfg.fit.patience {
            break;
        }
    }
    let (_, v, best_epoch) = best;
    let after = (measure(&v, train, t).0, measure(&v, check, t));
    let mut w = start.clone();
    for (i, p) in w.values.iter_mut().enumerate() {
        *p = [v[2 * i].round() as i32, v[2 * i + 1].round() as i32];
    }
    let report = ChoiceReport {
        temperature: t,
        loss_before: (before.0, before.1 .0),
        loss_after: (after.0, after.1 .0),
        agree_before: before.1 .1,
        agree_after: after.1 .1,
        best_epoch,
        epochs_run,
        free: free.iter().filter(|&&f| f).count(),
    };
    (w, report)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog;

    #[test]
    fn differences_of_sparse_vectors_keep_only_changed_entries() {
        let a = [(1, 2.0), (3, 1.0), (5, 4.0)];
        let b = [(1, 2.0), (4, 1.0), (5, 1.0)];
        assert_eq!(difference(&a, &b), vec![(3, 1.0), (4, -1.0), (5, 3.0)]);
    }

    #[test]
    fn learning_to_take_a_free_piece_raises_its_value() {
        let rules = catalog::load_rules("chess").unwrap();
        let mut w = Weights::derived(&rules);
        let names = w.layout.names(&rules);
        let knight = names.iter().position(|n| n == "material.N").unwrap();
        w.values[knight] = [10, 10];
        let eval = Evaluator::new(&rules, w.clone());
        // White's rook can take an undefended knight; the teacher does.
        let pos = Position::from_fen(&rules, "4k3/8/8/n7/8/8/8/R3K3 w - - 0 1").unwrap();
        let take = pos
            .legal_moves(&rules)
            .iter()
            .copied()
            .find(|m| m.uci(&rules) == "a1a5")
            .unwrap();
        let c = choice(&rules, &eval, &pos, take).unwrap();
        let cfg = ChoiceConfig {
            fit: FitConfig {
                epochs: 200,
                lr: 0.3,
                prior: 0.0,
                min_share: 0.0,
                patience: 200,
                movable: None,
            },
            threads: 2,
        };
        let one = std::slice::from_ref(&c);
        let (fitted, r) = fit_choices(&w, one, one, &cfg);
        assert!(r.loss_after.1 < r.loss_before.1, "{r:?}");
        assert!(fitted.values[knight][0] > 10, "{:?}", fitted.values[knight]);
    }
}
