//! What XBoard's own legality testing accepts, so that a game in XBoard is not forfeited for
//! a move that is legal in our rules but not in XBoard's.
//!
//! From XBoard 4.9's source (`moves.c`, `GenLegal`; `backend.c`, `ParseFEN`/`ApplyMove`): in
//! a variant it plays from an engine's `setup` (`fairy`), XBoard reads castling rights only as
//! `KQkq` (file letters only in Fischer-Random mode, which puts the king on the c- or
//! second-last file: wrong for boards of 9 or 10 files) and generates castling only in the
//! orthodox shape: the king on file `W/2` or `(W-1)/2` of a board `W` files wide moves
//! `(W+2)/4` squares toward a rook standing in the corner, and the rook lands beside it on the
//! inner side. A `piece` line with Betza's `O` atom has the same shape (a fixed distance toward
//! the corner piece). XBoard knows no swap of two own pieces while castling rights exist, so
//! the Bishop Adjustment cannot be tested either.
//!
//! So with legality testing on, a game can keep exactly the castlings that have this shape in
//! our rules too (which ones depends on the start position, never on the variant's name), and
//! no Bishop Adjustment. [`gui_checkable`] removes the others from a position.

use crate::piece::Colour;
use crate::position::Position;
use crate::rules::Rules;

/// Does castling of `colour` to `side` (0: a-side, 1: the other) in `pos` move king and rook
/// exactly as XBoard's orthodox castling would?
pub fn xboard_castles_alike(rules: &Rules, pos: &Position, colour: Colour, side: usize) -> bool {
    let g = &rules.geo;
    let Some(rook) = pos.castling_rooks(colour)[side] else {
        return false;
    };
    let Some((king_to, rook_to)) = rules.castle_targets(colour, side) else {
        return false;
    };
    let w = g.files as i32;
    let kf = g.file(pos.king_square(colour)) as i32;
    if kf != w / 2 && kf != (w - 1) / 2 {
        return false;
    }
    let dist = (w + 2) / 4;
    let (corner, king_file, rook_file) = if side == 1 {
        (w - 1, kf + dist, kf + dist - 1)
    } else {
        (0, kf - dist, kf - dist + 1)
    };
    g.file(rook) as i32 == corner
        && g.file(king_to) as i32 == king_file
        && g.file(rook_to) as i32 == rook_file
}

/// `pos` with only the rights XBoard can test: castlings of the orthodox shape (written
/// `KQkq`, which XBoard reads as the corner rooks) and no Bishop Adjustment. The second value
/// lists what was removed, for a note to the user.
pub fn gui_checkable(rules: &Rules, pos: &Position) -> (Position, Vec<String>) {
    let mut letters = String::new();
    let mut dropped = Vec::new();
    for colour in Colour::ALL {
        for side in [1, 0] {
            if pos.castling_rooks(colour)[side].is_none() {
                continue;
            }
            let name = colour.name();
            let wing = ["a-side", "other side"][side];
            if xboard_castles_alike(rules, pos, colour, side) {
                let l = ['K', 'Q'][1 - side];
                letters.push(if colour == Colour::White {
                    l
                } else {
                    l.to_ascii_lowercase()
                });
            } else {
                dropped.push(format!("{name} castling {wing}"));
            }
        }
    }
    if Colour::ALL
        .iter()
        .any(|&c| !pos.adjust_rights(c).is_empty())
    {
        dropped.push("Bishop Adjustment".to_string());
    }
    let six = pos.fen_six(rules);
    let mut f: Vec<&str> = six.split(' ').collect();
    if letters.is_empty() {
        letters.push('-');
    }
    if f.len() > 2 {
        f[2] = &letters;
    }
    match Position::from_fen(rules, &f.join(" ")) {
        Ok(p) => (p, dropped),
        // Cannot happen (the letters name rooks that are there); keep the position as it was.
        Err(_) => (pos.clone(), Vec::new()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog;
    use crate::piece::Colour;
    use crate::protocol::{choose_start, StartChoice};

    fn start(variant: &str, back: &str) -> (Rules, Position) {
        let rules = catalog::load_rules(variant).unwrap();
        let (_, fen) = choose_start(&rules, &StartChoice::parse(back), 0).unwrap();
        let pos = Position::from_fen(&rules, &fen).unwrap();
        (rules, pos)
    }

    #[test]
    fn orthodox_arrangement_keeps_both_castlings() {
        // MRC: K c, R d and K g, R f from a king on e with corner rooks, as XBoard does.
        let (rules, pos) = start("mrc", "RNBMKQBNR");
        let (p, dropped) = gui_checkable(&rules, &pos);
        assert_eq!(dropped, vec!["Bishop Adjustment".to_string()]);
        assert_eq!(p.fen(&rules).split(' ').nth(2), Some("AIai"));
        assert!(p.adjust_rights(Colour::White).is_empty());
    }

    #[test]
    fn other_castlings_are_dropped() {
        // King on g1, rooks b1 and i1: MRC's K c/R d and K g/R f are not XBoard's moves.
        let (rules, pos) = start("mrc", "NRBQBNKMR");
        let (p, dropped) = gui_checkable(&rules, &pos);
        assert!(
            dropped.contains(&"White castling a-side".to_string()),
            "{dropped:?}"
        );
        assert!(dropped.contains(&"White castling other side".to_string()));
        assert_eq!(p.castling_rooks(Colour::White), [None, None]);
        // MRC64: king on e1, rooks a1 and h1: the h-side (K g, R f) is XBoard's O-O, the
        // a-side (K b, R c) is not its O-O-O (K c, R d).
        let (rules, pos) = start("mrc64", "RNBQKBNR");
        let (p, _) = gui_checkable(&rules, &pos);
        let g = &rules.geo;
        assert_eq!(
            p.castling_rooks(Colour::White),
            [None, g.parse_square("h1")]
        );
    }
}
