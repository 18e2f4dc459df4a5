//! What a typed line does: a command (`undo`, `save FILE`, `hint`, `level 3`, ...) or a move.

use super::autosave;
use super::levels;
use super::session::{numbered, Session};
use super::think;
use modern_chess::notation::{self, Reading, SanError};
use std::path::Path;
use std::sync::Arc;

pub const HELP: &str = "\
Enter a move in SAN (Nf3, exd5, O-O-Oc, Bc<=>Q, e8=Q) or coordinates (g1f3, e7e8q;
castling as king takes own rook, e.g. e1i1; Bishop Adjustment as bishop square then
partner square, e.g. c1d1). A capture mark, check or mate that is wrong is refused
(`Nxe5` when e5 is empty), so a slip never plays a move you did not mean. Commands:
  moves        list the legal moves
  undo         take back your last move (and the engine's reply), or a resignation
  hint         the engine suggests a move for you
  analyze      the engine's view of the position (score from White's side, best line)
  level N      engine strength 1-8 (1: weakest, 100 ms a move ... 8: full strength, 900 ms, the default)
  time MS      engine time per move in milliseconds
  flip         turn the board round
  board        show the board again
  fen          print the position as FEN
  pgn          print the game so far as PGN
  save FILE    write the game as PGN to FILE (refuses to replace a file)
  save! FILE   the same, replacing FILE if it exists
  resign       resign the game
  help         this text
  quit         leave (the game stays saved; `modern-chess play --resume` continues it)
The game is saved after every move in the file named at the start. Ctrl-C while the engine
thinks makes it move at once; Ctrl-C at the prompt (or a second one) saves and quits.";

/// One line of input as bytes; false when the session should end.
pub fn handle_bytes(s: &mut Session, bytes: &[u8]) -> bool {
    match std::str::from_utf8(bytes) {
        Ok(line) => {
            if !s.input_tty {
                // Echo piped input so the transcript reads like a session.
                s.out(line);
            }
            handle(s, line)
        }
        Err(_) => {
            if !s.input_tty {
                s.out(&String::from_utf8_lossy(bytes));
            }
            s.out("That line is not text (not UTF-8) and was ignored.");
            true
        }
    }
}

/// One line of text; false when the session should end.
pub fn handle(s: &mut Session, line: &str) -> bool {
    let line = line.trim();
    if line.is_empty() {
        return true;
    }
    let (word, rest) = match line.split_once(char::is_whitespace) {
        Some((w, r)) => (w, r.trim()),
        None => (line, ""),
    };
    match word.to_ascii_lowercase().as_str() {
        "quit" | "exit" => {
            s.autosave();
            if let Some(p) = &s.autosave {
                s.out(&format!("The game is saved in {}.", p.display()));
            }
            return false;
        }
        "help" | "?" => s.out(HELP),
        "board" | "show" => s.show(),
        "flip" => {
            s.view.flipped = !s.view.flipped;
            s.show();
        }
        "fen" => s.out(&s.game.current().fen(&s.rules)),
        "pgn" => print!("{}", s.pgn()),
        "save" => save(s, rest, false),
        "save!" => save(s, rest, true),
        "moves" => list_moves(s),
        "undo" => undo(s),
        "resign" => resign(s),
        "hint" => hint(s),
        "analyze" | "analyse" => analyze(s),
        "level" => level(s, rest),
        "time" => time(s, rest),
        _ => typed_move(s, line),
    }
    true
}

fn save(s: &mut Session, rest: &str, overwrite: bool) {
    if rest.is_empty() {
        s.out("save needs a file name: save FILE");
        return;
    }
    match autosave::save_as(Path::new(rest), &s.pgn(), overwrite) {
        Ok(()) => s.out(&format!("Saved the game to {rest}")),
        // Refusals and failures go to stderr as well, where a script sees them.
        Err(e) => {
            s.out(&e);
            eprintln!("error: {e}");
        }
    }
}

fn list_moves(s: &Session) {
    let rules = &*s.rules;
    let pos = s.game.current();
    if s.game.outcome(rules).is_some() {
        s.out("The game is over: no moves.");
        return;
    }
    let mut list: Vec<String> = pos
        .legal_moves(rules)
        .iter()
        .map(|&m| notation::to_san(rules, pos, m))
        .collect();
    list.sort();
    s.out(&format!("{} legal moves: {}", list.len(), list.join(" ")));
}

/// Takes back a resignation, or the moves back to the last position where a person was to
/// move; then whoever is to move, moves.
fn undo(s: &mut Session) {
    let rules = Arc::clone(&s.rules);
    if matches!(
        s.game.outcome(&rules),
        Some(modern_chess::Outcome::Resignation { .. })
    ) {
        s.truncate(s.game.moves().len());
        s.out("Resignation taken back.");
        s.autosave();
        s.show();
        return;
    }
    let positions = s.game.positions();
    let current = positions.len() - 1;
    let target = (0..current)
        .rev()
        .find(|&i| s.players[positions[i].side_to_move()] == super::args::Player::Human);
    let Some(target) = target else {
        s.out("Nothing to undo: no move of yours has been played.");
        return;
    };
    let taken = super::think::line_san(
        &rules,
        &positions[target],
        &s.game.moves()[target..],
        usize::MAX,
    );
    let plies = current - target;
    s.truncate(target);
    s.out(&format!(
        "Took back {} ({}).",
        if plies == 1 {
            "one move".to_string()
        } else {
            format!("{plies} moves")
        },
        taken
    ));
    s.autosave();
    s.show();
    s.advance();
}

fn resign(s: &mut Session) {
    let rules = Arc::clone(&s.rules);
    if s.game.outcome(&rules).is_some() {
        s.out("The game is already over.");
        return;
    }
    let side = s.game.current().side_to_move();
    // The person resigns, even when the engine is to move.
    let loser = if s.players[side] == super::args::Player::Human {
        side
    } else {
        side.other()
    };
    s.game.resign(loser);
    s.check_end();
}

/// Runs the engine on the current position without playing (for `hint` and `analyze`).
fn consult(s: &mut Session) -> Option<think::Thought> {
    let rules = Arc::clone(&s.rules);
    if s.game.outcome(&rules).is_some() {
        s.out("The game is over.");
        return None;
    }
    let (limits, tty) = (s.limits, s.tty);
    let history = s.game.positions().to_vec();
    let engine = s.engine();
    engine.set_skill(modern_chess::engine::SkillLevel::MAX);
    think::search(engine, &rules, &history, &limits, tty, false)
}

fn hint(s: &mut Session) {
    let Some(t) = consult(s) else { return };
    let rules = &*s.rules;
    let pos = s.game.current();
    let san = notation::to_san(rules, pos, t.best);
    s.out(&format!(
        "Hint: {}{}",
        numbered(pos, &san),
        think::move_detail(&t, pos.side_to_move().index())
    ));
}

fn analyze(s: &mut Session) {
    let Some(t) = consult(s) else { return };
    let rules = &*s.rules;
    let pos = s.game.current();
    match &t.info {
        Some(i) => s.out(&format!(
            "Analysis ({:.1} s, depth {}): {}; best line {}",
            t.elapsed.as_secs_f64(),
            i.depth,
            think::labelled(i, pos.side_to_move().index()),
            think::line_san(rules, pos, &i.pv, 12)
        )),
        None => s.out(&format!(
            "Analysis: best move {}",
            numbered(pos, &notation::to_san(rules, pos, t.best))
        )),
    }
}

fn level(s: &mut Session, rest: &str) {
    match rest.parse::<u8>() {
        Ok(n) if levels::LEVELS.contains(&n) => {
            (s.limits, s.skill) = levels::for_level(n);
            s.out(&format!(
                "Level {n}: {}.",
                levels::describe(&s.limits, s.skill)
            ));
        }
        _ => s.out(&format!(
            "level needs a number from 1 to 8 (now: {}).",
            levels::describe(&s.limits, s.skill)
        )),
    }
}

fn time(s: &mut Session, rest: &str) {
    match rest.parse::<u64>() {
        Ok(ms) if (1..=3_600_000).contains(&ms) => {
            s.limits = modern_chess::engine::Limits {
                depth: None,
                movetime_ms: Some(ms),
                ..modern_chess::engine::Limits::default()
            };
            s.skill = modern_chess::engine::SkillLevel::MAX;
            s.out(&format!("Engine time: {ms} ms a move."));
        }
        _ => s.out(&format!(
            "time needs milliseconds from 1 to 3600000 (now: {}).",
            levels::describe(&s.limits, s.skill)
        )),
    }
}

fn typed_move(s: &mut Session, line: &str) {
    let rules = Arc::clone(&s.rules);
    if let Some(o) = s.game.outcome(&rules) {
        s.out(&format!(
            "The game is over ({}); try undo, pgn, save FILE or quit.",
            o.describe(&rules)
        ));
        return;
    }
    if !s.human_to_move() {
        s.out("It is the engine's turn.");
        return;
    }
    let pos = s.game.current().clone();
    match notation::parse_san_as(&rules, &pos, line, Reading::Strict) {
        Ok(m) => {
            if s.play_move(m, "") {
                s.show();
                s.advance();
            }
        }
        Err(e @ SanError::Syntax { .. }) => s.out(&format!(
            "Not a legal move or a command: `{line}` ({e}). Type `help` for help."
        )),
        Err(e @ SanError::Ambiguous { .. }) => {
            s.out(&format!("Ambiguous move: {e}. Nothing was played."))
        }
        Err(e @ SanError::Mismatch { .. }) => s.out(&format!(
            "Refused: {e}. Type the move as it is; nothing was played."
        )),
        Err(e @ SanError::Illegal { .. }) => s.out(&format!("Illegal move: {e}.")),
    }
}
