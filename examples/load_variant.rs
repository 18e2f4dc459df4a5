//! Load a variant file and show what the interpreter made of it.
//!
//! `cargo run --example load_variant -- variants/pmrc.toml`

use modern_chess::{catalog, setup};

fn main() {
    let spec = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "variants/mrc.toml".into());
    let rules = match catalog::load_rules(&spec) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(1);
        }
    };
    let v = rules.variant();
    println!(
        "{} ({}), {}x{} board",
        v.name(),
        v.short(),
        v.files(),
        v.ranks()
    );
    for p in v.pieces() {
        let role = if p.royal {
            " royal"
        } else if p.pawn {
            " pawn"
        } else {
            ""
        };
        println!(
            "  {} {:<16} {:<14} {} directions, value {}{role}",
            p.letter,
            p.name,
            p.betza,
            p.atoms.len(),
            p.value
        );
    }
    println!("start positions: {}", setup::count(v));
    if let Some(c) = &v.castling() {
        for s in &c.sides {
            println!(
                "castling {}: king to file {}, rook to file {}",
                s.notation,
                (b'a' + s.king_file) as char,
                (b'a' + s.rook_file) as char
            );
        }
    }
    if let Some(a) = &v.adjustment() {
        let partners: String = a.partners.iter().map(|&i| v.pieces()[i].letter).collect();
        println!(
            "Bishop Adjustment: {} may swap with {partners}",
            v.pieces()[a.piece].letter
        );
    }
    println!("compiled tables: {} bytes", rules.table_bytes());
}
