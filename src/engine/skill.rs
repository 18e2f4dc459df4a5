//! Weaker play on purpose: among the best few root moves, pick one with a random term that
//! shrinks as the skill level rises (the way Stockfish's `Skill Level` works), so a weak
//! level plays plausible second choices instead of random blunders.

use super::limits::SkillLevel;
use crate::position::Move;

/// A root move with its search score (centipawns, side to move).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RootLine {
    pub mv: Move,
    pub score: i32,
}

/// How many root moves a skill level compares (1 at full strength).
pub fn multipv(level: SkillLevel) -> usize {
    if level.is_full() {
        1
    } else {
        4
    }
}

/// The depth whose results a skill level picks from (None at full strength).
pub fn pick_depth(level: SkillLevel) -> Option<u32> {
    (!level.is_full()).then(|| 1 + level.get())
}

/// Picks among `lines` (best first). `rng` is advanced.
pub fn pick(lines: &[RootLine], level: SkillLevel, rng: &mut u64) -> Option<Move> {
    let top = lines.first()?;
    if level.is_full() || lines.len() == 1 {
        return Some(top.mv);
    }
    let last = lines[lines.len() - 1].score;
    let delta = (top.score - last).clamp(0, 100);
    let weakness = 120 - 2 * level.get() as i32;
    let mut best = top.mv;
    let mut best_value = i32::MIN;
    // Moves far below the best are never candidates: weak play, not blunders.
    let margin = 40 + 8 * (20 - level.get() as i32);
    for l in lines.iter().filter(|l| top.score - l.score <= margin) {
        let noise = (next_random(rng) % weakness as u64) as i32;
        // The weaker the level, the more a worse score is forgiven and the more noise counts.
        let push = (weakness * (top.score - l.score) + 2 * delta * noise) / 256;
        let value = l.score + push;
        if value >= best_value {
            best_value = value;
            best = l.mv;
        }
    }
    Some(best)
}

/// SplitMix64.
pub fn next_random(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::MoveKind;

    fn line(i: u8, score: i32) -> RootLine {
        RootLine {
            mv: Move::new(i, i + 1, MoveKind::Normal),
            score,
        }
    }

    #[test]
    fn weak_levels_vary_but_never_pick_a_lost_move() {
        let lines = [line(0, 30), line(2, 20), line(4, 10), line(6, -900)];
        let mut rng = 1;
        let mut picked = std::collections::HashSet::new();
        for _ in 0..200 {
            let m = pick(&lines, SkillLevel::new(0), &mut rng).unwrap();
            assert_ne!(m, lines[3].mv, "a move losing a queen is never chosen");
            picked.insert(m);
        }
        assert!(picked.len() >= 2, "level 0 varies its moves");
        for _ in 0..50 {
            assert_eq!(pick(&lines, SkillLevel::MAX, &mut rng), Some(lines[0].mv));
        }
    }
}
