//! Start positions: the [`Setup`] of a numbered start position.
//!
//! Counting, numbering, checking and reading start positions is data about the variant and
//! lives in `variant/numbering.rs` (re-exported here); this module builds the position:
//! the shuffled back ranks, a fixed placement (`setup.fen`) or the pawn rank, and the rights.

use crate::fen::{CastlingRight, CastlingRook, Setup};
use crate::geometry::Geometry;
use crate::piece::{Colour, Piece, PieceKind};
pub use crate::variant::numbering::{
    back_rank_string, check_back_rank, checked_count, count, from_id, parse_back_rank, random_id,
    to_id, NumberingError, StartPosition,
};
use crate::variant::Variant;

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
        if start_adjustment(v, back, rank[colour.index()]) {
            for i in 0..back.len() {
                setup.adjustment[colour].set(geo.square(f0 + i as u8, rank[colour.index()]));
            }
        }
    }
    for p in &v.setup.placement {
        let colour = if p.white {
            Colour::White
        } else {
            Colour::Black
        };
        setup.board[geo.square(p.file, p.rank) as usize] = Some(piece(colour, p.piece));
    }
    for colour in Colour::ALL {
        setup.castling.extend(start_castling(
            v,
            &geo,
            &setup,
            colour,
            rank[colour.index()],
        ));
    }
    // Without a fixed placement the pawns fill their rank on the setup files.
    if let Some((pawn, pr)) = v.setup.pawn.filter(|_| v.setup.placement.is_empty()) {
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

/// The castling rights of one side: on its piece rank, the outermost castling rook on each
/// side of the king (a fixed placement may put other pieces there too).
fn start_castling(
    v: &Variant,
    geo: &Geometry,
    setup: &Setup,
    colour: Colour,
    rank: u8,
) -> Vec<CastlingRight> {
    let Some(c) = &v.castling else {
        return Vec::new();
    };
    let is =
        |f: u8, kind: usize| setup.board[geo.square(f, rank) as usize] == Some(piece(colour, kind));
    let Some(k) = (0..v.files).find(|&f| is(f, v.royal())) else {
        return Vec::new();
    };
    let left = (0..k).find(|&f| is(f, c.rook));
    let right = (k + 1..v.files).rev().find(|&f| is(f, c.rook));
    if c.king_between_rooks && (left.is_none() || right.is_none()) {
        return Vec::new();
    }
    [left, right]
        .into_iter()
        .flatten()
        .map(|f| CastlingRight {
            colour,
            rook: CastlingRook::File(f),
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
