//! Static evaluation: a sum of terms, each a count from the position times a (middlegame,
//! endgame) weight from [`Weights`], blended by the game phase.
//!
//! The terms are computed once by [`Evaluator::terms`], generic over where they go: the
//! search adds them up with the weights, the tuner records the counts to fit the weights.
//! Everything comes from the compiled rules (move tables, promotion zone, piece values), so
//! any variant file gets an evaluation. A mop-up term outside the tuned set drives a lone
//! king to the edge, so won endings are won.

use super::pawn_cache::{PawnCache, PawnSums};
use super::weights::{Layout, Weights, SHELTER_TERMS, STORM_TERMS};
use crate::game::insufficient_material;
use crate::geometry::{Bitboard, Square};
use crate::piece::Colour;
use crate::position::Position;
use crate::rules::Rules;
use crate::variant::MAX_PIECE_TYPES;

/// Where evaluation terms go: `n` times parameter `param` for colour `colour`.
pub trait TermSink {
    /// Counts `n` times parameter `param` in `colour`'s favour.
    fn add(&mut self, colour: Colour, param: usize, n: i32);

    /// Whether terms whose weights are all zero must be counted too: yes for a fit, which
    /// learns them; no for the score, where leaving them out saves time.
    fn counts_zero_terms(&self) -> bool {
        true
    }

    /// Counts the placement terms of one piece (`terms` lists them: parameter and count).
    /// `total` is their weighted (middlegame, endgame) sum, looked up once per piece: a sink
    /// that only adds up takes it and never asks for the five terms.
    #[inline(always)]
    fn add_placement<T>(&mut self, colour: Colour, _total: [i32; 2], terms: T)
    where
        T: FnOnce() -> [(usize, i32); 5],
    {
        for (param, n) in terms() {
            if n != 0 {
                self.add(colour, param, n);
            }
        }
    }

    /// Counts one piece's mobility terms: `safe` squares of kind `t` (per square, four times
    /// the square root, and "trapped" for one square or none). `total` is their weighted
    /// (middlegame, endgame) sum, looked up once per piece by a sink that only adds up.
    #[inline(always)]
    fn add_mobility(&mut self, colour: Colour, l: &Layout, (t, safe): (usize, i32), _: [i32; 2]) {
        for (param, n) in mobility_terms(l, t, safe) {
            if n != 0 {
                self.add(colour, param, n);
            }
        }
    }

    /// Counts the pawn terms of both sides that depend on the placement of the pawns
    /// (`pawns`: White's, Black's) alone, their placement and structure: `count` counts them
    /// into the sink it is given. A sink that only adds up may take their sums from a cache
    /// instead.
    #[inline(always)]
    fn add_pawn_structure<F>(&mut self, _pawns: [Bitboard; 2], count: F)
    where
        Self: Sized,
        F: FnOnce(&mut Self),
    {
        count(self)
    }
}

/// A static evaluation supplied from outside the engine: another engine's, piped in, so
/// that a match can tell what our search does with the other engine's judgement (a
/// diagnostic: `bench --strength --eval-with`). Centipawns for the side to move; `None`
/// falls back on our own evaluation.
pub trait ExternalEval: Send + Sync {
    /// The evaluation of `pos` for its side to move.
    fn evaluate(&self, rules: &Rules, pos: &Position) -> Option<i32>;
}

/// Phase scale: 256 is all pieces on, 0 is bare kings (and pawns).
pub const PHASE_MAX: i32 = 256;

/// Tables computed once per variant, plus the weights.
pub struct Evaluator {
    /// The parameters the evaluation multiplies its terms with (read, not changed, after
    /// construction: the `scores_*` flags are derived from them).
    pub weights: Weights,
    /// `[kind * squares + square]`: empty-board mobility minus the kind's average.
    centre: Vec<i32>,
    /// Per colour and square: rank counted from the colour's own side.
    rel_rank: [Vec<usize>; 2],
    /// Per square: the file folded onto the board's left half (0 = an edge file).
    folded_file: Vec<usize>,
    /// Per colour and square: ranks to the promotion zone on the file (0: none).
    promo_distance: [Vec<usize>; 2],
    /// Per colour and square: the squares ahead on the file and the files beside it.
    front_span: [Vec<Bitboard>; 2],
    /// Per colour and square: the squares ahead on the file.
    front_file: [Vec<Bitboard>; 2],
    /// Per file: the files beside it.
    adjacent_files: Vec<Bitboard>,
    /// Per square: the squares beside it on its rank (where a phalanx neighbour stands).
    beside: Vec<Bitboard>,
    /// Per square: Chebyshev distance from the centre, doubled.
    centre_distance: Vec<i32>,
    /// Per kind: its share of the game phase (file values of the non-pawn pieces).
    phase_value: Vec<i32>,
    full_phase: i32,
    /// Whether the weights give the shelter and storm terms, and the connected-pawn terms,
    /// any value: groups that are all zero are not counted for the score.
    scores_shelter_storm: bool,
    scores_pawn_links: bool,
    /// Per kind: the kinds of lower value (not the king), whose attacks threaten it.
    cheaper: Vec<Vec<usize>>,
    /// Per colour, `[kind * squares + square]`: where a piece of that kind and colour could
    /// check a king on that square from, on an empty board (the lines' full length).
    check_from: [Vec<Bitboard>; 2],
    /// Per colour, `[kind * squares + square]`: the weighted sum of a piece's placement
    /// terms there (material, rank, file, square, centre), so the score adds one pair per
    /// piece instead of five.
    placement: [Vec<[i32; 2]>; 2],
    /// `[kind * MOBILITY_SLOTS + safe squares]`: the weighted sum of a piece's mobility
    /// terms, so the score adds one pair per piece instead of three.
    mobility: Vec<[i32; 2]>,
    /// Another engine's evaluation used instead of ours, when set.
    external: Option<std::sync::Arc<dyn ExternalEval>>,
}

/// Static evaluations of recently seen positions, by hash (one per search thread): the
/// search meets the same position again through transpositions and re-searches, and the
/// evaluation is the most expensive step of a node.
pub struct EvalCache(Vec<u64>);

const EVAL_CACHE_ENTRIES: usize = 1 << 16;

impl EvalCache {
    pub fn new() -> EvalCache {
        EvalCache(vec![0; EVAL_CACHE_ENTRIES])
    }

    /// The cached evaluation of the position with hash `key`. An entry keeps the upper 32
    /// bits of its key; the lower ones chose the slot.
    #[inline]
    pub fn get(&self, key: u64) -> Option<i32> {
        let e = self.0[key as usize & (EVAL_CACHE_ENTRIES - 1)];
        (e != 0 && e >> 32 == key >> 32).then_some(e as u32 as i32)
    }

    #[inline]
    pub fn put(&mut self, key: u64, eval: i32) {
        let e = (key >> 32) << 32 | eval as u32 as u64;
        self.0[key as usize & (EVAL_CACHE_ENTRIES - 1)] = e;
    }

    /// Forgets every entry (new weights, new game).
    pub fn clear(&mut self) {
        self.0.fill(0);
    }
}

impl Default for EvalCache {
    fn default() -> Self {
        EvalCache::new()
    }
}

/// Adds terms up with weights: the search's sink.
struct Sum<'a> {
    w: &'a [[i32; 2]],
    mg: [i32; 2],
    eg: [i32; 2],
    pawns: Option<&'a mut PawnCache>,
}

impl<'a> Sum<'a> {
    fn new(w: &'a [[i32; 2]], pawns: Option<&'a mut PawnCache>) -> Sum<'a> {
        Sum {
            w,
            mg: [0; 2],
            eg: [0; 2],
            pawns,
        }
    }
}

impl TermSink for Sum<'_> {
    #[inline]
    fn add(&mut self, colour: Colour, param: usize, n: i32) {
        let w = self.w[param];
        self.mg[colour] += w[0] * n;
        self.eg[colour] += w[1] * n;
    }

    fn counts_zero_terms(&self) -> bool {
        false
    }

    #[inline(always)]
    fn add_placement<T>(&mut self, colour: Colour, total: [i32; 2], _: T)
    where
        T: FnOnce() -> [(usize, i32); 5],
    {
        self.mg[colour] += total[0];
        self.eg[colour] += total[1];
    }

    #[inline(always)]
    fn add_mobility(&mut self, colour: Colour, _: &Layout, _: (usize, i32), total: [i32; 2]) {
        self.mg[colour] += total[0];
        self.eg[colour] += total[1];
    }

    #[inline(always)]
    fn add_pawn_structure<F>(&mut self, pawns: [Bitboard; 2], count: F)
    where
        F: FnOnce(&mut Self),
    {
        let w = self.w;
        let Some(cache) = self.pawns.as_deref_mut() else {
            return count(self);
        };
        let sums: PawnSums = cache.get(pawns).unwrap_or_else(|| {
            let mut part = Sum::new(w, None);
            count(&mut part);
            let sums = [0, 1].map(|c| [part.mg[c], part.eg[c]]);
            cache.put(pawns, sums);
            sums
        });
        for c in Colour::ALL {
            self.mg[c] += sums[c][0];
            self.eg[c] += sums[c][1];
        }
    }
}

/// Per-side attack maps gathered while the terms are counted.
struct Attacks {
    all: [Bitboard; 2],
    pawn: [Bitboard; 2],
    /// Per colour and kind: the squares pieces of that kind attack (kings left out).
    by_kind: [[Bitboard; MAX_PIECE_TYPES]; 2],
    king_attackers: [i32; 2],
}

impl Evaluator {
    /// The evaluator for one variant: its tables computed once from the rules, with `weights`.
    pub fn new(rules: &Rules, weights: Weights) -> Evaluator {
        let geo = &rules.geo;
        let n = geo.squares();
        let ranks = geo.ranks as usize;
        let rel_rank = Colour::ALL.map(|c| {
            (0..n as Square)
                .map(|sq| {
                    let r = geo.rank(sq) as usize;
                    if c == Colour::White {
                        r
                    } else {
                        ranks - 1 - r
                    }
                })
                .collect()
        });
        let promo_distance = Colour::ALL.map(|c| {
            let zone = rules.promotion_zone[c];
            (0..n as Square)
                .map(|sq| {
                    zone.filter(|&z| geo.file(z) == geo.file(sq))
                        .map(|z| geo.rank(z).abs_diff(geo.rank(sq)) as usize)
                        .min()
                        .unwrap_or(0)
                })
                .collect()
        });
        let folded_file = (0..n as Square)
            .map(|sq| {
                let f = geo.file(sq) as usize;
                f.min(geo.files as usize - 1 - f)
            })
            .collect();
        let (adjacent_files, front_file, front_span) = pawn_spans(rules);
        let cf = (geo.files as f64 - 1.0) / 2.0;
        let cr = (geo.ranks as f64 - 1.0) / 2.0;
        let centre_distance = (0..n as Square)
            .map(|sq| {
                let df = (geo.file(sq) as f64 - cf).abs();
                let dr = (geo.rank(sq) as f64 - cr).abs();
                (df.max(dr) * 2.0) as i32
            })
            .collect();
        let (phase_value, full_phase) = phase_values(rules);
        let beside = (0..n as Square)
            .map(|sq| {
                let mut b = Bitboard::EMPTY;
                for s in [-1, 1].into_iter().filter_map(|df| geo.offset(sq, df, 0)) {
                    b.set(s);
                }
                b
            })
            .collect();
        let any_weight =
            |params: std::ops::Range<usize>| weights.values[params].iter().any(|w| *w != [0, 0]);
        let scores_shelter_storm = any_weight(weights.layout.shelter_storm());
        let scores_pawn_links = any_weight(weights.layout.pawn_links());
        let mut ev = Evaluator {
            scores_shelter_storm,
            scores_pawn_links,
            weights,
            centre: centre_table(rules),
            rel_rank,
            folded_file,
            promo_distance,
            front_span,
            front_file,
            adjacent_files,
            beside,
            centre_distance,
            phase_value,
            full_phase,
            cheaper: cheaper_kinds(rules),
            check_from: Colour::ALL.map(|c| check_from(rules, c)),
            external: None,
            placement: [Vec::new(), Vec::new()],
            mobility: Vec::new(),
        };
        ev.placement = Colour::ALL.map(|c| ev.placement_table(rules, c));
        ev.mobility = ev.mobility_table(rules);
        ev
    }

    /// The placement sums of every kind on every square for colour `c`.
    fn placement_table(&self, rules: &Rules, c: Colour) -> Vec<[i32; 2]> {
        let n = rules.geo.squares();
        let mut table = Vec::with_capacity(rules.n_types * n);
        for t in 0..rules.n_types {
            for s in 0..n {
                let mut total = [0, 0];
                for (param, count) in self.placement_terms(c, t, s, n) {
                    let w = self.weights.values[param];
                    total = [total[0] + w[0] * count, total[1] + w[1] * count];
                }
                table.push(total);
            }
        }
        table
    }

    /// The mobility sums of every kind for every count of safe squares.
    fn mobility_table(&self, rules: &Rules) -> Vec<[i32; 2]> {
        let mut table = Vec::with_capacity(rules.n_types * MOBILITY_SLOTS);
        for t in 0..rules.n_types {
            for safe in 0..MOBILITY_SLOTS {
                let mut total = [0, 0];
                for (param, n) in mobility_terms(self.layout(), t, safe as i32) {
                    let w = self.weights.values[param];
                    total = [total[0] + w[0] * n, total[1] + w[1] * n];
                }
                table.push(total);
            }
        }
        table
    }

    /// The placement terms of a piece of kind `t` and colour `c` on square `s`.
    #[inline(always)]
    fn placement_terms(&self, c: Colour, t: usize, s: usize, n: usize) -> [(usize, i32); 5] {
        let l = self.layout();
        let (rank, file) = (self.rel_rank[c][s], self.folded_file[s]);
        [
            (l.material + t, 1),
            (l.rank + t * l.ranks + rank, 1),
            (l.file + t * l.half_files + file, 1),
            (l.square_index(t, rank, file), 1),
            (l.centre + t, self.centre[t * n + s]),
        ]
    }

    /// Uses `external` instead of our own evaluation wherever it gives one.
    pub fn set_external(&mut self, external: Option<std::sync::Arc<dyn ExternalEval>>) {
        self.external = external;
    }

    /// Where each term group sits in the weights.
    pub fn layout(&self) -> &Layout {
        &self.weights.layout
    }

    /// Game phase, `PHASE_MAX` with the whole army on the board, 0 with only kings and pawns.
    #[inline(always)]
    pub fn phase(&self, rules: &Rules, pos: &Position) -> i32 {
        let mut npm = 0;
        for t in 0..rules.n_types {
            if self.phase_value[t] != 0 {
                npm += self.phase_value[t] * pos.type_bb(t).count() as i32;
            }
        }
        npm.min(self.full_phase) * PHASE_MAX / self.full_phase
    }

    /// Static evaluation in centipawns from the side to move's point of view.
    pub fn evaluate(&self, rules: &Rules, pos: &Position) -> i32 {
        self.evaluate_with(rules, pos, None)
    }

    /// [`Evaluator::evaluate`] taking the pawns' placement and structure sums from `pawns`
    /// where it has them (and leaving there those it had to count): the same score, sooner.
    pub(crate) fn evaluate_cached(
        &self,
        rules: &Rules,
        pos: &Position,
        pawns: &mut PawnCache,
    ) -> i32 {
        self.evaluate_with(rules, pos, Some(pawns))
    }

    fn evaluate_with(&self, rules: &Rules, pos: &Position, pawns: Option<&mut PawnCache>) -> i32 {
        if let Some(v) = self.external.as_ref().and_then(|e| e.evaluate(rules, pos)) {
            return v;
        }
        // Counting squares is most of the work; without the processor's population count
        // instruction (not in the x86-64 baseline) every count is a dozen instructions.
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("popcnt") {
            // SAFETY: the processor has the instruction: checked just above.
            return unsafe { self.evaluate_popcnt(rules, pos, pawns) };
        }
        self.evaluate_here(rules, pos, pawns)
    }

    /// [`Evaluator::evaluate`] compiled with the population count instruction.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "popcnt")]
    unsafe fn evaluate_popcnt(
        &self,
        rules: &Rules,
        pos: &Position,
        pawns: Option<&mut PawnCache>,
    ) -> i32 {
        self.evaluate_here(rules, pos, pawns)
    }

    #[inline(always)]
    fn evaluate_here(&self, rules: &Rules, pos: &Position, pawns: Option<&mut PawnCache>) -> i32 {
        let mut sum = Sum::new(&self.weights.values, pawns);
        self.terms(rules, pos, &mut sum);
        let phase = self.phase(rules, pos);
        let mg = sum.mg[0] - sum.mg[1];
        let eg = sum.eg[0] - sum.eg[1];
        let mut white = (mg * phase + eg * (PHASE_MAX - phase)) / PHASE_MAX;
        white = self.scale_endgame(rules, pos, white);
        if pos.side_to_move() == Colour::White {
            white
        } else {
            -white
        }
    }

    /// Endgame corrections outside the tuned terms: a lone king is driven to the edge and
    /// the winning king brought close; a lead without pawns that cannot mate counts little.
    #[inline(always)]
    fn scale_endgame(&self, rules: &Rules, pos: &Position, white: i32) -> i32 {
        let strong = if white > 0 {
            Colour::White
        } else {
            Colour::Black
        };
        let weak = strong.other();
        let pawns = |c: Colour| rules.pawn.map_or(Bitboard::EMPTY, |p| pos.pieces_of(c, p));
        if pawns(weak).any() {
            return white;
        }
        let weak_pieces = pos.colour_bb(weak) & !pos.type_bb(rules.royal);
        if pawns(strong).is_empty() && insufficient_material(rules, pos) {
            return white / 16;
        }
        if weak_pieces.any() && white.abs() < 400 {
            return white;
        }
        let lk = pos.king_square(weak);
        let sk = pos.king_square(strong);
        let g = &rules.geo;
        let dist = g
            .file(lk)
            .abs_diff(g.file(sk))
            .max(g.rank(lk).abs_diff(g.rank(sk))) as i32;
        let push = self.centre_distance[lk as usize] * 12 + (20 - dist) * 8;
        let bonus = if weak_pieces.is_empty() {
            300 + push
        } else {
            push / 2
        };
        if strong == Colour::White {
            white + bonus
        } else {
            white - bonus
        }
    }

    /// Counts every term of `pos` into `sink`.
    #[inline(always)]
    pub fn terms<S: TermSink>(&self, rules: &Rules, pos: &Position, sink: &mut S) {
        let l = self.layout();
        let mut att = Attacks {
            all: [Bitboard::EMPTY; 2],
            pawn: [Bitboard::EMPTY; 2],
            by_kind: [[Bitboard::EMPTY; MAX_PIECE_TYPES]; 2],
            king_attackers: [0; 2],
        };
        if let Some(p) = rules.pawn {
            for c in Colour::ALL {
                let pm = rules.piece_moves(c, p);
                for sq in pos.pieces_of(c, p) {
                    att.pawn[c] |= pm.leap_capture[sq as usize];
                }
                att.all[c] = att.pawn[c];
                att.by_kind[c][p] = att.pawn[c];
            }
        }
        let zones = Colour::ALL.map(|c| king_zone(rules, pos, c));
        for c in Colour::ALL {
            for t in (0..rules.n_types).filter(|&t| Some(t) != rules.pawn) {
                for sq in pos.pieces_of(c, t) {
                    self.piece_terms(rules, pos, (c, t, sq), &zones, &mut att, sink);
                }
            }
        }
        let pawns = rules.pawn.map_or([Bitboard::EMPTY; 2], |p| {
            Colour::ALL.map(|c| pos.pieces_of(c, p))
        });
        // The pawns' placement terms depend on the pawns alone too: cached with the rest.
        sink.add_pawn_structure(pawns, |s| {
            for c in Colour::ALL {
                self.pawn_placement(rules, c, pawns[c], s);
                self.pawn_structure(rules, c, pawns, &att.pawn, s);
            }
        });
        for c in Colour::ALL {
            self.passed_pawn_extras(rules, pos, c, pawns, &att, sink);
            self.king_terms(rules, pos, c, zones[c], &att, sink);
            let theirs = pos.colour_bb(c.other()) & !pos.type_bb(rules.royal);
            let pieces = theirs & !(pawns[0] | pawns[1]);
            sink.add(c, l.pawn_threat, (att.pawn[c] & pieces).count() as i32);
            let own = pos.colour_bb(c) & !pos.type_bb(rules.royal);
            let hanging = own & att.all[c.other()] & !att.all[c];
            sink.add(c, l.hanging, hanging.count() as i32);
            self.threat_terms(rules, pos, c, &att, sink);
        }
        sink.add(pos.side_to_move(), l.tempo, 1);
    }

    /// Material, rank, centre and mobility of one piece (not a pawn); its attacks into `att`.
    #[inline(always)]
    fn piece_terms<S: TermSink>(
        &self,
        rules: &Rules,
        pos: &Position,
        (c, t, sq): (Colour, usize, Square),
        zones: &[Bitboard; 2],
        att: &mut Attacks,
        sink: &mut S,
    ) {
        let l = self.layout();
        let s = sq as usize;
        let n = rules.geo.squares();
        let total = self.placement[c][t * n + s];
        sink.add_placement(c, total, || self.placement_terms(c, t, s, n));
        if t == rules.royal {
            att.all[c] |= rules.piece_moves(c, t).leap_capture[s];
            return;
        }
        let pm = rules.piece_moves(c, t);
        let occ = pos.occupied();
        let mut reach = pm.leap_quiet[s] | pm.leap_capture[s];
        for l in &pm.lines {
            reach |= l.attacks(&rules.rays, sq, occ);
        }
        for rd in &pm.lone_riders {
            reach |= rules.rays[rd.ray].attacks(sq, occ);
        }
        att.all[c] |= reach;
        att.by_kind[c][t] |= reach;
        if (reach & zones[c.other()]).any() {
            att.king_attackers[c] += 1;
        }
        let safe = (reach & !pos.colour_bb(c) & !att.pawn[c.other()]).count() as usize;
        let total = self.mobility[t * MOBILITY_SLOTS + safe];
        sink.add_mobility(c, l, (t, safe as i32), total);
    }

    /// The placement terms (material, rank, file, square, centre) of `c`'s pawns `own`.
    #[inline(always)]
    fn pawn_placement<S: TermSink>(&self, rules: &Rules, c: Colour, own: Bitboard, sink: &mut S) {
        let Some(p) = rules.pawn else {
            return;
        };
        let n = rules.geo.squares();
        for sq in own {
            let s = sq as usize;
            sink.add_placement(c, self.placement[c][p * n + s], || {
                self.placement_terms(c, p, s, n)
            });
        }
    }

    /// Pieces of colour `c` attacked by cheaper enemy pieces, per kind.
    #[inline(always)]
    fn threat_terms<S: TermSink>(
        &self,
        rules: &Rules,
        pos: &Position,
        c: Colour,
        att: &Attacks,
        sink: &mut S,
    ) {
        let l = self.layout();
        for t in 0..rules.n_types {
            if self.cheaper[t].is_empty() {
                continue;
            }
            let own = pos.pieces_of(c, t);
            if own.is_empty() {
                continue;
            }
            let mut by_cheaper = Bitboard::EMPTY;
            for &u in &self.cheaper[t] {
                by_cheaper |= att.by_kind[c.other()][u];
            }
            let n = (own & by_cheaper).count() as i32;
            if n != 0 {
                sink.add(c, l.threat_lesser + t, n);
            }
        }
    }

    /// The terms of `c`'s pawns that depend on where the pawns stand and nothing else:
    /// doubled, isolated, supported, connected and passed pawns. `pawns`: White's, Black's;
    /// `pawn_attacks`: the squares each side's pawns attack.
    #[inline(always)]
    fn pawn_structure<S: TermSink>(
        &self,
        rules: &Rules,
        c: Colour,
        pawns: [Bitboard; 2],
        pawn_attacks: &[Bitboard; 2],
        sink: &mut S,
    ) {
        let l = self.layout();
        let (own, theirs) = (pawns[c], pawns[c.other()]);
        let links = self.scores_pawn_links || sink.counts_zero_terms();
        for sq in own {
            let s = sq as usize;
            let file = rules.geo.file(sq) as usize;
            if (self.front_file[c][s] & own).any() {
                sink.add(c, l.doubled, 1);
            }
            let opposed = (self.front_file[c][s] & theirs).any();
            let neighbours = self.adjacent_files[file] & own;
            if neighbours.is_empty() {
                sink.add(c, l.isolated, 1);
                if links && !opposed {
                    sink.add(c, l.isolated_unopposed, 1);
                }
            }
            let supported = pawn_attacks[c].has(sq);
            if supported {
                sink.add(c, l.supported, 1);
            }
            let d = self.promo_distance[c][s];
            let phalanx = (self.beside[s] & own).any();
            if links && (phalanx || supported) {
                // As Stockfish counts connected pawns: more for a phalanx, less when opposed.
                let n = 2 + phalanx as i32 - opposed as i32;
                sink.add(c, l.connected + d.min(l.ranks - 1), n);
            }
            if self.is_passed(c, sq, theirs) {
                sink.add(c, l.passed + d.min(l.ranks - 1), 1);
            }
        }
    }

    /// Is `c`'s pawn on `sq` passed (short of the promotion zone, no enemy pawn in front of
    /// it or beside its way)?
    #[inline(always)]
    fn is_passed(&self, c: Colour, sq: Square, their_pawns: Bitboard) -> bool {
        let s = sq as usize;
        self.promo_distance[c][s] > 0 && (self.front_span[c][s] & their_pawns).is_empty()
    }

    /// The terms of `c`'s passed pawns that depend on more than the pawns.
    #[inline(always)]
    fn passed_pawn_extras<S: TermSink>(
        &self,
        rules: &Rules,
        pos: &Position,
        c: Colour,
        pawns: [Bitboard; 2],
        att: &Attacks,
        sink: &mut S,
    ) {
        for sq in pawns[c] {
            if self.is_passed(c, sq, pawns[c.other()]) {
                let d = self.promo_distance[c][sq as usize];
                self.passed_extras(rules, pos, (c, sq, d), att, sink);
            }
        }
    }

    /// A passed pawn's endgame terms, weighted by how far it has come: the kings' distances
    /// to the square in front of it, and how free its way to promotion is.
    #[inline(always)]
    fn passed_extras<S: TermSink>(
        &self,
        rules: &Rules,
        pos: &Position,
        (c, sq, d): (Colour, Square, usize),
        att: &Attacks,
        sink: &mut S,
    ) {
        let l = self.layout();
        let w = advance_weight(d);
        if w == 0 {
            return;
        }
        let g = &rules.geo;
        let dr = if c == Colour::White { 1 } else { -1 };
        let Some(stop) = g.offset(sq, 0, dr) else {
            return;
        };
        let dist = |k: Square| {
            (g.file(k)
                .abs_diff(g.file(stop))
                .max(g.rank(k).abs_diff(g.rank(stop))))
            .min(5) as i32
        };
        sink.add(c, l.passed_king_own, dist(pos.king_square(c)) * w);
        sink.add(c, l.passed_king_enemy, dist(pos.king_square(c.other())) * w);
        if pos.occupied().has(stop) {
            return;
        }
        let s = sq as usize;
        let unsafe_sq = self.front_span[c][s] & (att.all[c.other()] | pos.colour_bb(c.other()));
        let k = if unsafe_sq.is_empty() {
            35
        } else if (unsafe_sq & self.front_file[c][s]).is_empty() {
            20
        } else if !unsafe_sq.has(stop) {
            9
        } else {
            0
        } + 5 * att.all[c].has(stop) as i32;
        sink.add(c, l.passed_free, k * w / 5);
    }

    #[inline(always)]
    fn king_terms<S: TermSink>(
        &self,
        rules: &Rules,
        pos: &Position,
        c: Colour,
        zone: Bitboard,
        att: &Attacks,
        sink: &mut S,
    ) {
        let l = self.layout();
        let e = c.other();
        let pressure = (att.all[e] & zone).count().min(8) as i32;
        let attackers = att.king_attackers[e].min(6);
        sink.add(c, l.king_pressure, pressure * pressure);
        sink.add(c, l.king_attackers, attackers);
        if let Some(p) = rules.pawn {
            let shield = (pos.pieces_of(c, p) & zone).count().min(3) as i32;
            sink.add(c, l.king_shield, shield);
            if self.scores_shelter_storm || sink.counts_zero_terms() {
                self.shelter_storm(rules, pos, (c, p), sink);
            }
        }
        let checks = self.safe_checks(rules, pos, c, att, sink).min(8);
        if attackers == 0 && checks == 0 {
            return;
        }
        let mut defended = Bitboard::EMPTY;
        for t in 0..rules.n_types {
            defended |= att.by_kind[c][t];
        }
        let weak = (att.all[e] & zone & !defended).count().min(8) as i32;
        let d = l.danger;
        for (i, n) in [
            attackers * pressure,
            attackers * checks,
            weak,
            attackers * weak,
            checks * checks,
        ]
        .into_iter()
        .enumerate()
        {
            if n != 0 {
                sink.add(c, d + i, n);
            }
        }
    }

    /// Shelter and storm on the king's file and the files beside it: the nearest own pawn
    /// in front of the king (or none), and the nearest enemy pawn in front of it, blocked
    /// by an own pawn right in front of it or not.
    #[inline(always)]
    fn shelter_storm<S: TermSink>(
        &self,
        rules: &Rules,
        pos: &Position,
        (c, p): (Colour, usize),
        sink: &mut S,
    ) {
        let l = self.layout();
        let k = pos.king_square(c);
        let kr = self.rel_rank[c][k as usize];
        let nearest = |bb: Bitboard| bb.map(|s| self.rel_rank[c][s as usize]).min();
        for df in -1..=1 {
            let Some(base) = rules.geo.offset(k, df, 0) else {
                continue;
            };
            let mut file = self.front_file[c][base as usize];
            file.set(base);
            let own = nearest(pos.pieces_of(c, p) & file);
            let i = own.map_or(SHELTER_TERMS - 1, |r| (r - kr).min(SHELTER_TERMS - 2));
            sink.add(c, l.shelter + i, 1);
            let Some(r) = nearest(pos.pieces_of(c.other(), p) & file) else {
                continue;
            };
            let i = (r - kr).clamp(1, STORM_TERMS) - 1;
            let blocked = own == Some(r.wrapping_sub(1));
            sink.add(c, if blocked { l.storm_blocked } else { l.storm } + i, 1);
        }
    }

    /// Checks the enemy could give next move from squares `c` does not guard, per kind of
    /// checker (pawns and the king left out). Returns how many were counted in all.
    #[inline(always)]
    fn safe_checks<S: TermSink>(
        &self,
        rules: &Rules,
        pos: &Position,
        c: Colour,
        att: &Attacks,
        sink: &mut S,
    ) -> i32 {
        let l = self.layout();
        let e = c.other();
        let k = pos.king_square(c);
        let occ = pos.occupied();
        let safe = !att.all[c] & !pos.colour_bb(e);
        // The kinds (not pawns or the king) that reach a safe square from which they could
        // check on an empty board: most evaluations find none, and trace no line.
        let n = rules.geo.squares();
        let mut wanted = 0u32;
        for u in 0..rules.n_types {
            let near = self.check_from[e][u * n + k as usize];
            if u != rules.royal && Some(u) != rules.pawn && (att.by_kind[e][u] & safe & near).any()
            {
                wanted |= 1 << u;
            }
        }
        if wanted == 0 {
            return 0;
        }
        // Each line from the king is traced once, for every kind that rides it.
        let mut from = [Bitboard::EMPTY; MAX_PIECE_TYPES];
        for &(ray, mask) in &rules.rider_attacks[e] {
            let mut kinds = mask & wanted;
            if kinds == 0 {
                continue;
            }
            let line = rules.rays[ray].attacks(k, occ);
            while kinds != 0 {
                from[kinds.trailing_zeros() as usize] |= line;
                kinds &= kinds - 1;
            }
        }
        let mut total = 0;
        let mut kinds = wanted;
        while kinds != 0 {
            let u = kinds.trailing_zeros() as usize;
            kinds &= kinds - 1;
            let reach = att.by_kind[e][u] & safe;
            let checks = from[u] | rules.piece_moves(e, u).leap_attackers[k as usize];
            let n = (checks & reach).count().min(4) as i32;
            if n != 0 {
                sink.add(c, l.safe_check + u, n);
                total += n;
            }
        }
        total
    }
}

/// Counts of safe squares a piece can have: a bitboard holds at most 128 squares.
const MOBILITY_SLOTS: usize = 129;

/// A piece's mobility terms with `safe` safe squares: per square, four times the square
/// root, and "trapped" (one safe square or none).
#[inline(always)]
fn mobility_terms(l: &Layout, t: usize, safe: i32) -> [(usize, i32); 3] {
    [
        (l.mobility + t, safe),
        (l.mobility_root + t, mobility_root(safe)),
        (l.trapped + t, (safe <= 1) as i32),
    ]
}

/// Four times the square root of a mobility count, rounded (the `mobility.root` terms).
#[inline(always)]
fn mobility_root(safe: i32) -> i32 {
    const ROOTS: [u8; 129] = {
        let mut t = [0u8; 129];
        let mut n = 0;
        while n < 129 {
            // the largest r with r * r <= 16 * n, rounded up when nearer the next
            let mut r = 0;
            while (r + 1) * (r + 1) <= 16 * n {
                r += 1;
            }
            if 4 * (16 * n) > (2 * r + 1) * (2 * r + 1) {
                r += 1;
            }
            t[n] = r as u8;
            n += 1;
        }
        t
    };
    ROOTS[safe.clamp(0, 128) as usize] as i32
}

/// How much a passed pawn `d` steps from promotion has come, for its endgame terms: 0 until
/// four steps away, then 2, 7, 12, 17 (Stockfish 11's `5 * rank - 13` on eight ranks).
fn advance_weight(d: usize) -> i32 {
    if (1..=4).contains(&d) {
        5 * (5 - d as i32) - 3
    } else {
        0
    }
}

/// Per file the files beside it; per colour and square the squares ahead on the file, and
/// ahead on the file and the files beside it (passed, doubled and isolated pawns).
#[allow(clippy::type_complexity)]
fn pawn_spans(rules: &Rules) -> (Vec<Bitboard>, [Vec<Bitboard>; 2], [Vec<Bitboard>; 2]) {
    let geo = &rules.geo;
    let n = geo.squares();
    let file_bb: Vec<Bitboard> = (0..geo.files)
        .map(|f| {
            (0..n as Square)
                .filter(|&s| geo.file(s) == f)
                .map(Bitboard::from_square)
                .fold(Bitboard::EMPTY, |a, b| a | b)
        })
        .collect();
    let adjacent_files: Vec<Bitboard> = (0..geo.files as usize)
        .map(|f| {
            let l = if f > 0 {
                file_bb[f - 1]
            } else {
                Bitboard::EMPTY
            };
            let r = file_bb.get(f + 1).copied().unwrap_or(Bitboard::EMPTY);
            l | r
        })
        .collect();
    let ahead = |c: Colour, sq: Square, s: Square| {
        if c == Colour::White {
            geo.rank(s) > geo.rank(sq)
        } else {
            geo.rank(s) < geo.rank(sq)
        }
    };
    let span = |c: Colour, sq: Square, files: Bitboard| {
        files
            .into_iter()
            .filter(|&s| ahead(c, sq, s))
            .map(Bitboard::from_square)
            .fold(Bitboard::EMPTY, |a, b| a | b)
    };
    let front_file = Colour::ALL.map(|c| {
        (0..n as Square)
            .map(|sq| span(c, sq, file_bb[geo.file(sq) as usize]))
            .collect()
    });
    let front_span = Colour::ALL.map(|c| {
        (0..n as Square)
            .map(|sq| {
                let f = geo.file(sq) as usize;
                span(c, sq, file_bb[f] | adjacent_files[f])
            })
            .collect()
    });
    (adjacent_files, front_file, front_span)
}

/// Per kind and square: empty-board mobility minus the kind's average over the board.
fn centre_table(rules: &Rules) -> Vec<i32> {
    let n = rules.geo.squares();
    let mut centre = vec![0; rules.n_types * n];
    for t in 0..rules.n_types {
        let pm = rules.piece_moves(Colour::White, t);
        let mob: Vec<i32> = (0..n as Square)
            .map(|sq| {
                let mut reach = pm.leap_quiet[sq as usize] | pm.leap_capture[sq as usize];
                for rd in &pm.riders {
                    reach |= rules.rays[rd.ray].attacks(sq, Bitboard::EMPTY);
                }
                reach.count() as i32
            })
            .collect();
        let avg = mob.iter().sum::<i32>() / n.max(1) as i32;
        for sq in 0..n {
            centre[t * n + sq] = mob[sq] - avg;
        }
    }
    centre
}

/// Per kind its share of the game phase (the file values of the non-pawn pieces), and the
/// phase of the whole army on the board.
fn phase_values(rules: &Rules) -> (Vec<i32>, i32) {
    let phase_value: Vec<i32> = (0..rules.n_types)
        .map(|t| {
            if t == rules.royal || Some(t) == rules.pawn {
                0
            } else {
                rules.variant.pieces[t].value.max(0)
            }
        })
        .collect();
    let army: i32 = rules
        .variant
        .setup
        .army
        .iter()
        .map(|&t| phase_value.get(t).copied().unwrap_or(0))
        .sum();
    (phase_value, (2 * army).max(1))
}

/// Per kind the kinds worth less (neither being the king): an attack by one of them
/// threatens a piece of the kind. Pawns and the king threaten nothing of their own kind.
fn cheaper_kinds(rules: &Rules) -> Vec<Vec<usize>> {
    let value = |t: usize| rules.variant.pieces[t].value.max(0);
    (0..rules.n_types)
        .map(|t| {
            if t == rules.royal || Some(t) == rules.pawn {
                return Vec::new();
            }
            (0..rules.n_types)
                .filter(|&u| u != rules.royal && value(u) < value(t))
                .collect()
        })
        .collect()
}

/// Per `[kind * squares + square]`: the squares from which a piece of colour `c` and that
/// kind captures on the square on an empty board.
fn check_from(rules: &Rules, c: Colour) -> Vec<Bitboard> {
    let n = rules.geo.squares();
    let mut table = vec![Bitboard::EMPTY; rules.n_types * n];
    for t in 0..rules.n_types {
        for k in 0..n {
            let mut from = rules.piece_moves(c, t).leap_attackers[k];
            for &(ray, mask) in &rules.rider_attacks[c] {
                if mask >> t & 1 != 0 {
                    from |= rules.rays[ray].rays[k];
                }
            }
            table[t * n + k] = from;
        }
    }
    table
}

/// The squares the king of colour `c` could step to.
fn king_zone(rules: &Rules, pos: &Position, c: Colour) -> Bitboard {
    let k = pos.king_square(c) as usize;
    let km = rules.piece_moves(c, rules.royal);
    km.leap_quiet[k] | km.leap_capture[k]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog;

    #[test]
    fn evaluation_is_symmetric_in_every_seed_variant() {
        for v in ["mrc", "mrc64", "merc", "icrc", "pmrc"] {
            let rules = catalog::load_rules(v).unwrap();
            let mut w = Weights::derived(&rules);
            // The king-danger terms are zero in the derived weights: give them a value.
            for i in 0..crate::engine::weights::DANGER_TERMS.len() {
                w.values[w.layout.danger + i] = [-7, -3];
            }
            // So are the shelter, storm and connected-pawn terms.
            let l = w.layout.clone();
            for i in l.shelter_storm().chain(l.pawn_links()) {
                w.values[i] = [5 + i as i32 % 7, -3];
            }
            let ev = Evaluator::new(&rules, w);
            for id in [7, 123] {
                let sp = crate::setup::from_id(&rules.variant, id).unwrap();
                let fen = crate::setup::start_fen(&rules.variant, &sp);
                let pos = Position::from_fen(&rules, &fen).unwrap();
                let flipped = pos.colour_flipped(&rules);
                assert_eq!(
                    ev.evaluate(&rules, &pos),
                    ev.evaluate(&rules, &flipped),
                    "{v}"
                );
            }
        }
    }

    /// Records every term count per colour.
    struct Record(Vec<[i32; 2]>);

    impl TermSink for Record {
        fn add(&mut self, colour: Colour, param: usize, n: i32) {
            self.0[param][colour.index()] += n;
        }
    }

    #[test]
    fn the_placement_table_and_the_pawn_cache_score_as_the_terms_do() {
        for v in ["mrc", "mrc64", "merc", "icrc", "pmrc"] {
            let rules = catalog::load_rules(v).unwrap();
            let mut w = Weights::derived(&rules);
            // Every parameter a different value, the placement ones included.
            for (i, x) in w.values.iter_mut().enumerate() {
                let i = i as i32;
                *x = [(i * 37) % 23 - 11, (i * 53) % 19 - 9];
            }
            let ev = Evaluator::new(&rules, w);
            let sp = crate::setup::from_id(&rules.variant, 321).unwrap();
            let fen = crate::setup::start_fen(&rules.variant, &sp);
            let mut pos = Position::from_fen(&rules, &fen).unwrap();
            let mut pawns = PawnCache::new();
            for ply in 0..12 {
                let mut sum = Sum::new(&ev.weights.values, None);
                ev.terms(&rules, &pos, &mut sum);
                // Counted into the cache, then taken from it: the same sums.
                for _ in 0..2 {
                    let mut cached = Sum::new(&ev.weights.values, Some(&mut pawns));
                    ev.terms(&rules, &pos, &mut cached);
                    assert_eq!((cached.mg, cached.eg), (sum.mg, sum.eg), "{v}, ply {ply}");
                }
                let mut rec = Record(vec![[0; 2]; ev.layout().len]);
                ev.terms(&rules, &pos, &mut rec);
                let (mut mg, mut eg) = ([0; 2], [0; 2]);
                for (weight, counts) in ev.weights.values.iter().zip(&rec.0) {
                    for c in 0..2 {
                        mg[c] += weight[0] * counts[c];
                        eg[c] += weight[1] * counts[c];
                    }
                }
                assert_eq!((sum.mg, sum.eg), (mg, eg), "{v}, ply {ply}");
                let moves = pos.legal_moves(&rules);
                let m = moves.iter().nth(ply * 7 % moves.len()).unwrap();
                pos = pos.play_unchecked(&rules, *m);
            }
        }
    }

    fn record(v: &str, fen: &str) -> (Rules, Layout, Vec<[i32; 2]>) {
        let rules = catalog::load_rules(v).unwrap();
        let ev = Evaluator::new(&rules, Weights::derived(&rules));
        let pos = Position::from_fen(&rules, fen).unwrap();
        let mut r = Record(vec![[0; 2]; ev.layout().len]);
        ev.terms(&rules, &pos, &mut r);
        let layout = ev.layout().clone();
        (rules, layout, r.0)
    }

    #[test]
    fn a_queen_attacked_by_a_knight_is_threatened_but_not_by_a_queen() {
        // The black knight on e6 attacks the white queen on d4; the black queen on d8 does
        // too, but it is worth no less, so only one threat counts.
        let fen = "3qk3/8/4n3/8/3Q4/8/8/4K3 w - - 0 1";
        let (rules, l, r) = record("chess", fen);
        let q = rules.variant.piece_index('Q').unwrap();
        assert_eq!(r[l.threat_lesser + q], [1, 0]);
        let fen = "3qk3/8/8/8/3Q4/8/8/n3K3 w - - 0 1";
        let (_, l, r) = record("chess", fen);
        assert_eq!(r[l.threat_lesser + q], [0, 0]);
    }

    #[test]
    fn king_danger_multiplies_the_zone_counts() {
        // The black rook on a2 attacks g2 and h2 beside the white king (one attacker, two
        // squares pressed, both weak: no white piece but the king defends them) and can check
        // safely from a1 (h2 is guarded by the king).
        let (_, l, r) = record("chess", "k7/8/8/8/8/8/r7/7K w - - 0 1");
        let white: Vec<i32> = (0..5).map(|i| r[l.danger + i][0]).collect();
        assert_eq!(white, [2, 1, 2, 2, 1]);
        assert!((0..5).all(|i| r[l.danger + i][1] == 0));
        // A white rook on g3 defends g2: one weak square left.
        let (_, l, r) = record("chess", "k7/8/8/8/8/6R1/r7/7K w - - 0 1");
        assert_eq!(r[l.danger + 2][0], 1);
    }

    #[test]
    fn shelter_and_storm_count_the_nearest_pawns_on_the_kings_files() {
        // White king g1: own pawns f2 (one rank ahead) and g3 (two), none on h; black pawns
        // g4 (three ranks ahead, blocked by g3) and h4 (three, free). The black king on e8
        // has no pawns of its own, and White's f2 stands six ranks in front of it.
        let (_, l, r) = record("chess", "4k3/8/8/8/6pp/6P1/5P2/6K1 w - - 0 1");
        let white = |base: usize, n: usize| (0..n).map(|i| r[base + i][0]).collect::<Vec<_>>();
        let black = |base: usize, n: usize| (0..n).map(|i| r[base + i][1]).collect::<Vec<_>>();
        assert_eq!(white(l.shelter, SHELTER_TERMS), [0, 1, 1, 0, 1]);
        assert_eq!(white(l.storm, STORM_TERMS), [0, 0, 1, 0]);
        assert_eq!(white(l.storm_blocked, STORM_TERMS), [0, 0, 1, 0]);
        assert_eq!(black(l.shelter, SHELTER_TERMS), [0, 0, 0, 0, 3]);
        assert_eq!(black(l.storm, STORM_TERMS), [0, 0, 0, 1]);
        assert_eq!(black(l.storm_blocked, STORM_TERMS), [0, 0, 0, 0]);
    }

    #[test]
    fn connected_pawns_count_phalanx_support_and_opposition() {
        // White d4 and e4 stand side by side; f3 supports e4; d4 is opposed by d6. a2 and
        // Black's h7 are isolated with nothing in front of them; Black's d6 is isolated but
        // opposed. d4 and e4 are four ranks from promotion.
        let (_, l, r) = record("chess", "4k3/7p/3p4/8/3PP3/5P2/P7/4K3 w - - 0 1");
        let connected: Vec<[i32; 2]> = (0..8).map(|d| r[l.connected + d]).collect();
        let mut expected = vec![[0, 0]; 8];
        // d4: 2 + phalanx - opposed = 2; e4: 2 + phalanx = 3.
        expected[4] = [5, 0];
        assert_eq!(connected, expected);
        assert_eq!(r[l.isolated], [1, 2]);
        assert_eq!(r[l.isolated_unopposed], [1, 1]);
    }

    #[test]
    fn piece_squares_count_from_each_side_and_fold_the_files() {
        // A white knight on c3 and a black one on f6 stand on the same square as each side
        // sees it (f is c's mirror image on eight files, rank 6 is Black's third).
        let (rules, l, r) = record("chess", "4k3/8/5n2/8/8/2N5/8/4K3 w - - 0 1");
        let n = rules.variant.piece_index('N').unwrap();
        assert_eq!(r[l.square_index(n, 2, 2)], [1, 1]);
        assert_eq!(r[l.square_index(n, 2, 3)], [0, 0]);
    }

    #[test]
    fn safe_checks_count_unguarded_checking_squares() {
        // The black rook on a8 reaches a1, from where it checks the white king on e1; the
        // e-file squares that would check are out of its reach.
        let fen = "r3k3/8/8/8/8/8/8/4K3 w - - 0 1";
        let (rules, l, r) = record("chess", fen);
        let rook = rules.variant.piece_index('R').unwrap();
        assert_eq!(r[l.safe_check + rook], [1, 0]);
        // A white knight on b3 guards a1: no safe check left.
        let fen = "r3k3/8/8/8/8/1N6/8/4K3 w - - 0 1";
        let (_, l, r) = record("chess", fen);
        assert_eq!(r[l.safe_check + rook], [0, 0]);
    }

    #[test]
    fn a_passed_pawn_counts_king_distances_and_its_free_way() {
        // White pawn e6, two steps from promotion (advance weight 12); the square in front,
        // e7, is 4 steps from the white king on a3 and 3 from the black king on h7.
        let fen = "8/7k/4P3/8/8/K7/8/8 w - - 0 1";
        let (_, l, r) = record("chess", fen);
        assert_eq!(r[l.passed_king_own], [4 * 12, 0]);
        assert_eq!(r[l.passed_king_enemy], [3 * 12, 0]);
        // The black king attacks nothing on the way: free (35), e7 not defended.
        assert_eq!(r[l.passed_free], [35 * 12 / 5, 0]);
        // A black rook on e8 stands on the way and attacks e7: no longer free at all.
        let fen = "4r3/7k/4P3/8/8/K7/8/8 w - - 0 1";
        let (_, l, r) = record("chess", fen);
        assert_eq!(r[l.passed_free], [0, 0]);
        // A pawn far back (five steps away) has no such terms.
        let fen = "8/7k/8/8/8/4P3/K7/8 w - - 0 1";
        let (_, l, r) = record("chess", fen);
        assert_eq!(r[l.passed_king_own], [0, 0]);
        assert_eq!(r[l.passed_free], [0, 0]);
    }

    #[test]
    fn an_extra_queen_is_worth_about_a_queen() {
        let rules = catalog::load_rules("chess").unwrap();
        let ev = Evaluator::new(&rules, Weights::derived(&rules));
        let base = "rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
        let pos = Position::from_fen(&rules, base).unwrap();
        let s = ev.evaluate(&rules, &pos);
        assert!(s > 700 && s < 1300, "{s}");
    }
}
