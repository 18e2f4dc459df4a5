//! Talking to other chess programs: the UCI and XBoard (CECP) engine protocols and matches
//! against a UCI engine.
//!
//! Every session is written over generic `BufRead`/`Write` so it can be driven from a test
//! with a script; the binary connects them to stdin/stdout and supplies a [`Worker`] that runs
//! searches on their own thread, so the input loop keeps reading and `stop`/`?` work.
//! Matches against other engines (child processes) live in the binary (`src/cli/matchplay.rs`).

mod jobs;
mod lenient;
pub mod uci;
mod worker;
pub mod xboard;

pub use lenient::{lenient_position, LenientFen};
pub use worker::{InlineWorker, Job, Worker};

use crate::catalog;
use crate::position::{Move, MoveKind, Position};
use crate::rules::Rules;
use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

/// The output of a session, shared between the input loop and the search thread; every line
/// is flushed at once because the other side waits for it.
pub struct Out<W: Write>(Arc<Mutex<W>>, Arc<AtomicBool>);

impl<W: Write> Clone for Out<W> {
    fn clone(&self) -> Self {
        Out(Arc::clone(&self.0), Arc::clone(&self.1))
    }
}

impl<W: Write> Out<W> {
    /// Output to `w`, shareable by cloning.
    pub fn new(w: W) -> Out<W> {
        Out(Arc::new(Mutex::new(w)), Arc::new(AtomicBool::new(false)))
    }
    /// Writes one line. A failed write (the GUI closed its end) is remembered in
    /// [`Out::closed`], which the input loop checks: nobody is listening, so the session ends.
    pub fn line(&self, text: &str) {
        self.lines(text)
    }
    /// Several lines written together, so a search thread cannot interleave.
    pub fn lines(&self, text: &str) {
        let mut w = match self.0.lock() {
            Ok(w) => w,
            Err(poisoned) => poisoned.into_inner(),
        };
        let mut ok = true;
        for l in text.lines() {
            ok &= writeln!(w, "{l}").is_ok();
        }
        ok &= w.flush().is_ok();
        if !ok {
            self.1.store(true, Ordering::SeqCst);
        }
    }
    /// Has a write failed?
    pub fn closed(&self) -> bool {
        self.1.load(Ordering::SeqCst)
    }
}

/// Reads one line, decoding it leniently: a byte that is not UTF-8 (a GUI passing a Latin-1
/// player name) becomes U+FFFD instead of ending the session. `None` at the end of input or
/// on a read error.
pub fn read_line_lossy<R: BufRead>(input: &mut R, buf: &mut Vec<u8>) -> Option<String> {
    buf.clear();
    match input.read_until(b'\n', buf) {
        Ok(0) | Err(_) => None,
        Ok(_) => Some(String::from_utf8_lossy(buf).into_owned()),
    }
}

/// The largest hash table a session accepts, in MB (one limit for every front end).
use crate::hash_size::{HashSizeError, MAX_HASH_MB};

/// Checks a hash size asked for by a GUI: `Err` says why it is refused. `free_mb` is the
/// machine's free memory as the application measured it.
///
/// # Errors
/// Zero, more than [`MAX_HASH_MB`] or than `free_mb` (see [`crate::hash_size::check_hash_mb`]).
pub fn checked_hash_mb(mb: usize, free_mb: Option<usize>) -> Result<usize, HashSizeError> {
    crate::hash_size::check_hash_mb(mb, free_mb)
}

/// Why a session could not start.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SessionError {
    /// `--variant-path` or one of its files could not be read.
    VariantPath(String),
    /// The preset variant is unknown or its file is broken.
    Variant(String),
    /// The preset start position does not exist in the variant.
    Start(String),
    /// The hash size cannot be had.
    Hash(String),
    /// The evaluation named by `--eval-with` could not be started.
    EvalWith(String),
}

impl std::fmt::Display for SessionError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SessionError::VariantPath(e) => write!(f, "variant path: {e}"),
            SessionError::Variant(e) => write!(f, "variant: {e}"),
            SessionError::Start(e) => write!(f, "start position: {e}"),
            SessionError::Hash(e) => write!(f, "--hash: {e}"),
            SessionError::EvalWith(e) => write!(f, "--eval-with: {e}"),
        }
    }
}

impl std::error::Error for SessionError {}

/// The variants, rules and start position a session begins with.
pub(crate) fn session_start(
    cfg: &ProtocolConfig,
) -> Result<(VariantSet, Arc<Rules>, u64, String, Position), SessionError> {
    let mut variants = VariantSet::builtin();
    if let Some(p) = &cfg.variant_path {
        let (_, problems) = variants
            .add_path(p)
            .map_err(|e| SessionError::VariantPath(e.to_string()))?;
        if let Some(p) = problems.first() {
            return Err(SessionError::VariantPath(p.clone()));
        }
    }
    let rules = variants
        .load(&cfg.variant)
        .map_err(|e| SessionError::Variant(e.to_string()))?;
    let rules = Arc::new(rules);
    let (id, fen) = choose_start(&rules, &cfg.start, cfg.seed)
        .map_err(|e| SessionError::Start(e.to_string()))?;
    let pos = Position::from_fen(&rules, &fen).map_err(|e| SessionError::Start(e.to_string()))?;
    Ok((variants, rules, id, fen, pos))
}

// ---------------------------------------------------------------------------------------------
// Variants a session knows
// ---------------------------------------------------------------------------------------------

/// Why a session could not add or load a variant.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum VariantSetError {
    /// A folder of variant files could not be read.
    Folder {
        /// The folder.
        path: PathBuf,
        /// The system's reason.
        message: String,
    },
    /// The path is neither a file nor a folder.
    NoSuchPath(PathBuf),
    /// No variant has that name.
    Unknown {
        /// The name asked for.
        name: String,
        /// The names the session knows.
        known: Vec<String>,
    },
    /// The variant's file does not load (its error on one line).
    Broken {
        /// The variant.
        name: String,
        /// What is wrong with its file.
        message: String,
    },
}

impl std::fmt::Display for VariantSetError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            VariantSetError::Folder { path, message } => {
                write!(f, "cannot read folder {}: {message}", path.display())
            }
            VariantSetError::NoSuchPath(p) => write!(f, "{}: no such file or folder", p.display()),
            VariantSetError::Unknown { name, known } => {
                write!(f, "unknown variant `{name}`; known: {}", known.join(", "))
            }
            VariantSetError::Broken { message, .. } => write!(f, "{message}"),
        }
    }
}

impl std::error::Error for VariantSetError {}

enum VariantSource {
    Builtin,
    File(PathBuf),
}

/// The variants a session offers: the built-in catalog plus the `*.toml` files of folders the
/// user points at (a file there wins over a built-in of the same name).
pub struct VariantSet {
    entries: Vec<(String, VariantSource)>,
}

impl Default for VariantSet {
    fn default() -> Self {
        VariantSet::builtin()
    }
}

impl VariantSet {
    /// The built-in catalog only.
    pub fn builtin() -> VariantSet {
        VariantSet {
            entries: catalog::BUILTIN
                .iter()
                .map(|(n, _)| (n.to_string(), VariantSource::Builtin))
                .collect(),
        }
    }

    /// Adds the variant files in `path` (a folder of `*.toml` files, or one file). Returns the
    /// names added and, separately, what was wrong with the files that could not be loaded.
    pub fn add_path(&mut self, path: &Path) -> Result<(Vec<String>, Vec<String>), VariantSetError> {
        let files: Vec<PathBuf> = if path.is_dir() {
            let mut v: Vec<PathBuf> = std::fs::read_dir(path)
                .map_err(|e| VariantSetError::Folder {
                    path: path.to_path_buf(),
                    message: e.to_string(),
                })?
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|x| x == "toml") && p.is_file())
                .collect();
            v.sort();
            v
        } else if path.is_file() {
            vec![path.to_path_buf()]
        } else {
            return Err(VariantSetError::NoSuchPath(path.to_path_buf()));
        };
        let mut added = Vec::new();
        let mut problems = Vec::new();
        for f in files {
            let name = f
                .file_stem()
                .map(|s| s.to_string_lossy().to_lowercase())
                .unwrap_or_default();
            if name.is_empty() || name.contains(char::is_whitespace) {
                problems.push(format!("{}: unusable file name", f.display()));
                continue;
            }
            match crate::catalog::from_path(&f) {
                Ok(_) => {
                    self.entries.retain(|(n, _)| *n != name);
                    self.entries.push((name.clone(), VariantSource::File(f)));
                    added.push(name);
                }
                Err(e) => problems.push(format!("{}: {}", f.display(), one_line(&e.to_string()))),
            }
        }
        Ok((added, problems))
    }

    /// The short names on offer: the built-in ones, then those added from files.
    pub fn names(&self) -> Vec<String> {
        self.entries.iter().map(|(n, _)| n.clone()).collect()
    }

    /// Is a variant called `name` (case-insensitive) on offer?
    pub fn contains(&self, name: &str) -> bool {
        self.entries
            .iter()
            .any(|(n, _)| n.eq_ignore_ascii_case(name))
    }

    /// Compiles the variant called `name` (case-insensitive).
    pub fn load(&self, name: &str) -> Result<Rules, VariantSetError> {
        let (n, src) = self
            .entries
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .ok_or_else(|| VariantSetError::Unknown {
                name: name.to_string(),
                known: self.names(),
            })?;
        let v = match src {
            VariantSource::Builtin => catalog::load(n),
            VariantSource::File(p) => crate::catalog::from_path(p),
        }
        .map_err(|e| VariantSetError::Broken {
            name: n.clone(),
            message: one_line(&e.to_string()),
        })?;
        Ok(Rules::compile(v))
    }
}

/// Protocols are line based: multi-line error texts are joined.
pub fn one_line(s: &str) -> String {
    s.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect::<Vec<_>>()
        .join("; ")
}

// ---------------------------------------------------------------------------------------------
// Start positions
// ---------------------------------------------------------------------------------------------

use crate::start::{StartChoice, StartError};

/// The start id and FEN the choice names. `seed` is used for [`StartChoice::Random`].
pub fn choose_start(
    rules: &Rules,
    choice: &StartChoice,
    seed: u64,
) -> Result<(u64, String), StartError> {
    let start = choice.resolve(rules, seed)?;
    let fen = start.position.fen(rules);
    Ok((start.id.unwrap_or(0), fen))
}

// ---------------------------------------------------------------------------------------------
// Moves in coordinate notation
// ---------------------------------------------------------------------------------------------

/// Reads a move in coordinate notation: `e2e4`, `f8f9m`, castling as king takes rook
/// (Fischer-Random style, what we write) but also as the king's destination (`e1g1`, what
/// GUIs send without Chess960 mode) or `O-O`/`O-O-O`; Bishop Adjustment as bishop square then
/// partner square.
pub fn parse_coord(rules: &Rules, pos: &Position, text: &str) -> Result<Move, CoordError> {
    let legal = pos.legal_moves(rules);
    let t = text.trim();
    let lower = t.to_ascii_lowercase();
    if let Some(m) = legal.iter().find(|m| m.uci(rules) == lower) {
        return Ok(*m);
    }
    let castle_side = match t {
        "O-O" | "0-0" | "o-o" => Some(1u8),
        "O-O-O" | "0-0-0" | "o-o-o" => Some(0u8),
        _ => None,
    };
    if let Some(side) = castle_side {
        return legal
            .iter()
            .find(|m| m.kind == MoveKind::Castle { side })
            .copied()
            .ok_or_else(|| CoordError::NoCastling(t.to_string()));
    }
    // King-destination castling: e1g1 for a castling whose king ends on g1.
    let geo = &rules.geo;
    let squares = split_squares(&lower).and_then(|(a, b, rest)| {
        if !rest.is_empty() {
            return None;
        }
        Some((geo.parse_square(&a)?, geo.parse_square(&b)?))
    });
    if let Some((from, to)) = squares {
        let us = pos.side_to_move();
        for m in legal.iter() {
            if let MoveKind::Castle { side } = m.kind {
                if m.from == from
                    && rules
                        .castle_targets(us, side as usize)
                        .is_some_and(|(k, _)| k == to)
                {
                    return Ok(*m);
                }
            }
        }
        return Err(CoordError::Illegal(t.to_string()));
    }
    if split_squares(&lower).is_some() {
        Err(CoordError::Illegal(t.to_string()))
    } else {
        Err(CoordError::Syntax(t.to_string()))
    }
}

/// Why [`parse_coord`] read no move; each holds the text as given (trimmed).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CoordError {
    /// `O-O`/`O-O-O` while castling to that side is not legal.
    NoCastling(String),
    /// Two squares (and maybe a promotion letter) that make no legal move here.
    Illegal(String),
    /// Not coordinate notation at all.
    Syntax(String),
}

impl std::fmt::Display for CoordError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            CoordError::NoCastling(t) => {
                write!(f, "`{t}`: castling to that side is not legal here")
            }
            CoordError::Illegal(t) => write!(f, "`{t}` is not a legal move here"),
            CoordError::Syntax(t) => write!(
                f,
                "`{t}` is not a move in coordinate notation (like e2e4, f8f9m)"
            ),
        }
    }
}

impl std::error::Error for CoordError {}

/// Splits `e2e4q` into ("e2", "e4", "q"); `None` when it does not start with two squares.
fn split_squares(s: &str) -> Option<(String, String, String)> {
    let b = s.as_bytes();
    let mut i = 0;
    let sq = |i: &mut usize| -> Option<String> {
        let start = *i;
        if *i < b.len() && b[*i].is_ascii_lowercase() {
            *i += 1;
        } else {
            return None;
        }
        let d = *i;
        while *i < b.len() && b[*i].is_ascii_digit() {
            *i += 1;
        }
        if *i == d {
            return None;
        }
        Some(s[start..*i].to_string())
    };
    let a = sq(&mut i)?;
    let c = sq(&mut i)?;
    Some((a, c, s[i..].to_string()))
}

// ---------------------------------------------------------------------------------------------
// Time
// ---------------------------------------------------------------------------------------------

/// How long to think on a clock: an even share of the remaining time (moves to go, or 30 when
/// unknown) plus most of the increment, never more than a third of what is left so a few slow
/// moves cannot lose on time.
pub fn think_time(left_ms: u64, inc_ms: u64, moves_to_go: Option<u32>) -> u64 {
    let share = match moves_to_go {
        Some(n) if n > 0 => left_ms / (n as u64 + 1),
        _ => left_ms / 30,
    };
    let t = share + inc_ms * 3 / 4;
    let cap = (left_ms / 3).max(1);
    t.min(cap)
        .saturating_sub(if t > 50 { 10 } else { 0 })
        .max(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn coordinate_moves_and_castling_forms() {
        let rules = catalog::load_rules("chess").unwrap();
        let fen = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
        let pos = Position::from_fen(&rules, fen).unwrap();
        let frc = parse_coord(&rules, &pos, "e1h1").unwrap();
        assert!(matches!(frc.kind, MoveKind::Castle { side: 1 }));
        assert_eq!(parse_coord(&rules, &pos, "e1g1").unwrap(), frc);
        assert_eq!(parse_coord(&rules, &pos, "O-O").unwrap(), frc);
        let long = parse_coord(&rules, &pos, "O-O-O").unwrap();
        assert!(matches!(long.kind, MoveKind::Castle { side: 0 }));
        assert_eq!(parse_coord(&rules, &pos, "e1c1").unwrap(), long);
        assert!(parse_coord(&rules, &pos, "e1e3").is_err());
        assert!(parse_coord(&rules, &pos, "hello").is_err());
        assert!(parse_coord(&rules, &pos, "").is_err());
    }

    #[test]
    fn promotion_letter_is_read() {
        let rules = catalog::load_rules("mrc").unwrap();
        let pos = Position::from_fen(&rules, "4k4/1P7/9/9/9/9/9/9/4K4 w - - 0 1").unwrap();
        let m = parse_coord(&rules, &pos, "b8b9m").unwrap();
        assert_eq!(rules.variant.pieces[m.promo.unwrap().index()].letter, 'M');
        assert!(parse_coord(&rules, &pos, "b8b9").is_err());
    }

    #[test]
    fn start_choices() {
        let rules = catalog::load_rules("mrc").unwrap();
        let (id, fen) = choose_start(&rules, &StartChoice::parse("RNBMKQBNR"), 0).unwrap();
        let (id2, fen2) = choose_start(&rules, &StartChoice::parse(&id.to_string()), 0).unwrap();
        assert_eq!(id2, id);
        assert_eq!(fen2, fen);
        assert!(fen.starts_with("rnbqkmbnr/"), "{fen}");
        assert!(choose_start(&rules, &StartChoice::parse("KKKKKKKKK"), 0).is_err());
        assert!(choose_start(&rules, &StartChoice::Id(u64::MAX), 0).is_err());
        let (a, _) = choose_start(&rules, &StartChoice::Random, 5).unwrap();
        let (b, _) = choose_start(&rules, &StartChoice::Random, 5).unwrap();
        assert_eq!(a, b);
    }

    #[test]
    fn think_time_shares_the_clock() {
        assert!(think_time(60_000, 0, None) <= 2_000);
        assert!(think_time(60_000, 0, None) >= 1_500);
        assert!(think_time(1_000, 10_000, None) <= 334);
        assert!(think_time(10_000, 0, Some(9)) <= 1_000);
        assert!(think_time(0, 0, None) >= 1);
    }

    #[test]
    fn variant_folder_is_loaded_and_bad_files_reported() {
        let dir = std::env::temp_dir().join(format!("mc-vs-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("mini.toml"), catalog::BUILTIN[1].1).unwrap();
        std::fs::write(dir.join("broken.toml"), "name = 3").unwrap();
        let mut set = VariantSet::builtin();
        let (added, problems) = set.add_path(&dir).unwrap();
        assert_eq!(added, vec!["mini".to_string()]);
        assert_eq!(problems.len(), 1, "{problems:?}");
        assert!(set.contains("MINI"));
        assert_eq!(set.load("mini").unwrap().geo.files, 8);
        assert!(set.load("nope").is_err());
        assert!(set.add_path(&dir.join("missing")).is_err());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}

/// What the command line may preset before the GUI speaks (UCI and XBoard alike).
#[derive(Clone, Debug)]
pub struct ProtocolConfig {
    /// The variant to start with (a short name of the set).
    pub variant: String,
    /// A folder of more variant files to offer (`--variant-path`).
    pub variant_path: Option<std::path::PathBuf>,
    /// The start position until the GUI sets one.
    pub start: StartChoice,
    /// The transposition table's size in MB until the GUI sets one.
    pub hash_mb: usize,
    /// Search threads (Lazy SMP) until the GUI sets them (UCI `Threads`, XBoard `cores`).
    pub threads: usize,
    /// Seed for random starts (the binary takes one from the clock unless `--seed` is given).
    pub seed: u64,
    /// Free memory in MB as the application measured it: larger hash sizes are refused.
    pub free_memory_mb: Option<usize>,
    /// Another engine's static evaluation in place of ours (`uci --eval-with`, a diagnostic).
    pub eval_with: Option<EvalSource>,
}

/// Makes another engine's evaluation for a variant: a variant chosen later (`UCI_Variant`)
/// needs its own, so the session keeps the maker rather than one evaluation.
#[derive(Clone)]
pub struct EvalSource(pub Arc<MakeEval>);

/// The maker inside an [`EvalSource`]: an evaluation for the variant, or why there is none.
pub type MakeEval =
    dyn Fn(&Rules) -> Result<Arc<dyn crate::engine::ExternalEval>, String> + Send + Sync;

impl std::fmt::Debug for EvalSource {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("EvalSource")
    }
}

impl Default for ProtocolConfig {
    fn default() -> Self {
        ProtocolConfig {
            variant: crate::catalog::DEFAULT_VARIANT.to_string(),
            variant_path: None,
            start: StartChoice::Random,
            hash_mb: 16,
            threads: 1,
            seed: 1,
            free_memory_mb: None,
            eval_with: None,
        }
    }
}
