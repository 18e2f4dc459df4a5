//! The variant file as written: serde structs in which every value keeps its place.
//!
//! Every key is optional here so that `extends` can fill gaps; the checks say what is required.
//! Options that exclude each other are enums, so a bad value fails to parse with the list of
//! the good ones. `deny_unknown_fields` everywhere: a misspelt key is an error, never ignored.

use super::{BareKing, BishopRule, PairOrder, StalemateResult, Symmetry};
use serde::Deserialize;
use std::collections::BTreeMap;
use std::ops::Range;

/// A value read from a variant file, with where it was written.
#[derive(Debug, Clone)]
pub struct Loc<T> {
    /// The value.
    pub value: T,
    /// Byte range in the source text.
    pub span: Range<usize>,
    /// Which source (index into the list of files read, the first being the file asked for).
    pub src: usize,
}

impl<'de, T: Deserialize<'de>> Deserialize<'de> for Loc<T> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = toml::Spanned::<T>::deserialize(d)?;
        let span = s.span();
        Ok(Loc {
            value: s.into_inner(),
            span,
            src: 0,
        })
    }
}

/// Merging a file with the file it extends: the child's values win, tables merge key by key.
pub(crate) trait Merge {
    fn merge(self, base: Self) -> Self;
}

/// Tags every value with the index of the source it was read from.
pub(crate) trait Sourced {
    fn set_source(&mut self, src: usize);
}

macro_rules! raw_table {
    ($(#[$m:meta])* $name:ident { $($leaf:ident : $lt:ty),* ; $($deep:ident : $dt:ty),* }) => {
        $(#[$m])*
        #[derive(Debug, Clone, Default, Deserialize)]
        #[serde(deny_unknown_fields)]
        #[allow(missing_docs)]
        pub struct $name {
            $(pub $leaf: Option<Loc<$lt>>,)*
            $(pub $deep: Option<$dt>,)*
        }
        impl Merge for $name {
            fn merge(self, base: Self) -> Self {
                $name {
                    $($leaf: self.$leaf.or(base.$leaf),)*
                    $($deep: match (self.$deep, base.$deep) {
                        (Some(a), Some(b)) => Some(a.merge(b)),
                        (a, b) => a.or(b),
                    },)*
                }
            }
        }
        impl Sourced for $name {
            fn set_source(&mut self, src: usize) {
                $(if let Some(l) = &mut self.$leaf { l.src = src; })*
                $(if let Some(d) = &mut self.$deep { d.set_source(src); })*
            }
        }
    };
}

impl<V: Merge> Merge for BTreeMap<String, V> {
    fn merge(mut self, base: Self) -> Self {
        for (k, v) in base {
            let merged = match self.remove(&k) {
                Some(mine) => mine.merge(v),
                None => v,
            };
            self.insert(k, merged);
        }
        self
    }
}

impl<V: Sourced> Sourced for BTreeMap<String, V> {
    fn set_source(&mut self, src: usize) {
        self.values_mut().for_each(|v| v.set_source(src));
    }
}

raw_table!(
    /// The whole file.
    RawVariant {
        extends: String, name: String, short: String, description: String;
        board: RawBoard, pieces: BTreeMap<String, RawPiece>, setup: RawSetup,
        castling: RawCastling, promotion: RawPromotion, bishop_adjustment: RawAdjustment,
        rules: RawRules, fairy: RawFairy, engine: RawEngine
    }
);
raw_table!(
    /// `[board]`.
    RawBoard { files: i64, ranks: i64; }
);
raw_table!(
    /// One entry of `[pieces]`.
    RawPiece { name: String, betza: String, royal: bool, pawn: bool, value: i64, figurine: String; }
);
raw_table!(
    /// `[setup]`.
    RawSetup {
        rank: i64, files: String, army: String, random: bool, symmetry: Symmetry,
        bishops: BishopRule, king_between_rooks: bool, pawn: String, pawn_rank: i64,
        fen: String;
        numbering: RawNumbering
    }
);
raw_table!(
    /// `[setup.numbering]`.
    RawNumbering { stages: Vec<String>, pairs: PairOrder; }
);
raw_table!(
    /// `[castling]`.
    RawCastling { rook: String, king_between_rooks: bool; a_side: RawCastleSide, h_side: RawCastleSide }
);
raw_table!(
    /// `castling.a_side` and `castling.h_side`.
    RawCastleSide { king: String, rook: String, notation: String; }
);
raw_table!(
    /// `[promotion]`.
    RawPromotion { rank: i64, zone: Vec<i64>, to: String, only_captured: bool; }
);
raw_table!(
    /// `[bishop_adjustment]`.
    RawAdjustment { piece: String, partners: String, same_colour_only: bool; }
);
raw_table!(
    /// `[rules]`: draws and the game ends other than checkmate.
    RawRules {
        fifty_move_plies: i64, repetitions: i64, lone_minors: String, bare_king: BareKing,
        stalemate: StalemateResult, checks: i64, extinction: String;
        campmate: RawCampmate
    }
);
raw_table!(
    /// `rules.campmate`.
    RawCampmate { white: String, black: String; }
);
raw_table!(
    /// `[fairy]`.
    RawFairy { variant: String, template: String, pieces: BTreeMap<String, String>; }
);
raw_table!(
    /// `[engine]`.
    RawEngine { weights: String; }
);

/// The dotted key path of the value written at byte `offset`, found in the TOML document
/// itself, so that a type error from serde names `board.files` rather than the whole file.
pub(crate) fn key_path_at(text: &str, offset: usize) -> Option<String> {
    let doc = toml_edit::ImDocument::parse(text).ok()?;
    let mut path = Vec::new();
    find_in_table(doc.as_table(), offset, &mut path).then(|| path.join("."))
}

fn contains(span: Option<Range<usize>>, offset: usize) -> bool {
    span.is_some_and(|s| s.start <= offset && offset < s.end.max(s.start + 1))
}

fn find_in_table(table: &toml_edit::Table, offset: usize, path: &mut Vec<String>) -> bool {
    for (key, item) in table.iter() {
        let Some((k, _)) = table.get_key_value(key) else {
            continue;
        };
        path.push(key.to_string());
        if contains(k.span(), offset) {
            return true;
        }
        let found = match item {
            toml_edit::Item::Table(t) => find_in_table(t, offset, path),
            toml_edit::Item::Value(v) => find_in_value(v, offset, path),
            toml_edit::Item::ArrayOfTables(a) => a.iter().any(|t| find_in_table(t, offset, path)),
            toml_edit::Item::None => false,
        };
        if found {
            return true;
        }
        path.pop();
    }
    false
}

fn find_in_value(value: &toml_edit::Value, offset: usize, path: &mut Vec<String>) -> bool {
    if !contains(value.span(), offset) {
        return false;
    }
    if let toml_edit::Value::InlineTable(t) = value {
        for (key, v) in t.iter() {
            path.push(key.to_string());
            let key_span = t.key(key).and_then(|k| k.span());
            if contains(key_span, offset) || find_in_value(v, offset, path) {
                return true;
            }
            path.pop();
        }
    }
    true
}

/// The key a serde error message names (`unknown field `armee``), joined to its table.
pub(crate) fn unknown_field(message: &str) -> Option<&str> {
    let rest = message.strip_prefix("unknown field `")?;
    rest.split('`').next()
}
