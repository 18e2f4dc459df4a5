//! The JSON API of `modern-chess serve` through the real binary on a free port: every
//! endpoint, the bad requests (each answered 4xx with a JSON error and changing nothing),
//! engine moves and their Server-Sent Events, and games coming back after a restart.

mod web_support;

use serde_json::{json, Value};
use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};
use web_support::{free_port, parse_response, raw_request, temp_dir, Served};

fn serve() -> Served {
    Served::start(temp_dir("serve-api"), &[])
}

fn id_of(state: &Value) -> String {
    state["id"].as_str().unwrap().to_string()
}

fn sans(state: &Value) -> Vec<String> {
    state["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["san"].as_str().unwrap().to_string())
        .collect()
}

/// Maura's arrangement in MRC: White RNBMKQBNR on a1-i1 (castling and adjustment in reach).
fn mrc_game(s: &Served) -> Value {
    s.new_game(json!({ "variant": "mrc", "setup": "RNBMKQBNR" }))
}

#[test]
fn page_files_and_variants() {
    let dir = temp_dir("serve-variants");
    let extra = dir.join("extra");
    std::fs::create_dir_all(&extra).unwrap();
    let chess =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/variants/chess.toml"))
            .unwrap();
    std::fs::write(
        extra.join("mychess.toml"),
        chess.replace("short = \"chess\"", "short = \"mine\""),
    )
    .unwrap();
    std::fs::write(extra.join("broken.toml"), "name = 3\n").unwrap();
    let s = Served::start_in(
        &dir.join("data"),
        &["--variant-path", extra.to_str().unwrap()],
    );
    let (status, page) = s.get("/");
    assert_eq!(status, 200);
    assert!(page.contains("app.js") && page.contains("chessground"));
    let (status, js) = s.get("/vendor/chessgroundx-10.7.4/chessground.js");
    assert_eq!(status, 200);
    assert!(js.contains("export function Chessground"));
    let raw = raw_request(s.addr, "GET", "/app.js", &[], None);
    assert!(String::from_utf8_lossy(&raw).contains("Content-Type: text/javascript"));
    let (status, body) = s.get_json("/nothing-here");
    assert_eq!(status, 404);
    assert!(body["error"].as_str().unwrap().contains("/nothing-here"));
    let (status, list) = s.get_json("/api/variants");
    assert_eq!(status, 200);
    let names: Vec<&str> = list
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v["name"].as_str().unwrap())
        .collect();
    let mut files: Vec<String> =
        std::fs::read_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/variants"))
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|x| x == "toml"))
            .map(|p| p.file_stem().unwrap().to_string_lossy().to_string())
            .collect();
    files.sort();
    for f in &files {
        assert!(
            names.contains(&f.as_str()),
            "variants/{f}.toml not offered: {names:?}"
        );
    }
    assert!(
        names.contains(&"mychess"),
        "--variant-path file not offered: {names:?}"
    );
    assert!(!names.contains(&"broken"));
    let merc = list
        .as_array()
        .unwrap()
        .iter()
        .find(|v| v["name"] == "merc")
        .unwrap();
    assert_eq!(
        (merc["files"].as_u64(), merc["ranks"].as_u64()),
        (Some(10), Some(10))
    );
    let g = s.new_game(json!({ "variant": "mychess" }));
    assert_eq!(g["variant"]["short"], "mine");
    assert_eq!(g["start_id"], 0);
}

#[test]
fn create_play_and_read_a_game() {
    let s = serve();
    let g = mrc_game(&s);
    assert_eq!(g["start_id"], 6944); // Maura's RNBMKQBNR: the MRC page's #6,944
    assert_eq!(
        g["fen"],
        "rnbqkmbnr/ppppppppp/9/9/9/9/9/PPPPPPPPP/RNBMKQBNR w AIai - 0 1 ABCDEFGHIabcdefghi"
    );
    assert_eq!(g["turn"], "white");
    assert_eq!(g["legal"].as_array().unwrap().len(), 28);
    let minister = g["variant"]["pieces"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["letter"] == "M")
        .unwrap();
    assert_eq!(
        minister["image"],
        Value::Null,
        "no image: drawn as its letter"
    );
    assert_eq!(minister["promotion"], true);
    let id = id_of(&g);
    // Coordinates and SAN.
    s.play(&id, "e2e4");
    let after = s.play(&id, "e6");
    assert_eq!(sans(&after), ["e4", "e6"]);
    assert_eq!(after["moves"][1]["uci"], "e8e6");
    let (status, got) = s.get_json(&format!("/api/games/{id}"));
    assert_eq!(status, 200);
    assert_eq!(got["fen"], after["fen"]);
    let (_, fen) = s.get_json(&format!("/api/games/{id}/fen"));
    assert_eq!(fen["fen"], after["fen"]);
    let (_, moves) = s.get_json(&format!("/api/games/{id}/moves"));
    let list = moves["moves"].as_array().unwrap();
    assert!(list
        .iter()
        .any(|m| m["san"] == "Qe2" && m["from"] == "f1" && m["to"] == "e2"));
    assert!(list
        .iter()
        .all(|m| m["targets"].as_array().is_some_and(|t| !t.is_empty())));
    // The PGN downloads as a file and replays with our own replay command.
    let raw = raw_request(s.addr, "GET", &format!("/api/games/{id}/pgn"), &[], None);
    let text = String::from_utf8_lossy(&raw).to_string();
    assert!(text.contains("Content-Disposition: attachment; filename=\"modern-chess-"));
    let (status, pgn) = parse_response(&raw);
    assert_eq!(status, 200);
    assert!(
        pgn.contains("[Variant \"MRC\"]") && pgn.contains("1. e4 e6 *"),
        "{pgn}"
    );
    let file = s.data.join("game.pgn");
    std::fs::write(&file, &pgn).unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_modern-chess"))
        .arg("replay")
        .arg(&file)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let (_, list) = s.get_json("/api/games");
    assert_eq!(list[0]["id"], id.as_str());
    assert_eq!(list[0]["moves"], 2);
}

/// Plays the moves that clear f1-h1 for White's h-side castling in Maura's arrangement.
fn prepare_castling(s: &Served, id: &str) {
    for m in [
        "e4", "e6", "Ng3", "Nc7", "h3", "a6", "Bh2", "a5", "Qe2", "i6",
    ] {
        s.play(id, m);
    }
}

#[test]
fn castling_and_bishop_adjustment() {
    let s = serve();
    // The king onto its rook, the king to its destination, and the variant's notation.
    for (text, fen_rank) in [
        ("e1i1", "RNBM1RK2"),
        ("e1g1", "RNBM1RK2"),
        ("O-O-Og", "RNBM1RK2"),
    ] {
        let g = mrc_game(&s);
        let id = id_of(&g);
        prepare_castling(&s, &id);
        let before = s.get_json(&format!("/api/games/{id}")).1;
        let castle = before["legal"]
            .as_array()
            .unwrap()
            .iter()
            .find(|m| m["kind"] == "castling")
            .unwrap()
            .clone();
        assert_eq!(castle["san"], "O-O-Og");
        assert_eq!(castle["targets"], json!(["g1", "i1"]));
        let after = s.play(&id, text);
        assert_eq!(sans(&after).last().unwrap(), "O-O-Og", "{text}");
        let rank1 = after["fen"]
            .as_str()
            .unwrap()
            .split(' ')
            .next()
            .unwrap()
            .rsplit('/')
            .next()
            .unwrap();
        assert_eq!(rank1, fen_rank, "{text}");
    }
    // Bishop Adjustment, by SAN and by bishop square -> partner square.
    for text in ["Bc<=>M", "c1d1"] {
        let g = mrc_game(&s);
        let after = s.play(&id_of(&g), text);
        assert_eq!(sans(&after), ["Bc<=>M"]);
        assert!(
            after["fen"].as_str().unwrap().contains("/RNMBKQBNR b"),
            "{}",
            after["fen"]
        );
    }
}

/// Sends a request that must be refused with `status` and a JSON error, and checks that the
/// game did not change.
fn refused(s: &Served, id: &str, method: &str, path: &str, body: &[u8], status: u16) -> String {
    let before = s.get_json(&format!("/api/games/{id}")).1;
    let raw = raw_request(s.addr, method, path, &[], Some(body));
    let (got, text) = parse_response(&raw);
    assert_eq!(
        got,
        status,
        "{method} {path} {}: {text}",
        String::from_utf8_lossy(&body[..body.len().min(80)])
    );
    let v: Value = serde_json::from_str(&text).unwrap_or_else(|e| panic!("not JSON ({e}): {text}"));
    let message = v["error"]
        .as_str()
        .unwrap_or_else(|| panic!("no error: {text}"))
        .to_string();
    let after = s.get_json(&format!("/api/games/{id}")).1;
    for key in ["fen", "moves", "version", "result"] {
        assert_eq!(before[key], after[key], "{key} changed by {method} {path}");
    }
    message
}

#[test]
fn bad_requests_change_nothing() {
    let s = serve();
    let g = mrc_game(&s);
    let id = id_of(&g);
    s.play(&id, "e4");
    let mv = format!("/api/games/{id}/move");
    refuse_bad_moves(&s, &id, &mv);
    refuse_oversized_requests(&s, &id, &mv);
    refuse_unknown_routes(&s, &id);
    refuse_bad_new_games(&s);
    refuse_after_the_end(&s, &id, &mv);
}

/// Illegal, unreadable and wrong-side moves.
fn refuse_bad_moves(s: &Served, id: &str, mv: &str) {
    let m = refused(s, id, "POST", mv, br#"{"move": "e5e7"}"#, 400);
    assert!(m.contains("illegal move"), "{m}");
    refused(s, id, "POST", mv, br#"{"move": "Qz9"}"#, 400);
    refused(s, id, "POST", mv, br#"{"move": "e8e6""#, 400);
    refused(s, id, "POST", mv, b"not json", 400);
    refused(s, id, "POST", mv, br#"{"mov": "e8e6"}"#, 400);
    refused(s, id, "POST", mv, br#"{"move": 5}"#, 400);
    refused(s, id, "POST", mv, &[0xff, 0xfe], 400);
    // A move for the side not to move: by its piece, and by naming the side.
    let m = refused(s, id, "POST", mv, br#"{"move": "e4e5"}"#, 409);
    assert!(
        m.contains("Black's turn") || m.contains("black's turn"),
        "{m}"
    );
    refused(
        s,
        id,
        "POST",
        mv,
        br#"{"move": "e8e6", "side": "white"}"#,
        409,
    );
    refused(
        s,
        id,
        "POST",
        mv,
        br#"{"move": "e8e6", "side": "green"}"#,
        400,
    );
}

fn refuse_oversized_requests(s: &Served, id: &str, mv: &str) {
    // A huge body, a huge head, a chunked body.
    let huge = format!(r#"{{"move": "{}"}}"#, "e".repeat(200_000));
    refused(s, id, "POST", mv, huge.as_bytes(), 413);
    let big_header = format!("X-Big: {}", "a".repeat(20_000));
    let (status, _) = parse_response(&raw_request(
        s.addr,
        "GET",
        "/api/games",
        &[&big_header],
        None,
    ));
    assert_eq!(status, 431);
    let (status, text) = parse_response(&raw_request(
        s.addr,
        "POST",
        mv,
        &["Transfer-Encoding: chunked"],
        None,
    ));
    assert_eq!(status, 411, "{text}");
}

fn refuse_unknown_routes(s: &Served, id: &str) {
    // Unknown games, endpoints and methods.
    let (status, v) = s.post_json("/api/games/0123456789ab/move", &json!({ "move": "e2e4" }));
    assert_eq!(status, 404);
    assert!(v["error"].as_str().unwrap().contains("no game"));
    assert_eq!(s.get_json("/api/games/../../etc/passwd").0, 404);
    assert_eq!(s.get_json(&format!("/api/games/{id}/nothing")).0, 404);
    assert_eq!(s.get_json(&format!("/api/games/{id}/move")).0, 405);
    assert_eq!(
        s.post_json(&format!("/api/games/{id}/pgn"), &json!({})).0,
        405
    );
    assert_eq!(s.post_json("/api/variants", &json!({})).0, 404);
    assert_eq!(s.post_json("/index.html", &json!({})).0, 405);
}

fn refuse_bad_new_games(s: &Served) {
    // Bad new games create nothing.
    let games_before = s.get_json("/api/games").1;
    for spec in [
        json!({ "variant": "nosuch" }),
        json!({ "variant": "mrc", "fen": "not a fen" }),
        json!({ "variant": "mrc", "setup": "KKKKKKKKK" }),
        json!({ "variant": "mrc", "id": 99_999_999 }),
        json!({ "variant": "mrc", "id": 1, "setup": "RNBMKQBNR" }),
        json!({ "variant": "mrc", "white": { "kind": "engine", "level": 0 } }),
        json!({ "variant": "mrc", "white": { "kind": "robot" } }),
        json!({ "variant": "mrc", "movetime_ms": 10 }),
        json!({ "variant": "mrc", "colour": "white" }),
    ] {
        let (status, v) = s.post_json("/api/games", &spec);
        assert_eq!(status, 400, "{spec}: {v}");
        assert!(v["error"].is_string());
    }
    let (status, _) = parse_response(&raw_request(
        s.addr,
        "POST",
        "/api/games",
        &[],
        Some(b"[1,2"),
    ));
    assert_eq!(status, 400);
    assert_eq!(s.get_json("/api/games").1, games_before);
}

/// Take-backs beyond the start, and moves, resignations and engine moves after the end.
fn refuse_after_the_end(s: &Served, id: &str, mv: &str) {
    refused(
        s,
        id,
        "POST",
        &format!("/api/games/{id}/undo"),
        br#"{"plies": 5}"#,
        409,
    );
    let (status, over) = s.post_json(
        &format!("/api/games/{id}/resign"),
        &json!({ "side": "black" }),
    );
    assert_eq!(status, 200);
    assert_eq!(over["result"], "1-0");
    let m = refused(s, id, "POST", mv, br#"{"move": "e8e6"}"#, 409);
    assert!(m.contains("over"), "{m}");
    refused(
        s,
        id,
        "POST",
        &format!("/api/games/{id}/resign"),
        b"{}",
        409,
    );
    refused(
        s,
        id,
        "POST",
        &format!("/api/games/{id}/engine"),
        b"{}",
        409,
    );
}

#[test]
fn checkmate_ends_the_game() {
    let s = serve();
    let fen = "rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq g3 0 2";
    let g = s.new_game(json!({ "variant": "chess", "fen": fen }));
    let id = id_of(&g);
    assert_eq!(g["start_id"], Value::Null);
    let after = s.play(&id, "d8h4");
    assert_eq!(sans(&after), ["Qh4#"]);
    assert_eq!(after["result"], "0-1");
    assert_eq!(after["reason"], "checkmate, Black wins");
    assert_eq!(after["check"], "e1");
    assert_eq!(after["legal"], json!([]));
    let m = refused(
        &s,
        &id,
        "POST",
        &format!("/api/games/{id}/move"),
        br#"{"move": "a2a3"}"#,
        409,
    );
    assert!(m.contains("0-1"), "{m}");
    let (_, pgn) = s.get(&format!("/api/games/{id}/pgn"));
    assert!(
        pgn.contains("[FEN \"") && pgn.contains("2... Qh4# 0-1"),
        "{pgn}"
    );
}

#[test]
fn promotion_to_each_of_the_variants_pieces() {
    let s = serve();
    let g = s.new_game(json!({ "variant": "mrc", "fen": "4k4/P8/9/9/9/9/9/9/4K4 w - - 0 1" }));
    let promos: Vec<(&str, &str)> = g["legal"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m["from"] == "a8")
        .map(|m| {
            assert_eq!(m["targets"], json!(["a9"]));
            (m["promo"].as_str().unwrap(), m["uci"].as_str().unwrap())
        })
        .collect();
    assert_eq!(
        promos,
        [
            ("Q", "a8a9q"),
            ("M", "a8a9m"),
            ("R", "a8a9r"),
            ("B", "a8a9b"),
            ("N", "a8a9n")
        ]
    );
    let v = s.play(&id_of(&g), "a8a9m");
    assert_eq!(sans(&v), ["a9=M"]);
    let v = s.play(
        &id_of(&s.new_game(json!({ "variant": "mrc", "fen": "4k4/P8/9/9/9/9/9/9/4K4 w - - 0 1" }))),
        "a9=R",
    );
    assert_eq!(
        v["fen"].as_str().unwrap().split(' ').next().unwrap(),
        "R3k4/9/9/9/9/9/9/9/4K4"
    );
}

#[test]
fn take_back_and_resign() {
    let s = serve();
    let g = mrc_game(&s);
    let id = id_of(&g);
    for m in ["e4", "e6", "d4"] {
        s.play(&id, m);
    }
    let (status, v) = s.post_json(&format!("/api/games/{id}/undo"), &json!({}));
    assert_eq!(status, 200);
    assert_eq!(sans(&v), ["e4", "e6"], "one ply between two people");
    let (_, v) = s.post_json(&format!("/api/games/{id}/undo"), &json!({ "plies": 2 }));
    assert_eq!(sans(&v), Vec::<String>::new());
    assert_eq!(v["fen"], g["fen"]);
    s.play(&id, "e4");
    let (status, v) = s.post_json(&format!("/api/games/{id}/resign"), &json!({}));
    assert_eq!(status, 200);
    assert_eq!(v["result"], "1-0", "the side to move (Black) resigned");
    assert_eq!(v["reason"], "Black resigns, White wins");
    let (_, pgn) = s.get(&format!("/api/games/{id}/pgn"));
    assert!(
        pgn.contains("[Result \"1-0\"]") && pgn.contains("[Termination \"Black resigns"),
        "{pgn}"
    );
}

/// Reads a Server-Sent Events stream until `until` holds for the text so far (at most
/// `secs` seconds).
fn read_events(
    s: &Served,
    id: &str,
    secs: u64,
    start: impl FnOnce(),
    until: impl Fn(&str) -> bool,
) -> String {
    let mut stream = TcpStream::connect(s.addr).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_millis(200)))
        .unwrap();
    write!(
        stream,
        "GET /api/games/{id}/events HTTP/1.1\r\nHost: x\r\n\r\n"
    )
    .unwrap();
    let mut text = String::new();
    let mut buf = [0u8; 4096];
    let deadline = Instant::now() + Duration::from_secs(secs);
    let mut start = Some(start);
    while !until(&text) {
        assert!(
            Instant::now() < deadline,
            "events not seen in {secs} s:\n{text}"
        );
        if let Ok(n) = stream.read(&mut buf) {
            assert!(n > 0, "event stream closed:\n{text}");
            text.push_str(&String::from_utf8_lossy(&buf[..n]));
        }
        if text.contains("event: state") {
            if let Some(f) = start.take() {
                f();
            }
        }
    }
    text
}

/// The data of every event of one name.
fn events_named(text: &str, name: &str) -> Vec<Value> {
    text.split("\n\n")
        .filter_map(|block| {
            let mut lines = block.lines();
            let event = lines.find(|l| l.starts_with("event: "))?;
            if event != format!("event: {name}") {
                return None;
            }
            let data = lines.find_map(|l| l.strip_prefix("data: "))?;
            serde_json::from_str(data).ok()
        })
        .collect()
}

#[test]
fn engine_moves_and_thinking_events() {
    // On two search threads (Lazy SMP), as a user with cores to spare would serve.
    let s = Served::start(temp_dir("serve-engine"), &["--threads", "2"]);
    // The engine plays White by itself; a person's move for its side is refused meanwhile.
    let g = s.new_game(json!({
        "variant": "mrc64", "id": 518,
        "white": { "kind": "engine", "level": 10 }, "movetime_ms": 3000
    }));
    let id = id_of(&g);
    let (status, err) = s.post_json(&format!("/api/games/{id}/move"), &json!({ "move": "e4" }));
    assert_eq!(status, 409, "{err}");
    assert!(err["error"].as_str().unwrap().contains("engine"), "{err}");
    let v = s.wait_for(&id, 30, |v| v["moves"].as_array().unwrap().len() == 1);
    assert_eq!(v["turn"], "black");
    assert_eq!(v["players"]["white"]["kind"], "engine");
    s.play(&id, "e5");
    let v = s.wait_for(&id, 30, |v| v["moves"].as_array().unwrap().len() == 3);
    // Take back: the engine's reply and the person's move before it.
    let (_, back) = s.post_json(&format!("/api/games/{id}/undo"), &json!({}));
    assert_eq!(back["moves"].as_array().unwrap().len(), 1, "{}", v["moves"]);
    assert_eq!(back["turn"], "black");
    // Between two people, the engine moves when asked; the page sees it think and move.
    let g = s.new_game(json!({ "variant": "mrc", "setup": "RNBMKQBNR", "movetime_ms": 500 }));
    let id = id_of(&g);
    let text = read_events(
        &s,
        &id,
        30,
        || {
            let (status, v) = s.post_json(&format!("/api/games/{id}/engine"), &json!({}));
            assert_eq!(status, 202, "{v}");
        },
        |t| {
            events_named(t, "state")
                .iter()
                .any(|v| v["moves"].as_array().unwrap().len() == 1)
        },
    );
    let thinking = events_named(&text, "thinking");
    assert!(!thinking.is_empty(), "no thinking events:\n{text}");
    let last = thinking.last().unwrap();
    assert!(last["depth"].as_u64().unwrap() >= 1);
    assert!(last["score_cp"].is_i64());
    let pv = last["pv"].as_array().unwrap();
    assert!(!pv.is_empty());
    let state = s.get_json(&format!("/api/games/{id}")).1;
    let legal_at_start: Vec<&str> = g["legal"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["san"].as_str().unwrap())
        .collect();
    assert!(legal_at_start.contains(&state["moves"][0]["san"].as_str().unwrap()));
    assert_eq!(state["turn"], "black");
    assert_eq!(state["searching"], false);
}

#[test]
fn games_come_back_after_a_restart() {
    let data = temp_dir("serve-restart");
    let mut s = Served::start_in(&data, &[]);
    let g = mrc_game(&s);
    let id = id_of(&g);
    for m in ["e4", "e6", "Bc<=>M"] {
        s.play(&id, m);
    }
    let before = s.get_json(&format!("/api/games/{id}")).1;
    let other = id_of(&s.new_game(json!({ "variant": "merc", "id": 7 })));
    s.play(&other, "e3e5");
    s.post_json(
        &format!("/api/games/{other}/resign"),
        &json!({ "side": "white" }),
    );
    s.stop();
    std::fs::write(data.join("ffffffffffff.json"), "{ not a game").unwrap();
    let s = Served::start_in(&data, &[]);
    let after = s.get_json(&format!("/api/games/{id}")).1;
    for key in ["fen", "moves", "start_id", "start_fen", "players", "legal"] {
        assert_eq!(before[key], after[key], "{key}");
    }
    let resigned = s.get_json(&format!("/api/games/{other}")).1;
    assert_eq!(resigned["result"], "0-1");
    assert_eq!(sans(&resigned), ["e5"]);
    // The game goes on where it stopped.
    let v = s.play(&id, "d6");
    assert_eq!(sans(&v), ["e4", "e6", "Bc<=>M", "d6"]);
}

#[test]
fn binds_to_localhost_unless_told() {
    let s = Served::start(temp_dir("serve-bind"), &[]);
    assert!(s.addr.ip().is_loopback(), "{}", s.addr);
    let port = free_port();
    let s = Served::start(
        temp_dir("serve-bind"),
        &["--port", &port.to_string(), "--host", "0.0.0.0"],
    );
    assert_eq!(s.addr.port(), port);
    assert!(s.addr.ip().is_unspecified());
}
