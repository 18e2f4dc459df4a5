//! `modern-chess play`: a whole game in the terminal, against a person or the built-in engine.
//!
//! Input is read a line at a time, so the same code serves a person at a terminal and a
//! script piping moves in; end of input ends the session cleanly. Colours and the boxed board
//! appear only when standard output is a terminal, so piped output stays plain text.

use super::common::{chosen_start, position_for, rules_for, Choice};
use anyhow::{anyhow, Context, Result};
use clap::{Args, ValueEnum};
use modern_chess::engine::{Engine, Limits, SearchInfo};
use modern_chess::game::Game;
use modern_chess::position::{MoveKind, Position};
use modern_chess::rules::Rules;
use modern_chess::setup;
use modern_chess::{notation, pgn};
use std::io::{BufRead, IsTerminal, Write};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Player {
    Human,
    Engine,
}

#[derive(Args)]
pub struct PlayArgs {
    #[command(flatten)]
    pub choice: Choice,
    /// Who plays White
    #[arg(long, value_enum, default_value = "human")]
    pub white: Player,
    /// Who plays Black
    #[arg(long, value_enum, default_value = "engine")]
    pub black: Player,
    /// Engine search depth in plies (default: about a second a move)
    #[arg(long)]
    pub depth: Option<u32>,
    /// Engine time per move in milliseconds
    #[arg(long)]
    pub movetime: Option<u64>,
    /// Engine transposition table size in megabytes
    #[arg(long, default_value_t = 16)]
    pub hash: usize,
    /// Draw pieces as Unicode figurines (pieces without a figurine keep their letter)
    #[arg(long)]
    pub figurines: bool,
    /// No ANSI colours (also the default when output is not a terminal)
    #[arg(long)]
    pub no_color: bool,
    /// Show the board with Black at the bottom
    #[arg(long)]
    pub flip: bool,
}

const HELP: &str = "\
Enter a move in SAN (Nf3, exd5, O-O-Oc, Bc<=>Q, e8=Q) or coordinates (g1f3, e7e8q;
castling as king takes own rook, e.g. e1i1; Bishop Adjustment as bishop square then
partner square, e.g. c1d1). Commands:
  moves       list the legal moves
  undo        take back your last move (and the engine's reply)
  flip        turn the board round
  board       show the board again
  fen         print the position as FEN
  pgn         print the game so far as PGN
  save FILE   write the game as PGN to FILE
  resign      resign the game
  help        this text
  quit        leave";

struct Session {
    rules: Arc<Rules>,
    game: Game,
    players: [Player; 2],
    engine: Option<Engine>,
    limits: Limits,
    colour: bool,
    figurines: bool,
    flipped: bool,
    /// The start position's number, for the PGN header, when the game began from one.
    start_id: Option<u64>,
    announced_end: bool,
}

fn colour_name(c: usize) -> &'static str {
    if c == 0 {
        "White"
    } else {
        "Black"
    }
}

/// Move number prefix: `12.` before White's move, `12...` before Black's.
fn numbered(pos: &Position, san: &str) -> String {
    if pos.side_to_move() == 0 {
        format!("{}. {san}", pos.fullmove_number())
    } else {
        format!("{}... {san}", pos.fullmove_number())
    }
}

/// The Unicode figurine of a piece letter, when chess has one.
fn figurine(rules: &Rules, t: usize, colour: usize) -> Option<char> {
    let def = &rules.variant.pieces[t];
    if let Some(f) = &def.figurine {
        let chars: Vec<char> = f.chars().collect();
        return match chars.len() {
            0 => None,
            1 => Some(chars[0]),
            _ => Some(chars[colour.min(chars.len() - 1)]),
        };
    }
    let white = match def.letter {
        'K' => '\u{2654}',
        'Q' => '\u{2655}',
        'R' => '\u{2656}',
        'B' => '\u{2657}',
        'N' => '\u{2658}',
        'P' => '\u{2659}',
        _ => return None,
    };
    // The black figurines follow the white ones at a distance of six.
    char::from_u32(white as u32 + 6 * colour as u32)
}

impl Session {
    fn out(&self, s: &str) {
        println!("{s}");
    }

    fn piece_char(&self, t: usize, c: usize) -> char {
        if self.figurines {
            // On coloured squares both sides use the solid shapes, told apart by colour.
            let shape = if self.colour { 1 } else { c };
            if let Some(f) = figurine(&self.rules, t, shape) {
                return f;
            }
        }
        self.rules.letter(t, c)
    }

    fn board(&self) -> String {
        let rules = &*self.rules;
        let geo = &rules.geo;
        let pos = self.game.current();
        let last = self.game.moves().last().copied();
        let last_squares: Vec<u8> = match last {
            Some(m) => {
                let prev = &self.game.positions()[self.game.positions().len() - 2];
                let mut v = vec![m.from, m.to];
                if let MoveKind::Castle { side } = m.kind {
                    if let Some((k, r)) = rules.castle_targets(prev.side_to_move(), side as usize) {
                        v.push(k);
                        v.push(r);
                    }
                }
                v
            }
            None => Vec::new(),
        };
        let check_sq = pos
            .in_check(rules)
            .then(|| pos.king_square(pos.side_to_move()));
        let mut ranks: Vec<u8> = (0..geo.ranks).rev().collect();
        let mut files: Vec<u8> = (0..geo.files).collect();
        if self.flipped {
            ranks.reverse();
            files.reverse();
        }
        let mut s = String::new();
        let file_line = |s: &mut String, wide: bool| {
            s.push_str("   ");
            for &f in &files {
                let ch = (b'a' + f) as char;
                if wide {
                    s.push_str(&format!(" {ch} "));
                } else {
                    s.push_str(&format!("{ch} "));
                }
            }
            s.push('\n');
        };
        for &r in &ranks {
            s.push_str(&format!("{:>2} ", r + 1));
            for &f in &files {
                let sq = geo.square(f, r);
                let piece = pos.piece_at(sq);
                if self.colour {
                    let dark = geo.is_dark(sq);
                    let bg = if check_sq == Some(sq) {
                        "48;5;160"
                    } else if last_squares.contains(&sq) {
                        if dark {
                            "48;5;136"
                        } else {
                            "48;5;186"
                        }
                    } else if dark {
                        "48;5;94"
                    } else {
                        "48;5;180"
                    };
                    match piece {
                        Some((t, c)) => {
                            let fg = if c == 0 { "1;97" } else { "1;30" };
                            s.push_str(&format!(
                                "\x1b[{bg};{fg}m {} \x1b[0m",
                                self.piece_char(t, c)
                            ));
                        }
                        None => s.push_str(&format!("\x1b[{bg}m   \x1b[0m")),
                    }
                } else {
                    match piece {
                        Some((t, c)) => s.push(self.piece_char(t, c)),
                        None => s.push('.'),
                    }
                    s.push(' ');
                }
            }
            s.push_str(&format!("{:>2}\n", r + 1));
        }
        file_line(&mut s, self.colour);
        s
    }

    fn status(&self) -> String {
        let rules = &*self.rules;
        let pos = self.game.current();
        let mut s = String::new();
        if let Some(&m) = self.game.moves().last() {
            let prev = &self.game.positions()[self.game.positions().len() - 2];
            s.push_str(&format!(
                "Last move: {}\n",
                numbered(prev, &notation::to_san(rules, prev, m))
            ));
        }
        let side = pos.side_to_move();
        if self.game.outcome(rules).is_none() {
            s.push_str(&format!("{} to move", colour_name(side)));
            if pos.in_check(rules) {
                s.push_str(&format!(" ({} is in check)", colour_name(side)));
            }
            s.push('\n');
        }
        s
    }

    fn show(&self) {
        print!("{}", self.board());
        print!("{}", self.status());
    }

    fn pgn(&self) -> String {
        let rules = &*self.rules;
        let player = |c: usize| match self.players[c] {
            Player::Human => "Human".to_string(),
            Player::Engine => format!("modern-chess {}", env!("CARGO_PKG_VERSION")),
        };
        let mut tags: Vec<(String, String)> = vec![
            ("Event".into(), "modern-chess play".into()),
            ("Site".into(), "?".into()),
            ("Date".into(), today()),
            ("Round".into(), "-".into()),
            ("White".into(), player(0)),
            ("Black".into(), player(1)),
        ];
        if let Some(id) = self.start_id {
            tags.push(("StartId".into(), id.to_string()));
        }
        pgn::write_game(rules, &self.game, &tags)
    }

    fn engine_move(&mut self) -> Result<()> {
        let rules = Arc::clone(&self.rules);
        let stop = AtomicBool::new(false);
        let mut last: Option<SearchInfo> = None;
        let limits = self.limits;
        let engine = self.engine.as_mut().ok_or_else(|| anyhow!("no engine"))?;
        let m = engine
            .search(self.game.positions(), &limits, &stop, &mut |i| {
                last = Some(i.clone())
            })
            .ok_or_else(|| anyhow!("the engine found no move"))?;
        let pos = self.game.current().clone();
        let san = notation::to_san(&rules, &pos, m);
        self.game
            .play(&rules, m)
            .map_err(|e| anyhow!("engine move {}: {e}", m.uci(&rules)))?;
        let detail = match last {
            Some(i) => {
                let score = match i.mate {
                    Some(n) => format!("mate in {n}"),
                    None => format!("{:+.2}", i.score_cp as f64 / 100.0),
                };
                format!(" (depth {}, {score}, {} nodes)", i.depth, i.nodes)
            }
            None => String::new(),
        };
        self.out(&format!(
            "{} plays {}{detail}",
            colour_name(pos.side_to_move()),
            numbered(&pos, &san)
        ));
        Ok(())
    }

    /// Announces the end of the game once; true when the game is over.
    fn check_end(&mut self) -> bool {
        match self.game.outcome(&self.rules) {
            Some(o) => {
                if !self.announced_end {
                    self.announced_end = true;
                    self.out(&format!(
                        "Game over: {}. Result {}",
                        o.describe(&self.rules),
                        o.result()
                    ));
                }
                true
            }
            None => {
                self.announced_end = false;
                false
            }
        }
    }

    fn has_human(&self) -> bool {
        self.players.contains(&Player::Human)
    }

    fn human_to_move(&self) -> bool {
        self.players[self.game.current().side_to_move()] == Player::Human
    }

    /// One line of user input. Returns false when the session should end.
    fn command(&mut self, line: &str) -> Result<bool> {
        let rules = Arc::clone(&self.rules);
        let line = line.trim();
        if line.is_empty() {
            return Ok(true);
        }
        let (word, rest) = match line.split_once(char::is_whitespace) {
            Some((w, r)) => (w, r.trim()),
            None => (line, ""),
        };
        match word.to_ascii_lowercase().as_str() {
            "quit" | "exit" => return Ok(false),
            "help" | "?" => self.out(HELP),
            "board" | "show" => self.show(),
            "flip" => {
                self.flipped = !self.flipped;
                self.show();
            }
            "fen" => self.out(&self.game.current().fen(&rules)),
            "pgn" => print!("{}", self.pgn()),
            "save" => {
                if rest.is_empty() {
                    self.out("save needs a file name: save FILE");
                } else {
                    match std::fs::write(rest, self.pgn()) {
                        Ok(()) => self.out(&format!("Saved the game to {rest}")),
                        Err(e) => self.out(&format!("Could not save to {rest}: {e}")),
                    }
                }
            }
            "moves" => {
                let pos = self.game.current();
                if self.game.outcome(&rules).is_some() {
                    self.out("The game is over: no moves.");
                } else {
                    let mut list: Vec<String> = pos
                        .legal_moves(&rules)
                        .iter()
                        .map(|&m| notation::to_san(&rules, pos, m))
                        .collect();
                    list.sort();
                    self.out(&format!("{} legal moves: {}", list.len(), list.join(" ")));
                }
            }
            "undo" => {
                if !self.game.undo() {
                    self.out("Nothing to undo.");
                } else {
                    // Back to a position where a person is to move.
                    while !self.human_to_move() && self.has_human() && !self.game.moves().is_empty()
                    {
                        self.game.undo();
                    }
                    self.announced_end = false;
                    self.out("Move taken back.");
                    self.show();
                }
            }
            "resign" => {
                if self.game.outcome(&rules).is_some() {
                    self.out("The game is already over.");
                } else {
                    let side = self.game.current().side_to_move();
                    // The person resigns, even when the engine is to move.
                    let loser = if self.players[side] == Player::Human {
                        side
                    } else {
                        side ^ 1
                    };
                    self.game.resign(loser);
                    self.check_end();
                }
            }
            _ => {
                if let Some(o) = self.game.outcome(&rules) {
                    self.out(&format!(
                        "The game is over ({}); try undo, pgn, save FILE or quit.",
                        o.describe(&rules)
                    ));
                    return Ok(true);
                }
                if !self.human_to_move() {
                    self.out("It is the engine's turn.");
                    return Ok(true);
                }
                let pos = self.game.current().clone();
                match notation::parse_san(&rules, &pos, line) {
                    Ok(m) => {
                        let san = notation::to_san(&rules, &pos, m);
                        if let Err(e) = self.game.play(&rules, m) {
                            self.out(&format!("Illegal move {line}: {e}"));
                            return Ok(true);
                        }
                        self.out(&format!(
                            "{} plays {}",
                            colour_name(pos.side_to_move()),
                            numbered(&pos, &san)
                        ));
                        self.show();
                        self.advance()?;
                    }
                    Err(e) => self.out(&format!(
                        "Not a legal move or a command: `{line}` ({e}). Type `help` for help."
                    )),
                }
            }
        }
        Ok(true)
    }

    /// Lets the engine play while it is its turn.
    fn advance(&mut self) -> Result<()> {
        while !self.check_end() && !self.human_to_move() {
            self.engine_move()?;
            self.show();
        }
        Ok(())
    }

    fn prompt(&self) {
        if self.game.outcome(&self.rules).is_some() {
            print!("(game over) > ");
        } else {
            print!("{} > ", colour_name(self.game.current().side_to_move()));
        }
        let _ = std::io::stdout().flush();
    }
}

/// Today's date as PGN writes it (`2024.05.17`), from the system clock in UTC.
fn today() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0);
    let days = (secs / 86_400) as i64;
    // Civil date from days since 1970-01-01 (Howard Hinnant's algorithm).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!("{y:04}.{m:02}.{d:02}")
}

pub fn run(args: PlayArgs) -> Result<()> {
    let rules = Arc::new(rules_for(&args.choice)?);
    let v = &rules.variant;
    let c = &args.choice;
    let mut start_id = None;
    let start = if c.fen.is_some() {
        position_for(&rules, c)?
    } else {
        let chosen = if c.setup.is_some() || c.id.is_some() || c.random {
            chosen_start(&rules, c)?
        } else if setup::count(v) > 1 {
            // No start named: a random one, as the variant intends.
            let mut random = c.clone();
            random.random = true;
            chosen_start(&rules, &random)?
        } else {
            None
        };
        match chosen {
            Some((id, sp)) => {
                start_id = Some(id);
                println!(
                    "{} start position #{id}: {}",
                    v.short,
                    setup::back_rank_string(v, &sp)
                );
                Position::from_start(&rules, &sp).map_err(|e| anyhow!("{e}"))?
            }
            None => position_for(&rules, c)?,
        }
    };
    let players = [args.white, args.black];
    let limits = if args.depth.is_some() || args.movetime.is_some() {
        Limits {
            depth: args.depth,
            movetime_ms: args.movetime,
            nodes: None,
        }
    } else {
        Limits::default_level()
    };
    if args.depth == Some(0) {
        anyhow::bail!("--depth must be at least 1");
    }
    let hash_mb = super::hash::checked_hash_mb(args.hash)?;
    let engine = players
        .contains(&Player::Engine)
        .then(|| Engine::new(Arc::clone(&rules), hash_mb));
    let mut s = Session {
        rules: Arc::clone(&rules),
        game: Game::new(start),
        players,
        engine,
        limits,
        colour: !args.no_color && std::io::stdout().is_terminal(),
        figurines: args.figurines,
        flipped: args.flip,
        start_id,
        announced_end: false,
    };
    println!(
        "{}: White {}, Black {}. Type `help` for commands.",
        v.name,
        format!("{:?}", players[0]).to_lowercase(),
        format!("{:?}", players[1]).to_lowercase()
    );
    s.show();
    s.advance()?;
    if !s.has_human() {
        return Ok(());
    }
    let stdin = std::io::stdin();
    let mut lines = stdin.lock().lines();
    loop {
        s.prompt();
        let Some(line) = lines.next() else {
            println!();
            if s.game.outcome(&rules).is_none() {
                println!("End of input: the game is left unfinished (*).");
            }
            return Ok(());
        };
        let line = line.context("reading standard input")?;
        if !std::io::stdin().is_terminal() {
            // Echo piped input so the transcript reads like a session.
            println!("{line}");
        }
        if !s.command(&line)? {
            return Ok(());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn figurines_exist_for_chess_letters_only() {
        let rules = modern_chess::catalog::load_rules("mrc").unwrap();
        let m = rules.variant.piece_index('M').unwrap();
        let k = rules.variant.piece_index('K').unwrap();
        assert_eq!(figurine(&rules, m, 0), None);
        assert_eq!(figurine(&rules, k, 0), Some('♔'));
        assert_eq!(figurine(&rules, k, 1), Some('♚'));
    }

    #[test]
    fn move_numbers() {
        let rules = modern_chess::catalog::load_rules("chess").unwrap();
        let pos = Position::from_fen(
            &rules,
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
        )
        .unwrap();
        assert_eq!(numbered(&pos, "e5"), "1... e5");
    }

    #[test]
    fn date_format() {
        let d = today();
        assert_eq!(d.len(), 10);
        assert_eq!(&d[4..5], ".");
        assert!(d.starts_with("20"));
    }
}
