//! `modern-chess bench` run the way a user runs it: from another directory (the positions are
//! built in), checking the node counts against the reference file.

use std::process::Command;

fn bench(args: &[&str]) -> (bool, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_modern-chess"))
        .arg("bench")
        .args(args)
        .current_dir(std::env::temp_dir())
        .output()
        .expect("run modern-chess");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn bench_runs_every_variant_from_any_directory() {
    let (ok, out, err) = bench(&["--max-nodes", "30000", "--threads", "2"]);
    assert!(ok, "{out}\n{err}");
    for v in ["MRC", "MRC64", "MERC", "ICRC", "PMRC", "chess", "chess960"] {
        assert!(
            out.lines().any(|l| l.starts_with(&format!("| {v} |"))),
            "no summary row for {v}:\n{out}"
        );
    }
    assert!(out.contains("node counts agree"), "{out}");
    let size = out
        .lines()
        .next()
        .and_then(|l| l.strip_prefix("Position: "))
        .and_then(|l| l.split(' ').next())
        .and_then(|n| n.parse::<usize>().ok())
        .expect("the first line gives the size of a position");
    assert!(size > 0 && size <= 1024, "{size}");
}

#[test]
fn bench_filters_variants_and_rejects_unknown_ones() {
    let (ok, out, _) = bench(&["--max-nodes", "30000", "--variants", "pmrc", "--all"]);
    assert!(ok);
    // every PMRC position of the reference file, nothing else
    assert_eq!(
        out.lines().filter(|l| l.starts_with("PMRC ")).count(),
        9,
        "{out}"
    );
    assert!(!out.contains("| MRC |"));
    let (ok, _, err) = bench(&["--variants", "nosuch"]);
    assert!(!ok);
    assert!(err.contains("no bench position"), "{err}");
}

#[test]
fn missing_engine_is_an_error_not_a_panic() {
    let (ok, _, err) = bench(&[
        "--max-nodes",
        "1000",
        "--fairy-stockfish",
        "/nonexistent/fairy-stockfish",
    ]);
    assert!(!ok);
    assert!(err.contains("cannot start"), "{err}");
    assert!(!err.contains("panicked"), "{err}");
}

/// Needs `apt-get install fairy-stockfish stockfish`: the generated variants.ini must make
/// Fairy-Stockfish count the same trees as we do on every reference position.
#[test]
#[ignore = "needs /usr/games/fairy-stockfish and /usr/games/stockfish"]
fn bench_agrees_with_fairy_stockfish_and_stockfish() {
    let (ok, out, err) = bench(&[
        "--all",
        "--max-nodes",
        "300000",
        "--fairy-stockfish",
        "/usr/games/fairy-stockfish",
        "--stockfish",
        "/usr/games/stockfish",
    ]);
    assert!(ok, "{out}\n{err}");
    assert!(out.contains("node counts agree"), "{out}");
    assert_eq!(
        out.lines()
            .filter(|l| l.contains("fairy-stockfish"))
            .count(),
        56,
        "{out}"
    );
}
