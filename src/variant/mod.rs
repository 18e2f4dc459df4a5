//! Variant files: the TOML schema, `extends` merging and the checks of meaning.
//!
//! ```text
//! text --serde--> schema::RawVariant (every value with its span) --extends--> merged
//!      --check (one function per section, every problem at once)--> Variant
//! ```
//! Serde reads each file strictly (unknown keys and wrong types stop it, reported with the key
//! path, line and column); files named by `extends` are merged key by key, the child winning
//! (`load.rs`); then `check.rs` tests meaning (letters, Betza, files on the board, a royal piece,
//! an army that fits and can be placed and numbered) and reports every problem at once. This
//! module reads no files: callers pass text and a [`Resolver`] for `extends` (the catalog has
//! the built-in and on-disk ones).

mod check;
mod error;
mod load;
pub(crate) mod numbering;
mod schema;

pub use error::{FieldError, VariantError};
pub use load::{NoResolver, Resolver};

use crate::betza::MoveAtom;
use serde::Deserialize;
use std::collections::BTreeMap;

/// Piece kinds a variant may define (a position keeps one bitboard for each).
pub const MAX_PIECE_TYPES: usize = 16;

/// A piece kind as the variant defines it.
#[derive(Debug, Clone, PartialEq)]
pub struct PieceDef {
    /// Upper-case letter (White); Black's is the lower case.
    pub letter: char,
    /// Its name for people.
    pub name: String,
    /// Its moves as written.
    pub betza: String,
    /// Its moves, one atom per direction.
    pub atoms: Vec<MoveAtom>,
    /// The king: may not be left attacked.
    pub royal: bool,
    /// The pawn: promotes, double-steps, resets the move-count rule.
    pub pawn: bool,
    /// Value in centipawns for the engine.
    pub value: i32,
    /// A symbol for displays.
    pub figurine: Option<String>,
}

/// How Black's start position follows from White's.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Symmetry {
    /// Black's piece on a square is White's on the square turned 180 degrees.
    Reverse,
    /// Same file, rank mirrored.
    Mirror,
    /// Each side placed independently.
    None,
}

/// The placement rule for the two bishops.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum BishopRule {
    /// Anywhere.
    Any,
    /// On squares of different colours.
    Opposite,
}

/// How a stage that places two equal pieces numbers its pairs of squares.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Default)]
#[serde(rename_all = "kebab-case")]
pub enum PairOrder {
    /// The k-subsets in lexicographic order (Scharnagl's knight table for k = 2).
    #[default]
    Lexicographic,
    /// Pairs with the widest gap first, equal gaps by the left square (MRC's page).
    WidestGapFirst,
}

/// One stage of the start-position numbering: a digit of the mixed-radix id.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NumberingStage {
    /// All pieces of one kind (`count` of them) on the squares still free.
    Piece {
        /// The piece kind.
        piece: usize,
        /// How many of it the army has.
        count: usize,
    },
    /// One piece of a kind on the free squares of one colour (`B:light`, `B:dark`).
    Coloured {
        /// The piece kind.
        piece: usize,
        /// Dark squares (file + rank even) or light ones.
        dark: bool,
    },
}

/// The start-position numbering: the order of the placement stages and how pairs count.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Numbering {
    /// The stages, first the least significant digit; `None` for the generic order
    /// (documented in `numbering.rs`, re-exported by [`crate::setup`]). The royal piece and the castling rooks are never a stage:
    /// they fill the squares left.
    pub stages: Option<Vec<NumberingStage>>,
    /// How pairs (and larger groups) of equal pieces are numbered.
    pub pairs: PairOrder,
}

/// A piece of a fixed start placement (`setup.fen`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PlacedPiece {
    /// File from 0.
    pub file: u8,
    /// Rank from 0.
    pub rank: u8,
    /// Piece kind.
    pub piece: usize,
    /// White's (else Black's).
    pub white: bool,
}

/// How start positions are built.
#[derive(Debug, Clone, PartialEq)]
pub struct SetupDef {
    /// White's piece rank, from 0 (castling rank, initial moves, the shuffled rank).
    pub rank: u8,
    /// First and last file (inclusive) of the army.
    pub files: (u8, u8),
    /// Piece indices, in the written order (the start position itself when not random).
    pub army: Vec<usize>,
    /// Every arrangement of the army allowed by the rules is a start position.
    pub random: bool,
    /// How Black's pieces follow from White's.
    pub symmetry: Symmetry,
    /// The bishop placement rule.
    pub bishops: BishopRule,
    /// Placement constraint: the royal piece between the two castling rooks.
    pub king_between_rooks: bool,
    /// The pawn piece and White's rank for it (its initial rank).
    pub pawn: Option<(usize, u8)>,
    /// A fixed placement (`setup.fen`) of every piece not in the shuffled army, pawns
    /// included; empty when the start is the army and a pawn rank.
    pub placement: Vec<PlacedPiece>,
    /// How start positions are numbered.
    pub numbering: Numbering,
}

/// One side of castling: where king and rook go, and how records write it.
#[derive(Debug, Clone, PartialEq)]
pub struct CastleSideDef {
    /// The king's destination file.
    pub king_file: u8,
    /// The rook's destination file.
    pub rook_file: u8,
    /// How game records write it (`O-O-Oc`).
    pub notation: String,
}

/// Castling, Fischer-Random style.
#[derive(Debug, Clone, PartialEq)]
pub struct CastlingDef {
    /// The castling piece.
    pub rook: usize,
    /// Castling rights exist only in start positions with the king between the rooks.
    pub king_between_rooks: bool,
    /// Index 0: the a-side (rooks on lower files than the king); 1: the other side.
    pub sides: [CastleSideDef; 2],
}

/// Promotion of the pawn.
#[derive(Debug, Clone, PartialEq)]
pub struct PromotionDef {
    /// White's promotion zone, first and last rank from 0 (Black's mirrored). Promotion is
    /// optional before the last rank of the zone and compulsory on it.
    pub zone: (u8, u8),
    /// The piece kinds a pawn may promote to.
    pub to: Vec<usize>,
    /// Only to kinds of which the side has fewer on the board than at the start (Grand Chess);
    /// a pawn may not enter the last rank when no kind is available.
    pub only_captured: bool,
}

/// The Bishop Adjustment rule.
#[derive(Debug, Clone, PartialEq)]
pub struct AdjustmentDef {
    /// The adjusting piece.
    pub piece: usize,
    /// The kinds it may swap with.
    pub partners: Vec<usize>,
    /// The right exists only when both such pieces start on squares of one colour.
    pub same_colour_only: bool,
}

/// What a bare king (only the royal piece left) means.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum BareKing {
    /// Nothing special.
    #[default]
    Plays,
    /// The bared side loses, unless it bares the other king back on its next move
    /// (Fairy-Stockfish's rule: the game ends when the side not to move has only its king).
    Loses,
}

/// The result of a stalemate for the side that cannot move.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum StalemateResult {
    /// A draw (orthodox chess).
    #[default]
    Draw,
    /// The stalemated side loses (Shatranj, Courier).
    Loses,
    /// The stalemated side wins.
    Wins,
}

/// Draws and the game ends other than checkmate.
#[derive(Debug, Clone, PartialEq)]
pub struct DrawRules {
    /// Plies without capture or pawn move that draw (0: off).
    pub fifty_move_plies: u32,
    /// Occurrences of one position that draw (0: off).
    pub repetitions: u32,
    /// Pieces that cannot mate with the king alone (insufficient material).
    pub lone_minors: Vec<usize>,
    /// The bare king rule.
    pub bare_king: BareKing,
    /// The result of a stalemate.
    pub stalemate: StalemateResult,
    /// n-check: the side that gives its n-th check wins (0: off; only 0 is accepted yet).
    pub checks: u32,
    /// Campmate: a side whose royal piece reaches one of these squares (file, rank) wins;
    /// index 0 White's region, 1 Black's.
    pub campmate: [Vec<(u8, u8)>; 2],
    /// Extinction: a side that has lost every piece of one of these kinds loses.
    pub extinction: Vec<usize>,
}

/// How the built-in engine plays this variant (`[engine]`).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct EngineDef {
    /// Evaluation weights file, relative to the variant file (`weights = "mrc.weights.toml"`).
    /// None, or a file that does not exist, means the weights derived from the rules.
    pub weights: Option<String>,
}

/// How Fairy-Stockfish knows the variant.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct FairyDef {
    /// Its `UCI_Variant` name.
    pub variant: Option<String>,
    /// A variant a generated definition is based on.
    pub template: Option<String>,
    /// This file's letters mapped to Fairy-Stockfish piece names.
    pub pieces: BTreeMap<char, String>,
}

/// A variant that has passed every check; everything the interpreter needs.
///
/// It is made only by [`Variant::from_text`] (or the catalog, which calls it), so its fields
/// are private and read through accessors:
/// ```
/// use modern_chess::catalog;
/// use modern_chess::variant::{NoResolver, Variant, VariantError};
///
/// let chess = catalog::load("chess").unwrap();
/// assert_eq!((chess.files(), chess.ranks()), (8, 8));
/// assert!(chess.castling().is_some());
/// assert_eq!(chess.pieces()[chess.royal()].letter, 'K');
///
/// let bad = Variant::from_text("bad.toml", "name = 1", &NoResolver);
/// assert!(matches!(bad, Err(VariantError::Invalid(_))));
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct Variant {
    /// The full name.
    pub(crate) name: String,
    /// The short name for messages and records.
    pub(crate) short: String,
    /// One line for people.
    pub(crate) description: String,
    /// Board width.
    pub(crate) files: u8,
    /// Board height.
    pub(crate) ranks: u8,
    /// The piece kinds, in file order (letters sorted).
    pub(crate) pieces: Vec<PieceDef>,
    /// Start positions.
    pub(crate) setup: SetupDef,
    /// Castling, if any.
    pub(crate) castling: Option<CastlingDef>,
    /// Promotion, if the variant has a pawn.
    pub(crate) promotion: Option<PromotionDef>,
    /// Bishop Adjustment, if any.
    pub(crate) adjustment: Option<AdjustmentDef>,
    /// Draws and special game ends.
    pub(crate) rules: DrawRules,
    /// The Fairy-Stockfish names.
    pub(crate) fairy: FairyDef,
    /// How the built-in engine plays it.
    pub(crate) engine: EngineDef,
    /// Where it came from (file name), for messages.
    pub(crate) origin: String,
}

impl Variant {
    /// The full name, as the file's `name` gives it.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The short name used in messages, records and the `--variant` option.
    pub fn short(&self) -> &str {
        &self.short
    }

    /// One line describing the variant for people.
    pub fn description(&self) -> &str {
        &self.description
    }

    /// Board width (files `a`, `b`, ...).
    pub fn files(&self) -> u8 {
        self.files
    }

    /// Board height.
    pub fn ranks(&self) -> u8 {
        self.ranks
    }

    /// The piece kinds, in file order (letters sorted); a kind's index is its number.
    pub fn pieces(&self) -> &[PieceDef] {
        &self.pieces
    }

    /// How start positions are built and numbered.
    pub fn setup(&self) -> &SetupDef {
        &self.setup
    }

    /// Castling, if the variant castles.
    pub fn castling(&self) -> Option<&CastlingDef> {
        self.castling.as_ref()
    }

    /// Promotion, if the variant has a pawn.
    pub fn promotion(&self) -> Option<&PromotionDef> {
        self.promotion.as_ref()
    }

    /// Bishop Adjustment, if the variant has it.
    pub fn adjustment(&self) -> Option<&AdjustmentDef> {
        self.adjustment.as_ref()
    }

    /// Draw rules and the special game ends (bare king, stalemate, campmate, extinction).
    pub fn rules(&self) -> &DrawRules {
        &self.rules
    }

    /// The names Fairy-Stockfish knows the variant and its pieces by.
    pub fn fairy(&self) -> &FairyDef {
        &self.fairy
    }

    /// How the built-in engine plays it (its weights file).
    pub fn engine(&self) -> &EngineDef {
        &self.engine
    }

    /// The file it was read from, for messages.
    pub fn origin(&self) -> &str {
        &self.origin
    }

    /// The kind with this letter (either case).
    pub fn piece_index(&self, letter: char) -> Option<usize> {
        let up = letter.to_ascii_uppercase();
        self.pieces.iter().position(|p| p.letter == up)
    }

    /// The royal kind.
    pub fn royal(&self) -> usize {
        self.pieces.iter().position(|p| p.royal).unwrap_or(0)
    }

    /// Reads and checks a variant from text; `extends` goes through `resolver`.
    ///
    /// # Errors
    /// When the text (or a file it extends) is not valid TOML for the schema, or fails the
    /// checks: every problem with its file, line, column and key.
    pub fn from_text(
        name: &str,
        text: &str,
        resolver: &dyn Resolver,
    ) -> Result<Variant, VariantError> {
        let (raw, sources) = load::load_raw(name, text, resolver)?;
        check::check(&raw, &sources)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MINI: &str = r#"
name = "Mini"
[board]
files = 5
ranks = 5
[pieces]
K = { betza = "K", royal = true }
R = { betza = "R" }
[setup]
army = "RK..R"
"#;

    fn load(text: &str) -> Result<Variant, VariantError> {
        Variant::from_text("test.toml", text, &NoResolver)
    }

    #[test]
    fn reports_bad_army_letters_with_line() {
        let e = load(MINI).unwrap_err();
        let s = e.to_string();
        assert!(s.contains("test.toml:10:"), "{s}");
        assert!(s.contains("setup.army"), "{s}");
    }

    #[test]
    fn reports_unknown_keys_and_types() {
        let e = load("name = \"x\"\nboard = { files = \"nine\", ranks = 9 }\n").unwrap_err();
        assert!(e.to_string().contains("test.toml:2:"), "{e}");
        assert_eq!(e.problems()[0].field, "board.files", "{e}");
        let e = load("name = \"x\"\ncolour = 3\n").unwrap_err();
        assert!(e.to_string().contains("colour"), "{e}");
    }

    #[test]
    fn reports_bad_betza_and_big_boards() {
        let text = MINI
            .replace("\"R\" }", "\"Rx\" }")
            .replace("RK..R", "RRKRR")
            .replace("ranks = 5", "ranks = 50");
        let e = load(&text).unwrap_err().to_string();
        assert!(e.contains("pieces.R.betza"), "{e}");
        assert!(e.contains("ranks") || e.contains("board"), "{e}");
    }

    #[test]
    fn a_fixed_placement_keeps_every_piece() {
        let text = r#"
name = "Fixed"
[board]
files = 4
ranks = 4
[pieces]
K = { betza = "K", royal = true }
R = { betza = "R" }
P = { betza = "fmWfcF", pawn = true }
[setup]
fen = "r2k/1p2/2P1/K2R"
[promotion]
to = "R"
"#;
        let v = load(text).unwrap();
        assert_eq!(v.setup.placement.len(), 6);
        assert_eq!(v.setup.rank, 0);
        assert_eq!(v.setup.pawn.map(|p| p.1), Some(1));
        let e = load(&text.replace("r2k/", "r3k/")).unwrap_err();
        assert_eq!(e.problems()[0].field, "setup.fen", "{e}");
        assert!(e.to_string().contains("test.toml:11:"), "{e}");
    }
}
