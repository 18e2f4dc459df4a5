//! The Texel fit: logistic regression of game results on the evaluation's term counts.
//!
//! Self-play positions of one game are strongly correlated, so a few hundred games carry far
//! less information than their tens of thousands of positions suggest, and a free fit of
//! every parameter overfits them. Three things keep the fit honest:
//! - **held-out games**: whole games (not positions) are kept out of the training set
//!   ([`split_by_game`]); the validation loss is measured every epoch and the weights of the
//!   best validation epoch are returned (early stopping);
//! - **a prior**: an L2 pull towards the starting weights as strong as `prior` pseudo-positions
//!   that each saw the parameter once ([`FitConfig::prior`]); a parameter seen in `n` training
//!   positions moves about `n / (n + prior)` of the way to where the data alone would put it;
//! - **frozen rare parameters**: a parameter present in fewer than `min_share` of the training
//!   positions is not moved at all.

use super::Sample;
use crate::engine::weights::Weights;

/// How the fit runs.
#[derive(Clone, Debug)]
pub struct FitConfig {
    /// Most full-batch gradient steps.
    pub epochs: usize,
    /// Share of the way to each parameter's own (diagonal Newton) minimum moved per step.
    pub lr: f64,
    /// Strength of the pull towards the starting weights, in pseudo-positions.
    pub prior: f64,
    /// Parameters present in fewer than this share of training positions stay fixed.
    pub min_share: f64,
    /// Stop after this many epochs without a better validation loss.
    pub patience: usize,
    /// When given, only the parameters marked `true` may move (by index).
    pub movable: Option<Vec<bool>>,
}

impl Default for FitConfig {
    fn default() -> FitConfig {
        FitConfig {
            epochs: 1500,
            lr: 0.1,
            prior: 2000.0,
            min_share: 0.01,
            patience: 150,
            movable: None,
        }
    }
}

/// What a fit did.
#[derive(Clone, Debug)]
pub struct FitReport {
    /// The logistic scale fitted to the training samples with the starting weights.
    pub k: f64,
    /// Mean squared error of the starting weights on the training samples.
    pub loss_before: f64,
    /// Mean squared error of the returned weights on the training samples.
    pub loss_after: f64,
    /// The same two on the held-out samples (equal to the training ones when none are held out).
    pub valid_before: f64,
    /// Held-out loss of the returned weights.
    pub valid_after: f64,
    /// The epoch whose weights are returned (0: the starting weights).
    pub best_epoch: usize,
    /// Epochs run before stopping.
    pub epochs_run: usize,
    /// Parameters (middlegame and endgame counted apart) the fit was allowed to move.
    pub free: usize,
    /// Training and held-out loss before each epoch's step (index 0: the start).
    pub history: Vec<(f64, f64)>,
    /// Held-out loss after the material phase of [`fit_staged`] (`valid_after` otherwise).
    pub first_phase: f64,
}

/// Splits per-game sample lists into training and held-out samples: every `every`-th game
/// (the last of each group of `every`) is held out; `every` below 2 holds out nothing.
pub fn split_by_game<T>(games: Vec<Vec<T>>, every: usize) -> (Vec<T>, Vec<T>) {
    let mut train = Vec::new();
    let mut valid = Vec::new();
    for (i, g) in games.into_iter().enumerate() {
        if every >= 2 && i % every == every - 1 {
            valid.extend(g);
        } else {
            train.extend(g);
        }
    }
    (train, valid)
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// The evaluation of a sample in centipawns (tapered by its phase).
fn predict(values: &[[f64; 2]], s: &Sample) -> f64 {
    let mut mg = 0.0;
    let mut eg = 0.0;
    for &(i, c) in &s.terms {
        mg += values[i as usize][0] * c as f64;
        eg += values[i as usize][1] * c as f64;
    }
    mg * s.phase as f64 + eg * (1.0 - s.phase as f64)
}

/// Mean squared error of `sigmoid(k * eval / 400)` against the results.
pub fn loss(values: &[[f64; 2]], samples: &[Sample], k: f64) -> f64 {
    let total: f64 = samples
        .iter()
        .map(|s| {
            let p = sigmoid(k * predict(values, s) / 400.0);
            (s.result as f64 - p).powi(2)
        })
        .sum();
    total / samples.len().max(1) as f64
}

/// The logistic scale that fits the starting weights best (a coarse scan over 0.05..=5, then
/// a fine one around the best).
pub fn fit_k(values: &[[f64; 2]], samples: &[Sample]) -> f64 {
    let mut best = (f64::MAX, 1.0);
    let coarse = (1..=50).map(|i| i as f64 * 0.1);
    for k in coarse.chain(std::iter::once(0.05)) {
        let l = loss(values, samples, k);
        if l < best.0 {
            best = (l, k);
        }
    }
    let centre = best.1;
    for i in -10..=10 {
        let k = (centre + i as f64 * 0.01).max(0.05);
        let l = loss(values, samples, k);
        if l < best.0 {
            best = (l, k);
        }
    }
    best.1
}

/// Which parameter halves may move: those present (with their phase weight) in at least
/// `min_share` of the samples.
fn free_mask(len: usize, samples: &[Sample], min_share: f64) -> Vec<[bool; 2]> {
    let mut seen = vec![[0.0f64; 2]; len];
    for s in samples {
        for &(i, _) in &s.terms {
            seen[i as usize][0] += s.phase as f64;
            seen[i as usize][1] += 1.0 - s.phase as f64;
        }
    }
    let need = min_share * samples.len() as f64;
    seen.iter()
        .map(|c| [c[0] >= need.max(1.0), c[1] >= need.max(1.0)])
        .collect()
}

/// The gradient of the objective and its Gauss-Newton diagonal (the curvature each
/// parameter alone would see, its two halves moved together), so a step can be scaled per
/// parameter. Both halves share the curvature: scaled apart, a half that counts little in
/// the positions seen (a middlegame term in endgames) would take huge steps.
struct Slope {
    g: Vec<[f64; 2]>,
    h: Vec<[f64; 2]>,
    /// The training loss where the slope was taken.
    loss: f64,
}

/// Gradient of the training loss plus the prior's pull, with the curvature of both. The
/// prior counts as `prior` pseudo-positions that each saw every parameter once at the curve's
/// steepest point: curvature `2 (k / 1600)^2` each, so a parameter seen in `n` positions moves
/// about `n / (n + prior)` of the way the data alone would move it.
fn slope(v: &[[f64; 2]], samples: &[Sample], k: f64, start: &[[f64; 2]], prior: f64) -> Slope {
    let mut g = vec![[0.0f64; 2]; v.len()];
    let mut h = vec![[0.0f64; 2]; v.len()];
    let n = samples.len().max(1) as f64;
    let mut loss = 0.0;
    for s in samples {
        let p = sigmoid(k * predict(v, s) / 400.0);
        loss += (s.result as f64 - p).powi(2) / n;
        let dp = p * (1.0 - p) * k / 400.0;
        let d = -2.0 * (s.result as f64 - p) * dp / n;
        let c2 = 2.0 * dp * dp / n;
        let w = [s.phase as f64, 1.0 - s.phase as f64];
        for &(i, c) in &s.terms {
            for ph in 0..2 {
                g[i as usize][ph] += d * c as f64 * w[ph];
                h[i as usize][ph] += c2 * (c as f64).powi(2);
            }
        }
    }
    let pull = prior * 2.0 * (k / 1600.0).powi(2) / n;
    for i in 0..v.len() {
        for ph in 0..2 {
            g[i][ph] += pull * (v[i][ph] - start[i][ph]);
            h[i][ph] += pull;
        }
    }
    Slope { g, h, loss }
}

/// One step of diagonally scaled gradient descent: each free parameter moves `lr` of the way
/// to where its own curvature says the minimum is, at most 50 centipawns.
fn step(v: &mut [[f64; 2]], sl: &Slope, free: &[[bool; 2]], lr: f64) {
    for i in 0..v.len() {
        for ph in 0..2 {
            if free[i][ph] && sl.h[i][ph] > 0.0 {
                v[i][ph] -= (lr * sl.g[i][ph] / sl.h[i][ph]).clamp(-50.0, 50.0);
            }
        }
    }
}

/// Fits `start` to `train` by diagonally scaled full-batch gradient descent; when `valid` is not empty, keeps the weights
/// of the epoch with the lowest loss on it and stops after `cfg.patience` epochs without
/// improvement. `k` is fitted once, on the starting weights and the training samples.
pub fn fit(
    start: &Weights,
    train: &[Sample],
    valid: &[Sample],
    cfg: &FitConfig,
) -> (Weights, FitReport) {
    let k = fit_k(&as_f64(start), train);
    fit_with_k(start, train, valid, cfg, k)
}

/// The weights as the fit's floating-point parameter vector.
pub(super) fn as_f64(w: &Weights) -> Vec<[f64; 2]> {
    w.values
        .iter()
        .map(|p| [p[0] as f64, p[1] as f64])
        .collect()
}

/// Fits in two phases: material alone first (the terms a few hundred games can pin down),
/// then every movable term from there, both early-stopped on the held-out samples, so the
/// second phase changes nothing unless it helps there. `k` is fitted once, on `start`. The
/// report's losses run from `start` to the end; `first_phase` is the held-out loss between.
pub fn fit_staged(
    start: &Weights,
    train: &[Sample],
    valid: &[Sample],
    cfg: &FitConfig,
) -> (Weights, FitReport) {
    let k = fit_k(&as_f64(start), train);
    let l = &start.layout;
    let material: Vec<bool> = (0..l.len)
        .map(|i| {
            let may = cfg.movable.as_ref().is_none_or(|v| v[i]);
            may && (l.material..l.material + l.kinds).contains(&i)
        })
        .collect();
    let one = FitConfig {
        movable: Some(material),
        ..cfg.clone()
    };
    let (mid, r1) = fit_with_k(start, train, valid, &one, k);
    let (end, r2) = fit_with_k(&mid, train, valid, cfg, k);
    let mut history = r1.history;
    history.extend(r2.history);
    let report = FitReport {
        loss_before: r1.loss_before,
        valid_before: r1.valid_before,
        best_epoch: r1.epochs_run + r2.best_epoch,
        epochs_run: r1.epochs_run + r2.epochs_run,
        first_phase: r1.valid_after,
        history,
        ..r2
    };
    (end, report)
}

fn fit_with_k(
    start: &Weights,
    train: &[Sample],
    valid: &[Sample],
    cfg: &FitConfig,
    k: f64,
) -> (Weights, FitReport) {
    let start_v = as_f64(start);
    let watch = if valid.is_empty() { train } else { valid };
    let mut free = free_mask(start_v.len(), train, cfg.min_share);
    if let Some(m) = &cfg.movable {
        for (f, &ok) in free.iter_mut().zip(m) {
            if !ok {
                *f = [false; 2];
            }
        }
    }
    let mut v = start_v.clone();
    let valid_before = loss(&v, watch, k);
    let (mut best, mut best_loss, mut best_epoch) = (v.clone(), valid_before, 0);
    let mut epochs_run = 0;
    let mut history = Vec::new();
    for epoch in 1..=cfg.epochs {
        let sl = slope(&v, train, k, &start_v, cfg.prior);
        history.push((sl.loss, loss(&v, watch, k)));
        step(&mut v, &sl, &free, cfg.lr);
        epochs_run = epoch;
        let l = loss(&v, watch, k);
        if l < best_loss {
            (best, best_loss, best_epoch) = (v.clone(), l, epoch);
        } else if !valid.is_empty() && epoch - best_epoch >= cfg.patience {
            break;
        }
    }
    let mut w = start.clone();
    for (dst, src) in w.values.iter_mut().zip(&best) {
        *dst = [src[0].round() as i32, src[1].round() as i32];
    }
    let report = FitReport {
        k,
        loss_before: loss(&start_v, train, k),
        loss_after: loss(&best, train, k),
        valid_before,
        valid_after: best_loss,
        best_epoch,
        epochs_run,
        free: free.iter().flatten().filter(|f| **f).count(),
        history,
        first_phase: best_loss,
    };
    (w, report)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::weights::Layout;

    /// Weights over a tiny layout, every value `v`.
    fn flat(v: i32) -> Weights {
        let layout = Layout::new(2, 4, 4);
        let len = layout.len;
        Weights {
            layout,
            values: vec![[v, v]; len],
        }
    }

    /// `n` samples that each count parameter `param` once, White winning `wins` of them.
    fn samples(param: u32, n: usize, wins: usize) -> Vec<Sample> {
        (0..n)
            .map(|i| Sample {
                terms: vec![(param, 1.0)],
                phase: 1.0,
                result: if i < wins { 1.0 } else { 0.5 },
                score: None,
            })
            .collect()
    }

    fn no_prior() -> FitConfig {
        FitConfig {
            prior: 0.0,
            min_share: 0.0,
            ..FitConfig::default()
        }
    }

    #[test]
    fn early_stopping_keeps_the_best_validation_epoch() {
        // Training games say the term is worth a lot (White scores 95%), held-out games that
        // it is worth less (70%): training to the end overfits, early stopping must not.
        let start = flat(10);
        let train = samples(0, 1000, 900);
        let valid = samples(0, 200, 80);
        let (stopped, rep) = fit(&start, &train, &valid, &no_prior());
        let (overfit, _) = fit(&start, &train, &[], &no_prior());
        let k = rep.k;
        let as_f = |w: &Weights| -> Vec<[f64; 2]> {
            w.values
                .iter()
                .map(|p| [p[0] as f64, p[1] as f64])
                .collect()
        };
        assert!(
            rep.best_epoch > 0 && rep.best_epoch < rep.epochs_run,
            "{rep:?}"
        );
        assert!(rep.valid_after < rep.valid_before, "{rep:?}");
        let (vs, vo) = (
            loss(&as_f(&stopped), &valid, k),
            loss(&as_f(&overfit), &valid, k),
        );
        assert!(
            vs + 1e-4 < vo,
            "held-out loss: stopped {vs}, trained on {vo}"
        );
        assert!(
            stopped.values[0][0] < overfit.values[0][0] / 2,
            "{:?} vs {:?}",
            stopped.values[0],
            overfit.values[0]
        );
    }

    #[test]
    fn the_staged_fit_moves_material_and_keeps_a_term_that_only_fits_the_training_games() {
        // Material (parameter 0) wins in both sets; parameter 2 (a centre term) wins in the
        // training games only. The material phase must move parameter 0, the second phase
        // must leave parameter 2 alone because moving it makes the held-out loss worse.
        let start = flat(10);
        let mut train = samples(0, 500, 350);
        train.extend(samples(2, 500, 450));
        let mut valid = samples(0, 200, 140);
        valid.extend(samples(2, 200, 0));
        let (w, rep) = fit_staged(&start, &train, &valid, &no_prior());
        assert!(w.values[0][0] > 50, "material: {:?}", w.values[0]);
        assert_eq!(w.values[2], [10, 10], "{rep:?}");
        assert!(rep.first_phase < rep.valid_before, "{rep:?}");
        assert!(rep.valid_after <= rep.first_phase + 1e-4, "{rep:?}");
        let (plain, _) = fit(&start, &train, &valid, &no_prior());
        assert!(
            plain.values[2][0] > 10,
            "one phase moves both together: {:?}",
            plain.values[2]
        );
    }

    #[test]
    fn rarely_seen_parameters_stay_near_the_prior() {
        // Parameter 0 in 995 positions, parameter 1 in 5 (all won): with the default prior,
        // parameter 1 barely moves, without it it runs; below min_share (1%) it is frozen.
        let start = flat(20);
        let mut train = samples(0, 995, 600);
        train.extend(samples(1, 5, 5));
        let free = FitConfig {
            min_share: 0.0,
            ..FitConfig::default()
        };
        let (pulled, _) = fit(&start, &train, &[], &free);
        let (loose, _) = fit(&start, &train, &[], &no_prior());
        let moved = |w: &Weights| (w.values[1][0] - 20).abs();
        assert!(
            moved(&loose) > 100,
            "without a prior: {:?}",
            loose.values[1]
        );
        assert!(
            moved(&pulled) * 10 < moved(&loose),
            "{:?} vs {:?}",
            pulled.values[1],
            loose.values[1]
        );
        let (frozen, rep) = fit(&start, &train, &[], &FitConfig::default());
        assert_eq!(frozen.values[1], [20, 20]);
        assert!(
            frozen.values[0][0] != 20,
            "the common parameter still moves"
        );
        assert_eq!(rep.free, 1, "only parameter 0's middlegame half is free");
    }
}
