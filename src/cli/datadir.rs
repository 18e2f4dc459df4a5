//! Where modern-chess keeps the user's files (autosaved games of `play`, games of `serve`):
//! `$XDG_DATA_HOME/modern-chess/`, or `~/.local/share/modern-chess/` when that variable is
//! unset or empty, as the XDG base directory specification says.

use anyhow::{bail, Context, Result};
use std::path::PathBuf;

/// The data directory's path (not created). Reads `XDG_DATA_HOME` and `HOME`.
#[allow(dead_code)] // used by play's autosave and by serve
///
/// # Errors
/// When neither variable gives an absolute path (the spec says relative values are ignored).
pub fn data_dir() -> Result<PathBuf> {
    data_dir_from(std::env::var_os("XDG_DATA_HOME"), std::env::var_os("HOME"))
}

/// The data directory, created if missing.
#[allow(dead_code)] // used by play's autosave and by serve
///
/// # Errors
/// When the path cannot be found or the directory cannot be created.
pub fn ensure_data_dir() -> Result<PathBuf> {
    let dir = data_dir()?;
    std::fs::create_dir_all(&dir)
        .with_context(|| format!("cannot create the data directory {}", dir.display()))?;
    Ok(dir)
}

fn data_dir_from(
    xdg: Option<std::ffi::OsString>,
    home: Option<std::ffi::OsString>,
) -> Result<PathBuf> {
    if let Some(x) = xdg.map(PathBuf::from).filter(|p| p.is_absolute()) {
        return Ok(x.join("modern-chess"));
    }
    match home.map(PathBuf::from).filter(|p| p.is_absolute()) {
        Some(h) => Ok(h.join(".local/share/modern-chess")),
        None => bail!("no data directory: set XDG_DATA_HOME or HOME to an absolute path"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn xdg_first_then_home_and_relative_values_ignored() {
        let d = data_dir_from(Some("/x/data".into()), Some("/home/u".into())).unwrap();
        assert_eq!(d, PathBuf::from("/x/data/modern-chess"));
        let d = data_dir_from(Some("".into()), Some("/home/u".into())).unwrap();
        assert_eq!(d, PathBuf::from("/home/u/.local/share/modern-chess"));
        let d = data_dir_from(Some("rel".into()), Some("/home/u".into())).unwrap();
        assert_eq!(d, PathBuf::from("/home/u/.local/share/modern-chess"));
        assert!(data_dir_from(None, None).is_err());
    }
}
