//! List the legal moves of a position, in SAN and coordinates.
//!
//! `cargo run --example legal_moves -- mrc BQRMBNKNR` (a back rank) or
//! `cargo run --example legal_moves -- chess "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"` (a FEN)

use modern_chess::{catalog, notation, setup, Position};

fn main() {
    let mut args = std::env::args().skip(1);
    let spec = args.next().unwrap_or_else(|| "mrc".into());
    let choice = args.next().unwrap_or_else(|| "RNBMKQBNR".into());
    let run = || -> Result<(), String> {
        let rules = catalog::load_rules(&spec).map_err(|e| e.to_string())?;
        let fen = if choice.contains('/') && choice.contains(' ') {
            choice.clone()
        } else {
            let sp = setup::parse_back_rank(rules.variant(), &choice)?;
            setup::start_fen(rules.variant(), &sp)
        };
        let pos = Position::from_fen(&rules, &fen).map_err(|e| e.to_string())?;
        print!("{}", pos.diagram(&rules));
        println!("{fen}");
        let moves = pos.legal_moves(&rules);
        println!("{} legal moves:", moves.len());
        for &m in &moves {
            println!(
                "  {:<12} {}",
                notation::to_san(&rules, &pos, m),
                m.uci(&rules)
            );
        }
        Ok(())
    };
    if let Err(e) = run() {
        eprintln!("error: {e}");
        std::process::exit(1);
    }
}
