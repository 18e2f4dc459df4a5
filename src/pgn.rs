//! PGN game records: read several games from a text, write one game.
//!
//! Reading is split from replaying: [`parse_games`] only splits the text into tags and move
//! tokens (it needs no rules, so it can report syntax errors before a variant is chosen), and
//! [`replay`] plays the tokens on a position with [`notation::parse_san`]. The reader skips
//! what is commentary: `{}`, `;` and mid-line `[]` comments, `( )` variations, `$1` and `!?`
//! annotations, move numbers with or without a space (`15. h5`, `15.h5`, `3...e6`).
//!
//! What [`write_game`] produces, [`parse_games`] reads back to the same tags and moves.

use crate::catalog;
use crate::game::Game;
use crate::notation;
use crate::position::{FenError, Move, Position};
use crate::rules::Rules;
use crate::setup;
use std::fmt;

/// One move as written in the record, with the move number and side it was found at.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SanToken {
    /// The move as written, without its number (`Mxd6`, `exf6`, `O-O`).
    pub text: String,
    /// The move number the record gives (or the count, when it gives none).
    pub number: u32,
    /// True for White's move, false for Black's.
    pub white: bool,
}

impl SanToken {
    /// `12.Mxd6` or `12...exf6`, for messages.
    pub fn numbered(&self) -> String {
        format!(
            "{}{}{}",
            self.number,
            if self.white { "." } else { "..." },
            self.text
        )
    }
}

/// A game as read: tags in file order, moves, the result token if any, and what looked wrong
/// but did not stop the reading (a move number that does not fit the count).
///
/// At most [`MAX_WARNINGS`] warnings are kept; `more_warnings` counts the rest, so a file with
/// a million bad move numbers costs a bounded amount of memory and output.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PgnGame {
    /// The tag pairs (`[White "Carrillo"]`) in file order.
    pub tags: Vec<(String, String)>,
    /// The moves in order, comments and variations left out.
    pub moves: Vec<SanToken>,
    /// The result token at the end (`1-0`, `0-1`, `1/2-1/2`, `*`), if any.
    pub result: Option<String>,
    /// What looked wrong but did not stop the reading, at most [`MAX_WARNINGS`].
    pub warnings: Vec<String>,
    /// How many warnings were dropped past [`MAX_WARNINGS`].
    pub more_warnings: usize,
}

/// Warnings kept per game.
pub const MAX_WARNINGS: usize = 10;

impl PgnGame {
    /// The value of a tag (the first one with that name, case-sensitive as PGN says).
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }

    /// Records a warning, keeping at most [`MAX_WARNINGS`].
    pub fn warn(&mut self, message: String) {
        if self.warnings.len() < MAX_WARNINGS {
            self.warnings.push(message);
        } else {
            self.more_warnings += 1;
        }
    }

    /// How people name the game in a message: `White - Black, Event, Date` from its tags.
    pub fn title(&self) -> String {
        title_of(&self.tags)
    }
}

fn title_of(tags: &[(String, String)]) -> String {
    let get = |k: &str| {
        tags.iter()
            .find(|(n, v)| n == k && !v.is_empty() && v != "?")
            .map(|(_, v)| v.clone())
    };
    let mut parts = Vec::new();
    if let (Some(w), Some(b)) = (get("White"), get("Black")) {
        parts.push(format!("{w} - {b}"));
    }
    parts.extend(["Event", "Date", "Round"].iter().filter_map(|k| get(k)));
    parts.join(", ")
}

/// A PGN file's bytes as text. PGN's standard says Latin-1 (ISO 8859-1); most files today are
/// UTF-8. Valid UTF-8 is taken as such (a byte-order mark dropped), anything else as Latin-1,
/// which every byte sequence is. Line ends become `\n` (CR LF and a lone CR alike).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Decoded {
    /// The text, with `\n` line ends.
    pub text: String,
    /// True when the bytes were not UTF-8 and were read as Latin-1.
    pub latin1: bool,
}

/// Decodes a PGN file (see [`Decoded`]).
pub fn decode(bytes: &[u8]) -> Decoded {
    let bytes = bytes.strip_prefix(b"\xef\xbb\xbf").unwrap_or(bytes);
    let (text, latin1) = match std::str::from_utf8(bytes) {
        Ok(t) => (t.to_string(), false),
        Err(_) => (bytes.iter().map(|&b| char::from(b)).collect(), true),
    };
    let text = if text.contains('\r') {
        text.replace("\r\n", "\n").replace('\r', "\n")
    } else {
        text
    };
    Decoded { text, latin1 }
}

/// A syntax error in a PGN text: where, in which game (its number in the file, from 1, and
/// its tags as far as read), and what.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PgnError {
    /// The line of the problem, from 1.
    pub line: usize,
    /// The column (character) on that line, from 1.
    pub column: usize,
    /// What is wrong.
    pub message: String,
    /// The game's number in the file, from 1.
    pub game: usize,
    /// The game's tags as far as read, as [`PgnGame::title`] words them (may be empty).
    pub game_title: String,
}

impl fmt::Display for PgnError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "PGN line {}, column {}", self.line, self.column)?;
        if self.game > 1 || !self.game_title.is_empty() {
            write!(f, " (game {}", self.game)?;
            if !self.game_title.is_empty() {
                write!(f, ": {}", self.game_title)?;
            }
            write!(f, ")")?;
        }
        write!(f, ": {}", self.message)
    }
}

impl std::error::Error for PgnError {}

const RESULTS: [&str; 4] = ["1-0", "0-1", "1/2-1/2", "*"];

struct Reader<'a> {
    chars: Vec<char>,
    i: usize,
    line: usize,
    col: usize,
    _text: &'a str,
}

impl Reader<'_> {
    fn peek(&self) -> Option<char> {
        self.chars.get(self.i).copied()
    }
    fn bump(&mut self) -> Option<char> {
        let c = self.peek()?;
        self.i += 1;
        if c == '\n' {
            self.line += 1;
            self.col = 1;
        } else {
            self.col += 1;
        }
        Some(c)
    }
    fn err(&self, line: usize, col: usize, message: impl Into<String>) -> PgnError {
        PgnError {
            line,
            column: col,
            message: message.into(),
            game: 0,
            game_title: String::new(),
        }
    }
    /// True when only spaces stand between the line start and the cursor.
    fn at_line_start(&self) -> bool {
        let mut j = self.i;
        while j > 0 {
            match self.chars[j - 1] {
                '\n' => return true,
                ' ' | '\t' | '\r' | '\u{feff}' => j -= 1,
                _ => return false,
            }
        }
        true
    }
    /// A tag pair starts here: `[Name "`.
    fn looks_like_tag(&self) -> bool {
        let mut j = self.i + 1;
        let start = j;
        while j < self.chars.len() && (self.chars[j].is_alphanumeric() || self.chars[j] == '_') {
            j += 1;
        }
        if j == start {
            return false;
        }
        while j < self.chars.len() && (self.chars[j] == ' ' || self.chars[j] == '\t') {
            j += 1;
        }
        self.chars.get(j) == Some(&'"')
    }
    fn skip_until(&mut self, close: char, what: &str) -> Result<(), PgnError> {
        let (l, c) = (self.line, self.col);
        self.bump();
        loop {
            match self.bump() {
                Some(ch) if ch == close => return Ok(()),
                Some(_) => {}
                None => return Err(self.err(l, c, format!("{what} is never closed"))),
            }
        }
    }
    fn tag_pair(&mut self) -> Result<(String, String), PgnError> {
        let (l, c) = (self.line, self.col);
        self.bump(); // [
        let mut name = String::new();
        while let Some(ch) = self.peek() {
            if ch.is_alphanumeric() || ch == '_' {
                name.push(ch);
                self.bump();
            } else {
                break;
            }
        }
        while matches!(self.peek(), Some(' ' | '\t')) {
            self.bump();
        }
        self.bump(); // "
        let mut value = String::new();
        loop {
            match self.bump() {
                Some('\\') => match self.bump() {
                    Some(ch) => value.push(ch),
                    None => break,
                },
                Some('"') => {
                    while matches!(self.peek(), Some(' ' | '\t')) {
                        self.bump();
                    }
                    if self.peek() == Some(']') {
                        self.bump();
                        return Ok((name, value));
                    }
                    return Err(self.err(
                        l,
                        c,
                        format!("tag `{name}`: `]` expected after the value"),
                    ));
                }
                Some('\n') | None => {
                    return Err(self.err(
                        l,
                        c,
                        format!("tag `{name}`: the value's quote is never closed"),
                    ))
                }
                Some(ch) => value.push(ch),
            }
        }
        Err(self.err(l, c, format!("tag `{name}` is cut off")))
    }
}

/// Where counting starts: the FEN tag's side to move and move number, else 1. White.
fn first_ply(tags: &[(String, String)]) -> (u32, bool) {
    let fen = tags
        .iter()
        .find(|(k, _)| k == "FEN")
        .map(|(_, v)| v.as_str());
    match fen {
        Some(f) => {
            let fields: Vec<&str> = f.split_whitespace().collect();
            let white = fields.get(1).is_none_or(|s| *s != "b");
            let n = fields
                .get(5)
                .and_then(|s| s.parse().ok())
                .filter(|&n: &u32| n > 0)
                .unwrap_or(1);
            (n, white)
        }
        None => (1, true),
    }
}

#[derive(Default)]
struct Building {
    game: PgnGame,
    number: u32,
    white: bool,
    started: bool,
    /// The last word ended in `<=>`: the next one completes that move.
    join_next: bool,
}

impl Building {
    fn has_content(&self) -> bool {
        !self.game.tags.is_empty() || !self.game.moves.is_empty() || self.game.result.is_some()
    }
    fn start_moves(&mut self) {
        if !self.started {
            let (n, w) = first_ply(&self.game.tags);
            self.number = n;
            self.white = w;
            self.started = true;
        }
    }
    fn push_move(&mut self, text: &str) {
        self.start_moves();
        self.game.moves.push(SanToken {
            text: text.to_string(),
            number: self.number,
            white: self.white,
        });
        if !self.white {
            self.number = self.number.saturating_add(1);
        }
        self.white = !self.white;
    }
    /// A move number indication: `15.` (White's move) or `15...` (Black's).
    fn number_mark(&mut self, n: u32, dots: usize, line: usize) {
        self.start_moves();
        let black = dots >= 3;
        let fits = n == self.number && black != self.white;
        if !fits {
            self.game.warn(format!(
                "line {line}: move number {n}{} does not fit the count (next is {}{})",
                if black { "..." } else { "." },
                self.number,
                if self.white { "." } else { "..." }
            ));
        }
    }
}

/// Reads every game in a PGN text.
///
/// # Errors
/// On broken syntax: a tag without its closing quote or bracket, a comment or variation never
/// closed, a stray `)` or `}`. Move texts are not checked here (see [`replay`]).
pub fn parse_games(text: &str) -> Result<Vec<PgnGame>, PgnError> {
    let mut games = Vec::new();
    let mut b = Building::default();
    parse_into(text, &mut games, &mut b).map_err(|mut e| {
        e.game = games.len() + 1;
        e.game_title = title_of(&b.game.tags);
        e
    })?;
    Ok(games)
}

fn parse_into(text: &str, games: &mut Vec<PgnGame>, b: &mut Building) -> Result<(), PgnError> {
    let mut r = Reader {
        chars: text.chars().collect(),
        i: 0,
        line: 1,
        col: 1,
        _text: text,
    };
    let finish = |b: &mut Building, games: &mut Vec<PgnGame>| {
        if b.has_content() {
            games.push(std::mem::take(&mut b.game));
        }
        *b = Building::default();
    };
    while let Some(ch) = r.peek() {
        let (line, col) = (r.line, r.col);
        match ch {
            c if c.is_whitespace() || c == '\u{feff}' => {
                r.bump();
            }
            '%' if r.at_line_start() => {
                while !matches!(r.peek(), Some('\n') | None) {
                    r.bump();
                }
            }
            '[' if r.at_line_start() && r.looks_like_tag() => {
                if b.started || b.game.result.is_some() {
                    finish(b, games);
                }
                let pair = r.tag_pair()?;
                b.game.tags.push(pair);
            }
            '[' => r.skip_until(']', "a `[` comment")?,
            '{' => r.skip_until('}', "a `{` comment")?,
            ';' => {
                while !matches!(r.peek(), Some('\n') | None) {
                    r.bump();
                }
            }
            '(' => {
                let mut depth = 0;
                loop {
                    match r.peek() {
                        Some('(') => {
                            depth += 1;
                            r.bump();
                        }
                        Some(')') => {
                            depth -= 1;
                            r.bump();
                            if depth == 0 {
                                break;
                            }
                        }
                        Some('{') => r.skip_until('}', "a `{` comment")?,
                        Some(';') => {
                            while !matches!(r.peek(), Some('\n') | None) {
                                r.bump();
                            }
                        }
                        Some(_) => {
                            r.bump();
                        }
                        None => return Err(r.err(line, col, "a `(` variation is never closed")),
                    }
                }
            }
            ')' | '}' | ']' => return Err(r.err(line, col, format!("`{ch}` without its opening"))),
            _ => {
                let mut word = String::new();
                while let Some(c) = r.peek() {
                    if c.is_whitespace() || "{};()[".contains(c) {
                        break;
                    }
                    word.push(c);
                    r.bump();
                }
                handle_word(b, &word, line);
                if b.game.result.is_some() {
                    finish(b, games);
                }
            }
        }
    }
    finish(b, games);
    Ok(())
}

fn handle_word(b: &mut Building, word: &str, line: usize) {
    let word = word.replace('½', "1/2");
    if b.join_next {
        b.join_next = false;
        if let Some(last) = b.game.moves.last_mut() {
            last.text.push_str(&word);
            b.join_next = word.ends_with("<=>");
            return;
        }
    }
    if word.starts_with("<=>") {
        if let Some(last) = b.game.moves.last_mut() {
            last.text.push_str(&word);
            b.join_next = word == "<=>";
            return;
        }
    }
    if RESULTS.contains(&word.as_str()) {
        b.game.result = Some(word.to_string());
        return;
    }
    // Move number, possibly glued to the move: `15.`, `3...`, `15.h5`, `3...e6`.
    let digits = word.chars().take_while(|c| c.is_ascii_digit()).count();
    let mut rest = word.as_str();
    if digits > 0 {
        let after = &word[digits..];
        let dots = after.chars().take_while(|&c| c == '.' || c == '…').count();
        if dots > 0 || after.is_empty() {
            let n: u32 = word[..digits].parse().unwrap_or(0);
            let dot_count = after
                .chars()
                .take(dots)
                .map(|c| if c == '…' { 3 } else { 1 })
                .sum();
            b.number_mark(n, dot_count, line);
            rest = after.trim_start_matches(['.', '…']);
        }
    }
    if rest.is_empty() || rest.starts_with('$') || rest == "e.p." {
        return;
    }
    if rest.chars().all(|c| c == '!' || c == '?') {
        return;
    }
    b.push_move(rest);
    if rest.ends_with("<=>") {
        b.join_next = true;
    }
}

/// The built-in variant a `Variant` tag names (its file name, short name or full name, any
/// case; `Standard` is chess, `Fischerandom` is Chess960), or `None` when unknown.
pub fn variant_for_tag(tag: &str) -> Option<&'static str> {
    catalog::variant_for_tag(tag)
}

/// The start position the record's `FEN` tag gives, if any.
///
/// # Errors
/// When the FEN does not fit the variant.
pub fn start_position(rules: &Rules, game: &PgnGame) -> Result<Option<Position>, FenTagError> {
    match game.tag("FEN") {
        Some(f) => Position::from_fen(rules, f)
            .map(Some)
            .map_err(|error| FenTagError {
                fen: f.to_string(),
                error,
            }),
        None => Ok(None),
    }
}

/// A record's `FEN` tag that does not give a position of its variant.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FenTagError {
    /// The tag's text.
    pub fen: String,
    /// What is wrong with it.
    pub error: FenError,
}

impl fmt::Display for FenTagError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "FEN tag `{}`: {}", self.fen, self.error)
    }
}

impl std::error::Error for FenTagError {}

/// Why a replay stopped: at which move, and what was legal there.
#[derive(Clone, Debug)]
pub struct ReplayError {
    /// Index of the failing move in the record (0-based ply).
    pub index: usize,
    /// The move that could not be played, as the record writes it.
    pub token: SanToken,
    /// Why it could not be played.
    pub message: String,
    /// The legal moves in SAN at that point.
    pub legal: Vec<String>,
    /// The game up to the failing move.
    pub game: Game,
}

impl fmt::Display for ReplayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "move {} ({}): {}; legal moves: {}",
            self.token.numbered(),
            if self.token.white { "White" } else { "Black" },
            self.message,
            if self.legal.is_empty() {
                "none".to_string()
            } else {
                self.legal.join(" ")
            }
        )
    }
}

/// A `+` or `#` in the record that the position does not bear out, or a mate left unmarked
/// is not reported (many records omit marks).
pub fn mark_problem(rules: &Rules, after: &Position, token: &SanToken) -> Option<String> {
    let mark = notation::check_mark(&token.text)?;
    let check = after.in_check(rules);
    let mate = check && after.legal_moves(rules).is_empty();
    match mark {
        '#' if !mate => Some(format!(
            "move {} is marked `#` but {}",
            token.numbered(),
            if check {
                "it is only check"
            } else {
                "it is not even check"
            }
        )),
        '+' if !check => Some(format!(
            "move {} is marked `+` but gives no check",
            token.numbered()
        )),
        _ => None,
    }
}

/// Plays the record's moves from `start`; `each` sees every move with the position after it.
///
/// # Errors
/// At the first move that is malformed, illegal or ambiguous, or played after the game ended.
pub fn replay(
    rules: &Rules,
    start: Position,
    moves: &[SanToken],
    each: &mut dyn FnMut(&SanToken, Move, &Position),
) -> Result<Game, Box<ReplayError>> {
    let mut game = Game::new(start);
    for (index, token) in moves.iter().enumerate() {
        let pos = game.current().clone();
        let fail = |message: String, game: &Game| {
            let legal = pos
                .legal_moves(rules)
                .iter()
                .map(|m| notation::to_san(rules, &pos, *m))
                .collect();
            Box::new(ReplayError {
                index,
                token: token.clone(),
                message,
                legal,
                game: game.clone(),
            })
        };
        let m = match notation::parse_san(rules, &pos, &token.text) {
            Ok(m) => m,
            Err(e) => return Err(fail(e.to_string(), &game)),
        };
        if let Err(e) = game.play(rules, m) {
            return Err(fail(e.to_string(), &game));
        }
        each(token, m, game.current());
    }
    Ok(game)
}

/// Writes a game as PGN: the seven standard tags (from `tags` or `?`), `Variant` (always), `SetUp` and `FEN` when the game does not start from the variant's only start
/// position, the other given tags, then the moves in canonical SAN and the result.
pub fn write_game(rules: &Rules, game: &Game, tags: &[(String, String)]) -> String {
    write_game_annotated(rules, game, tags, &[])
}

/// [`write_game`] with a comment after each move that `comments` has one for (by ply; a `}`
/// inside becomes `)` so the comment cannot end early).
pub fn write_game_annotated(
    rules: &Rules,
    game: &Game,
    tags: &[(String, String)],
    comments: &[Option<String>],
) -> String {
    let given = |k: &str| tags.iter().find(|(n, _)| n == k).map(|(_, v)| v.clone());
    let result = game
        .outcome(rules)
        .map(|o| o.result().to_string())
        .or_else(|| given("Result"))
        .unwrap_or_else(|| "*".into());
    let mut out = String::new();
    let mut tag = |k: &str, v: &str| {
        let v = v.replace('\\', "\\\\").replace('"', "\\\"");
        out.push_str(&format!("[{k} \"{v}\"]\n"));
    };
    for (k, d) in [
        ("Event", "?"),
        ("Site", "?"),
        ("Date", "????.??.??"),
        ("Round", "?"),
        ("White", "?"),
        ("Black", "?"),
    ] {
        tag(k, &given(k).unwrap_or_else(|| d.to_string()));
    }
    tag("Result", &result);
    let v = &rules.variant;
    // Always written, chess too: a reader without it assumes orthodox chess, and a record
    // that says what it is needs no guess.
    let variant = given("Variant").unwrap_or_else(|| v.short.clone());
    tag("Variant", &variant);
    let start_fen = game.start().fen(rules);
    let only_start = (setup::count(v) == 1)
        .then(|| setup::from_id(v, 0).ok())
        .flatten()
        .map(|sp| setup::start_fen(v, &sp));
    let standard = only_start
        .and_then(|f| Position::from_fen(rules, &f).ok())
        .is_some_and(|p| p.fen(rules) == start_fen);
    if !standard {
        tag("SetUp", "1");
        tag("FEN", &start_fen);
    }
    for (k, val) in tags {
        if ![
            "Event", "Site", "Date", "Round", "White", "Black", "Result", "Variant", "SetUp", "FEN",
        ]
        .contains(&k.as_str())
        {
            tag(k, val);
        }
    }
    out.push('\n');
    let mut words = Vec::new();
    let positions = game.positions();
    for (i, m) in game.moves().iter().enumerate() {
        let pos = &positions[i];
        let n = pos.fullmove_number();
        if pos.side_to_move() == crate::piece::Colour::White {
            words.push(format!("{n}."));
        } else if i == 0 {
            words.push(format!("{n}..."));
        }
        words.push(notation::to_san(rules, pos, *m));
        if let Some(Some(c)) = comments.get(i) {
            words.push(format!("{{{}}}", c.replace('}', ")")));
        }
    }
    words.push(result);
    let mut line_len = 0;
    for w in words {
        if line_len > 0 && line_len + 1 + w.len() > 79 {
            out.push('\n');
            line_len = 0;
        } else if line_len > 0 {
            out.push(' ');
            line_len += 1;
        }
        out.push_str(&w);
        line_len += w.len();
    }
    out.push('\n');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_comments_variations_numbers_and_several_games() {
        let text = "; a file comment\n{before the game}\n[Event \"A \\\"test\\\"\"]\n[Variant \"MRC\"]\n\n\
            1.c4 h7 2. Ne3 {comment} g6 (2...g5 3.a4 (3.b4)) 3.Ng3 Be <=>M 4.d3!? $1 Nbc7 [forced] \
            5.Bc3 ; rest\n0-1\n\n[Event \"second\"]\n1. e4 Bc <=> Q 2. O-O-Og *\n";
        let games = parse_games(text).unwrap();
        assert_eq!(games.len(), 2);
        let g = &games[0];
        assert_eq!(g.tag("Event"), Some("A \"test\""));
        let texts: Vec<&str> = g.moves.iter().map(|t| t.text.as_str()).collect();
        assert_eq!(
            texts,
            ["c4", "h7", "Ne3", "g6", "Ng3", "Be<=>M", "d3!?", "Nbc7", "Bc3"]
        );
        assert_eq!(g.result.as_deref(), Some("0-1"));
        assert_eq!((g.moves[8].number, g.moves[8].white), (5, true));
        assert_eq!(g.warnings.len(), 0, "{:?}", g.warnings);
        let texts: Vec<&str> = games[1].moves.iter().map(|t| t.text.as_str()).collect();
        assert_eq!(texts, ["e4", "Bc<=>Q", "O-O-Og"]);
    }

    #[test]
    fn numbering_starts_from_the_fen_and_bad_numbers_warn() {
        let text = "[FEN \"8/8/8/8/8/8/8/8 b - - 0 12\"]\n12... a5 13. b4 15. c4 *";
        let g = &parse_games(text).unwrap()[0];
        assert_eq!((g.moves[0].number, g.moves[0].white), (12, false));
        assert_eq!((g.moves[2].number, g.moves[2].white), (13, false));
        assert_eq!(g.warnings.len(), 1, "{:?}", g.warnings);
    }

    #[test]
    fn syntax_errors_say_where() {
        let e = parse_games("1. e4 {never closed").unwrap_err();
        assert_eq!((e.line, e.column), (1, 7));
        let e = parse_games("[Event \"x]\n1. e4").unwrap_err();
        assert_eq!(e.line, 1);
        assert!(parse_games("1. e4 (e5").is_err());
        assert!(parse_games("1. e4 ) e5").is_err());
    }

    #[test]
    fn variant_tags() {
        assert_eq!(variant_for_tag("MRC"), Some("mrc"));
        assert_eq!(variant_for_tag("Modern Random Chess"), Some("mrc"));
        assert_eq!(
            variant_for_tag("International Contemporary Random Chess"),
            Some("icrc")
        );
        assert_eq!(variant_for_tag("Standard"), Some("chess"));
        assert_eq!(variant_for_tag("Chess960"), Some("chess960"));
        assert_eq!(variant_for_tag("Crazyhouse"), None);
    }

    #[test]
    fn latin1_bom_and_cr_line_ends_are_read() {
        let latin1 = b"[Event \"M\xfcnchen\"]\r[White \"J\xf6rg\"]\r\r1. e4 e5 *\r";
        let d = decode(latin1);
        assert!(d.latin1);
        let g = &parse_games(&d.text).unwrap()[0];
        assert_eq!(g.tag("Event"), Some("M\u{fc}nchen"));
        assert_eq!(g.tag("White"), Some("J\u{f6}rg"));
        assert_eq!(g.moves.len(), 2);
        let bom = "\u{feff}[Event \"x\"]\r\n\r\n1. d4 *\r\n".as_bytes();
        let d = decode(bom);
        assert!(!d.latin1);
        assert!(!d.text.contains('\r') && !d.text.starts_with('\u{feff}'));
        assert_eq!(parse_games(&d.text).unwrap()[0].moves.len(), 1);
    }

    #[test]
    fn warnings_are_bounded() {
        let text = "1. e4 ".to_string() + &"7. ".repeat(100_000) + "*";
        let g = &parse_games(&text).unwrap()[0];
        assert_eq!(g.warnings.len(), MAX_WARNINGS);
        assert_eq!(g.more_warnings, 100_000 - MAX_WARNINGS);
    }

    #[test]
    fn a_syntax_error_names_its_game() {
        let text =
            "[White \"A\"]\n[Black \"B\"]\n1. e4 *\n\n[White \"C\"]\n[Black \"D\"]\n1. e4 {open\n";
        let e = parse_games(text).unwrap_err();
        assert_eq!(e.game, 2);
        assert!(e.to_string().contains("game 2: C - D"), "{e}");
    }
}
