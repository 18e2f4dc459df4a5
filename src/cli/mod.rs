//! The subcommands of the binary, one file each.

pub mod bench;
pub mod common;
pub mod datadir;
pub mod engines;
pub mod hash;
pub mod imitate;
pub mod label;
pub mod matchplay;
pub mod movenote;
pub mod pipe;
pub mod play;
pub mod replay;
pub mod serve;
pub mod siblings;
pub mod strength;
pub mod tree_positions;
pub mod tune;
pub mod uci_client;
pub mod worker;
