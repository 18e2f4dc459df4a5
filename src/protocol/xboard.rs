//! The XBoard/WinBoard protocol (CECP version 2), the subset XBoard needs to play a variant it
//! does not know: the engine names its variants in `feature variants=...` and answers
//! `variant NAME` with the board (`setup (PIECETOCHAR) WxH+0_fairy FEN`) and the moves of the
//! pieces XBoard cannot guess (`piece M& BN`).
//!
//! XBoard's conventions differ from ours in two places: on a board with ten or more ranks it
//! numbers ranks from 0 (`a0`..`j9`) in moves and FEN squares, and it writes castling as
//! `O-O`/`O-O-O`. Conversion happens only at the edge of this module.

use super::{
    choose_start, clock_seed, one_line, parse_coord, think_time, Out, SearchThread, StartChoice,
    VariantSet,
};
use crate::engine::{Limits, SearchInfo};
use crate::game::Game;
use crate::position::{Move, MoveKind, Position};
use crate::rules::Rules;
use std::io::{BufRead, Write};
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex, MutexGuard};

/// The settings shared with the other protocol (see `super::ProtocolConfig`).
pub type XboardConfig = super::ProtocolConfig;

/// XBoard's built-in piece order (the slots of the PIECETOCHAR string), with the Betza of the
/// piece it draws in each slot; the king is last.
const SLOTS: [&str; 22] = [
    "P", "N", "B", "R", "Q", "F", "A", "BN", "RN", "W", "K", "", "", "", "", "", "", "", "", "",
    "", "K",
];
const PAWN_BETZA: &str = "fmWfceFifmnD";

/// Where each piece type is drawn: index into [`SLOTS`].
pub fn piece_slots(rules: &Rules) -> Vec<usize> {
    let mut used = [false; 22];
    let mut slot = vec![usize::MAX; rules.n_types];
    let norm = |b: &str| -> String {
        match b {
            "RB" | "BR" => "Q".into(),
            "NB" => "BN".into(),
            "NR" => "RN".into(),
            x => x.to_string(),
        }
    };
    // Pawn and king first: their slots are fixed.
    for (t, p) in rules.variant.pieces.iter().enumerate() {
        let s = if p.royal {
            21
        } else if p.pawn {
            0
        } else {
            continue;
        };
        if !used[s] {
            used[s] = true;
            slot[t] = s;
        }
    }
    for (t, p) in rules.variant.pieces.iter().enumerate() {
        if slot[t] != usize::MAX {
            continue;
        }
        let b = norm(&p.betza);
        let want = (1..11).find(|&s| SLOTS[s] == b && !used[s]);
        let s = want
            .or_else(|| (11..21).find(|&s| !used[s]))
            .or_else(|| (1..21).find(|&s| !used[s]));
        if let Some(s) = s {
            used[s] = true;
            slot[t] = s;
        }
    }
    slot
}

/// `setup (PNBRQ..M.............Kpnbrq..m.............k) 9x9+0_fairy FEN` and the `piece`
/// lines for every piece that is not drawn by an orthodox picture with orthodox moves.
pub fn setup_lines(rules: &Rules, fen: &str) -> Vec<String> {
    let slots = piece_slots(rules);
    let mut white = ['.'; 22];
    for (t, &s) in slots.iter().enumerate() {
        if s < 22 {
            white[s] = rules.variant.pieces[t].letter;
        }
    }
    let w: String = white.iter().collect();
    let b = w.to_ascii_lowercase();
    let mut out = vec![format!(
        "setup ({w}{b}) {}x{}+0_fairy {}",
        rules.geo.files, rules.geo.ranks, fen
    )];
    for (t, p) in rules.variant.pieces.iter().enumerate() {
        let s = slots[t];
        let orthodox = match s {
            0 => p.betza == PAWN_BETZA,
            1..=4 => SLOTS[s] == p.betza || (s == 4 && p.betza == "RB"),
            21 => p.betza == "K",
            _ => false,
        };
        if !orthodox {
            out.push(format!("piece {}& {}", p.letter, p.betza));
        }
    }
    out
}

/// Do squares on this board use XBoard's 0-based rank numbers?
fn zero_based(rules: &Rules) -> bool {
    rules.geo.ranks >= 10
}

/// Adds `delta` to every rank number (a digit run after a file letter) in `s`.
fn shift_ranks(s: &str, delta: i32) -> String {
    let mut out = String::new();
    let chars: Vec<char> = s.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        out.push(c);
        i += 1;
        if c.is_ascii_lowercase() && i < chars.len() && chars[i].is_ascii_digit() {
            let start = i;
            while i < chars.len() && chars[i].is_ascii_digit() {
                i += 1;
            }
            let n: String = chars[start..i].iter().collect();
            match n.parse::<i32>() {
                Ok(v) => out.push_str(&(v + delta).to_string()),
                Err(_) => out.push_str(&n),
            }
        }
    }
    out
}

/// A move as XBoard writes it.
pub fn move_to_xboard(rules: &Rules, m: Move) -> String {
    match m.kind {
        MoveKind::Castle { side: 1 } => "O-O".into(),
        MoveKind::Castle { .. } => "O-O-O".into(),
        _ if zero_based(rules) => shift_ranks(&m.uci(rules), -1),
        _ => m.uci(rules),
    }
}

/// Reads a move as XBoard writes it.
pub fn move_from_xboard(rules: &Rules, pos: &Position, text: &str) -> Result<Move, String> {
    let std = if zero_based(rules) && !text.starts_with(['O', 'o', '0']) {
        shift_ranks(text, 1)
    } else {
        text.to_string()
    };
    parse_coord(rules, pos, &std)
}

/// Our FEN for XBoard: six fields, en passant square in its numbering.
pub fn fen_to_xboard(rules: &Rules, pos: &Position) -> String {
    let fen = pos.fen_six(rules);
    if !zero_based(rules) {
        return fen;
    }
    let mut f: Vec<String> = fen.split(' ').map(str::to_string).collect();
    if f.len() > 3 && f[3] != "-" {
        f[3] = shift_ranks(&f[3], -1);
    }
    f.join(" ")
}

fn fen_from_xboard(rules: &Rules, fen: &str) -> String {
    if !zero_based(rules) {
        return fen.to_string();
    }
    let mut f: Vec<String> = fen.split_whitespace().map(str::to_string).collect();
    if f.len() > 3 && f[3] != "-" {
        f[3] = shift_ranks(&f[3], 1);
    }
    f.join(" ")
}

/// The game as both threads see it.
struct State {
    rules: Arc<Rules>,
    game: Game,
    /// The side the engine plays; `None` in force mode.
    engine_side: Option<usize>,
    /// Bumped by every command that changes the game, so a search started before it knows its
    /// move is stale.
    generation: u64,
    post: bool,
}

#[derive(Clone, Debug, Default)]
struct Clock {
    /// Moves per session (0: the whole game), base time, increment.
    mps: u32,
    base_ms: u64,
    inc_ms: u64,
    st_ms: Option<u64>,
    sd: Option<u32>,
    time_ms: Option<u64>,
}

struct Session<W: Write + Send + 'static> {
    out: Out<W>,
    variants: VariantSet,
    variant: String,
    state: Arc<Mutex<State>>,
    search: SearchThread,
    clock: Clock,
    start: StartChoice,
    start_fen: String,
    seed: Option<u64>,
    draws: u64,
}

fn lock(s: &Mutex<State>) -> MutexGuard<'_, State> {
    match s.lock() {
        Ok(g) => g,
        Err(p) => p.into_inner(),
    }
}

/// Runs an XBoard session until `quit` or the end of input.
///
/// # Errors
/// When the preset variant or start position cannot be used.
pub fn run<R: BufRead, W: Write + Send + 'static>(
    mut input: R,
    out: W,
    cfg: XboardConfig,
) -> anyhow::Result<()> {
    let mut variants = VariantSet::builtin();
    if let Some(p) = &cfg.variant_path {
        let (_, problems) = variants.add_path(p).map_err(anyhow::Error::msg)?;
        if let Some(p) = problems.first() {
            anyhow::bail!("{p}");
        }
    }
    let rules = Arc::new(variants.load(&cfg.variant).map_err(anyhow::Error::msg)?);
    let (_, start_fen) = choose_start(&rules, &cfg.start, cfg.seed.unwrap_or_else(clock_seed))
        .map_err(anyhow::Error::msg)?;
    let pos = Position::from_fen(&rules, &start_fen).map_err(|e| anyhow::anyhow!("{e}"))?;
    let mut s = Session {
        out: Out::new(out),
        variants,
        variant: cfg.variant.to_lowercase(),
        search: SearchThread::new(Arc::clone(&rules), cfg.hash_mb.max(1)),
        state: Arc::new(Mutex::new(State {
            rules,
            game: Game::new(pos),
            engine_side: Some(1),
            generation: 0,
            post: false,
        })),
        clock: Clock {
            base_ms: 5 * 60_000,
            ..Clock::default()
        },
        start: cfg.start,
        start_fen,
        seed: cfg.seed,
        draws: 0,
    };
    let mut line = String::new();
    loop {
        line.clear();
        match input.read_line(&mut line) {
            Ok(0) | Err(_) => break,
            Ok(_) => {}
        }
        if !s.command(line.trim()) {
            break;
        }
    }
    // End of input: a move being thought about is still given.
    s.search.wait_idle();
    Ok(())
}

impl<W: Write + Send + 'static> Session<W> {
    fn rules(&self) -> Arc<Rules> {
        Arc::clone(&lock(&self.state).rules)
    }

    /// Stops a search whose move is no longer wanted, and marks the game changed.
    fn abandon_search(&mut self) {
        lock(&self.state).generation += 1;
        self.search.stop();
    }

    fn command(&mut self, line: &str) -> bool {
        let (cmd, arg) = match line.split_once(char::is_whitespace) {
            Some((c, a)) => (c, a.trim()),
            None => (line, ""),
        };
        match cmd {
            "" => {}
            "xboard" | "accepted" | "rejected" | "random" | "hard" | "easy" | "computer"
            | "name" | "rating" | "ics" | "draw" | "hint" | "bk" | "cores" | "nps" | "exit"
            | "." | "otim" => {}
            "protover" => self.protover(),
            "new" => {
                self.abandon_search();
                self.clock.sd = None;
                self.clock.st_ms = None;
                let rules = self.rules();
                let pos = Position::from_fen(&rules, &self.start_fen);
                let mut st = lock(&self.state);
                if let Ok(p) = pos {
                    st.game = Game::new(p);
                }
                st.engine_side = Some(1);
            }
            "variant" => {
                self.abandon_search();
                self.set_variant(arg);
            }
            "setboard" => {
                self.abandon_search();
                self.setboard(arg);
            }
            "usermove" => {
                self.abandon_search();
                self.usermove(arg);
            }
            "go" => {
                self.abandon_search();
                {
                    let mut st = lock(&self.state);
                    let side = st.game.current().side_to_move();
                    st.engine_side = Some(side);
                }
                self.think();
            }
            "playother" => {
                self.abandon_search();
                let mut st = lock(&self.state);
                let side = st.game.current().side_to_move();
                st.engine_side = Some(side ^ 1);
            }
            "force" | "result" => {
                self.abandon_search();
                lock(&self.state).engine_side = None;
            }
            "white" | "black" => {
                self.abandon_search();
                let mut st = lock(&self.state);
                st.engine_side = Some(if cmd == "white" { 1 } else { 0 });
            }
            "?" => self.search.stop(),
            "undo" | "remove" => {
                self.abandon_search();
                let mut st = lock(&self.state);
                let n = if cmd == "undo" { 1 } else { 2 };
                for _ in 0..n {
                    st.game.undo();
                }
            }
            "ping" => self.out.line(&format!("pong {arg}")),
            "post" | "nopost" => lock(&self.state).post = cmd == "post",
            "level" => self.level(arg),
            "st" => match arg.parse::<f64>() {
                Ok(s) if s > 0.0 => self.clock.st_ms = Some((s * 1000.0) as u64),
                _ => self.out.line(&format!("Error (bad time): {arg}")),
            },
            "sd" => match arg.parse::<u32>() {
                Ok(d) if d > 0 => self.clock.sd = Some(d.min(200)),
                _ => self.out.line(&format!("Error (bad depth): {arg}")),
            },
            "time" => match arg.parse::<u64>() {
                Ok(cs) => self.clock.time_ms = Some(cs * 10),
                _ => self.out.line(&format!("Error (bad time): {arg}")),
            },
            "memory" => {
                if let Ok(mb) = arg.parse::<usize>() {
                    self.search.set_hash_mb(mb.clamp(1, 4096));
                }
            }
            "option" => self.option(arg),
            "d" => {
                let st = lock(&self.state);
                let text = format!(
                    "{}Fen: {}",
                    st.game.current().diagram(&st.rules),
                    st.game.current().fen(&st.rules)
                );
                drop(st);
                self.out.lines(&text);
            }
            "quit" => {
                self.abandon_search();
                return false;
            }
            _ => self
                .out
                .line(&format!("Error (unknown command): {}", one_line(line))),
        }
        true
    }

    fn protover(&self) {
        let names = self.variants.names().join(",");
        self.out.line(&format!(
            "feature ping=1 setboard=1 usermove=1 time=1 draw=0 sigint=0 sigterm=0 reuse=1 \
             analyze=0 colors=0 san=0 name=0 memory=1 myname=\"{}\" variants=\"{names}\" \
             option=\"StartPosition -string random\" done=1",
            super::uci::ENGINE_NAME
        ));
    }

    fn option(&mut self, arg: &str) {
        match arg.split_once('=') {
            Some((name, value)) if name.trim() == "StartPosition" => {
                self.start = StartChoice::parse(value);
                let name = self.variant.clone();
                self.abandon_search();
                self.set_variant(&name);
            }
            _ => self.out.line(&format!("Error (unknown option): {arg}")),
        }
    }

    fn set_variant(&mut self, name: &str) {
        let rules = match self.variants.load(name) {
            Ok(r) => Arc::new(r),
            Err(_) => {
                self.out.line(&format!("Error (unknown variant): {name}"));
                return;
            }
        };
        self.draws += 1;
        let seed = self
            .seed
            .map(|s| s.wrapping_add(self.draws))
            .unwrap_or_else(clock_seed);
        let chosen = choose_start(&rules, &self.start, seed)
            .or_else(|_| choose_start(&rules, &StartChoice::Random, seed))
            .and_then(|(_, fen)| {
                Position::from_fen(&rules, &fen)
                    .map(|p| (fen, p))
                    .map_err(|e| e.to_string())
            });
        let (fen, pos) = match chosen {
            Ok(x) => x,
            Err(e) => {
                self.out
                    .line(&format!("Error (bad start position): {}", one_line(&e)));
                return;
            }
        };
        self.search.set_rules(Arc::clone(&rules));
        self.variant = name.to_lowercase();
        self.start_fen = fen;
        let lines = setup_lines(&rules, &fen_to_xboard(&rules, &pos));
        {
            let mut st = lock(&self.state);
            st.rules = rules;
            st.game = Game::new(pos);
        }
        self.out.lines(&lines.join("\n"));
    }

    fn setboard(&mut self, fen: &str) {
        let rules = self.rules();
        let ours = fen_from_xboard(&rules, fen);
        match Position::from_fen(&rules, &ours) {
            Ok(mut p) => {
                // XBoard echoes the start FEN it was given without our seventh field: keep the
                // Bishop Adjustment rights of the start position then.
                if let Ok(start) = Position::from_fen(&rules, &self.start_fen) {
                    if start.fen_six(&rules) == p.fen_six(&rules) {
                        p = start;
                    }
                }
                lock(&self.state).game = Game::new(p);
            }
            Err(e) => self
                .out
                .line(&format!("tellusererror Illegal position: {e}")),
        }
    }

    fn usermove(&mut self, text: &str) {
        let mut st = lock(&self.state);
        let rules = Arc::clone(&st.rules);
        let pos = st.game.current().clone();
        let m = match move_from_xboard(&rules, &pos, text) {
            Ok(m) => m,
            Err(_) => {
                drop(st);
                self.out.line(&format!("Illegal move: {text}"));
                return;
            }
        };
        if let Err(e) = st.game.play(&rules, m) {
            drop(st);
            self.out
                .line(&format!("Illegal move ({}): {text}", one_line(&e)));
            return;
        }
        let over = st.game.outcome(&rules);
        let engine_to_move = st.engine_side == Some(st.game.current().side_to_move());
        drop(st);
        if let Some(o) = over {
            self.out
                .line(&format!("{} {{{}}}", o.result(), o.describe(&rules)));
        } else if engine_to_move {
            self.think();
        }
    }

    fn level(&mut self, arg: &str) {
        let parts: Vec<&str> = arg.split_whitespace().collect();
        let parsed = (|| -> Option<Clock> {
            let mps = parts.first()?.parse::<u32>().ok()?;
            let base = parts.get(1)?;
            let base_ms = match base.split_once(':') {
                Some((m, s)) => m.parse::<u64>().ok()? * 60_000 + s.parse::<u64>().ok()? * 1000,
                None => (base.parse::<f64>().ok()? * 60_000.0) as u64,
            };
            let inc_ms = (parts.get(2)?.parse::<f64>().ok()? * 1000.0) as u64;
            Some(Clock {
                mps,
                base_ms,
                inc_ms,
                ..Clock::default()
            })
        })();
        match parsed {
            Some(c) => self.clock = c,
            None => self.out.line(&format!("Error (bad level): {arg}")),
        }
    }

    /// Starts thinking about the engine's move in the current position.
    fn think(&mut self) {
        let (history, generation, rules, post, fullmove) = {
            let st = lock(&self.state);
            if st.game.outcome(&st.rules).is_some() {
                return;
            }
            (
                st.game.positions().to_vec(),
                st.generation,
                Arc::clone(&st.rules),
                st.post,
                st.game.current().fullmove_number(),
            )
        };
        let c = &self.clock;
        let mut limits = Limits {
            depth: c.sd,
            ..Limits::default()
        };
        limits.movetime_ms = Some(match c.st_ms {
            Some(ms) => ms,
            None => {
                let left = c.time_ms.unwrap_or(c.base_ms);
                let to_go = (c.mps > 0).then(|| c.mps - (fullmove - 1) % c.mps);
                think_time(left, c.inc_ms, to_go)
            }
        });
        if c.sd.is_some() && c.st_ms.is_none() && c.time_ms.is_none() {
            limits.movetime_ms = None;
        }
        let out = self.out.clone();
        let out2 = self.out.clone();
        let r1 = Arc::clone(&rules);
        let state = Arc::clone(&self.state);
        self.search.ensure_engine(&rules);
        self.search.start(
            history,
            limits,
            move |info: &SearchInfo| {
                if post {
                    let score = match info.mate {
                        Some(m) if m > 0 => 100_000 + m,
                        Some(m) => -100_000 + m,
                        None => info.score_cp,
                    };
                    let pv: Vec<String> = info.pv.iter().map(|m| move_to_xboard(&r1, *m)).collect();
                    out.line(&format!(
                        "{} {} {} {} {}",
                        info.depth,
                        score,
                        info.time_ms / 10,
                        info.nodes,
                        pv.join(" ")
                    ));
                }
            },
            move |best: Option<Move>, _: &AtomicBool| {
                let mut st = lock(&state);
                if st.generation != generation {
                    return;
                }
                let Some(m) = best else { return };
                let rules = Arc::clone(&st.rules);
                if st.game.play(&rules, m).is_err() {
                    return;
                }
                st.generation += 1;
                let over = st.game.outcome(&rules);
                drop(st);
                out2.line(&format!("move {}", move_to_xboard(&rules, m)));
                if let Some(o) = over {
                    out2.line(&format!("{} {{{}}}", o.result(), o.describe(&rules)));
                }
            },
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog;

    #[test]
    fn minister_is_drawn_as_the_archbishop() {
        let rules = catalog::load_rules("mrc").unwrap();
        let lines = setup_lines(&rules, "FEN");
        assert_eq!(
            lines[0],
            "setup (PNBRQ..M.............Kpnbrq..m.............k) 9x9+0_fairy FEN"
        );
        assert_eq!(lines[1..], ["piece M& BN".to_string()]);
        let chess = catalog::load_rules("chess").unwrap();
        assert_eq!(setup_lines(&chess, "F").len(), 1);
        assert!(setup_lines(&chess, "F")[0].contains(" 8x8+0_fairy F"));
    }

    #[test]
    fn ten_rank_boards_count_ranks_from_zero() {
        let rules = catalog::load_rules("merc").unwrap();
        let fen = "10/1rnbqkbnr1/pppppppppp/10/10/10/10/PPPPPPPPPP/1RNBKQBNR1/10 w - - 0 1";
        let pos = Position::from_fen(&rules, fen).unwrap();
        // XBoard's e2e4 on MERC is our e3e5: the pawns stand on the third rank.
        let m = move_from_xboard(&rules, &pos, "e2e4").unwrap();
        assert_eq!(m.uci(&rules), "e3e5");
        assert_eq!(move_to_xboard(&rules, m), "e2e4");
        let after = pos.play(&rules, m).unwrap();
        let black = move_from_xboard(&rules, &after, "d7d5").unwrap();
        let after = after.play(&rules, black).unwrap();
        let white = move_from_xboard(&rules, &after, "e4e5").unwrap();
        let after = after.play(&rules, white).unwrap();
        let push = move_from_xboard(&rules, &after, "f7f5").unwrap();
        let after = after.play(&rules, push).unwrap();
        let xfen = fen_to_xboard(&rules, &after);
        assert!(xfen.contains(" f6 "), "{xfen}");
        assert_eq!(fen_from_xboard(&rules, &xfen), after.fen_six(&rules));
        assert!(after.fen_six(&rules).contains(" f7 "));
    }

    #[test]
    fn nine_rank_boards_keep_their_numbers() {
        let rules = catalog::load_rules("mrc").unwrap();
        let (_, fen) = choose_start(&rules, &StartChoice::Id(6944), 0).unwrap();
        let pos = Position::from_fen(&rules, &fen).unwrap();
        let m = move_from_xboard(&rules, &pos, "e2e4").unwrap();
        assert_eq!(move_to_xboard(&rules, m), "e2e4");
    }
}
