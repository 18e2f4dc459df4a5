//! A temporary directory that is removed when the test is done with it, passed or failed, so
//! the suite leaves nothing behind in the temp dir however often it runs.

use std::ops::Deref;
use std::path::{Path, PathBuf};

/// A directory that exists while this value lives: dropping it removes the directory and all
/// in it. Bind it to a named variable (not `_`) for as long as the test uses the directory.
pub struct TempDir {
    path: PathBuf,
}

impl TempDir {
    /// Creates `path` afresh (anything left there by an earlier run is removed first).
    pub fn new(path: PathBuf) -> TempDir {
        let _ = std::fs::remove_dir_all(&path);
        std::fs::create_dir_all(&path)
            .unwrap_or_else(|e| panic!("cannot create {}: {e}", path.display()));
        TempDir { path }
    }

    pub fn path(&self) -> &Path {
        &self.path
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        // Errors are ignored: a failed removal must not turn into a second panic during an
        // unwinding test, and a leftover directory is harmless.
        let _ = std::fs::remove_dir_all(&self.path);
    }
}

impl Deref for TempDir {
    type Target = Path;

    fn deref(&self) -> &Path {
        &self.path
    }
}

impl AsRef<Path> for TempDir {
    fn as_ref(&self) -> &Path {
        &self.path
    }
}

impl AsRef<std::ffi::OsStr> for TempDir {
    fn as_ref(&self) -> &std::ffi::OsStr {
        self.path.as_os_str()
    }
}
