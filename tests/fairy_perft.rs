//! Perft of the variant files named after Fairy-Stockfish's variants against Fairy-Stockfish's
//! own counts (`tests/data/fairy-perft.toml`, written by `tests/data/fairy-perft.py`): start
//! positions, random-game positions where castling, en passant, promotion (inside a zone), a
//! bare king or a hopper capture is available, and hand-made ones. The default run checks each
//! position up to the deepest depth under `FAST_LIMIT` nodes; the `#[ignore]`d test every
//! listed depth (`cargo test --release --test fairy_perft -- --ignored`).

use modern_chess::{catalog, Position};
use serde::Deserialize;
use std::collections::BTreeSet;

#[derive(Deserialize)]
struct Data {
    position: Vec<Case>,
}

#[derive(Deserialize)]
struct Case {
    variant: String,
    why: String,
    fen: String,
    perft: Vec<u64>,
}

const FAST_LIMIT: u64 = 250_000;

fn data() -> Data {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/fairy-perft.toml"
    ))
    .unwrap();
    toml::from_str(&text).unwrap()
}

fn run(limit: u64) {
    let data = data();
    let mut failures = Vec::new();
    let mut checked = 0;
    for case in &data.position {
        let path = format!(
            "{}/variants/{}.toml",
            env!("CARGO_MANIFEST_DIR"),
            case.variant
        );
        let rules = catalog::load_rules(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
        let pos = Position::from_fen(&rules, &case.fen)
            .unwrap_or_else(|e| panic!("{} {}: {e}", case.variant, case.fen));
        for (i, &expected) in case.perft.iter().enumerate() {
            if expected > limit {
                break;
            }
            let got = pos.perft(&rules, i as u32 + 1);
            checked += 1;
            if got != expected {
                failures.push(format!(
                    "{} ({}) {} depth {}: Fairy-Stockfish {expected}, modern-chess {got}",
                    case.variant,
                    case.why,
                    case.fen,
                    i + 1
                ));
            }
        }
    }
    assert!(checked > 200, "only {checked} counts checked");
    assert!(
        failures.is_empty(),
        "{} of {checked} perft counts differ:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// Every variant of the list has its start position and the special positions asked for.
#[test]
fn the_data_covers_every_variant_and_rule() {
    let data = data();
    let variants: BTreeSet<&str> = data.position.iter().map(|c| c.variant.as_str()).collect();
    for v in [
        "capablanca",
        "gothic",
        "janus",
        "embassy",
        "caparandom",
        "courier",
        "shatranj",
        "makruk",
        "knightmate",
        "amazon",
        "almost",
        "chancellor",
        "modern",
        "grand",
        "shako",
    ] {
        assert!(variants.contains(v), "no positions for {v}");
    }
    for (variant, what) in [
        ("grand", "promotion"),
        ("shatranj", "bare king"),
        ("courier", "bare king"),
        ("shako", "hopper capture"),
        ("shako", "castling"),
        ("capablanca", "castling"),
        ("modern", "en passant"),
    ] {
        assert!(
            data.position
                .iter()
                .any(|c| c.variant == variant && c.why.contains(what)),
            "no {what} position for {variant}"
        );
    }
}

#[test]
fn fairy_perft_fast() {
    run(FAST_LIMIT);
}

#[test]
#[ignore = "slow: every listed depth; run with --release -- --ignored"]
fn fairy_perft_all() {
    run(u64::MAX);
}
