//! The engine at work, shown as a person expects: a thinking line while it searches (updated
//! in place on a terminal, one plain line per finished depth when piped), the time it took,
//! and scores from White's side as GUIs show them (`+0.35`, `-1.20`, `#5`, `#-3`), labelled.

use super::signals;
use modern_chess::engine::{Engine, Limits, SearchInfo};
use modern_chess::notation;
use modern_chess::Rules;
use modern_chess::{Move, Position};
use std::io::Write;
use std::time::{Duration, Instant};

/// What a search found.
pub struct Thought {
    pub best: Move,
    pub info: Option<SearchInfo>,
    pub elapsed: Duration,
    /// A Ctrl-C cut the search short ("move now").
    pub cut_short: bool,
}

/// The score of a finished iteration from White's side: `+0.35`, `-1.20`, `#5` (White mates in
/// five), `#-3` (Black mates in three).
pub fn white_score(info: &SearchInfo, side_to_move: usize) -> String {
    let sign = if side_to_move == 0 { 1 } else { -1 };
    match info.mate {
        Some(n) => format!("#{}", n * sign),
        None => format!("{:+.2}", f64::from(info.score_cp * sign) / 100.0),
    }
}

/// The same score in words: who is better, or who mates.
pub fn verdict(info: &SearchInfo, side_to_move: usize) -> String {
    let sign = if side_to_move == 0 { 1 } else { -1 };
    if let Some(n) = info.mate {
        let n = n * sign;
        let who = if n > 0 { "White" } else { "Black" };
        return format!("{who} mates in {}", n.abs());
    }
    let cp = info.score_cp * sign;
    let who = if cp > 0 { "White" } else { "Black" };
    match cp.abs() {
        0..=30 => "about equal".into(),
        31..=100 => format!("{who} is slightly better"),
        101..=300 => format!("{who} is better"),
        _ => format!("{who} is winning"),
    }
}

/// `eval +0.35 (about equal)`: the label every score carries; the words make the sign's
/// meaning (White's side) plain.
pub fn labelled(info: &SearchInfo, side_to_move: usize) -> String {
    format!(
        "eval {} ({})",
        white_score(info, side_to_move),
        verdict(info, side_to_move)
    )
}

/// A line of moves in SAN with move numbers (`12... Nf6 13. e5`), as far as they are legal.
pub fn line_san(rules: &Rules, start: &Position, moves: &[Move], max: usize) -> String {
    let mut pos = start.clone();
    let mut words = Vec::new();
    for (i, &m) in moves.iter().take(max).enumerate() {
        if !pos.legal_moves(rules).contains(&m) {
            break;
        }
        let san = notation::to_san(rules, &pos, m);
        let n = pos.fullmove_number();
        if pos.side_to_move() == modern_chess::Colour::White {
            words.push(format!("{n}. {san}"));
        } else if i == 0 {
            words.push(format!("{n}... {san}"));
        } else {
            words.push(san);
        }
        pos = pos.play_unchecked(rules, m);
    }
    words.join(" ")
}

/// One thinking line: elapsed time, depth, score, best line.
fn thinking_line(rules: &Rules, root: &Position, info: &SearchInfo) -> String {
    format!(
        "thinking {:.1} s, depth {}, {} ({}): {}",
        info.time_ms as f64 / 1000.0,
        info.depth,
        white_score(info, root.side_to_move().index()),
        verdict(info, root.side_to_move().index()),
        line_san(rules, root, &info.pv, 8)
    )
}

/// Searches the game's current position; `own_move` marks a search for the engine's move (a
/// first Ctrl-C then means "move now"). `None` when there is no legal move.
pub fn search(
    engine: &mut Engine,
    rules: &Rules,
    history: &[Position],
    limits: &Limits,
    tty: bool,
    own_move: bool,
) -> Option<Thought> {
    let root = history.last()?.clone();
    let mut last: Option<SearchInfo> = None;
    let started = Instant::now();
    if own_move {
        signals::begin_thinking();
    }
    let best = engine.search(history, limits, &signals::STOP, &mut |i| {
        let line = thinking_line(rules, &root, i);
        if tty {
            print!("\r\x1b[K{line}");
            let _ = std::io::stdout().flush();
        } else {
            println!("  {line}");
        }
        last = Some(i.clone());
    });
    let cut_short = own_move && signals::end_thinking();
    if tty && last.is_some() {
        print!("\r\x1b[K");
        let _ = std::io::stdout().flush();
    }
    Some(Thought {
        best: best?,
        info: last,
        elapsed: started.elapsed(),
        cut_short,
    })
}

/// ` (0.9 s, depth 8, eval +0.35 (about equal))` after an engine move.
pub fn move_detail(thought: &Thought, side_to_move: usize) -> String {
    let secs = thought.elapsed.as_secs_f64();
    match &thought.info {
        Some(i) => format!(
            " ({secs:.1} s, depth {}, {})",
            i.depth,
            labelled(i, side_to_move)
        ),
        None => format!(" ({secs:.1} s)"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn info(cp: i32, mate: Option<i32>) -> SearchInfo {
        SearchInfo {
            depth: 5,
            sel_depth: 7,
            score_cp: cp,
            mate,
            nodes: 1,
            time_ms: 1,
            pv: Vec::new(),
        }
    }

    #[test]
    fn scores_are_from_whites_side() {
        // +3.60 for the side to move, Black to move: Black is winning, shown as -3.60.
        assert_eq!(white_score(&info(360, None), 1), "-3.60");
        assert_eq!(white_score(&info(360, None), 0), "+3.60");
        assert_eq!(verdict(&info(360, None), 1), "Black is winning");
        assert_eq!(white_score(&info(0, Some(5)), 0), "#5");
        assert_eq!(white_score(&info(0, Some(3)), 1), "#-3");
        assert_eq!(verdict(&info(0, Some(3)), 1), "Black mates in 3");
        assert_eq!(verdict(&info(-20, None), 0), "about equal");
        assert_eq!(
            labelled(&info(-35, None), 1),
            "eval +0.35 (White is slightly better)"
        );
    }
}
