//! The JSON API under `/api/`. Every handler checks everything before it changes anything, so
//! a refused request (4xx with `{"error": ...}`) leaves the game as it was.
//!
//! | method and path | what it does |
//! |---|---|
//! | `GET /api/variants` | the variants the server offers |
//! | `GET /api/games` | the games on the server, newest first |
//! | `POST /api/games` | a new game: `{"variant", "id"\|"setup"\|"fen"\|"seed", "white", "black", "movetime_ms"}` |
//! | `GET /api/games/{id}` | the game's state (board, moves in SAN, legal moves, result) |
//! | `POST /api/games/{id}/move` | `{"move": "e2e4"}` in coordinates or SAN (`"side"` optional) |
//! | `POST /api/games/{id}/undo` | take back (`{"plies": n}`; default: back to the human's move) |
//! | `POST /api/games/{id}/resign` | `{"side": "white"}` (default: the human side, else the side to move) |
//! | `POST /api/games/{id}/engine` | let the engine move for the side to move now |
//! | `GET /api/games/{id}/moves` | the legal moves with SAN and drop squares |
//! | `GET /api/games/{id}/fen` | `{"fen": ...}` |
//! | `GET /api/games/{id}/pgn` | the game as a PGN file |
//! | `GET /api/games/{id}/events` | Server-Sent Events: `state` after each change, `thinking` |

use super::http::{Request, Response};
use super::room::{parse_colour, Player, PlayerKind, Room, MAX_LEVEL};
use super::server::{lock, RoomRef, Server};
use super::thinker;
use modern_chess::Colour;
use modern_chess::StartChoice;
use serde::Deserialize;
use serde_json::{json, Value};
use std::sync::Arc;

/// A refused request: status code and what was wrong.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ApiError {
    pub status: u16,
    pub message: String,
}

impl ApiError {
    pub fn bad_request(message: impl Into<String>) -> ApiError {
        ApiError {
            status: 400,
            message: message.into(),
        }
    }
    pub fn conflict(message: impl Into<String>) -> ApiError {
        ApiError {
            status: 409,
            message: message.into(),
        }
    }
    pub fn not_found(message: impl Into<String>) -> ApiError {
        ApiError {
            status: 404,
            message: message.into(),
        }
    }
}

type ApiResult = Result<Response, ApiError>;

/// Shortest and longest time per move the engine may be given.
const MOVETIME_RANGE: (u64, u64) = (50, 60_000);

/// Reads a JSON body (an empty body counts as `{}`).
fn body<T: for<'de> Deserialize<'de>>(req: &Request) -> Result<T, ApiError> {
    let text = std::str::from_utf8(&req.body)
        .map_err(|_| ApiError::bad_request("the request body is not UTF-8"))?;
    let text = if text.trim().is_empty() { "{}" } else { text };
    serde_json::from_str(text).map_err(|e| ApiError::bad_request(format!("bad JSON body: {e}")))
}

/// Answers one API request (the event stream is handled by the caller).
pub fn handle(server: &Arc<Server>, req: &Request) -> Response {
    let parts: Vec<&str> = req.path.trim_matches('/').split('/').collect();
    let result = match (req.method.as_str(), &parts[1..]) {
        ("GET", ["variants"]) => Ok(Response::json(200, &server.catalog.summary())),
        ("GET", ["games"]) => Ok(Response::json(200, &Value::Array(server.list()))),
        ("POST", ["games"]) => create(server, req),
        (method, ["games", id, rest @ ..]) => with_game(server, id, method, rest, req),
        _ => Err(ApiError::not_found(format!(
            "no API endpoint {} {}",
            req.method, req.path
        ))),
    };
    result.unwrap_or_else(|e| Response::error(e.status, &e.message))
}

fn find(server: &Server, id: &str) -> Result<RoomRef, ApiError> {
    server
        .room(id)
        .ok_or_else(|| ApiError::not_found(format!("no game `{id}`")))
}

fn with_game(
    server: &Arc<Server>,
    id: &str,
    method: &str,
    rest: &[&str],
    req: &Request,
) -> ApiResult {
    let room_ref = find(server, id)?;
    match (method, rest) {
        ("GET", []) => Ok(Response::json(200, &lock(&room_ref).view())),
        ("GET", ["moves"]) => Ok(Response::json(
            200,
            &json!({ "moves": lock(&room_ref).legal_json() }),
        )),
        ("GET", ["fen"]) => {
            let room = lock(&room_ref);
            Ok(Response::json(
                200,
                &json!({ "fen": room.game.current().fen(&room.rules) }),
            ))
        }
        ("GET", ["pgn"]) => {
            let text = lock(&room_ref).pgn();
            Ok(
                Response::new(200, "application/x-chess-pgn; charset=utf-8", text).with_header(
                    "Content-Disposition",
                    &format!("attachment; filename=\"modern-chess-{id}.pgn\""),
                ),
            )
        }
        ("POST", ["move"]) => play(server, &room_ref, req),
        ("POST", ["undo"]) => undo(server, &room_ref, req),
        ("POST", ["resign"]) => resign(server, &room_ref, req),
        ("POST", ["engine"]) => engine_move(server, &room_ref),
        (_, [] | ["moves" | "fen" | "pgn" | "move" | "undo" | "resign" | "engine" | "events"]) => {
            Err(ApiError {
                status: 405,
                message: format!("{method} is not allowed on {}", req.path),
            })
        }
        _ => Err(ApiError::not_found(format!(
            "no API endpoint {method} {}",
            req.path
        ))),
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct NewGame {
    variant: Option<String>,
    id: Option<u64>,
    setup: Option<String>,
    fen: Option<String>,
    seed: Option<u64>,
    white: Option<Player>,
    black: Option<Player>,
    movetime_ms: Option<u64>,
}

fn check_player(p: Option<Player>, side: &str) -> Result<Player, ApiError> {
    let p = p.unwrap_or_else(Player::human);
    if p.kind == PlayerKind::Engine && !(1..=MAX_LEVEL).contains(&p.level) {
        return Err(ApiError::bad_request(format!(
            "{side}: engine level {} is not between 1 and {MAX_LEVEL}",
            p.level
        )));
    }
    Ok(p)
}

fn create(server: &Arc<Server>, req: &Request) -> ApiResult {
    let spec: NewGame = body(req)?;
    let name = spec
        .variant
        .as_deref()
        .unwrap_or(modern_chess::catalog::DEFAULT_VARIANT);
    let entry = server.catalog.get(name).ok_or_else(|| {
        let names: Vec<&str> = server
            .catalog
            .entries
            .iter()
            .map(|e| e.name.as_str())
            .collect();
        ApiError::bad_request(format!(
            "unknown variant `{name}`; known: {}",
            names.join(", ")
        ))
    })?;
    let given = [spec.id.is_some(), spec.setup.is_some(), spec.fen.is_some()];
    if given.iter().filter(|g| **g).count() > 1 {
        return Err(ApiError::bad_request(
            "give at most one of id, setup and fen",
        ));
    }
    let players = [
        check_player(spec.white, "white")?,
        check_player(spec.black, "black")?,
    ];
    let movetime = spec.movetime_ms.unwrap_or(1000);
    if !(MOVETIME_RANGE.0..=MOVETIME_RANGE.1).contains(&movetime) {
        return Err(ApiError::bad_request(format!(
            "movetime_ms {movetime} is not between {} and {}",
            MOVETIME_RANGE.0, MOVETIME_RANGE.1
        )));
    }
    let choice = match (spec.id, spec.setup, spec.fen) {
        (Some(id), _, _) => StartChoice::Id(id),
        (_, Some(back), _) => StartChoice::BackRank(back),
        (_, _, Some(fen)) => StartChoice::Fen(fen),
        _ => StartChoice::Random,
    };
    let seed = spec.seed.unwrap_or_else(|| {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos() as u64)
            .unwrap_or(1)
    });
    let start = choice
        .resolve(&entry.rules, seed)
        .map_err(|e| ApiError::bad_request(format!("start position: {e}")))?;
    let (start, start_id) = (start.position, start.id);
    let mut room = Room::new(server.new_id(), entry, start, start_id);
    room.players = players;
    room.movetime_ms = movetime;
    room.created = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0);
    let room_ref = server.insert(room);
    let mut room = lock(&room_ref);
    server.persist(&room.to_saved());
    thinker::start(server, &room_ref, &mut room, false);
    Ok(Response::json(201, &room.view()))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct MoveBody {
    #[serde(rename = "move")]
    text: String,
    side: Option<String>,
}

fn play(server: &Arc<Server>, room_ref: &RoomRef, req: &Request) -> ApiResult {
    let spec: MoveBody = body(req)?;
    let mut room = lock(room_ref);
    let turn = room.side_to_move();
    if let Some(side) = &spec.side {
        let c = parse_colour(side)
            .ok_or_else(|| ApiError::bad_request(format!("side `{side}` is not white or black")))?;
        if c != turn && !room.is_over() {
            return Err(ApiError::conflict(format!(
                "it is {}'s turn, not {side}'s",
                super::room::colour_name(turn)
            )));
        }
    }
    let m = room.parse_move(&spec.text)?;
    if room.players[turn].is_engine() {
        return Err(ApiError::conflict(format!(
            "it is the engine's turn ({})",
            super::room::colour_name(turn)
        )));
    }
    thinker::stop(&mut room);
    room.play(m).map_err(ApiError::bad_request)?;
    server.changed(&room);
    thinker::start(server, room_ref, &mut room, false);
    Ok(Response::json(200, &room.view()))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct UndoBody {
    plies: Option<usize>,
}

fn undo(server: &Arc<Server>, room_ref: &RoomRef, req: &Request) -> ApiResult {
    let spec: UndoBody = body(req)?;
    let mut room = lock(room_ref);
    let plies = spec.plies.unwrap_or_else(|| room.default_undo());
    if plies == 0 || room.game.moves().len() < plies {
        return Err(ApiError::conflict(format!(
            "cannot take back {plies} moves: {} have been played",
            room.game.moves().len()
        )));
    }
    thinker::stop(&mut room);
    room.undo(plies);
    server.changed(&room);
    thinker::start(server, room_ref, &mut room, false);
    Ok(Response::json(200, &room.view()))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ResignBody {
    side: Option<String>,
}

fn resign(server: &Arc<Server>, room_ref: &RoomRef, req: &Request) -> ApiResult {
    let spec: ResignBody = body(req)?;
    let mut room = lock(room_ref);
    if let Some(o) = room.game.outcome(&room.rules) {
        return Err(ApiError::conflict(format!(
            "the game is already over ({})",
            o.describe(&room.rules)
        )));
    }
    let side = match &spec.side {
        Some(s) => parse_colour(s)
            .ok_or_else(|| ApiError::bad_request(format!("side `{s}` is not white or black")))?,
        None => match room.players.map(|p| p.is_engine()) {
            [false, true] => Colour::White,
            [true, false] => Colour::Black,
            _ => room.side_to_move(),
        },
    };
    thinker::stop(&mut room);
    room.game.resign(side);
    room.version += 1;
    server.changed(&room);
    Ok(Response::json(200, &room.view()))
}

fn engine_move(server: &Arc<Server>, room_ref: &RoomRef) -> ApiResult {
    let mut room = lock(room_ref);
    if let Some(o) = room.game.outcome(&room.rules) {
        return Err(ApiError::conflict(format!(
            "the game is over ({})",
            o.describe(&room.rules)
        )));
    }
    if room.search.is_some() {
        return Err(ApiError::conflict("the engine is already thinking"));
    }
    thinker::start(server, room_ref, &mut room, true);
    server.broadcast(&room.id, "state", &room.view());
    Ok(Response::json(202, &room.view()))
}
