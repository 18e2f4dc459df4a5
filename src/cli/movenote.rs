//! What an engine said about the move it chose (score, depth, time, nodes), written into a
//! match's PGN as a comment after the move, as cutechess-cli does: `{+0.34/12 0.100s 54012n}`.

use modern_chess::engine::SearchInfo;
use std::fmt;

/// One engine's summary of its search for one move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveNote {
    /// Centipawns from the mover's side, unless `mate` is given.
    pub score_cp: i32,
    /// Moves to mate: positive when the mover mates.
    pub mate: Option<i32>,
    pub depth: u32,
    pub time_ms: u64,
    pub nodes: u64,
}

impl MoveNote {
    /// From our engine's report of its last iteration.
    pub fn from_info(i: &SearchInfo) -> MoveNote {
        MoveNote {
            score_cp: i.score_cp,
            mate: i.mate,
            depth: i.depth,
            time_ms: i.time_ms,
            nodes: i.nodes,
        }
    }

    /// From the last UCI `info` line with a depth and an exact score among `lines` (bounds
    /// and other lines of a multi-PV search are passed over); None when there is none.
    pub fn from_uci(lines: &[String]) -> Option<MoveNote> {
        lines.iter().rev().find_map(|l| parse_info(l))
    }
}

fn parse_info(line: &str) -> Option<MoveNote> {
    let w: Vec<&str> = line.split_whitespace().collect();
    if w.first() != Some(&"info") {
        return None;
    }
    let after = |key: &str| w.iter().position(|x| *x == key).and_then(|i| w.get(i + 1));
    let number = |key: &str| after(key).and_then(|v| v.parse::<i64>().ok());
    if w.contains(&"lowerbound") || w.contains(&"upperbound") || number("multipv").unwrap_or(1) != 1
    {
        return None;
    }
    let s = w.iter().position(|x| *x == "score")?;
    let value: i32 = w.get(s + 2)?.parse().ok()?;
    let (score_cp, mate) = match *w.get(s + 1)? {
        "cp" => (value, None),
        "mate" => (0, Some(value)),
        _ => return None,
    };
    Some(MoveNote {
        score_cp,
        mate,
        depth: u32::try_from(number("depth")?).ok()?,
        time_ms: number("time")
            .and_then(|t| u64::try_from(t).ok())
            .unwrap_or(0),
        nodes: number("nodes")
            .and_then(|n| u64::try_from(n).ok())
            .unwrap_or(0),
    })
}

impl fmt::Display for MoveNote {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self.mate {
            Some(m) if m < 0 => write!(f, "-M{}", -m)?,
            Some(m) => write!(f, "+M{m}")?,
            None => write!(f, "{:+.2}", self.score_cp as f64 / 100.0)?,
        }
        let secs = self.time_ms as f64 / 1000.0;
        write!(f, "/{} {secs:.3}s {}n", self.depth, self.nodes)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn the_last_exact_score_is_taken() {
        let l = lines(&[
            "info depth 11 seldepth 16 multipv 1 score cp 104 nodes 38776 nps 372846 time 104 pv d1c1",
            "info depth 12 seldepth 18 multipv 1 score cp 150 lowerbound nodes 40000 time 110 pv d1c1",
            "info string something",
            "bestmove d1c1",
        ]);
        let n = MoveNote::from_uci(&l).unwrap();
        assert_eq!(
            (n.score_cp, n.depth, n.nodes, n.time_ms),
            (104, 11, 38776, 104)
        );
        assert_eq!(n.to_string(), "+1.04/11 0.104s 38776n");
        let m =
            MoveNote::from_uci(&lines(&["info depth 245 score mate -2 nodes 5 time 3"])).unwrap();
        assert_eq!(m.to_string(), "-M2/245 0.003s 5n");
        assert_eq!(
            MoveNote::from_uci(&lines(&["info depth x score cp 3", "bestmove a1a2"])),
            None
        );
        assert_eq!(
            MoveNote::from_uci(&lines(&["info score cp", "info depth 3 score"])),
            None
        );
    }
}
