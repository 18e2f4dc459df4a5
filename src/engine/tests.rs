//! Engine tests: mates, tactics, legality at any limit, levels.

use super::*;
use crate::catalog;
use std::time::Instant;

fn engine(v: &str) -> (Arc<Rules>, Engine) {
    let rules = Arc::new(catalog::load_rules(v).unwrap());
    let e = Engine::new(Arc::clone(&rules), 8);
    (rules, e)
}

fn best(e: &mut Engine, pos: Position, depth: u32) -> (Move, Vec<SearchInfo>) {
    let stop = AtomicBool::new(false);
    let mut infos = Vec::new();
    let m = e
        .search(
            &[pos],
            &Limits {
                depth: Some(depth),
                ..Limits::default()
            },
            &stop,
            &mut |i| infos.push(i.clone()),
        )
        .unwrap();
    (m, infos)
}

#[test]
fn finds_mate_in_one() {
    // Chess back-rank mate: Ra8#.
    let (rules, mut e) = engine("chess");
    let pos = Position::from_fen(&rules, "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1").unwrap();
    let (m, infos) = best(&mut e, pos, 3);
    assert_eq!(m.uci(&rules), "a1a8");
    assert_eq!(infos.last().unwrap().mate, Some(1));
}

#[test]
fn takes_a_hanging_queen() {
    let (rules, mut e) = engine("mrc");
    let pos = Position::from_fen(&rules, "4k4/9/9/9/4q4/9/9/4R4/4K4 w - - 0 1").unwrap();
    let (m, _) = best(&mut e, pos, 4);
    assert_eq!(m.uci(&rules), "e2e5");
}

#[test]
fn no_move_when_mated_or_stalemated() {
    let (rules, mut e) = engine("chess");
    let pos = Position::from_fen(&rules, "R5k1/5ppp/8/8/8/8/8/6K1 b - - 0 1").unwrap();
    let stop = AtomicBool::new(false);
    assert_eq!(
        e.search(&[pos], &Limits::default(), &stop, &mut |_| {}),
        None
    );
}

#[test]
fn returns_a_legal_move_even_when_stopped_at_once() {
    let (rules, mut e) = engine("mrc");
    let pos = Position::from_fen(
        &rules,
        &crate::setup::start_fen(
            &rules.variant,
            &crate::setup::from_id(&rules.variant, 6944).unwrap(),
        ),
    )
    .unwrap();
    let stop = AtomicBool::new(true);
    let m = e
        .search(
            std::slice::from_ref(&pos),
            &Limits::default(),
            &stop,
            &mut |_| {},
        )
        .unwrap();
    assert!(pos.legal_moves(&rules).contains(&m));
}

#[test]
fn avoids_stalemating_when_winning() {
    // Chess: Qc7 stalemates the a8 king, Qc8 mates it.
    let (rules, mut e) = engine("chess");
    let pos = Position::from_fen(&rules, "k7/8/1K6/8/8/8/8/2Q5 w - - 0 1").unwrap();
    let (m, _) = best(&mut e, pos.clone(), 5);
    let after = pos.play(&rules, m).unwrap();
    let mated = after.legal_moves(&rules).is_empty() && after.in_check(&rules);
    assert!(mated, "played {} instead of mating", m.uci(&rules));
}

#[test]
fn evaluation_is_symmetric() {
    for v in ["mrc", "mrc64", "merc", "pmrc"] {
        let (rules, e) = engine(v);
        let sp = crate::setup::from_id(&rules.variant, 7).unwrap();
        let pos =
            Position::from_fen(&rules, &crate::setup::start_fen(&rules.variant, &sp)).unwrap();
        let flipped = pos.colour_flipped(&rules);
        assert_eq!(e.evaluate(&pos), e.evaluate(&flipped), "{v}");
    }
}

#[test]
fn movetime_is_respected() {
    let (rules, mut e) = engine("merc");
    let sp = crate::setup::from_id(&rules.variant, 11).unwrap();
    let pos = Position::from_fen(&rules, &crate::setup::start_fen(&rules.variant, &sp)).unwrap();
    let stop = AtomicBool::new(false);
    let t = Instant::now();
    let limits = Limits {
        movetime_ms: Some(200),
        ..Limits::default()
    };
    let m = e.search(std::slice::from_ref(&pos), &limits, &stop, &mut |_| {});
    let ms = t.elapsed().as_millis();
    assert!(m.is_some());
    assert!(ms < 400, "took {ms} ms for a 200 ms search");
}

/// Mate distances checked with Fairy-Stockfish 11.1 (`go depth 16`).
#[test]
fn finds_mates_in_two_and_three() {
    let (rules, mut e) = engine("chess");
    for (fen, moves) in [
        ("k7/8/2K5/8/8/8/8/7R w - - 0 1", 2),
        ("1k6/8/8/3K4/8/8/8/Q7 w - - 0 1", 2),
        ("k7/8/8/3K4/8/8/8/7R w - - 0 1", 3),
        ("7k/8/8/4K3/8/8/8/R7 w - - 0 1", 3),
    ] {
        e.clear();
        let pos = Position::from_fen(&rules, fen).unwrap();
        let (_, infos) = best(&mut e, pos, 12);
        assert_eq!(infos.last().unwrap().mate, Some(moves), "{fen}");
    }
}

/// Random positions of every shipped variant: a random game prefix from a random start.
fn random_positions(rules: &Rules, seed: u64, count: usize) -> Vec<Vec<Position>> {
    let mut rng = seed;
    let mut out = Vec::new();
    while out.len() < count {
        let id = skill::next_random(&mut rng) % crate::setup::count(&rules.variant);
        let sp = crate::setup::from_id(&rules.variant, id).unwrap();
        let fen = crate::setup::start_fen(&rules.variant, &sp);
        let mut game = vec![Position::from_fen(rules, &fen).unwrap()];
        let plies = skill::next_random(&mut rng) % 60;
        for _ in 0..plies {
            let moves = game.last().unwrap().legal_moves(rules);
            if moves.is_empty() {
                break;
            }
            let m = moves.as_slice()[(skill::next_random(&mut rng) % moves.len() as u64) as usize];
            let next = game.last().unwrap().play_unchecked(rules, m);
            game.push(next);
        }
        if !game.last().unwrap().legal_moves(rules).is_empty() {
            out.push(game);
        }
    }
    out
}

#[test]
fn returns_a_legal_move_in_every_variant_at_any_limit() {
    let limits = [
        Limits::movetime(1),
        Limits::movetime(5),
        Limits {
            nodes: Some(1),
            ..Limits::default()
        },
        Limits {
            depth: Some(1),
            ..Limits::default()
        },
        Limits {
            depth: Some(3),
            ..Limits::default()
        },
    ];
    for (i, v) in catalog::BUILTIN.iter().map(|(n, _)| *n).enumerate() {
        let (rules, mut e) = engine(v);
        if i % 2 == 1 {
            e.set_threads(2);
        }
        for (j, game) in random_positions(&rules, 17 + i as u64, 4)
            .iter()
            .enumerate()
        {
            for l in &limits {
                let stop = AtomicBool::new(false);
                let t = Instant::now();
                let m = e.search(game, l, &stop, &mut |_| {}).unwrap();
                let pos = game.last().unwrap();
                assert!(pos.legal_moves(&rules).contains(&m), "{v} game {j} {l:?}");
                if let Some(mt) = l.movetime_ms {
                    assert!(t.elapsed().as_millis() < mt as u128 + 150, "{v} {l:?}");
                }
            }
        }
    }
}

#[test]
fn weak_skill_levels_still_play_legal_sensible_moves() {
    let (rules, mut e) = engine("mrc");
    e.set_skill(SkillLevel::new(0));
    // The hanging queen is taken even at skill 0: its alternatives lose far too much.
    let pos = Position::from_fen(&rules, "4k4/9/9/9/4q4/9/9/4R4/4K4 w - - 0 1").unwrap();
    for seed in 0..4 {
        e.set_seed(seed);
        let (m, _) = best(&mut e, pos.clone(), 6);
        assert_eq!(m.uci(&rules), "e2e5");
    }
}

#[test]
fn threads_search_together() {
    let (rules, mut e) = engine("merc");
    e.set_threads(3);
    let sp = crate::setup::from_id(&rules.variant, 5).unwrap();
    let pos = Position::from_fen(&rules, &crate::setup::start_fen(&rules.variant, &sp)).unwrap();
    let stop = AtomicBool::new(false);
    let mut last = None;
    let m = e
        .search(
            std::slice::from_ref(&pos),
            &Limits::movetime(150),
            &stop,
            &mut |i| last = Some(i.clone()),
        )
        .unwrap();
    assert!(pos.legal_moves(&rules).contains(&m));
    assert!(last.unwrap().depth >= 3);
}

/// Quiescence generates only the moves that may capture or promote: it must find every one
/// of them, in every shipped variant (hoppers, lame pawns, en passant, optional promotion).
#[test]
fn noisy_generation_finds_every_capture_and_promotion() {
    for (name, _) in crate::catalog::BUILTIN {
        let rules = crate::catalog::load_rules(name).unwrap();
        for game in random_positions(&rules, 77, 6) {
            for pos in &game {
                let keep = |l: &crate::movegen::MoveList| {
                    let mut v: Vec<String> = l
                        .iter()
                        .filter(|&&m| super::movepick::is_noisy(pos, m))
                        .map(|m| m.uci(&rules))
                        .collect();
                    v.sort();
                    v
                };
                let mut all = crate::movegen::MoveList::new();
                pos.pseudo_moves(&rules, &mut all);
                let mut noisy = crate::movegen::MoveList::new();
                pos.pseudo_noisy_moves(&rules, &mut noisy);
                assert_eq!(keep(&all), keep(&noisy), "{name}: {}", pos.fen(&rules));
            }
        }
    }
}

#[test]
fn the_last_search_counts_its_unfinished_iteration() {
    let (rules, mut e) = engine("mrc");
    let pos = Position::from_fen(
        &rules,
        "rnbqkmbnr/ppppppppp/9/9/9/9/9/PPPPPPPPP/RNBMKQBNR w AIai - 0 1",
    )
    .unwrap();
    let stop = AtomicBool::new(false);
    let mut last_report = 0;
    let limits = Limits {
        nodes: Some(20_000),
        ..Limits::default()
    };
    e.search(&[pos], &limits, &stop, &mut |i| last_report = i.nodes)
        .unwrap();
    let total = e.last_search_nodes();
    // The node limit ends the search inside an iteration: more than its last report, and
    // within the 1,024 nodes between checks of the limit.
    assert!(total > last_report, "{total} {last_report}");
    assert!((20_000..=21_024).contains(&total), "{total}");
}

#[test]
fn contempt_scores_draws_for_the_engine_and_against_its_opponent() {
    // King and knight against king: every move leads to a drawn position.
    let (rules, mut e) = engine("chess");
    for (colour, fen) in [
        ("white", "8/8/8/4k3/8/8/2N5/4K3 w - - 0 1"),
        ("black", "8/8/8/4K3/8/8/2n5/4k3 b - - 0 1"),
    ] {
        for contempt in [0, 35, -60] {
            e.set_contempt(contempt);
            e.clear();
            let pos = Position::from_fen(&rules, fen).unwrap();
            let (_, infos) = best(&mut e, pos, 4);
            let score = infos.last().unwrap().score_cp;
            assert_eq!(score, -contempt, "{colour} to move, contempt {contempt}");
        }
    }
    e.set_contempt(10_000);
    assert_eq!(e.contempt(), MAX_CONTEMPT);
}

/// The move picker generates captures and promotions first and quiet moves later; together,
/// each filtered by what its moves do, they must be the full list in its own order (the
/// search's move order, and so its tree, depends on it).
#[test]
fn noisy_and_quiet_generation_split_the_full_list_in_order() {
    use crate::movegen::MoveList;
    use movepick::is_noisy;
    for (i, v) in catalog::BUILTIN.iter().map(|(n, _)| *n).enumerate() {
        let rules = catalog::load_rules(v).unwrap();
        for game in random_positions(&rules, 91 + i as u64, 6) {
            for pos in &game {
                let list = |gen: fn(&Position, &Rules, &mut MoveList)| {
                    let mut l = MoveList::new();
                    gen(pos, &rules, &mut l);
                    l.iter().copied().collect::<Vec<Move>>()
                };
                let all = list(Position::pseudo_moves);
                let split = |moves: Vec<Move>, noisy: bool| -> Vec<Move> {
                    moves
                        .into_iter()
                        .filter(|&m| is_noisy(pos, m) == noisy)
                        .collect()
                };
                let mut parts = split(list(Position::pseudo_noisy_moves), true);
                parts.extend(split(list(Position::pseudo_quiet_moves), false));
                let mut expected = split(all.clone(), true);
                expected.extend(split(all, false));
                assert_eq!(parts, expected, "{v} {}", pos.fen(&rules));
            }
        }
    }
}
