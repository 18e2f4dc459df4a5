//! Perft against independent engines: every position of `tests/data/perft.toml` (Fairy-Stockfish
//! 11.1 for the seed variants, Stockfish for chess and Chess960), built from its FEN.
//! The default run checks each position up to the deepest depth under `FAST_LIMIT` nodes; the
//! `#[ignore]`d test checks every listed depth (`cargo test --release -- --ignored perft_all`).

use modern_chess::{catalog, Position};
use serde::Deserialize;

#[derive(Deserialize)]
struct Data {
    position: Vec<Case>,
}

#[derive(Deserialize)]
struct Case {
    variant: String,
    #[allow(dead_code)]
    setup: Option<String>,
    fen: String,
    perft: Vec<u64>,
}

const FAST_LIMIT: u64 = 700_000;

fn run(limit: u64) {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/perft.toml"
    ))
    .unwrap();
    let data: Data = toml::from_str(&text).unwrap();
    assert_eq!(
        data.position.len(),
        56,
        "the reference file has 56 positions"
    );
    let mut failures = Vec::new();
    let mut checked = 0;
    for case in &data.position {
        let rules = catalog::load_rules(&format!(
            "{}/variants/{}.toml",
            env!("CARGO_MANIFEST_DIR"),
            case.variant
        ))
        .unwrap();
        let pos =
            Position::from_fen(&rules, &case.fen).unwrap_or_else(|e| panic!("{}: {e}", case.fen));
        for (i, &expected) in case.perft.iter().enumerate() {
            if expected > limit {
                break;
            }
            let got = pos.perft(&rules, i as u32 + 1);
            checked += 1;
            if got != expected {
                failures.push(format!(
                    "{} {} depth {}: expected {expected}, got {got}",
                    case.variant,
                    case.fen,
                    i + 1
                ));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {checked} perft counts differ:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn perft_reference_fast() {
    run(FAST_LIMIT);
}

#[test]
#[ignore = "slow: every listed depth (about 350 million nodes); run with --release -- --ignored"]
fn perft_all() {
    run(u64::MAX);
}
