//! Variant files: the TOML schema, `extends` merging and semantic validation.
//!
//! Three stages, each with its own errors: serde reads each file strictly (unknown keys and wrong
//! types stop it with line and column); files named by `extends` are merged key by key, the
//! child winning; then [`Variant::validate`] checks meaning (letters, Betza, files on the board,
//! a royal piece, an army that fits) and reports every problem at once, each with the file, line,
//! column and key path of the value at fault.

use crate::betza::{self, MoveAtom};
use serde::Deserialize;
use std::cell::Cell;
use std::collections::BTreeMap;
use std::fmt;
use std::ops::Range;
use std::path::{Path, PathBuf};

thread_local! {
    static CURRENT_SOURCE: Cell<usize> = const { Cell::new(0) };
}

/// A value read from a variant file, with where it was written.
#[derive(Debug, Clone)]
pub struct Loc<T> {
    pub value: T,
    pub span: Range<usize>,
    pub src: usize,
}

impl<'de, T: Deserialize<'de>> Deserialize<'de> for Loc<T> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = toml::Spanned::<T>::deserialize(d)?;
        let span = s.span();
        Ok(Loc {
            value: s.into_inner(),
            span,
            src: CURRENT_SOURCE.with(|c| c.get()),
        })
    }
}

trait Merge {
    fn merge(self, base: Self) -> Self;
}

macro_rules! raw_table {
    ($(#[$m:meta])* $name:ident { $($leaf:ident : $lt:ty),* ; $($deep:ident : $dt:ty),* }) => {
        $(#[$m])*
        #[derive(Debug, Clone, Default, Deserialize)]
        #[serde(deny_unknown_fields)]
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

raw_table!(
    /// The whole file as written (every key optional so that `extends` can fill gaps).
    RawVariant {
        extends: String, name: String, short: String, description: String;
        board: RawBoard, pieces: BTreeMap<String, RawPiece>, setup: RawSetup,
        castling: RawCastling, promotion: RawPromotion, bishop_adjustment: RawAdjustment,
        rules: RawRules, fairy: RawFairy, engine: RawEngine
    }
);
raw_table!(RawBoard { files: i64, ranks: i64; });
raw_table!(RawPiece { name: String, betza: String, royal: bool, pawn: bool, value: i64, figurine: String; });
raw_table!(RawSetup {
    rank: i64, files: String, army: String, random: bool, symmetry: String, bishops: String,
    king_between_rooks: bool, pawn: String, pawn_rank: i64;
});
raw_table!(RawCastling { rook: String, king_between_rooks: bool; a_side: RawCastleSide, h_side: RawCastleSide });
raw_table!(RawCastleSide { king: String, rook: String, notation: String; });
raw_table!(RawPromotion { rank: i64, to: String; });
raw_table!(RawAdjustment { piece: String, partners: String, same_colour_only: bool; });
raw_table!(RawRules { fifty_move_plies: i64, repetitions: i64, lone_minors: String; });
raw_table!(RawFairy { variant: String, template: String, pieces: BTreeMap<String, String>; });
raw_table!(RawEngine { weights: String; });

/// One source text a variant was read from.
#[derive(Debug, Clone)]
pub struct Source {
    pub name: String,
    pub text: String,
}

/// A problem in a variant file: which file, where, which key, and what is wrong.
#[derive(Debug, Clone)]
pub struct FieldError {
    pub file: String,
    pub line: usize,
    pub column: usize,
    pub field: String,
    pub message: String,
}

impl fmt::Display for FieldError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.line > 0 {
            write!(
                f,
                "{}:{}:{}: `{}`: {}",
                self.file, self.line, self.column, self.field, self.message
            )
        } else {
            write!(f, "{}: `{}`: {}", self.file, self.field, self.message)
        }
    }
}

/// Every problem found in a variant file (at least one).
#[derive(Debug, Clone)]
pub struct VariantError(pub Vec<FieldError>);

impl fmt::Display for VariantError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = self.0.len();
        write!(
            f,
            "invalid variant file ({} problem{})",
            n,
            if n == 1 { "" } else { "s" }
        )?;
        for e in &self.0 {
            write!(f, "\n  {e}")?;
        }
        Ok(())
    }
}

impl std::error::Error for VariantError {}

fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let offset = offset.min(text.len());
    let before = &text[..offset];
    let line = before.matches('\n').count() + 1;
    let col = before
        .rsplit('\n')
        .next()
        .map(|l| l.chars().count())
        .unwrap_or(0)
        + 1;
    (line, col)
}

/// Where the files a variant extends are looked up.
pub trait Resolver {
    /// Reads `name` as seen from the file `from` (a path or an embedded name).
    fn read(&self, from: &str, name: &str) -> Result<(String, String), String>;
}

/// Reads variant files from disk, relative to the file that names them.
pub struct FileResolver;

impl Resolver for FileResolver {
    fn read(&self, from: &str, name: &str) -> Result<(String, String), String> {
        let base = Path::new(from)
            .parent()
            .map(Path::to_path_buf)
            .unwrap_or_default();
        let path: PathBuf = if Path::new(name).is_absolute() {
            PathBuf::from(name)
        } else {
            base.join(name)
        };
        read_variant_file(&path)
            .map(|t| (path.display().to_string(), t))
            .map_err(|e| format!("cannot read {}: {e}", path.display()))
    }
}

/// Variant files are small: refusing anything but a regular file of at most 1 MiB keeps a
/// path such as `/dev/zero` or a fifo from hanging or exhausting memory.
fn read_variant_file(path: &Path) -> Result<String, String> {
    let meta = std::fs::metadata(path).map_err(|e| e.to_string())?;
    if !meta.is_file() {
        return Err("not a regular file".into());
    }
    if meta.len() > 1 << 20 {
        return Err(format!(
            "{} bytes; a variant file has at most 1 MiB",
            meta.len()
        ));
    }
    std::fs::read_to_string(path).map_err(|e| e.to_string())
}

// ---------------------------------------------------------------------------------------------
// The validated variant
// ---------------------------------------------------------------------------------------------

/// A piece kind as the variant defines it.
#[derive(Debug, Clone, PartialEq)]
pub struct PieceDef {
    /// Upper-case letter (White); Black's is the lower case.
    pub letter: char,
    pub name: String,
    pub betza: String,
    pub atoms: Vec<MoveAtom>,
    pub royal: bool,
    pub pawn: bool,
    pub value: i32,
    pub figurine: Option<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Symmetry {
    /// Black's piece on a square is White's on the square turned 180 degrees.
    Reverse,
    /// Same file, rank mirrored.
    Mirror,
    /// Each side placed independently.
    None,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BishopRule {
    Any,
    Opposite,
}

/// How start positions are built.
#[derive(Debug, Clone, PartialEq)]
pub struct SetupDef {
    /// White's piece rank, from 0.
    pub rank: u8,
    /// First and last file (inclusive) of the army.
    pub files: (u8, u8),
    /// Piece indices, in the written order (the start position itself when not random).
    pub army: Vec<usize>,
    pub random: bool,
    pub symmetry: Symmetry,
    pub bishops: BishopRule,
    /// Placement constraint: the royal piece between the two castling rooks.
    pub king_between_rooks: bool,
    /// The pawn piece placed in front of the army, and White's rank for it.
    pub pawn: Option<(usize, u8)>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct CastleSideDef {
    pub king_file: u8,
    pub rook_file: u8,
    pub notation: String,
}

#[derive(Debug, Clone, PartialEq)]
pub struct CastlingDef {
    pub rook: usize,
    /// Castling rights exist only in start positions with the king between the rooks.
    pub king_between_rooks: bool,
    /// Index 0: the a-side (rooks on lower files than the king); 1: the other side.
    pub sides: [CastleSideDef; 2],
}

#[derive(Debug, Clone, PartialEq)]
pub struct PromotionDef {
    /// White's promotion rank from 0 (Black's is mirrored).
    pub rank: u8,
    pub to: Vec<usize>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct AdjustmentDef {
    pub piece: usize,
    pub partners: Vec<usize>,
    /// The right exists only when both such pieces start on squares of one colour.
    pub same_colour_only: bool,
}

#[derive(Debug, Clone, PartialEq)]
pub struct DrawRules {
    pub fifty_move_plies: u32,
    pub repetitions: u32,
    /// Pieces that cannot mate with the king alone (insufficient material).
    pub lone_minors: Vec<usize>,
}

#[derive(Debug, Clone, PartialEq, Default)]
pub struct FairyDef {
    pub variant: Option<String>,
    pub template: Option<String>,
    pub pieces: BTreeMap<char, String>,
}

/// How the built-in engine plays this variant (`[engine]`).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct EngineDef {
    /// Evaluation weights file, relative to the variant file (`weights = "mrc.weights.toml"`).
    /// None, or a file that does not exist, means the weights derived from the rules.
    pub weights: Option<String>,
}

/// A variant that has passed every check; everything the interpreter needs.
#[derive(Debug, Clone, PartialEq)]
pub struct Variant {
    pub name: String,
    pub short: String,
    pub description: String,
    pub files: u8,
    pub ranks: u8,
    pub pieces: Vec<PieceDef>,
    pub setup: SetupDef,
    pub castling: Option<CastlingDef>,
    pub promotion: Option<PromotionDef>,
    pub adjustment: Option<AdjustmentDef>,
    pub rules: DrawRules,
    pub fairy: FairyDef,
    pub engine: EngineDef,
    /// Where it came from (file name), for messages.
    pub origin: String,
}

impl Variant {
    pub fn piece_index(&self, letter: char) -> Option<usize> {
        let up = letter.to_ascii_uppercase();
        self.pieces.iter().position(|p| p.letter == up)
    }
    pub fn royal(&self) -> usize {
        self.pieces.iter().position(|p| p.royal).unwrap_or(0)
    }

    /// Reads and validates a variant file from disk.
    ///
    /// # Errors
    /// When the file cannot be read, is not valid TOML, or fails validation.
    pub fn from_path(path: &Path) -> Result<Variant, VariantError> {
        let name = path.display().to_string();
        let text = read_variant_file(path).map_err(|e| {
            VariantError(vec![FieldError {
                file: name.clone(),
                line: 0,
                column: 0,
                field: "".into(),
                message: format!("cannot read file: {e}"),
            }])
        })?;
        Self::from_text(&name, &text, &FileResolver)
    }

    /// Reads and validates a variant from text; `extends` goes through `resolver`.
    ///
    /// # Errors
    /// When the text is not valid TOML for the schema or fails validation.
    pub fn from_text(
        name: &str,
        text: &str,
        resolver: &dyn Resolver,
    ) -> Result<Variant, VariantError> {
        let mut sources = vec![Source {
            name: name.to_string(),
            text: text.to_string(),
        }];
        let mut raw = parse_raw(&sources, 0)?;
        let mut current = name.to_string();
        let mut depth = 0;
        while let Some(ext) = raw.extends.take() {
            depth += 1;
            let err = |msg: String, s: &[Source]| {
                let (line, column) = line_col(&s[ext.src].text, ext.span.start);
                VariantError(vec![FieldError {
                    file: s[ext.src].name.clone(),
                    line,
                    column,
                    field: "extends".into(),
                    message: msg,
                }])
            };
            if depth > 8 {
                return Err(err(
                    "`extends` chain is longer than 8 files (a cycle?)".into(),
                    &sources,
                ));
            }
            let (bname, btext) = resolver
                .read(&current, &ext.value)
                .map_err(|m| err(m, &sources))?;
            sources.push(Source {
                name: bname.clone(),
                text: btext,
            });
            let base = parse_raw(&sources, sources.len() - 1)?;
            raw = raw.merge(base);
            current = bname;
        }
        validate(&raw, &sources)
    }
}

fn parse_raw(sources: &[Source], idx: usize) -> Result<RawVariant, VariantError> {
    CURRENT_SOURCE.with(|c| c.set(idx));
    let src = &sources[idx];
    toml::from_str::<RawVariant>(&src.text).map_err(|e| {
        let (line, column) = e
            .span()
            .map(|s| line_col(&src.text, s.start))
            .unwrap_or((0, 0));
        VariantError(vec![FieldError {
            file: src.name.clone(),
            line,
            column,
            field: "toml".into(),
            message: e.message().trim().to_string(),
        }])
    })
}

struct Checker<'a> {
    sources: &'a [Source],
    errors: Vec<FieldError>,
}

impl Checker<'_> {
    fn at<T>(&mut self, loc: &Loc<T>, field: &str, msg: impl Into<String>) {
        self.at_offset(loc, 0, field, msg)
    }
    /// An error inside a string value, `offset` characters after its opening quote.
    fn at_offset<T>(&mut self, loc: &Loc<T>, offset: usize, field: &str, msg: impl Into<String>) {
        let src = &self.sources[loc.src];
        let (line, column) = line_col(&src.text, loc.span.start);
        self.errors.push(FieldError {
            file: src.name.clone(),
            line,
            column: column + offset,
            field: field.into(),
            message: msg.into(),
        });
    }
    fn missing(&mut self, field: &str, msg: &str) {
        self.errors.push(FieldError {
            file: self.sources[0].name.clone(),
            line: 0,
            column: 0,
            field: field.into(),
            message: msg.into(),
        });
    }
}

fn parse_file_range(s: &str, files: u8) -> Option<(u8, u8)> {
    let s = s.trim();
    let (a, b) = match s.split_once('-') {
        Some((a, b)) => (a.trim(), b.trim()),
        None => (s, s),
    };
    let fa = single_file(a, files)?;
    let fb = single_file(b, files)?;
    (fa <= fb).then_some((fa, fb))
}

fn single_file(s: &str, files: u8) -> Option<u8> {
    let mut c = s.chars();
    let ch = c.next()?;
    if c.next().is_some() || !ch.is_ascii_lowercase() {
        return None;
    }
    let f = ch as u8 - b'a';
    (f < files).then_some(f)
}

fn validate(raw: &RawVariant, sources: &[Source]) -> Result<Variant, VariantError> {
    let mut ck = Checker {
        sources,
        errors: Vec::new(),
    };

    let name = raw.name.as_ref().map(|l| l.value.clone());
    if name.is_none() {
        ck.missing("name", "missing: the variant's name");
    }
    let short = raw
        .short
        .as_ref()
        .map(|l| l.value.clone())
        .or_else(|| name.clone())
        .unwrap_or_default();

    // Board
    let (mut files, mut ranks) = (8u8, 8u8);
    match &raw.board {
        None => ck.missing("board", "missing: `[board]` with `files` and `ranks`"),
        Some(b) => {
            let mut dim = |v: &Option<Loc<i64>>, key: &str| -> u8 {
                match v {
                    None => {
                        ck.missing(&format!("board.{key}"), "missing");
                        8
                    }
                    Some(l) if l.value < 1 || l.value > 26 => {
                        ck.at(
                            l,
                            &format!("board.{key}"),
                            format!("{} is out of range 1..=26", l.value),
                        );
                        8
                    }
                    Some(l) => l.value as u8,
                }
            };
            files = dim(&b.files, "files");
            ranks = dim(&b.ranks, "ranks");
            if files as usize * ranks as usize > crate::geometry::MAX_SQUARES {
                if let Some(l) = &b.files {
                    ck.at(
                        l,
                        "board",
                        format!(
                            "{files}x{ranks} = {} squares: a board may have at most 128",
                            files as usize * ranks as usize
                        ),
                    );
                }
                files = 8;
                ranks = 8;
            }
        }
    }

    // Pieces
    let mut pieces: Vec<PieceDef> = Vec::new();
    let mut piece_locs: Vec<Option<&Loc<String>>> = Vec::new();
    match &raw.pieces {
        None => ck.missing("pieces", "missing: a `[pieces]` table"),
        Some(map) => {
            for (key, p) in map {
                let field = format!("pieces.{key}");
                let letter = key.chars().next().unwrap_or('?');
                let anchor = p.betza.as_ref().or(p.name.as_ref());
                if key.chars().count() != 1 || !letter.is_ascii_uppercase() {
                    match anchor {
                        Some(l) => {
                            ck.at(l, &field, "a piece key must be one upper-case letter (A-Z)")
                        }
                        None => {
                            ck.missing(&field, "a piece key must be one upper-case letter (A-Z)")
                        }
                    }
                    continue;
                }
                if matches!(letter, 'O') {
                    if let Some(l) = anchor {
                        ck.at(l, &field, "`O` is reserved for castling notation");
                    }
                }
                let atoms = match &p.betza {
                    None => {
                        ck.missing(
                            &format!("{field}.betza"),
                            "missing: the piece's moves in Betza notation",
                        );
                        Vec::new()
                    }
                    Some(b) => match betza::parse(&b.value) {
                        Ok(a) => a,
                        Err(e) => {
                            ck.at_offset(
                                b,
                                e.offset + 1,
                                &format!("{field}.betza"),
                                format!("Betza `{}` does not parse {e}", b.value),
                            );
                            Vec::new()
                        }
                    },
                };
                let value = match &p.value {
                    Some(v) if v.value.abs() > 100_000 => {
                        ck.at(
                            v,
                            &format!("{field}.value"),
                            "value must be within -100000..=100000",
                        );
                        0
                    }
                    Some(v) => v.value as i32,
                    None => 0,
                };
                pieces.push(PieceDef {
                    letter,
                    name: p
                        .name
                        .as_ref()
                        .map(|l| l.value.clone())
                        .unwrap_or_else(|| letter.to_string()),
                    betza: p
                        .betza
                        .as_ref()
                        .map(|l| l.value.clone())
                        .unwrap_or_default(),
                    atoms,
                    royal: p.royal.as_ref().map(|l| l.value).unwrap_or(false),
                    pawn: p.pawn.as_ref().map(|l| l.value).unwrap_or(false),
                    value,
                    figurine: p.figurine.as_ref().map(|l| l.value.clone()),
                });
                piece_locs.push(p.betza.as_ref());
            }
            if pieces.len() > crate::rules::MAX_PIECE_TYPES {
                ck.missing(
                    "pieces",
                    &format!(
                        "at most {} piece kinds are supported",
                        crate::rules::MAX_PIECE_TYPES
                    ),
                );
            }
            let royals = pieces.iter().filter(|p| p.royal).count();
            if royals != 1 && !map.is_empty() {
                ck.missing(
                    "pieces",
                    &format!("exactly one piece must have `royal = true` (found {royals})"),
                );
            }
            if pieces.iter().filter(|p| p.pawn).count() > 1 {
                ck.missing("pieces", "at most one piece may have `pawn = true`");
            }
        }
    }
    let index_of = |c: char| pieces.iter().position(|p| p.letter == c);

    // Letters lists ("QMRBN") checked against the pieces.
    fn letters(
        ck: &mut Checker,
        loc: &Loc<String>,
        field: &str,
        pieces: &[PieceDef],
    ) -> Vec<usize> {
        let mut out = Vec::new();
        for (i, c) in loc.value.chars().enumerate() {
            match pieces.iter().position(|p| p.letter == c) {
                Some(ix) => out.push(ix),
                None => ck.at_offset(
                    loc,
                    i + 1,
                    field,
                    format!(
                        "`{c}` is not a piece letter of this variant (pieces: {})",
                        pieces.iter().map(|p| p.letter).collect::<String>()
                    ),
                ),
            }
        }
        out
    }

    // Setup
    let mut setup = SetupDef {
        rank: 0,
        files: (0, files.saturating_sub(1)),
        army: Vec::new(),
        random: false,
        symmetry: Symmetry::Reverse,
        bishops: BishopRule::Any,
        king_between_rooks: false,
        pawn: None,
    };
    match &raw.setup {
        None => ck.missing("setup", "missing: `[setup]` with at least `army`"),
        Some(s) => {
            if let Some(r) = &s.rank {
                if r.value < 1 || r.value > ranks as i64 {
                    ck.at(
                        r,
                        "setup.rank",
                        format!("rank {} is off the board (1..={ranks})", r.value),
                    );
                } else {
                    setup.rank = (r.value - 1) as u8;
                }
            }
            if let Some(f) = &s.files {
                match parse_file_range(&f.value, files) {
                    Some(range) => setup.files = range,
                    None => ck.at(
                        f,
                        "setup.files",
                        format!(
                            "`{}` is not a file range on this board (like \"a-{}\")",
                            f.value,
                            (b'a' + files - 1) as char
                        ),
                    ),
                }
            }
            match &s.army {
                None => ck.missing(
                    "setup.army",
                    "missing: the pieces to place, e.g. \"RNBQKBNR\"",
                ),
                Some(a) => {
                    setup.army = letters(&mut ck, a, "setup.army", &pieces);
                    let width = (setup.files.1 - setup.files.0 + 1) as usize;
                    if a.value.chars().count() != width {
                        ck.at(
                            a,
                            "setup.army",
                            format!(
                                "army has {} pieces but the setup files hold {width} squares",
                                a.value.chars().count()
                            ),
                        );
                    }
                    let royal_count = setup.army.iter().filter(|&&i| pieces[i].royal).count();
                    if !pieces.is_empty() && royal_count != 1 {
                        ck.at(
                            a,
                            "setup.army",
                            format!(
                                "the army must hold exactly one royal piece (found {royal_count})"
                            ),
                        );
                    }
                    if setup.army.iter().any(|&i| pieces[i].pawn) {
                        ck.at(
                            a,
                            "setup.army",
                            "pawns are placed by `setup.pawn`, not in the army",
                        );
                    }
                }
            }
            setup.random = s.random.as_ref().map(|l| l.value).unwrap_or(false);
            if let Some(sym) = &s.symmetry {
                setup.symmetry = match sym.value.as_str() {
                    "reverse" => Symmetry::Reverse,
                    "mirror" => Symmetry::Mirror,
                    "none" => Symmetry::None,
                    other => {
                        ck.at(
                            sym,
                            "setup.symmetry",
                            format!("`{other}`: expected \"reverse\", \"mirror\" or \"none\""),
                        );
                        Symmetry::Reverse
                    }
                };
            }
            if let Some(b) = &s.bishops {
                setup.bishops = match b.value.as_str() {
                    "any" => BishopRule::Any,
                    "opposite" => BishopRule::Opposite,
                    other => {
                        ck.at(
                            b,
                            "setup.bishops",
                            format!("`{other}`: expected \"any\" or \"opposite\""),
                        );
                        BishopRule::Any
                    }
                };
            }
            setup.king_between_rooks = s
                .king_between_rooks
                .as_ref()
                .map(|l| l.value)
                .unwrap_or(false);
            let pawn_piece = match &s.pawn {
                Some(p) => {
                    let v = letters(&mut ck, p, "setup.pawn", &pieces);
                    if v.len() > 1 {
                        ck.at(p, "setup.pawn", "one letter expected");
                    }
                    if p.value.is_empty() {
                        None
                    } else {
                        v.first().copied()
                    }
                }
                None => pieces.iter().position(|p| p.pawn),
            };
            if let Some(pi) = pawn_piece {
                let pr = match &s.pawn_rank {
                    Some(r) if r.value < 1 || r.value > ranks as i64 => {
                        ck.at(
                            r,
                            "setup.pawn_rank",
                            format!("rank {} is off the board", r.value),
                        );
                        setup.rank + 1
                    }
                    Some(r) => (r.value - 1) as u8,
                    None => setup.rank + 1,
                };
                if pr >= ranks {
                    ck.missing("setup.pawn_rank", "the pawn rank is off the board");
                } else {
                    setup.pawn = Some((pi, pr));
                }
            }
        }
    }

    // Castling
    let mut castling = None;
    if let Some(c) = &raw.castling {
        let rook = match &c.rook {
            Some(r) => letters(&mut ck, r, "castling.rook", &pieces)
                .first()
                .copied(),
            None => index_of('R'),
        };
        let side = |ck: &mut Checker,
                    s: &Option<RawCastleSide>,
                    key: &str|
         -> Option<CastleSideDef> {
            let Some(s) = s else {
                ck.missing(
                    &format!("castling.{key}"),
                    "missing: `{ king = \"c\", rook = \"d\", notation = \"O-O-O\" }`",
                );
                return None;
            };
            let mut file = |v: &Option<Loc<String>>, what: &str| -> Option<u8> {
                match v {
                    None => {
                        ck.missing(&format!("castling.{key}.{what}"), "missing: a file letter");
                        None
                    }
                    Some(l) => {
                        let f = single_file(&l.value, files);
                        if f.is_none() {
                            ck.at(
                                l,
                                &format!("castling.{key}.{what}"),
                                format!("`{}` is not a file of this {files}-file board", l.value),
                            );
                        }
                        f
                    }
                }
            };
            let king_file = file(&s.king, "king");
            let rook_file = file(&s.rook, "rook");
            let notation = s
                .notation
                .as_ref()
                .map(|l| l.value.clone())
                .unwrap_or_else(|| {
                    if key == "a_side" {
                        "O-O-O".into()
                    } else {
                        "O-O".into()
                    }
                });
            if let (Some(k), Some(r), Some(l)) = (king_file, rook_file, s.king.as_ref()) {
                if k == r {
                    ck.at(
                        l,
                        &format!("castling.{key}"),
                        "king and rook cannot end on the same file",
                    );
                }
            }
            Some(CastleSideDef {
                king_file: king_file?,
                rook_file: rook_file?,
                notation,
            })
        };
        let a = side(&mut ck, &c.a_side, "a_side");
        let h = side(&mut ck, &c.h_side, "h_side");
        if rook.is_none() && c.rook.is_none() {
            ck.missing(
                "castling.rook",
                "no piece `R`: name the castling rook's letter",
            );
        }
        if let (Some(rook), Some(a), Some(h)) = (rook, a, h) {
            castling = Some(CastlingDef {
                rook,
                king_between_rooks: c
                    .king_between_rooks
                    .as_ref()
                    .map(|l| l.value)
                    .unwrap_or(true),
                sides: [a, h],
            });
        }
    }

    // Promotion
    let mut promotion = None;
    if let Some(p) = &raw.promotion {
        let rank = match &p.rank {
            Some(r) if r.value < 1 || r.value > ranks as i64 => {
                ck.at(
                    r,
                    "promotion.rank",
                    format!("rank {} is off the board (1..={ranks})", r.value),
                );
                ranks - 1
            }
            Some(r) => (r.value - 1) as u8,
            None => ranks - 1,
        };
        let to = match &p.to {
            Some(t) => {
                let v = letters(&mut ck, t, "promotion.to", &pieces);
                if v.iter().any(|&i| pieces[i].royal || pieces[i].pawn) {
                    ck.at(
                        t,
                        "promotion.to",
                        "cannot promote to a royal piece or a pawn",
                    );
                }
                if t.value.is_empty() {
                    ck.at(t, "promotion.to", "at least one piece letter is needed");
                }
                v
            }
            None => {
                ck.missing("promotion.to", "missing: the letters a pawn may promote to");
                Vec::new()
            }
        };
        promotion = Some(PromotionDef { rank, to });
    } else if pieces.iter().any(|p| p.pawn) {
        ck.missing(
            "promotion",
            "a variant with a pawn needs `[promotion]` (rank and `to`)",
        );
    }

    // Bishop Adjustment
    let mut adjustment = None;
    if let Some(a) = &raw.bishop_adjustment {
        let piece = match &a.piece {
            Some(p) => letters(&mut ck, p, "bishop_adjustment.piece", &pieces)
                .first()
                .copied(),
            None => index_of('B'),
        };
        let partners = match &a.partners {
            Some(p) => {
                let v = letters(&mut ck, p, "bishop_adjustment.partners", &pieces);
                if v.iter().any(|&i| pieces[i].pawn) {
                    ck.at(
                        p,
                        "bishop_adjustment.partners",
                        "a pawn can never be an adjustment partner",
                    );
                }
                v
            }
            None => {
                ck.missing(
                    "bishop_adjustment.partners",
                    "missing: the letters a bishop may swap with",
                );
                Vec::new()
            }
        };
        match piece {
            Some(piece) => {
                adjustment = Some(AdjustmentDef {
                    piece,
                    partners,
                    same_colour_only: a.same_colour_only.as_ref().map(|l| l.value).unwrap_or(true),
                })
            }
            None if a.piece.is_none() => ck.missing(
                "bishop_adjustment.piece",
                "no piece `B`: name the adjusting piece's letter",
            ),
            None => {}
        }
    }

    // Draw rules
    let mut rules = DrawRules {
        fifty_move_plies: 100,
        repetitions: 3,
        lone_minors: Vec::new(),
    };
    if let Some(r) = &raw.rules {
        if let Some(f) = &r.fifty_move_plies {
            if f.value < 0 || f.value > 10_000 {
                ck.at(f, "rules.fifty_move_plies", "expected 0 (off) to 10000");
            } else {
                rules.fifty_move_plies = f.value as u32;
            }
        }
        if let Some(f) = &r.repetitions {
            if f.value < 0 || f.value > 100 || f.value == 1 {
                ck.at(f, "rules.repetitions", "expected 0 (off) or 2 to 100");
            } else {
                rules.repetitions = f.value as u32;
            }
        }
        if let Some(m) = &r.lone_minors {
            rules.lone_minors = letters(&mut ck, m, "rules.lone_minors", &pieces);
        }
    } else {
        rules.lone_minors = ['N', 'B'].iter().filter_map(|&c| index_of(c)).collect();
    }

    let mut fairy = FairyDef::default();
    if let Some(f) = &raw.fairy {
        fairy.variant = f.variant.as_ref().map(|l| l.value.clone());
        fairy.template = f.template.as_ref().map(|l| l.value.clone());
        if let Some(p) = &f.pieces {
            for (k, v) in &p.value {
                match k.chars().next() {
                    Some(c) if k.chars().count() == 1 && index_of(c).is_some() => {
                        fairy.pieces.insert(c, v.clone());
                    }
                    _ => ck.at(
                        p,
                        "fairy.pieces",
                        format!("`{k}` is not a piece letter of this variant"),
                    ),
                }
            }
        }
    }

    let engine = EngineDef {
        weights: raw
            .engine
            .as_ref()
            .and_then(|e| e.weights.as_ref())
            .map(|l| l.value.clone()),
    };

    // Cross-checks that need several sections.
    if ck.errors.is_empty() {
        if let Some(c) = &castling {
            for (i, s) in c.sides.iter().enumerate() {
                let _ = i;
                if s.king_file >= files || s.rook_file >= files {
                    ck.missing("castling", "castling file off the board");
                }
            }
            if pieces[c.rook].royal || pieces[c.rook].pawn {
                ck.missing(
                    "castling.rook",
                    "the castling rook cannot be the royal piece or a pawn",
                );
            }
        }
        if setup.king_between_rooks {
            let rook = castling.as_ref().map(|c| c.rook).or_else(|| index_of('R'));
            let n = rook
                .map(|r| setup.army.iter().filter(|&&i| i == r).count())
                .unwrap_or(0);
            if n < 2 {
                if let Some(a) = raw.setup.as_ref().and_then(|s| s.army.as_ref()) {
                    ck.at(a, "setup.king_between_rooks", format!("the army needs two castling rooks to put the king between them (found {n})"));
                }
            }
        }
        // White's and Black's piece ranks (and pawn ranks) must differ, or the armies overlap.
        let mut used = vec![setup.rank, ranks - 1 - setup.rank];
        if let Some((_, pr)) = setup.pawn {
            used.extend([pr, ranks - 1 - pr]);
        }
        let distinct: std::collections::BTreeSet<u8> = used.iter().copied().collect();
        if distinct.len() != used.len() && setup.pawn.map(|p| p.1) != Some(setup.rank) {
            let msg = format!(
                "the armies would overlap: White's pieces{} and Black's must stand on {} different ranks",
                if setup.pawn.is_some() { " and pawns" } else { "" },
                used.len()
            );
            match raw.setup.as_ref().and_then(|s| s.rank.as_ref()) {
                Some(r) => ck.at(r, "setup.rank", msg),
                None => ck.missing("setup.rank", &msg),
            }
        }
        if let Some((_, pr)) = setup.pawn {
            if pr == setup.rank {
                ck.missing("setup.pawn_rank", "pawns cannot stand on the piece rank");
            }
            if let Some(p) = &promotion {
                if p.rank <= pr {
                    ck.missing(
                        "promotion.rank",
                        "the promotion rank must lie ahead of the pawns",
                    );
                }
            }
        }
        if let Some(a) = &adjustment {
            if pieces[a.piece].royal || pieces[a.piece].pawn {
                ck.missing(
                    "bishop_adjustment.piece",
                    "the adjusting piece cannot be royal or a pawn",
                );
            }
        }
        // The setup checks need the variant as a whole; build it once, unnamed.
        let draft = Variant {
            name: String::new(),
            short: String::new(),
            description: String::new(),
            files,
            ranks,
            pieces: pieces.clone(),
            setup: setup.clone(),
            castling: castling.clone(),
            promotion: promotion.clone(),
            adjustment: adjustment.clone(),
            rules: rules.clone(),
            fairy: fairy.clone(),
            engine: engine.clone(),
            origin: String::new(),
        };
        if !setup.random {
            // A fixed army must satisfy its own constraints too.
            if let Err(e) = crate::setup::check_back_rank(&draft, &setup.army) {
                if let Some(a) = raw.setup.as_ref().and_then(|s| s.army.as_ref()) {
                    ck.at(
                        a,
                        "setup.army",
                        format!("the fixed army breaks the setup constraints: {e}"),
                    );
                }
            }
        } else {
            let n = crate::setup::checked_count(&draft);
            let msg = match n {
                Some(0) => Some("no arrangement of the army satisfies the setup constraints"),
                None => Some("more start positions than a 64-bit id can number (more than 2^64)"),
                Some(_) => None,
            };
            if let (Some(msg), Some(a)) = (msg, raw.setup.as_ref().and_then(|s| s.army.as_ref())) {
                ck.at(a, "setup", msg);
            }
        }
    }

    if !ck.errors.is_empty() {
        return Err(VariantError(ck.errors));
    }
    let _ = piece_locs;
    Ok(Variant {
        name: name.unwrap_or_default(),
        short,
        description: raw
            .description
            .as_ref()
            .map(|l| l.value.clone())
            .unwrap_or_default(),
        files,
        ranks,
        pieces,
        setup,
        castling,
        promotion,
        adjustment,
        rules,
        fairy,
        engine,
        origin: sources[0].name.clone(),
    })
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
        Variant::from_text("test.toml", text, &FileResolver)
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
    fn engine_section_names_a_weights_file() {
        let good = MINI.replace("RK..R", "RRKRR");
        let v = load(&good).unwrap();
        assert_eq!(v.engine.weights, None);
        let named = format!("{good}[engine]\nweights = \"mini.weights.toml\"\n");
        let v = load(&named).unwrap();
        assert_eq!(v.engine.weights.as_deref(), Some("mini.weights.toml"));
        let bad = format!("{good}[engine]\nweight = \"x\"\n");
        assert!(load(&bad).unwrap_err().to_string().contains("weight"));
    }
}
