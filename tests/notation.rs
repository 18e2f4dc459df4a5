//! SAN and PGN against the rules: round trips over random positions of every variant file,
//! and the sample games printed on the seed pages, replayed move by move.

use modern_chess::notation::{parse_san, to_san};
use modern_chess::pgn::{self, PgnGame, SanToken};
use modern_chess::{catalog, setup, Move, MoveKind, Position, Rules};
use modern_chess::{Game, Outcome};
use proptest::prelude::*;
use std::collections::HashSet;

fn data(name: &str) -> String {
    let path = format!("{}/tests/data/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// Every variant file in `variants/`, found by reading the directory.
fn all_variants() -> Vec<(String, Rules)> {
    let dir = format!("{}/variants", env!("CARGO_MANIFEST_DIR"));
    let mut out = Vec::new();
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().and_then(|e| e.to_str()) == Some("toml") {
            let p = path.to_string_lossy().to_string();
            let rules = catalog::load_rules(&p).unwrap_or_else(|e| panic!("{p}: {e}"));
            out.push((p, rules));
        }
    }
    out.sort_by(|a, b| a.0.cmp(&b.0));
    assert!(out.len() >= 7, "variants/ should hold the seven seed files");
    out
}

/// Checks that every legal move's SAN reads back as that move, that SANs are distinct, and
/// that coordinates read back too.
fn check_round_trip(rules: &Rules, pos: &Position) -> Result<(), String> {
    let legal = pos.legal_moves(rules);
    let mut seen = HashSet::new();
    for &m in legal.iter() {
        let san = to_san(rules, pos, m);
        if !seen.insert(san.clone()) {
            return Err(format!("two moves written `{san}` in {}", pos.fen(rules)));
        }
        match parse_san(rules, pos, &san) {
            Ok(back) if back == m => {}
            other => {
                return Err(format!(
                    "{san} ({}) read back as {other:?} in {}",
                    m.uci(rules),
                    pos.fen(rules)
                ))
            }
        }
        match parse_san(rules, pos, &m.uci(rules)) {
            Ok(back) if back == m => {}
            other => {
                return Err(format!(
                    "{} read back as {other:?} in {}",
                    m.uci(rules),
                    pos.fen(rules)
                ))
            }
        }
    }
    Ok(())
}

/// A small deterministic generator so a failing case is reproduced from its seed.
fn next(state: &mut u64) -> u64 {
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    *state
}

/// A random game: a random start, then random legal moves (promotions, castling and
/// adjustments preferred so they show up in short games).
fn random_game(rules: &Rules, seed: u64, plies: usize) -> Game {
    let v = rules.variant();
    let id = setup::random_id(v, seed);
    let sp = setup::from_id(v, id).unwrap();
    let start = Position::from_fen(rules, &setup::start_fen(v, &sp)).unwrap();
    let mut game = Game::new(start);
    let mut s = seed | 1;
    for _ in 0..plies {
        if game.outcome(rules).is_some() {
            break;
        }
        let legal = game.current().legal_moves(rules);
        let special: Vec<Move> = legal
            .iter()
            .copied()
            .filter(|m| {
                m.promo.is_some() || matches!(m.kind, MoveKind::Castle { .. } | MoveKind::Adjust)
            })
            .collect();
        let m = if !special.is_empty() && next(&mut s).is_multiple_of(3) {
            special[(next(&mut s) % special.len() as u64) as usize]
        } else {
            legal.as_slice()[(next(&mut s) % legal.len() as u64) as usize]
        };
        game.play(rules, m).unwrap();
    }
    game
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    /// For random legal positions of every variant, SAN(move) parses back to the same move,
    /// for every legal move.
    #[test]
    fn san_round_trips_in_random_positions(seed in 1u64.., plies in 0usize..120) {
        for (name, rules) in all_variants() {
            let game = random_game(&rules, seed, plies);
            for pos in game.positions() {
                if let Err(e) = check_round_trip(&rules, pos) {
                    return Err(TestCaseError::fail(format!("{name}: {e}")));
                }
            }
        }
    }

    /// What the writer produces, the reader reads back unchanged: same tags, same moves, and
    /// writing the replayed game again gives the same text.
    #[test]
    fn pgn_round_trips(seed in 1u64.., plies in 0usize..100) {
        for (name, rules) in all_variants() {
            let game = random_game(&rules, seed, plies);
            let tags = vec![
                ("White".to_string(), "A \"quoted\" name".to_string()),
                ("Annotator".to_string(), "proptest".to_string()),
            ];
            let text = pgn::write_game(&rules, &game, &tags);
            let games = pgn::parse_games(&text).map_err(|e| TestCaseError::fail(format!("{name}: {e}\n{text}")))?;
            prop_assert_eq!(games.len(), 1);
            let g = &games[0];
            prop_assert_eq!(g.tag("White"), Some("A \"quoted\" name"));
            prop_assert_eq!(g.tag("Annotator"), Some("proptest"));
            prop_assert!(g.warnings.is_empty(), "{:?}", g.warnings);
            let variant = pgn::variant_for_tag(g.tag("Variant").unwrap_or("chess"));
            prop_assert!(variant.is_some(), "{}: Variant tag not recognised", name);
            let start = pgn::start_position(&rules, g).unwrap().unwrap_or_else(|| game.start().clone());
            prop_assert_eq!(start.fen(&rules), game.start().fen(&rules));
            let replayed = pgn::replay(&rules, start, &g.moves, &mut |_, _, _| {})
                .map_err(|e| TestCaseError::fail(format!("{name}: {e}\n{text}")))?;
            prop_assert_eq!(replayed.moves(), game.moves());
            prop_assert_eq!(pgn::write_game(&rules, &replayed, &g.tags), text);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    /// Bad input never panics: any text either reads as a move or gets an error message.
    #[test]
    fn arbitrary_text_never_panics(text in "\\PC{0,24}", pgn_text in "[\\[\\]{}();$!?.0-9a-jKQRBNMOx=+#<> \\n\"-]{0,80}") {
        for v in ["mrc", "icrc", "chess"] {
            let rules = catalog::load_rules(v).unwrap();
            let sp = setup::from_id(rules.variant(), 0).unwrap();
            let pos = Position::from_fen(&rules, &setup::start_fen(rules.variant(), &sp)).unwrap();
            if let Err(e) = parse_san(&rules, &pos, &text) {
                prop_assert!(!e.to_string().is_empty());
            }
        }
        let _ = pgn::parse_games(&pgn_text);
        let _ = pgn::parse_games(&text);
    }
}

/// The perft reference positions (castling, en passant and promotion available in some of
/// them) and every position one move later.
#[test]
fn san_round_trips_in_reference_positions() {
    #[derive(serde::Deserialize)]
    struct Data {
        position: Vec<Case>,
    }
    #[derive(serde::Deserialize)]
    struct Case {
        variant: String,
        fen: String,
    }
    let data: Data = toml::from_str(&data("perft.toml")).unwrap();
    let mut positions = 0;
    for case in &data.position {
        let rules = catalog::load_rules(&case.variant).unwrap();
        let pos = Position::from_fen(&rules, &case.fen).unwrap();
        check_round_trip(&rules, &pos).unwrap();
        for &m in pos.legal_moves(&rules).iter() {
            check_round_trip(&rules, &pos.play(&rules, m).unwrap()).unwrap();
            positions += 1;
        }
    }
    assert!(positions > 1000);
}

// ---------------------------------------------------------------------------------------------
// The sample games of the seed pages
// ---------------------------------------------------------------------------------------------

/// A move the page prints that cannot be played as written, what is wrong with it, and what
/// the game itself says was meant.
struct Slip {
    file: &'static str,
    /// The move as printed, with its number.
    at: &'static str,
    /// What our reader says about the printed text.
    error: &'static str,
    /// The readings replayed instead (all of them must reach the end of the game).
    fixes: &'static [&'static str],
    /// Other readings and the later printed move at which each breaks.
    refuted: &'static [(&'static str, &'static str)],
    #[allow(dead_code)]
    why: &'static str,
}

const SLIPS: &[Slip] = &[
    Slip {
        file: "mrc-11017.pgn",
        at: "7...Ngd7",
        error: "you have no knight on the g-file",
        fixes: &["Ned7", "Ncd7"],
        refuted: &[],
        why: "no black knight stands on the g-file (they are on c9 and e9, and both reach d7); \
              the game stops at move 14 without telling which, so both readings are replayed",
    },
    Slip {
        file: "mrc-14441.pgn",
        at: "21...Rg9",
        error: "ambiguous",
        fixes: &["Rig9"],
        refuted: &[("Rdg9", "25...Rdg9")],
        why: "rooks on d9 and i9 both reach g9; 25...Rdg9 shows the d-rook was still on d9",
    },
    Slip {
        file: "mrc-14441.pgn",
        at: "38.Rh1",
        error: "ambiguous",
        fixes: &["Rih1"],
        refuted: &[("Rdh1", "39.Rdg1?")],
        why: "rooks on d1 and i1 both reach h1; 39.Rdg1 shows the d-rook was still on d1",
    },
    Slip {
        file: "mrc-nrbqnmkbr.pgn",
        at: "33...Ri9",
        error: "ambiguous",
        fixes: &["Rii9"],
        refuted: &[("Rdi9", "34...Rde9")],
        why: "rooks on d9 and i4 both reach i9; 34...Rde9 shows the d-rook was still on d9",
    },
];

/// (file, variant, White's back rank as the page names the position)
const SAMPLES: &[(&str, &str, &str)] = &[
    ("mrc-6787.pgn", "mrc", "BQRMBNKNR"),
    ("mrc-11017.pgn", "mrc", "MQBRNBNKR"),
    ("mrc-12731.pgn", "mrc", "RKBNNQBMR"),
    ("mrc-14441.pgn", "mrc", "RBKBMQRNN"),
    ("mrc-6944.pgn", "mrc", "RNBMKQBNR"),
    ("mrc-nrbqnmkbr.pgn", "mrc", "NRBQNMKBR"),
    ("icrc-qrknbrbn.pgn", "icrc", "QRKNBRBN"),
];

fn load_sample(file: &str, variant: &str, back: &str) -> (Rules, Position, PgnGame) {
    let rules = catalog::load_rules(variant).unwrap();
    let games = pgn::parse_games(&data(file)).unwrap();
    assert_eq!(games.len(), 1, "{file}");
    let g = games.into_iter().next().unwrap();
    assert!(g.warnings.is_empty(), "{file}: {:?}", g.warnings);
    assert_eq!(
        pgn::variant_for_tag(g.tag("Variant").unwrap()),
        Some(variant),
        "{file}"
    );
    // The FEN tag is the start position the page names, built by the setup module.
    let sp = setup::parse_back_rank(rules.variant(), back).unwrap();
    let fen = setup::start_fen(rules.variant(), &sp);
    assert_eq!(g.tag("FEN"), Some(fen.as_str()), "{file}");
    let start = pgn::start_position(&rules, &g).unwrap().unwrap();
    (rules, start, g)
}

/// Replays a record, applying the slip list; checks every `+` and `#` on the way. Returns the
/// final game of the first reading and the slips met.
fn replay_with_slips(
    file: &str,
    rules: &Rules,
    start: &Position,
    moves: &[SanToken],
    met: &mut Vec<&'static str>,
) -> Game {
    let mut marks = Vec::new();
    let result = pgn::replay(rules, start.clone(), moves, &mut |t, _, after| {
        if let Some(p) = pgn::mark_problem(rules, after, t) {
            marks.push(p);
        }
    });
    assert!(marks.is_empty(), "{file}: {marks:?}");
    let e = match result {
        Ok(game) => return game,
        Err(e) => e,
    };
    let at = e.token.numbered();
    let slip = SLIPS
        .iter()
        .find(|s| s.file == file && s.at == at)
        .unwrap_or_else(|| panic!("{file}: unexpected stop: {e}"));
    assert!(
        e.message.contains(slip.error),
        "{file} {at}: expected `{}`, got {e}",
        slip.error
    );
    met.push(slip.at);
    for (alt, breaks_at) in slip.refuted {
        let mut m = moves.to_vec();
        m[e.index].text = alt.to_string();
        let err = pgn::replay(rules, start.clone(), &m, &mut |_, _, _| {})
            .expect_err("the refuted reading should break later");
        assert_eq!(err.token.numbered(), *breaks_at, "{file}: reading {alt}");
    }
    let mut first = None;
    for fix in slip.fixes {
        assert!(
            e.legal.contains(&fix.to_string()),
            "{file}: {fix} not legal"
        );
        let mut m = moves.to_vec();
        m[e.index].text = fix.to_string();
        let game = replay_with_slips(file, rules, start, &m, met);
        assert_eq!(game.moves().len(), moves.len(), "{file}");
        first.get_or_insert(game);
    }
    first.unwrap()
}

#[test]
fn sample_games_replay_to_their_last_move() {
    let mut met = Vec::new();
    for &(file, variant, back) in SAMPLES {
        let (rules, start, g) = load_sample(file, variant, back);
        let game = replay_with_slips(file, &rules, &start, &g.moves, &mut met);
        assert_eq!(game.moves().len(), g.moves.len(), "{file}");
        // A game whose last move is marked `#` ends in checkmate for the side that moved.
        let last = g.moves.last().unwrap();
        if last.text.contains('#') {
            let winner = if last.white {
                modern_chess::Colour::White
            } else {
                modern_chess::Colour::Black
            };
            assert_eq!(
                game.outcome(&rules),
                Some(Outcome::Checkmate { winner }),
                "{file}"
            );
            assert_eq!(
                g.result.as_deref(),
                Some(if winner == modern_chess::Colour::White {
                    "1-0"
                } else {
                    "0-1"
                })
            );
        } else {
            assert_eq!(game.outcome(&rules), None, "{file}: game over early");
        }
    }
    met.sort();
    met.dedup();
    let mut all: Vec<&str> = SLIPS.iter().map(|s| s.at).collect();
    all.sort();
    assert_eq!(met, all, "every listed slip is met, and no other");
}

fn after(
    file: &str,
    variant: &str,
    back: &str,
    plies: usize,
    fixes: &[(&str, &str)],
) -> (Rules, Position) {
    let (rules, start, g) = load_sample(file, variant, back);
    let mut moves = g.moves.clone();
    for t in moves.iter_mut() {
        if let Some((_, f)) = fixes.iter().find(|(at, _)| *at == t.numbered()) {
            t.text = f.to_string();
        }
    }
    let game = pgn::replay(&rules, start, &moves[..plies], &mut |_, _, _| {}).unwrap();
    let pos = game.current().clone();
    (rules, pos)
}

/// The same position with the other side to move (how a threat is read).
fn other_side(rules: &Rules, pos: &Position) -> Position {
    let fen = pos.fen(rules);
    let mut f: Vec<&str> = fen.split(' ').collect();
    f[1] = if f[1] == "w" { "b" } else { "w" };
    f[3] = "-";
    Position::from_fen(rules, &f.join(" ")).unwrap()
}

fn is_mate(rules: &Rules, pos: &Position, san: &str) -> bool {
    let m = parse_san(rules, pos, san).unwrap_or_else(|e| panic!("{e}"));
    let p = pos.play(rules, m).unwrap();
    p.in_check(rules) && p.legal_moves(rules).is_empty()
}

fn sans(rules: &Rules, pos: &Position) -> Vec<String> {
    pos.legal_moves(rules)
        .iter()
        .map(|m| to_san(rules, pos, *m))
        .collect()
}

/// The mates in the pages' notes: each `#` there is checkmate under our rules too.
#[test]
fn mates_in_the_notes_are_checkmate() {
    // #6,787 after 19...Qi5: "a checkmate threat at i2. After 20... Qxi2+ 21.Nxi2 Mxi2#".
    // With Black to move here (the threat) the line mates, through the minister's long
    // diagonal d7-i2 and its knight check on g1. A slip in the note: `Qxi2` gives no check
    // (the white king is on g1, the h2 pawn shields it), so its `+` is wrong.
    let (rules, pos) = after("mrc-6787.pgn", "mrc", "BQRMBNKNR", 38, &[]);
    let threat = other_side(&rules, &pos);
    let q = parse_san(&rules, &threat, "Qxi2+").unwrap();
    assert_eq!(
        to_san(&rules, &threat, q),
        "Qxi2",
        "the note's `+` is not a check"
    );
    let p = threat.play(&rules, q).unwrap();
    let p = p
        .play(&rules, parse_san(&rules, &p, "Nxi2").unwrap())
        .unwrap();
    assert!(is_mate(&rules, &p, "Mxi2#"));

    // #14,441 after 41...Rxa3+: "42. bxa3 [forced] 21.Mc3#" (the 42nd move, misnumbered).
    let (rules, pos) = after(
        "mrc-14441.pgn",
        "mrc",
        "RBKBMQRNN",
        82,
        &[("21...Rg9", "Rig9"), ("38.Rh1", "Rih1")],
    );
    assert_eq!(sans(&rules, &pos), ["bxa3"], "42.bxa3 is forced");
    let p = pos
        .play(&rules, parse_san(&rules, &pos, "bxa3").unwrap())
        .unwrap();
    assert!(is_mate(&rules, &p, "Mc3#"));

    // #6,944 after 20.Mf7+: "20... Ki9 [forced] 21.Bi7!, White threatens 22.Mg8# and 22.Bh8#",
    // and the earlier [forced] replies 18...Ki9 and 19...Kh8.
    let (rules, pos) = after("mrc-6944.pgn", "mrc", "RNBMKQBNR", 35, &[]);
    assert_eq!(sans(&rules, &pos), ["Ki9"], "18...Ki9 is forced");
    let (rules, pos) = after("mrc-6944.pgn", "mrc", "RNBMKQBNR", 37, &[]);
    assert_eq!(sans(&rules, &pos), ["Kh8"], "19...Kh8 is forced");
    let (rules, pos) = after("mrc-6944.pgn", "mrc", "RNBMKQBNR", 39, &[]);
    assert_eq!(sans(&rules, &pos), ["Ki9"], "20...Ki9 is forced");
    let p = ["Ki9", "Bi7"].iter().fold(pos, |p, s| {
        p.play(&rules, parse_san(&rules, &p, s).unwrap()).unwrap()
    });
    let threat = other_side(&rules, &p);
    assert!(is_mate(&rules, &threat, "Mg8#"));
    assert!(is_mate(&rules, &threat, "Bh8#"));

    // ICRC after 17...Qj10: "Qa1# mate threat!".
    let (rules, pos) = after("icrc-qrknbrbn.pgn", "icrc", "QRKNBRBN", 34, &[]);
    assert!(is_mate(&rules, &other_side(&rules, &pos), "Qa1#"));
}

/// The ICRC game's `O-Og` is the h-side castling (RULES.md): the king lands on h9, the rook
/// on g9; the canonical SAN is the variant's `O-Oh`.
#[test]
fn icrc_o_og_is_h_side_castling() {
    let (rules, pos) = after("icrc-qrknbrbn.pgn", "icrc", "QRKNBRBN", 37, &[]);
    let m = parse_san(&rules, &pos, "O-Og").unwrap();
    assert_eq!(m.kind, MoveKind::Castle { side: 1 });
    assert_eq!(to_san(&rules, &pos, m), "O-Oh");
    let p = pos.play(&rules, m).unwrap();
    let h9 = rules.geo().parse_square("h9").unwrap();
    let g9 = rules.geo().parse_square("g9").unwrap();
    assert_eq!(p.king_square(modern_chess::Colour::Black), h9);
    assert_eq!(
        p.piece_at(g9).map(|x| x.kind.index()),
        rules.variant().piece_index('R')
    );
}
