//! Engine moves: a search on its own thread per game, its progress sent to the watching pages,
//! its move played only if the game did not change meanwhile (a take-back or a resignation
//! raises the stop flag and bumps the game's version).

use super::room::{Room, MAX_LEVEL};
use super::server::{lock, RoomRef, Server};
use modern_chess::engine::{Engine, Level, Limits, SearchInfo};
use modern_chess::notation;
use modern_chess::Colour;
use modern_chess::Position;
use modern_chess::Rules;
use serde_json::{json, Value};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// Transposition table size of each search, in megabytes (several games may think at once).
const HASH_MB: usize = 16;

/// The thinking report the page shows: depth, score from White's side, principal variation
/// in SAN.
pub fn thinking_json(rules: &Rules, root: &Position, info: &SearchInfo) -> Value {
    let sign = if root.side_to_move() == Colour::White {
        1
    } else {
        -1
    };
    let mut pos = root.clone();
    let mut pv = Vec::new();
    for &m in &info.pv {
        if !pos.legal_moves(rules).contains(&m) {
            break;
        }
        pv.push(notation::to_san(rules, &pos, m));
        pos = pos.play_unchecked(rules, m);
    }
    json!({
        "depth": info.depth,
        "score_cp": info.score_cp * sign,
        "mate": info.mate.map(|m| m * sign),
        "nodes": info.nodes,
        "time_ms": info.time_ms,
        "pv": pv,
    })
}

/// The engine level (1-8, [`Level`]) behind serve's level 1..=`MAX_LEVEL` (1-10, what the
/// API has always accepted): spread evenly, so 1-4 are engine levels 1-4, then 5 and 6 are
/// 4 and 5, 7 is 6, 8 is 7 and 9 and 10 are full strength (engine level 8). The time per move
/// is the game's own setting at every level.
pub fn engine_level(serve_level: u8) -> Level {
    let n = serve_level.clamp(1, MAX_LEVEL) as u32;
    let engine = (n * Level::MAX).div_ceil(MAX_LEVEL as u32);
    Level::new(engine.clamp(Level::MIN, Level::MAX)).unwrap_or_default()
}

/// Stops a running search of this game (its move will not be played).
pub fn stop(room: &mut Room) {
    if let Some(flag) = room.search.take() {
        flag.store(true, Ordering::Relaxed);
    }
    room.thinking = None;
}

/// Starts a search for the side to move if the engine plays it (or `force`), the game is not
/// over and no search runs yet. Returns whether a search is running now.
pub fn start(server: &Arc<Server>, room_ref: &RoomRef, room: &mut Room, force: bool) -> bool {
    if room.search.is_some() {
        return true;
    }
    if room.is_over() || !(force || room.engine_to_move()) {
        return false;
    }
    let flag = Arc::new(AtomicBool::new(false));
    room.search = Some(Arc::clone(&flag));
    let player = room.players[room.side_to_move()];
    let level = if player.is_engine() {
        engine_level(player.level)
    } else {
        Level::DEFAULT
    };
    let limits = Limits::movetime(room.movetime_ms);
    let job = Job {
        server: Arc::clone(server),
        room_ref: Arc::clone(room_ref),
        rules: Arc::clone(&room.rules),
        history: room.game.positions().to_vec(),
        version: room.version,
        id: room.id.clone(),
        flag,
        limits,
        level,
    };
    std::thread::spawn(move || job.run());
    true
}

/// One search, with everything it needs copied out of the room.
struct Job {
    server: Arc<Server>,
    room_ref: RoomRef,
    rules: Arc<Rules>,
    history: Vec<Position>,
    version: u64,
    id: String,
    flag: Arc<AtomicBool>,
    limits: Limits,
    level: Level,
}

impl Job {
    fn run(self) {
        let mut engine = Engine::new(Arc::clone(&self.rules), HASH_MB);
        engine.set_threads(self.server.threads);
        engine.set_skill(self.level.skill());
        let root = self.history.last().cloned();
        let mut report = |info: &SearchInfo| {
            if let Some(root) = &root {
                let v = thinking_json(&self.rules, root, info);
                self.server.broadcast(&self.id, "thinking", &v);
                let mut room = lock(&self.room_ref);
                if room.version == self.version && room.search.is_some() {
                    room.thinking = Some(v);
                }
            }
        };
        let best = engine.search(&self.history, &self.limits, &self.flag, &mut report);
        let mut room = lock(&self.room_ref);
        let ours = room
            .search
            .as_ref()
            .is_some_and(|f| Arc::ptr_eq(f, &self.flag));
        if !ours || self.flag.load(Ordering::Relaxed) || room.version != self.version {
            return; // the game changed while we thought; whoever changed it took over
        }
        room.search = None;
        room.thinking = None;
        if let Some(m) = best {
            if let Err(e) = room.play(m) {
                eprintln!("warning: engine move refused in game {}: {e}", self.id);
            }
        }
        self.server.changed(&room);
        start(&self.server, &self.room_ref, &mut room, false);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn serve_levels_spread_over_the_engine_levels() {
        let got: Vec<u32> = (1..=MAX_LEVEL).map(|l| engine_level(l).get()).collect();
        assert_eq!(got, [1, 2, 3, 4, 4, 5, 6, 7, 8, 8]);
        assert_eq!(engine_level(MAX_LEVEL), Level::DEFAULT);
        assert!(engine_level(MAX_LEVEL).skill().is_full());
        assert_eq!(engine_level(0).get(), 1);
    }
}
