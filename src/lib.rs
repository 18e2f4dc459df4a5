//! modern-chess: a data-driven rules interpreter for the Modern family of random chess
//! variants (and any other variant a TOML file can describe).
//!
//! Data flows one way: a variant file is read and checked ([`variant`]), compiled into move
//! tables ([`rules`]), positions are built from it ([`setup`], [`position`]) and moves generated
//! ([`movegen`]). The library does no terminal I/O; the binary is a thin layer over it.

#![allow(clippy::needless_range_loop)]

pub mod betza;
pub mod catalog;
pub mod engine;
pub mod game;
pub mod geometry;
pub mod hash_size;
pub mod movegen;
pub mod notation;
pub mod pgn;
pub mod position;
pub mod protocol;
pub mod rules;
pub mod setup;
pub mod variant;

pub use geometry::{Bitboard, Geometry, Square};
pub use movegen::MoveList;
pub use position::{FenError, Move, MoveKind, Position};
pub use rules::Rules;
pub use variant::{Variant, VariantError};
