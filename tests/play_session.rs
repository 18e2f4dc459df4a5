//! `modern-chess play` as a person meets it: nothing is lost, refusals say why, the engine
//! says what it does. Every run goes through the real binary with a time limit, and the data
//! directory is a temporary one (`XDG_DATA_HOME`).

mod support;

use std::time::Duration;
use support::{command, run, temp_dir};

const LIMIT: Duration = Duration::from_secs(60);

#[test]
fn a_huge_hash_is_refused_with_a_message() {
    let data = temp_dir("huge-hash");
    let r = run(
        command(&["play", "--variant", "chess", "--hash", "100000"], &data),
        b"quit\n",
        LIMIT,
    );
    assert_eq!(r.status.code(), Some(1), "{}", r.stderr);
    assert!(
        r.stderr.contains("--hash") && r.stderr.contains("4096"),
        "{}",
        r.stderr
    );
    assert!(!r.stderr.contains("memory allocation"), "{}", r.stderr);
}

use std::path::{Path, PathBuf};
use support::{wait_for_file, Live, Run, TempDir};

/// The autosave directory under a test's data directory.
fn saves(data: &Path) -> PathBuf {
    data.join("modern-chess")
}

/// A `play` run in a fresh data directory, which lives as long as the returned guard.
fn play(args: &[&str], input: &[u8], name: &str) -> (Run, TempDir) {
    let data = temp_dir(name);
    let mut full = vec!["play"];
    full.extend_from_slice(args);
    let r = run(command(&full, &data), input, LIMIT);
    (r, data)
}

fn replay(file: &Path, data: &Path) -> Run {
    run(
        command(&["replay", &file.display().to_string()], data),
        b"",
        LIMIT,
    )
}

const PEOPLE: [&str; 6] = ["--variant", "chess", "--white", "human", "--black", "human"];

#[test]
fn the_game_is_saved_after_every_move_and_replays() {
    let data = temp_dir("autosave-each-move");
    let mut live = Live::start(&[&["play"], &PEOPLE[..]].concat(), &data);
    live.wait_for("the autosave path", LIMIT, |o| o.contains("Autosave: "));
    let dir = saves(&data);
    for (typed, record) in [("e4", "1. e4 *"), ("e5", "1. e4 e5 *"), ("Nf3", "2. Nf3 *")] {
        live.send(&format!("{typed}\n"));
        wait_for_file(&dir, LIMIT, record, |t| t.contains(record));
    }
    let (status, out) = live.finish(LIMIT);
    assert!(status.success(), "{out}");
    let file = wait_for_file(&dir, LIMIT, "the game", |t| t.contains("2. Nf3"));
    assert!(
        out.contains(&file.display().to_string()),
        "path shown: {out}"
    );
    let text = std::fs::read_to_string(&file).unwrap();
    assert!(text.contains("[Variant \"chess\"]"), "{text}");
    // A chess game replays without --variant.
    let r = replay(&file, &data);
    assert!(r.status.success(), "{}", r.stderr);
    assert!(r.stdout.contains("(3 plies)"), "{}", r.stdout);
}

/// Plays two moves, sends the signal at the prompt, and checks the exit and the file.
fn signal_saves(sig: &str) {
    let data = temp_dir(&format!("signal-{sig}"));
    let mut live = Live::start(&[&["play"], &PEOPLE[..]].concat(), &data);
    live.send("d4\nd5\n");
    live.wait_for("the prompt after 1... d5", LIMIT, |o| {
        o.contains("Black plays 1... d5") && o.ends_with("White > ")
    });
    live.signal(sig);
    live.wait_for("the message", LIMIT, |o| o.contains("Interrupted"));
    let (status, out) = live.finish(LIMIT);
    assert!(status.success(), "SIG{sig}: {status:?}\n{out}");
    assert!(out.contains(&format!("Interrupted (SIG{sig})")), "{out}");
    let file = wait_for_file(&saves(&data), LIMIT, "the game", |t| t.contains("1. d4 d5"));
    let r = replay(&file, &data);
    assert!(r.status.success(), "{}", r.stderr);
    assert!(r.stdout.contains("(2 plies)"), "{}", r.stdout);
}

#[test]
fn sigint_saves_the_game() {
    signal_saves("INT");
}

#[test]
fn sigterm_saves_the_game() {
    signal_saves("TERM");
}

#[test]
fn sighup_saves_the_game() {
    signal_saves("HUP");
}

#[test]
fn ctrl_c_while_the_engine_thinks_makes_it_move_then_quits() {
    let data = temp_dir("ctrl-c-thinking");
    let mut live = Live::start(
        &["play", "--variant", "chess", "--movetime", "30000"],
        &data,
    );
    live.send("e4\n");
    live.wait_for("the engine thinking", LIMIT, |o| o.contains("thinking "));
    let started = std::time::Instant::now();
    live.signal("INT");
    live.wait_for("the engine's move", LIMIT, |o| {
        o.contains("Black plays 1...")
    });
    assert!(started.elapsed() < Duration::from_secs(20), "moved at once");
    live.wait_for("the prompt", LIMIT, |o| o.ends_with("White > "));
    live.signal("INT");
    live.wait_for("the message", LIMIT, |o| o.contains("Interrupted"));
    let (status, out) = live.finish(LIMIT);
    assert!(status.success(), "{out}");
    assert!(out.contains("moved at once on Ctrl-C"), "{out}");
    assert!(out.contains("Interrupted (SIGINT)"), "{out}");
}

#[test]
fn resume_continues_the_latest_game_or_a_named_file() {
    let (r, data) = play(&PEOPLE, b"e4\ne5\nquit\n", "resume");
    assert!(r.status.success(), "{}", r.stderr);
    let mut cmd = command(&["play", "--resume"], &data);
    cmd.env("XDG_DATA_HOME", &data);
    let r = run(cmd, b"Nf3\n", LIMIT);
    assert!(r.status.success(), "{}", r.stderr);
    assert!(r.stdout.contains("(2 plies played)"), "{}", r.stdout);
    assert!(r.stdout.contains("White plays 2. Nf3"), "{}", r.stdout);
    // Both sides were people in the saved game, so nobody else moved.
    assert!(!r.stdout.contains("Black plays 2..."), "{}", r.stdout);
    let file = wait_for_file(&saves(&data), LIMIT, "2. Nf3", |t| t.contains("2. Nf3"));
    let r = run(
        command(&["play", "--resume", &file.display().to_string()], &data),
        b"Nc6\n",
        LIMIT,
    );
    assert!(r.stdout.contains("Black plays 2... Nc6"), "{}", r.stdout);
    let text = std::fs::read_to_string(&file).unwrap();
    assert!(text.contains("2. Nf3 Nc6"), "{text}");
}

#[test]
fn save_refuses_to_overwrite_and_an_unwritable_path_leaves_the_game_going() {
    let data = temp_dir("save-refuses");
    let kept = data.join("kept.pgn");
    std::fs::write(&kept, "a 19-move game").unwrap();
    let input = format!(
        "e4\nsave {0}\nsave /nonexistent-dir/x.pgn\ne5\nsave! {0}\n",
        kept.display()
    );
    let mut full = vec!["play"];
    full.extend_from_slice(&PEOPLE);
    let r = run(command(&full, &data), input.as_bytes(), LIMIT);
    assert!(r.status.success(), "{}", r.stderr);
    assert!(r.stdout.contains("exists already"), "{}", r.stdout);
    assert!(
        r.stdout.contains(&format!("save! {}", kept.display())),
        "{}",
        r.stdout
    );
    assert!(
        r.stderr
            .contains("Could not save to /nonexistent-dir/x.pgn"),
        "{}",
        r.stderr
    );
    assert!(
        r.stdout.contains("Black plays 1... e5"),
        "the game went on: {}",
        r.stdout
    );
    let text = std::fs::read_to_string(&kept).unwrap();
    assert!(text.contains("1. e4 e5"), "save! replaced it: {text}");
}

#[test]
fn a_capture_mark_onto_an_empty_square_is_refused() {
    let (r, _) = play(&PEOPLE, b"Nxc3\nNc3\n", "not-a-capture");
    assert!(r.stdout.contains("Nc3 is not a capture"), "{}", r.stdout);
    assert_eq!(
        r.stdout.matches("White plays 1. Nc3").count(),
        1,
        "{}",
        r.stdout
    );
}

#[test]
fn refusals_say_why() {
    let cases: [(&str, &str, &str); 4] = [
        (
            "4k3/8/8/8/1b6/4n3/3P4/4K3 w - - 0 1",
            "dxe3",
            "the pawn on d2 is pinned to the king by the bishop on b4",
        ),
        (
            "4k3/8/8/8/8/4n3/4P3/4K3 w - - 0 1",
            "e4",
            "the path of the pawn on e2 is blocked by the knight on e3",
        ),
        (
            "4k3/8/8/8/8/8/3P4/r3K3 w - - 0 1",
            "d3",
            "your king is in check from the rook on a1 and this move does not help",
        ),
        (
            "4k3/8/8/8/8/8/8/r3K3 w - - 0 1",
            "Kf1",
            "the king would be in check on f1 from the rook on a1",
        ),
    ];
    for (fen, typed, why) in cases {
        let args = [&PEOPLE[..], &["--fen", fen]].concat();
        let (r, _) = play(&args, format!("{typed}\n").as_bytes(), "refusals");
        assert!(r.stdout.contains(why), "{typed}: {}", r.stdout);
        assert!(!r.stdout.contains("White plays"), "{}", r.stdout);
    }
    // Bishop Adjustment: MRC BQRMBNKNR has bishops on a1 and e1, the queen on b1.
    let (r, _) = play(
        &[
            "--variant",
            "mrc",
            "--setup",
            "BQRMBNKNR",
            "--black",
            "human",
        ],
        b"Be<=>Q\nBa<=>Q\na7\nBb<=>R\n",
        "adjustment-refusals",
    );
    assert!(
        r.stdout
            .contains("there is no queen of yours beside the bishop on e1"),
        "{}",
        r.stdout
    );
    assert!(
        r.stdout.contains("the adjustment right is used"),
        "{}",
        r.stdout
    );
}

#[test]
fn scores_are_from_whites_side_and_labelled() {
    // Black (the engine) is a queen up: its score must read negative, Black winning.
    let fen = "3qk3/8/8/8/8/8/8/4K3 w - - 0 1";
    let (r, _) = play(
        &["--variant", "chess", "--fen", fen, "--depth", "3"],
        b"Kf2\nanalyze\nhint\n",
        "white-side-score",
    );
    let line = r
        .stdout
        .lines()
        .find(|l| l.starts_with("Black plays 1... "))
        .unwrap_or_else(|| panic!("{}", r.stdout));
    assert!(
        line.contains("eval -") && line.contains("Black is winning"),
        "{line}"
    );
    assert!(line.contains(" s, depth 3"), "time taken: {line}");
    assert!(r.stdout.contains("Analysis ("), "{}", r.stdout);
    assert!(r.stdout.contains("Hint: 2. K"), "{}", r.stdout);
    assert!(
        r.stdout.contains("  thinking "),
        "piped thinking lines: {}",
        r.stdout
    );
}

#[test]
fn the_board_faces_black_when_the_human_plays_black() {
    let (r, _) = play(
        &[
            "--variant",
            "chess",
            "--white",
            "engine",
            "--black",
            "human",
            "--depth",
            "1",
        ],
        b"",
        "orientation",
    );
    let first_rank_line = r
        .stdout
        .lines()
        .find(|l| l.trim_start().starts_with(|c: char| c.is_ascii_digit()))
        .unwrap_or_else(|| panic!("{}", r.stdout));
    assert!(first_rank_line.starts_with(" 1 "), "{}", r.stdout);
    assert!(r.stdout.contains("h g f e d c b a"), "{}", r.stdout);
}

#[test]
fn undo_with_the_engine_to_move_never_leaves_the_game_stuck() {
    let (r, _) = play(
        &[
            "--variant",
            "chess",
            "--white",
            "engine",
            "--black",
            "human",
            "--depth",
            "1",
        ],
        b"undo\ne5\n",
        "undo-engine-first",
    );
    assert!(r.status.success(), "{}", r.stderr);
    assert!(r.stdout.contains("Nothing to undo"), "{}", r.stdout);
    assert!(r.stdout.contains("Black plays 1... e5"), "{}", r.stdout);
    assert!(
        r.stdout.contains("White plays 2. "),
        "the engine moved again: {}",
        r.stdout
    );
}

#[test]
fn undo_after_resign_takes_back_only_the_resignation() {
    let (r, _) = play(&PEOPLE, b"e4\nresign\nundo\nfen\ne5\n", "undo-resign");
    assert!(
        r.stdout.contains("Game over: Black resigns"),
        "{}",
        r.stdout
    );
    assert!(r.stdout.contains("Resignation taken back."), "{}", r.stdout);
    assert!(
        r.stdout
            .contains("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b "),
        "e4 stays: {}",
        r.stdout
    );
    assert!(r.stdout.contains("Black plays 1... e5"), "{}", r.stdout);
}

#[test]
fn a_line_that_is_not_utf8_is_one_bad_line() {
    let (r, _) = play(&PEOPLE, b"e\xff4\ne4\n", "not-utf8");
    assert!(r.status.success(), "{}", r.stderr);
    assert!(r.stdout.contains("not text"), "{}", r.stdout);
    assert!(r.stdout.contains("White plays 1. e4"), "{}", r.stdout);
}

#[test]
fn level_and_time_change_the_engine_in_game() {
    let (r, _) = play(
        &["--variant", "chess"],
        b"level 1\ntime 50\nlevel 9\ntime x\n",
        "level-time",
    );
    // Level 1 is the engine's weakest level (engine::Level): skill 0 at 100 ms a move.
    assert!(
        r.stdout.contains("Level 1: skill 0 of 20, 100 ms a move."),
        "{}",
        r.stdout
    );
    assert!(
        r.stdout.contains("Engine time: 50 ms a move."),
        "{}",
        r.stdout
    );
    assert!(
        r.stdout.contains("level needs a number from 1 to 8"),
        "{}",
        r.stdout
    );
    assert!(r.stdout.contains("time needs milliseconds"), "{}", r.stdout);
}
