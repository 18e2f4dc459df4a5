//! `modern-chess replay`: check a game record move by move.
//!
//! Every game in the file is replayed; the exit status is 0 only when all of them replayed to
//! their last move (and, with `--strict`, every `+`/`#` in them was right).

use super::common::{chosen_start, rules_for, Choice};
use anyhow::{anyhow, bail, Context, Result};
use clap::Args;
use modern_chess::pgn::{self, PgnGame};
use modern_chess::Game;
use modern_chess::Position;
use modern_chess::Rules;
use modern_chess::{catalog, setup};
use std::path::PathBuf;

#[derive(Args)]
pub struct ReplayArgs {
    #[command(flatten)]
    pub choice: Choice,
    /// Print every move with the FEN after it
    #[arg(long)]
    pub verbose: bool,
    /// Treat a `+` or `#` that the position does not bear out as an error
    #[arg(long)]
    pub strict: bool,
    /// The PGN file (several games allowed)
    pub file: PathBuf,
}

pub fn run(args: ReplayArgs) -> Result<()> {
    let bytes = std::fs::read(&args.file)
        .with_context(|| format!("cannot read {}", args.file.display()))?;
    // PGN is Latin-1 by its standard; UTF-8 (with or without a BOM) is read as such.
    let text = pgn::decode(&bytes).text;
    let games = pgn::parse_games(&text).map_err(|e| anyhow!("{}: {e}", args.file.display()))?;
    if games.is_empty() {
        bail!("{}: no game found", args.file.display());
    }
    let mut failed = 0;
    for (i, g) in games.iter().enumerate() {
        if games.len() > 1 {
            println!("== game {} of {}{}", i + 1, games.len(), title(g));
        }
        if let Err(e) = replay_one(&args, g) {
            if games.len() > 1 {
                eprintln!(
                    "error: game {} of {}{}: {e:#}",
                    i + 1,
                    games.len(),
                    named(g)
                );
            } else {
                eprintln!("error: {e:#}");
            }
            failed += 1;
        }
    }
    if failed > 0 {
        bail!("{failed} of {} game(s) did not replay", games.len());
    }
    Ok(())
}

fn title(g: &PgnGame) -> String {
    match (g.tag("White"), g.tag("Black")) {
        (Some(w), Some(b)) => format!(": {w} - {b}"),
        _ => String::new(),
    }
}

/// ` (White - Black, Event, Date)` for an error message, empty when the game has no tags.
fn named(g: &PgnGame) -> String {
    let t = g.title();
    if t.is_empty() {
        String::new()
    } else {
        format!(" ({t})")
    }
}

fn rules_for_game(args: &ReplayArgs, g: &PgnGame) -> Result<Rules> {
    let tag = g.tag("Variant");
    if args.choice.variant.is_some() {
        let rules = rules_for(&args.choice)?;
        if let Some(t) = tag {
            if pgn::variant_for_tag(t) != pgn::variant_for_tag(rules.variant().short()) {
                eprintln!(
                    "warning: the record's Variant tag says `{t}`; replaying as {} (--variant)",
                    rules.variant().short()
                );
            }
        }
        return Ok(rules);
    }
    // No Variant tag means orthodox chess, as every PGN reader takes it.
    let spec = match tag {
        Some(t) => match pgn::variant_for_tag(t) {
            Some(s) => s.to_string(),
            None => bail!("unknown Variant tag `{t}`: give the variant with --variant"),
        },
        None => "chess".to_string(),
    };
    catalog::load_rules(&spec).map_err(|e| anyhow!("{e}"))
}

fn start_for_game(args: &ReplayArgs, rules: &Rules, g: &PgnGame) -> Result<Position> {
    let c = &args.choice;
    let guessed = g.tag("Variant").is_none() && c.variant.is_none();
    let hint = if guessed {
        ": the record has no Variant tag, so it is read as orthodox chess; give its variant with --variant"
    } else {
        ""
    };
    if let Some(fen) = &c.fen {
        return Position::from_fen(rules, fen).map_err(|e| anyhow!("--fen: {e}{hint}"));
    }
    if let Some((_, sp)) = chosen_start(rules, c)? {
        return Position::from_start(rules, &sp).map_err(|e| anyhow!("{e}"));
    }
    match pgn::start_position(rules, g) {
        Ok(Some(p)) => return Ok(p),
        Ok(None) => {}
        Err(e) => bail!("{e}{hint}"),
    }
    let n = setup::count(rules.variant());
    if n != 1 {
        bail!(
            "the record has no FEN tag and {} has {n} start positions: give one with --setup or --fen",
            rules.variant().short()
        );
    }
    let sp = setup::from_id(rules.variant(), 0).map_err(|e| anyhow!(e))?;
    Position::from_start(rules, &sp).map_err(|e| anyhow!("{e}"))
}

fn replay_one(args: &ReplayArgs, g: &PgnGame) -> Result<()> {
    for w in &g.warnings {
        eprintln!("warning: {w}");
    }
    if g.more_warnings > 0 {
        eprintln!("warning: ... and {} more like these", g.more_warnings);
    }
    let rules = rules_for_game(args, g)?;
    let start = start_for_game(args, &rules, g)?;
    if args.verbose {
        println!("start: {}", start.fen(&rules));
    }
    let mut mark_errors = Vec::new();
    let verbose = args.verbose;
    let mut each = |t: &pgn::SanToken, _m, after: &Position| {
        if verbose {
            println!("{:<14} {}", t.numbered(), after.fen(&rules));
        }
        if let Some(p) = pgn::mark_problem(&rules, after, t) {
            eprintln!("{}: {p}", if args.strict { "error" } else { "warning" });
            mark_errors.push(p);
        }
    };
    let game = match pgn::replay(&rules, start, &g.moves, &mut each) {
        Ok(game) => game,
        Err(e) => {
            println!("stopped at move {}", e.token.numbered());
            println!("position: {}", e.game.current().fen(&rules));
            bail!("{e}");
        }
    };
    finish(&rules, g, &game);
    if args.strict && !mark_errors.is_empty() {
        bail!(
            "{} check mark(s) do not fit the position (--strict)",
            mark_errors.len()
        );
    }
    Ok(())
}

fn finish(rules: &Rules, g: &PgnGame, game: &Game) {
    let last = game.current();
    println!(
        "replayed {} move(s) ({} plies)",
        g.moves.last().map(|t| t.number).unwrap_or(0),
        game.moves().len()
    );
    println!("final FEN: {}", last.fen(rules));
    let recorded = g
        .result
        .clone()
        .or_else(|| g.tag("Result").map(str::to_string));
    match game.outcome(rules) {
        Some(o) => println!("result: {} ({})", o.result(), o.describe(rules)),
        None => println!(
            "result: {} (as recorded; the game is not over on the board)",
            recorded.as_deref().unwrap_or("*")
        ),
    }
    if let (Some(o), Some(r)) = (game.outcome(rules), &recorded) {
        if o.result() != r && r != "*" {
            eprintln!(
                "warning: the record says {r} but the position is {}",
                o.describe(rules)
            );
        }
    }
}
