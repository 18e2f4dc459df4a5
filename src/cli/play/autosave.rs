//! Where a game in progress lives on disk, and writing it so that no crash can leave half a
//! file: the text goes to a temporary file in the same directory, which is then renamed over
//! the old one (a rename within a directory is atomic).
//!
//! Autosaves are `play-YYYYMMDD-HHMMSS-VARIANT.pgn` in the data directory
//! (`$XDG_DATA_HOME/modern-chess/`, see [`crate::cli::datadir`]); `--resume` without a file
//! takes the newest of them.

use anyhow::{bail, Context, Result};
use std::io::Write;
use std::path::{Path, PathBuf};

/// Writes `text` to `path` through a temporary file and a rename.
///
/// # Errors
/// When the directory is not writable or the disk is full; `path` is then unchanged.
pub fn write_atomic(path: &Path, text: &str) -> std::io::Result<()> {
    let dir = path
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "game.pgn".into());
    let tmp = dir.join(format!(".{name}.{}.tmp", std::process::id()));
    let written = (|| {
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(text.as_bytes())?;
        f.sync_all()?;
        std::fs::rename(&tmp, path)
    })();
    if written.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    written
}

/// A new autosave path in `dir` for a game of `variant` started now (`stamp` is
/// `YYYYMMDD-HHMMSS`); a number is added when the name is taken.
pub fn new_path(dir: &Path, stamp: &str, variant: &str) -> PathBuf {
    let clean: String = variant
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
        .collect();
    let base = format!("play-{stamp}-{clean}");
    let mut path = dir.join(format!("{base}.pgn"));
    let mut n = 2;
    while path.exists() {
        path = dir.join(format!("{base}-{n}.pgn"));
        n += 1;
    }
    path
}

/// The newest autosave in `dir`.
///
/// # Errors
/// When the directory cannot be read or holds no autosave.
pub fn latest(dir: &Path) -> Result<PathBuf> {
    let entries =
        std::fs::read_dir(dir).with_context(|| format!("no saved games in {}", dir.display()))?;
    let mut best: Option<(std::time::SystemTime, PathBuf)> = None;
    for e in entries.flatten() {
        let path = e.path();
        let name = e.file_name().to_string_lossy().into_owned();
        if !(name.starts_with("play-") && name.ends_with(".pgn")) {
            continue;
        }
        let time = e
            .metadata()
            .and_then(|m| m.modified())
            .unwrap_or(std::time::UNIX_EPOCH);
        if best.as_ref().is_none_or(|(t, p)| (time, &path) > (*t, p)) {
            best = Some((time, path));
        }
    }
    match best {
        Some((_, p)) => Ok(p),
        None => bail!("no saved games in {}", dir.display()),
    }
}

/// `save FILE`: refuses to replace a file (`save! FILE` does); the message is for the player.
pub fn save_as(path: &Path, text: &str, overwrite: bool) -> Result<(), String> {
    if !overwrite && path.exists() {
        return Err(format!(
            "{} exists already: not replaced. Use `save! {}` to overwrite it.",
            path.display(),
            path.display()
        ));
    }
    write_atomic(path, text).map_err(|e| format!("Could not save to {}: {e}", path.display()))
}

/// Seconds since 1970 as `YYYYMMDD-HHMMSS` (UTC) and `YYYY.MM.DD` (PGN's date).
pub fn stamps(secs: u64) -> (String, String) {
    let days = (secs / 86_400) as i64;
    let rem = secs % 86_400;
    let (y, m, d) = civil(days);
    (
        format!(
            "{y:04}{m:02}{d:02}-{:02}{:02}{:02}",
            rem / 3600,
            rem / 60 % 60,
            rem % 60
        ),
        format!("{y:04}.{m:02}.{d:02}"),
    )
}

/// Civil date from days since 1970-01-01 (Howard Hinnant's algorithm).
fn civil(days: i64) -> (i64, i64, i64) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    (yoe + era * 400 + i64::from(m <= 2), m, d)
}

/// Now, in seconds since 1970.
pub fn now_secs() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_and_names() {
        assert_eq!(stamps(0), ("19700101-000000".into(), "1970.01.01".into()));
        // 2024-02-29 12:34:56 UTC
        assert_eq!(
            stamps(1_709_210_096),
            ("20240229-123456".into(), "2024.02.29".into())
        );
        let dir = std::env::temp_dir().join(format!("mc-autosave-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let p = new_path(&dir, "20240229-123456", "mrc");
        assert!(p.ends_with("play-20240229-123456-mrc.pgn"));
        write_atomic(&p, "one").unwrap();
        // an older file: file times may be too coarse to order two quick writes
        std::fs::File::options()
            .write(true)
            .open(&p)
            .unwrap()
            .set_modified(std::time::UNIX_EPOCH + std::time::Duration::from_secs(1000))
            .unwrap();
        let q = new_path(&dir, "20240229-123456", "mrc");
        assert!(q.ends_with("play-20240229-123456-mrc-2.pgn"));
        write_atomic(&q, "two").unwrap();
        assert_eq!(latest(&dir).unwrap().file_name(), q.file_name());
        assert!(save_as(&p, "x", false).unwrap_err().contains("save! "));
        assert_eq!(std::fs::read_to_string(&p).unwrap(), "one");
        save_as(&p, "three", true).unwrap();
        assert_eq!(std::fs::read_to_string(&p).unwrap(), "three");
        // no temporary files left behind
        let names: Vec<String> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        assert!(names.iter().all(|n| !n.ends_with(".tmp")), "{names:?}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
