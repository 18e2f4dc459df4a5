//! Building a session from the command line: a new game (variant, start position, players,
//! engine level) or a saved one (`--resume`).

use super::args::{PlayArgs, Player};
use super::autosave;
use super::board::View;
use super::levels;
use super::session::Session;
use crate::cli::common::{chosen_start, position_for, rules_for};
use crate::cli::datadir;
use anyhow::{anyhow, bail, Context, Result};
use modern_chess::engine::{Limits, SkillLevel};
use modern_chess::Game;
use modern_chess::Position;
use modern_chess::Rules;
use modern_chess::{catalog, pgn, setup};
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The session the arguments ask for.
pub fn session(args: &PlayArgs) -> Result<Session> {
    let hash_mb = crate::cli::hash::checked_hash_mb(args.hash)?;
    let (limits, skill) = strength(args);
    if let Some(file) = &args.resume {
        let mut s = resume(args, file.as_deref(), limits, hash_mb)?;
        s.skill = skill;
        s.threads = args.threads;
        return Ok(s);
    }
    let rules = Arc::new(rules_for(&args.choice)?);
    let (start, start_id) = start_position(&rules, args)?;
    let players = [
        args.white.unwrap_or(Player::Human),
        args.black.unwrap_or(Player::Engine),
    ];
    let (stamp, date) = autosave::stamps(autosave::now_secs());
    let save = match datadir::ensure_data_dir() {
        Ok(dir) => Some(autosave::new_path(&dir, &stamp, rules.variant().short())),
        Err(e) => {
            eprintln!("warning: {e:#}");
            None
        }
    };
    let view = view(args, players);
    let mut session = Session::new(
        rules,
        Game::new(start),
        players,
        limits,
        hash_mb,
        view,
        start_id,
        date,
        save,
    );
    session.skill = skill;
    session.threads = args.threads;
    Ok(session)
}

/// Limits and skill: `--depth`/`--movetime` at full strength, else the level's.
fn strength(args: &PlayArgs) -> (Limits, SkillLevel) {
    if args.depth.is_some() || args.movetime.is_some() {
        let limits = Limits {
            depth: args.depth,
            movetime_ms: args.movetime,
            ..Limits::default()
        };
        (limits, SkillLevel::MAX)
    } else {
        levels::for_level(args.level.unwrap_or(levels::DEFAULT_LEVEL))
    }
}

/// The board faces the human: from Black's side when only Black is played by a person.
fn view(args: &PlayArgs, players: [Player; 2]) -> View {
    let black_only = players == [Player::Engine, Player::Human];
    View {
        colour: !args.no_color && std::io::stdout().is_terminal(),
        figurines: args.figurines,
        flipped: args.flip != black_only,
    }
}

/// The start position and its number; without a choice, a random one (as the variant intends).
fn start_position(rules: &Rules, args: &PlayArgs) -> Result<(Position, Option<u64>)> {
    let v = rules.variant();
    let c = &args.choice;
    if c.fen.is_some() {
        return Ok((position_for(rules, c)?, None));
    }
    let chosen = if c.setup.is_some() || c.id.is_some() || c.random {
        chosen_start(rules, c)?
    } else if setup::count(v) > 1 {
        let mut random = c.clone();
        random.random = true;
        chosen_start(rules, &random)?
    } else {
        None
    };
    match chosen {
        Some((id, sp)) => {
            println!(
                "{} start position #{id}: {}",
                v.short(),
                setup::back_rank_string(v, &sp)
            );
            let pos = Position::from_start(rules, &sp).map_err(|e| anyhow!("{e}"))?;
            Ok((pos, Some(id)))
        }
        None => Ok((position_for(rules, c)?, None)),
    }
}

/// The file `--resume` names, or the newest autosave.
fn resume_path(file: Option<&Path>) -> Result<PathBuf> {
    match file {
        Some(f) => Ok(f.to_path_buf()),
        None => autosave::latest(&datadir::data_dir()?),
    }
}

fn resume(args: &PlayArgs, file: Option<&Path>, limits: Limits, hash_mb: usize) -> Result<Session> {
    let path = resume_path(file)?;
    let bytes = std::fs::read(&path).with_context(|| format!("cannot read {}", path.display()))?;
    let text = pgn::decode(&bytes).text;
    let games = pgn::parse_games(&text).map_err(|e| anyhow!("{}: {e}", path.display()))?;
    let Some(record) = games.last() else {
        bail!("{}: no game found", path.display());
    };
    let rules = Arc::new(rules_for_record(record).with_context(|| path.display().to_string())?);
    let start = match pgn::start_position(&rules, record).map_err(|e| anyhow!(e))? {
        Some(p) => p,
        None => position_for(&rules, &Default::default())?,
    };
    let game = pgn::replay(&rules, start, &record.moves, &mut |_, _, _| {})
        .map_err(|e| anyhow!("{}: {e}", path.display()))?;
    let mut game = game;
    restore_resignation(&rules, &mut game, record);
    let saved = |tag: &str, default: Player| match record.tag(tag) {
        Some("Human") => Player::Human,
        Some(_) => Player::Engine,
        None => default,
    };
    let players = [
        args.white.unwrap_or(saved("White", Player::Human)),
        args.black.unwrap_or(saved("Black", Player::Engine)),
    ];
    println!(
        "Resuming {} ({} plies played).",
        path.display(),
        game.moves().len()
    );
    let start_id = record.tag("StartId").and_then(|s| s.parse().ok());
    let date = record
        .tag("Date")
        .map(str::to_string)
        .unwrap_or_else(|| autosave::stamps(autosave::now_secs()).1);
    let view = view(args, players);
    let save = continue_in(&path, rules.variant().short());
    if save.as_deref() != Some(path.as_path()) {
        println!("(the file is left as it is; the game goes on in a new autosave)");
    }
    Ok(Session::new(
        rules, game, players, limits, hash_mb, view, start_id, date, save,
    ))
}

/// Where a resumed game is saved from now on: in place when it is an autosave (in the data
/// directory), else in a new autosave, so a file the user keeps is never overwritten.
fn continue_in(path: &Path, variant: &str) -> Option<PathBuf> {
    let dir = datadir::ensure_data_dir().ok()?;
    let same = |a: &Path, b: &Path| match (a.canonicalize(), b.canonicalize()) {
        (Ok(x), Ok(y)) => x == y,
        _ => false,
    };
    if path.parent().is_some_and(|p| same(p, &dir)) {
        return Some(path.to_path_buf());
    }
    let (stamp, _) = autosave::stamps(autosave::now_secs());
    Some(autosave::new_path(&dir, &stamp, variant))
}

/// The record's variant: its `Variant` tag, orthodox chess without one.
fn rules_for_record(record: &pgn::PgnGame) -> Result<Rules> {
    let spec = match record.tag("Variant") {
        Some(t) => pgn::variant_for_tag(t)
            .ok_or_else(|| anyhow!("unknown Variant tag `{t}`"))?
            .to_string(),
        None => "chess".to_string(),
    };
    catalog::load_rules(&spec).map_err(|e| anyhow!("{e}"))
}

/// A saved decisive result the board does not show was a resignation: restore it.
fn restore_resignation(rules: &Rules, game: &mut Game, record: &pgn::PgnGame) {
    if game.outcome(rules).is_some() {
        return;
    }
    let result = record.result.as_deref().or(record.tag("Result"));
    match result {
        Some("1-0") => game.resign(modern_chess::Colour::Black),
        Some("0-1") => game.resign(modern_chess::Colour::White),
        _ => {}
    }
}
