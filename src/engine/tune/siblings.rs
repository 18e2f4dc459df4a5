//! Fitting how the evaluation tells moves apart: the sibling fit.
//!
//! A search chooses between the children of one position, so what counts is how the
//! evaluation ranks positions one quiet move apart, not how it ranks positions of different
//! games. Fits to a reference engine's evaluation of whole positions are ruled by the large
//! differences between games (material above all): in the thirty-ninth session our weights
//! followed Fairy-Stockfish's static evaluation at a correlation of 0.97-0.98 over all
//! positions but only 0.69-0.71 among the quiet children of one position. The sibling fit
//! therefore splits the squared error into its part within each family of siblings (each
//! child against its family's mean) and the families' means, weights the first more, and
//! solves the ridge regression in closed form (the evaluation is linear in its weights once
//! a position's term counts and phase are known).

use super::Sample;
use crate::engine::movepick::is_noisy;
use crate::engine::weights::Weights;
use crate::position::Position;
use crate::rules::Rules;

/// The children of `pos` after its legal quiet moves (no capture, no promotion).
pub fn quiet_children(rules: &Rules, pos: &Position) -> Vec<Position> {
    pos.legal_moves(rules)
        .into_iter()
        .filter(|&&m| !is_noisy(pos, m))
        .map(|&m| pos.play_unchecked(rules, m))
        .collect()
}

/// One child position: its family (the parent's number), term counts and phase, and the
/// reference evaluation in centipawns from White's side.
#[derive(Clone, Debug)]
pub struct Sibling {
    /// Which parent the child comes from.
    pub family: usize,
    /// The child's term counts and phase.
    pub sample: Sample,
    /// The reference engine's evaluation of the child, centipawns from White's side.
    pub cp: f64,
}

/// How the sibling fit weighs its parts.
#[derive(Clone, Debug)]
pub struct SiblingConfig {
    /// Weight of the within-family error against the family means' error.
    pub within_weight: f64,
    /// Ridge pull towards the starting weights (in squared centipawns per unit change).
    pub ridge: f64,
    /// Every this-many-th family is held out to measure the fit (0: none).
    pub holdout: usize,
}

impl Default for SiblingConfig {
    fn default() -> Self {
        SiblingConfig {
            within_weight: 3.0,
            ridge: 1000.0,
            holdout: 5,
        }
    }
}

/// Correlations with the reference on the held-out families, before and after the fit.
#[derive(Clone, Debug, Default)]
pub struct SiblingReport {
    /// Reference centipawns per one of ours (the family means' regression slope).
    pub scale: f64,
    /// Families (parents with at least two children) and children fitted and held out.
    pub families: usize,
    /// Children in those families.
    pub children: usize,
    /// Held-out correlation with the reference (over all children, within families) with
    /// the starting weights.
    pub before: (f64, f64),
    /// The same with the fitted weights (before rounding).
    pub after: (f64, f64),
}

/// A feature row as its non-zero entries: (index, value), middlegame halves at `0..n`,
/// endgame halves at `n..2n`. Rows stay sparse: a hundred thousand dense rows of a thousand
/// parameters would take gigabytes.
type Row = Vec<(usize, f64)>;

/// The feature row of a sample.
fn row(s: &Sample, n: usize) -> Row {
    let ph = s.phase as f64;
    let mut x = Row::with_capacity(2 * s.terms.len());
    for &(i, c) in &s.terms {
        x.push((i as usize, c as f64 * ph));
        x.push((n + i as usize, c as f64 * (1.0 - ph)));
    }
    x.retain(|&(_, v)| v != 0.0);
    x
}

fn dot(r: &[(usize, f64)], w: &[f64]) -> f64 {
    r.iter().map(|&(i, v)| v * w[i]).sum()
}

/// The mean of `rows`, as a row.
fn mean_of(rows: &[Row], len: usize) -> Row {
    let k = rows.len() as f64;
    let mut dense = vec![0.0; len];
    for &(i, v) in rows.iter().flatten() {
        dense[i] += v / k;
    }
    dense
        .into_iter()
        .enumerate()
        .filter(|&(_, v)| v != 0.0)
        .collect()
}

/// Families as (rows, targets), with each family's mean row and target.
struct Family {
    rows: Vec<Row>,
    cps: Vec<f64>,
    mean_row: Row,
    mean_cp: f64,
}

fn families(sibs: &[Sibling], n: usize) -> Vec<(usize, Family)> {
    let mut by: std::collections::BTreeMap<usize, (Vec<Row>, Vec<f64>)> = Default::default();
    for s in sibs {
        let e = by.entry(s.family).or_default();
        e.0.push(row(&s.sample, n));
        e.1.push(s.cp);
    }
    by.into_iter()
        .filter(|(_, (r, _))| r.len() >= 2)
        .map(|(id, (rows, cps))| {
            let mean_row = mean_of(&rows, 2 * n);
            let mean_cp = cps.iter().sum::<f64>() / rows.len() as f64;
            let f = Family {
                rows,
                cps,
                mean_row,
                mean_cp,
            };
            (id, f)
        })
        .collect()
}

/// Pearson correlation; 0 when either side does not vary.
fn correlation(a: &[f64], b: &[f64]) -> f64 {
    let n = a.len().max(1) as f64;
    let (ma, mb) = (a.iter().sum::<f64>() / n, b.iter().sum::<f64>() / n);
    let (mut sab, mut saa, mut sbb) = (0.0, 0.0, 0.0);
    for (x, y) in a.iter().zip(b) {
        sab += (x - ma) * (y - mb);
        saa += (x - ma) * (x - ma);
        sbb += (y - mb) * (y - mb);
    }
    if saa <= 0.0 || sbb <= 0.0 {
        return 0.0;
    }
    sab / (saa * sbb).sqrt()
}

/// (correlation over all children, correlation of the deviations from the family means).
fn agreement(w: &[f64], fams: &[&Family]) -> (f64, f64) {
    let (mut p, mut y, mut pw, mut yw) = (vec![], vec![], vec![], vec![]);
    for f in fams {
        let mp = dot(&f.mean_row, w);
        for (r, &cp) in f.rows.iter().zip(&f.cps) {
            let v = dot(r, w);
            p.push(v);
            y.push(cp);
            pw.push(v - mp);
            yw.push(cp - f.mean_cp);
        }
    }
    (correlation(&p, &y), correlation(&pw, &yw))
}

/// Least-squares slope of `y` on `x` (with an intercept).
fn slope(x: &[f64], y: &[f64]) -> f64 {
    let n = x.len().max(1) as f64;
    let (mx, my) = (x.iter().sum::<f64>() / n, y.iter().sum::<f64>() / n);
    let sxy: f64 = x.iter().zip(y).map(|(a, b)| (a - mx) * (b - my)).sum();
    let sxx: f64 = x.iter().map(|a| (a - mx) * (a - mx)).sum();
    if sxx > 0.0 {
        sxy / sxx
    } else {
        1.0
    }
}

/// Solves `a x = b` for a symmetric positive definite `a` (Cholesky); None if it is not.
fn solve_spd(mut a: Vec<Vec<f64>>, b: &[f64]) -> Option<Vec<f64>> {
    let n = b.len();
    for j in 0..n {
        let d = a[j][j] - (0..j).map(|k| a[j][k] * a[j][k]).sum::<f64>();
        if d <= 0.0 || !d.is_finite() {
            return None;
        }
        let d = d.sqrt();
        a[j][j] = d;
        for i in j + 1..n {
            let s = a[i][j] - (0..j).map(|k| a[i][k] * a[j][k]).sum::<f64>();
            a[i][j] = s / d;
        }
    }
    let mut y = vec![0.0; n];
    for i in 0..n {
        y[i] = (b[i] - (0..i).map(|k| a[i][k] * y[k]).sum::<f64>()) / a[i][i];
    }
    let mut x = vec![0.0; n];
    for i in (0..n).rev() {
        x[i] = (y[i] - (i + 1..n).map(|k| a[k][i] * x[k]).sum::<f64>()) / a[i][i];
    }
    Some(x)
}

/// Adds `weight * r rᵀ` and `weight * r t` to the normal equations.
fn accumulate(h: &mut [Vec<f64>], g: &mut [f64], r: &[(usize, f64)], t: f64, weight: f64) {
    for &(i, vi) in r {
        g[i] += weight * vi * t;
        for &(j, vj) in r {
            h[i][j] += weight * vi * vj;
        }
    }
}

/// Fits `start` to the reference evaluations of `sibs` (targets divided by the reference's
/// scale, so the weights keep ours): minimises `within_weight` times the squared error of
/// each child's deviation from its family mean, plus the squared error of the family means
/// (counted once per child), plus `ridge` times the squared change of every weight.
pub fn fit_siblings(
    start: &Weights,
    sibs: &[Sibling],
    cfg: &SiblingConfig,
) -> Option<(Weights, SiblingReport)> {
    let n = start.values.len();
    let w0: Vec<f64> = (0..2 * n)
        .map(|i| start.values[i % n][i / n] as f64)
        .collect();
    let all = families(sibs, n);
    let held = |id: usize| cfg.holdout > 0 && id.is_multiple_of(cfg.holdout);
    let train: Vec<&Family> = all
        .iter()
        .filter(|(id, _)| !held(*id))
        .map(|p| &p.1)
        .collect();
    let test: Vec<&Family> = all
        .iter()
        .filter(|(id, _)| held(*id))
        .map(|p| &p.1)
        .collect();
    if train.is_empty() {
        return None;
    }
    let means: Vec<f64> = train.iter().map(|f| dot(&f.mean_row, &w0)).collect();
    let targets: Vec<f64> = train.iter().map(|f| f.mean_cp).collect();
    let scale = slope(&means, &targets);
    if !(scale.is_finite() && scale > 0.1) {
        return None;
    }
    let mut h = vec![vec![0.0; 2 * n]; 2 * n];
    let mut g = vec![0.0; 2 * n];
    // The within-family scatter of k rows about their mean m is Σ r rᵀ - k m mᵀ, and the
    // deviations' targets sum to zero, so the rows need not be centred one by one.
    let a = cfg.within_weight;
    for f in &train {
        let k = f.rows.len() as f64;
        accumulate(
            &mut h,
            &mut g,
            &f.mean_row,
            f.mean_cp / scale,
            k * (1.0 - a),
        );
        for (r, cp) in f.rows.iter().zip(&f.cps) {
            accumulate(&mut h, &mut g, r, (cp - f.mean_cp) / scale, a);
        }
        // The family mean's target belongs to the means' part alone.
        let mean_t = f.mean_cp / scale;
        for &(i, m) in &f.mean_row {
            g[i] += k * a * m * mean_t;
        }
    }
    for i in 0..2 * n {
        h[i][i] += cfg.ridge;
        g[i] += cfg.ridge * w0[i];
    }
    let w = solve_spd(h, &g)?;
    let mut tuned = start.clone();
    for (i, v) in tuned.values.iter_mut().enumerate() {
        *v = [w[i].round() as i32, w[n + i].round() as i32];
    }
    let watch = if test.is_empty() { &train } else { &test };
    let report = SiblingReport {
        scale,
        families: all.len(),
        children: all.iter().map(|(_, f)| f.rows.len()).sum(),
        before: agreement(&w0, watch),
        after: agreement(&w, watch),
    };
    Some((tuned, report))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::weights::Layout;

    fn weights(values: Vec<[i32; 2]>) -> Weights {
        let layout = Layout::new(2, 4, 4);
        let mut w = Weights {
            values: vec![[0, 0]; layout.len],
            layout,
        };
        for (d, v) in w.values.iter_mut().zip(values) {
            *d = v;
        }
        w
    }

    fn sib(family: usize, terms: Vec<(u32, f32)>, cp: f64) -> Sibling {
        let sample = Sample {
            terms,
            phase: 1.0,
            result: 0.5,
            score: None,
        };
        Sibling { family, sample, cp }
    }

    #[test]
    fn the_fit_learns_a_term_that_tells_siblings_apart() {
        // Term 0 (material) sets the families apart, term 1 the siblings: the reference
        // values term 1 at 40 while the start weights give it nothing.
        let start = weights(vec![[100, 100], [0, 0]]);
        let mut sibs = Vec::new();
        for fam in 0..200 {
            let m = (fam % 7) as f32 - 3.0;
            for k in 0..6 {
                let t = (k % 3) as f32 - 1.0;
                sibs.push(sib(
                    fam,
                    vec![(0, m), (1, t)],
                    100.0 * m as f64 + 40.0 * t as f64,
                ));
            }
        }
        let cfg = SiblingConfig {
            ridge: 1.0,
            ..SiblingConfig::default()
        };
        let (w, r) = fit_siblings(&start, &sibs, &cfg).expect("fit");
        assert!((w.values[1][0] - 40).abs() <= 1, "{:?}", w.values[1]);
        assert!((w.values[0][0] - 100).abs() <= 1, "{:?}", w.values[0]);
        assert!((r.scale - 1.0).abs() < 0.01, "{}", r.scale);
        assert!(r.after.1 > 0.99 && r.before.1.abs() < 0.01, "{r:?}");
    }

    #[test]
    fn a_reference_on_a_larger_scale_is_fitted_on_ours() {
        // The reference counts everything 1.5 times: the weights stay on our scale.
        let start = weights(vec![[100, 100], [20, 20]]);
        let mut sibs = Vec::new();
        for fam in 0..100 {
            let m = (fam % 5) as f32 - 2.0;
            for k in 0..4 {
                let t = k as f32 - 1.5;
                let cp = 1.5 * (100.0 * m as f64 + 30.0 * t as f64);
                sibs.push(sib(fam, vec![(0, m), (1, t)], cp));
            }
        }
        let cfg = SiblingConfig {
            ridge: 1.0,
            ..SiblingConfig::default()
        };
        let (w, r) = fit_siblings(&start, &sibs, &cfg).expect("fit");
        assert!((r.scale - 1.5).abs() < 0.05, "{}", r.scale);
        assert!((w.values[1][0] - 30).abs() <= 2, "{:?}", w.values[1]);
    }

    #[test]
    fn quiet_children_leave_out_captures() {
        let rules = crate::catalog::load_rules("chess").expect("chess");
        let pos = Position::from_fen(&rules, "4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1").expect("fen");
        let children = quiet_children(&rules, &pos);
        // King: d1, d2, e2, f1, f2; pawn: e5. exd5 is left out.
        assert_eq!(children.len(), 6);
    }
}
