//! Play a random game to its end and print it as PGN (a seed makes it repeatable).
//!
//! `cargo run --example random_game -- merc 42`

use modern_chess::Game;
use modern_chess::{catalog, pgn, setup, Position};

fn main() {
    let mut args = std::env::args().skip(1);
    let spec = args.next().unwrap_or_else(|| "mrc".into());
    let mut seed: u64 = args.next().and_then(|s| s.parse().ok()).unwrap_or(1).max(1);
    let rules = match catalog::load_rules(&spec) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(1);
        }
    };
    let mut next = move || {
        // xorshift64*: enough randomness for a demonstration, the same on every machine
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed.wrapping_mul(0x2545_F491_4F6C_DD1D)
    };
    let v = rules.variant();
    let id = next() % setup::count(v);
    let start = setup::from_id(v, id).expect("id below the count");
    let pos = Position::from_start(&rules, &start).expect("a legal start position");
    let mut game = Game::new(pos);
    while game.outcome(&rules).is_none() && game.moves().len() < 600 {
        let moves = game.current().legal_moves(&rules);
        let m = moves.as_slice()[(next() % moves.len() as u64) as usize];
        game.play(&rules, m).expect("a generated move is legal");
    }
    let mut tags = vec![("Event".to_string(), format!("Random game, start #{id}"))];
    if let Some(o) = game.outcome(&rules) {
        tags.push(("Termination".to_string(), o.describe(&rules)));
    }
    print!("{}", pgn::write_game(&rules, &game, &tags));
}
