//! Games on disk, so a reload or a server restart loses nothing: one JSON file per game in
//! `$XDG_DATA_HOME/modern-chess/web/` (by default `~/.local/share/modern-chess/web/`), written
//! to a temporary file and renamed, so a crash never leaves half a game. The data folder is
//! the one `play`'s autosave uses ([`crate::cli::datadir::data_dir`]).

use super::room::SavedGame;
use std::path::{Path, PathBuf};

/// The folder of stored web games.
pub struct Store {
    pub dir: PathBuf,
}

/// A game id is short lower-case hex; anything else is refused before it reaches a path.
pub fn valid_id(id: &str) -> bool {
    !id.is_empty()
        && id.len() <= 32
        && id
            .bytes()
            .all(|b| b.is_ascii_hexdigit() && !b.is_ascii_uppercase())
}

impl Store {
    pub fn new(dir: PathBuf) -> Store {
        Store { dir }
    }

    fn path(&self, id: &str) -> PathBuf {
        self.dir.join(format!("{id}.json"))
    }

    /// Writes a game.
    ///
    /// # Errors
    /// When the folder cannot be made or the file cannot be written.
    pub fn save(&self, game: &SavedGame) -> std::io::Result<()> {
        std::fs::create_dir_all(&self.dir)?;
        let text = serde_json::to_string_pretty(game)?;
        let tmp = self.dir.join(format!(".{}.json.tmp", game.id));
        std::fs::write(&tmp, text)?;
        std::fs::rename(&tmp, self.path(&game.id))
    }

    /// Every stored game that reads; the others are named in the warnings (and left on disk).
    pub fn load_all(&self) -> (Vec<SavedGame>, Vec<String>) {
        let mut games = Vec::new();
        let mut warnings = Vec::new();
        let Ok(entries) = std::fs::read_dir(&self.dir) else {
            return (games, warnings);
        };
        let mut paths: Vec<PathBuf> = entries
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| is_game_file(p))
            .collect();
        paths.sort();
        for p in paths {
            let read = std::fs::read_to_string(&p).map_err(|e| e.to_string());
            match read
                .and_then(|t| serde_json::from_str::<SavedGame>(&t).map_err(|e| e.to_string()))
            {
                Ok(g) if valid_id(&g.id) => games.push(g),
                Ok(g) => warnings.push(format!("{}: bad game id `{}`", p.display(), g.id)),
                Err(e) => warnings.push(format!("{}: {e}", p.display())),
            }
        }
        (games, warnings)
    }
}

fn is_game_file(p: &Path) -> bool {
    p.extension().is_some_and(|x| x == "json")
        && p.file_name()
            .is_some_and(|n| !n.to_string_lossy().starts_with('.'))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_checked_before_they_become_paths() {
        assert!(valid_id("0a1b2c3d4e"));
        assert!(!valid_id(""));
        assert!(!valid_id("../x"));
        assert!(!valid_id("ABC"));
        assert!(!valid_id(&"a".repeat(33)));
    }
}
