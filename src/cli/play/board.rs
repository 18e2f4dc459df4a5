//! Drawing the board: file letters and rank numbers, the last move and a checked king marked,
//! colours only on a terminal.
//!
//! Colours are chosen for legibility, not looks alone: white pieces are drawn in white and
//! black pieces in black on every square, so each square colour needs a luminance that gives
//! both at least the 4.5:1 contrast WCAG asks of text. That window is narrow (relative
//! luminance about 0.175-0.183), so light and dark squares differ in hue (grey and green)
//! rather than brightness; the unit test measures every pair from the RGB values. With
//! `--figurines` the two sides also keep distinct shapes (outlined White, solid Black).

use modern_chess::Game;
use modern_chess::MoveKind;
use modern_chess::Rules;

/// How the board is drawn.
#[derive(Clone, Copy, Debug)]
pub struct View {
    pub colour: bool,
    pub figurines: bool,
    pub flipped: bool,
}

/// An xterm 256-colour palette entry with its RGB value (what the contrast test measures).
#[derive(Clone, Copy, Debug)]
pub struct Paint {
    pub index: u8,
    /// What the palette entry shows; read by the contrast test.
    #[cfg_attr(not(test), allow(dead_code))]
    pub rgb: (u8, u8, u8),
}

pub const WHITE_PIECE: Paint = Paint {
    index: 231,
    rgb: (255, 255, 255),
};
pub const BLACK_PIECE: Paint = Paint {
    index: 16,
    rgb: (0, 0, 0),
};
pub const LIGHT_SQUARE: Paint = Paint {
    index: 243,
    rgb: (118, 118, 118),
};
pub const DARK_SQUARE: Paint = Paint {
    index: 29,
    rgb: (0, 135, 95),
};
pub const LAST_MOVE: Paint = Paint {
    index: 98,
    rgb: (135, 95, 215),
};
pub const CHECK: Paint = Paint {
    index: 131,
    rgb: (175, 95, 95),
};

/// Every background a piece can stand on.
#[cfg(test)]
const BACKGROUNDS: [Paint; 4] = [LIGHT_SQUARE, DARK_SQUARE, LAST_MOVE, CHECK];

/// The Unicode figurine of a piece, when chess has one: outlined for White, solid for Black.
pub fn figurine(rules: &Rules, t: usize, colour: usize) -> Option<char> {
    let def = &rules.variant().pieces()[t];
    if let Some(f) = &def.figurine {
        let chars: Vec<char> = f.chars().collect();
        return match chars.len() {
            0 => None,
            1 => Some(chars[0]),
            _ => Some(chars[colour.min(chars.len() - 1)]),
        };
    }
    let white = match def.letter {
        'K' => '\u{2654}',
        'Q' => '\u{2655}',
        'R' => '\u{2656}',
        'B' => '\u{2657}',
        'N' => '\u{2658}',
        'P' => '\u{2659}',
        _ => return None,
    };
    // The black figurines follow the white ones at a distance of six.
    char::from_u32(white as u32 + 6 * colour as u32)
}

fn piece_char(rules: &Rules, view: View, t: usize, c: usize) -> char {
    if view.figurines {
        if let Some(f) = figurine(rules, t, c) {
            return f;
        }
    }
    rules.letter(modern_chess::Colour::from_index(c), t)
}

/// The squares to mark as the last move (both ends, and the castling destinations).
fn last_move_squares(rules: &Rules, game: &Game) -> Vec<u8> {
    let Some(&m) = game.moves().last() else {
        return Vec::new();
    };
    let prev = &game.positions()[game.positions().len() - 2];
    let mut v = vec![m.from, m.to];
    if let MoveKind::Castle { side } = m.kind {
        if let Some((k, r)) = rules.castle_targets(prev.side_to_move(), side as usize) {
            v.extend([k, r]);
        }
    }
    v
}

/// The board as text, White at the bottom unless flipped.
pub fn draw(rules: &Rules, game: &Game, view: View) -> String {
    let geo = &rules.geo();
    let pos = game.current();
    let last = last_move_squares(rules, game);
    let check_sq = pos
        .in_check(rules)
        .then(|| pos.king_square(pos.side_to_move()));
    let mut ranks: Vec<u8> = (0..geo.ranks).rev().collect();
    let mut files: Vec<u8> = (0..geo.files).collect();
    if view.flipped {
        ranks.reverse();
        files.reverse();
    }
    let mut s = String::new();
    for &r in &ranks {
        s.push_str(&format!("{:>2} ", r + 1));
        for &f in &files {
            let sq = geo.square(f, r);
            let piece = pos
                .piece_at(sq)
                .map(|p| (p.kind.index(), p.colour.index()))
                .map(|(t, c)| (piece_char(rules, view, t, c), c));
            if view.colour {
                let bg = if check_sq == Some(sq) {
                    CHECK
                } else if last.contains(&sq) {
                    LAST_MOVE
                } else if geo.is_dark(sq) {
                    DARK_SQUARE
                } else {
                    LIGHT_SQUARE
                };
                s.push_str(&coloured_square(bg, piece));
            } else {
                s.push(piece.map_or('.', |p| p.0));
                s.push(' ');
            }
        }
        s.push_str(&format!("{:>2}\n", r + 1));
    }
    s.push_str("   ");
    for &f in &files {
        let ch = (b'a' + f) as char;
        s.push_str(&if view.colour {
            format!(" {ch} ")
        } else {
            format!("{ch} ")
        });
    }
    s.push('\n');
    s
}

fn coloured_square(bg: Paint, piece: Option<(char, usize)>) -> String {
    match piece {
        Some((ch, c)) => {
            let fg = if c == 0 { WHITE_PIECE } else { BLACK_PIECE };
            format!("\x1b[48;5;{};38;5;{};1m {ch} \x1b[0m", bg.index, fg.index)
        }
        None => format!("\x1b[48;5;{}m   \x1b[0m", bg.index),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// WCAG relative luminance of an sRGB colour.
    fn luminance(rgb: (u8, u8, u8)) -> f64 {
        let lin = |c: u8| {
            let c = f64::from(c) / 255.0;
            if c <= 0.039_28 {
                c / 12.92
            } else {
                ((c + 0.055) / 1.055).powf(2.4)
            }
        };
        0.2126 * lin(rgb.0) + 0.7152 * lin(rgb.1) + 0.0722 * lin(rgb.2)
    }

    /// WCAG contrast ratio of two colours (1 to 21).
    fn contrast(a: (u8, u8, u8), b: (u8, u8, u8)) -> f64 {
        let (la, lb) = (luminance(a), luminance(b));
        (la.max(lb) + 0.05) / (la.min(lb) + 0.05)
    }

    /// The xterm palette's 6x6x6 cube and grey ramp, to check the RGB values given above.
    fn xterm_rgb(index: u8) -> (u8, u8, u8) {
        const LEVELS: [u8; 6] = [0, 95, 135, 175, 215, 255];
        match index {
            16..=231 => {
                let n = index - 16;
                (
                    LEVELS[(n / 36) as usize],
                    LEVELS[(n / 6 % 6) as usize],
                    LEVELS[(n % 6) as usize],
                )
            }
            232..=255 => {
                let v = 8 + 10 * (index - 232);
                (v, v, v)
            }
            _ => panic!("only the fixed palette entries are used"),
        }
    }

    #[test]
    fn both_sides_have_enough_contrast_on_every_square() {
        for p in [WHITE_PIECE, BLACK_PIECE].into_iter().chain(BACKGROUNDS) {
            assert_eq!(xterm_rgb(p.index), p.rgb, "palette entry {}", p.index);
        }
        for bg in BACKGROUNDS {
            for fg in [WHITE_PIECE, BLACK_PIECE] {
                let c = contrast(fg.rgb, bg.rgb);
                assert!(c >= 4.5, "piece {} on {}: {c:.2}", fg.index, bg.index);
            }
        }
        assert!((contrast((255, 255, 255), (0, 0, 0)) - 21.0).abs() < 1e-9);
        // the squares differ in hue even at equal brightness
        assert_ne!(LIGHT_SQUARE.rgb, DARK_SQUARE.rgb);
    }

    #[test]
    fn figurines_differ_by_side_and_exist_for_chess_letters_only() {
        let rules = modern_chess::catalog::load_rules("mrc").unwrap();
        let m = rules.variant().piece_index('M').unwrap();
        let k = rules.variant().piece_index('K').unwrap();
        assert_eq!(figurine(&rules, m, 0), None);
        assert_eq!(figurine(&rules, k, 0), Some('♔'));
        assert_eq!(figurine(&rules, k, 1), Some('♚'));
        let view = View {
            colour: true,
            figurines: true,
            flipped: false,
        };
        assert_ne!(
            piece_char(&rules, view, k, 0),
            piece_char(&rules, view, k, 1)
        );
    }
}
