//! Choosing a start position: by id, by back rank, by FEN or at random, in one place for the
//! command line, the engine protocols and matches.

use crate::fen::{parse_fen, FenError};
use crate::position::{Position, PositionError};
use crate::rules::Rules;
use crate::setup::{self, StartPosition};
use std::fmt;

/// Which start position a front end asks for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StartChoice {
    /// A random start position, drawn from the seed given to [`StartChoice::resolve`].
    Random,
    /// The start position with this id (see [`setup`](crate::setup) for the numbering).
    Id(u64),
    /// White's back rank, e.g. `BQRMBNKNR` (`WHITE/black` for variants without symmetry).
    BackRank(String),
    /// Any position, as a FEN.
    Fen(String),
}

/// A resolved start: the position, and its id and back ranks when it is one of the variant's
/// start positions.
#[derive(Clone, Debug)]
pub struct Start {
    /// The start id (`None` for a FEN).
    pub id: Option<u64>,
    /// The back ranks (`None` for a FEN).
    pub back_ranks: Option<StartPosition>,
    /// The position to play from.
    pub position: Position,
}

/// Why a start choice names no position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StartError {
    /// The id is out of range.
    Id(String),
    /// The back rank is malformed or breaks the variant's constraints.
    BackRank(String),
    /// The FEN is malformed or not a legal position.
    Fen(FenError),
    /// The variant's own start position is not legal (a variant file error).
    Illegal(PositionError),
}

impl fmt::Display for StartError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StartError::Id(e) | StartError::BackRank(e) => write!(f, "{e}"),
            StartError::Fen(e) => write!(f, "{e}"),
            StartError::Illegal(e) => write!(f, "the start position is not legal: {e}"),
        }
    }
}
impl std::error::Error for StartError {}

impl StartChoice {
    /// `random` (or nothing), a number (the start id) or a back rank like `BQRMBNKNR`, as
    /// protocol options and `--start` give it.
    pub fn parse(s: &str) -> StartChoice {
        let s = s.trim();
        if s.is_empty() || s.eq_ignore_ascii_case("random") || s == "<empty>" {
            StartChoice::Random
        } else if let Ok(id) = s.parse::<u64>() {
            StartChoice::Id(id)
        } else {
            StartChoice::BackRank(s.to_string())
        }
    }

    /// The start the choice names; `seed` is used only by [`StartChoice::Random`] (the same
    /// seed gives the same position on every machine).
    ///
    /// # Errors
    /// An id out of range, a bad back rank or FEN (see [`StartError`]).
    pub fn resolve(&self, rules: &Rules, seed: u64) -> Result<Start, StartError> {
        let v = &rules.variant;
        let (id, sp) = match self {
            StartChoice::Fen(fen) => return from_fen(rules, fen),
            StartChoice::Random => {
                let id = setup::random_id(v, seed);
                (
                    id,
                    setup::from_id(v, id).map_err(|e| StartError::Id(e.to_string()))?,
                )
            }
            StartChoice::Id(id) => (
                *id,
                setup::from_id(v, *id).map_err(|e| StartError::Id(e.to_string()))?,
            ),
            StartChoice::BackRank(s) => {
                let sp = setup::parse_back_rank(v, s)
                    .map_err(|e| StartError::BackRank(e.to_string()))?;
                (
                    setup::to_id(v, &sp).map_err(|e| StartError::BackRank(e.to_string()))?,
                    sp,
                )
            }
        };
        let position =
            Position::from_setup(rules, setup::start_setup(v, &sp)).map_err(StartError::Illegal)?;
        Ok(Start {
            id: Some(id),
            back_ranks: Some(sp),
            position,
        })
    }
}

fn from_fen(rules: &Rules, fen: &str) -> Result<Start, StartError> {
    let setup = parse_fen(rules, fen).map_err(StartError::Fen)?;
    let position =
        Position::from_setup(rules, setup).map_err(|e| StartError::Fen(FenError::from(e)))?;
    Ok(Start {
        id: None,
        back_ranks: None,
        position,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog;

    #[test]
    fn every_kind_of_choice_resolves() {
        let rules = catalog::load_rules("mrc").unwrap();
        let by_rank = StartChoice::parse("RNBMKQBNR").resolve(&rules, 0).unwrap();
        let id = by_rank.id.unwrap();
        let by_id = StartChoice::Id(id).resolve(&rules, 0).unwrap();
        assert_eq!(by_id.position, by_rank.position);
        let fen = by_id.position.fen(&rules);
        let by_fen = StartChoice::Fen(fen.clone()).resolve(&rules, 0).unwrap();
        assert_eq!(by_fen.position.fen(&rules), fen);
        assert_eq!(by_fen.id, None);
        let a = StartChoice::Random.resolve(&rules, 5).unwrap();
        let b = StartChoice::Random.resolve(&rules, 5).unwrap();
        assert_eq!(a.id, b.id);
        assert!(matches!(
            StartChoice::parse("KKKKKKKKK").resolve(&rules, 0),
            Err(StartError::BackRank(_))
        ));
        assert!(matches!(
            StartChoice::Id(u64::MAX).resolve(&rules, 0),
            Err(StartError::Id(_))
        ));
        assert!(matches!(
            StartChoice::Fen("x".into()).resolve(&rules, 0),
            Err(StartError::Fen(_))
        ));
    }
}
