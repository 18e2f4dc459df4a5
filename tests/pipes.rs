//! Every command that prints stops quietly when its reader goes away (`... | head`): exit
//! status 0 and no panic message. The test closes the pipe before the program writes at all.

mod support;

use std::process::Stdio;
use std::time::Duration;
use support::{command, temp_dir, wait};

fn closed_stdout(args: &[&str], name: &str) {
    let data = temp_dir(&format!("pipe-{name}"));
    let mut child = command(args, &data)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run modern-chess");
    // The reader is gone before the first line is written.
    drop(child.stdout.take());
    let run = wait(child, Duration::from_secs(60), name);
    assert!(
        !run.stderr.contains("panicked") && !run.stderr.contains("Broken pipe"),
        "{name}: {}",
        run.stderr
    );
    assert_eq!(run.status.code(), Some(0), "{name}: {}", run.stderr);
}

#[test]
fn positions_list_into_a_closed_pipe() {
    closed_stdout(&["positions", "--variant", "mrc", "--list"], "positions");
}

#[test]
fn perft_divide_into_a_closed_pipe() {
    closed_stdout(&["perft", "--variant", "chess", "--divide", "3"], "perft");
}

#[test]
fn replay_verbose_into_a_closed_pipe() {
    let game = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/mrc-6787.pgn");
    closed_stdout(&["replay", "--verbose", game], "replay");
}

#[test]
fn play_into_a_closed_pipe() {
    closed_stdout(
        &[
            "play",
            "--variant",
            "chess",
            "--white",
            "engine",
            "--black",
            "engine",
            "--depth",
            "1",
        ],
        "play",
    );
}

#[test]
fn bench_into_a_closed_pipe() {
    closed_stdout(
        &["bench", "--max-nodes", "2000", "--variants", "chess"],
        "bench",
    );
}
