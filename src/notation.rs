//! Standard Algebraic Notation for every variant: write canonical SAN, read it leniently.
//!
//! The writer is the one place that decides how a move looks in a game record, so everything
//! variant-specific comes from the rules: piece letters from the variant file, castling in the
//! variant's own notation (`O-O-Oc` in MRC, `O-Oh` in ICRC), Bishop Adjustment as `Bc<=>Q`.
//!
//! The reader accepts what people write when the meaning is still certain (a missing `x` or
//! `=`, extra disambiguation, lower-case promotion letters, `0-0`, coordinates like `e2e4`),
//! and refuses what could mean two moves: a game record must never be replayed on a guess.

use crate::geometry::{Geometry, Square};
use crate::piece::PieceKind;
use crate::position::{Move, MoveKind, Position};
use crate::refusal::{self, Intent, Refusal};
use crate::rules::Rules;
use std::fmt;

/// Canonical SAN of a legal move in `pos`, with `+` or `#`.
///
/// Disambiguation follows the usual order (file, then rank, then the whole square) and only
/// counts moves that are legal, so a pinned knight does not force `Nbd2`. Pawn captures always
/// name the pawn's file. Castling uses the variant file's notation for that side.
pub fn to_san(rules: &Rules, pos: &Position, m: Move) -> String {
    let mut s = san_body(rules, pos, m);
    let after = pos.play_unchecked(rules, m);
    if after.in_check(rules) {
        s.push(if after.legal_moves(rules).is_empty() {
            '#'
        } else {
            '+'
        });
    }
    s
}

/// SAN without the check mark.
fn san_body(rules: &Rules, pos: &Position, m: Move) -> String {
    let geo = &rules.geo;
    match m.kind {
        MoveKind::Castle { side } => {
            return match &rules.castle_sides {
                Some(sides) => sides[side as usize & 1].notation.clone(),
                None => if side == 0 { "O-O-O" } else { "O-O" }.to_string(),
            };
        }
        MoveKind::Adjust => return adjust_san(rules, pos, m),
        _ => {}
    }
    let Some(t) = pos.piece_at(m.from).map(|p| p.kind.index()) else {
        return m.uci(rules);
    };
    let capture = is_capture(pos, m);
    let mut s = String::new();
    let is_pawn = rules.pawn == Some(t);
    if !is_pawn {
        s.push(rules.variant.pieces[t].letter);
    }
    // Other legal moves of the same piece type to the same square (and the same promotion).
    let rivals: Vec<Move> = pos
        .legal_moves(rules)
        .iter()
        .copied()
        .filter(|o| {
            o.from != m.from
                && o.to == m.to
                && o.promo == m.promo
                && !matches!(o.kind, MoveKind::Castle { .. } | MoveKind::Adjust)
                && pos.piece_at(o.from).map(|p| p.kind.index()) == Some(t)
        })
        .collect();
    let (ff, fr) = (geo.file(m.from), geo.rank(m.from));
    let file_str = Geometry::file_char(ff).to_string();
    let rank_str = (fr as u32 + 1).to_string();
    if is_pawn && capture {
        s.push_str(&file_str);
        if rivals.iter().any(|o| geo.file(o.from) == ff) {
            s.push_str(&rank_str);
        }
    } else if !rivals.is_empty() {
        if rivals.iter().all(|o| geo.file(o.from) != ff) {
            s.push_str(&file_str);
        } else if rivals.iter().all(|o| geo.rank(o.from) != fr) {
            s.push_str(&rank_str);
        } else {
            s.push_str(&file_str);
            s.push_str(&rank_str);
        }
    }
    if capture {
        s.push('x');
    }
    s.push_str(&geo.square_name(m.to));
    if let Some(k) = m.promo {
        s.push('=');
        s.push(rules.variant.pieces[k.index()].letter);
    }
    s
}

fn is_capture(pos: &Position, m: Move) -> bool {
    m.kind == MoveKind::EnPassant
        || (matches!(m.kind, MoveKind::Normal | MoveKind::DoubleStep)
            && pos
                .piece_at(m.to)
                .is_some_and(|p| p.colour != pos.side_to_move()))
}

/// `Bc<=>Q`; `Bc<=>Nd` when the bishop's other neighbour carries the same letter.
fn adjust_san(rules: &Rules, pos: &Position, m: Move) -> String {
    let geo = &rules.geo;
    let bishop = pos
        .piece_at(m.from)
        .map(|p| rules.variant.pieces[p.kind.index()].letter)
        .unwrap_or('B');
    let partner = pos.piece_at(m.to);
    let letter = partner
        .map(|p| rules.variant.pieces[p.kind.index()].letter)
        .unwrap_or('?');
    let mut s = format!(
        "{bishop}{}<=>{letter}",
        Geometry::file_char(geo.file(m.from))
    );
    let other = if m.to > m.from {
        geo.offset(m.from, -1, 0)
    } else {
        geo.offset(m.from, 1, 0)
    };
    if other.and_then(|o| pos.piece_at(o)) == partner {
        s.push(Geometry::file_char(geo.file(m.to)));
    }
    s
}

/// The check mark a SAN text ends with (`+` or `#`), ignoring trailing annotations.
pub fn check_mark(text: &str) -> Option<char> {
    strip_annotations(text).1
}

/// Splits off trailing `!`/`?` annotations and the check mark.
fn strip_annotations(text: &str) -> (&str, Option<char>) {
    let mut s = text.trim();
    let mut mark = None;
    loop {
        let t = s.trim_end_matches(['!', '?']).trim_end();
        let t = if let Some(r) = t.strip_suffix("e.p.") {
            r.trim_end()
        } else {
            t
        };
        if let Some(r) = t.strip_suffix('+') {
            mark.get_or_insert('+');
            s = r;
        } else if let Some(r) = t.strip_suffix('#') {
            mark = Some('#');
            s = r;
        } else {
            s = t;
            break;
        }
    }
    (s, mark)
}

/// Why a move text was not read as a move. Every variant carries the text as typed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SanError {
    /// Not a move at all: what is wrong with the text.
    Syntax {
        /// The text as typed.
        text: String,
        /// What is wrong with it, in words.
        problem: String,
    },
    /// A well-formed move that cannot be played here, and why.
    Illegal {
        /// The text as typed.
        text: String,
        /// The first rule that stands in the way (boxed: it is the large variant).
        reason: Box<Refusal>,
    },
    /// More than one legal move fits: the moves and their SAN.
    Ambiguous {
        /// The text as typed.
        text: String,
        /// Every legal move the text fits.
        moves: Vec<Move>,
        /// The same moves in SAN, in the same order.
        sans: Vec<String>,
    },
    /// Strict reading only: the move is legal but a mark in the text says otherwise.
    Mismatch {
        /// The text as typed.
        text: String,
        /// The move's own SAN.
        san: String,
        /// Which mark is wrong.
        mark: MarkMismatch,
    },
}

/// A capture, check or mate mark that the move does not bear out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MarkMismatch {
    /// `x` on a move that captures nothing.
    NotACapture,
    /// `+` or `#` on a move that gives no check.
    NotCheck,
    /// `#` on a check that is not mate.
    NotMate,
}

impl fmt::Display for SanError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SanError::Syntax { text, problem } => write!(f, "`{text}`: {problem}"),
            SanError::Illegal { text, reason } => write!(f, "`{text}` cannot be played: {reason}"),
            SanError::Ambiguous { text, sans, .. } => write!(
                f,
                "`{text}` is ambiguous: it could be {}",
                sans.join(" or ")
            ),
            SanError::Mismatch { san, mark, .. } => match mark {
                MarkMismatch::NotACapture => write!(f, "{san} is not a capture"),
                MarkMismatch::NotCheck => write!(f, "{san} gives no check"),
                MarkMismatch::NotMate => write!(f, "{san} is check but not mate"),
            },
        }
    }
}

impl std::error::Error for SanError {}

/// How closely a text must fit the move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reading {
    /// Game records: a wrong `x`, `+` or `#` is ignored (printed games have such slips;
    /// `replay` reports marks separately).
    Lenient,
    /// A person typing a move: `Nxe5` onto an empty square is refused, since the player
    /// believed something about the position that is not so.
    Strict,
}

/// What went wrong inside the reader, before the text is attached.
enum Fail {
    Syntax(String),
    Refused(Refusal),
}

impl From<Refusal> for Fail {
    fn from(r: Refusal) -> Fail {
        Fail::Refused(r)
    }
}

/// Reads a move written in SAN (leniently) or as coordinates (`e2e4`, `f8f9m`, castling as the
/// king taking its rook, adjustment as bishop square then partner square).
///
/// # Errors
/// When the text is malformed, when no legal move matches (with the reason), or when more
/// than one does (listing them in SAN).
pub fn parse_san(rules: &Rules, pos: &Position, text: &str) -> Result<Move, SanError> {
    parse_san_as(rules, pos, text, Reading::Lenient)
}

/// [`parse_san`] with a choice of [`Reading`].
///
/// # Errors
/// As [`parse_san`]; in strict reading also when an `x`, `+` or `#` does not fit the move.
pub fn parse_san_as(
    rules: &Rules,
    pos: &Position,
    text: &str,
    reading: Reading,
) -> Result<Move, SanError> {
    let (body, mark) = strip_annotations(text);
    let syntax = |problem: String| SanError::Syntax {
        text: text.to_string(),
        problem,
    };
    if body.is_empty() {
        return Err(syntax("not a move".into()));
    }
    let legal = pos.legal_moves(rules);
    let (found, intent) = match candidates(rules, pos, legal.as_slice(), body) {
        Ok(x) => x,
        Err(Fail::Syntax(p)) => return Err(syntax(p)),
        Err(Fail::Refused(reason)) => {
            return Err(SanError::Illegal {
                text: text.to_string(),
                reason: Box::new(reason),
            })
        }
    };
    let m = match found.as_slice() {
        [m] => *m,
        [] => {
            return Err(SanError::Illegal {
                text: text.to_string(),
                reason: Box::new(refusal::explain(rules, pos, &intent)),
            })
        }
        _ => {
            return Err(SanError::Ambiguous {
                text: text.to_string(),
                sans: found.iter().map(|m| to_san(rules, pos, *m)).collect(),
                moves: found,
            })
        }
    };
    if reading == Reading::Strict {
        check_marks(rules, pos, m, body, mark, text)?;
    }
    Ok(m)
}

/// The legal moves a text can mean, and what it asks for (to explain an empty list).
fn candidates(
    rules: &Rules,
    pos: &Position,
    legal: &[Move],
    body: &str,
) -> Result<(Vec<Move>, Intent), Fail> {
    if let Some(side) = parse_castle(rules, body).transpose() {
        let side = side.map_err(Fail::Syntax)?;
        let found = legal
            .iter()
            .copied()
            .filter(|m| m.kind == MoveKind::Castle { side })
            .collect();
        return Ok((found, Intent::Castle { side }));
    }
    if body.contains("<=>") {
        return parse_adjust(rules, pos, legal, body).map_err(Fail::Syntax);
    }
    if let Some(found) = parse_coordinates(rules, pos, legal, body)? {
        return Ok(found);
    }
    parse_standard(rules, pos, legal, body)
}

/// Strict reading: the text's capture and check marks must be true of the move.
fn check_marks(
    rules: &Rules,
    pos: &Position,
    m: Move,
    body: &str,
    mark: Option<char>,
    text: &str,
) -> Result<(), SanError> {
    let mismatch = |mark| SanError::Mismatch {
        text: text.to_string(),
        san: san_body(rules, pos, m),
        mark,
    };
    // A board with an x-file could make `x` a file letter; there it says nothing.
    let says_capture = rules.geo.files < 24 && body.contains(['x', ':']);
    if says_capture && !is_capture(pos, m) && !matches!(m.kind, MoveKind::Castle { .. }) {
        return Err(mismatch(MarkMismatch::NotACapture));
    }
    if mark.is_some() {
        let after = pos.play_unchecked(rules, m);
        let check = after.in_check(rules);
        if !check {
            return Err(mismatch(MarkMismatch::NotCheck));
        }
        if mark == Some('#') && !after.legal_moves(rules).is_empty() {
            return Err(mismatch(MarkMismatch::NotMate));
        }
    }
    Ok(())
}

/// `Some(side)` when the text is castling; an error when it names no side or two.
fn parse_castle(rules: &Rules, body: &str) -> Result<Option<u8>, String> {
    let norm: String = body
        .chars()
        .map(|c| if c == '0' { 'O' } else { c })
        .collect();
    let mut rest = norm.as_str();
    let mut count = 0;
    while let Some(r) = rest.strip_prefix('O') {
        count += 1;
        rest = r.strip_prefix('-').unwrap_or(r);
    }
    if !(2..=3).contains(&count) {
        return Ok(None);
    }
    if norm.ends_with('-') {
        return Ok(None);
    }
    if rest.is_empty() {
        return Ok(Some(if count == 3 { 0 } else { 1 }));
    }
    let mut chars = rest.chars();
    let c = chars.next().unwrap_or(' ');
    if chars.next().is_some() || !c.is_ascii_lowercase() {
        return Ok(None);
    }
    let Some(file) = rules.geo.parse_file(c) else {
        return Err(format!("castling suffix `{c}` is not a file of this board"));
    };
    let Some(sides) = &rules.castle_sides else {
        return Err("this variant has no castling".into());
    };
    let matching: Vec<u8> = (0..2u8)
        .filter(|&s| {
            let cs = &sides[s as usize];
            cs.king_file == file || cs.rook_file == file
        })
        .collect();
    match matching.as_slice() {
        [s] => Ok(Some(*s)),
        [] => Err(format!(
            "castling suffix `{c}` is neither side's king or rook destination ({} / {})",
            sides[0].notation, sides[1].notation
        )),
        _ => Err(format!("castling suffix `{c}` names both sides")),
    }
}

/// Bishop Adjustment `Bc<=>Q`, `Bc <=> Nd`; the partner letter may be lower case.
fn parse_adjust(
    rules: &Rules,
    pos: &Position,
    legal: &[Move],
    body: &str,
) -> Result<(Vec<Move>, Intent), String> {
    let geo = &rules.geo;
    let bad = || format!("`{body}` is not a Bishop Adjustment (write it like Bc<=>Q)");
    let (left, right) = body.split_once("<=>").ok_or_else(bad)?;
    let (left, right) = (left.trim(), right.trim());
    let mut lc = left.chars();
    let bishop = lc.next().ok_or_else(bad)?;
    let file = lc.next().and_then(|c| geo.parse_file(c)).ok_or_else(bad)?;
    // An optional rank after the bishop's file is tolerated when it is right.
    let brank: Option<u32> = match lc.as_str() {
        "" => None,
        r => Some(r.parse().map_err(|_| bad())?),
    };
    let mut rc = right.chars();
    let partner = rc.next().ok_or_else(bad)?.to_ascii_uppercase();
    let psq = match rc.as_str() {
        "" => None,
        r => {
            if let Some(f) = r
                .chars()
                .next()
                .and_then(|c| geo.parse_file(c))
                .filter(|_| r.len() == 1)
            {
                Some((f, None))
            } else {
                let sq = geo.parse_square(r).ok_or_else(bad)?;
                Some((geo.file(sq), Some(geo.rank(sq))))
            }
        }
    };
    let letter_of = |sq: Square| {
        pos.piece_at(sq)
            .map(|p| rules.variant.pieces[p.kind.index()].letter)
    };
    let found = legal
        .iter()
        .copied()
        .filter(|m| {
            m.kind == MoveKind::Adjust
                && letter_of(m.from) == Some(bishop)
                && geo.file(m.from) == file
                && brank.is_none_or(|r| geo.rank(m.from) as u32 + 1 == r)
                && letter_of(m.to) == Some(partner)
                && psq.is_none_or(|(f, r)| {
                    geo.file(m.to) == f && r.is_none_or(|r| geo.rank(m.to) == r)
                })
        })
        .collect();
    Ok((
        found,
        Intent::Adjust {
            bishop,
            file,
            partner,
        },
    ))
}

/// Coordinates (`e2e4`, `e2-e4`, `e7e8q`, `e7e8=Q`): `None` when the text is not of that form.
fn parse_coordinates(
    rules: &Rules,
    pos: &Position,
    legal: &[Move],
    body: &str,
) -> Result<Option<(Vec<Move>, Intent)>, Fail> {
    let geo = &rules.geo;
    let b = body.as_bytes();
    // first square
    let split_sq = |s: &str| -> Option<(Square, usize)> {
        let bs = s.as_bytes();
        if bs.is_empty() || !bs[0].is_ascii_lowercase() {
            return None;
        }
        let n = bs[1..].iter().take_while(|c| c.is_ascii_digit()).count();
        if n == 0 {
            return None;
        }
        geo.parse_square(&s[..1 + n]).map(|sq| (sq, 1 + n))
    };
    let Some((from, n1)) = split_sq(body) else {
        return Ok(None);
    };
    let mut i = n1;
    if i < b.len() && (b[i] == b'-' || b[i] == b'x' || b[i] == b':') {
        i += 1;
    }
    let Some((to, n2)) = split_sq(&body[i..]) else {
        return Ok(None);
    };
    i += n2;
    let mut promo_txt = &body[i..];
    promo_txt = promo_txt.strip_prefix('=').unwrap_or(promo_txt);
    let promo = match promo_txt.len() {
        0 => None,
        1 => Some(promo_letter(
            rules,
            promo_txt.chars().next().unwrap_or(' '),
        )?),
        _ => return Ok(None),
    };
    let mut found: Vec<Move> = legal
        .iter()
        .copied()
        .filter(|m| m.from == from && m.to == to)
        .collect();
    // A king written onto its castling destination (`e1g1` in chess) means castling when
    // no ordinary king move has that square.
    if found.is_empty() && pos.piece_at(from).map(|p| p.kind.index()) == Some(rules.royal) {
        let us = pos.side_to_move();
        found = legal
            .iter()
            .copied()
            .filter(|m| match m.kind {
                MoveKind::Castle { side } => {
                    m.from == from
                        && rules.castle_targets(us, side as usize).map(|t| t.0) == Some(to)
                }
                _ => false,
            })
            .collect();
    }
    filter_promo(rules, &mut found, promo)?;
    Ok(Some((found, Intent::Squares { from, to })))
}

/// Keeps the moves with the given promotion; without one, refuses to choose a promotion piece.
fn filter_promo(rules: &Rules, found: &mut Vec<Move>, promo: Option<u8>) -> Result<(), Refusal> {
    match promo {
        Some(p) => {
            if found.iter().all(|m| m.promo.is_none()) && !found.is_empty() {
                return Err(Refusal::NotAPromotion {
                    letter: rules.variant.pieces[p as usize].letter,
                });
            }
            found.retain(|m| m.promo == Some(PieceKind(p)));
        }
        None => {
            if !found.is_empty() && found.iter().all(|m| m.promo.is_some()) {
                return Err(Refusal::PromotionNeedsPiece {
                    choices: promotion_letters(rules),
                });
            }
            found.retain(|m| m.promo.is_none());
        }
    }
    Ok(())
}

/// The piece type a promotion letter names (either case).
fn promo_letter(rules: &Rules, c: char) -> Result<u8, Refusal> {
    let up = c.to_ascii_uppercase();
    rules
        .promotion_to
        .iter()
        .copied()
        .find(|&t| rules.variant.pieces[t].letter == up)
        .map(|t| t as u8)
        .ok_or_else(|| Refusal::NotAPromotionPiece {
            letter: c,
            choices: promotion_letters(rules),
        })
}

/// The letters of the pieces a pawn may promote to (`QRBN`).
fn promotion_letters(rules: &Rules) -> String {
    rules
        .promotion_to
        .iter()
        .map(|&t| rules.variant.pieces[t].letter)
        .collect()
}

/// Ordinary SAN: `[Piece][file][rank][x]square[=Promo]`.
fn parse_standard(
    rules: &Rules,
    pos: &Position,
    legal: &[Move],
    body: &str,
) -> Result<(Vec<Move>, Intent), Fail> {
    let geo = &rules.geo;
    let chars: Vec<char> = body.chars().collect();
    let mut end = chars.len();
    // Promotion: `=Q`, `=q`, or a letter straight after the destination's rank digits.
    let mut promo = None;
    if end >= 2 && chars[end - 1].is_ascii_alphabetic() {
        if chars[end - 2] == '=' {
            promo = Some(promo_letter(rules, chars[end - 1])?);
            end -= 2;
        } else if chars[end - 2].is_ascii_digit() {
            promo = Some(promo_letter(rules, chars[end - 1])?);
            end -= 1;
        }
    }
    // Destination: a file letter and rank digits at the end.
    let digits = chars[..end]
        .iter()
        .rev()
        .take_while(|c| c.is_ascii_digit())
        .count();
    if digits == 0 || end < digits + 1 {
        return Err(Fail::Syntax("no destination square".into()));
    }
    let dest_txt: String = chars[end - digits - 1..end].iter().collect();
    let to = geo
        .parse_square(&dest_txt)
        .ok_or_else(|| Fail::Syntax(format!("`{dest_txt}` is not a square of this board")))?;
    let mut head = &chars[..end - digits - 1];
    if let Some((&last, rest)) = head.split_last() {
        if last == 'x' || last == ':' || last == '-' {
            head = rest;
        }
    }
    // Piece letter: upper case; none means a pawn.
    let mut piece = rules.pawn;
    if let Some((&first, rest)) = head.split_first() {
        if first.is_ascii_uppercase() {
            let t = rules
                .variant
                .pieces
                .iter()
                .position(|p| p.letter == first)
                .ok_or_else(|| Fail::Syntax(format!("`{first}` is not a piece of this variant")))?;
            piece = Some(t);
            head = rest;
        }
    }
    let Some(piece) = piece else {
        return Err(Fail::Syntax(
            "no piece letter (this variant has no pawns)".into(),
        ));
    };
    let (dfile, drank) = disambiguation(rules, head)?;
    let mut found: Vec<Move> = legal
        .iter()
        .copied()
        .filter(|m| {
            !matches!(m.kind, MoveKind::Castle { .. } | MoveKind::Adjust)
                && m.to == to
                && pos.piece_at(m.from).map(|p| p.kind.index()) == Some(piece)
                && dfile.is_none_or(|f| geo.file(m.from) == f)
                && drank.is_none_or(|r| geo.rank(m.from) == r)
        })
        .collect();
    filter_promo(rules, &mut found, promo)?;
    let intent = Intent::Piece {
        kind: piece,
        file: dfile,
        rank: drank,
        to,
    };
    Ok((found, intent))
}

/// The optional origin file and rank between a SAN move's piece letter and its destination.
fn disambiguation(rules: &Rules, head: &[char]) -> Result<(Option<u8>, Option<u8>), Fail> {
    let geo = &rules.geo;
    let mut dfile = None;
    let mut drank = None;
    let mut h = head;
    if let Some((&c, rest)) = h.split_first() {
        if c.is_ascii_lowercase() {
            dfile = Some(
                geo.parse_file(c)
                    .ok_or_else(|| Fail::Syntax(format!("`{c}` is not a file of this board")))?,
            );
            h = rest;
        }
    }
    if !h.is_empty() {
        let r: String = h.iter().collect();
        let n: u32 = r
            .parse()
            .map_err(|_| Fail::Syntax(format!("cannot read `{r}` in the move")))?;
        if n == 0 || n > geo.ranks as u32 {
            return Err(Fail::Syntax(format!("rank {n} is not on this board")));
        }
        drank = Some((n - 1) as u8);
    }
    Ok((dfile, drank))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog;
    use crate::setup;

    fn start(rules: &Rules, back: &str) -> Position {
        let sp = setup::parse_back_rank(&rules.variant, back).unwrap();
        Position::from_start(rules, &sp).unwrap()
    }

    fn play(rules: &Rules, pos: Position, moves: &[&str]) -> Position {
        moves.iter().fold(pos, |p, s| {
            let m = parse_san(rules, &p, s).unwrap_or_else(|e| panic!("{e}"));
            p.play(rules, m).unwrap()
        })
    }

    #[test]
    fn chess_basics_and_leniency() {
        let rules = catalog::load_rules("chess").unwrap();
        let pos = Position::from_fen(
            &rules,
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        )
        .unwrap();
        let m = parse_san(&rules, &pos, "e4").unwrap();
        assert_eq!(m.uci(&rules), "e2e4");
        assert_eq!(parse_san(&rules, &pos, "e2e4").unwrap(), m);
        assert_eq!(parse_san(&rules, &pos, "e2-e4!?").unwrap(), m);
        assert_eq!(parse_san(&rules, &pos, "Pe4").unwrap(), m);
        assert_eq!(to_san(&rules, &pos, m), "e4");
        assert_eq!(parse_san(&rules, &pos, "Ngf3").unwrap().uci(&rules), "g1f3");
        assert_eq!(
            parse_san(&rules, &pos, "Ng1f3").unwrap().uci(&rules),
            "g1f3"
        );
        assert!(parse_san(&rules, &pos, "Nd2").is_err());
        assert!(parse_san(&rules, &pos, "e5").is_err());
        assert!(parse_san(&rules, &pos, "O-O").is_err());
        assert!(parse_san(&rules, &pos, "").is_err());
        assert!(parse_san(&rules, &pos, "Zz9").is_err());
    }

    #[test]
    fn disambiguation_and_promotion() {
        let rules = catalog::load_rules("chess").unwrap();
        // Knights on b1 and f1 both reach d2; rooks on a1 and a5 both reach a3; pawn on g7.
        let pos = Position::from_fen(&rules, "8/3k2P1/8/R7/8/8/8/RN2KN2 w - - 0 1").unwrap();
        let sans: Vec<String> = pos
            .legal_moves(&rules)
            .iter()
            .map(|m| to_san(&rules, &pos, *m))
            .collect();
        for want in ["Nbd2", "Nfd2", "R5a3", "R1a3", "g8=Q", "g8=N", "Ra7+"] {
            assert!(sans.contains(&want.to_string()), "{want} not in {sans:?}");
        }
        assert!(parse_san(&rules, &pos, "Nd2")
            .unwrap_err()
            .to_string()
            .contains("ambiguous"));
        assert!(parse_san(&rules, &pos, "Ra3")
            .unwrap_err()
            .to_string()
            .contains("ambiguous"));
        let q = parse_san(&rules, &pos, "g8=Q").unwrap();
        assert_eq!(parse_san(&rules, &pos, "g8Q").unwrap(), q);
        assert_eq!(parse_san(&rules, &pos, "g8q").unwrap(), q);
        assert_eq!(parse_san(&rules, &pos, "g7g8q").unwrap(), q);
        assert!(parse_san(&rules, &pos, "g8")
            .unwrap_err()
            .to_string()
            .contains("promotion"));
        assert!(parse_san(&rules, &pos, "g8=K").is_err());
    }

    #[test]
    fn checkmate_mark_and_multi_digit_ranks() {
        let rules = catalog::load_rules("chess").unwrap();
        let pos = Position::from_fen(&rules, "7k/8/6K1/8/8/8/8/R7 w - - 0 1").unwrap();
        let m = parse_san(&rules, &pos, "Ra8#").unwrap();
        assert_eq!(to_san(&rules, &pos, m), "Ra8#");
        assert_eq!(check_mark("Ra8#!!"), Some('#'));
        assert_eq!(check_mark("Nf3?!"), None);
        let icrc = catalog::load_rules("icrc").unwrap();
        let p = start(&icrc, "QRKNBRBN");
        let p = play(&icrc, p, &["b4", "b7", "Qa3", "c7"]);
        assert!(p
            .legal_moves(&icrc)
            .iter()
            .any(|m| to_san(&icrc, &p, *m) == "Qa10"));
        let m = parse_san(&icrc, &p, "Qa10").unwrap();
        assert_eq!((icrc.geo.file(m.to), icrc.geo.rank(m.to)), (0, 9));
        assert!(parse_san(&icrc, &p, "Qa11").is_err());
    }

    #[test]
    fn castling_in_each_variants_notation() {
        // MRC #6,944 RNBMKQBNR: clear f1, g1 (king e1 -> g1, rook i1 -> f1).
        let mrc = catalog::load_rules("mrc").unwrap();
        let p = start(&mrc, "RNBMKQBNR");
        let p = play(
            &mrc,
            p,
            &[
                "e4", "a7", "Ng3", "a6", "f4", "b7", "Bf2", "b6", "Qe2", "c7",
            ],
        );
        let m = parse_san(&mrc, &p, "O-O-Og").unwrap();
        assert_eq!(to_san(&mrc, &p, m), "O-O-Og");
        assert_eq!(parse_san(&mrc, &p, "O-O").unwrap(), m);
        assert_eq!(parse_san(&mrc, &p, "0-0").unwrap(), m);
        assert_eq!(parse_san(&mrc, &p, "O-Of").unwrap(), m);
        assert_eq!(parse_san(&mrc, &p, "e1i1").unwrap(), m);
        assert_eq!(parse_san(&mrc, &p, "e1g1").unwrap(), m);
        match parse_san(&mrc, &p, "O-O-O") {
            Err(SanError::Illegal { reason, .. }) => {
                assert!(
                    matches!(*reason, Refusal::CastlingBlocked { .. }),
                    "{reason}"
                )
            }
            other => panic!("{other:?}"),
        }
        assert!(parse_san(&mrc, &p, "O-Oe")
            .unwrap_err()
            .to_string()
            .contains("neither"));
        // ICRC: `O-Og` is the h-side castling (the rook lands on g).
        let icrc = catalog::load_rules("icrc").unwrap();
        assert_eq!(parse_castle(&icrc, "O-Og"), Ok(Some(1)));
        assert_eq!(parse_castle(&icrc, "O-Oh"), Ok(Some(1)));
        assert_eq!(parse_castle(&icrc, "O-Oc"), Ok(Some(0)));
        assert_eq!(parse_castle(&icrc, "O-Od"), Ok(Some(0)));
        assert_eq!(parse_castle(&icrc, "O-O-O"), Ok(Some(0)));
        assert_eq!(parse_castle(&icrc, "Oxf"), Ok(None));
    }

    #[test]
    fn bishop_adjustment_written_and_read() {
        let mrc = catalog::load_rules("mrc").unwrap();
        // #6,787 BQRMBNKNR: both bishops on dark squares (a1, e1).
        let p = start(&mrc, "BQRMBNKNR");
        let sans: Vec<String> = p
            .legal_moves(&mrc)
            .iter()
            .filter(|m| m.kind == MoveKind::Adjust)
            .map(|m| to_san(&mrc, &p, *m))
            .collect();
        let mut sorted = sans.clone();
        sorted.sort();
        assert_eq!(sorted, ["Ba<=>Q", "Be<=>M", "Be<=>N"]);
        let m = parse_san(&mrc, &p, "Be <=>M").unwrap();
        assert_eq!(to_san(&mrc, &p, m), "Be<=>M");
        assert_eq!(parse_san(&mrc, &p, "Be<=>m").unwrap(), m);
        assert_eq!(parse_san(&mrc, &p, "e1d1").unwrap(), m);
        assert!(parse_san(&mrc, &p, "Bc<=>Q").is_err());
        // N-B-N: the partner's file follows.
        let p = start(&mrc, "RKBNBNQMR");
        let sans: Vec<String> = p
            .legal_moves(&mrc)
            .iter()
            .filter(|m| m.kind == MoveKind::Adjust)
            .map(|m| to_san(&mrc, &p, *m))
            .collect();
        assert!(sans.contains(&"Be<=>Nd".to_string()), "{sans:?}");
        assert!(sans.contains(&"Be<=>Nf".to_string()), "{sans:?}");
        assert!(parse_san(&mrc, &p, "Be<=>N")
            .unwrap_err()
            .to_string()
            .contains("ambiguous"));
        assert!(parse_san(&mrc, &p, "Be<=>Nf").is_ok());
    }

    #[test]
    fn strict_reading_refuses_marks_that_do_not_fit() {
        let rules = catalog::load_rules("chess").unwrap();
        let pos = Position::from_fen(
            &rules,
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        )
        .unwrap();
        // Lenient (records): the slip is read as the only move it can mean.
        assert_eq!(parse_san(&rules, &pos, "Nxc3").unwrap().uci(&rules), "b1c3");
        let e = parse_san_as(&rules, &pos, "Nxc3", Reading::Strict).unwrap_err();
        assert_eq!(e.to_string(), "Nc3 is not a capture");
        let e = parse_san_as(&rules, &pos, "e4+", Reading::Strict).unwrap_err();
        assert!(matches!(
            e,
            SanError::Mismatch {
                mark: MarkMismatch::NotCheck,
                ..
            }
        ));
        // Right marks and none at all pass.
        assert!(parse_san_as(&rules, &pos, "Nc3", Reading::Strict).is_ok());
        let mate = Position::from_fen(&rules, "7k/8/6K1/8/8/8/8/R7 w - - 0 1").unwrap();
        assert!(parse_san_as(&rules, &mate, "Ra8#", Reading::Strict).is_ok());
        assert!(parse_san_as(&rules, &mate, "Ra8", Reading::Strict).is_ok());
        let e = parse_san_as(&rules, &mate, "Rh1#", Reading::Strict).unwrap_err();
        assert!(
            matches!(
                e,
                SanError::Mismatch {
                    mark: MarkMismatch::NotMate,
                    ..
                }
            ),
            "{e}"
        );
    }

    #[test]
    fn every_canonical_san_reads_strictly() {
        let mrc = catalog::load_rules("mrc").unwrap();
        let p = start(&mrc, "BQRMBNKNR");
        let p = play(&mrc, p, &["e4", "e7", "d4", "d7"]);
        for &m in p.legal_moves(&mrc).iter() {
            let san = to_san(&mrc, &p, m);
            assert_eq!(
                parse_san_as(&mrc, &p, &san, Reading::Strict),
                Ok(m),
                "{san}"
            );
        }
    }
}
