//! How XBoard writes what we write: piece pictures (`setup` and `piece` lines), moves and FENs
//! (0-based rank numbers on boards with ten or more ranks, castling as the king's move).

use super::super::{parse_coord, CoordError};
use crate::piece::Colour;
use crate::position::{Move, MoveKind, Position};
use crate::rules::Rules;

/// XBoard's built-in piece order (the slots of the PIECETOCHAR string), with the Betza of the
/// piece it draws in each slot; the king is last.
const SLOTS: [&str; 22] = [
    "P", "N", "B", "R", "Q", "F", "A", "BN", "RN", "W", "K", "", "", "", "", "", "", "", "", "",
    "", "K",
];
const PAWN_BETZA: &str = "fmWfceFifmnD";

/// Where each piece type is drawn: its slot in XBoard's built-in piece order (`SLOTS`).
pub fn piece_slots(rules: &Rules) -> Vec<usize> {
    let mut used = [false; 22];
    let mut slot = vec![usize::MAX; rules.n_types];
    let norm = |b: &str| -> String {
        match b {
            "RB" | "BR" => "Q".into(),
            "NB" => "BN".into(),
            "NR" => "RN".into(),
            x => x.to_string(),
        }
    };
    // Pawn and king first: their slots are fixed.
    for (t, p) in rules.variant.pieces.iter().enumerate() {
        let s = if p.royal {
            21
        } else if p.pawn {
            0
        } else {
            continue;
        };
        if !used[s] {
            used[s] = true;
            slot[t] = s;
        }
    }
    for (t, p) in rules.variant.pieces.iter().enumerate() {
        if slot[t] != usize::MAX {
            continue;
        }
        let b = norm(&p.betza);
        let want = (1..11).find(|&s| SLOTS[s] == b && !used[s]);
        let s = want
            .or_else(|| (11..21).find(|&s| !used[s]))
            .or_else(|| (1..21).find(|&s| !used[s]));
        if let Some(s) = s {
            used[s] = true;
            slot[t] = s;
        }
    }
    slot
}

/// `setup (PNBRQ..M.............Kpnbrq..m.............k) 9x9+0_fairy FEN` and the `piece`
/// lines for every piece that is not drawn by an orthodox picture with orthodox moves.
pub fn setup_lines(rules: &Rules, fen: &str) -> Vec<String> {
    let slots = piece_slots(rules);
    let mut white = ['.'; 22];
    for (t, &s) in slots.iter().enumerate() {
        if s < 22 {
            white[s] = rules.variant.pieces[t].letter;
        }
    }
    let w: String = white.iter().collect();
    let b = w.to_ascii_lowercase();
    let mut out = vec![format!(
        "setup ({w}{b}) {}x{}+0_fairy {}",
        rules.geo.files, rules.geo.ranks, fen
    )];
    for (t, p) in rules.variant.pieces.iter().enumerate() {
        let s = slots[t];
        let orthodox = match s {
            0 => p.betza == PAWN_BETZA,
            1..=4 => SLOTS[s] == p.betza || (s == 4 && p.betza == "RB"),
            21 => p.betza == "K",
            _ => false,
        };
        if !orthodox {
            out.push(format!("piece {}& {}", p.letter, p.betza));
        }
    }
    out
}

/// Do squares on this board use XBoard's 0-based rank numbers?
fn zero_based(rules: &Rules) -> bool {
    rules.geo.ranks >= 10
}

/// Adds `delta` to every rank number (a digit run after a file letter) in `s`.
fn shift_ranks(s: &str, delta: i32) -> String {
    let mut out = String::new();
    let chars: Vec<char> = s.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        out.push(c);
        i += 1;
        if c.is_ascii_lowercase() && i < chars.len() && chars[i].is_ascii_digit() {
            let start = i;
            while i < chars.len() && chars[i].is_ascii_digit() {
                i += 1;
            }
            let n: String = chars[start..i].iter().collect();
            match n.parse::<i32>() {
                Ok(v) => out.push_str(&(v + delta).to_string()),
                Err(_) => out.push_str(&n),
            }
        }
    }
    out
}

/// A move as XBoard writes it.
pub fn move_to_xboard(rules: &Rules, m: Move) -> String {
    let coords = match m.kind {
        MoveKind::Castle { side } => match castle_king_move(rules, m, side as usize) {
            Some(text) => text,
            None => return castle_san(rules, m, side as usize).into(),
        },
        _ => m.uci(rules),
    };
    if zero_based(rules) {
        shift_ranks(&coords, -1)
    } else {
        coords
    }
}

/// A castling as the king's own move (`e1g1`), which XBoard reads as castling whenever the
/// king moves two or more files along its rank: with legality testing it must be one of the
/// castlings XBoard generates, without it XBoard moves the nearest piece beyond the king to
/// the king's inner side, as our castling does. `None` when the king moves less than two
/// files (the text would be an ordinary king move).
fn castle_king_move(rules: &Rules, m: Move, side: usize) -> Option<String> {
    let g = &rules.geo;
    let king_file = rules.castle_sides()?[side].king_file;
    let from_file = g.file(m.from);
    if from_file.abs_diff(king_file) < 2 {
        return None;
    }
    let to = g.square(king_file, g.rank(m.from));
    Some(format!("{}{}", g.square_name(m.from), g.square_name(to)))
}

/// `O-O` or `O-O-O` as XBoard's parser reads them: with the king on file `(W-1)/2` (the d-file
/// of eight files, the e-file of nine) it takes them as "wild" castlings, `O-O` toward the
/// a-side; elsewhere `O-O` goes toward the other side.
fn castle_san(rules: &Rules, m: Move, side: usize) -> &'static str {
    let g = &rules.geo;
    let wild = g.file(m.from) as usize == (g.files as usize - 1) / 2;
    if (side == 1) != wild {
        "O-O"
    } else {
        "O-O-O"
    }
}

/// Reads a move as XBoard writes it.
pub fn move_from_xboard(rules: &Rules, pos: &Position, text: &str) -> Result<Move, CoordError> {
    let std = if zero_based(rules) && !text.starts_with(['O', 'o', '0']) {
        shift_ranks(text, 1)
    } else {
        text.to_string()
    };
    parse_coord(rules, pos, &std)
}

/// Our FEN for XBoard: six fields, castling rights as `KQkq` where the letter names the
/// outermost rook on its side (the only letters XBoard reads outside Fischer-Random mode), en
/// passant square in its numbering.
pub fn fen_to_xboard(rules: &Rules, pos: &Position) -> String {
    let fen = pos.fen_six(rules);
    let mut f: Vec<String> = fen.split(' ').map(str::to_string).collect();
    if f.len() > 2 && f[2] != "-" {
        f[2] = castling_letters(rules, pos);
    }
    if zero_based(rules) && f.len() > 3 && f[3] != "-" {
        f[3] = shift_ranks(&f[3], -1);
    }
    f.join(" ")
}

/// `KQkq` for castling rooks that are the outermost on their side of the king, the file
/// letter (Shredder-FEN) for the others.
fn castling_letters(rules: &Rules, pos: &Position) -> String {
    let g = &rules.geo;
    let mut s = String::new();
    for colour in Colour::ALL {
        let king = g.file(pos.king_square(colour));
        let rank = g.rank(pos.king_square(colour));
        for side in [1, 0] {
            let Some(rook) = pos.castling_rooks(colour)[side] else {
                continue;
            };
            let rook_t = rules.castle_rook;
            let outer: Vec<u8> = (0..g.files)
                .filter(|&f| if side == 1 { f > king } else { f < king })
                .filter(|&f| {
                    rook_t.is_some_and(|t| pos.pieces_of(colour, t).has(g.square(f, rank)))
                })
                .collect();
            let outermost = if side == 1 {
                outer.last()
            } else {
                outer.first()
            };
            let letter = if outermost == Some(&g.file(rook)) {
                ['Q', 'K'][side]
            } else {
                (b'A' + g.file(rook)) as char
            };
            s.push(if colour == Colour::White {
                letter
            } else {
                letter.to_ascii_lowercase()
            });
        }
    }
    s
}

/// A FEN as XBoard writes it turned into ours: on boards with ten or more ranks XBoard counts
/// ranks from 0, so the en passant square's rank is renumbered from 1.
pub fn fen_from_xboard(rules: &Rules, fen: &str) -> String {
    if !zero_based(rules) {
        return fen.to_string();
    }
    let mut f: Vec<String> = fen.split_whitespace().map(str::to_string).collect();
    if f.len() > 3 && f[3] != "-" {
        f[3] = shift_ranks(&f[3], 1);
    }
    f.join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog;
    use crate::protocol::{choose_start, StartChoice};

    #[test]
    fn minister_is_drawn_as_the_archbishop() {
        let rules = catalog::load_rules("mrc").unwrap();
        let lines = setup_lines(&rules, "FEN");
        assert_eq!(
            lines[0],
            "setup (PNBRQ..M.............Kpnbrq..m.............k) 9x9+0_fairy FEN"
        );
        assert_eq!(lines[1..], ["piece M& BN".to_string()]);
        let chess = catalog::load_rules("chess").unwrap();
        assert_eq!(setup_lines(&chess, "F").len(), 1);
        assert!(setup_lines(&chess, "F")[0].contains(" 8x8+0_fairy F"));
    }

    #[test]
    fn ten_rank_boards_count_ranks_from_zero() {
        let rules = catalog::load_rules("merc").unwrap();
        let fen = "10/1rnbqkbnr1/pppppppppp/10/10/10/10/PPPPPPPPPP/1RNBKQBNR1/10 w - - 0 1";
        let pos = Position::from_fen(&rules, fen).unwrap();
        // XBoard's e2e4 on MERC is our e3e5: the pawns stand on the third rank.
        let m = move_from_xboard(&rules, &pos, "e2e4").unwrap();
        assert_eq!(m.uci(&rules), "e3e5");
        assert_eq!(move_to_xboard(&rules, m), "e2e4");
        let after = pos.play(&rules, m).unwrap();
        let black = move_from_xboard(&rules, &after, "d7d5").unwrap();
        let after = after.play(&rules, black).unwrap();
        let white = move_from_xboard(&rules, &after, "e4e5").unwrap();
        let after = after.play(&rules, white).unwrap();
        let push = move_from_xboard(&rules, &after, "f7f5").unwrap();
        let after = after.play(&rules, push).unwrap();
        let xfen = fen_to_xboard(&rules, &after);
        assert!(xfen.contains(" f6 "), "{xfen}");
        assert_eq!(fen_from_xboard(&rules, &xfen), after.fen_six(&rules));
        assert!(after.fen_six(&rules).contains(" f7 "));
    }

    #[test]
    fn nine_rank_boards_keep_their_numbers() {
        let rules = catalog::load_rules("mrc").unwrap();
        let (_, fen) = choose_start(&rules, &StartChoice::Id(6944), 0).unwrap();
        let pos = Position::from_fen(&rules, &fen).unwrap();
        let m = move_from_xboard(&rules, &pos, "e2e4").unwrap();
        assert_eq!(move_to_xboard(&rules, m), "e2e4");
    }

    /// Our castlings, written the way XBoard reads them back as the same castling.
    fn castlings(variant: &str, fen: &str) -> Vec<String> {
        let rules = catalog::load_rules(variant).unwrap();
        let pos = Position::from_fen(&rules, fen).unwrap();
        let mut out: Vec<String> = pos
            .legal_moves(&rules)
            .iter()
            .filter(|m| matches!(m.kind, MoveKind::Castle { .. }))
            .map(|&m| {
                let text = move_to_xboard(&rules, m);
                assert_eq!(move_from_xboard(&rules, &pos, &text), Ok(m), "{text}");
                text
            })
            .collect();
        out.sort();
        out
    }

    #[test]
    fn castling_is_written_as_the_kings_move() {
        // Nine files: XBoard would read `O-O` from the e-file as the wild castling to b1.
        let mrc = castlings("mrc", "r3k3r/9/9/9/9/9/9/9/R3K3R w KQkq - 0 1");
        assert_eq!(mrc, ["e1c1", "e1g1"]);
        // Ten ranks: XBoard's rank numbers start at 0.
        let merc = castlings("merc", "10/r4k3r/10/10/10/10/10/10/R4K3R/10 w KQkq - 0 1");
        assert_eq!(merc, ["f1c1", "f1h1"]);
    }

    #[test]
    fn castling_by_one_file_names_the_side_as_xboard_reads_it() {
        let rules = catalog::load_rules("mrc").unwrap();
        let g = &rules.geo;
        let e1 = g.parse_square("e1").unwrap();
        let m = |side| Move::new(e1, e1, MoveKind::Castle { side });
        // From the e-file of nine files XBoard's `O-O` is the a-side castling.
        assert_eq!(castle_san(&rules, m(0), 0), "O-O");
        assert_eq!(castle_san(&rules, m(1), 1), "O-O-O");
        let chess = catalog::load_rules("chess").unwrap();
        assert_eq!(castle_san(&chess, m(1), 1), "O-O");
    }
}
