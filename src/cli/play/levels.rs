//! Engine strength for `play`: `--level N` / `level N`, `--depth`, `--movetime` / `time MS`.
//!
//! Levels 1-8 are the engine's own ([`modern_chess::engine::Level`]): each is a skill level
//! (multi-PV with a noise term below full strength, so weak levels play plausible moves
//! rather than random blunders) and a time per move. Level 8, the default, is full strength
//! at 900 ms a move: the strongest that answers within about a second. `--depth`,
//! `--movetime` and `time MS` search at full strength with the limit given.

use modern_chess::engine::{Level, Limits, SkillLevel};

/// The lowest and highest level.
pub const LEVELS: std::ops::RangeInclusive<u8> = 1..=8;

/// The level used when none is named ([`Level::DEFAULT`]).
pub const DEFAULT_LEVEL: u8 = 8;

/// The search limits and skill of a level (clamped into [`LEVELS`]).
pub fn for_level(level: u8) -> (Limits, SkillLevel) {
    let n = level.clamp(*LEVELS.start(), *LEVELS.end()) as u32;
    let level = Level::new(n).unwrap_or_default();
    (level.limits(), level.skill())
}

/// A short description for messages: `900 ms a move`, `skill 9 of 20, 300 ms a move`.
pub fn describe(limits: &Limits, skill: SkillLevel) -> String {
    let time = match (limits.depth, limits.movetime_ms) {
        (Some(d), Some(ms)) => format!("depth {d}, at most {ms} ms a move"),
        (Some(d), None) => format!("depth {d}"),
        (None, Some(ms)) => format!("{ms} ms a move"),
        (None, None) => "no limit".into(),
    };
    if skill.is_full() {
        time
    } else {
        format!("skill {} of 20, {time}", skill.get())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_are_the_engines_and_grow_stronger() {
        assert_eq!(for_level(DEFAULT_LEVEL).0, Limits::default_level());
        assert_eq!(Level::DEFAULT.get(), DEFAULT_LEVEL as u32);
        assert!(for_level(DEFAULT_LEVEL).1.is_full());
        assert_eq!(for_level(0), for_level(1));
        assert_eq!(for_level(99), for_level(8));
        for l in 1..8 {
            let (a, b) = (for_level(l), for_level(l + 1));
            assert!(a.1 < b.1, "skill rises from level {l}");
            assert!(
                a.0.movetime_ms < b.0.movetime_ms,
                "time rises from level {l}"
            );
        }
        assert!(describe(&for_level(2).0, for_level(2).1).starts_with("skill 3 of 20, 150 ms"));
    }
}
