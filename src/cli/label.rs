//! Scores of game positions from another UCI engine, for `tune --score-with`.
//!
//! A strong engine's verdict on a position is a far better training target than the one
//! result of the game it came from, which a single later blunder decides. The engine is
//! driven like a `match` opponent (the variant, a variants.ini for Fairy-Stockfish) and
//! searches every position to a fixed depth; its score, turned to White's side, becomes the
//! position's target through `tune --lambda`.
//!
//! At depth 0 the engine does not search: it gives its static evaluation (its `eval`
//! command, as Stockfish and Fairy-Stockfish print it) of the quiet leaf our sample is taken
//! at. A search score carries the side to move's next move (a tempo, a threat carried out),
//! which a static evaluation of the same position must not learn; the other engine's static
//! judgement of the same quiet position is the like-for-like target.

use super::engines::write_fairy_ini;
use super::matchplay::{configure, MatchConfig};
use super::uci_client::UciClient;
use anyhow::Result;
use modern_chess::engine::tune::quiet_leaf;
use modern_chess::engine::{Evaluator, ExternalEval};
use modern_chess::{Colour, Game, Position, Rules};
use std::time::Duration;

/// Mate scores, and scores beyond this, count as this many centipawns: the target is a
/// win probability, which saturates long before.
pub const SCORE_CAP: i32 = 3000;

/// How long one fixed-depth search may take before the engine counts as hung.
const SEARCH_TIMEOUT: Duration = Duration::from_secs(120);

/// A UCI engine that scores positions.
pub struct Labeller {
    client: UciClient,
    depth: u32,
}

impl Labeller {
    /// Starts `command` and tells it the variant of `rules`.
    ///
    /// # Errors
    /// The engine cannot be started or does not know the variant.
    pub fn start(command: &str, rules: &Rules, depth: u32) -> Result<Labeller> {
        // The variants.ini stays when we are done: it is shared with other runs (see
        // `write_fairy_ini`).
        let cfg = MatchConfig {
            engine: command.to_string(),
            fairy_ini: write_fairy_ini(rules)?,
            ..MatchConfig::default()
        };
        let mut client = UciClient::start(command)?;
        let configured = configure(&mut client, rules, &cfg);
        let l = Labeller { client, depth };
        configured.map(|_| l)
    }

    /// The engine's name, as it gives it.
    pub fn name(&self) -> &str {
        &self.client.name
    }

    /// The engine's score of `pos` from White's side, capped at [`SCORE_CAP`]; None when it
    /// gave none (no legal move, say).
    ///
    /// # Errors
    /// The engine died or did not finish the search within two minutes.
    pub fn score(&mut self, rules: &Rules, pos: &Position) -> Result<Option<i32>> {
        self.client
            .send(&format!("position fen {}", pos.fen_six(rules)))?;
        if self.depth == 0 {
            return self.static_score();
        }
        self.client.send(&format!("go depth {}", self.depth))?;
        let lines = self.client.read_until("bestmove", SEARCH_TIMEOUT)?;
        let score = lines.iter().filter_map(|l| parse_score(l)).next_back();
        Ok(score.map(|s| {
            let s = s.clamp(-SCORE_CAP, SCORE_CAP);
            if pos.side_to_move() == Colour::White {
                s
            } else {
                -s
            }
        }))
    }

    /// The static evaluation the engine prints for the position last set (`eval`: a line
    /// `Total evaluation: 0.93 (white side)`, in pawns from White's side), capped.
    fn static_score(&mut self) -> Result<Option<i32>> {
        self.client.send("eval")?;
        // The line that ends the table; an engine without `eval` is caught by the timeout.
        self.client.send("isready")?;
        let lines = self.client.read_until("readyok", SEARCH_TIMEOUT)?;
        Ok(lines
            .iter()
            .find_map(|l| parse_static(l))
            .map(|s| s.clamp(-SCORE_CAP, SCORE_CAP)))
    }

    /// Scores of every position of `game` (index 0 is the start), None for the first `skip`
    /// plies, for positions in check, which `tune` does not use, and for the game's end. At
    /// depth 0 a position's score is the static evaluation of its quiet leaf under `eval`.
    ///
    /// # Errors
    /// As [`Labeller::score`].
    pub fn score_game(
        &mut self,
        rules: &Rules,
        eval: &Evaluator,
        game: &Game,
        skip: usize,
    ) -> Result<Vec<Option<i32>>> {
        self.client.send("ucinewgame")?;
        let mut out = Vec::with_capacity(game.positions().len());
        for (i, pos) in game.positions().iter().enumerate() {
            let unused = i < skip || pos.in_check(rules) || pos.legal_moves(rules).is_empty();
            let score = match (unused, self.depth) {
                (true, _) => None,
                (false, 0) => match quiet_leaf(rules, eval, pos) {
                    Some((_, leaf)) => self.score(rules, &leaf)?,
                    None => None,
                },
                (false, _) => self.score(rules, pos)?,
            };
            out.push(score);
        }
        Ok(out)
    }
}

/// `--eval-scale X`: a finite positive number of the other engine's centipawns per one of
/// ours (`uci` and `bench --strength` alike).
pub fn parse_eval_scale(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(x) if x.is_finite() && x > 0.0 => Ok(x),
        _ => Err(format!("must be a positive number, not {s}")),
    }
}

/// Another engine's static evaluation in place of ours (`bench --strength --eval-with`): a
/// diagnostic that plays our search with the other engine's judgement of positions, so a
/// match shows how much of the difference between two engines is the search.
pub struct PipedEval {
    labeller: std::sync::Mutex<Labeller>,
    /// The other engine's centipawns per one of ours.
    scale: f64,
}

impl PipedEval {
    /// Starts `command` for the variant of `rules`; its scores are divided by `scale`.
    ///
    /// # Errors
    /// As [`Labeller::start`].
    pub fn start(command: &str, rules: &Rules, scale: f64) -> Result<PipedEval> {
        Ok(PipedEval {
            labeller: std::sync::Mutex::new(Labeller::start(command, rules, 0)?),
            scale,
        })
    }
}

impl ExternalEval for PipedEval {
    /// None (our own evaluation then) when the engine gives no score, such as in check,
    /// or has failed.
    fn evaluate(&self, rules: &Rules, pos: &Position) -> Option<i32> {
        let mut l = self.labeller.lock().ok()?;
        let white = l.score(rules, pos).ok()??;
        let v = (white as f64 / self.scale).round() as i32;
        Some(if pos.side_to_move() == Colour::White {
            v
        } else {
            -v
        })
    }
}

/// The score of a UCI `info` line in centipawns for the side to move (a mate as
/// [`SCORE_CAP`]); None for lines without one and for bounds, which are not the score.
pub fn parse_score(line: &str) -> Option<i32> {
    // `string` takes the rest of the line: words after it are text, not fields.
    let words: Vec<&str> = line
        .split_whitespace()
        .take_while(|w| *w != "string")
        .collect();
    if words.first() != Some(&"info") || words.iter().any(|w| w.ends_with("bound")) {
        return None;
    }
    let i = words.iter().position(|w| *w == "score")?;
    let value: i32 = words.get(i + 2)?.parse().ok()?;
    match *words.get(i + 1)? {
        "cp" => Some(value),
        "mate" if value > 0 => Some(SCORE_CAP),
        "mate" => Some(-SCORE_CAP),
        _ => None,
    }
}

/// The centipawns of a `Total evaluation: 0.93 (white side)` line; None for any other line
/// and for `Total evaluation: none (in check)`.
pub fn parse_static(line: &str) -> Option<i32> {
    let rest = line.trim().strip_prefix("Total evaluation:")?;
    let pawns: f64 = rest.split_whitespace().next()?.parse().ok()?;
    pawns
        .is_finite()
        .then(|| (pawns * 100.0).round().clamp(-1e6, 1e6) as i32)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_eval_scale_is_a_finite_positive_number() {
        assert_eq!(parse_eval_scale("1.18"), Ok(1.18));
        for bad in ["0", "-1", "nan", "inf", "x", ""] {
            assert!(parse_eval_scale(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn static_evaluations_are_read_in_centipawns_from_whites_side() {
        assert_eq!(
            parse_static("Total evaluation: 0.93 (white side)"),
            Some(93)
        );
        assert_eq!(
            parse_static("Total evaluation: -2.15 (white side)"),
            Some(-215)
        );
        assert_eq!(parse_static("Total evaluation: none (in check)"), None);
        assert_eq!(parse_static("      Total |  ----  ---- |"), None);
        assert_eq!(parse_static("Total evaluation: NaN (white side)"), None);
    }

    #[test]
    fn scores_are_read_from_info_lines_and_bounds_are_not_scores() {
        let l = "info depth 7 seldepth 9 multipv 1 score cp -35 nodes 900 pv e2e4";
        assert_eq!(parse_score(l), Some(-35));
        assert_eq!(
            parse_score("info depth 9 score mate 3 pv a1a8"),
            Some(SCORE_CAP)
        );
        assert_eq!(parse_score("info depth 9 score mate -2"), Some(-SCORE_CAP));
        assert_eq!(parse_score("info depth 5 score cp 40 lowerbound"), None);
        assert_eq!(parse_score("info string score cp 12"), None);
        assert_eq!(parse_score("info depth 3 score cp"), None);
        assert_eq!(parse_score("bestmove e2e4"), None);
    }
}
