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
