//! The static evaluation split into its term groups, as a person reads it: what `uci`'s
//! `eval` command prints, so a variant designer can see why the engine likes a position.

use super::eval::{Evaluator, TermSink, PHASE_MAX};
use crate::piece::Colour;
use crate::position::Position;
use crate::rules::Rules;
use std::fmt;

/// One term group's (middlegame, endgame) sum for White and for Black, in centipawns.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GroupScore {
    /// The group: the first part of its parameters' names (`material`, `king`, ...).
    pub group: String,
    /// White's (middlegame, endgame) sum.
    pub white: [i32; 2],
    /// Black's (middlegame, endgame) sum.
    pub black: [i32; 2],
}

/// The evaluation of one position, group by group, with the phase that blends them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Breakdown {
    /// The groups in the order of the weights file.
    pub groups: Vec<GroupScore>,
    /// `PHASE_MAX` (256) with every piece on the board, 0 with kings and pawns only.
    pub phase: i32,
    /// The full evaluation from White's side (endgame corrections included).
    pub white_total: i32,
}

/// Records each term into the group its parameter belongs to.
struct ByGroup<'a> {
    weights: &'a [[i32; 2]],
    group_of: &'a [usize],
    sums: Vec<[[i32; 2]; 2]>,
}

impl TermSink for ByGroup<'_> {
    fn add(&mut self, colour: Colour, param: usize, n: i32) {
        let w = self.weights[param];
        let s = &mut self.sums[self.group_of[param]][colour.index()];
        s[0] += w[0] * n;
        s[1] += w[1] * n;
    }
}

impl Evaluator {
    /// The evaluation of `pos` split into term groups.
    pub fn breakdown(&self, rules: &Rules, pos: &Position) -> Breakdown {
        let names = self.layout().names(rules);
        let mut groups: Vec<String> = Vec::new();
        let group_of: Vec<usize> = names
            .iter()
            .map(|n| {
                let g = n.split('.').next().unwrap_or(n).to_string();
                groups.iter().position(|x| *x == g).unwrap_or_else(|| {
                    groups.push(g);
                    groups.len() - 1
                })
            })
            .collect();
        let mut sink = ByGroup {
            weights: &self.weights.values,
            group_of: &group_of,
            sums: vec![[[0; 2]; 2]; groups.len()],
        };
        self.terms(rules, pos, &mut sink);
        let stm = self.evaluate(rules, pos);
        let white_total = if pos.side_to_move() == Colour::White {
            stm
        } else {
            -stm
        };
        Breakdown {
            groups: groups
                .into_iter()
                .zip(sink.sums)
                .map(|(group, [white, black])| GroupScore {
                    group,
                    white,
                    black,
                })
                .collect(),
            phase: self.phase(rules, pos),
            white_total,
        }
    }
}

impl fmt::Display for Breakdown {
    /// A table of the groups (White, Black, White minus Black; middlegame and endgame), the
    /// phase and the total, in centipawns from White's side.
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        writeln!(
            f,
            "{:<10} {:>13} {:>13} {:>13}",
            "term", "white", "black", "total"
        )?;
        writeln!(
            f,
            "{:<10} {:>6} {:>6} {:>6} {:>6} {:>6} {:>6}",
            "", "mg", "eg", "mg", "eg", "mg", "eg"
        )?;
        for g in &self.groups {
            let (w, b) = (g.white, g.black);
            writeln!(
                f,
                "{:<10} {:>6} {:>6} {:>6} {:>6} {:>6} {:>6}",
                g.group,
                w[0],
                w[1],
                b[0],
                b[1],
                w[0] - b[0],
                w[1] - b[1]
            )?;
        }
        writeln!(f, "phase {} of {PHASE_MAX}", self.phase)?;
        writeln!(
            f,
            "total {} (White's side, endgame corrections included)",
            self.white_total
        )?;
        // Stockfish's own last line, in pawns: what `tune --score-with --score-depth 0` reads
        // from any engine that prints it.
        write!(
            f,
            "Total evaluation: {:.2} (white side)",
            self.white_total as f64 / 100.0
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog;

    #[test]
    fn groups_add_up_to_the_evaluation_before_endgame_corrections() {
        let rules = catalog::load_rules("mrc").unwrap();
        let fen = "3br2k1/p5pp1/4bpq2/4p3p/2p6/6P1B/P1N2PM2/1rPPP2PP/R2K4R w - - 0 20";
        let pos = Position::from_fen(&rules, fen).unwrap();
        let ev = Evaluator::new(&rules, super::super::weights::Weights::derived(&rules));
        let b = ev.breakdown(&rules, &pos);
        let diff = |i: usize| -> i32 { b.groups.iter().map(|g| g.white[i] - g.black[i]).sum() };
        let blended = (diff(0) * b.phase + diff(1) * (PHASE_MAX - b.phase)) / PHASE_MAX;
        // Both sides have pawns, so no endgame correction applies.
        assert_eq!(blended, b.white_total);
        let material = b.groups.iter().find(|g| g.group == "material").unwrap();
        // White: minister, knight, bishop, two rooks; Black: queen, two rooks, two bishops.
        assert!(material.white[0] < material.black[0] + 100, "{b}");
        assert!(b.to_string().contains("phase"));
        let last = b.to_string().lines().last().unwrap().to_string();
        let pawns = format!("{:.2}", b.white_total as f64 / 100.0);
        assert_eq!(last, format!("Total evaluation: {pawns} (white side)"));
    }
}
