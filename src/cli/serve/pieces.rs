//! How the page draws each piece of a variant.
//!
//! The vendored board has images for the six orthodox pieces. A piece gets one of them only
//! when it moves like that piece (its Betza string, or being the variant's pawn), whatever its
//! letter; every other piece (the minister, the chancellor, ...) is drawn by the page as its
//! letter from the variant file.

use super::assets::VENDOR;
use super::variants::Entry;
use modern_chess::variant::PieceDef;
use serde_json::{json, Value};

/// The orthodox image that shows this piece's moves, if any.
fn orthodox_image(p: &PieceDef) -> Option<char> {
    if p.pawn {
        return Some('P');
    }
    let image = match p.betza.as_str() {
        "K" | "WF" | "FW" if p.royal => 'K',
        "Q" | "RB" | "BR" => 'Q',
        "R" | "WW" => 'R',
        "B" | "FF" => 'B',
        "N" => 'N',
        _ => return None,
    };
    Some(image)
}

/// The pieces of a variant as the page needs them: letter, name, the chessgroundx role
/// (`m-piece` for the letter M) and image URLs per colour, or `null` for a letter glyph.
pub fn describe(entry: &Entry) -> Value {
    let v = entry.rules.variant();
    let promotions: Vec<char> = entry
        .rules
        .promotion_to()
        .iter()
        .map(|&t| v.pieces()[t].letter)
        .collect();
    let list: Vec<Value> = v
        .pieces()
        .iter()
        .map(|p| {
            let image = orthodox_image(p).map(|c| {
                json!({
                    "white": format!("/{VENDOR}/pieces/w{c}.svg"),
                    "black": format!("/{VENDOR}/pieces/b{c}.svg"),
                })
            });
            json!({
                "letter": p.letter.to_string(),
                "name": p.name,
                "role": format!("{}-piece", p.letter.to_ascii_lowercase()),
                "image": image,
                "royal": p.royal,
                "promotion": promotions.contains(&p.letter),
            })
        })
        .collect();
    Value::Array(list)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn piece(betza: &str, royal: bool, pawn: bool) -> PieceDef {
        PieceDef {
            letter: 'X',
            name: "x".into(),
            betza: betza.into(),
            atoms: Vec::new(),
            royal,
            pawn,
            value: 0,
            figurine: None,
        }
    }

    #[test]
    fn images_follow_the_moves_not_the_letter() {
        assert_eq!(orthodox_image(&piece("N", false, false)), Some('N'));
        assert_eq!(orthodox_image(&piece("K", true, false)), Some('K'));
        assert_eq!(orthodox_image(&piece("K", false, false)), None);
        assert_eq!(orthodox_image(&piece("BN", false, false)), None);
        assert_eq!(orthodox_image(&piece("RN", false, false)), None);
        assert_eq!(orthodox_image(&piece("fmWfceF", false, true)), Some('P'));
    }
}
