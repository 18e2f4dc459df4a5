//! The subcommands of the binary, one file each.

pub mod bench;
pub mod common;
pub mod engines;
pub mod play;
pub mod replay;
