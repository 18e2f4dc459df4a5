//! Betza notation: a pest grammar and the step of turning it into move atoms.
//!
//! Supported: leapers `W F D N A H C Z G`; shorthands `K` (WF), `Q` (RB), `R` (WW), `B` (FF);
//! riders by doubling (`NN`) or a step limit (`W4`, `R2`); direction modifiers `f b l r v s`
//! (pairs such as `fl` narrow to one quadrant, doubled `ff` to the narrow half of an oblique
//! leaper); modes `m` (move only), `c` (capture only), `e` (en passant capture), `i` (only from
//! the piece's initial rank) and `n` (lame: every square on the straight path must be empty);
//! hoppers for riders: `p` (jump over exactly one piece, then go on as the rider: the xiangqi
//! cannon is `mRcpR`) and `g` (grasshopper: land on the square just beyond the first piece).
//! A piece is the union of its components, so the Prime Minister is `BN`.

use grammar::{BetzaParser, Rule};
use pest::Parser;

/// The pest parser and its generated `Rule` enum, kept out of the public API.
mod grammar {
    #[derive(pest_derive::Parser)]
    #[grammar = "betza.pest"]
    pub(super) struct BetzaParser;
}

/// How a rider treats the first piece on its line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Hop {
    /// It stops there (captures it or is blocked): an ordinary rider.
    #[default]
    None,
    /// `p`: it must jump that piece (the hurdle), then goes on as the rider up to and
    /// including the next piece (a cannon).
    Cannon,
    /// `g`: it lands on the square just beyond the hurdle, whatever the distance travelled
    /// (a grasshopper).
    Grasshopper,
}

/// One direction a piece can go, with how far and under which conditions.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct MoveAtom {
    /// File step, positive towards higher files, for White.
    pub df: i8,
    /// Rank step, positive forward for White (Black's are mirrored).
    pub dr: i8,
    /// 1 for a leaper, 0 for an unlimited rider, n for a rider of at most n steps.
    pub range: u8,
    /// It may move to an empty square (no `c` mode).
    pub quiet: bool,
    /// It may capture on the square (no `m` mode).
    pub capture: bool,
    /// `e`: it may capture en passant (a pawn's diagonal step).
    pub en_passant: bool,
    /// `i`: only from the piece's initial rank (a pawn's double step).
    pub initial: bool,
    /// `n`: lame, every square on the straight path must be empty (the xiangqi horse).
    pub lame: bool,
    /// Hopper modifiers (`p`, `g`); riders only.
    pub hop: Hop,
}

/// A Betza string that does not parse, with the character offset where it went wrong.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BetzaError {
    /// Character offset (from 0) in the Betza string where the problem is.
    pub offset: usize,
    /// What is wrong, in words.
    pub message: String,
}

impl std::fmt::Display for BetzaError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "at character {}: {}", self.offset + 1, self.message)
    }
}

fn base_steps(atom: char) -> Vec<((i8, i8), bool)> {
    // (step, rider by nature)
    match atom {
        'W' => vec![((1, 0), false)],
        'F' => vec![((1, 1), false)],
        'D' => vec![((2, 0), false)],
        'N' => vec![((2, 1), false)],
        'A' => vec![((2, 2), false)],
        'H' => vec![((3, 0), false)],
        'C' => vec![((3, 1), false)],
        'Z' => vec![((3, 2), false)],
        'G' => vec![((3, 3), false)],
        'K' => vec![((1, 0), false), ((1, 1), false)],
        'R' => vec![((1, 0), true)],
        'B' => vec![((1, 1), true)],
        'Q' => vec![((1, 0), true), ((1, 1), true)],
        _ => vec![],
    }
}

/// All the symmetric images of a step.
fn images(step: (i8, i8)) -> Vec<(i8, i8)> {
    let (a, b) = step;
    let mut out = Vec::new();
    for (x, y) in [(a, b), (b, a)] {
        for sx in [1, -1] {
            for sy in [1, -1] {
                let d = (x * sx, y * sy);
                if !out.contains(&d) {
                    out.push(d);
                }
            }
        }
    }
    out
}

/// Does direction `(df, dr)` belong to one direction group (`f`, `fl`, `ff`, ...)?
fn matches_group(group: &str, df: i8, dr: i8) -> bool {
    let oblique = df != 0 && dr != 0 && df.abs() != dr.abs();
    let one = |c: char| match c {
        'f' => dr > 0,
        'b' => dr < 0,
        'l' => df < 0,
        'r' => df > 0,
        'v' => dr.abs() > df.abs(),
        's' => df.abs() > dr.abs(),
        _ => false,
    };
    let cs: Vec<char> = group.chars().collect();
    match cs.as_slice() {
        [c] => one(*c),
        [a, b] if a == b => {
            // doubled: the narrow half (for oblique leapers), otherwise the plain direction
            let narrow = match a {
                'f' | 'b' => dr.abs() > df.abs(),
                _ => df.abs() > dr.abs(),
            };
            one(*a) && (!oblique || narrow)
        }
        [a, b] => one(*a) && one(*b),
        _ => false,
    }
}

/// Splits direction modifiers into groups: `f`/`b` followed by `l`/`r`/`s`/`v` or by itself
/// doubled make one group; every other letter is a group of its own.
fn direction_groups(dirs: &[char]) -> Vec<String> {
    let mut groups = Vec::new();
    let mut i = 0;
    while i < dirs.len() {
        let c = dirs[i];
        if i + 1 < dirs.len() {
            let n = dirs[i + 1];
            let pair = (matches!(c, 'f' | 'b') && matches!(n, 'l' | 'r' | 's' | 'v')) || c == n;
            if pair {
                groups.push(format!("{c}{n}"));
                i += 2;
                continue;
            }
        }
        groups.push(c.to_string());
        i += 1;
    }
    groups
}

/// Parses a Betza string into move atoms (one per direction).
///
/// # Errors
/// When the string is not in the supported grammar, or a component selects no direction.
pub fn parse(text: &str) -> Result<Vec<MoveAtom>, BetzaError> {
    let pairs =
        BetzaParser::parse(Rule::betza, text).map_err(|e| syntax_error(text, &e.location))?;
    let mut atoms: Vec<MoveAtom> = Vec::new();
    for comp in pairs
        .into_iter()
        .next()
        .into_iter()
        .flat_map(|p| p.into_inner())
    {
        if comp.as_rule() != Rule::component {
            continue;
        }
        let c = Component::read(comp)?;
        c.check_hopper()?;
        c.expand_into(&mut atoms)?;
    }
    Ok(atoms)
}

/// The grammar error as a message naming what was expected.
fn syntax_error(text: &str, location: &pest::error::InputLocation) -> BetzaError {
    let offset = match *location {
        pest::error::InputLocation::Pos(p) => p,
        pest::error::InputLocation::Span((p, _)) => p,
    };
    let found = text[offset.min(text.len())..].chars().next();
    BetzaError {
        offset,
        message: match found {
            Some(c) => format!(
                "unexpected `{c}`: expected a modifier (f b l r v s m c i n e p g) or an atom (W F D N A H C Z G K Q R B)"
            ),
            None => "expected an atom letter (W F D N A H C Z G K Q R B)".into(),
        },
    }
}

/// One component of a Betza string (`fmW`, `cpR`, `N3`) as read: modifiers, atom, range.
struct Component {
    offset: usize,
    dirs: Vec<char>,
    quiet_only: bool,
    capture_only: bool,
    en_passant: bool,
    initial: bool,
    lame: bool,
    hop: Hop,
    letter: char,
    doubled: bool,
    limit: Option<u8>,
}

impl Component {
    fn read(comp: pest::iterators::Pair<'_, Rule>) -> Result<Component, BetzaError> {
        let mut c = Component {
            offset: comp.as_span().start(),
            dirs: Vec::new(),
            quiet_only: false,
            capture_only: false,
            en_passant: false,
            initial: false,
            lame: false,
            hop: Hop::None,
            letter: ' ',
            doubled: false,
            limit: None,
        };
        for part in comp.into_inner() {
            match part.as_rule() {
                Rule::modifier => c.modifier(part.as_str()),
                Rule::atom => c.letter = part.as_str().chars().next().unwrap_or(' '),
                Rule::rider => c.doubled = true,
                Rule::limit => {
                    c.limit = Some(part.as_str().parse().map_err(|_| BetzaError {
                        offset: part.as_span().start(),
                        message: "step limit must be a number below 100".into(),
                    })?)
                }
                _ => {}
            }
        }
        Ok(c)
    }

    fn modifier(&mut self, m: &str) {
        match m {
            "m" => self.quiet_only = true,
            "c" => self.capture_only = true,
            "e" => self.en_passant = true,
            "i" => self.initial = true,
            "n" => self.lame = true,
            "p" => self.hop = Hop::Cannon,
            "g" => self.hop = Hop::Grasshopper,
            d => self.dirs.push(d.chars().next().unwrap_or('f')),
        }
    }

    /// Hoppers (`p`, `g`) are unlimited riders without `e`, `n` or `i`.
    fn check_hopper(&self) -> Result<(), BetzaError> {
        let rides =
            self.limit.is_none() && (self.doubled || base_steps(self.letter).iter().any(|s| s.1));
        if self.hop != Hop::None && (!rides || self.en_passant || self.lame || self.initial) {
            return Err(BetzaError {
                offset: self.offset,
                message:
                    "`p` and `g` (hoppers) apply to unlimited riders only, without `e`, `n` or `i`"
                        .into(),
            });
        }
        Ok(())
    }

    /// Adds one atom per direction the modifiers select (each once).
    fn expand_into(&self, atoms: &mut Vec<MoveAtom>) -> Result<(), BetzaError> {
        let any_mode = !(self.quiet_only || self.capture_only || self.en_passant);
        let groups = direction_groups(&self.dirs);
        let mut matched = false;
        for (step, natural_rider) in base_steps(self.letter) {
            let range = match (self.limit, self.doubled || natural_rider) {
                (Some(l), _) => l,
                (None, true) => 0,
                (None, false) => 1,
            };
            for (df, dr) in images(step) {
                if !groups.is_empty() && !groups.iter().any(|g| matches_group(g, df, dr)) {
                    continue;
                }
                matched = true;
                let atom = MoveAtom {
                    df,
                    dr,
                    range,
                    quiet: self.quiet_only || any_mode,
                    capture: self.capture_only || any_mode,
                    en_passant: self.en_passant,
                    initial: self.initial,
                    lame: self.lame,
                    hop: self.hop,
                };
                if !atoms.contains(&atom) {
                    atoms.push(atom);
                }
            }
        }
        if !matched {
            let (dirs, letter) = (&self.dirs, self.letter);
            return Err(BetzaError {
                offset: self.offset,
                message: format!("the modifiers {dirs:?} select no direction of `{letter}`"),
            });
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn count(s: &str) -> usize {
        parse(s).unwrap().len()
    }

    #[test]
    fn basic_pieces() {
        assert_eq!(count("K"), 8);
        assert_eq!(count("N"), 8);
        assert_eq!(count("BN"), 12);
        assert_eq!(count("Q"), 8);
        assert!(parse("R").unwrap().iter().all(|a| a.range == 0));
        assert!(parse("NN")
            .unwrap()
            .iter()
            .all(|a| a.range == 0 && a.df.abs() + a.dr.abs() == 3));
        assert!(parse("W4").unwrap().iter().all(|a| a.range == 4));
    }

    #[test]
    fn pawn() {
        let p = parse("fmWfceFifmnD").unwrap();
        assert_eq!(p.len(), 4);
        assert!(p.contains(&MoveAtom {
            df: 0,
            dr: 1,
            range: 1,
            quiet: true,
            capture: false,
            en_passant: false,
            initial: false,
            lame: false,
            hop: Hop::None,
        }));
        assert!(p
            .iter()
            .any(|a| a.df == 1 && a.dr == 1 && a.capture && a.en_passant && !a.quiet));
        assert!(p.iter().any(|a| a.df == 0
            && a.dr == 2
            && a.initial
            && a.lame
            && a.quiet
            && !a.capture));
    }

    #[test]
    fn directions() {
        assert_eq!(count("fN"), 4);
        assert_eq!(count("ffN"), 2);
        assert_eq!(count("fsN"), 2);
        assert_eq!(count("vW"), 2);
        assert_eq!(count("sW"), 2);
        assert_eq!(count("flF"), 1);
        assert_eq!(count("fF"), 2);
    }

    #[test]
    fn hoppers() {
        let cannon = parse("mRcpR").unwrap();
        assert_eq!(cannon.len(), 8);
        assert_eq!(
            cannon.iter().filter(|a| a.hop == Hop::Cannon).count(),
            4,
            "{cannon:?}"
        );
        assert!(cannon
            .iter()
            .all(|a| (a.hop == Hop::Cannon) == (a.capture && !a.quiet)));
        let grasshopper = parse("gQ").unwrap();
        assert_eq!(grasshopper.len(), 8);
        assert!(grasshopper
            .iter()
            .all(|a| a.hop == Hop::Grasshopper && a.quiet && a.capture && a.range == 0));
        assert!(parse("pN").is_err(), "a leaper cannot hop");
        assert!(parse("gW").is_err());
        assert!(parse("pNN").is_ok(), "a nightrider can");
        assert!(parse("pR2").is_err(), "a limited rider cannot");
    }

    #[test]
    fn garbage_is_refused_with_position() {
        assert_eq!(parse("").unwrap_err().offset, 0);
        assert_eq!(parse("Kx").unwrap_err().offset, 1);
        assert!(parse("fm").is_err());
        assert!(parse("k").is_err());
        assert!(parse("vF").is_err());
    }
}
