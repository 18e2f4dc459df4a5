//! How big a transposition table may be: one rule for every front end (`play`, `uci`,
//! `xboard`, `match`), so a flag and a protocol option accept the same sizes.
//!
//! A table that cannot be allocated must be refused before the allocation is tried: Rust
//! aborts the whole process on a failed allocation (`memory allocation of N bytes failed`,
//! exit 134), which would end a game with nothing saved.

use std::fmt;

/// The largest table accepted, in megabytes (the UCI `Hash` option's max).
pub const MAX_HASH_MB: usize = 4096;

/// Why a hash size was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HashSizeError {
    /// Zero megabytes: the engine needs a table.
    Zero,
    /// More than [`MAX_HASH_MB`].
    TooLarge {
        /// The size asked for, in MB.
        asked: usize,
        /// The largest accepted, in MB.
        max: usize,
    },
    /// More than the machine has free (as the caller measured it).
    NotAvailable {
        /// The size asked for, in MB.
        asked: usize,
        /// The free memory measured, in MB.
        available: usize,
    },
}

impl fmt::Display for HashSizeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            HashSizeError::Zero => write!(f, "hash size 0 MB: give at least 1"),
            HashSizeError::TooLarge { asked, max } => {
                write!(f, "hash size {asked} MB is too large (at most {max} MB)")
            }
            HashSizeError::NotAvailable { asked, available } => write!(
                f,
                "hash size {asked} MB is more than this machine has free ({available} MB available)"
            ),
        }
    }
}

impl std::error::Error for HashSizeError {}

/// Checks a requested hash size; `available_mb` is the free memory when the caller knows it
/// (the library reads no system files).
///
/// # Errors
/// When the size is zero, above [`MAX_HASH_MB`], or above `available_mb`.
pub fn check_hash_mb(asked: usize, available_mb: Option<usize>) -> Result<usize, HashSizeError> {
    if asked == 0 {
        return Err(HashSizeError::Zero);
    }
    if asked > MAX_HASH_MB {
        return Err(HashSizeError::TooLarge {
            asked,
            max: MAX_HASH_MB,
        });
    }
    match available_mb {
        Some(available) if asked > available => {
            Err(HashSizeError::NotAvailable { asked, available })
        }
        _ => Ok(asked),
    }
}

/// The largest size that [`check_hash_mb`] accepts, for a caller that clamps instead of
/// refusing (a GUI's `setoption` should not end the engine).
pub fn clamp_hash_mb(asked: usize, available_mb: Option<usize>) -> usize {
    let max = available_mb.map_or(MAX_HASH_MB, |a| a.min(MAX_HASH_MB));
    asked.clamp(1, max.max(1))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_in_range_pass_and_others_say_why() {
        assert_eq!(check_hash_mb(16, None), Ok(16));
        assert_eq!(check_hash_mb(4096, Some(8000)), Ok(4096));
        assert_eq!(check_hash_mb(0, None), Err(HashSizeError::Zero));
        assert_eq!(
            check_hash_mb(100_000, None),
            Err(HashSizeError::TooLarge {
                asked: 100_000,
                max: 4096
            })
        );
        let e = check_hash_mb(2000, Some(1000)).unwrap_err();
        assert!(e.to_string().contains("1000 MB available"), "{e}");
    }

    #[test]
    fn clamping_stays_within_memory_and_the_maximum() {
        assert_eq!(clamp_hash_mb(100_000, None), 4096);
        assert_eq!(clamp_hash_mb(100_000, Some(500)), 500);
        assert_eq!(clamp_hash_mb(0, None), 1);
        assert_eq!(clamp_hash_mb(64, Some(0)), 1);
    }
}
