//! The `--hash MB` flag of `play`, `uci`, `xboard` and `match`: checked against the library's
//! limit and the memory this machine has free, so a size that cannot be allocated is an
//! error message instead of an abort.

use anyhow::{anyhow, Result};
use modern_chess::{check_hash_mb, clamp_hash_mb};

/// Free memory in megabytes from `/proc/meminfo` (`MemAvailable`), when the system says.
pub fn available_memory_mb() -> Option<usize> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = text.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kb: usize = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb / 1024)
}

/// The `--hash` value to use, or an error naming the flag and the limit.
pub fn checked_hash_mb(asked: usize) -> Result<usize> {
    check_hash_mb(asked, available_memory_mb()).map_err(|e| anyhow!("--hash: {e}"))
}

/// For protocol options (`setoption name Hash`): the nearest size that fits.
#[allow(dead_code)] // for the protocol front ends (uci, xboard), which clamp rather than refuse
pub fn clamped_hash_mb(asked: usize) -> usize {
    clamp_hash_mb(asked, available_memory_mb())
}
