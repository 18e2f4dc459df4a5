//! Work the protocols hand to a [`super::Worker`]: searches (also restricted to some root
//! moves, UCI `go searchmoves`) and a perft that notices the stop flag.

use crate::engine::{Engine, Limits, SearchInfo};
use crate::position::{Move, Position};
use crate::rules::Rules;
use std::sync::atomic::{AtomicBool, Ordering};

/// Below this depth a subtree is counted in one call; above it the stop flag is polled.
const PERFT_CHUNK: u32 = 3;

/// Perft of `pos` split by root move, `None` when `stop` was raised before the end.
pub fn perft_divide(
    rules: &Rules,
    pos: &Position,
    depth: u32,
    stop: &AtomicBool,
) -> Option<Vec<(Move, u64)>> {
    if depth == 0 {
        return Some(Vec::new());
    }
    let mut out = Vec::new();
    for &m in pos.legal_moves(rules).iter() {
        let child = pos.play_unchecked(rules, m);
        out.push((m, perft_stoppable(rules, &child, depth - 1, stop)?));
    }
    Some(out)
}

fn perft_stoppable(rules: &Rules, pos: &Position, depth: u32, stop: &AtomicBool) -> Option<u64> {
    if stop.load(Ordering::Relaxed) {
        return None;
    }
    if depth <= PERFT_CHUNK {
        return Some(pos.perft(rules, depth));
    }
    let mut total = 0;
    for &m in pos.legal_moves(rules).iter() {
        total += perft_stoppable(rules, &pos.play_unchecked(rules, m), depth - 1, stop)?;
    }
    Some(total)
}

/// Searches only the moves in `only` (all legal moves when it is empty): each is searched
/// from the position after it, with a share of the time and one ply less, and the best for
/// the side to move wins. `on_info` gets the lines of the move being searched, its score
/// turned to the mover's point of view.
pub fn search_among(
    rules: &Rules,
    engine: &mut Engine,
    history: &[Position],
    limits: &Limits,
    only: &[Move],
    stop: &AtomicBool,
    on_info: &mut dyn FnMut(&SearchInfo),
) -> Option<Move> {
    if only.is_empty() {
        return engine.search(history, limits, stop, on_info);
    }
    let root = history.last()?;
    let n = only.len() as u64;
    let share = Limits {
        depth: limits.depth.map(|d| d.saturating_sub(1).max(1)),
        movetime_ms: limits.movetime_ms.map(|t| (t / n).max(1)),
        nodes: limits.nodes.map(|x| (x / n).max(1)),
        ..Limits::default()
    };
    let mut best: Option<(i64, Move)> = None;
    for &m in only {
        let mut line = history.to_vec();
        line.push(root.play_unchecked(rules, m));
        let mut score: i64 = 0;
        let mut last: Option<SearchInfo> = None;
        let reply = engine.search(&line, &share, stop, &mut |i| last = Some(i.clone()));
        match (&last, reply) {
            (Some(info), _) => {
                score = -mover_score(info);
                let mut pv = vec![m];
                pv.extend(info.pv.iter().copied());
                on_info(&SearchInfo {
                    depth: info.depth + 1,
                    sel_depth: info.sel_depth + 1,
                    score_cp: -info.score_cp,
                    mate: info.mate.map(|x| if x > 0 { -x } else { 1 - x }),
                    nodes: info.nodes,
                    time_ms: info.time_ms,
                    pv,
                });
            }
            // No reply: mate or stalemate after our move.
            (None, None) => score = terminal_score(rules, &line[line.len() - 1]),
            (None, Some(_)) => {}
        }
        if best.is_none_or(|(s, _)| score > s) {
            best = Some((score, m));
        }
        if stop.load(Ordering::Relaxed) {
            break;
        }
    }
    best.map(|(_, m)| m)
}

/// A score comparable across moves: mates beyond every centipawn value, nearer mates larger.
fn mover_score(info: &SearchInfo) -> i64 {
    match info.mate {
        Some(m) if m > 0 => 1_000_000 - m as i64,
        Some(m) => -1_000_000 - m as i64,
        None => info.score_cp as i64,
    }
}

/// The value for the side that moved into `pos`, where the other side has no move.
fn terminal_score(rules: &Rules, pos: &Position) -> i64 {
    match crate::game::position_outcome(rules, pos) {
        Some(o) if o.winner().is_some() => 2_000_000,
        _ => 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog;
    use std::sync::Arc;

    #[test]
    fn perft_counts_and_stops() {
        let rules = catalog::load_rules("chess").unwrap();
        let pos = Position::from_fen(
            &rules,
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        )
        .unwrap();
        let go = AtomicBool::new(false);
        let d = perft_divide(&rules, &pos, 5, &go).unwrap();
        // 4,865,609: the chess start position's perft(5), a published value.
        assert_eq!(d.iter().map(|(_, n)| n).sum::<u64>(), 4_865_609);
        let stopped = AtomicBool::new(true);
        assert!(perft_divide(&rules, &pos, 20, &stopped).is_none());
    }

    #[test]
    fn search_among_keeps_to_the_given_moves() {
        let rules = Arc::new(catalog::load_rules("chess").unwrap());
        // White mates with Qh7#... but only Kb1 and a3 may be searched.
        let pos = Position::from_fen(&rules, "6k1/5ppp/8/8/8/8/PP5Q/K7 w - - 0 1").unwrap();
        let mut e = Engine::new(Arc::clone(&rules), 1);
        let only: Vec<Move> = ["a1b1", "a2a3"]
            .iter()
            .map(|t| super::super::parse_coord(&rules, &pos, t).unwrap())
            .collect();
        let limits = Limits {
            depth: Some(3),
            ..Limits::default()
        };
        let m = search_among(
            &rules,
            &mut e,
            &[pos],
            &limits,
            &only,
            &AtomicBool::new(false),
            &mut |_| {},
        )
        .unwrap();
        assert!(only.contains(&m));
    }
}
