//! Start positions: enumerate, count, number and build them from the variant's constraints.
//!
//! # Numbering
//! Ids generalise the Scharnagl numbering of Chess960 to any army. The back rank is filled in
//! stages, the first stage being the least significant digit of a mixed-radix number:
//! 1. the bishops (`B`): with `bishops = "opposite"` the light-square bishop (index among the
//!    light squares of the setup files), then the dark-square one; with `"any"` the pair of
//!    squares, as the index of the 2-combination in lexicographic order;
//! 2. every other piece except the royal piece and the castling rooks, in decreasing value
//!    (ties by letter): the combination of squares for all pieces of that letter, among the
//!    squares still free, in lexicographic order;
//! 3. the royal piece and the rooks on the squares left: with `king_between_rooks` there is one
//!    way (R K R); otherwise the distinct arrangements in lexicographic order of letters.
//!
//! For Chess960 this is exactly the standard numbering (518 is RNBQKBNR). With
//! `symmetry = "none"` White and Black are numbered independently: `id = white + count * black`.

use crate::fen::{CastlingRight, CastlingRook, Setup};
use crate::geometry::Geometry;
use crate::piece::{Colour, Piece, PieceKind};
use crate::variant::{BishopRule, Symmetry, Variant};

/// One stage of the placement: which piece, how many, and how its choices are counted.
#[derive(Debug, Clone)]
enum Stage {
    /// One bishop on a square of a given colour (`dark` true: squares where file+rank is even).
    ColourBishop { piece: usize, dark: bool },
    /// `k` pieces of one letter on any of the free squares.
    Combination { piece: usize, k: usize },
    /// The royal piece and the rooks fill the rest.
    Rest {
        royal: usize,
        rook: Option<usize>,
        between: bool,
    },
}

fn binomial(n: usize, k: usize) -> u64 {
    if k > n {
        return 0;
    }
    let mut r: u64 = 1;
    for i in 0..k {
        r = r * (n - i) as u64 / (i + 1) as u64;
    }
    r
}

/// The letter used as "bishop" by the `bishops` rule: the adjusting piece, else `B`.
fn bishop_piece(v: &Variant) -> Option<usize> {
    v.adjustment
        .as_ref()
        .map(|a| a.piece)
        .or_else(|| v.piece_index('B'))
}

fn rook_piece(v: &Variant) -> Option<usize> {
    v.castling
        .as_ref()
        .map(|c| c.rook)
        .or_else(|| v.piece_index('R'))
}

fn stages(v: &Variant) -> Vec<Stage> {
    let army = &v.setup.army;
    let count_of = |p: usize| army.iter().filter(|&&x| x == p).count();
    let mut out = Vec::new();
    let bishop = bishop_piece(v).filter(|&b| count_of(b) > 0);
    if let Some(b) = bishop {
        if v.setup.bishops == BishopRule::Opposite && count_of(b) == 2 {
            out.push(Stage::ColourBishop {
                piece: b,
                dark: false,
            });
            out.push(Stage::ColourBishop {
                piece: b,
                dark: true,
            });
        } else {
            out.push(Stage::Combination {
                piece: b,
                k: count_of(b),
            });
        }
    }
    let royal = v.royal();
    let rook = rook_piece(v).filter(|&r| count_of(r) > 0);
    let mut others: Vec<usize> = Vec::new();
    for &p in army {
        if Some(p) != bishop && p != royal && Some(p) != rook && !others.contains(&p) {
            others.push(p);
        }
    }
    others.sort_by(|&a, &b| {
        v.pieces[b]
            .value
            .cmp(&v.pieces[a].value)
            .then(v.pieces[a].letter.cmp(&v.pieces[b].letter))
    });
    for p in others {
        out.push(Stage::Combination {
            piece: p,
            k: count_of(p),
        });
    }
    out.push(Stage::Rest {
        royal,
        rook,
        between: v.setup.king_between_rooks,
    });
    out
}

/// The distinct arrangements of the pieces left for the last stage, in lexicographic order.
fn rest_arrangements(
    v: &Variant,
    royal: usize,
    rook: Option<usize>,
    between: bool,
    n: usize,
) -> Vec<Vec<usize>> {
    let rooks = rook
        .map(|r| v.setup.army.iter().filter(|&&x| x == r).count())
        .unwrap_or(0);
    if rooks + 1 != n {
        return Vec::new();
    }
    let mut out = Vec::new();
    for kpos in 0..n {
        if between && (kpos == 0 || kpos == n - 1) {
            continue;
        }
        let mut a = vec![rook.unwrap_or(royal); n];
        a[kpos] = royal;
        out.push(a);
    }
    if between && rooks != 2 {
        return Vec::new();
    }
    out
}

fn combination_unrank(n: usize, k: usize, mut idx: u64) -> Vec<usize> {
    // lexicographic order of k-subsets of 0..n
    let mut out = Vec::with_capacity(k);
    let mut start = 0;
    for remaining in (1..=k).rev() {
        for x in start..n {
            let c = binomial(n - x - 1, remaining - 1);
            if idx < c {
                out.push(x);
                start = x + 1;
                break;
            }
            idx -= c;
        }
    }
    out
}

fn combination_rank(n: usize, chosen: &[usize]) -> u64 {
    let k = chosen.len();
    let mut idx = 0;
    let mut start = 0;
    for (i, &c) in chosen.iter().enumerate() {
        let remaining = k - i;
        for x in start..c {
            idx += binomial(n - x - 1, remaining - 1);
        }
        start = c + 1;
    }
    idx
}

/// Is the setup square (index within the setup files) dark for White?
fn is_dark(v: &Variant, idx: usize) -> bool {
    (v.setup.files.0 as usize + idx + v.setup.rank as usize).is_multiple_of(2)
}

fn width(v: &Variant) -> usize {
    (v.setup.files.1 - v.setup.files.0 + 1) as usize
}

/// Number of distinct back ranks for one side.
fn count_one_side(v: &Variant) -> u64 {
    checked_count_one_side(v).unwrap_or(u64::MAX)
}

/// `None` when the count does not fit in 64 bits (a wide army of distinct pieces).
fn checked_count_one_side(v: &Variant) -> Option<u64> {
    if !v.setup.random {
        return Some(1);
    }
    let w = width(v);
    let mut free = w;
    let mut total: u64 = 1;
    for st in stages(v) {
        match st {
            Stage::ColourBishop { dark, .. } => {
                let n = (0..w).filter(|&i| is_dark(v, i) == dark).count();
                total = total.checked_mul(n as u64)?;
                free = free.saturating_sub(1);
            }
            Stage::Combination { k, .. } => {
                total = total.checked_mul(binomial(free, k))?;
                free = free.saturating_sub(k);
            }
            Stage::Rest {
                royal,
                rook,
                between,
            } => {
                let n = rest_arrangements(v, royal, rook, between, free).len() as u64;
                total = total.checked_mul(n)?;
            }
        }
    }
    Some(total)
}

/// How many start positions the variant has (validated variants always fit in 64 bits).
pub fn count(v: &Variant) -> u64 {
    checked_count(v).unwrap_or(u64::MAX)
}

/// How many start positions the variant has; `None` when ids would not fit in 64 bits, which
/// validation reports as an error so that ids can always be numbered.
pub fn checked_count(v: &Variant) -> Option<u64> {
    let n = checked_count_one_side(v)?;
    if v.setup.symmetry == Symmetry::None && v.setup.random {
        n.checked_mul(n)
    } else {
        Some(n)
    }
}

fn side_from_id(v: &Variant, mut id: u64) -> Option<Vec<usize>> {
    if !v.setup.random {
        return (id == 0).then(|| v.setup.army.clone());
    }
    let w = width(v);
    let mut rank: Vec<Option<usize>> = vec![None; w];
    for st in stages(v) {
        let free: Vec<usize> = (0..w).filter(|&i| rank[i].is_none()).collect();
        match st {
            Stage::ColourBishop { piece, dark } => {
                let squares: Vec<usize> = free
                    .iter()
                    .copied()
                    .filter(|&i| is_dark(v, i) == dark)
                    .collect();
                let n = squares.len() as u64;
                if n == 0 {
                    return None;
                }
                rank[squares[(id % n) as usize]] = Some(piece);
                id /= n;
            }
            Stage::Combination { piece, k } => {
                let n = binomial(free.len(), k);
                if n == 0 {
                    return None;
                }
                for c in combination_unrank(free.len(), k, id % n) {
                    rank[free[c]] = Some(piece);
                }
                id /= n;
            }
            Stage::Rest {
                royal,
                rook,
                between,
            } => {
                let arr = rest_arrangements(v, royal, rook, between, free.len());
                let n = arr.len() as u64;
                if n == 0 {
                    return None;
                }
                for (j, &sq) in free.iter().enumerate() {
                    rank[sq] = Some(arr[(id % n) as usize][j]);
                }
                id /= n;
            }
        }
    }
    if id != 0 {
        return None;
    }
    rank.into_iter().collect()
}

fn side_to_id(v: &Variant, back: &[usize]) -> Option<u64> {
    if !v.setup.random {
        return (back == v.setup.army.as_slice()).then_some(0);
    }
    let w = width(v);
    let mut placed = vec![false; w];
    let mut id: u64 = 0;
    let mut mult: u64 = 1;
    for st in stages(v) {
        let free: Vec<usize> = (0..w).filter(|&i| !placed[i]).collect();
        match st {
            Stage::ColourBishop { piece, dark } => {
                let squares: Vec<usize> = free
                    .iter()
                    .copied()
                    .filter(|&i| is_dark(v, i) == dark)
                    .collect();
                let pos = squares.iter().position(|&i| back[i] == piece)?;
                placed[squares[pos]] = true;
                id += pos as u64 * mult;
                mult *= squares.len() as u64;
            }
            Stage::Combination { piece, k } => {
                let chosen: Vec<usize> = free
                    .iter()
                    .enumerate()
                    .filter(|(_, &i)| back[i] == piece)
                    .map(|(j, _)| j)
                    .collect();
                if chosen.len() != k {
                    return None;
                }
                for &c in &chosen {
                    placed[free[c]] = true;
                }
                id += combination_rank(free.len(), &chosen) * mult;
                mult *= binomial(free.len(), k);
            }
            Stage::Rest {
                royal,
                rook,
                between,
            } => {
                let arr = rest_arrangements(v, royal, rook, between, free.len());
                let mine: Vec<usize> = free.iter().map(|&i| back[i]).collect();
                let pos = arr.iter().position(|a| *a == mine)?;
                id += pos as u64 * mult;
                mult *= arr.len() as u64;
            }
        }
    }
    let _ = mult;
    Some(id)
}

/// A start position: White's and Black's back ranks (piece indices from the a-file of the setup
/// files, as each is seen from White's side of the board).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StartPosition {
    pub white: Vec<usize>,
    /// Black's pieces on its piece rank, listed from the a-side (file order on the board).
    pub black: Vec<usize>,
}

fn black_for(v: &Variant, white: &[usize]) -> Vec<usize> {
    match v.setup.symmetry {
        Symmetry::Reverse => white.iter().rev().copied().collect(),
        _ => white.to_vec(),
    }
}

/// The start position with this id.
///
/// # Errors
/// When the id is not below [`count`].
pub fn from_id(v: &Variant, id: u64) -> Result<StartPosition, String> {
    let total = count(v);
    if id >= total {
        return Err(format!(
            "id {id} is out of range: {} has {total} start positions (0..={})",
            v.short,
            total.saturating_sub(1)
        ));
    }
    if v.setup.symmetry == Symmetry::None && v.setup.random {
        let n = count_one_side(v);
        let white = side_from_id(v, id % n).ok_or("internal numbering error")?;
        let black = side_from_id(v, id / n).ok_or("internal numbering error")?;
        return Ok(StartPosition { white, black });
    }
    let white = side_from_id(v, id).ok_or("internal numbering error")?;
    let black = black_for(v, &white);
    Ok(StartPosition { white, black })
}

/// The id of a start position.
///
/// # Errors
/// When the back ranks break the variant's constraints.
pub fn to_id(v: &Variant, sp: &StartPosition) -> Result<u64, String> {
    check_back_rank(v, &sp.white)?;
    if v.setup.symmetry == Symmetry::None && v.setup.random {
        check_back_rank(v, &sp.black)?;
        let n = count_one_side(v);
        let w = side_to_id(v, &sp.white).ok_or("back rank has no id")?;
        let b = side_to_id(v, &sp.black).ok_or("back rank has no id")?;
        return Ok(w + n * b);
    }
    if sp.black != black_for(v, &sp.white) {
        return Err("Black's pieces do not follow the variant's symmetry".into());
    }
    side_to_id(v, &sp.white).ok_or_else(|| "back rank has no id".into())
}

/// Checks one side's back rank against the army and the placement rules.
///
/// # Errors
/// Names the first rule broken.
pub fn check_back_rank(v: &Variant, back: &[usize]) -> Result<(), String> {
    let w = width(v);
    if back.len() != w {
        return Err(format!(
            "{} pieces given, the setup files hold {w}",
            back.len()
        ));
    }
    let mut a = back.to_vec();
    let mut b = v.setup.army.clone();
    a.sort_unstable();
    b.sort_unstable();
    if a != b {
        let letters: String = v.setup.army.iter().map(|&i| v.pieces[i].letter).collect();
        return Err(format!("the pieces must be exactly the army {letters}"));
    }
    if !v.setup.random && back != v.setup.army.as_slice() {
        return Err("this variant has a fixed start position".into());
    }
    if let Some(bp) = bishop_piece(v) {
        if v.setup.bishops == BishopRule::Opposite {
            let sq: Vec<usize> = (0..w).filter(|&i| back[i] == bp).collect();
            if sq.len() == 2 && is_dark(v, sq[0]) == is_dark(v, sq[1]) {
                return Err("the bishops must stand on squares of opposite colours".into());
            }
        }
    }
    if v.setup.king_between_rooks {
        let royal = v.royal();
        let k = back.iter().position(|&p| p == royal).unwrap_or(0);
        if let Some(r) = rook_piece(v) {
            let left = back[..k].contains(&r);
            let right = back[k + 1..].contains(&r);
            if !(left && right) {
                return Err("the king must stand between the rooks".into());
            }
        }
    }
    Ok(())
}

/// Reads a back rank like `BQRMBNKNR` (White's pieces from the a-side). With
/// `symmetry = "none"` a second rank for Black may follow after `/`.
///
/// # Errors
/// Unknown letters, wrong length, or broken constraints.
pub fn parse_back_rank(v: &Variant, s: &str) -> Result<StartPosition, String> {
    let s = s.trim();
    let (w, b) = match s.split_once('/') {
        Some((w, b)) => (w, Some(b)),
        None => (s, None),
    };
    let read = |t: &str| -> Result<Vec<usize>, String> {
        t.chars()
            .enumerate()
            .map(|(i, c)| {
                let up = c.to_ascii_uppercase();
                v.piece_index(up)
                    .filter(|&ix| !v.pieces[ix].pawn)
                    .ok_or_else(|| {
                        format!(
                            "character {} `{c}` is not a piece letter of {} (pieces: {})",
                            i + 1,
                            v.short,
                            v.pieces.iter().map(|p| p.letter).collect::<String>()
                        )
                    })
            })
            .collect()
    };
    let white = read(w)?;
    check_back_rank(v, &white).map_err(|e| format!("setup `{w}`: {e}"))?;
    let black = match b {
        Some(b) if v.setup.symmetry == Symmetry::None => {
            let black = read(b)?;
            check_back_rank(v, &black).map_err(|e| format!("setup `{b}`: {e}"))?;
            black
        }
        Some(_) => {
            return Err("a separate Black rank is only allowed with symmetry = \"none\"".into())
        }
        None => black_for(v, &white),
    };
    Ok(StartPosition { white, black })
}

/// The back-rank string (`BQRMBNKNR`; `WHITE/black` without symmetry).
pub fn back_rank_string(v: &Variant, sp: &StartPosition) -> String {
    let w: String = sp.white.iter().map(|&i| v.pieces[i].letter).collect();
    if v.setup.symmetry == Symmetry::None && v.setup.random {
        let b: String = sp.black.iter().map(|&i| v.pieces[i].letter).collect();
        format!("{w}/{b}")
    } else {
        w
    }
}

/// The start position as a [`Setup`]: the back ranks (Black's by the variant's symmetry), the
/// pawns, castling rights (the outermost rook on each side of the king, as Shredder file
/// letters; none when the file requires the king between the rooks and it is not), and the
/// Bishop Adjustment rights when the side's adjusting pieces share a colour (or always, when
/// the variant does not require that).
pub fn start_setup(v: &Variant, sp: &StartPosition) -> Setup {
    let geo = Geometry::new(v.files, v.ranks);
    let mut setup = Setup::empty(v);
    let f0 = v.setup.files.0;
    let rank = [v.setup.rank, v.ranks - 1 - v.setup.rank];
    for colour in Colour::ALL {
        let back = back_rank_of(sp, colour);
        for (i, &p) in back.iter().enumerate() {
            let sq = geo.square(f0 + i as u8, rank[colour.index()]);
            setup.board[sq as usize] = Some(piece(colour, p));
        }
        setup.castling.extend(start_castling(v, back, colour));
        if start_adjustment(v, back, rank[colour.index()]) {
            for i in 0..back.len() {
                setup.adjustment[colour].set(geo.square(f0 + i as u8, rank[colour.index()]));
            }
        }
    }
    if let Some((pawn, pr)) = v.setup.pawn {
        for f in v.setup.files.0..=v.setup.files.1 {
            let white = geo.square(f, pr);
            let black = geo.square(f, v.ranks - 1 - pr);
            setup.board[white as usize] = Some(piece(Colour::White, pawn));
            setup.board[black as usize] = Some(piece(Colour::Black, pawn));
        }
    }
    setup
}

fn back_rank_of(sp: &StartPosition, colour: Colour) -> &[usize] {
    match colour {
        Colour::White => &sp.white,
        Colour::Black => &sp.black,
    }
}

fn piece(colour: Colour, kind: usize) -> Piece {
    Piece {
        colour,
        kind: PieceKind(kind as u8),
    }
}

/// The castling rights of one side's back rank: the outermost rook on each side of the king.
fn start_castling(v: &Variant, back: &[usize], colour: Colour) -> Vec<CastlingRight> {
    let Some(c) = &v.castling else {
        return Vec::new();
    };
    let Some(k) = back.iter().position(|&p| p == v.royal()) else {
        return Vec::new();
    };
    let left = back[..k].iter().position(|&p| p == c.rook);
    let right = back[k + 1..]
        .iter()
        .rposition(|&p| p == c.rook)
        .map(|x| x + k + 1);
    if c.king_between_rooks && (left.is_none() || right.is_none()) {
        return Vec::new();
    }
    [left, right]
        .into_iter()
        .flatten()
        .map(|x| CastlingRight {
            colour,
            rook: CastlingRook::File(v.setup.files.0 + x as u8),
        })
        .collect()
}

/// Does a side start with the Bishop Adjustment right?
fn start_adjustment(v: &Variant, back: &[usize], rank: u8) -> bool {
    let Some(a) = &v.adjustment else { return false };
    let f0 = v.setup.files.0 as usize;
    let colours: Vec<bool> = (0..back.len())
        .filter(|&i| back[i] == a.piece)
        .map(|i| (f0 + i + rank as usize).is_multiple_of(2))
        .collect();
    let same = colours.len() >= 2 && colours.iter().all(|&c| c == colours[0]);
    !a.same_colour_only || same
}

/// The FEN of a start position ([`start_setup`] as text).
pub fn start_fen(v: &Variant, sp: &StartPosition) -> String {
    start_setup(v, sp).to_fen(v)
}

/// A small deterministic generator for `--random --seed`, so a seed means the same position
/// on every machine.
pub fn random_id(v: &Variant, seed: u64) -> u64 {
    let mut z = seed.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^= z >> 31;
    z % count(v).max(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn combination_ranks_round_trip() {
        for n in 1..8 {
            for k in 0..=n {
                for i in 0..binomial(n, k) {
                    let c = combination_unrank(n, k, i);
                    assert_eq!(combination_rank(n, &c), i);
                }
            }
        }
    }
}
