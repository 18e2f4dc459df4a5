//! `modern-chess replay` end to end, through the built binary, the way a user runs it.
//! Every run has a time limit, so a hang fails the test.

mod support;

use std::time::Duration;

fn data(name: &str) -> String {
    format!("{}/tests/data/{name}", env!("CARGO_MANIFEST_DIR"))
}

fn run(args: &[&str]) -> (bool, String, String) {
    let dir = support::temp_dir("replay-data");
    let r = support::run(support::command(args, &dir), b"", Duration::from_secs(120));
    (r.status.success(), r.stdout, r.stderr)
}

/// A file in a temporary directory of its own, removed when the returned guard is dropped
/// (bind it for as long as the file is read).
fn temp(name: &str, text: &str) -> TempFile {
    temp_bytes(name, text.as_bytes())
}

#[test]
fn clean_sample_games_replay_strictly() {
    // (file, how the game ends on the board)
    for (file, end) in [
        ("mrc-6787.pgn", "not over"),
        ("mrc-12731.pgn", "checkmate, Black wins"),
        ("mrc-6944.pgn", "not over"),
        ("icrc-qrknbrbn.pgn", "not over"),
    ] {
        let (ok, out, err) = run(&["replay", "--strict", &data(file)]);
        assert!(ok, "{file}: {out}{err}");
        assert!(out.contains(end), "{file}: {out}");
        assert!(out.contains("final FEN: "), "{file}: {out}");
        assert!(!err.contains("warning"), "{file}: {err}");
    }
}

#[test]
fn a_slip_stops_the_replay_naming_move_text_and_legal_moves() {
    let (ok, out, err) = run(&["replay", &data("mrc-11017.pgn")]);
    assert!(!ok);
    assert!(err.contains("7...Ngd7"), "{err}");
    assert!(err.contains("you have no knight on the g-file"), "{err}");
    assert!(err.contains("Ncd7") && err.contains("Ned7"), "{err}");
    assert!(out.contains("stopped at move 7...Ngd7"), "{out}");
    let (ok, _, err) = run(&["replay", &data("mrc-14441.pgn")]);
    assert!(!ok);
    assert!(
        err.contains("21...Rg9") && err.contains("ambiguous"),
        "{err}"
    );
    assert!(err.contains("Rdg9 or Rig9"), "{err}");
}

#[test]
fn verbose_prints_each_move_with_its_fen() {
    let (ok, out, _) = run(&["replay", "--verbose", &data("mrc-12731.pgn")]);
    assert!(ok);
    let lines: Vec<&str> = out
        .lines()
        .filter(|l| l.contains(" w ") || l.contains(" b "))
        .collect();
    // the start, 48 plies, and the final FEN
    assert_eq!(lines.len(), 1 + 48 + 1, "{out}");
    assert!(out.contains("3.Bc<=>N"), "{out}");
    assert!(out.contains("24...Mxb3#"), "{out}");
}

#[test]
fn wrong_check_marks_warn_and_fail_with_strict() {
    let pgn = temp(
        "marks.pgn",
        "[Variant \"chess\"]\n1. e4+ e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7 *\n",
    );
    let (ok, _, err) = run(&["replay", &pgn]);
    assert!(ok, "{err}");
    assert!(err.contains("1.e4+") && err.contains("no check"), "{err}");
    let (ok, _, err) = run(&["replay", "--strict", &pgn]);
    assert!(!ok);
    assert!(err.contains("error: move 1.e4+"), "{err}");
    // A mate marked only `+`, or not marked, is fine; a `#` that is no mate is not.
    let pgn = temp("marks2.pgn", "1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7+ *\n");
    let (ok, out, err) = run(&["replay", "--strict", "--variant", "chess", &pgn]);
    assert!(ok, "{err}");
    assert!(out.contains("checkmate, White wins"), "{out}");
    let pgn = temp("marks3.pgn", "1. e4 e5 2. Qh5# *\n");
    let (ok, _, err) = run(&["replay", "--strict", "--variant", "chess", &pgn]);
    assert!(!ok);
    assert!(err.contains("marked `#`"), "{err}");
}

#[test]
fn start_position_comes_from_fen_tag_or_options() {
    let moves = temp("nofen.pgn", "1. e4 e6 2. Be <=> M *\n");
    let (ok, _, err) = run(&["replay", "--variant", "mrc", &moves]);
    assert!(!ok);
    assert!(err.contains("15120 start positions"), "{err}");
    let (ok, out, err) = run(&["replay", "-v", "mrc", "--setup", "BQRMBNKNR", &moves]);
    assert!(ok, "{err}");
    assert!(out.contains("replayed 2 move(s) (3 plies)"), "{out}");
    // Without a Variant tag or --variant the record is orthodox chess: an MRC FEN says so.
    let (ok, _, err) = run(&[
        "replay",
        "--fen",
        "rnknbmrqb/ppppppppp/9/9/9/9/9/PPPPPPPPP/BQRMBNKNR w CIag - 0 1",
        &moves,
    ]);
    assert!(!ok);
    assert!(
        err.contains("orthodox chess") && err.contains("--variant"),
        "{err}"
    );
    // --fen overrides the record's FEN tag.
    let (ok, _, err) = run(&[
        "replay",
        "--variant",
        "mrc",
        "--fen",
        "rnknbmrqb/ppppppppp/9/9/9/9/9/PPPPPPPPP/BQRMBNKNR w CIag - 0 1",
        &moves,
    ]);
    assert!(!ok, "no adjustment field in that FEN, so Be<=>M is illegal");
    assert!(err.contains("2.Be<=>M"), "{err}");
}

#[test]
fn several_games_and_unknown_variant_tag() {
    let pgn = temp(
        "two.pgn",
        "[Event \"one\"]\n[Variant \"Crazyhouse\"]\n\n1. e4 e5 *\n\n\
         [Event \"two\"]\n[Variant \"Standard\"]\n\n1. d4 d5 2. Bg5 Qd6 3. Bxe7 1-0\n",
    );
    let (ok, out, err) = run(&["replay", "--variant", "chess", &pgn]);
    assert!(ok, "{out}{err}");
    assert!(
        out.contains("game 1 of 2") && out.contains("game 2 of 2"),
        "{out}"
    );
    assert!(
        err.contains("warning") && err.contains("Crazyhouse"),
        "{err}"
    );
    let (ok, _, err) = run(&["replay", &pgn]);
    assert!(
        !ok,
        "Crazyhouse falls back to mrc, which needs a start position"
    );
    assert!(err.contains("unknown Variant tag `Crazyhouse`"), "{err}");
}

#[test]
fn bad_input_fails_cleanly() {
    let (ok, _, err) = run(&["replay", "/no/such/file.pgn"]);
    assert!(!ok);
    assert!(err.contains("cannot read"), "{err}");
    let pgn = temp("broken.pgn", "[Event \"x\"]\n1. e4 {unclosed\n");
    let (ok, _, err) = run(&["replay", "-v", "chess", &pgn]);
    assert!(!ok);
    assert!(err.contains("line 2, column 7"), "{err}");
    assert!(!err.contains("panicked"), "{err}");
}

/// A file holding `bytes` in its own temporary directory, which goes when this is dropped.
struct TempFile {
    path: String,
    _dir: support::TempDir,
}

impl std::ops::Deref for TempFile {
    type Target = str;

    fn deref(&self) -> &str {
        &self.path
    }
}

/// A file with these exact bytes, as [`temp`].
fn temp_bytes(name: &str, bytes: &[u8]) -> TempFile {
    let dir = support::temp_dir("replay");
    let p = dir.join(name);
    std::fs::write(&p, bytes).unwrap();
    TempFile {
        path: p.to_string_lossy().to_string(),
        _dir: dir,
    }
}

#[test]
fn latin1_bom_and_cr_only_records_are_read() {
    // PGN's own encoding: Latin-1 (0xe9 is e-acute), with CR-only line ends.
    let latin1 = temp_bytes(
        "latin1.pgn",
        b"[Event \"Championnat de Gen\xe8ve\"]\r[White \"Ren\xe9\"]\r[Black \"Zo\xe9\"]\r\r1. e4 e5 2. Nf3 *\r",
    );
    let (ok, out, err) = run(&["replay", &latin1]);
    assert!(ok, "{err}");
    assert!(out.contains("(3 plies)"), "{out}");
    let bom = temp_bytes(
        "bom.pgn",
        "\u{feff}[Event \"x\"]\r\n\r\n1. d4 d5 *\r\n".as_bytes(),
    );
    let (ok, out, err) = run(&["replay", &bom]);
    assert!(ok, "{err}");
    assert!(out.contains("(2 plies)"), "{out}");
}

#[test]
fn a_record_without_variant_tag_is_orthodox_chess() {
    let pgn = temp(
        "no-variant.pgn",
        "[Event \"x\"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n",
    );
    let (ok, out, err) = run(&["replay", &pgn]);
    assert!(ok, "{err}");
    assert!(out.contains("checkmate, White wins"), "{out}");
}

#[test]
fn errors_in_a_file_of_several_games_name_the_game() {
    let pgn = temp(
        "several-bad.pgn",
        "[White \"Ann\"]\n[Black \"Bob\"]\n\n1. e4 e5 *\n\n\
         [White \"Cid\"]\n[Black \"Dee\"]\n[Event \"Club\"]\n\n1. e4 Ke7 2. Kf3 *\n",
    );
    let (ok, _, err) = run(&["replay", &pgn]);
    assert!(!ok);
    assert!(err.contains("game 2 of 2 (Cid - Dee, Club)"), "{err}");
    let broken = temp(
        "several-syntax.pgn",
        "[White \"Ann\"]\n[Black \"Bob\"]\n\n1. e4 e5 *\n\n[White \"Cid\"]\n[Black \"Dee\"]\n\n1. e4 {never closed\n",
    );
    let (ok, _, err) = run(&["replay", &broken]);
    assert!(!ok);
    assert!(err.contains("game 2: Cid - Dee"), "{err}");
}

#[test]
fn a_million_bad_move_numbers_give_a_bounded_number_of_warnings() {
    let text = format!(
        "[Variant \"chess\"]\n\n1. e4 {} e5 *\n",
        "9. ".repeat(1_000_000)
    );
    let pgn = temp("bad-numbers.pgn", &text);
    let (ok, _, err) = run(&["replay", &pgn]);
    assert!(ok, "{}", &err[..err.len().min(2000)]);
    assert!(err.lines().count() <= 20, "{} lines", err.lines().count());
    assert!(err.contains("more like these"), "{err}");
}
