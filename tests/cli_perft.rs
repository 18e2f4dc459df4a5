//! `modern-chess perft` through the binary, as a user (or perft-diff) runs it.

use std::process::Command;

fn run(args: &[&str]) -> (bool, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_modern-chess"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .unwrap();
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn divide_prints_one_line_per_move_and_the_total() {
    let (ok, out, _) = run(&["perft", "--variant", "variants/chess.toml", "--divide", "2"]);
    assert!(ok);
    let lines: Vec<&str> = out.lines().filter(|l| l.contains(": ")).collect();
    assert_eq!(lines.iter().filter(|l| !l.starts_with("Nodes")).count(), 20);
    assert!(lines.contains(&"e2e4: 20"));
    assert_eq!(out.lines().last(), Some("Nodes searched: 400"));
}

#[test]
fn castling_is_king_takes_rook_and_adjustment_is_bishop_to_partner() {
    let fen = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
    let (ok, out, _) = run(&["perft", "--variant", "chess", "--fen", fen, "--divide", "1"]);
    assert!(ok);
    assert!(out.contains("e1h1: 1") && out.contains("e1a1: 1"), "{out}");
    let (ok, out, _) = run(&[
        "perft",
        "--variant",
        "mrc",
        "--setup",
        "RNBMKQBNR",
        "--divide",
        "1",
    ]);
    assert!(ok);
    for m in ["c1b1: 1", "c1d1: 1", "g1f1: 1", "g1h1: 1"] {
        assert!(out.contains(m), "{m} missing in {out}");
    }
    // 24 ordinary moves plus 4 adjustments
    assert_eq!(out.lines().last(), Some("Nodes searched: 28"));
}

#[test]
fn promotion_letters_are_lower_case() {
    let (ok, out, _) = run(&[
        "perft",
        "--variant",
        "mrc",
        "--fen",
        "4k4/2P6/9/9/9/9/9/9/4K4 w - - 0 1",
        "--divide",
        "1",
    ]);
    assert!(ok);
    for l in ["c8c9q", "c8c9m", "c8c9r", "c8c9b", "c8c9n"] {
        assert!(out.contains(l), "{l} missing: {out}");
    }
}

#[test]
fn bad_arguments_fail_with_a_message() {
    for args in [
        vec!["perft", "--variant", "nosuch", "1"],
        vec!["perft", "--variant", "mrc", "1"],
        vec!["perft", "--variant", "mrc", "--fen", "9/9 w", "1"],
        vec!["perft", "--variant", "mrc", "--setup", "RNBMKQBNQ", "1"],
        vec!["perft", "--variant", "mrc", "--id", "99999", "1"],
        vec!["perft", "--variant", "chess", "x"],
        vec!["perft", "--variant", "chess"],
    ] {
        let (ok, _, err) = run(&args);
        assert!(!ok, "{args:?} should fail");
        assert!(err.len() > 10, "{args:?} gave no message");
    }
    let (_, _, err) = run(&["perft", "--variant", "mrc", "1"]);
    assert!(err.contains("--setup"), "{err}");
}
