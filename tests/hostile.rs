//! Hostile input: malformed variant files, FENs, back ranks, Betza strings and command lines.
//! Every one must give an error that says what and where (never a panic), through the library
//! and through the binary (non-zero exit status, the message on stderr); random bytes fed to
//! every parser must not panic; a failed parse changes nothing already loaded.

use modern_chess::variant::{Resolver, Variant, VariantError};
use modern_chess::Game;
use modern_chess::{betza, catalog, setup, Move, MoveKind, Position, Rules};
use proptest::prelude::*;
use std::process::Command;

mod support;

const BIN: &str = env!("CARGO_BIN_EXE_modern-chess");
const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// Resolves `extends` from a fixed list of in-memory files.
struct Files(Vec<(&'static str, String)>);

impl Resolver for Files {
    fn read(&self, _from: &str, name: &str) -> Result<(String, String), String> {
        self.0
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(n, t)| (n.to_string(), t.clone()))
            .ok_or_else(|| format!("no file `{name}`"))
    }
}

fn shipped(name: &str) -> String {
    std::fs::read_to_string(format!("{ROOT}/variants/{name}")).unwrap()
}

fn resolver() -> Files {
    Files(
        ["mrc.toml", "merc.toml", "chess.toml"]
            .into_iter()
            .map(|n| (n, shipped(n)))
            .collect(),
    )
}

fn load(text: &str) -> Result<Variant, VariantError> {
    Variant::from_text("bad.toml", text, &resolver())
}

/// A small valid variant to break one key at a time.
const MINI: &str = r#"name = "Mini"
[board]
files = 5
ranks = 6
[pieces]
K = { betza = "K", royal = true }
R = { betza = "R" }
B = { betza = "B" }
P = { betza = "fmWfcF", pawn = true }
[setup]
army = "RBKBR"
random = true
king_between_rooks = true
[castling]
a_side = { king = "b", rook = "c" }
h_side = { king = "d", rook = "c" }
[promotion]
rank = 6
to = "RB"
"#;

/// The error for `text`, which must name `field` and, when `line` is given, that line.
fn expect_error(text: &str, field: &str, line: Option<usize>) -> String {
    let e = match load(text) {
        Ok(_) => panic!("accepted:\n{text}"),
        Err(e) => e,
    };
    let s = e.to_string();
    let hit = e.problems().iter().find(|f| f.field.contains(field));
    assert!(hit.is_some(), "no error about `{field}` in:\n{s}");
    if let Some(l) = line {
        let f = hit.unwrap();
        assert_eq!(f.line, l, "wrong line in:\n{s}");
        assert!(f.column > 0, "no column in:\n{s}");
        assert!(s.contains(&format!("bad.toml:{l}:")), "{s}");
    }
    s
}

#[test]
fn mini_is_valid() {
    let v = load(MINI).unwrap();
    // the two bishops on any 2 of 5 squares, then R K R in the 3 left: C(5,2) = 10
    assert_eq!(setup::count(&v), 10);
}

#[test]
fn missing_fields_are_named() {
    expect_error(&MINI.replace("name = \"Mini\"\n", ""), "name", None);
    expect_error(&MINI.replace("army = \"RBKBR\"\n", ""), "setup.army", None);
    expect_error(
        &MINI.replace(
            "K = { betza = \"K\", royal = true }",
            "K = { royal = true }",
        ),
        "pieces.K.betza",
        None,
    );
    expect_error(&MINI.replace("to = \"RB\"\n", ""), "promotion.to", None);
    let no_board = MINI.replace("[board]\nfiles = 5\nranks = 6\n", "");
    expect_error(&no_board, "board", None);
}

#[test]
fn wrong_types_and_unknown_keys_give_line_and_column() {
    // serde's errors name the real key, never the pseudo-key `toml`
    let s = expect_error(
        &MINI.replace("files = 5", "files = \"five\""),
        "board.files",
        Some(3),
    );
    assert!(!s.contains("`toml`"), "{s}");
    expect_error(
        &MINI.replace("random = true", "random = \"yes\""),
        "setup.random",
        Some(12),
    );
    let s = expect_error(
        &MINI.replace("ranks = 6", "ranks = 6\ncolour = 3"),
        "board.colour",
        Some(5),
    );
    assert!(s.contains("colour"), "{s}");
    let s = expect_error(
        &MINI.replace("R = { betza = \"R\" }", "R = { betza = \"R\", speed = 2 }"),
        "pieces.R.speed",
        Some(7),
    );
    assert!(s.contains("speed"), "{s}");
    let s = expect_error(
        &MINI.replace("army = ", "armee = "),
        "setup.armee",
        Some(11),
    );
    assert!(s.contains("unknown field"), "{s}");
    expect_error(
        &MINI.replace("random = true", "random = true\nsymmetry = \"sideways\""),
        "setup.symmetry",
        Some(13),
    );
    expect_error("name = \"x\"\n[board\nfiles = 3\n", "toml", Some(2));
    expect_error("name = \"x\"\nname = \"y\"\n", "toml syntax", Some(2));
}

/// A board too large for a position gives one error about the board, not follow-on errors
/// about a board nobody wrote.
#[test]
fn a_too_large_board_is_one_error() {
    let e = load(
        &MINI
            .replace("files = 5", "files = 20")
            .replace("ranks = 6", "ranks = 20"),
    )
    .unwrap_err();
    assert_eq!(e.problems().len(), 1, "{e}");
    assert_eq!(e.problems()[0].field, "board", "{e}");
    assert!(!e.to_string().contains("8x8"), "{e}");
}

#[test]
fn betza_garbage_is_located() {
    let s = expect_error(
        &MINI.replace("betza = \"R\"", "betza = \"Rx\""),
        "pieces.R.betza",
        Some(7),
    );
    assert!(s.contains("Rx"), "{s}");
    expect_error(
        &MINI.replace("betza = \"B\"", "betza = \"\""),
        "pieces.B.betza",
        Some(8),
    );
    expect_error(
        &MINI.replace("betza = \"B\"", "betza = \"vF\""),
        "pieces.B.betza",
        Some(8),
    );
    expect_error(
        &MINI.replace("betza = \"B\"", "betza = \"B999\""),
        "pieces.B.betza",
        Some(8),
    );
}

#[test]
fn impossible_constraints_are_refused() {
    // two royal pieces, none, a pawn in the army, army of the wrong width
    expect_error(
        &MINI.replace(
            "R = { betza = \"R\" }",
            "R = { betza = \"R\", royal = true }",
        ),
        "pieces",
        None,
    );
    expect_error(&MINI.replace(", royal = true", ""), "pieces", None);
    expect_error(&MINI.replace("RBKBR", "RBKPR"), "setup.army", Some(11));
    expect_error(&MINI.replace("RBKBR", "RBKBRR"), "setup.army", Some(11));
    expect_error(&MINI.replace("RBKBR", "RBXBR"), "setup.army", Some(11));
    // a fixed army that breaks its own constraint, and an army that cannot be placed at all
    expect_error(
        &MINI
            .replace("RBKBR", "KBRBR")
            .replace("random = true", "random = false"),
        "setup.army",
        Some(11),
    );
    expect_error(
        &MINI.replace("RBKBR", "BBKBR"),
        "king_between_rooks",
        Some(11),
    );
    // board too large, castling file off the board, promotion rank off the board
    expect_error(
        &MINI.replace("ranks = 6", "ranks = 60"),
        "board.ranks",
        Some(4),
    );
    expect_error(&MINI.replace("files = 5", "files = 26"), "board", Some(3));
    expect_error(
        &MINI.replace("king = \"b\"", "king = \"k\""),
        "castling.a_side.king",
        Some(15),
    );
    expect_error(
        &MINI.replace("rank = 6", "rank = 7"),
        "promotion.rank",
        Some(18),
    );
    expect_error(
        &MINI.replace("to = \"RB\"", "to = \"KB\""),
        "promotion.to",
        Some(19),
    );
    expect_error(
        &MINI.replace("random = true", "random = true\nsymmetry = \"diagonal\""),
        "setup.symmetry",
        Some(13),
    );
}

/// Every key the chess-like family added gets the usual error, with line, column and key.
#[test]
fn bad_values_of_the_new_keys_are_located() {
    let with = |section: &str, line: &str| MINI.replace(section, &format!("{section}{line}\n"));
    // setup.fen: a bad letter, a short rank, a side without its king
    let fen = |f: &str| {
        MINI.replace(
            "army = \"RBKBR\"\nrandom = true\nking_between_rooks = true\n",
            &format!("fen = \"{f}\"\n"),
        )
    };
    let s = expect_error(&fen("rbkbr/ppppp/5/5/PPPPP/RBKXR"), "setup.fen", Some(11));
    assert!(s.contains("`X`"), "{s}");
    expect_error(&fen("rbkbr/ppppp/5/5/PPPP/RBKBR"), "setup.fen", Some(11));
    let s = expect_error(&fen("rbrbr/ppppp/5/5/PPPPP/RBKBR"), "setup.fen", Some(11));
    assert!(s.contains("Black needs exactly one royal piece"), "{s}");
    // promotion.zone and rank together, or out of order
    let s = expect_error(
        &with("[promotion]\n", "zone = [4, 6]"),
        "promotion.zone",
        Some(18),
    );
    assert!(s.contains("not both"), "{s}");
    let z = MINI.replace("rank = 6\nto", "zone = [6, 5]\nto");
    expect_error(&z, "promotion.zone", Some(18));
    expect_error(
        &MINI.replace("rank = 6\nto", "zone = \"six\"\nto"),
        "promotion.zone",
        Some(18),
    );
    // the game-end keys are enums or checked values
    let rules = |line: &str| format!("{MINI}[rules]\n{line}\n");
    let s = expect_error(&rules("bare_king = \"wins\""), "rules.bare_king", Some(21));
    assert!(s.contains("plays") && s.contains("loses"), "{s}");
    expect_error(&rules("stalemate = \"maybe\""), "rules.stalemate", Some(21));
    expect_error(&rules("checks = 1000"), "rules.checks", Some(21));
    expect_error(&rules("extinction = \"Z\""), "rules.extinction", Some(21));
    expect_error(
        &rules("campmate = { white = \"z9\" }"),
        "rules.campmate.white",
        Some(21),
    );
    // numbering stages: unknown letters, counts that do not match, colours late, rooks staged
    let numbering = |stages: &str| format!("{MINI}[setup.numbering]\nstages = {stages}\n");
    expect_error(&numbering("[\"X\"]"), "setup.numbering.stages", Some(21));
    let s = expect_error(&numbering("[\"B\"]"), "setup.numbering.stages", Some(21));
    assert!(s.contains("army has 2"), "{s}");
    let s = expect_error(
        &numbering("[\"RR\", \"BB\"]"),
        "setup.numbering.stages",
        Some(21),
    );
    assert!(s.contains("not a stage"), "{s}");
    expect_error(
        &numbering("[\"BB\"]\npairs = \"sideways\""),
        "setup.numbering.pairs",
        Some(22),
    );
    // Betza hoppers only on unlimited riders; en passant after a diagonal double step refused
    let s = expect_error(
        &MINI.replace("betza = \"R\"", "betza = \"pN\""),
        "pieces.R.betza",
        Some(7),
    );
    assert!(s.contains("hopper"), "{s}");
    let s = expect_error(
        &MINI.replace("betza = \"fmWfcF\"", "betza = \"fmFfceWifmnA\""),
        "pieces.P.betza",
        Some(9),
    );
    assert!(s.contains("diagonal double step"), "{s}");
}

/// An unknown variant name is called unknown, and a path without `.toml` is tried with it.
#[test]
fn unknown_variants_are_called_unknown() {
    let e = catalog::load("no-such-variant").unwrap_err();
    assert!(matches!(e, VariantError::Unknown { .. }), "{e}");
    assert!(e.to_string().contains("unknown variant"), "{e}");
    assert!(!e.to_string().contains("invalid variant file"), "{e}");
    let without_ext = format!("{ROOT}/variants/shako");
    assert_eq!(catalog::load(&without_ext).unwrap().short(), "shako");
}

#[test]
fn setup_ranks_that_overlap_are_refused() {
    // White's piece rank 3 of 6 and Black's mirrored rank 4 are distinct, but the pawns in
    // front of them would share ranks with the other side's pieces.
    expect_error(
        &MINI.replace("[setup]\n", "[setup]\nrank = 3\n"),
        "setup",
        None,
    );
    // 5 ranks: rank 3 is its own mirror image, so both armies would stand on it.
    let odd = MINI
        .replace("ranks = 6", "ranks = 5")
        .replace("rank = 6", "rank = 5");
    expect_error(
        &odd.replace("[setup]\n", "[setup]\nrank = 3\n"),
        "setup",
        None,
    );
}

#[test]
fn extends_problems_are_named() {
    let s = expect_error("extends = \"nowhere.toml\"\n", "extends", Some(1));
    assert!(s.contains("nowhere.toml"), "{s}");
    let cyc = Files(vec![
        ("a.toml", "extends = \"b.toml\"\n".to_string()),
        ("b.toml", "extends = \"a.toml\"\n".to_string()),
    ]);
    let e = Variant::from_text("a.toml", "extends = \"b.toml\"\n", &cyc).unwrap_err();
    assert!(e.to_string().contains("extends"), "{e}");
    // an error in the base file names the base file
    let bad_base = Files(vec![("base.toml", MINI.replace("files = 5", "files = 0"))]);
    let e = Variant::from_text(
        "child.toml",
        "extends = \"base.toml\"\nname = \"c\"\n",
        &bad_base,
    )
    .unwrap_err();
    assert!(e.to_string().contains("base.toml:3:"), "{e}");
    // special files are refused, not read forever
    if std::path::Path::new("/dev/zero").exists() {
        let e = Variant::from_text(
            &format!("{ROOT}/variants/x.toml"),
            "extends = \"/dev/zero\"\n",
            &modern_chess::catalog::FileResolver,
        )
        .unwrap_err();
        assert!(e.to_string().contains("not a regular file"), "{e}");
        let e = catalog::from_path(std::path::Path::new("/dev/zero")).unwrap_err();
        assert!(e.to_string().contains("not a regular file"), "{e}");
    }
    // a working extension for contrast
    let ok = Variant::from_text(
        "m.toml",
        "extends = \"mrc.toml\"\nname = \"M\"\n",
        &resolver(),
    );
    assert_eq!(ok.unwrap().files(), 9);
}

#[test]
fn huge_start_position_counts_are_refused_not_wrapped() {
    // Sixteen different pieces on sixteen files, each side placed independently: 16!^2 is
    // about 4.4e26 start positions, more than a 64-bit id can number.
    let letters = "KACDEFGHIJLMNQRS";
    let mut text = String::from("name = \"Wide\"\n[board]\nfiles = 16\nranks = 8\n[pieces]\n");
    for (i, c) in letters.chars().enumerate() {
        text.push_str(&format!(
            "{c} = {{ betza = \"{}\"{} }}\n",
            if i == 0 { "K" } else { "W" },
            if i == 0 { ", royal = true" } else { "" }
        ));
    }
    text.push_str(&format!(
        "[setup]\narmy = \"{letters}\"\nrandom = true\nsymmetry = \"none\"\n"
    ));
    let e = load(&text).unwrap_err().to_string();
    assert!(e.contains("`setup`") && e.contains("64-bit"), "{e}");
    // One side alone (16! = 20,922,789,888,000: the letters are all different) still fits.
    let v = load(&text.replace("\"none\"", "\"mirror\"")).unwrap();
    assert_eq!(setup::count(&v), (1..=16u64).product::<u64>());
}

// ---------------------------------------------------------------------------------------------
// FEN
// ---------------------------------------------------------------------------------------------

fn rules(name: &str) -> Rules {
    catalog::load_rules(&format!("{ROOT}/variants/{name}.toml")).unwrap()
}

fn fen_error(r: &Rules, fen: &str, field: &str) {
    match Position::from_fen(r, fen) {
        Ok(p) => panic!("accepted {fen} as {}", p.fen(r)),
        Err(e) => assert_eq!(e.field, field, "{fen}: {e}"),
    }
}

/// Chess FENs that are wrong in one field each, and the field the error must name.
const MALFORMED_CHESS_FENS: &[(&str, &str)] = &[
    ("", "placement"),
    ("   ", "placement"),
    (
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1",
        "placement",
    ),
    (
        "rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "placement",
    ),
    (
        "rnbqkbnr/ppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "placement",
    ),
    (
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQQBNR w kq - 0 1",
        "placement",
    ),
    (
        "rnbqkbnr/pppppppp/8/8/3K4/8/PPPPPPPP/RNBQKBNR w kq - 0 1",
        "placement",
    ),
    (
        "rnbqkbnP/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQq - 0 1",
        "placement",
    ),
    (
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNp w KQkq - 0 1",
        "placement",
    ),
    (
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBXKBNR w KQkq - 0 1",
        "placement",
    ),
    (
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBMKBNR w KQkq - 0 1",
        "placement",
    ),
    (
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1",
        "side",
    ),
    (
        "rnbqkbn1/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "castling",
    ),
    (
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN1 w KQkq - 0 1",
        "castling",
    ),
    (
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkqZ - 0 1",
        "castling",
    ),
    (
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQk! - 0 1",
        "castling",
    ),
    (
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e3 0 1",
        "en passant",
    ),
    (
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e4 0 1",
        "en passant",
    ),
    (
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq z9 0 1",
        "en passant",
    ),
    (
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - x 1",
        "halfmove clock",
    ),
    (
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 -5",
        "fullmove number",
    ),
    (
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 ABC",
        "adjustment",
    ),
    (
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 - extra",
        "placement",
    ),
    ("4k3/4R3/8/8/8/8/8/4K3 w - - 0 1", "placement"),
    (
        "rnbqkbnr/pppppppp/99999999/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "placement",
    ),
    (
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 99999999999",
        "fullmove number",
    ),
    (
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 \u{e9}",
        "adjustment",
    ),
    (
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w \u{e9} - 0 1",
        "castling",
    ),
    (
        "rnbqkbnr/pp\u{e9}ppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1",
        "placement",
    ),
];

#[test]
fn malformed_fens_are_refused() {
    let chess = rules("chess");
    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    assert!(Position::from_fen(&chess, start).is_ok());
    for &(fen, field) in MALFORMED_CHESS_FENS {
        fen_error(&chess, fen, field);
    }
    let mrc = rules("mrc");
    let mstart = "rnbqkmbnr/ppppppppp/9/9/9/9/9/PPPPPPPPP/RNBMKQBNR w AIai - 0 1";
    assert!(Position::from_fen(&mrc, mstart).is_ok());
    fen_error(&mrc, &mstart.replace(" w AIai", " w AIaij"), "castling");
    fen_error(&mrc, &format!("{mstart} ABCZ"), "adjustment");
    fen_error(&mrc, &format!("{mstart} AJ"), "adjustment");
    fen_error(
        &mrc,
        "rnbqkmbnr/ppppppppp/9/9/9/9/9/PPPPPPPPP/RNBMKQBNR10 w - - 0 1",
        "placement",
    );
    let merc = rules("merc");
    fen_error(
        &merc,
        "10/1rnbqkbnr1/1pppppppp1/10/10/10/10/1PPPPPPPP1/1RNBKQBNR1/P9 w - - 0 1",
        "placement",
    );
}

#[test]
fn side_not_to_move_in_check_is_refused() {
    let chess = rules("chess");
    // White to move while Black's king stands in check from the rook.
    let e = Position::from_fen(&chess, "4k3/8/8/8/8/8/4R3/4K3 w - - 0 1").unwrap_err();
    assert_eq!(e.field, "placement");
    assert!(e.message.contains("check"), "{e}");
    assert!(Position::from_fen(&chess, "4k3/8/8/8/8/8/4R3/4K3 b - - 0 1").is_ok());
}

#[test]
fn malformed_back_ranks_are_refused() {
    let mrc = rules("mrc");
    let v = mrc.variant();
    assert!(setup::parse_back_rank(v, "BQRMBNKNR").is_ok());
    for bad in [
        "",
        "BQRMBNKN",
        "BQRMBNKNRR",
        "BQRMBNKXR",
        "BQRMBNNRK",
        "KQRMBNBNR",
        "PQRMBNKNR",
        "BQRMBNKNR/BQRMBNKNR",
        "\u{e9}\u{e9}\u{e9}",
    ] {
        assert!(setup::parse_back_rank(v, bad).is_err(), "{bad}");
    }
    let chess = rules("chess");
    assert!(setup::parse_back_rank(chess.variant(), "RNBQKBNR").is_ok());
    assert!(setup::parse_back_rank(chess.variant(), "RNBKQBNR").is_err());
    assert!(setup::from_id(v, setup::count(v)).is_err());
    assert!(setup::from_id(v, u64::MAX).is_err());
}

#[test]
fn failed_parses_change_nothing_already_loaded() {
    let r = rules("mrc");
    let fen = "rnbqkmbnr/ppppppppp/9/9/9/9/9/PPPPPPPPP/RNBMKQBNR w AIai - 0 1 ABCDEFGHIabcdefghi";
    let p = Position::from_fen(&r, fen).unwrap();
    let before = (p.fen(&r), p.hash(), p.perft(&r, 2));
    let bad_fen =
        "rnbqkmbnr/ppppppppp/9/9/9/9/9/PPPPPPPPP/RNBMKQBNR w AIai - 0 1 ABCDEFGHIabcdefghZ";
    assert!(Position::from_fen(&r, bad_fen).is_err());
    assert!(load(&MINI.replace("RBKBR", "RBKBX")).is_err());
    assert!(catalog::load_rules("no-such-variant").is_err());
    assert_eq!((p.fen(&r), p.hash(), p.perft(&r, 2)), before);
    // A fresh load of the same file still gives the same rules.
    let again = rules("mrc");
    assert_eq!(again.variant(), r.variant());
}

// ---------------------------------------------------------------------------------------------
// The binary
// ---------------------------------------------------------------------------------------------

fn run(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(BIN).args(args).output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn assert_fails(args: &[&str], needle: &str) {
    let (code, _, err) = run(args);
    assert_ne!(code, 0, "{args:?} succeeded");
    assert!(!err.contains("panicked"), "{args:?} panicked: {err}");
    assert!(
        err.contains(needle),
        "{args:?}: `{needle}` not in stderr:\n{err}"
    );
}

#[test]
fn bad_variant_files_fail_through_the_binary() {
    let dir = support::temp_dir("hostile-variants");
    let bad = dir.join("bad.toml");
    std::fs::write(&bad, MINI.replace("betza = \"R\"", "betza = \"R?\"")).unwrap();
    let p = bad.to_str().unwrap();
    assert_fails(&["perft", "--variant", p, "1"], "bad.toml:7:");
    assert_fails(&["perft", "--variant", p, "1"], "pieces.R.betza");
    std::fs::write(&bad, MINI.replace("files = 5", "files = [5]")).unwrap();
    assert_fails(&["perft", "--variant", p, "1"], "bad.toml:3:");
    std::fs::write(&bad, "extends = \"missing.toml\"\n").unwrap();
    assert_fails(&["perft", "--variant", p, "1"], "missing.toml");
    std::fs::write(&bad, [0xff, 0xfe, 0x00, 0x41]).unwrap();
    assert_fails(&["perft", "--variant", p, "1"], "bad.toml");
    assert_fails(
        &[
            "perft",
            "--variant",
            dir.join("none.toml").to_str().unwrap(),
            "1",
        ],
        "none.toml",
    );
    assert_fails(
        &["positions", "--variant", "nosuchvariant", "--count"],
        "nosuchvariant",
    );
}

#[test]
fn bad_command_lines_fail() {
    let fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    assert_fails(&["perft", "--variant", "chess"], "DEPTH");
    assert_fails(&["perft", "--variant", "chess", "deep"], "deep");
    assert_fails(&["perft", "--variant", "chess", "-1"], "");
    assert_fails(&["perft", "--variant", "chess", "99"], "depth");
    assert_fails(
        &["perft", "--variant", "chess", "--fen", "garbage", "1"],
        "--fen",
    );
    assert_fails(
        &[
            "perft",
            "--variant",
            "chess",
            "--fen",
            fen,
            "--id",
            "3",
            "1",
        ],
        "cannot be used",
    );
    assert_fails(
        &["perft", "--variant", "mrc", "--id", "15120", "1"],
        "15120",
    );
    assert_fails(
        &["perft", "--variant", "mrc", "--setup", "RNBQKBNR", "1"],
        "--setup",
    );
    assert_fails(&["perft", "--variant", "mrc", "1"], "start positions");
    assert_fails(
        &["perft", "--variant", "mrc", "--seed", "3", "1"],
        "--random",
    );
    assert_fails(&["positions", "--variant", "mrc", "--id", "x"], "x");
    assert_fails(&["nosuchcommand"], "nosuchcommand");
    assert_fails(&[], "Usage");
    assert_fails(&["perft", "--bogus", "1"], "--bogus");
    assert_fails(
        &["match", "--engine", "x", "--contempt", "300"],
        "not a number of centipawns",
    );
    // and the same commands work when well formed
    let (code, out, _) = run(&["perft", "--variant", "chess", "--fen", fen, "2"]);
    assert_eq!(code, 0);
    assert!(out.contains("Nodes searched: 400"), "{out}");
}

// ---------------------------------------------------------------------------------------------
// Random input never panics
// ---------------------------------------------------------------------------------------------

struct NoFiles;
impl Resolver for NoFiles {
    fn read(&self, _from: &str, name: &str) -> Result<(String, String), String> {
        Err(format!("no file `{name}`"))
    }
}

fn all_rules() -> &'static [Rules] {
    static ALL: std::sync::OnceLock<Vec<Rules>> = std::sync::OnceLock::new();
    ALL.get_or_init(load_all)
}

fn load_all() -> Vec<Rules> {
    let mut names: Vec<String> = std::fs::read_dir(format!("{ROOT}/variants"))
        .unwrap()
        .filter_map(|e| {
            let p = e.ok()?.path();
            (p.extension()? == "toml").then(|| p.to_string_lossy().into_owned())
        })
        .collect();
    names.sort();
    names
        .iter()
        .map(|n| catalog::load_rules(n).unwrap())
        .collect()
}

/// Replaces, inserts or deletes characters of a valid text at random places.
fn mutate(text: &str, edits: &[(usize, u8, char)]) -> String {
    let mut chars: Vec<char> = text.chars().collect();
    for &(at, op, c) in edits {
        if chars.is_empty() {
            chars.push(c);
            continue;
        }
        let i = at % chars.len();
        match op % 3 {
            0 => chars[i] = c,
            1 => chars.insert(i, c),
            _ => {
                chars.remove(i);
            }
        }
    }
    chars.into_iter().collect()
}

fn edits() -> impl Strategy<Value = Vec<(usize, u8, char)>> {
    let c = prop_oneof![
        any::<char>(),
        proptest::char::ranges(vec!['0'..='9', 'a'..='z', 'A'..='Z'].into()),
        prop::sample::select(vec![
            '/', ' ', '-', '"', '=', '[', ']', '{', '}', '\n', ',', '0', '9'
        ]),
    ];
    prop::collection::vec((any::<usize>(), any::<u8>(), c), 1..6)
}

fn case_count(default: u32) -> u32 {
    std::env::var("MODERN_CHESS_PROPTEST_CASES")
        .ok()
        .and_then(|s| s.trim().parse().ok())
        .unwrap_or(default)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: case_count(400), failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn betza_parser_never_panics(s in ".{0,24}", t in "[fblrvsmcineWFDNAHCZGKQRB0-9]{0,12}") {
        let _ = betza::parse(&s);
        let _ = betza::parse(&t);
    }

    #[test]
    fn variant_reader_never_panics(s in "(?s).{0,200}", which in 0usize..16, e in edits()) {
        let _ = Variant::from_text("fuzz.toml", &s, &NoFiles);
        let files = ["mrc.toml", "mrc64.toml", "merc.toml", "icrc.toml", "pmrc.toml", "chess.toml", "chess960.toml", "maura.toml", "erc.toml", "crc.toml"];
        let text = shipped(files[which % files.len()]);
        let _ = Variant::from_text("fuzz.toml", &mutate(&text, &e), &resolver());
        let _ = Variant::from_text("fuzz.toml", &mutate(MINI, &e), &resolver());
    }

    #[test]
    fn fen_reader_never_panics(s in "(?s).{0,120}", t in "[KQRBNMPkqrbnmp0-9/]{1,60} [wb] [A-Za-z-]{1,6} [a-j0-9-]{1,3} [0-9]{1,3} [0-9]{1,3}( [A-Ja-j-]{1,6})?", seed in any::<u64>(), e in edits()) {
        for r in all_rules() {
            let _ = Position::from_fen(r, &s);
            let _ = Position::from_fen(r, &t);
            let v = r.variant();
            let sp = setup::from_id(v, setup::random_id(v, seed)).unwrap();
            let fen = setup::start_fen(v, &sp);
            if let Ok(p) = Position::from_fen(r, &mutate(&fen, &e)) {
                // Whatever is accepted can be used: written back, searched a little.
                let back = p.fen(r);
                prop_assert!(Position::from_fen(r, &back).is_ok(), "{} wrote {}", mutate(&fen, &e), back);
                let _ = p.perft(r, 2);
                let _ = p.colour_flipped(r).perft(r, 1);
            }
        }
    }

    #[test]
    fn arbitrary_moves_are_refused_unless_legal(seed in any::<u64>(), from in any::<u8>(), to in any::<u8>(), kind in 0u8..8, promo in any::<u8>()) {
        for r in all_rules() {
            let v = r.variant();
            let sp = setup::from_id(v, setup::random_id(v, seed)).unwrap();
            let p = Position::from_fen(r, &setup::start_fen(v, &sp)).unwrap();
            let kind = match kind {
                0 => MoveKind::Normal,
                1 => MoveKind::DoubleStep,
                2 => MoveKind::EnPassant,
                3 | 4 => MoveKind::Castle { side: kind - 3 },
                5 => MoveKind::Castle { side: promo },
                6 => MoveKind::Adjust,
                _ => MoveKind::Normal,
            };
            // u8::MAX was the old "no promotion" marker; keep the same spread of cases.
            let promo = (promo != u8::MAX).then_some(modern_chess::PieceKind(promo));
            let m = Move { from, to, kind, promo };
            let legal = p.legal_moves(r).contains(&m);
            prop_assert_eq!(p.play(r, m).is_ok(), legal);
            let mut g = Game::new(p.clone());
            prop_assert_eq!(g.play(r, m).is_ok(), legal);
            prop_assert_eq!(g.moves().len(), usize::from(legal));
            let _ = m.uci(r);
        }
    }

    #[test]
    fn back_rank_reader_never_panics(s in "(?s).{0,24}", t in "[KQRBNMACPkqrbnm/]{0,22}") {
        for r in all_rules() {
            let _ = setup::parse_back_rank(r.variant(), &s);
            if let Ok(sp) = setup::parse_back_rank(r.variant(), &t) {
                let id = setup::to_id(r.variant(), &sp);
                prop_assert!(id.is_ok(), "{}: {:?}", t, id);
            }
        }
    }
}
