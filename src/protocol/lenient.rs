//! FENs as GUIs send them. XBoard, for one, hands an engine `setboard ... w KQ b7 0 1`: an en
//! passant square no pawn could have made, castling letters for rooks that are not there.
//! Stockfish, python-chess and shakmaty accept such a FEN and ignore what cannot be; protocol
//! sessions do the same through [`lenient_position`], saying what they dropped. The command
//! line stays strict ([`Position::from_fen`]).

use crate::position::{FenError, Position, PositionError};
use crate::rules::Rules;

/// A position read leniently, and a warning for every part of the FEN that was dropped.
#[derive(Clone, Debug)]
pub struct LenientFen {
    /// The position, with the rights that did not fit dropped.
    pub position: Position,
    /// One line per dropped part, worded for a GUI's log.
    pub warnings: Vec<String>,
}

/// Reads `fen`, ignoring an en passant square no capture could use and dropping castling
/// (and adjustment) rights that do not fit, each with a warning; `KQkq` mean the outermost
/// rooks, as everywhere. The reading is the library's [`Position::from_fen_lenient`]; this
/// only words the warnings for a GUI.
///
/// # Errors
/// Any other fault of the FEN (placement, side, kings, clocks), as [`Position::from_fen`].
pub fn lenient_position(rules: &Rules, fen: &str) -> Result<LenientFen, FenError> {
    let (position, dropped) = Position::from_fen_lenient(rules, fen)?;
    let warnings = dropped.iter().map(warning).collect();
    Ok(LenientFen { position, warnings })
}

fn warning(e: &PositionError) -> String {
    match e {
        PositionError::Castling { letter, .. } => {
            format!("castling right `{letter}` dropped: {e}")
        }
        PositionError::InvalidEpSquare { square } => {
            format!("en passant square `{square}` ignored: {e}")
        }
        other => format!("{} right dropped: {other}", other.fen_field()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog;
    use crate::piece::Colour;

    #[test]
    fn impossible_en_passant_square_is_ignored() {
        let rules = catalog::load_rules("chess").unwrap();
        let fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq b7 0 1";
        assert!(Position::from_fen(&rules, fen).is_err());
        let got = lenient_position(&rules, fen).unwrap();
        assert_eq!(got.position.ep_square(), None);
        assert_eq!(got.warnings.len(), 1, "{:?}", got.warnings);
        assert!(
            got.warnings[0].contains("`b7` ignored"),
            "{:?}",
            got.warnings
        );
    }

    #[test]
    fn kqkq_mean_the_outermost_rooks_and_bad_letters_are_dropped() {
        let rules = catalog::load_rules("mrc").unwrap();
        // Rooks on b1 and i1 for White, a9 and h9 for Black; kings on g1 and c9.
        let fen = "rmknbqbrn/ppppppppp/9/9/9/9/9/PPPPPPPPP/NRBQBNKMR w KQkq - 0 1";
        let got = lenient_position(&rules, fen).unwrap();
        assert!(got.warnings.is_empty(), "{:?}", got.warnings);
        let g = &rules.geo;
        let w = got.position.castling_rooks(Colour::White);
        let b = got.position.castling_rooks(Colour::Black);
        assert_eq!(w, [g.parse_square("b1"), g.parse_square("i1")]);
        assert_eq!(b, [g.parse_square("a9"), g.parse_square("h9")]);
        // `C` names no rook: dropped with a warning, the rest kept.
        let fen = "rmknbqbrn/ppppppppp/9/9/9/9/9/PPPPPPPPP/NRBQBNKMR w KCah - 0 1";
        assert!(Position::from_fen(&rules, fen).is_err());
        let got = lenient_position(&rules, fen).unwrap();
        assert_eq!(got.warnings.len(), 1, "{:?}", got.warnings);
        assert!(got.warnings[0].starts_with("castling right `C` dropped"));
        assert_eq!(
            got.position.castling_rooks(Colour::White)[1],
            g.parse_square("i1")
        );
        assert_eq!(got.position.castling_rooks(Colour::Black), b);
    }

    #[test]
    fn other_faults_stay_errors() {
        let rules = catalog::load_rules("chess").unwrap();
        let e = lenient_position(&rules, "8/8/8 w - - 0 1").unwrap_err();
        assert_eq!(e.field, "placement");
        let e = lenient_position(&rules, "4k3/8/8/8/8/8/8/4K3 x - - 0 1").unwrap_err();
        assert_eq!(e.field, "side");
    }
}
