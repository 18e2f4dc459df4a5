//! The server's shared state: the variants, the games (each behind its own lock), the disk
//! store and the event streams of each game.

use super::room::{Room, SavedGame};
use super::store::Store;
use super::variants::Catalog;
use std::collections::hash_map::RandomState;
use std::collections::HashMap;
use std::hash::{BuildHasher, Hasher};
use std::sync::mpsc::Sender;
use std::sync::{Arc, Mutex, MutexGuard};

/// One event for the pages watching a game: its name (`state`, `thinking`) and JSON data.
pub type Event = (String, String);

/// A game's lock.
pub type RoomRef = Arc<Mutex<Room>>;

pub struct Server {
    pub catalog: Catalog,
    pub store: Option<Store>,
    /// Search threads of each engine move (`--threads`).
    pub threads: usize,
    rooms: Mutex<HashMap<String, RoomRef>>,
    watchers: Mutex<HashMap<String, Vec<Sender<Event>>>>,
}

/// Locks a mutex even if a thread panicked while holding it (the data is still consistent:
/// every change to a room is made in one step after all checks).
pub fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

impl Server {
    pub fn new(catalog: Catalog, store: Option<Store>, threads: usize) -> Server {
        Server {
            catalog,
            store,
            threads,
            rooms: Mutex::new(HashMap::new()),
            watchers: Mutex::new(HashMap::new()),
        }
    }

    /// Brings back the stored games; returns how many came back and warnings for the rest.
    pub fn restore(&self) -> (usize, Vec<String>) {
        let Some(store) = &self.store else {
            return (0, Vec::new());
        };
        let (saved, mut warnings) = store.load_all();
        let mut n = 0;
        for g in saved {
            let Some(entry) = self.catalog.get(&g.variant) else {
                warnings.push(format!("game {}: unknown variant `{}`", g.id, g.variant));
                continue;
            };
            match Room::restore(&g, entry) {
                Ok(room) => {
                    self.insert(room);
                    n += 1;
                }
                Err(e) => warnings.push(format!("game {}: {e}", g.id)),
            }
        }
        (n, warnings)
    }

    /// A fresh game id: 12 hex digits from the standard library's random hash keys.
    pub fn new_id(&self) -> String {
        loop {
            let mut h = RandomState::new().build_hasher();
            h.write_u128(
                std::time::SystemTime::now()
                    .duration_since(std::time::UNIX_EPOCH)
                    .map(|d| d.as_nanos())
                    .unwrap_or(0),
            );
            let id = format!("{:012x}", h.finish() & 0xffff_ffff_ffff);
            if !lock(&self.rooms).contains_key(&id) {
                return id;
            }
        }
    }

    pub fn insert(&self, room: Room) -> RoomRef {
        let id = room.id.clone();
        let r = Arc::new(Mutex::new(room));
        lock(&self.rooms).insert(id, Arc::clone(&r));
        r
    }

    pub fn room(&self, id: &str) -> Option<RoomRef> {
        lock(&self.rooms).get(id).cloned()
    }

    /// Short descriptions of every game, newest first.
    pub fn list(&self) -> Vec<serde_json::Value> {
        let rooms: Vec<RoomRef> = lock(&self.rooms).values().cloned().collect();
        let mut list: Vec<(u64, serde_json::Value)> = rooms
            .iter()
            .map(|r| {
                let r = lock(r);
                let outcome = r.game.outcome(&r.rules);
                (
                    r.created,
                    serde_json::json!({
                        "id": r.id,
                        "variant": r.variant,
                        "moves": r.game.moves().len(),
                        "result": outcome.map(|o| o.result()),
                        "created": r.created,
                    }),
                )
            })
            .collect();
        list.sort_by_key(|e| std::cmp::Reverse(e.0));
        list.into_iter().map(|(_, v)| v).collect()
    }

    /// Writes a game to disk. A failure is reported on standard error and the game goes on
    /// in memory.
    pub fn persist(&self, saved: &SavedGame) {
        if let Some(store) = &self.store {
            if let Err(e) = store.save(saved) {
                eprintln!(
                    "warning: could not store game {} in {}: {e}",
                    saved.id,
                    store.dir.display()
                );
            }
        }
    }

    /// Registers a page watching a game.
    pub fn watch(&self, id: &str, tx: Sender<Event>) {
        lock(&self.watchers)
            .entry(id.to_string())
            .or_default()
            .push(tx);
    }

    /// Sends an event to every page watching a game (and forgets closed ones).
    pub fn broadcast(&self, id: &str, event: &str, data: &serde_json::Value) {
        let text = data.to_string();
        if let Some(list) = lock(&self.watchers).get_mut(id) {
            list.retain(|tx| tx.send((event.to_string(), text.clone())).is_ok());
        }
    }

    /// After a change: store the game and tell the watchers.
    pub fn changed(&self, room: &Room) {
        self.persist(&room.to_saved());
        self.broadcast(&room.id, "state", &room.view());
    }
}
