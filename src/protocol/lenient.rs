//! FENs as GUIs send them. XBoard, for one, hands an engine `setboard ... w KQ b7 0 1`: an en
//! passant square no pawn could have made, castling letters for rooks that are not there.
//! Stockfish, python-chess and shakmaty accept such a FEN and ignore what cannot be; protocol
//! sessions do the same through [`lenient_position`], saying what they dropped. The command
//! line stays strict ([`Position::from_fen`]).

use crate::position::{FenError, Position};
use crate::rules::Rules;

/// A position read leniently, and a warning for every part of the FEN that was dropped.
#[derive(Clone, Debug)]
pub struct LenientFen {
    pub position: Position,
    pub warnings: Vec<String>,
}

/// Reads `fen`, ignoring an en passant square no capture could use and dropping castling
/// letters that name no castling rook (each with a warning). `KQkq` mean the outermost rooks,
/// as everywhere.
///
/// # Errors
/// Any other fault of the FEN (placement, side, kings, clocks), as [`Position::from_fen`].
pub fn lenient_position(rules: &Rules, fen: &str) -> Result<LenientFen, FenError> {
    let mut fields: Vec<String> = fen.split_whitespace().map(str::to_string).collect();
    let mut warnings = Vec::new();
    match Position::from_fen(rules, fen) {
        Ok(position) => return Ok(LenientFen { position, warnings }),
        Err(e) if e.field != "castling" && e.field != "en passant" => return Err(e),
        Err(_) => {}
    }
    if fields.len() > 2 && fields[2] != "-" {
        let letters: Vec<char> = fields[2].chars().collect();
        let mut kept = String::new();
        for ch in letters {
            let trial = with_field(&fields, 2, &format!("{kept}{ch}"), Some("-"));
            match Position::from_fen(rules, &trial) {
                Err(e) if e.field == "castling" => {
                    warnings.push(format!("castling right `{ch}` dropped: {}", e.message))
                }
                _ => kept.push(ch),
            }
        }
        fields[2] = if kept.is_empty() { "-".into() } else { kept };
    }
    let joined = fields.join(" ");
    match Position::from_fen(rules, &joined) {
        Ok(position) => Ok(LenientFen { position, warnings }),
        Err(e) if e.field == "en passant" => {
            warnings.push(format!(
                "en passant square `{}` ignored: {}",
                fields[3], e.message
            ));
            let position = Position::from_fen(rules, &with_field(&fields, 3, "-", None))?;
            Ok(LenientFen { position, warnings })
        }
        Err(e) => Err(e),
    }
}

/// `fields` with field `i` replaced (and, when given, the en passant field too).
fn with_field(fields: &[String], i: usize, value: &str, ep: Option<&str>) -> String {
    let mut f = fields.to_vec();
    if let Some(slot) = f.get_mut(i) {
        *slot = value.to_string();
    }
    if let (Some(ep), Some(slot)) = (ep, f.get_mut(3)) {
        *slot = ep.to_string();
    }
    f.join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog;

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
        let w = got.position.castling_rooks(0);
        let b = got.position.castling_rooks(1);
        assert_eq!(w, [g.parse_square("b1"), g.parse_square("i1")]);
        assert_eq!(b, [g.parse_square("a9"), g.parse_square("h9")]);
        // `C` names no rook: dropped with a warning, the rest kept.
        let fen = "rmknbqbrn/ppppppppp/9/9/9/9/9/PPPPPPPPP/NRBQBNKMR w KCah - 0 1";
        assert!(Position::from_fen(&rules, fen).is_err());
        let got = lenient_position(&rules, fen).unwrap();
        assert_eq!(got.warnings.len(), 1, "{:?}", got.warnings);
        assert!(got.warnings[0].starts_with("castling right `C` dropped"));
        assert_eq!(got.position.castling_rooks(0)[1], g.parse_square("i1"));
        assert_eq!(got.position.castling_rooks(1), b);
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
