//! Engine strength for `play`: `--level N` / `level N`, `--depth`, `--movetime` / `time MS`.
//!
//! Levels 1-8 map onto the search limits the engine has (depth for the weak levels, where a
//! fixed depth makes it blunder at a steady rate; time per move above), so the scale needs no
//! engine support. Level 6 is the default, the 900 ms a move `play` always used.

use modern_chess::engine::Limits;

/// The lowest and highest level.
pub const LEVELS: std::ops::RangeInclusive<u8> = 1..=8;

/// The level used when none is named.
pub const DEFAULT_LEVEL: u8 = 6;

/// The search limits of a level (clamped into [`LEVELS`]).
pub fn limits_for_level(level: u8) -> Limits {
    let (depth, movetime_ms) = match level.clamp(*LEVELS.start(), *LEVELS.end()) {
        1 => (Some(1), None),
        2 => (Some(2), None),
        3 => (Some(3), None),
        4 => (None, Some(100)),
        5 => (None, Some(300)),
        6 => (None, Some(900)),
        7 => (None, Some(3000)),
        _ => (None, Some(10_000)),
    };
    Limits {
        depth,
        movetime_ms,
        ..Limits::default()
    }
}

/// A short description of limits for messages: `depth 3`, `900 ms a move`.
pub fn describe(limits: &Limits) -> String {
    match (limits.depth, limits.movetime_ms) {
        (Some(d), Some(ms)) => format!("depth {d}, at most {ms} ms a move"),
        (Some(d), None) => format!("depth {d}"),
        (None, Some(ms)) => format!("{ms} ms a move"),
        (None, None) => "no limit".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_grow_stronger_and_six_is_the_old_default() {
        assert_eq!(limits_for_level(DEFAULT_LEVEL), Limits::default_level());
        assert_eq!(limits_for_level(1).depth, Some(1));
        assert_eq!(limits_for_level(0), limits_for_level(1));
        assert_eq!(limits_for_level(99), limits_for_level(8));
        let times: Vec<u64> = (4..=8)
            .filter_map(|l| limits_for_level(l).movetime_ms)
            .collect();
        assert!(times.windows(2).all(|w| w[0] < w[1]), "{times:?}");
    }
}
