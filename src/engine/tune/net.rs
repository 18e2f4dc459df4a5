//! Training the evaluation's network ([`Network`]) on another engine's scores.
//!
//! Each sample is a quiet position with the other engine's static evaluation of it and our
//! terms' evaluation; the network learns the difference. The loss compares the two in
//! win-probability space (`sigmoid(score / scale)`), so that a few lopsided positions, whose
//! exact score matters little, do not drown the balanced ones. Training is plain
//! mini-batch gradient descent with Adam, early stopping on held-out games.

use crate::engine::eval::Evaluator;
use crate::engine::network::{Network, OUTPUT_CP};
use crate::piece::Colour;
use crate::position::Position;
use crate::rules::Rules;

/// One training position: its inputs from both sides, the terms' score and the target.
#[derive(Clone, Debug)]
pub struct NetSample {
    own: Vec<u16>,
    other: Vec<u16>,
    /// The terms' evaluation, network units (pawns), side to move.
    base: f32,
    /// The other engine's score, network units, side to move.
    target: f32,
}

/// How to train.
#[derive(Clone, Debug)]
pub struct NetFitConfig {
    /// Hidden units per side.
    pub hidden: usize,
    /// Most passes over the training samples.
    pub epochs: usize,
    /// Samples per gradient step.
    pub batch: usize,
    /// Adam's step size.
    pub lr: f32,
    /// Scale of the win-probability curve, in pawns.
    pub scale: f32,
    /// Seed of the initial weights and of the sample order.
    pub seed: u64,
}

impl Default for NetFitConfig {
    fn default() -> Self {
        NetFitConfig {
            hidden: 32,
            epochs: 40,
            batch: 512,
            lr: 0.002,
            scale: 2.0,
            seed: 1,
        }
    }
}

/// What a fit achieved: held-out loss and error without and with the network.
#[derive(Clone, Debug)]
pub struct NetFitReport {
    /// Held-out loss of the terms alone.
    pub start_loss: f64,
    /// Held-out loss with the network, at the best epoch.
    pub best_loss: f64,
    /// Root mean square error in centipawns on held-out samples, terms alone and with it.
    pub rms_cp: (f64, f64),
    /// The epoch whose weights were kept.
    pub best_epoch: usize,
}

/// The samples of one quiet position scored `label_white` centipawns for White by the
/// other engine, divided by `label_scale` to bring it to our scale: the position and its
/// mirror image (files reversed), which every evaluation here scores alike.
pub fn net_samples(
    rules: &Rules,
    eval: &Evaluator,
    shape: &Network,
    leaf: &Position,
    label_white: f32,
    label_scale: f32,
) -> [NetSample; 2] {
    let base = eval.evaluate_terms(rules, leaf) as f32 / OUTPUT_CP;
    let label = label_white / label_scale / OUTPUT_CP;
    let target = if leaf.side_to_move() == Colour::White {
        label
    } else {
        -label
    };
    [false, true].map(|mirror| {
        let (own, other) = inputs(rules, shape, leaf, mirror);
        NetSample {
            own,
            other,
            base,
            target,
        }
    })
}

/// The active inputs of `pos` for the side to move and the other side.
fn inputs(rules: &Rules, shape: &Network, pos: &Position, mirror: bool) -> (Vec<u16>, Vec<u16>) {
    let geo = &rules.geo;
    let us = pos.side_to_move();
    let mut own = Vec::with_capacity(48);
    let mut other = Vec::with_capacity(48);
    for sq in pos.occupied() {
        let Some(p) = pos.piece_at(sq) else { continue };
        let s = if mirror {
            geo.square(geo.files - 1 - geo.file(sq), geo.rank(sq))
        } else {
            sq
        };
        let k = p.kind.index();
        own.push(shape.feature(us, p.colour, k, s) as u16);
        other.push(shape.feature(us.other(), p.colour, k, s) as u16);
    }
    (own, other)
}

/// The least-squares factor from the terms' scores to the other engine's (`label ≈ factor *
/// ours`), over samples where both are below ten pawns: the other engine's centipawn may be
/// larger or smaller than ours, and the network should not have to learn the difference of
/// scale, which would also change how every pruning margin of the search reads.
pub fn label_scale(pairs: &[(f32, f32)]) -> f32 {
    let (mut xy, mut xx) = (0f64, 0f64);
    for &(ours, label) in pairs {
        if ours.abs() < 1000.0 && label.abs() < 1000.0 {
            xy += ours as f64 * label as f64;
            xx += ours as f64 * ours as f64;
        }
    }
    if xx > 0.0 && xy > 0.0 {
        (xy / xx).clamp(0.25, 4.0) as f32
    } else {
        1.0
    }
}

/// Trains a network for `rules` on `train`, keeping the weights of the epoch with the
/// lowest loss on `valid`; `progress` hears about every epoch.
pub fn fit_network(
    rules: &Rules,
    train: &mut [NetSample],
    valid: &[NetSample],
    cfg: &NetFitConfig,
    progress: &mut dyn FnMut(usize, f64, f64),
) -> (Network, NetFitReport) {
    let mut rng = cfg.seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    let mut uniform = move || {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        (rng >> 11) as f32 / (1u64 << 53) as f32
    };
    let init_range = 1.0 / (48f32).sqrt();
    let mut net = Network::new(rules, cfg.hidden, &mut || {
        (uniform() * 2.0 - 1.0) * init_range
    });
    let mut adam = Adam::new(&net);
    let start_loss = loss(&net, valid, cfg.scale, false);
    let mut best = (loss(&net, valid, cfg.scale, true), net.clone(), 0);
    let mut since_best = 0;
    for epoch in 1..=cfg.epochs {
        shuffle(train, &mut uniform);
        for batch in train.chunks(cfg.batch.max(1)) {
            let mut g = Grads::zero(&net);
            for s in batch {
                backprop(&net, s, cfg.scale, &mut g);
            }
            let lr = cfg.lr * if since_best >= 2 { 0.3 } else { 1.0 };
            adam.step(&mut net, &g, lr, batch.len() as f32);
        }
        let l = loss(&net, valid, cfg.scale, true);
        progress(
            epoch,
            loss(&net, &train[..train.len().min(50_000)], cfg.scale, true),
            l,
        );
        if l < best.0 {
            best = (l, net.clone(), epoch);
            since_best = 0;
        } else {
            since_best += 1;
            if since_best >= 4 {
                break;
            }
        }
    }
    let (best_loss, net, best_epoch) = best;
    let rms_cp = (rms(&net, valid, false), rms(&net, valid, true));
    let report = NetFitReport {
        start_loss,
        best_loss,
        rms_cp,
        best_epoch,
    };
    (net, report)
}

fn shuffle(samples: &mut [NetSample], uniform: &mut dyn FnMut() -> f32) {
    for i in (1..samples.len()).rev() {
        let j = ((uniform() * (i + 1) as f32) as usize).min(i);
        samples.swap(i, j);
    }
}

/// The network's output (network units) and the two halves' accumulators.
fn forward(net: &Network, s: &NetSample) -> (f32, Vec<f32>, Vec<f32>) {
    let h = net.hidden;
    let mut own = net.b1.clone();
    let mut other = net.b1.clone();
    for (acc, feats) in [(&mut own, &s.own), (&mut other, &s.other)] {
        for &f in feats.iter() {
            let row = &net.w1[f as usize * h..(f as usize + 1) * h];
            for (a, w) in acc.iter_mut().zip(row) {
                *a += w;
            }
        }
    }
    (net.output(&own, &other), own, other)
}

fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// Mean squared difference in win probability, with or without the network.
fn loss(net: &Network, samples: &[NetSample], scale: f32, with_net: bool) -> f64 {
    let mut sum = 0f64;
    for s in samples {
        let out = if with_net { forward(net, s).0 } else { 0.0 };
        let d = sigmoid((s.base + out) / scale) - sigmoid(s.target / scale);
        sum += (d * d) as f64;
    }
    sum / samples.len().max(1) as f64
}

/// Root mean square error in centipawns, with or without the network.
fn rms(net: &Network, samples: &[NetSample], with_net: bool) -> f64 {
    let mut sum = 0f64;
    for s in samples {
        let out = if with_net { forward(net, s).0 } else { 0.0 };
        let d = ((s.base + out - s.target) * OUTPUT_CP) as f64;
        sum += d * d;
    }
    (sum / samples.len().max(1) as f64).sqrt()
}

/// Gradients of the loss, summed over a batch.
struct Grads {
    w1: Vec<f32>,
    b1: Vec<f32>,
    w2: Vec<f32>,
    b2: f32,
}

impl Grads {
    fn zero(net: &Network) -> Grads {
        Grads {
            w1: vec![0.0; net.w1.len()],
            b1: vec![0.0; net.b1.len()],
            w2: vec![0.0; net.w2.len()],
            b2: 0.0,
        }
    }
}

fn backprop(net: &Network, s: &NetSample, scale: f32, g: &mut Grads) {
    let h = net.hidden;
    let (out, own, other) = forward(net, s);
    let p = sigmoid((s.base + out) / scale);
    let t = sigmoid(s.target / scale);
    let d = 2.0 * (p - t) * p * (1.0 - p) / scale;
    g.b2 += d;
    for (half, (acc, feats)) in [(&own, &s.own), (&other, &s.other)].into_iter().enumerate() {
        let w2 = &net.w2[half * h..(half + 1) * h];
        let gw2 = &mut g.w2[half * h..(half + 1) * h];
        let mut dacc = vec![0f32; h];
        for i in 0..h {
            gw2[i] += d * acc[i].clamp(0.0, 1.0);
            if acc[i] > 0.0 && acc[i] < 1.0 {
                dacc[i] = d * w2[i];
            }
        }
        for (gb, da) in g.b1.iter_mut().zip(&dacc) {
            *gb += da;
        }
        for &f in feats.iter() {
            let row = &mut g.w1[f as usize * h..(f as usize + 1) * h];
            for (gw, da) in row.iter_mut().zip(&dacc) {
                *gw += da;
            }
        }
    }
}

/// Adam's running moments, one per weight.
struct Adam {
    m: Vec<f32>,
    v: Vec<f32>,
    t: i32,
}

impl Adam {
    fn new(net: &Network) -> Adam {
        let n = net.w1.len() + net.b1.len() + net.w2.len() + 1;
        Adam {
            m: vec![0.0; n],
            v: vec![0.0; n],
            t: 0,
        }
    }

    fn step(&mut self, net: &mut Network, g: &Grads, lr: f32, batch: f32) {
        const B1: f32 = 0.9;
        const B2: f32 = 0.999;
        self.t += 1;
        let c1 = 1.0 - B1.powi(self.t);
        let c2 = 1.0 - B2.powi(self.t);
        let mut b2 = [net.b2];
        let params = [
            (&mut net.w1[..], &g.w1[..]),
            (&mut net.b1[..], &g.b1[..]),
            (&mut net.w2[..], &g.w2[..]),
            (&mut b2[..], &[g.b2][..]),
        ];
        let mut k = 0;
        for (ws, gs) in params {
            for (w, gr) in ws.iter_mut().zip(gs) {
                let gr = gr / batch;
                let m = &mut self.m[k];
                let v = &mut self.v[k];
                *m = B1 * *m + (1.0 - B1) * gr;
                *v = B2 * *v + (1.0 - B2) * gr * gr;
                *w -= lr * (*m / c1) / ((*v / c2).sqrt() + 1e-8);
                k += 1;
            }
        }
        net.b2 = b2[0];
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog;
    use crate::engine::weights::Weights;
    use crate::fen::parse_fen;

    #[test]
    fn the_network_learns_a_correction_the_terms_lack() {
        // Target: the terms' score plus one pawn for every White knight on the e-file.
        // The fit should bring the held-out error well below the terms' own.
        let rules = catalog::load_rules("chess").expect("chess");
        let eval = Evaluator::new(&rules, Weights::derived(&rules));
        let shape = Network::new(&rules, 8, &mut || 0.0);
        let fens = [
            "4k3/8/8/8/4N3/8/8/4K3 w - - 0 1",
            "4k3/8/8/8/3N4/8/8/4K3 w - - 0 1",
            "4k3/8/8/4N3/8/8/8/4K3 b - - 0 1",
            "4k3/8/8/8/8/2N5/8/4K3 b - - 0 1",
            "4k3/8/4N3/8/8/8/8/4K3 w - - 0 1",
            "4k3/8/8/8/8/8/1N6/4K3 w - - 0 1",
        ];
        let mut samples = Vec::new();
        for fen in fens {
            let pos =
                Position::from_setup(&rules, parse_fen(&rules, fen).expect("fen")).expect("legal");
            let knight = (0..rules.n_types)
                .find(|&t| rules.letter(Colour::White, t) == 'N')
                .expect("knight");
            let on_e = pos.type_bb(knight) & pos.colour_bb(Colour::White);
            let bonus = on_e.filter(|&sq| rules.geo.file(sq) == 4).count() as f32 * 100.0;
            let ours = eval.evaluate_terms(&rules, &pos) as f32;
            let white = if pos.side_to_move() == Colour::White {
                ours
            } else {
                -ours
            };
            let [a, _] = net_samples(&rules, &eval, &shape, &pos, white + bonus, 1.0);
            samples.push(a);
        }
        let valid = samples.clone();
        let cfg = NetFitConfig {
            hidden: 8,
            epochs: 400,
            batch: 2,
            lr: 0.01,
            ..NetFitConfig::default()
        };
        let (_, report) = fit_network(&rules, &mut samples, &valid, &cfg, &mut |_, _, _| {});
        assert!(report.rms_cp.0 > 50.0, "{report:?}");
        assert!(report.rms_cp.1 < report.rms_cp.0 / 3.0, "{report:?}");
    }

    #[test]
    fn the_label_scale_is_the_least_squares_factor() {
        let pairs = [(100.0, 150.0), (-200.0, -300.0), (50.0, 75.0)];
        assert!((label_scale(&pairs) - 1.5).abs() < 1e-4);
        assert_eq!(label_scale(&[]), 1.0);
    }
}
