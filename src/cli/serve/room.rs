//! One game on the server: the rules, the game, who plays each side, and the JSON the page
//! reads. Every rule decision is made here through the library (legal moves, SAN, results); the
//! page only shows what it is told.

use super::api::ApiError;
use super::pieces;
use super::variants::Entry;
use modern_chess::notation;
use modern_chess::pgn;
use modern_chess::Colour;
use modern_chess::Game;
use modern_chess::Rules;
use modern_chess::{Move, MoveKind, Position};
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

/// Who moves for a side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum PlayerKind {
    Human,
    Engine,
}

/// The strongest engine level: full strength at the game's time per move.
pub const MAX_LEVEL: u8 = 10;

/// One side's player. `level` (1..=10) is spread over the engine's levels 1-8 (see
/// [`super::thinker::engine_level`]): the engine's skill; the time per move is the game's.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Player {
    pub kind: PlayerKind,
    #[serde(default = "max_level")]
    pub level: u8,
}

fn max_level() -> u8 {
    MAX_LEVEL
}

impl Player {
    pub fn human() -> Player {
        Player {
            kind: PlayerKind::Human,
            level: MAX_LEVEL,
        }
    }
    pub fn is_engine(&self) -> bool {
        self.kind == PlayerKind::Engine
    }
    /// How the PGN names this player.
    fn pgn_name(&self) -> String {
        match self.kind {
            PlayerKind::Human => "Human".into(),
            PlayerKind::Engine => format!("modern-chess level {}", self.level),
        }
    }
}

pub fn colour_name(c: Colour) -> &'static str {
    match c {
        Colour::White => "white",
        Colour::Black => "black",
    }
}

/// Reads `"white"`/`"black"`.
pub fn parse_colour(s: &str) -> Option<Colour> {
    match s.to_ascii_lowercase().as_str() {
        "white" | "w" => Some(Colour::White),
        "black" | "b" => Some(Colour::Black),
        _ => None,
    }
}

/// What is stored on disk for a game: enough to rebuild it exactly.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct SavedGame {
    pub id: String,
    pub variant: String,
    pub start_fen: String,
    pub start_id: Option<u64>,
    /// Moves in coordinates, as `Move::uci` writes them.
    pub moves: Vec<String>,
    pub players: [Player; 2],
    pub movetime_ms: u64,
    /// The colour that resigned, if one did.
    pub resigned: Option<String>,
    pub created: u64,
}

/// A game being played on the server.
pub struct Room {
    pub id: String,
    pub variant: String,
    pub rules: Arc<Rules>,
    pub game: Game,
    /// SAN of each move, written when it was played.
    pub sans: Vec<String>,
    pub start_id: Option<u64>,
    pub players: [Player; 2],
    pub movetime_ms: u64,
    pub created: u64,
    /// Grows with every change, so a search started before a change knows it is stale.
    pub version: u64,
    /// The stop flag of the engine search running for this game, if one is.
    pub search: Option<Arc<AtomicBool>>,
    /// The last thinking report of the running search.
    pub thinking: Option<Value>,
    pieces: Value,
}

impl Room {
    pub fn new(id: String, entry: &Entry, start: Position, start_id: Option<u64>) -> Room {
        Room {
            id,
            variant: entry.name.clone(),
            rules: Arc::clone(&entry.rules),
            game: Game::new(start),
            sans: Vec::new(),
            start_id,
            players: [Player::human(), Player::human()],
            movetime_ms: 1000,
            created: 0,
            version: 0,
            search: None,
            thinking: None,
            pieces: pieces::describe(entry),
        }
    }

    /// Rebuilds a stored game, replaying its moves.
    ///
    /// # Errors
    /// When the start FEN or a move does not fit the variant any more.
    pub fn restore(saved: &SavedGame, entry: &Entry) -> Result<Room, String> {
        let start =
            Position::from_fen(&entry.rules, &saved.start_fen).map_err(|e| e.to_string())?;
        let mut room = Room::new(saved.id.clone(), entry, start, saved.start_id);
        room.players = saved.players;
        room.movetime_ms = saved.movetime_ms;
        room.created = saved.created;
        for (i, text) in saved.moves.iter().enumerate() {
            let pos = room.game.current();
            let m = pos
                .legal_moves(&room.rules)
                .iter()
                .copied()
                .find(|m| m.uci(&room.rules) == *text)
                .ok_or_else(|| format!("move {} `{text}` is not legal", i + 1))?;
            room.play(m)?;
        }
        if let Some(c) = saved.resigned.as_deref().and_then(parse_colour) {
            room.game.resign(c);
        }
        Ok(room)
    }

    pub fn to_saved(&self) -> SavedGame {
        let resigned = match self.game.outcome(&self.rules) {
            Some(modern_chess::Outcome::Resignation { winner }) => {
                Some(colour_name(winner.other()).to_string())
            }
            _ => None,
        };
        SavedGame {
            id: self.id.clone(),
            variant: self.variant.clone(),
            start_fen: self.game.start().fen(&self.rules),
            start_id: self.start_id,
            moves: self
                .game
                .moves()
                .iter()
                .map(|m| m.uci(&self.rules))
                .collect(),
            players: self.players,
            movetime_ms: self.movetime_ms,
            resigned,
            created: self.created,
        }
    }

    pub fn side_to_move(&self) -> Colour {
        self.game.current().side_to_move()
    }

    pub fn is_over(&self) -> bool {
        self.game.outcome(&self.rules).is_some()
    }

    /// Whether the engine should move now by itself.
    pub fn engine_to_move(&self) -> bool {
        !self.is_over() && self.players[self.side_to_move()].is_engine()
    }

    /// Plays a legal move and records its SAN.
    ///
    /// # Errors
    /// When the game is over or the move is illegal; nothing changes then.
    pub fn play(&mut self, m: Move) -> Result<(), String> {
        let san = notation::to_san(&self.rules, self.game.current(), m);
        self.game.play(&self.rules, m).map_err(|e| e.to_string())?;
        self.sans.push(san);
        self.version += 1;
        Ok(())
    }

    /// Reads a move the page or a client sent (SAN or coordinates) for the side to move.
    ///
    /// # Errors
    /// 409 when the game is over or the move belongs to the other side, 400 when it is not a
    /// legal move.
    pub fn parse_move(&self, text: &str) -> Result<Move, ApiError> {
        if let Some(o) = self.game.outcome(&self.rules) {
            return Err(ApiError::conflict(format!(
                "the game is over: {} ({})",
                o.result(),
                o.describe(&self.rules)
            )));
        }
        let pos = self.game.current();
        notation::parse_san(&self.rules, pos, text).map_err(|e| {
            match self.other_sides_piece(text) {
                Some(sq) => ApiError::conflict(format!(
                    "it is {}'s turn, and {sq} holds a {} piece",
                    colour_name(pos.side_to_move()),
                    colour_name(pos.side_to_move().other())
                )),
                None => ApiError::bad_request(format!("illegal move: {e}")),
            }
        })
    }

    /// The square a coordinate move starts from, when a piece of the side not to move stands
    /// there (a move sent for the wrong side).
    fn other_sides_piece(&self, text: &str) -> Option<String> {
        let pos = self.game.current();
        let geo = &self.rules.geo();
        let t = text.trim();
        (2..=t.len().min(4)).find_map(|n| {
            let sq = geo.parse_square(t.get(..n)?)?;
            let colour = pos.piece_at(sq)?.colour;
            (colour != pos.side_to_move()).then(|| geo.square_name(sq))
        })
    }

    /// Takes back `plies` moves (all that exist at most); returns how many were taken back.
    pub fn undo(&mut self, plies: usize) -> usize {
        let mut n = 0;
        while n < plies && self.game.undo() {
            self.sans.pop();
            n += 1;
        }
        if n == 0 && self.is_over() {
            // A resignation with no move after it is taken back too.
            self.game.undo();
        }
        self.version += 1;
        n
    }

    /// How many plies "take back" means when none is given: back to the last human move of a
    /// human-vs-engine game (the engine's reply and the move before it), else one.
    pub fn default_undo(&self) -> usize {
        let moves = self.game.moves().len();
        if moves == 0 {
            return 0;
        }
        let last_mover = self.game.positions()[moves - 1].side_to_move();
        if self.players[last_mover].is_engine() && !self.players[last_mover.other()].is_engine() {
            2.min(moves)
        } else {
            1
        }
    }

    /// The game as PGN.
    pub fn pgn(&self) -> String {
        let mut tags: Vec<(String, String)> = vec![
            ("Event".into(), "modern-chess serve".into()),
            ("Site".into(), format!("game {}", self.id)),
            ("White".into(), self.players[0].pgn_name()),
            ("Black".into(), self.players[1].pgn_name()),
        ];
        if let Some(id) = self.start_id {
            tags.push(("StartId".into(), id.to_string()));
        }
        if let Some(o) = self.game.outcome(&self.rules) {
            tags.push(("Termination".into(), o.describe(&self.rules)));
        }
        pgn::write_game(&self.rules, &self.game, &tags)
    }

    /// The squares a user may drop a piece on to make this move: the target square, and for
    /// castling also the king's destination (so the king may go onto its rook or to its
    /// square).
    fn targets(&self, m: Move) -> Vec<String> {
        let geo = &self.rules.geo();
        let mut out = Vec::new();
        if let MoveKind::Castle { side } = m.kind {
            let colour = self.side_to_move();
            if let Some((king_to, _)) = self.rules.castle_targets(colour, side as usize) {
                if king_to != m.from && king_to != m.to {
                    out.push(geo.square_name(king_to));
                }
            }
        }
        out.push(geo.square_name(m.to));
        out
    }

    /// Every legal move with its SAN and drop squares.
    pub fn legal_json(&self) -> Value {
        let pos = self.game.current();
        let rules = &self.rules;
        let geo = &rules.geo();
        let list: Vec<Value> = if self.is_over() {
            Vec::new()
        } else {
            pos.legal_moves(rules)
                .iter()
                .map(|&m| {
                    let promo = m
                        .promo
                        .map(|k| rules.variant().pieces()[k.index()].letter.to_string());
                    json!({
                        "uci": m.uci(rules),
                        "san": notation::to_san(rules, pos, m),
                        "from": geo.square_name(m.from),
                        "to": geo.square_name(m.to),
                        "targets": self.targets(m),
                        "promo": promo,
                        "kind": kind_name(m.kind),
                    })
                })
                .collect()
        };
        Value::Array(list)
    }

    fn moves_json(&self) -> Value {
        let geo = &self.rules.geo();
        let list: Vec<Value> = self
            .game
            .moves()
            .iter()
            .zip(&self.sans)
            .map(|(m, san)| {
                json!({
                    "san": san,
                    "uci": m.uci(&self.rules),
                    "from": geo.square_name(m.from),
                    "to": geo.square_name(m.to),
                })
            })
            .collect();
        Value::Array(list)
    }

    /// The whole state the page shows.
    pub fn view(&self) -> Value {
        let rules = &self.rules;
        let pos = self.game.current();
        let v = rules.variant();
        let check = pos
            .in_check(rules)
            .then(|| rules.geo().square_name(pos.king_square(pos.side_to_move())));
        let outcome = self.game.outcome(rules);
        let player = |p: &Player| json!({ "kind": p.kind, "level": p.level });
        json!({
            "id": self.id,
            "version": self.version,
            "variant": {
                "name": self.variant,
                "title": v.name(),
                "short": v.short(),
                "files": v.files(),
                "ranks": v.ranks(),
                "pieces": self.pieces,
            },
            "start_id": self.start_id,
            "start_fen": self.game.start().fen(rules),
            "fen": pos.fen(rules),
            "turn": colour_name(pos.side_to_move()),
            "moves": self.moves_json(),
            "check": check,
            "legal": self.legal_json(),
            "result": outcome.map(|o| o.result()),
            "reason": outcome.map(|o| o.describe(rules)),
            "players": { "white": player(&self.players[0]), "black": player(&self.players[1]) },
            "movetime_ms": self.movetime_ms,
            "thinking": self.thinking,
            "searching": self.search.is_some(),
        })
    }
}

fn kind_name(k: MoveKind) -> &'static str {
    match k {
        MoveKind::Normal | MoveKind::DoubleStep => "normal",
        MoveKind::EnPassant => "en passant",
        MoveKind::Castle { .. } => "castling",
        MoveKind::Adjust => "adjustment",
    }
}
