//! modern-chess: a data-driven rules interpreter for the Modern family of random chess
//! variants (and any other variant a TOML file can describe).
//!
//! Data flows one way: a variant file is read and checked ([`variant`], loaded by
//! [`catalog`]), compiled into move tables ([`Rules`]), start positions are numbered and built
//! from it ([`setup`], [`StartChoice`]), positions are read from FEN ([`parse_fen`] gives a
//! [`Setup`], [`Position::from_setup`] checks it) and moves generated
//! ([`Position::legal_moves`]); a [`Game`] keeps the history and decides the [`Outcome`].
//! [`notation`] and [`pgn`] read and write moves and games, [`engine`] searches, [`protocol`]
//! speaks UCI and XBoard over any `BufRead`/`Write`. The library does no terminal or process
//! I/O; the binary is a thin layer over it.
//!
//! ```
//! use modern_chess::{catalog, Position};
//!
//! let rules = catalog::load_rules("chess").unwrap();
//! let fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
//! let start = Position::from_fen(&rules, fen).unwrap();
//! assert_eq!(start.legal_moves(&rules).len(), 20);
//! assert_eq!(start.perft(&rules, 2), 400);
//! ```
//!
//! # One path per item
//!
//! Every public item has exactly one path:
//! - the core types (board, pieces, positions, moves, rules, games, start positions and their
//!   errors) live in private modules and are re-exported here, at the crate root;
//! - namespaces of free functions and their own types stay public modules and are *not*
//!   re-exported: [`betza`], [`catalog`], [`engine`], [`notation`], [`pgn`], [`protocol`],
//!   [`setup`], [`variant`] (the variant file schema).
//!
//! [`Variant`](variant::Variant) and [`Rules`] keep their fields private: they can only come
//! from the checked paths ([`catalog`], [`variant::Variant::from_text`], [`Rules::compile`]),
//! and are read through accessors.

#![allow(clippy::needless_range_loop)]
#![warn(missing_docs)]

mod ends;
mod fen;
mod game;
mod geometry;
mod hash_size;
mod hop;
mod movegen;
mod piece;
mod position;
mod promotion;
mod refusal;
mod rules;
mod start;

pub mod betza;
pub mod catalog;
pub mod engine;
pub mod notation;
pub mod pgn;
pub mod protocol;
pub mod setup;
pub mod variant;

// The board: squares, square sets and the board's shape.
pub use geometry::{Bitboard, Geometry, Square, MAX_SQUARES};
// Sides and pieces.
pub use piece::{ByColour, Colour, Piece, PieceKind};
// The compiled rules of one variant (what every other item is read against).
pub use rules::{CastleSide, Rules};
// Positions and moves: FEN text -> Setup (unchecked) -> Position (legal), and its moves.
pub use fen::{parse_fen, CastlingRight, CastlingRook, CastlingSide, FenError, Setup, MAX_CLOCK};
pub use movegen::{MoveList, MAX_MOVES};
pub use position::{CastlingProblem, IllegalMove, Move, MoveKind, Position, PositionError};
// Ends a variant rule decides before any move, and games with their outcome.
pub use ends::{EndRule, RuleEnd};
pub use game::{insufficient_material, position_outcome, Game, Outcome, PlayError};
// Why a typed move is refused (carried by `notation::SanError`).
pub use refusal::{Intent, Placed, Refusal};
// Choosing a start position: by id, back rank, FEN, or at random.
pub use start::{Start, StartChoice, StartError};
// Transposition table sizes every front end accepts.
pub use hash_size::{check_hash_mb, clamp_hash_mb, HashSizeError, MAX_HASH_MB};
