//! modern-chess: a data-driven rules interpreter for the Modern family of random chess
//! variants (and any other variant a TOML file can describe).
//!
//! Data flows one way: a variant file is read and checked ([`variant`]), compiled into move
//! tables ([`rules`]), positions are built from it ([`setup`], [`position`]) and moves generated
//! ([`movegen`]). The library does no terminal I/O; the binary is a thin layer over it.

#![allow(clippy::needless_range_loop)]

pub mod betza;
pub mod catalog;
mod ends;
pub mod engine;
pub mod fen;
pub mod game;
pub mod geometry;
pub mod hash_size;
mod hop;
pub mod movegen;
pub mod notation;
pub mod pgn;
pub mod piece;
pub mod position;
mod promotion;
pub mod protocol;
pub mod refusal;
pub mod rules;
pub mod setup;
pub mod start;
pub mod variant;

pub use ends::{EndRule, RuleEnd};
pub use fen::{parse_fen, FenError, Setup};
pub use geometry::{Bitboard, Geometry, Square};
pub use movegen::MoveList;
pub use piece::{ByColour, Colour, Piece, PieceKind};
pub use position::{Move, MoveKind, Position, PositionError};
pub use rules::Rules;
pub use start::{Start, StartChoice, StartError};
pub use variant::{Variant, VariantError};
