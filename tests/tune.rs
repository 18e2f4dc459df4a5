//! `modern-chess tune` end to end, through the built binary: self-play games saved as PGN,
//! their positions scored by another UCI engine (`--score-with`, here our own binary), and
//! a fit from those scores. Every run has a time limit, so a hang fails the test.

mod support;

use std::path::Path;
use std::time::Duration;

fn tune(args: &[&str], dir: &Path) -> support::Run {
    let mut all = vec!["tune"];
    all.extend_from_slice(args);
    support::run(support::command(&all, dir), b"", Duration::from_secs(300))
}

/// `tune` fitting MRC64 from `pgn` alone on the scores (`--lambda 0`), writing `out`, with
/// `extra` arguments.
fn fit_on_scores(pgn: &str, out: &str, extra: &[&str], dir: &std::path::Path) -> support::Run {
    let mut args = vec![
        "--variant",
        "mrc64",
        "--games",
        "0",
        "--pgn",
        pgn,
        "--lambda",
        "0",
        "--out",
        out,
    ];
    args.extend_from_slice(extra);
    tune(&args, dir)
}

#[test]
fn positions_scored_by_another_engine_are_saved_and_learned_from() {
    let dir = support::temp_dir("tune-score-with");
    let pgn = dir.join("games.pgn");
    let pgn = pgn.to_str().unwrap();
    let first = dir.join("first.toml");
    let r = tune(
        &[
            "--variant",
            "mrc64",
            "--games",
            "4",
            "--nodes",
            "200",
            "--save-games",
            pgn,
            "--out",
            first.to_str().unwrap(),
        ],
        &dir,
    );
    assert!(r.status.success(), "{}", r.stderr);
    std::fs::remove_file(format!("{pgn}.scores")).unwrap();

    let scorer = format!("{} uci", support::BIN);
    let out = dir.join("scored.toml");
    let out_s = out.to_str().unwrap();
    let r = fit_on_scores(
        pgn,
        out_s,
        &["--score-with", &scorer, "--score-depth", "2"],
        &dir,
    );
    assert!(r.status.success(), "{}", r.stderr);
    assert!(r.stderr.contains("score-with modern-chess"), "{}", r.stderr);
    let scores = std::fs::read_to_string(format!("{pgn}.scores")).unwrap();
    let games = std::fs::read_to_string(pgn).unwrap();
    assert_eq!(scores.lines().count(), games.matches("[Event ").count());
    for line in scores.lines() {
        let words: Vec<&str> = line.split_whitespace().collect();
        assert!(
            words[..8].iter().all(|w| *w == "-"),
            "opening plies: {line}"
        );
        let numbers = words.iter().filter(|w| w.parse::<i32>().is_ok()).count();
        assert!(
            numbers * 2 > words.len() - 8,
            "most positions scored: {line}"
        );
        assert!(words.iter().all(|w| *w == "-" || w.parse::<i32>().is_ok()));
    }
    assert!(std::fs::read_to_string(&out)
        .unwrap()
        .contains("\"tempo\" = ["));

    // At depth 0 the scorer gives its static evaluation (Stockfish's `eval` line), not a
    // search score: positions are still scored, with no search.
    let r = fit_on_scores(
        pgn,
        out_s,
        &["--score-with", &scorer, "--score-depth", "0"],
        &dir,
    );
    assert!(r.status.success(), "{}", r.stderr);
    let scores = std::fs::read_to_string(format!("{pgn}.scores")).unwrap();
    let numbers: Vec<i32> = scores
        .split_whitespace()
        .filter_map(|w| w.parse().ok())
        .collect();
    assert!(numbers.len() > 20, "static scores: {scores}");

    // A later fit reads the saved scores without running the engine again.
    let r = fit_on_scores(pgn, out_s, &[], &dir);
    assert!(r.status.success(), "{}", r.stderr);
    assert!(
        !r.stderr.contains("score-with modern-chess"),
        "{}",
        r.stderr
    );
}

/// `--search-positions` writes positions the self-play searches evaluated; `--positions`
/// labels them with another engine's static evaluation, keeps the labels, and fits them.
#[test]
fn search_positions_are_written_labelled_and_learned_from() {
    let dir = support::temp_dir("tune-search-positions");
    let fens = dir.join("tree.fens");
    let fens_s = fens.to_str().unwrap();
    let r = tune(
        &[
            "--variant",
            "mrc64",
            "--games",
            "1",
            "--nodes",
            "300",
            "--sample-per-mille",
            "40",
            "--search-positions",
            fens_s,
        ],
        &dir,
    );
    assert!(r.status.success(), "{}", r.stderr);
    let text = std::fs::read_to_string(&fens).unwrap();
    assert!(text.lines().count() > 20, "{text}");
    assert!(
        text.lines().all(|l| l.split_whitespace().count() == 6),
        "{text}"
    );

    let scorer = format!("{} uci", support::BIN);
    let out = dir.join("tree.toml");
    let fit = |extra: &[&str]| {
        let mut args = vec![
            "--variant",
            "mrc64",
            "--games",
            "0",
            "--positions",
            fens_s,
            "--holdout",
            "0",
            "--epochs",
            "30",
            "--out",
            out.to_str().unwrap(),
        ];
        args.extend_from_slice(extra);
        tune(&args, &dir)
    };
    let r = fit(&["--score-with", &scorer, "--score-depth", "0"]);
    assert!(r.status.success(), "{}", r.stderr);
    let scores = std::fs::read_to_string(format!("{fens_s}.scores")).unwrap();
    assert_eq!(scores.lines().count(), text.lines().count());
    assert!(std::fs::read_to_string(&out)
        .unwrap()
        .contains("1 positions file(s)"));
    // The kept labels serve a later fit without the engine; a stale labels file is refused.
    let r = fit(&[]);
    assert!(r.status.success(), "{}", r.stderr);
    std::fs::write(format!("{fens_s}.scores"), "12\n").unwrap();
    let r = fit(&[]);
    assert!(
        !r.status.success() && r.stderr.contains("labels"),
        "{}",
        r.stderr
    );
    // Labelling again replaces the stale labels.
    let r = fit(&["--score-with", &scorer, "--score-depth", "0"]);
    assert!(r.status.success(), "{}", r.stderr);
}

/// `--siblings` labels every quiet child of each parent with another engine's static
/// evaluation, keeps the labels in `FILE.siblings`, fits them, and refuses a broken labels
/// file with its line number.
#[test]
fn sibling_fit_labels_children_keeps_them_and_fits() {
    let dir = support::temp_dir("tune-siblings");
    let parents = dir.join("parents.fens");
    let p = parents.to_str().unwrap();
    std::fs::write(
        &parents,
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1\n\
         r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3\n\
         rnbqkb1r/pp2pppp/3p1n2/8/3NP3/8/PPP2PPP/RNBQKB1R w KQkq - 1 5\n",
    )
    .unwrap();
    let out = dir.join("sib.toml");
    let fit = |extra: &[&str]| {
        let mut args = vec![
            "--variant",
            "chess",
            "--siblings",
            p,
            "--holdout",
            "0",
            "--out",
            out.to_str().unwrap(),
        ];
        args.extend_from_slice(extra);
        tune(&args, &dir)
    };
    // Without labels and without an engine to make them: an error, not a fit.
    let r = fit(&[]);
    assert!(
        !r.status.success() && r.stderr.contains("--score-with"),
        "{}",
        r.stderr
    );
    let scorer = format!("{} uci", support::BIN);
    let r = fit(&["--score-with", &scorer]);
    assert!(r.status.success(), "{}", r.stderr);
    let labels = std::fs::read_to_string(format!("{p}.siblings")).unwrap();
    // Every line is family|FEN|cp, the three families all there.
    assert!(labels.lines().count() > 60, "{labels}");
    for l in labels.lines() {
        let f: Vec<&str> = l.split('|').collect();
        assert_eq!(f.len(), 3, "{l}");
        assert!(f[2].parse::<i32>().is_ok(), "{l}");
    }
    for fam in ["0|", "1|", "2|"] {
        assert!(labels.lines().any(|l| l.starts_with(fam)), "{fam}");
    }
    let written = std::fs::read_to_string(&out).unwrap();
    assert!(written.contains("tune --siblings"), "{written}");
    assert!(r.stderr.contains("within families"), "{}", r.stderr);
    // The kept labels serve a later fit; a broken line is named.
    let r = fit(&[]);
    assert!(r.status.success(), "{}", r.stderr);
    std::fs::write(format!("{p}.siblings"), "0|not a fen|12\n").unwrap();
    let r = fit(&[]);
    assert!(
        !r.status.success() && r.stderr.contains("line 1"),
        "{}",
        r.stderr
    );
    std::fs::write(format!("{p}.siblings"), "0|x\n").unwrap();
    let r = fit(&[]);
    assert!(
        !r.status.success() && r.stderr.contains("family|FEN|cp"),
        "{}",
        r.stderr
    );
}

#[test]
fn a_scoring_engine_that_cannot_start_is_an_error() {
    let dir = support::temp_dir("tune-score-with-missing");
    let pgn = dir.join("g.pgn");
    std::fs::write(
        &pgn,
        "[Event \"x\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n",
    )
    .unwrap();
    let r = tune(
        &[
            "--variant",
            "chess",
            "--games",
            "0",
            "--pgn",
            pgn.to_str().unwrap(),
            "--score-with",
            "/nonexistent/engine",
        ],
        &dir,
    );
    assert!(!r.status.success());
    assert!(r.stderr.contains("cannot start engine"), "{}", r.stderr);
    assert!(!r.stderr.contains("panicked"), "{}", r.stderr);
}

/// Short chess games in which White always takes what hangs: the teacher's moves.
const TEACHER_GAMES: &str = "[Event \"t\"]\n[Result \"*\"]\n\n1. e4 d5 2. exd5 Qxd5 3. Nc3 Qe5+ 4. Be2 Bg4 5. d4 Bxe2 6. Ngxe2 Qe6 7. O-O Nc6 8. d5 Qd6 *\n\n[Event \"t\"]\n[Result \"*\"]\n\n1. d4 e5 2. dxe5 Nc6 3. Nf3 Qe7 4. Bf4 Qb4+ 5. Bd2 Qxb2 6. Bc3 Bb4 7. Bxb2 Bxc3+ 8. Nbd2 Bxd2+ 9. Qxd2 d6 10. Kd1 Be6 11. e4 O-O-O 12. Kc1 d5 *\n";

/// `tune` arguments that imitate the games of `pgn` in chess and write the weights to `out`.
fn imitate_args(pgn: &Path, out: &Path, epochs: &str, holdout: &str) -> Vec<String> {
    let (pgn, out) = (pgn.to_str().unwrap(), out.to_str().unwrap());
    [
        "--variant",
        "chess",
        "--games",
        "0",
        "--imitate",
        pgn,
        "--epochs",
        epochs,
        "--holdout",
        holdout,
        "--out",
        out,
    ]
    .map(String::from)
    .to_vec()
}

#[test]
fn a_teachers_moves_are_imitated() {
    let dir = support::temp_dir("tune-imitate");
    let pgn = dir.join("teacher.pgn");
    std::fs::write(&pgn, TEACHER_GAMES.repeat(3)).unwrap();
    let out = dir.join("imitated.toml");
    let owned = imitate_args(&pgn, &out, "30", "3");
    let args: Vec<&str> = owned.iter().map(String::as_str).collect();
    let r = tune(&args, &dir);
    assert!(r.status.success(), "{}", r.stderr);
    assert!(r.stderr.contains("held-out"), "{}", r.stderr);
    let written = std::fs::read_to_string(&out).unwrap();
    assert!(written.contains("tune --imitate"), "{written}");
    assert!(written.contains("\"material.N\" = ["), "{written}");

    // Self-play or Texel PGN samples cannot be mixed in: the error says so.
    let without_games: Vec<&str> = [&args[..2], &args[4..]].concat();
    let r = tune(&without_games, &dir);
    assert!(!r.status.success());
    assert!(r.stderr.contains("--games 0"), "{}", r.stderr);
    assert!(!r.stderr.contains("panicked"), "{}", r.stderr);

    // A teacher no game names is an error, not an empty fit.
    let r = tune(&[&args[..], &["--teacher", "Nobody"]].concat(), &dir);
    assert!(!r.status.success());
    assert!(r.stderr.contains("--teacher"), "{}", r.stderr);
    assert!(!r.stderr.contains("panicked"), "{}", r.stderr);
}

/// "imitate: G games, T training positions, H held out": G and T + H.
fn imitated_counts(stderr: &str) -> (usize, usize) {
    let line = stderr
        .lines()
        .find(|l| l.contains("training positions"))
        .unwrap_or_else(|| panic!("no counts in {stderr}"));
    let n: Vec<usize> = line
        .split(|c: char| !c.is_ascii_digit())
        .filter_map(|w| w.parse().ok())
        .collect();
    (n[0], n[1] + n[2])
}

#[test]
fn a_named_teacher_is_learnt_from_alone() {
    let dir = support::temp_dir("tune-imitate-teacher");
    let pgn = dir.join("match.pgn");
    // The teacher plays White in the first game and Black in the second; a third game
    // between two others is skipped.
    let tagged = TEACHER_GAMES
        .replacen(
            "[Event \"t\"]",
            "[Event \"t\"]\n[White \"Strong 1.0\"]\n[Black \"Weak\"]",
            1,
        )
        .replacen(
            "[Event \"t\"]\n[Result",
            "[Event \"t\"]\n[White \"Weak\"]\n[Black \"Strong 1.0\"]\n[Result",
            1,
        );
    let other = TEACHER_GAMES.split("\n\n[Event").next().unwrap().replacen(
        "[Event \"t\"]",
        "[Event \"t\"]\n[White \"A\"]\n[Black \"B\"]",
        1,
    );
    std::fs::write(&pgn, format!("{tagged}\n{other}\n")).unwrap();
    let owned = imitate_args(&pgn, &dir.join("w.toml"), "2", "2");
    let args: Vec<&str> = owned.iter().map(String::as_str).collect();
    let all = tune(&args, &dir);
    assert!(all.status.success(), "{}", all.stderr);
    let taught = tune(&[&args[..], &["--teacher", "Strong"]].concat(), &dir);
    assert!(taught.status.success(), "{}", taught.stderr);
    let (games_all, positions_all) = imitated_counts(&all.stderr);
    let (games_taught, positions_taught) = imitated_counts(&taught.stderr);
    assert_eq!((games_all, games_taught), (3, 2));
    // About half the moves of two of the three games are the teacher's.
    assert!(
        positions_taught * 4 < positions_all * 3 && positions_taught * 4 > positions_all,
        "{positions_taught} of {positions_all}"
    );
}
