//! What the caller asks of a search: limits (depth, time, nodes, clock), strength (skill
//! level) and the eight playing levels `play --level` offers.

/// The clock as UCI `go wtime/btime/winc/binc/movestogo` gives it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Clock {
    /// White's time left, in milliseconds.
    pub wtime_ms: Option<u64>,
    /// Black's time left, in milliseconds.
    pub btime_ms: Option<u64>,
    /// White's increment per move, in milliseconds.
    pub winc_ms: u64,
    /// Black's increment per move, in milliseconds.
    pub binc_ms: u64,
    /// Moves until the next time control, if the clock has one.
    pub moves_to_go: Option<u32>,
}

/// How long to search. Every limit that is set applies; with none set the search runs until
/// `stop` is raised or the maximum depth is reached (UCI `go infinite`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// Stop after this many plies of iterative deepening.
    pub depth: Option<u32>,
    /// Stop after this many milliseconds.
    pub movetime_ms: Option<u64>,
    /// Stop after about this many nodes (reproducible, unlike time).
    pub nodes: Option<u64>,
    /// Time left on the clocks: the engine divides it itself (see `engine::time`).
    pub clock: Option<Clock>,
}

impl Limits {
    /// The level `play` uses when the user names none: the strongest that answers in about
    /// a second.
    pub fn default_level() -> Limits {
        Level::DEFAULT.limits()
    }

    /// A fixed time per move.
    pub fn movetime(ms: u64) -> Limits {
        Limits {
            movetime_ms: Some(ms),
            ..Limits::default()
        }
    }

    /// Is nothing set (search until stopped)?
    pub fn is_infinite(&self) -> bool {
        self.depth.is_none()
            && self.movetime_ms.is_none()
            && self.nodes.is_none()
            && self
                .clock
                .is_none_or(|c| c.wtime_ms.is_none() && c.btime_ms.is_none())
    }
}

/// Playing strength as UCI `Skill Level`: 0 (weakest) to 20 (full strength).
///
/// Below 20 the engine searches several root moves (multi-PV) to a depth that grows with the
/// level and picks among them with a random term that shrinks as the level rises, as
/// Stockfish's skill levels do: it prefers plausible second-best moves, it does not blunder
/// at random.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct SkillLevel(u8);

impl SkillLevel {
    /// Full strength (20), the default.
    pub const MAX: SkillLevel = SkillLevel(20);

    /// `level` clamped to 0..=20.
    pub fn new(level: u32) -> SkillLevel {
        SkillLevel(level.min(20) as u8)
    }

    /// The level as a number, 0 (weakest) to 20.
    pub fn get(self) -> u32 {
        self.0 as u32
    }

    /// Full strength: no multi-PV, no noise.
    pub fn is_full(self) -> bool {
        self.0 >= 20
    }
}

impl Default for SkillLevel {
    fn default() -> Self {
        SkillLevel::MAX
    }
}

/// The eight levels a person chooses from (`play --level N`, `match --level N`, in-game
/// `level N`): a skill level and a time per move for each.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Level(u8);

/// A level outside 1..=8.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LevelError(pub u32);

impl std::fmt::Display for LevelError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "level {} is not one of 1..8", self.0)
    }
}

impl std::error::Error for LevelError {}

impl Level {
    /// The strongest level that answers in about a second.
    pub const DEFAULT: Level = Level(8);
    /// The weakest level's number.
    pub const MIN: u32 = 1;
    /// The strongest level's number.
    pub const MAX: u32 = 8;

    /// # Errors
    /// A number outside 1..=8.
    pub fn new(n: u32) -> Result<Level, LevelError> {
        if (Self::MIN..=Self::MAX).contains(&n) {
            Ok(Level(n as u8))
        } else {
            Err(LevelError(n))
        }
    }

    /// The level's number, [`Level::MIN`] to [`Level::MAX`].
    pub fn get(self) -> u32 {
        self.0 as u32
    }

    /// The skill level behind this level.
    pub fn skill(self) -> SkillLevel {
        SkillLevel::new([0, 0, 3, 6, 9, 12, 15, 18, 20][self.0 as usize])
    }

    /// The time per move this level uses when the caller sets none.
    pub fn limits(self) -> Limits {
        Limits::movetime([0, 100, 150, 200, 300, 400, 500, 700, 900][self.0 as usize])
    }
}

impl Default for Level {
    fn default() -> Self {
        Level::DEFAULT
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_rise_in_skill_and_time() {
        assert!(Level::new(0).is_err() && Level::new(9).is_err());
        let all: Vec<Level> = (1..=8).map(|n| Level::new(n).unwrap()).collect();
        for w in all.windows(2) {
            assert!(w[0].skill() < w[1].skill());
            assert!(w[0].limits().movetime_ms < w[1].limits().movetime_ms);
        }
        assert!(Level::DEFAULT.skill().is_full());
        assert_eq!(Limits::default_level().movetime_ms, Some(900));
    }
}
