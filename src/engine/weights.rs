//! The evaluation's parameter set, as data: every term is a (middlegame, endgame) pair of
//! centipawns, named so a weights file can be read by a person and survive a changed piece set.
//!
//! Defaults are derived from the rules alone (piece values from the variant file, centre
//! terms from each piece's own mobility on an empty board); `modern-chess tune` fits them to
//! game results and writes a weights file, which the variant file names in `[engine]`.

use crate::rules::Rules;
use std::collections::BTreeMap;
use std::fmt;

/// Middlegame and endgame value of one term.
pub type Pair = [i32; 2];

/// Where each group of terms starts in the flat parameter vector.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Layout {
    /// Number of piece kinds the parameters cover.
    pub kinds: usize,
    /// Number of ranks (for the per-rank and passed-pawn terms).
    pub ranks: usize,
    /// Number of folded files (a file and its mirror image count as one): `(files + 1) / 2`.
    pub half_files: usize,
    /// Value of a piece kind.
    pub material: usize,
    /// Per kind: times (empty-board mobility on the square - the kind's average).
    pub centre: usize,
    /// Per kind and relative rank (0 = own back rank).
    pub rank: usize,
    /// Per kind: per square it may move to that no enemy pawn attacks.
    pub mobility: usize,
    /// Squares around the king the enemy attacks, squared (at most 8 counted).
    pub king_pressure: usize,
    /// Enemy pieces attacking the king's zone (at most 6 counted).
    pub king_attackers: usize,
    /// Own pawns in the king's zone (at most 3 counted).
    pub king_shield: usize,
    /// A pawn with an own pawn ahead on its file.
    pub doubled: usize,
    /// A pawn with no own pawn on a file beside it.
    pub isolated: usize,
    /// A pawn defended by an own pawn.
    pub supported: usize,
    /// Per distance to promotion (index 0 unused).
    pub passed: usize,
    /// An enemy piece other than a pawn or king attacked by an own pawn.
    pub pawn_threat: usize,
    /// An own piece (not the king) attacked and not defended.
    pub hanging: usize,
    /// The side to move's bonus.
    pub tempo: usize,
    /// Per kind: a piece of this kind attacked by an enemy piece of lower value (or a pawn).
    pub threat_lesser: usize,
    /// Per kind: squares from which an enemy piece of this kind could give check, that it
    /// reaches, that the king's side does not guard and no enemy piece stands on.
    pub safe_check: usize,
    /// Per kind: a piece with at most one safe square to go to (nearly trapped).
    pub trapped: usize,
    /// A passed pawn's own king's distance to the square in front, times its advance weight.
    pub passed_king_own: usize,
    /// The enemy king's distance to that square, times the advance weight.
    pub passed_king_enemy: usize,
    /// A passed pawn's way to promotion free of enemy pieces and attacks (graded), times the
    /// advance weight.
    pub passed_free: usize,
    /// Per kind and folded file (0 = an edge file): where a piece stands across the board,
    /// which the rank terms cannot say (a king tucked in a corner, a knight on the rim).
    pub file: usize,
    /// King danger, where attacks on a king add up to more than their sum: products of the
    /// king-zone counts (see [`DANGER_TERMS`]).
    pub danger: usize,
    /// Pawn shelter: per file of the king and the files beside it, how far ahead of the
    /// king its nearest own pawn on the file stands (`king.shelter.0`-`3`, 3 or more) or that
    /// there is none (`king.shelter.open`). Zero in the derived weights, as are the storm
    /// terms: with Stockfish 11's shape as defaults they played worse (README).
    pub shelter: usize,
    /// Pawn storm: per such file, how far ahead of the king the nearest enemy pawn stands
    /// (`king.storm.1`-`4`, 4 or more), when no own pawn blocks it.
    pub storm: usize,
    /// The same when an own pawn stands right in front of it (`king.storm_blocked.1`-`4`).
    pub storm_blocked: usize,
    /// Connected pawns (a phalanx neighbour or a supporting pawn) per distance to promotion
    /// (`pawn.connected.N`), counted 2, plus 1 for a phalanx, minus 1 when opposed. Zero in
    /// the derived weights.
    pub connected: usize,
    /// An isolated pawn with no enemy pawn in front of it, open to attack along its file
    /// (`pawn.isolated_unopposed`, on top of `pawn.isolated`). Zero in the derived weights.
    pub isolated_unopposed: usize,
    /// Per kind and square, the file folded onto the board's left half and the rank counted
    /// from the piece's own side: a piece-square table for what rank, file and centre terms
    /// cannot say apart (`square.N.c3`). Zero in the derived weights.
    pub square: usize,
    /// Per kind: the square root of the safe squares it may move to, times 4
    /// (`mobility.root.X`): with the linear term a concave curve, where the first squares
    /// of a piece's mobility count for more than the tenth (as Stockfish's mobility tables
    /// have it). Zero in the derived weights.
    pub mobility_root: usize,
    /// Number of parameters in all (the length of the flat vector).
    pub len: usize,
}

impl Layout {
    /// The layout for `kinds` piece kinds on a board of `files` x `ranks`.
    pub fn new(kinds: usize, ranks: usize, files: usize) -> Layout {
        let half_files = files.div_ceil(2).max(1);
        let material = 0;
        let centre = material + kinds;
        let rank = centre + kinds;
        let mobility = rank + kinds * ranks;
        let king_pressure = mobility + kinds;
        let passed = king_pressure + 6;
        let pawn_threat = passed + ranks;
        let file = pawn_threat + 6 + 3 * kinds;
        let danger = file + kinds * half_files;
        let shelter = danger + DANGER_TERMS.len();
        let storm = shelter + SHELTER_TERMS;
        let storm_blocked = storm + STORM_TERMS;
        let connected = storm_blocked + STORM_TERMS;
        let isolated_unopposed = connected + ranks;
        let square = isolated_unopposed + 1;
        let mobility_root = square + kinds * ranks * half_files;
        Layout {
            kinds,
            ranks,
            half_files,
            material,
            centre,
            rank,
            mobility,
            king_pressure,
            king_attackers: king_pressure + 1,
            king_shield: king_pressure + 2,
            doubled: king_pressure + 3,
            isolated: king_pressure + 4,
            supported: king_pressure + 5,
            passed,
            pawn_threat,
            hanging: pawn_threat + 1,
            tempo: pawn_threat + 2,
            threat_lesser: pawn_threat + 3,
            safe_check: pawn_threat + 3 + kinds,
            trapped: pawn_threat + 3 + 2 * kinds,
            passed_king_own: pawn_threat + 3 + 3 * kinds,
            passed_king_enemy: pawn_threat + 4 + 3 * kinds,
            passed_free: pawn_threat + 5 + 3 * kinds,
            file,
            danger,
            shelter,
            storm,
            storm_blocked,
            connected,
            isolated_unopposed,
            square,
            mobility_root,
            len: mobility_root + kinds,
        }
    }

    /// The shelter and storm parameters, one block (`king.shelter.*`, `king.storm*`).
    pub fn shelter_storm(&self) -> std::ops::Range<usize> {
        self.shelter..self.storm_blocked + STORM_TERMS
    }

    /// The connected and unopposed-isolated pawn parameters, one block.
    pub fn pawn_links(&self) -> std::ops::Range<usize> {
        self.connected..self.isolated_unopposed + 1
    }

    /// The piece-square parameter of kind `t` on relative rank `rank` and folded file `file`.
    #[inline(always)]
    pub fn square_index(&self, t: usize, rank: usize, file: usize) -> usize {
        self.square + (t * self.ranks + rank) * self.half_files + file
    }

    /// The name of every parameter, as a weights file writes it.
    pub fn names(&self, rules: &Rules) -> Vec<String> {
        let letter = |t: usize| rules.variant.pieces[t].letter;
        let mut n = vec![String::new(); self.len];
        for t in 0..self.kinds {
            n[self.material + t] = format!("material.{}", letter(t));
            n[self.centre + t] = format!("centre.{}", letter(t));
            n[self.mobility + t] = format!("mobility.{}", letter(t));
            n[self.threat_lesser + t] = format!("threat.lesser.{}", letter(t));
            n[self.safe_check + t] = format!("king.safe_check.{}", letter(t));
            n[self.trapped + t] = format!("mobility.trapped.{}", letter(t));
            n[self.mobility_root + t] = format!("mobility.root.{}", letter(t));
            for r in 0..self.ranks {
                n[self.rank + t * self.ranks + r] = format!("rank.{}.{}", letter(t), r + 1);
            }
            for f in 0..self.half_files {
                n[self.file + t * self.half_files + f] = format!("file.{}.{}", letter(t), f + 1);
                for r in 0..self.ranks {
                    let file = char::from(b'a' + f as u8);
                    n[self.square_index(t, r, f)] = format!("square.{}.{file}{}", letter(t), r + 1);
                }
            }
        }
        for d in 0..self.ranks {
            n[self.passed + d] = format!("passed.{d}");
            n[self.connected + d] = format!("pawn.connected.{d}");
        }
        let single = [
            (self.king_pressure, "king.pressure"),
            (self.king_attackers, "king.attackers"),
            (self.king_shield, "king.shield"),
            (self.doubled, "pawn.doubled"),
            (self.isolated, "pawn.isolated"),
            (self.supported, "pawn.supported"),
            (self.isolated_unopposed, "pawn.isolated_unopposed"),
            (self.pawn_threat, "threat.pawn"),
            (self.hanging, "threat.hanging"),
            (self.tempo, "tempo"),
            (self.passed_king_own, "passed.king_own"),
            (self.passed_king_enemy, "passed.king_enemy"),
            (self.passed_free, "passed.free"),
        ];
        for (i, name) in single {
            n[i] = name.to_string();
        }
        for (i, name) in DANGER_TERMS.iter().enumerate() {
            n[self.danger + i] = format!("king.danger.{name}");
        }
        for d in 0..SHELTER_TERMS - 1 {
            n[self.shelter + d] = format!("king.shelter.{d}");
        }
        n[self.shelter + SHELTER_TERMS - 1] = "king.shelter.open".to_string();
        for d in 0..STORM_TERMS {
            n[self.storm + d] = format!("king.storm.{}", d + 1);
            n[self.storm_blocked + d] = format!("king.storm_blocked.{}", d + 1);
        }
        n
    }
}

/// Shelter parameters: own pawn 0, 1, 2, 3 or more ranks ahead of the king, or none.
pub const SHELTER_TERMS: usize = 5;
/// Storm parameters (each, blocked or not): enemy pawn 1, 2, 3, 4 or more ranks ahead.
pub const STORM_TERMS: usize = 4;

/// The king-danger products, in layout order, for a king's zone: enemy pieces attacking it
/// (`attackers`), its squares they attack (`pressure`), their safe checks (`checks`) and its
/// squares they attack that no own piece but the king defends (`weak`). Zero in the derived
/// weights: a fit gives them their values.
pub const DANGER_TERMS: [&str; 5] = [
    "attackers_pressure",
    "attackers_checks",
    "weak",
    "attackers_weak",
    "checks_squared",
];

/// A full parameter set for one variant.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Weights {
    /// Where each term group sits in `values`.
    pub layout: Layout,
    /// Every parameter's (middlegame, endgame) value, in layout order.
    pub values: Vec<Pair>,
}

/// A weights file that cannot be used: what and where.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum WeightsError {
    /// Not TOML, or not a table of `name = [mg, eg]` pairs.
    Syntax(String),
    /// A name this variant has no parameter for.
    UnknownName(String),
    /// A value outside -100000..=100000.
    OutOfRange(String),
}

impl WeightsError {
    /// What is wrong, without the "weights file:" in front.
    fn detail(&self) -> String {
        match self {
            WeightsError::Syntax(e) => e.clone(),
            WeightsError::UnknownName(n) => format!("unknown parameter `{n}`"),
            WeightsError::OutOfRange(n) => format!("`{n}` must be within -100000..=100000"),
        }
    }
}

impl fmt::Display for WeightsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "weights file: {}", self.detail())
    }
}

impl std::error::Error for WeightsError {}

impl Weights {
    /// The weights derived from the rules alone: what the engine uses without a weights file.
    pub fn derived(rules: &Rules) -> Weights {
        let layout = Layout::new(
            rules.n_types,
            rules.geo.ranks as usize,
            rules.geo.files as usize,
        );
        let mut v = vec![[0, 0]; layout.len];
        for t in 0..rules.n_types {
            let value = if t == rules.royal {
                0
            } else {
                rules.variant.pieces[t].value.max(0)
            };
            let is_pawn = Some(t) == rules.pawn;
            // A pawn counts little beside the pieces, as in Stockfish 11 (a knight is worth
            // six pawns in the middlegame, four in the endgame): measured against
            // Fairy-Stockfish, see README.
            v[layout.material + t] = if is_pawn {
                [value * 55 / 100, value * 80 / 100]
            } else {
                [value, value]
            };
            let royal = t == rules.royal;
            // Centralisation matters most to the short-range pieces (a knight on the rim),
            // least to the queen, whose reach is long from anywhere.
            v[layout.centre + t] = match (royal, value) {
                (true, _) => [0, 5],
                (false, ..400) if !is_pawn => [12, 8],
                (false, 400..900) => [9, 6],
                _ => [3, 2],
            };
            v[layout.mobility + t] = match (royal || is_pawn, value < 400) {
                (true, _) => [0, 0],
                (false, true) => [4, 4],
                (false, false) => [2, 3],
            };
            if !royal && !is_pawn {
                // Attacked by something cheaper: it must move or be lost, a tempo at least.
                v[layout.threat_lesser + t] = [-(value / 16 + 10), -(value / 24 + 5)];
                v[layout.safe_check + t] = [-30, -5];
                v[layout.trapped + t] = [-(value / 20), -(value / 20)];
            }
            if royal {
                for r in 1..layout.ranks {
                    v[layout.rank + t * layout.ranks + r] = [-12 * r.min(3) as i32, 0];
                }
            }
        }
        let passed = [0, 60, 40, 25, 15, 8, 4];
        for d in 1..layout.ranks {
            let eg = passed.get(d).copied().unwrap_or(0) * 2;
            v[layout.passed + d] = [eg / 3, eg];
        }
        v[layout.king_pressure] = [-6, 0];
        v[layout.king_attackers] = [-10, 0];
        v[layout.king_shield] = [12, 0];
        v[layout.doubled] = [-10, -20];
        v[layout.isolated] = [-10, -10];
        v[layout.supported] = [8, 6];
        v[layout.pawn_threat] = [40, 25];
        v[layout.hanging] = [-20, -10];
        v[layout.tempo] = [15, 5];
        // A passed pawn in the endgame wants its own king near and the enemy king far, and a
        // way to promotion nothing of the enemy's stands on or attacks (Stockfish 11's terms).
        v[layout.passed_king_own] = [0, -1];
        v[layout.passed_king_enemy] = [0, 3];
        v[layout.passed_free] = [3, 3];
        Weights { layout, values: v }
    }

    /// Reads a weights file over the derived weights: named parameters replace the derived
    /// value, the rest keep it.
    ///
    /// # Errors
    /// Bad TOML, a name this variant has no parameter for, or a value out of range.
    pub fn from_toml(rules: &Rules, text: &str) -> Result<Weights, WeightsError> {
        let mut w = Weights::derived(rules);
        let table: BTreeMap<String, toml::Value> =
            toml::from_str(text).map_err(|e| WeightsError::Syntax(e.to_string()))?;
        let names = w.layout.names(rules);
        let mut flat = Vec::new();
        flatten("", &table, &mut flat);
        for (name, value) in flat {
            let i = names
                .iter()
                .position(|n| *n == name)
                .ok_or_else(|| WeightsError::UnknownName(name.clone()))?;
            w.values[i] = pair(&name, &value)?;
        }
        Ok(w)
    }

    /// The weights as a TOML file (every parameter, one line each, grouped by term).
    pub fn to_toml(&self, rules: &Rules, header: &str) -> String {
        let mut out = String::new();
        for line in header.lines() {
            out.push_str(&format!("# {line}\n"));
        }
        out.push_str("# name = [middlegame, endgame] in centipawns\n");
        for (name, v) in self.layout.names(rules).iter().zip(&self.values) {
            out.push_str(&format!("\"{name}\" = [{}, {}]\n", v[0], v[1]));
        }
        out
    }
}

/// Dotted keys written without quotes (`material.N = ...`) arrive as nested tables.
fn flatten(
    prefix: &str,
    table: &BTreeMap<String, toml::Value>,
    out: &mut Vec<(String, toml::Value)>,
) {
    for (k, v) in table {
        let name = if prefix.is_empty() {
            k.clone()
        } else {
            format!("{prefix}.{k}")
        };
        match v {
            toml::Value::Table(t) => {
                let inner: BTreeMap<String, toml::Value> =
                    t.iter().map(|(a, b)| (a.clone(), b.clone())).collect();
                flatten(&name, &inner, out);
            }
            _ => out.push((name, v.clone())),
        }
    }
}

fn pair(name: &str, v: &toml::Value) -> Result<Pair, WeightsError> {
    let bad = || WeightsError::Syntax(format!("`{name}` must be [middlegame, endgame] integers"));
    let arr = v.as_array().ok_or_else(bad)?;
    if arr.len() != 2 {
        return Err(bad());
    }
    let mut p = [0; 2];
    for (i, x) in arr.iter().enumerate() {
        let n = x.as_integer().ok_or_else(bad)?;
        if n.abs() > 100_000 {
            return Err(WeightsError::OutOfRange(name.to_string()));
        }
        p[i] = n as i32;
    }
    Ok(p)
}

/// Weights files shipped in `variants/weights/`, built into the binary beside the variant
/// files, by the name the variant's `[engine] weights` gives.
pub const BUILTIN_FILES: &[(&str, &str)] = &[
    (
        "weights/crc.toml",
        include_str!("../../variants/weights/crc.toml"),
    ),
    (
        "weights/merc.toml",
        include_str!("../../variants/weights/merc.toml"),
    ),
    (
        "weights/mrc.toml",
        include_str!("../../variants/weights/mrc.toml"),
    ),
    (
        "weights/mrc64.toml",
        include_str!("../../variants/weights/mrc64.toml"),
    ),
    (
        "weights/pmrc.toml",
        include_str!("../../variants/weights/pmrc.toml"),
    ),
];

/// Where the weights a variant names live: a path beside the variant file, or the built-in
/// copy for a built-in variant. None when the variant names no weights file.
pub fn weights_path(rules: &Rules) -> Option<std::path::PathBuf> {
    let name = rules.variant.engine.weights.as_ref()?;
    let origin = std::path::Path::new(&rules.variant.origin);
    let base = origin.parent().unwrap_or(std::path::Path::new(""));
    Some(base.join(name))
}

/// The weights the variant's `[engine] weights` file gives, over the derived ones.
///
/// A variant that names no file, or names one that does not exist, gets the derived weights
/// (`Ok`); so does a built-in variant whose file is built in.
///
/// # Errors
/// A file that exists but cannot be read or used.
pub fn for_variant(rules: &Rules) -> Result<Weights, WeightsError> {
    let Some(name) = rules.variant.engine.weights.as_deref() else {
        return Ok(Weights::derived(rules));
    };
    if rules.variant.origin.starts_with("<built-in") {
        let local = std::path::Path::new("variants").join(name);
        if !local.is_file() {
            return match BUILTIN_FILES.iter().find(|(n, _)| *n == name) {
                Some((_, text)) => Weights::from_toml(rules, text),
                None => Ok(Weights::derived(rules)),
            };
        }
        return read_file(rules, &local);
    }
    match weights_path(rules) {
        Some(p) if p.is_file() => read_file(rules, &p),
        _ => Ok(Weights::derived(rules)),
    }
}

fn read_file(rules: &Rules, path: &std::path::Path) -> Result<Weights, WeightsError> {
    let meta = std::fs::metadata(path).map_err(|e| WeightsError::Syntax(e.to_string()))?;
    if meta.len() > 1 << 20 {
        return Err(WeightsError::Syntax(format!(
            "{} is larger than 1 MiB",
            path.display()
        )));
    }
    let text = std::fs::read_to_string(path)
        .map_err(|e| WeightsError::Syntax(format!("{}: {e}", path.display())))?;
    Weights::from_toml(rules, &text)
        .map_err(|e| WeightsError::Syntax(format!("{}: {}", path.display(), e.detail())))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog;

    #[test]
    fn every_shipped_weights_file_is_built_in_and_fits_its_variant() {
        let mut named = std::collections::BTreeSet::new();
        for (name, _) in catalog::BUILTIN {
            let rules = catalog::load_rules(name).unwrap();
            let Some(file) = rules.variant.engine.weights.as_deref() else {
                continue;
            };
            named.insert(file.to_string());
            let (_, text) = BUILTIN_FILES
                .iter()
                .find(|(n, _)| *n == file)
                .unwrap_or_else(|| panic!("{name}: {file} is not in BUILTIN_FILES"));
            let w = Weights::from_toml(&rules, text).unwrap_or_else(|e| panic!("{name}: {e:?}"));
            assert_ne!(
                w,
                Weights::derived(&rules),
                "{name}: {file} changes nothing"
            );
            assert_eq!(for_variant(&rules).unwrap(), w, "{name}");
        }
        assert_eq!(
            named.len(),
            BUILTIN_FILES.len(),
            "a built-in weights file no variant names"
        );
    }

    #[test]
    fn files_round_trip_and_bad_files_are_refused() {
        let rules = catalog::load_rules("mrc").unwrap();
        let mut w = Weights::derived(&rules);
        w.values[3] = [123, -45];
        let text = w.to_toml(&rules, "test");
        assert_eq!(Weights::from_toml(&rules, &text).unwrap(), w);
        let partial =
            Weights::from_toml(&rules, "tempo = [1, 2]\nmaterial.Q = [900, 1000]\n").unwrap();
        assert_eq!(partial.values[partial.layout.tempo], [1, 2]);
        let q = rules.variant.piece_index('Q').unwrap();
        assert_eq!(partial.values[q], [900, 1000]);
        assert!(matches!(
            Weights::from_toml(&rules, "material.Z = [1, 2]"),
            Err(WeightsError::UnknownName(_))
        ));
        assert!(matches!(
            Weights::from_toml(&rules, "tempo = [1]"),
            Err(WeightsError::Syntax(_))
        ));
        assert!(matches!(
            Weights::from_toml(&rules, "tempo = [1, 999999]"),
            Err(WeightsError::OutOfRange(_))
        ));
        assert!(Weights::from_toml(&rules, "tempo = ").is_err());
    }

    #[test]
    fn every_parameter_has_its_own_name_and_piece_squares_are_named_by_square() {
        for v in ["mrc", "mrc64", "merc", "pmrc"] {
            let rules = catalog::load_rules(v).unwrap();
            let w = Weights::derived(&rules);
            let names = w.layout.names(&rules);
            let unique: std::collections::BTreeSet<_> = names.iter().collect();
            assert_eq!(unique.len(), names.len(), "{v}");
            assert!(names.iter().all(|n| !n.is_empty()), "{v}");
        }
        let rules = catalog::load_rules("mrc").unwrap();
        let n = rules.variant.piece_index('N').unwrap();
        let w = Weights::from_toml(&rules, "square.N.c3 = [7, -7]").unwrap();
        assert_eq!(w.values[w.layout.square_index(n, 2, 2)], [7, -7]);
        // Nine files fold onto five: a to e; there is no f.
        assert!(Weights::from_toml(&rules, "square.N.f3 = [7, -7]").is_err());
    }
}
