//! One game in progress: the position, who plays, the engine, how it is shown and where it is
//! saved. Every change of the game goes through here, and each is followed by an autosave.

use super::args::Player;
use super::autosave;
use super::board::{self, View};
use super::signals;
use super::think;
use modern_chess::engine::{Engine, Limits, SkillLevel};
use modern_chess::pgn;
use modern_chess::Game;
use modern_chess::Rules;
use modern_chess::{Move, Position};
use std::io::Write;
use std::path::PathBuf;
use std::sync::Arc;

pub struct Session {
    pub rules: Arc<Rules>,
    pub game: Game,
    pub players: [Player; 2],
    pub engine: Option<Engine>,
    pub limits: Limits,
    /// The engine's skill when it plays its moves (`hint` and `analyze` use full strength).
    pub skill: SkillLevel,
    pub hash_mb: usize,
    /// The engine's search threads (`--threads`).
    pub threads: usize,
    pub view: View,
    /// Standard output is a terminal (thinking line in place, no echo of input).
    pub tty: bool,
    /// Standard input is a terminal (piped input is echoed so a transcript reads well).
    pub input_tty: bool,
    /// The start position's number, for the PGN header, when the game began from one.
    pub start_id: Option<u64>,
    /// The PGN `Date` of the game (kept when a game is resumed).
    pub date: String,
    /// Where the game is saved after every move; `None` when no data directory was found.
    pub autosave: Option<PathBuf>,
    announced_end: bool,
}

pub fn colour_name(c: modern_chess::Colour) -> &'static str {
    if c == modern_chess::Colour::White {
        "White"
    } else {
        "Black"
    }
}

/// Move number prefix: `12. e4` before White's move, `12... e5` before Black's.
pub fn numbered(pos: &Position, san: &str) -> String {
    if pos.side_to_move() == modern_chess::Colour::White {
        format!("{}. {san}", pos.fullmove_number())
    } else {
        format!("{}... {san}", pos.fullmove_number())
    }
}

impl Session {
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        rules: Arc<Rules>,
        game: Game,
        players: [Player; 2],
        limits: Limits,
        hash_mb: usize,
        view: View,
        start_id: Option<u64>,
        date: String,
        autosave: Option<PathBuf>,
    ) -> Session {
        use std::io::IsTerminal;
        Session {
            rules,
            game,
            players,
            engine: None,
            limits,
            skill: SkillLevel::MAX,
            hash_mb,
            threads: 1,
            view,
            tty: std::io::stdout().is_terminal(),
            input_tty: std::io::stdin().is_terminal(),
            start_id,
            date,
            autosave,
            announced_end: false,
        }
    }

    pub fn out(&self, s: &str) {
        println!("{s}");
    }

    pub fn show(&self) {
        print!("{}", board::draw(&self.rules, &self.game, self.view));
        print!("{}", self.status());
    }

    fn status(&self) -> String {
        let rules = &*self.rules;
        let pos = self.game.current();
        let mut s = String::new();
        if let Some(&m) = self.game.moves().last() {
            let prev = &self.game.positions()[self.game.positions().len() - 2];
            s.push_str(&format!(
                "Last move: {}\n",
                numbered(prev, &modern_chess::notation::to_san(rules, prev, m))
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

    /// The opening lines: variant, players, level, autosave place.
    pub fn announce(&self) {
        self.out(&format!(
            "{}: White {}, Black {}. Type `help` for commands.",
            self.rules.variant().name(),
            self.players[0].name(),
            self.players[1].name()
        ));
        if self.players.contains(&Player::Engine) {
            self.out(&format!(
                "Engine: {}.",
                super::levels::describe(&self.limits, self.skill)
            ));
        }
        match &self.autosave {
            Some(p) => self.out(&format!("Autosave: {}", p.display())),
            None => eprintln!("warning: no data directory (set XDG_DATA_HOME or HOME): this game is not autosaved"),
        }
        self.show();
    }

    pub fn pgn(&self) -> String {
        let player = |c: usize| match self.players[c] {
            Player::Human => "Human".to_string(),
            Player::Engine => format!("modern-chess {}", env!("CARGO_PKG_VERSION")),
        };
        let mut tags: Vec<(String, String)> = vec![
            ("Event".into(), "modern-chess play".into()),
            ("Site".into(), "?".into()),
            ("Date".into(), self.date.clone()),
            ("Round".into(), "-".into()),
            ("White".into(), player(0)),
            ("Black".into(), player(1)),
        ];
        if let Some(id) = self.start_id {
            tags.push(("StartId".into(), id.to_string()));
        }
        if let Some(o) = self.game.outcome(&self.rules) {
            tags.push(("Termination".into(), o.describe(&self.rules)));
        }
        pgn::write_game(&self.rules, &self.game, &tags)
    }

    /// Writes the game to its autosave file; a failure is reported and the game goes on.
    pub fn autosave(&self) {
        if let Some(path) = &self.autosave {
            if let Err(e) = autosave::write_atomic(path, &self.pgn()) {
                eprintln!("warning: could not autosave to {}: {e}", path.display());
            }
        }
    }

    /// A signal ends the session: save, say where, and how to go on.
    pub fn save_on_signal(&self, sig: i32) {
        self.autosave();
        // The terminal may be gone (SIGHUP): nothing below may panic.
        let mut out = std::io::stdout();
        let _ = writeln!(out);
        let _ = match &self.autosave {
            Some(p) => writeln!(
                out,
                "Interrupted ({}): the game is saved in {}. Continue it with `modern-chess play --resume`.",
                signals::name(sig),
                p.display()
            ),
            None => writeln!(out, "Interrupted ({}).", signals::name(sig)),
        };
        let _ = out.flush();
    }

    pub fn has_human(&self) -> bool {
        self.players.contains(&Player::Human)
    }

    pub fn human_to_move(&self) -> bool {
        self.players[self.game.current().side_to_move()] == Player::Human
    }

    /// The engine, made on first use (a game between people needs one only for `hint`).
    pub fn engine(&mut self) -> &mut Engine {
        let rules = Arc::clone(&self.rules);
        let (mb, threads) = (self.hash_mb, self.threads);
        self.engine.get_or_insert_with(|| {
            let mut engine = Engine::new(rules, mb);
            engine.set_threads(threads);
            engine
        })
    }

    /// Plays a legal move, prints the `White plays 1. e4` line (with `detail`) and saves.
    pub fn play_move(&mut self, m: Move, detail: &str) -> bool {
        let rules = Arc::clone(&self.rules);
        let pos = self.game.current().clone();
        let san = modern_chess::notation::to_san(&rules, &pos, m);
        if let Err(e) = self.game.play(&rules, m) {
            self.out(&format!("Illegal move {}: {e}", m.uci(&rules)));
            return false;
        }
        self.out(&format!(
            "{} plays {}{detail}",
            colour_name(pos.side_to_move()),
            numbered(&pos, &san)
        ));
        self.autosave();
        true
    }

    /// The engine plays one move; false when it could not (no move, or a signal came).
    fn engine_move(&mut self) -> bool {
        let rules = Arc::clone(&self.rules);
        let limits = self.limits;
        let tty = self.tty;
        let history = self.game.positions().to_vec();
        let side = self.game.current().side_to_move();
        let skill = self.skill;
        self.engine().set_skill(skill);
        let Some(thought) = think::search(self.engine(), &rules, &history, &limits, tty, true)
        else {
            return false;
        };
        if signals::pending().is_some() {
            return false;
        }
        let mut detail = think::move_detail(&thought, side.index());
        if thought.cut_short {
            detail.push_str(" [moved at once on Ctrl-C]");
        }
        self.play_move(thought.best, &detail)
    }

    /// Announces the end of the game once; true when the game is over.
    pub fn check_end(&mut self) -> bool {
        match self.game.outcome(&self.rules) {
            Some(o) => {
                if !self.announced_end {
                    self.announced_end = true;
                    self.out(&format!(
                        "Game over: {}. Result {}",
                        o.describe(&self.rules),
                        o.result()
                    ));
                    self.autosave();
                }
                true
            }
            None => {
                self.announced_end = false;
                false
            }
        }
    }

    /// Lets the engine play while it is its turn (after a move, an undo, a resume).
    pub fn advance(&mut self) {
        while !self.check_end() && !self.human_to_move() {
            if !self.engine_move() {
                return;
            }
            self.show();
        }
    }

    pub fn prompt(&self) {
        if self.game.outcome(&self.rules).is_some() {
            print!("(game over) > ");
        } else {
            print!("{} > ", colour_name(self.game.current().side_to_move()));
        }
        let _ = std::io::stdout().flush();
    }

    pub fn end_of_input(&mut self) {
        self.out("");
        if self.game.outcome(&self.rules).is_none() {
            self.out("End of input: the game is left unfinished (*).");
        }
        self.autosave();
        if let Some(p) = &self.autosave {
            self.out(&format!("The game is saved in {}.", p.display()));
        }
    }

    /// Rebuilds the game from its start and the first `plies` moves (no resignation).
    pub fn truncate(&mut self, plies: usize) {
        let moves: Vec<Move> = self.game.moves()[..plies.min(self.game.moves().len())].to_vec();
        let mut g = Game::new(self.game.start().clone());
        for m in moves {
            if g.play(&self.rules, m).is_err() {
                break;
            }
        }
        self.game = g;
        self.announced_end = false;
    }
}
