//! Stand-in for `crate::engine` until the real search lands on main (same API): picks the
//! legal move with the best material balance after one ply.

use crate::position::{Move, Position};
use crate::rules::Rules;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

#[derive(Clone, Debug, Default)]
pub struct Limits {
    pub depth: Option<u32>,
    pub movetime_ms: Option<u64>,
    pub nodes: Option<u64>,
}

#[derive(Clone, Debug, Default)]
pub struct SearchInfo {
    pub depth: u32,
    pub score_cp: i32,
    pub mate: Option<i32>,
    pub nodes: u64,
    pub time_ms: u64,
    pub pv: Vec<Move>,
}

pub struct Engine {
    rules: Arc<Rules>,
}

impl Engine {
    pub fn new(rules: Arc<Rules>, _hash_mb: usize) -> Engine {
        Engine { rules }
    }
    pub fn clear(&mut self) {}
    pub fn set_hash_mb(&mut self, _mb: usize) {}
    pub fn search(
        &mut self,
        history: &[Position],
        _limits: &Limits,
        _stop: &AtomicBool,
        on_info: &mut dyn FnMut(&SearchInfo),
    ) -> Option<Move> {
        let rules = &*self.rules;
        let pos = history.last()?;
        let us = pos.side_to_move();
        let material = |p: &Position| -> i32 {
            let mut s = 0;
            for sq in p.occupied() {
                if let Some((t, c)) = p.piece_at(sq) {
                    let v = rules.variant.pieces[t].value;
                    s += if c == us { v } else { -v };
                }
            }
            s
        };
        let mut best: Option<(i32, Move)> = None;
        let mut nodes = 0;
        for m in pos.legal_moves(rules).iter() {
            nodes += 1;
            let v = material(&pos.play_unchecked(rules, *m));
            if best.is_none_or(|(b, _)| v > b) {
                best = Some((v, *m));
            }
        }
        let (score, m) = best?;
        on_info(&SearchInfo {
            depth: 1,
            score_cp: score,
            mate: None,
            nodes,
            time_ms: 0,
            pv: vec![m],
        });
        Some(m)
    }
}
