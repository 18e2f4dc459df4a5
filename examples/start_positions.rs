//! Print start positions: id, back rank and FEN (the first ten, or the ids given).
//!
//! `cargo run --example start_positions -- chess960 0 518 959`

use modern_chess::{catalog, setup};

fn main() {
    let mut args = std::env::args().skip(1);
    let spec = args.next().unwrap_or_else(|| "mrc".into());
    let rules = match catalog::load_rules(&spec) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(1);
        }
    };
    let v = rules.variant();
    let mut ids: Vec<u64> = args.filter_map(|a| a.parse().ok()).collect();
    if ids.is_empty() {
        ids = (0..setup::count(v).min(10)).collect();
    }
    println!("{} has {} start positions", v.short(), setup::count(v));
    for id in ids {
        match setup::from_id(v, id) {
            Ok(sp) => println!(
                "{id:>6} {:<12} {}",
                setup::back_rank_string(v, &sp),
                setup::start_fen(v, &sp)
            ),
            Err(e) => println!("{id:>6} {e}"),
        }
    }
}
