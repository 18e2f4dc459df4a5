//! The checks of meaning: one function per section of the file, each reporting every problem
//! it finds with the file, line, column and key of the value at fault.

use super::error::{line_col, FieldError, VariantError};
use super::load::Source;
use super::numbering::Scheme;
use super::schema::*;
use super::*;
use crate::betza;
use crate::geometry::MAX_SQUARES;

/// Collects problems, each located in its source.
struct Checker<'a> {
    sources: &'a [Source],
    errors: Vec<FieldError>,
}

impl Checker<'_> {
    fn at<T>(&mut self, loc: &Loc<T>, field: &str, msg: impl Into<String>) {
        self.at_offset(loc, 0, field, msg)
    }

    /// A problem inside a string value, `offset` characters after its start.
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

    /// A problem with no place: a missing key, or one about the file as a whole.
    fn missing(&mut self, field: &str, msg: impl Into<String>) {
        self.errors.push(FieldError {
            file: self.sources[0].name.clone(),
            line: 0,
            column: 0,
            field: field.into(),
            message: msg.into(),
        });
    }

    /// At the value if there is one, else without a place.
    fn at_or_missing<T>(&mut self, loc: Option<&Loc<T>>, field: &str, msg: impl Into<String>) {
        match loc {
            Some(l) => self.at(l, field, msg),
            None => self.missing(field, msg),
        }
    }

    /// A rank number (from 1) on a board of `ranks`, returned from 0.
    fn rank(&mut self, loc: &Loc<i64>, field: &str, ranks: u8) -> Option<u8> {
        if (1..=ranks as i64).contains(&loc.value) {
            Some((loc.value - 1) as u8)
        } else {
            let msg = format!("rank {} is off the board (1..={ranks})", loc.value);
            self.at(loc, field, msg);
            None
        }
    }

    /// A file letter on a board of `files`, returned from 0.
    fn file(&mut self, loc: &Loc<String>, field: &str, files: u8) -> Option<u8> {
        let f = single_file(&loc.value, files);
        if f.is_none() {
            let msg = format!("`{}` is not a file of this {files}-file board", loc.value);
            self.at(loc, field, msg);
        }
        f
    }

    /// A list of piece letters (`"QMRBN"`).
    fn letters(&mut self, loc: &Loc<String>, field: &str, pieces: &[PieceDef]) -> Vec<usize> {
        let mut out = Vec::new();
        for (i, c) in loc.value.chars().enumerate() {
            match pieces.iter().position(|p| p.letter == c) {
                Some(ix) => out.push(ix),
                None => {
                    let msg = format!(
                        "`{c}` is not a piece letter of this variant (pieces: {})",
                        letter_list(pieces)
                    );
                    self.at_offset(loc, i + 1, field, msg);
                }
            }
        }
        out
    }

    /// Exactly one piece letter.
    fn one_letter(&mut self, loc: &Loc<String>, field: &str, pieces: &[PieceDef]) -> Option<usize> {
        let v = self.letters(loc, field, pieces);
        if loc.value.chars().count() != 1 {
            self.at(loc, field, "exactly one piece letter expected");
            return None;
        }
        v.first().copied()
    }

    /// A list of letters none of which may be royal or a pawn.
    fn plain_letters(
        &mut self,
        loc: &Loc<String>,
        field: &str,
        pieces: &[PieceDef],
        what: &str,
    ) -> Vec<usize> {
        let v = self.letters(loc, field, pieces);
        if v.iter().any(|&i| pieces[i].royal || pieces[i].pawn) {
            self.at(
                loc,
                field,
                format!("{what} cannot be a royal piece or a pawn"),
            );
        }
        v
    }
}

fn letter_list(pieces: &[PieceDef]) -> String {
    pieces.iter().map(|p| p.letter).collect()
}

fn single_file(s: &str, files: u8) -> Option<u8> {
    let mut c = s.trim().chars();
    let ch = c.next()?;
    if c.next().is_some() || !ch.is_ascii_lowercase() {
        return None;
    }
    let f = ch as u8 - b'a';
    (f < files).then_some(f)
}

fn parse_file_range(s: &str, files: u8) -> Option<(u8, u8)> {
    let (a, b) = s.split_once('-').unwrap_or((s, s));
    let (fa, fb) = (single_file(a, files)?, single_file(b, files)?);
    (fa <= fb).then_some((fa, fb))
}

/// Checks the merged file and builds the variant.
pub(crate) fn check(raw: &RawVariant, sources: &[Source]) -> Result<Variant, VariantError> {
    let mut ck = Checker {
        sources,
        errors: Vec::new(),
    };
    let name = raw.name.as_ref().map(|l| l.value.clone());
    if name.is_none() {
        ck.missing("name", "missing: the variant's name");
    }
    let board = check_board(&mut ck, raw.board.as_ref());
    let pieces = check_pieces(&mut ck, raw.pieces.as_ref());
    // Without a board nothing placed on it can be checked: stop before follow-on errors.
    let Some((files, ranks)) = board else {
        return Err(VariantError::Invalid(ck.errors));
    };
    let dims = Dims { files, ranks };
    let setup = check_setup(&mut ck, raw.setup.as_ref(), &pieces, dims);
    let castling = raw
        .castling
        .as_ref()
        .and_then(|c| check_castling(&mut ck, c, &pieces, files));
    let promotion = check_promotion(&mut ck, raw.promotion.as_ref(), &pieces, ranks);
    let adjustment = raw
        .bishop_adjustment
        .as_ref()
        .and_then(|a| check_adjustment(&mut ck, a, &pieces));
    let rules = check_rules(&mut ck, raw.rules.as_ref(), &pieces, dims);
    let fairy = check_fairy(&mut ck, raw.fairy.as_ref(), &pieces);
    let engine = EngineDef {
        weights: raw
            .engine
            .as_ref()
            .and_then(|e| e.weights.as_ref())
            .map(|l| l.value.clone()),
    };
    if !ck.errors.is_empty() {
        return Err(VariantError::Invalid(ck.errors));
    }
    let variant = Variant {
        short: raw
            .short
            .as_ref()
            .map(|l| l.value.clone())
            .or_else(|| name.clone())
            .unwrap_or_default(),
        name: name.unwrap_or_default(),
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
    };
    check_across(&mut ck, raw, &variant);
    if ck.errors.is_empty() {
        Ok(variant)
    } else {
        Err(VariantError::Invalid(ck.errors))
    }
}

#[derive(Clone, Copy)]
struct Dims {
    files: u8,
    ranks: u8,
}

/// `[board]`: `None` when absent or unusable (then nothing on it is checked).
fn check_board(ck: &mut Checker, board: Option<&RawBoard>) -> Option<(u8, u8)> {
    let Some(b) = board else {
        ck.missing("board", "missing: `[board]` with `files` and `ranks`");
        return None;
    };
    let mut dim = |v: &Option<Loc<i64>>, key: &str| -> Option<u8> {
        let field = format!("board.{key}");
        match v {
            None => {
                ck.missing(&field, "missing");
                None
            }
            Some(l) if !(1..=26).contains(&l.value) => {
                ck.at(l, &field, format!("{} is out of range 1..=26", l.value));
                None
            }
            Some(l) => Some(l.value as u8),
        }
    };
    let (files, ranks) = (dim(&b.files, "files")?, dim(&b.ranks, "ranks")?);
    let squares = files as usize * ranks as usize;
    if squares > MAX_SQUARES {
        let msg =
            format!("{files}x{ranks} = {squares} squares: a board may have at most {MAX_SQUARES}");
        ck.at_or_missing(b.files.as_ref(), "board", msg);
        return None;
    }
    Some((files, ranks))
}

/// `[pieces]`: letters, Betza, values, exactly one royal and at most one pawn kind.
fn check_pieces(ck: &mut Checker, map: Option<&BTreeMap<String, RawPiece>>) -> Vec<PieceDef> {
    let Some(map) = map else {
        ck.missing("pieces", "missing: a `[pieces]` table");
        return Vec::new();
    };
    let pieces: Vec<PieceDef> = map
        .iter()
        .filter_map(|(key, p)| check_piece(ck, key, p))
        .collect();
    if pieces.len() > MAX_PIECE_TYPES {
        let msg = format!("at most {MAX_PIECE_TYPES} piece kinds are supported");
        ck.missing("pieces", msg);
    }
    let royals = pieces.iter().filter(|p| p.royal).count();
    if royals != 1 && !map.is_empty() {
        let msg = format!("exactly one piece must have `royal = true` (found {royals})");
        ck.missing("pieces", msg);
    }
    if pieces.iter().filter(|p| p.pawn).count() > 1 {
        ck.missing("pieces", "at most one piece may have `pawn = true`");
    }
    pieces
}

fn check_piece(ck: &mut Checker, key: &str, p: &RawPiece) -> Option<PieceDef> {
    let field = format!("pieces.{key}");
    let letter = key.chars().next().unwrap_or('?');
    let anchor = p.betza.as_ref().or(p.name.as_ref());
    if key.chars().count() != 1 || !letter.is_ascii_uppercase() {
        ck.at_or_missing(
            anchor,
            &field,
            "a piece key must be one upper-case letter (A-Z)",
        );
        return None;
    }
    if letter == 'O' {
        ck.at_or_missing(anchor, &field, "`O` is reserved for castling notation");
    }
    let atoms = match &p.betza {
        None => {
            let msg = "missing: the piece's moves in Betza notation";
            ck.missing(&format!("{field}.betza"), msg);
            Vec::new()
        }
        Some(b) => betza::parse(&b.value).unwrap_or_else(|e| {
            let msg = format!("Betza `{}` does not parse {e}", b.value);
            ck.at_offset(b, e.offset + 1, &format!("{field}.betza"), msg);
            Vec::new()
        }),
    };
    let value = match &p.value {
        Some(v) if v.value.abs() > 100_000 => {
            let msg = "value must be within -100000..=100000";
            ck.at(v, &format!("{field}.value"), msg);
            0
        }
        Some(v) => v.value as i32,
        None => 0,
    };
    Some(PieceDef {
        letter,
        name: p
            .name
            .as_ref()
            .map_or_else(|| letter.to_string(), |l| l.value.clone()),
        betza: p
            .betza
            .as_ref()
            .map(|l| l.value.clone())
            .unwrap_or_default(),
        atoms,
        royal: p.royal.as_ref().is_some_and(|l| l.value),
        pawn: p.pawn.as_ref().is_some_and(|l| l.value),
        value,
        figurine: p.figurine.as_ref().map(|l| l.value.clone()),
    })
}

/// `[setup]`: the army and its rank and files, or a fixed placement; pawns; numbering.
fn check_setup(
    ck: &mut Checker,
    raw: Option<&RawSetup>,
    pieces: &[PieceDef],
    dims: Dims,
) -> SetupDef {
    let mut setup = SetupDef {
        rank: 0,
        files: (0, dims.files - 1),
        army: Vec::new(),
        random: false,
        symmetry: Symmetry::Reverse,
        bishops: BishopRule::Any,
        king_between_rooks: false,
        pawn: None,
        placement: Vec::new(),
        numbering: Numbering::default(),
    };
    let Some(s) = raw else {
        ck.missing("setup", "missing: `[setup]` with at least `army` or `fen`");
        return setup;
    };
    setup.random = s.random.as_ref().is_some_and(|l| l.value);
    setup.symmetry = s.symmetry.as_ref().map_or(Symmetry::Reverse, |l| l.value);
    setup.bishops = s.bishops.as_ref().map_or(BishopRule::Any, |l| l.value);
    setup.king_between_rooks = s.king_between_rooks.as_ref().is_some_and(|l| l.value);
    if let Some(fen) = &s.fen {
        setup.placement = check_fen(ck, fen, pieces, dims);
    }
    let royal_rank = setup
        .placement
        .iter()
        .find(|p| p.white && pieces[p.piece].royal)
        .map(|p| p.rank);
    setup.rank = match &s.rank {
        Some(r) => ck.rank(r, "setup.rank", dims.ranks).unwrap_or(0),
        None => royal_rank.unwrap_or(0),
    };
    if let Some(f) = &s.files {
        match parse_file_range(&f.value, dims.files) {
            Some(range) => setup.files = range,
            None => {
                let last = (b'a' + dims.files - 1) as char;
                let msg = format!(
                    "`{}` is not a file range on this board (like \"a-{last}\")",
                    f.value
                );
                ck.at(f, "setup.files", msg);
            }
        }
    }
    check_army(ck, s, pieces, &mut setup, dims);
    setup.pawn = check_pawn(ck, s, pieces, &setup, dims);
    if let Some(n) = &s.numbering {
        setup.numbering = check_numbering(ck, n, pieces, &setup);
    }
    setup
}

/// `setup.fen`: the placement field of a FEN, ranks from the top.
fn check_fen(
    ck: &mut Checker,
    fen: &Loc<String>,
    pieces: &[PieceDef],
    dims: Dims,
) -> Vec<PlacedPiece> {
    match parse_placement(&fen.value, pieces, dims) {
        Ok(placed) => {
            for white in [true, false] {
                let kings = placed
                    .iter()
                    .filter(|p| p.white == white && pieces[p.piece].royal)
                    .count();
                if kings != 1 && !pieces.is_empty() {
                    let side = if white { "White" } else { "Black" };
                    let msg = format!("{side} needs exactly one royal piece (found {kings})");
                    ck.at(fen, "setup.fen", msg);
                }
            }
            placed
        }
        Err((offset, msg)) => {
            ck.at_offset(fen, offset + 1, "setup.fen", msg);
            Vec::new()
        }
    }
}

/// Reads a FEN placement; an error gives the character offset and what is wrong.
fn parse_placement(
    text: &str,
    pieces: &[PieceDef],
    dims: Dims,
) -> Result<Vec<PlacedPiece>, (usize, String)> {
    let rows: Vec<&str> = text.split('/').collect();
    if rows.len() != dims.ranks as usize {
        let msg = format!("{} ranks given, the board has {}", rows.len(), dims.ranks);
        return Err((0, msg));
    }
    let mut out = Vec::new();
    let mut offset = 0;
    for (i, row) in rows.iter().enumerate() {
        let rank = dims.ranks - 1 - i as u8;
        let mut file = 0usize;
        let mut run = 0usize;
        for (j, ch) in row.chars().enumerate() {
            let at = offset + j;
            if let Some(d) = ch.to_digit(10) {
                run = run * 10 + d as usize;
                if run > dims.files as usize {
                    return Err((at, format!("rank {}: too many files", rank + 1)));
                }
                continue;
            }
            file += std::mem::take(&mut run);
            let Some(piece) = pieces
                .iter()
                .position(|p| p.letter == ch.to_ascii_uppercase())
            else {
                let msg = format!(
                    "`{ch}` is not a piece letter (pieces: {})",
                    letter_list(pieces)
                );
                return Err((at, msg));
            };
            if file >= dims.files as usize {
                return Err((
                    at,
                    format!("rank {} has more than {} files", rank + 1, dims.files),
                ));
            }
            let white = ch.is_ascii_uppercase();
            out.push(PlacedPiece {
                file: file as u8,
                rank,
                piece,
                white,
            });
            file += 1;
        }
        file += run;
        if file != dims.files as usize {
            let msg = format!(
                "rank {} has {file} files, the board has {}",
                rank + 1,
                dims.files
            );
            return Err((offset, msg));
        }
        offset += row.chars().count() + 1;
    }
    Ok(out)
}

/// `setup.army`: written, or (with `fen`) taken from White's piece rank. With a random setup
/// the army's squares leave the fixed placement, since they are shuffled.
fn check_army(
    ck: &mut Checker,
    s: &RawSetup,
    pieces: &[PieceDef],
    setup: &mut SetupDef,
    dims: Dims,
) {
    let (f0, f1) = setup.files;
    let width = (f1 - f0 + 1) as usize;
    let fixed_fen = !setup.placement.is_empty() && !setup.random;
    let army = match (&s.army, setup.placement.is_empty()) {
        (Some(a), _) => {
            let army = ck.letters(a, "setup.army", pieces);
            if a.value.chars().count() != width {
                let n = a.value.chars().count();
                let msg = format!("army has {n} pieces but the setup files hold {width} squares");
                ck.at(a, "setup.army", msg);
            }
            army
        }
        (None, true) => {
            ck.missing(
                "setup.army",
                "missing: the pieces to place, e.g. \"RNBQKBNR\"",
            );
            return;
        }
        (None, false) if fixed_fen => return,
        (None, false) => army_from_placement(ck, setup),
    };
    if pieces.is_empty() {
        return;
    }
    let anchor = s.army.as_ref().or(s.fen.as_ref());
    let royals = army.iter().filter(|&&i| pieces[i].royal).count();
    if royals != 1 && !fixed_fen {
        let msg = format!("the army must hold exactly one royal piece (found {royals})");
        ck.at_or_missing(anchor, "setup.army", msg);
    }
    if army.iter().any(|&i| pieces[i].pawn) {
        let msg = "pawns are placed by `setup.pawn` (or `setup.fen`), not in the army";
        ck.at_or_missing(anchor, "setup.army", msg);
    }
    if setup.random {
        // The shuffled squares leave the fixed placement: they are filled per start position.
        let black_rank = dims.ranks - 1 - setup.rank;
        let rank = setup.rank;
        setup.placement.retain(|p| {
            let own_rank = if p.white { rank } else { black_rank };
            p.rank != own_rank || p.file < f0 || p.file > f1
        });
    }
    setup.army = army;
}

fn army_from_placement(ck: &mut Checker, setup: &SetupDef) -> Vec<usize> {
    let (f0, f1) = setup.files;
    let mut army = Vec::new();
    for f in f0..=f1 {
        let here = setup
            .placement
            .iter()
            .find(|p| p.white && p.rank == setup.rank && p.file == f);
        match here {
            Some(p) => army.push(p.piece),
            None => {
                let msg = format!(
                    "with `random = true` the fen's rank {} must be full on the setup files (nothing on file {})",
                    setup.rank + 1,
                    (b'a' + f) as char
                );
                ck.missing("setup.fen", msg);
                return Vec::new();
            }
        }
    }
    army
}

/// The pawn kind and White's pawn rank (its initial rank, for `i` moves and FEN checks).
fn check_pawn(
    ck: &mut Checker,
    s: &RawSetup,
    pieces: &[PieceDef],
    setup: &SetupDef,
    dims: Dims,
) -> Option<(usize, u8)> {
    let pawn = match &s.pawn {
        Some(p) if p.value.is_empty() => None,
        Some(p) => ck.one_letter(p, "setup.pawn", pieces),
        None => pieces.iter().position(|p| p.pawn),
    }?;
    let lowest_placed = setup
        .placement
        .iter()
        .filter(|p| p.white && p.piece == pawn)
        .map(|p| p.rank)
        .min();
    let rank = match &s.pawn_rank {
        Some(r) => ck.rank(r, "setup.pawn_rank", dims.ranks)?,
        None => lowest_placed.unwrap_or(setup.rank + 1),
    };
    if rank >= dims.ranks {
        ck.missing("setup.pawn_rank", "the pawn rank is off the board");
        return None;
    }
    Some((pawn, rank))
}

/// `[setup.numbering]`: the stage order (`"Q"`, `"NN"`, `"B:light"`) and the pair order.
fn check_numbering(
    ck: &mut Checker,
    n: &RawNumbering,
    pieces: &[PieceDef],
    setup: &SetupDef,
) -> Numbering {
    let pairs = n.pairs.as_ref().map_or(PairOrder::default(), |l| l.value);
    let Some(list) = &n.stages else {
        return Numbering {
            stages: None,
            pairs,
        };
    };
    let mut stages = Vec::new();
    for text in &list.value {
        match parse_stage(text, pieces) {
            Ok(stage) => stages.push(stage),
            Err(msg) => ck.at(list, "setup.numbering.stages", format!("`{text}`: {msg}")),
        }
    }
    let first_plain = stages
        .iter()
        .position(|s| matches!(s, NumberingStage::Piece { .. }));
    let late_colour = stages
        .iter()
        .rposition(|s| matches!(s, NumberingStage::Coloured { .. }));
    if let (Some(p), Some(c)) = (first_plain, late_colour) {
        if c > p {
            let msg =
                "colour stages (`B:light`) must come first, so that every digit has a fixed base";
            ck.at(list, "setup.numbering.stages", msg);
        }
    }
    let army_count = |p: usize| setup.army.iter().filter(|&&x| x == p).count();
    let mut placed: BTreeMap<usize, usize> = BTreeMap::new();
    for st in &stages {
        let (piece, n) = match *st {
            NumberingStage::Piece { piece, count } => (piece, count),
            NumberingStage::Coloured { piece, .. } => (piece, 1),
        };
        *placed.entry(piece).or_default() += n;
    }
    for (&piece, &n) in &placed {
        if n != army_count(piece) {
            let msg = format!(
                "the stages place {n} `{}` but the army has {}",
                pieces[piece].letter,
                army_count(piece)
            );
            ck.at(list, "setup.numbering.stages", msg);
        }
    }
    let stages = stages
        .into_iter()
        .map(|st| match st {
            NumberingStage::Piece { piece, .. } => NumberingStage::Piece {
                piece,
                count: army_count(piece),
            },
            other => other,
        })
        .collect();
    Numbering {
        stages: Some(stages),
        pairs,
    }
}

fn parse_stage(text: &str, pieces: &[PieceDef]) -> Result<NumberingStage, String> {
    let letter_of = |c: char| {
        pieces.iter().position(|p| p.letter == c).ok_or_else(|| {
            format!(
                "`{c}` is not a piece letter (pieces: {})",
                letter_list(pieces)
            )
        })
    };
    if let Some((l, colour)) = text.split_once(':') {
        let mut cs = l.chars();
        let (Some(c), None) = (cs.next(), cs.next()) else {
            return Err("expected one letter before `:`".into());
        };
        let dark = match colour {
            "light" => false,
            "dark" => true,
            _ => return Err("expected `:light` or `:dark` after the letter".into()),
        };
        return Ok(NumberingStage::Coloured {
            piece: letter_of(c)?,
            dark,
        });
    }
    let mut cs = text.chars();
    let c = cs.next().ok_or("an empty stage")?;
    if cs.any(|x| x != c) {
        return Err("a stage is one letter, repeated once per piece (`NN`)".into());
    }
    Ok(NumberingStage::Piece {
        piece: letter_of(c)?,
        count: text.chars().count(),
    })
}

/// `[castling]`.
fn check_castling(
    ck: &mut Checker,
    c: &RawCastling,
    pieces: &[PieceDef],
    files: u8,
) -> Option<CastlingDef> {
    let rook = match &c.rook {
        Some(r) => ck.one_letter(r, "castling.rook", pieces),
        None => {
            let r = pieces.iter().position(|p| p.letter == 'R');
            if r.is_none() {
                ck.missing(
                    "castling.rook",
                    "no piece `R`: name the castling rook's letter",
                );
            }
            r
        }
    };
    let a = check_castle_side(ck, c.a_side.as_ref(), "a_side", files);
    let h = check_castle_side(ck, c.h_side.as_ref(), "h_side", files);
    Some(CastlingDef {
        rook: rook?,
        king_between_rooks: c.king_between_rooks.as_ref().is_none_or(|l| l.value),
        sides: [a?, h?],
    })
}

fn check_castle_side(
    ck: &mut Checker,
    side: Option<&RawCastleSide>,
    key: &str,
    files: u8,
) -> Option<CastleSideDef> {
    let Some(s) = side else {
        let msg = "missing: `{ king = \"c\", rook = \"d\", notation = \"O-O-O\" }`";
        ck.missing(&format!("castling.{key}"), msg);
        return None;
    };
    let mut file = |v: &Option<Loc<String>>, what: &str| -> Option<u8> {
        let field = format!("castling.{key}.{what}");
        match v {
            None => {
                ck.missing(&field, "missing: a file letter");
                None
            }
            Some(l) => ck.file(l, &field, files),
        }
    };
    let king_file = file(&s.king, "king");
    let rook_file = file(&s.rook, "rook");
    if let (Some(k), Some(r), Some(l)) = (king_file, rook_file, s.king.as_ref()) {
        if k == r {
            ck.at(
                l,
                &format!("castling.{key}"),
                "king and rook cannot end on the same file",
            );
        }
    }
    let default = if key == "a_side" { "O-O-O" } else { "O-O" };
    Some(CastleSideDef {
        king_file: king_file?,
        rook_file: rook_file?,
        notation: s
            .notation
            .as_ref()
            .map_or_else(|| default.to_string(), |l| l.value.clone()),
    })
}

/// `[promotion]`: the zone (`rank` or `zone`), the choices and the Grand Chess limit.
fn check_promotion(
    ck: &mut Checker,
    raw: Option<&RawPromotion>,
    pieces: &[PieceDef],
    ranks: u8,
) -> Option<PromotionDef> {
    let Some(p) = raw else {
        if pieces.iter().any(|p| p.pawn) {
            let msg = "a variant with a pawn needs `[promotion]` (rank and `to`)";
            ck.missing("promotion", msg);
        }
        return None;
    };
    let last = ranks - 1;
    let zone = match (&p.rank, &p.zone) {
        (Some(r), Some(z)) => {
            ck.at(z, "promotion.zone", "give `rank` or `zone`, not both");
            let _ = r;
            (last, last)
        }
        (Some(r), None) => {
            let r = ck.rank(r, "promotion.rank", ranks).unwrap_or(last);
            (r, r)
        }
        (None, Some(z)) => check_zone(ck, z, ranks).unwrap_or((last, last)),
        (None, None) => (last, last),
    };
    let to = match &p.to {
        Some(t) => {
            if t.value.is_empty() {
                ck.at(t, "promotion.to", "at least one piece letter is needed");
            }
            ck.plain_letters(t, "promotion.to", pieces, "a promotion choice")
        }
        None => {
            ck.missing("promotion.to", "missing: the letters a pawn may promote to");
            Vec::new()
        }
    };
    Some(PromotionDef {
        zone,
        to,
        only_captured: p.only_captured.as_ref().is_some_and(|l| l.value),
    })
}

fn check_zone(ck: &mut Checker, z: &Loc<Vec<i64>>, ranks: u8) -> Option<(u8, u8)> {
    let ok = |r: i64| (1..=ranks as i64).contains(&r);
    match z.value.as_slice() {
        [a, b] if ok(*a) && ok(*b) && a <= b => Some((*a as u8 - 1, *b as u8 - 1)),
        _ => {
            let msg =
                format!("expected [first, last] ranks of the zone, 1 <= first <= last <= {ranks}");
            ck.at(z, "promotion.zone", msg);
            None
        }
    }
}

/// `[bishop_adjustment]`.
fn check_adjustment(
    ck: &mut Checker,
    a: &RawAdjustment,
    pieces: &[PieceDef],
) -> Option<AdjustmentDef> {
    let piece = match &a.piece {
        Some(p) => ck.one_letter(p, "bishop_adjustment.piece", pieces),
        None => {
            let b = pieces.iter().position(|p| p.letter == 'B');
            if b.is_none() {
                let msg = "no piece `B`: name the adjusting piece's letter";
                ck.missing("bishop_adjustment.piece", msg);
            }
            b
        }
    };
    let partners = match &a.partners {
        Some(p) => {
            let v = ck.letters(p, "bishop_adjustment.partners", pieces);
            if v.iter().any(|&i| pieces[i].pawn) {
                let msg = "a pawn can never be an adjustment partner";
                ck.at(p, "bishop_adjustment.partners", msg);
            }
            v
        }
        None => {
            let msg = "missing: the letters a bishop may swap with";
            ck.missing("bishop_adjustment.partners", msg);
            Vec::new()
        }
    };
    Some(AdjustmentDef {
        piece: piece?,
        partners,
        same_colour_only: a.same_colour_only.as_ref().is_none_or(|l| l.value),
    })
}

/// `[rules]`: draws and the game ends other than checkmate.
fn check_rules(
    ck: &mut Checker,
    raw: Option<&RawRules>,
    pieces: &[PieceDef],
    dims: Dims,
) -> DrawRules {
    let index_of = |c: char| pieces.iter().position(|p| p.letter == c);
    let mut rules = DrawRules {
        fifty_move_plies: 100,
        repetitions: 3,
        lone_minors: Vec::new(),
        bare_king: BareKing::default(),
        stalemate: StalemateResult::default(),
        checks: 0,
        campmate: [Vec::new(), Vec::new()],
        extinction: Vec::new(),
    };
    let Some(r) = raw else {
        rules.lone_minors = ['N', 'B'].into_iter().filter_map(index_of).collect();
        return rules;
    };
    let mut count = |v: &Option<Loc<i64>>, field: &str, ok: &dyn Fn(i64) -> bool, msg: &str| {
        let l = v.as_ref()?;
        if ok(l.value) {
            Some(l.value as u32)
        } else {
            ck.at(l, field, msg);
            None
        }
    };
    let fifty = count(
        &r.fifty_move_plies,
        "rules.fifty_move_plies",
        &|v| (0..=10_000).contains(&v),
        "expected 0 (off) to 10000",
    );
    let reps = count(
        &r.repetitions,
        "rules.repetitions",
        &|v| v == 0 || (2..=100).contains(&v),
        "expected 0 (off) or 2 to 100",
    );
    let checks = count(
        &r.checks,
        "rules.checks",
        &|v| (0..=100).contains(&v),
        "expected 0 (off) to 100 checks",
    );
    rules.fifty_move_plies = fifty.unwrap_or(100);
    rules.repetitions = reps.unwrap_or(3);
    rules.checks = checks.unwrap_or(0);
    if let Some(l) = r.checks.as_ref().filter(|_| rules.checks > 0) {
        let msg = "n-check is not supported yet (positions and FENs keep no check count): use 0";
        ck.at(l, "rules.checks", msg);
    }
    if let Some(m) = &r.lone_minors {
        rules.lone_minors = ck.letters(m, "rules.lone_minors", pieces);
    }
    if let Some(e) = &r.extinction {
        rules.extinction = ck.letters(e, "rules.extinction", pieces);
    }
    rules.bare_king = r
        .bare_king
        .as_ref()
        .map_or(BareKing::default(), |l| l.value);
    rules.stalemate = r
        .stalemate
        .as_ref()
        .map_or(StalemateResult::default(), |l| l.value);
    if let Some(c) = &r.campmate {
        rules.campmate = check_campmate(ck, c, dims);
    }
    rules
}

/// `rules.campmate`: White's region (`"a8-h8"`, `"d4-e5 a1"`: squares and rectangles) and
/// Black's, which defaults to White's mirrored across the middle rank.
fn check_campmate(ck: &mut Checker, c: &RawCampmate, dims: Dims) -> [Vec<(u8, u8)>; 2] {
    let region = |ck: &mut Checker, l: &Loc<String>, field: &str| match parse_region(&l.value, dims)
    {
        Ok(r) if !r.is_empty() => r,
        Ok(_) => {
            ck.at(l, field, "the region has no square");
            Vec::new()
        }
        Err(msg) => {
            ck.at(l, field, msg);
            Vec::new()
        }
    };
    let white = match &c.white {
        Some(l) => region(ck, l, "rules.campmate.white"),
        None => {
            ck.missing(
                "rules.campmate.white",
                "missing: White's target squares, as \"a8-h8\"",
            );
            Vec::new()
        }
    };
    let black = match &c.black {
        Some(l) => region(ck, l, "rules.campmate.black"),
        None => white
            .iter()
            .map(|&(f, r)| (f, dims.ranks - 1 - r))
            .collect(),
    };
    [white, black]
}

fn parse_region(text: &str, dims: Dims) -> Result<Vec<(u8, u8)>, String> {
    let square = |s: &str| -> Option<(u8, u8)> {
        let mut cs = s.chars();
        let f = single_file(&cs.next()?.to_string(), dims.files)?;
        let r: u8 = cs.as_str().parse().ok()?;
        (1..=dims.ranks).contains(&r).then_some((f, r - 1))
    };
    let mut out = Vec::new();
    for part in text.split_whitespace() {
        let (a, b) = part.split_once('-').unwrap_or((part, part));
        let (Some(a), Some(b)) = (square(a), square(b)) else {
            return Err(format!(
                "`{part}` is not a square or a rectangle (\"d4-e5\") of this board"
            ));
        };
        for f in a.0.min(b.0)..=a.0.max(b.0) {
            for r in a.1.min(b.1)..=a.1.max(b.1) {
                if !out.contains(&(f, r)) {
                    out.push((f, r));
                }
            }
        }
    }
    Ok(out)
}

/// `[fairy]`.
fn check_fairy(ck: &mut Checker, raw: Option<&RawFairy>, pieces: &[PieceDef]) -> FairyDef {
    let mut fairy = FairyDef::default();
    let Some(f) = raw else { return fairy };
    fairy.variant = f.variant.as_ref().map(|l| l.value.clone());
    fairy.template = f.template.as_ref().map(|l| l.value.clone());
    if let Some(p) = &f.pieces {
        for (k, v) in &p.value {
            let mut cs = k.chars();
            match (cs.next(), cs.next()) {
                (Some(c), None) if pieces.iter().any(|p| p.letter == c) => {
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
    fairy
}

/// Checks that need several sections: castling rooks, overlapping ranks, the promotion zone
/// ahead of the pawns, en passant after a diagonal double step, and that start positions can
/// be placed and numbered.
fn check_across(ck: &mut Checker, raw: &RawVariant, v: &Variant) {
    let setup_raw = raw.setup.as_ref();
    let army_loc = setup_raw.and_then(|s| s.army.as_ref().or(s.fen.as_ref()));
    if let Some(c) = &v.castling {
        if v.pieces[c.rook].royal || v.pieces[c.rook].pawn {
            let msg = "the castling rook cannot be the royal piece or a pawn";
            ck.missing("castling.rook", msg);
        }
    }
    if let Some(a) = &v.adjustment {
        if v.pieces[a.piece].royal || v.pieces[a.piece].pawn {
            ck.missing(
                "bishop_adjustment.piece",
                "the adjusting piece cannot be royal or a pawn",
            );
        }
    }
    check_ranks_apart(ck, setup_raw, v);
    if let (Some((_, pr)), Some(p)) = (v.setup.pawn, &v.promotion) {
        if p.zone.0 <= pr {
            let msg = "the promotion zone must lie ahead of the pawns' starting rank";
            ck.missing("promotion.zone", msg);
        }
    }
    check_double_steps(ck, raw, v);
    let scheme = Scheme::new(v);
    if let Err(msg) = scheme.check_stages() {
        let loc = setup_raw
            .and_then(|s| s.numbering.as_ref())
            .and_then(|n| n.stages.as_ref());
        ck.at_or_missing(loc, "setup.numbering.stages", msg);
    }
    if v.setup.king_between_rooks {
        let rook = v
            .castling
            .as_ref()
            .map(|c| c.rook)
            .or_else(|| v.piece_index('R'));
        let n = rook.map_or(0, |r| v.setup.army.iter().filter(|&&i| i == r).count());
        if n < 2 {
            let msg = format!(
                "the army needs two castling rooks to put the king between them (found {n})"
            );
            ck.at_or_missing(army_loc, "setup.king_between_rooks", msg);
        }
    }
    if !ck.errors.is_empty() {
        return;
    }
    if !v.setup.random && !v.setup.army.is_empty() {
        if let Err(e) = scheme.check_back_rank(&v.setup.army) {
            let msg = format!("the fixed army breaks the setup constraints: {e}");
            ck.at_or_missing(army_loc, "setup.army", msg);
        }
    } else {
        let msg = match scheme.checked_count() {
            Some(0) => "no arrangement of the army satisfies the setup constraints",
            None => "more start positions than a 64-bit id can number (more than 2^64)",
            Some(_) => return,
        };
        ck.at_or_missing(army_loc, "setup", msg);
    }
}

/// White's and Black's piece and pawn ranks must differ, or the armies overlap (a fixed
/// placement says where everything stands, so it is exempt).
fn check_ranks_apart(ck: &mut Checker, setup_raw: Option<&RawSetup>, v: &Variant) {
    let s = &v.setup;
    if !s.placement.is_empty() {
        return;
    }
    let mut used = vec![s.rank, v.ranks - 1 - s.rank];
    if let Some((_, pr)) = s.pawn {
        if pr == s.rank {
            ck.missing("setup.pawn_rank", "pawns cannot stand on the piece rank");
            return;
        }
        used.extend([pr, v.ranks - 1 - pr]);
    }
    let distinct: std::collections::BTreeSet<u8> = used.iter().copied().collect();
    if distinct.len() != used.len() {
        let msg = format!(
            "the armies would overlap: White's pieces{} and Black's must stand on {} different ranks",
            if s.pawn.is_some() { " and pawns" } else { "" },
            used.len()
        );
        ck.at_or_missing(setup_raw.and_then(|s| s.rank.as_ref()), "setup.rank", msg);
    }
}

/// En passant is only known after a straight double step; a pawn that may capture en passant
/// and double-steps diagonally (Berolina) is refused rather than played wrongly.
fn check_double_steps(ck: &mut Checker, raw: &RawVariant, v: &Variant) {
    for p in &v.pieces {
        let ep = p.atoms.iter().any(|a| a.en_passant);
        let diagonal_double = p
            .atoms
            .iter()
            .any(|a| a.quiet && a.df != 0 && a.dr.abs() == 2 && a.df.abs() == 2);
        if p.pawn && ep && diagonal_double {
            let key = format!("pieces.{}.betza", p.letter);
            let loc = raw
                .pieces
                .as_ref()
                .and_then(|m| m.get(&p.letter.to_string()))
                .and_then(|r| r.betza.as_ref());
            let msg = "en passant after a diagonal double step (Berolina pawns) is not supported: drop the `e` capture or the diagonal double step";
            ck.at_or_missing(loc, &key, msg);
        }
    }
}
