//! Start positions: counts, constraints, symmetry, numbering round trips, Chess960's standard
//! numbering, and the start FENs of the reference perft file.

use modern_chess::variant::Symmetry;
use modern_chess::{catalog, setup, Position};
use std::collections::HashSet;
use std::process::Command;

const SEEDS: &[(&str, u64)] = &[
    ("mrc", 15_120),
    ("mrc64", 1_680),
    ("merc", 5_040),
    ("icrc", 1_680),
    ("pmrc", 8_400),
    ("chess960", 960),
    ("chess", 1),
];

fn rules(name: &str) -> modern_chess::Rules {
    catalog::load_rules(&format!(
        "{}/variants/{name}.toml",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap()
}

#[test]
fn counts_match_rules_md() {
    for &(name, n) in SEEDS {
        assert_eq!(setup::count(rules(name).variant()), n, "{name}");
    }
}

#[test]
fn every_id_round_trips_and_satisfies_the_constraints() {
    for &(name, _) in SEEDS {
        let r = rules(name);
        let v = r.variant();
        let mut seen = HashSet::new();
        for id in 0..setup::count(v) {
            let sp = setup::from_id(v, id).unwrap();
            setup::check_back_rank(v, &sp.white).unwrap();
            assert_eq!(setup::to_id(v, &sp).unwrap(), id, "{name} {id}");
            let s = setup::back_rank_string(v, &sp);
            assert!(seen.insert(s.clone()), "{name}: {s} numbered twice");
            assert_eq!(setup::parse_back_rank(v, &s).unwrap(), sp);
        }
    }
}

/// Every start position, read back as a position, puts Black's pieces where the symmetry says.
#[test]
fn start_fens_follow_the_symmetry() {
    for &(name, _) in SEEDS {
        let r = rules(name);
        let v = r.variant();
        let g = &r.geo();
        let step = (setup::count(v) / 200).max(1);
        for id in (0..setup::count(v)).step_by(step as usize) {
            let sp = setup::from_id(v, id).unwrap();
            let pos = Position::from_fen(&r, &setup::start_fen(v, &sp)).unwrap();
            for f in 0..g.files {
                for rank in 0..g.ranks {
                    let sq = g.square(f, rank);
                    let twin = match v.setup().symmetry {
                        Symmetry::Reverse => g.square(g.files - 1 - f, g.ranks - 1 - rank),
                        _ => g.square(f, g.ranks - 1 - rank),
                    };
                    let a = pos.piece_at(sq);
                    let b = pos.piece_at(twin);
                    assert_eq!(
                        a.map(|p| modern_chess::Piece {
                            colour: p.colour.other(),
                            ..p
                        }),
                        b,
                        "{name} id {id} square {}",
                        g.square_name(sq)
                    );
                }
            }
            assert!(!pos.in_check(&r));
            assert!(!pos.legal_moves(&r).is_empty());
        }
    }
}

#[test]
fn chess960_uses_the_standard_numbering() {
    let r = rules("chess960");
    let v = r.variant();
    for (id, rank) in [
        (0, "BBQNNRKR"),
        (1, "BQNBNRKR"),
        (2, "BQNNRBKR"),
        (518, "RNBQKBNR"),
        (959, "RKRNNQBB"),
    ] {
        let sp = setup::from_id(v, id).unwrap();
        assert_eq!(setup::back_rank_string(v, &sp), rank, "id {id}");
    }
}

/// MRC's own numbers (RULES.md): the six the page names, the scheme's end points and the
/// positions RULES.md names, both ways: id to back rank and back rank to id, through the library
/// and through `positions`.
#[test]
fn mrc_uses_the_pages_numbering() {
    let r = rules("mrc");
    let v = r.variant();
    for (id, rank) in [
        (6_494, "BMRNBQKNR"),
        (6_787, "BQRMBNKNR"),
        (11_017, "MQBRNBNKR"),
        (12_731, "RKBNNQBMR"),
        (14_441, "RBKBMQRNN"),
        (6_944, "RNBMKQBNR"),
        (0, "QMBNRKRNB"),
        (15_119, "RKRNNBBMQ"),
        (4_212, "QRBBNMKRN"),
        (1_025, "NMRKRBNBQ"),
        (2_300, "BNBRKQNRM"),
        (2_264, "BNBMRQKNR"),
        (5_151, "NRBQNMKBR"),
    ] {
        let sp = setup::from_id(v, id).unwrap();
        assert_eq!(setup::back_rank_string(v, &sp), rank, "id {id}");
        let back = setup::parse_back_rank(v, rank).unwrap();
        assert_eq!(setup::to_id(v, &back).unwrap(), id, "{rank}");
    }
    let out = bin()
        .args(["positions", "--variant", "mrc", "--id", "6944"])
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("setup: RNBMKQBNR"), "{text}");
    let out = bin()
        .args(["positions", "--variant", "mrc", "--setup", "BQRMBNKNR"])
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.lines().any(|l| l == "id: 6787"), "{text}");
}

#[test]
fn bad_ids_and_setups_are_refused_with_a_reason() {
    let r = rules("mrc");
    let v = r.variant();
    assert!(setup::from_id(v, 15_120)
        .unwrap_err()
        .to_string()
        .contains("out of range"));
    assert!(setup::parse_back_rank(v, "RNBMKQBN")
        .unwrap_err()
        .to_string()
        .contains("9"));
    assert!(setup::parse_back_rank(v, "RNBMKQBNX")
        .unwrap_err()
        .to_string()
        .contains("`X`"));
    assert!(setup::parse_back_rank(v, "KRRNBMQBN")
        .unwrap_err()
        .to_string()
        .contains("between the rooks"));
    assert!(setup::parse_back_rank(v, "RNBMKQBNN")
        .unwrap_err()
        .to_string()
        .contains("army"));
    let p = rules("pmrc");
    assert!(setup::parse_back_rank(p.variant(), "RNBQKMBNR")
        .unwrap_err()
        .to_string()
        .contains("opposite colours"));
}

/// The reference perft file labels its start positions with their back rank; our start FEN for
/// that back rank must be the same position (castling letters in any order), plus the Bishop
/// Adjustment field exactly when both bishops share a colour.
#[test]
fn start_fens_agree_with_the_reference_file() {
    #[derive(serde::Deserialize)]
    struct Data {
        position: Vec<Case>,
    }
    #[derive(serde::Deserialize)]
    struct Case {
        variant: String,
        setup: Option<String>,
        fen: String,
    }
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/perft.toml"
    ))
    .unwrap();
    let data: Data = toml::from_str(&text).unwrap();
    let starts: Vec<&str> = text
        .lines()
        .filter(|l| l.starts_with("setup") && l.contains("# start"))
        .collect();
    let mut checked = 0;
    for case in &data.position {
        let Some(s) = case.setup.as_deref().filter(|s| !s.is_empty()) else {
            continue;
        };
        if !case.fen.ends_with(" 0 1") || !starts.iter().any(|l| l.contains(s)) {
            continue;
        }
        let r = rules(&case.variant);
        let v = r.variant();
        // The reference labels one PMRC start (RNBQKMBNR, Fairy-Stockfish's default) that breaks
        // PMRC's opposite-bishops rule; it is not one of our start positions.
        let Ok(sp) = setup::parse_back_rank(v, s) else {
            continue;
        };
        let ours = setup::start_fen(v, &sp);
        let norm = |f: &str| {
            let mut parts: Vec<String> = f.split_whitespace().take(6).map(String::from).collect();
            let mut c: Vec<char> = parts[2].chars().collect();
            c.sort_unstable();
            parts[2] = c.into_iter().collect();
            parts.join(" ")
        };
        if norm(&ours) != norm(&case.fen) {
            // Only a start position can match; middlegames share the label.
            continue;
        }
        checked += 1;
        let bishops: Vec<usize> = sp
            .white
            .iter()
            .enumerate()
            .filter(|(_, &p)| Some(p) == v.piece_index('B'))
            .map(|(i, _)| i)
            .collect();
        let same = r.geo().is_dark(
            r.geo()
                .square(v.setup().files.0 + bishops[0] as u8, v.setup().rank),
        ) == r.geo().is_dark(
            r.geo()
                .square(v.setup().files.0 + bishops[1] as u8, v.setup().rank),
        );
        let has_field = ours.split_whitespace().count() == 7;
        assert_eq!(
            has_field,
            same && v.adjustment().is_some(),
            "{} {s}: {ours}",
            case.variant
        );
    }
    assert!(
        checked >= 9,
        "only {checked} start positions matched the reference FENs"
    );
}

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_modern-chess"))
}

#[test]
fn positions_command_counts_lists_and_shows() {
    for &(name, n) in SEEDS {
        let out = bin()
            .args(["positions", "--variant", name, "--count"])
            .output()
            .unwrap();
        assert!(out.status.success());
        let text = String::from_utf8(out.stdout).unwrap();
        assert_eq!(text.lines().last().unwrap(), n.to_string(), "{name}");
    }
    let out = bin()
        .args(["positions", "--variant", "chess960", "--id", "518"])
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("RNBQKBNR"));
    assert_eq!(
        text.lines().last().unwrap(),
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w AHah - 0 1"
    );
    let out = bin()
        .args(["positions", "--variant", "mrc", "--setup", "BQRMBNKNR"])
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(
        text.lines().last().unwrap(),
        "rnknbmrqb/ppppppppp/9/9/9/9/9/PPPPPPPPP/BQRMBNKNR w CIag - 0 1 ABCDEFGHIabcdefghi"
    );
    let a = bin()
        .args(["positions", "--variant", "merc", "--random", "--seed", "7"])
        .output()
        .unwrap();
    let b = bin()
        .args(["positions", "--variant", "merc", "--random", "--seed", "7"])
        .output()
        .unwrap();
    assert!(a.status.success());
    assert_eq!(a.stdout, b.stdout, "the same seed gives the same position");
    let out = bin()
        .args(["positions", "--variant", "pmrc", "--list"])
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(text.lines().count(), 8400);
    assert!(text.lines().next().unwrap().starts_with("0 "));
    for bad in [
        vec!["--id", "8400"],
        vec!["--setup", "RNBQKMBNN"],
        vec!["--setup", "RNBQKMBNR"],
    ] {
        let out = bin()
            .args(["positions", "--variant", "pmrc"])
            .args(&bad)
            .output()
            .unwrap();
        assert!(!out.status.success(), "{bad:?}");
        assert!(!out.stderr.is_empty());
    }
}
