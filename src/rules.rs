//! Compiled rules: the variant turned into move tables, once, when it loads.
//!
//! Leapers become one target bitboard per square, colour and mode (quiet or capture); riders
//! become ray tables per direction and step limit, walked with a first-blocker lookup; lame and
//! initial-only moves keep an explicit (target, path) list. Reverse tables answer "who attacks
//! this square" without generating moves. Nothing here knows a variant by name.

use crate::betza::{Hop, MoveAtom};
use crate::geometry::{Bitboard, Geometry, Square, NO_SQUARE};
use crate::variant::Variant;

/// Piece kinds a variant may define (the position keeps one bitboard each).
pub use crate::variant::MAX_PIECE_TYPES;

/// A ray of one direction and step limit from every square.
#[derive(Debug, Clone)]
pub struct RayTable {
    pub df: i8,
    pub dr: i8,
    pub range: u8,
    /// True when the square index grows along the ray (first blocker is the lowest bit).
    pub ascending: bool,
    pub rays: Vec<Bitboard>,
    /// The unlimited ray of the same direction (index into `Rules::rays`).
    pub full: usize,
    /// A copy of the unlimited ray's table, so cutting a ray at its blocker is one lookup in
    /// the same table rather than two.
    pub beyond: Vec<Bitboard>,
}

impl RayTable {
    /// Squares reached from `sq` with occupancy `occ` (the first blocker included).
    #[inline]
    pub fn attacks(&self, rules: &Rules, sq: Square, occ: Bitboard) -> Bitboard {
        let ray = self.rays[sq as usize];
        let blockers = ray & occ;
        if blockers.is_empty() {
            return ray;
        }
        let b = if self.ascending {
            blockers.lsb()
        } else {
            blockers.msb()
        };
        let _ = rules;
        ray & !self.beyond[b as usize]
    }
    /// First occupied square on the ray from `sq`, if any.
    #[inline]
    pub fn first_blocker(&self, sq: Square, occ: Bitboard) -> Option<Square> {
        let blockers = self.rays[sq as usize] & occ;
        if blockers.is_empty() {
            None
        } else if self.ascending {
            Some(blockers.lsb())
        } else {
            Some(blockers.msb())
        }
    }
}

/// A rider move of one piece kind: which ray, and what it may do at the end.
#[derive(Debug, Clone, Copy)]
pub struct RiderMove {
    pub ray: usize,
    pub quiet: bool,
    pub capture: bool,
}

/// A move that needs more than a table lookup: lame (path must be empty), initial-only, or a
/// rider that may only be used initially. Targets are flattened per square.
#[derive(Debug, Clone)]
pub struct SpecialMove {
    pub quiet: bool,
    pub capture: bool,
    pub initial: bool,
    /// `targets[sq]`: (target, squares that must be empty).
    pub targets: Vec<Vec<(Square, Bitboard)>>,
}

/// A hopper move (Betza `p` or `g`) of one piece kind: the unlimited ray it travels.
#[derive(Debug, Clone, Copy)]
pub struct HopMove {
    pub ray: usize,
    /// Lands just beyond the hurdle (`g`); otherwise goes on as a rider beyond it (`p`).
    pub grasshopper: bool,
    pub quiet: bool,
    pub capture: bool,
}

/// Everything compiled for one piece kind and colour.
#[derive(Debug, Clone, Default)]
pub struct PieceMoves {
    pub leap_quiet: Vec<Bitboard>,
    pub leap_capture: Vec<Bitboard>,
    /// Squares from which this piece captures the given square with a plain leap.
    pub leap_attackers: Vec<Bitboard>,
    /// En passant capture targets (by plain leaps).
    pub ep_capture: Vec<Bitboard>,
    pub riders: Vec<RiderMove>,
    pub specials: Vec<SpecialMove>,
    /// Hopper moves (cannon, grasshopper).
    pub hoppers: Vec<HopMove>,
    /// Where `i` moves are allowed (the piece's initial rank).
    pub initial_squares: Bitboard,
    pub has_leap_capture: bool,
}

/// Castling compiled for one side: the destination files.
#[derive(Debug, Clone)]
pub struct CastleSide {
    pub king_file: u8,
    pub rook_file: u8,
    pub notation: String,
}

/// The compiled rules of one variant.
#[derive(Debug, Clone)]
pub struct Rules {
    pub variant: Variant,
    pub geo: Geometry,
    pub all: Bitboard,
    pub dark: Bitboard,
    pub n_types: usize,
    pub rays: Vec<RayTable>,
    /// `moves[colour * n_types + type]`.
    pub moves: Vec<PieceMoves>,
    /// Per colour: (ray used backwards from the target, bit mask of piece types) for attacks.
    pub rider_attacks: [Vec<(usize, u32)>; 2],
    /// Per colour: piece types whose special (lame/initial) moves can capture.
    pub special_attackers: [Vec<usize>; 2],
    /// Per colour: piece types with a capturing hopper move.
    pub hopper_attackers: [Vec<usize>; 2],
    /// Per colour: piece types with a plain leap capture (the only ones the leap test visits).
    pub leap_attack_types: [Vec<usize>; 2],
    /// Per colour and square: every square from which some piece of that colour could capture
    /// the square with a plain leap (one test rules out all leapers).
    pub leap_reach: [Vec<Bitboard>; 2],
    /// Per colour: bit mask of the piece types with a capturing rider move.
    pub rider_types: [u32; 2],
    /// Per colour and square: every square from which some rider of that colour could capture
    /// the square on an empty board (one test rules out all riders).
    pub rider_reach: [Vec<Bitboard>; 2],
    pub royal: usize,
    pub pawn: Option<usize>,
    /// Per colour, the rank where promotion is compulsory (the zone's last).
    pub promotion_zone: [Bitboard; 2],
    /// Per colour, the zone's ranks before the last, where promotion is optional.
    pub promotion_optional: [Bitboard; 2],
    pub promotion_to: Vec<usize>,
    /// With `only_captured`: per kind, how many a side has at the start (it may promote to a
    /// kind only while it has fewer).
    pub promotion_limit: Option<Vec<u32>>,
    /// Per colour, campmate squares: a royal piece there wins.
    pub campmate: [Bitboard; 2],
    /// Some rule ends the game before any move (bare king, campmate, extinction).
    pub rule_ends: bool,
    /// Castling rank per colour (White's piece rank, mirrored for Black).
    pub castle_rank: [u8; 2],
    pub castle_rook: Option<usize>,
    pub castle_sides: Option<[CastleSide; 2]>,
    pub adjust_piece: Option<usize>,
    /// Bit mask of piece types a bishop may adjust with.
    pub adjust_partners: u32,
    /// Piece-rank per colour (for the adjustment field).
    pub piece_rank: [u8; 2],
    /// Types with an `e` (en passant) capture.
    pub ep_types: Vec<usize>,
    pub zobrist: Zobrist,
}

/// Random keys for the position hash.
#[derive(Debug, Clone)]
pub struct Zobrist {
    pub piece: Vec<u64>,
    pub side: u64,
    pub castle: [Vec<u64>; 2],
    pub ep: Vec<u64>,
    pub adjust: [Vec<u64>; 2],
}

struct SplitMix(u64);
impl SplitMix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
}

impl Rules {
    /// Compiles a validated variant.
    pub fn compile(variant: Variant) -> Rules {
        let geo = Geometry::new(variant.files, variant.ranks);
        let n = geo.squares();
        let n_types = variant.pieces.len();
        let mut rays: Vec<RayTable> = Vec::new();

        fn ray_index(rays: &mut Vec<RayTable>, geo: &Geometry, df: i8, dr: i8, range: u8) -> usize {
            if let Some(i) = rays
                .iter()
                .position(|r| r.df == df && r.dr == dr && r.range == range)
            {
                return i;
            }
            let full = if range == 0 {
                usize::MAX
            } else {
                ray_index(rays, geo, df, dr, 0)
            };
            let n = geo.squares();
            let mut t = Vec::with_capacity(n);
            for sq in 0..n as Square {
                let mut b = Bitboard::EMPTY;
                let mut cur = sq;
                let mut steps = 0;
                while let Some(next) = geo.offset(cur, df as i32, dr as i32) {
                    b.set(next);
                    cur = next;
                    steps += 1;
                    if range != 0 && steps >= range {
                        break;
                    }
                }
                t.push(b);
            }
            let ascending = (dr as i32) * geo.files as i32 + df as i32 > 0;
            let idx = rays.len();
            let beyond = if full == usize::MAX {
                t.clone()
            } else {
                rays[full].rays.clone()
            };
            rays.push(RayTable {
                beyond,
                df,
                dr,
                range,
                ascending,
                rays: t,
                full: if full == usize::MAX { idx } else { full },
            });
            idx
        }

        let piece_rank = [variant.setup.rank, variant.ranks - 1 - variant.setup.rank];
        let pawn = variant.pieces.iter().position(|p| p.pawn);
        let pawn_rank = variant.setup.pawn.map(|(_, r)| [r, variant.ranks - 1 - r]);

        let mut moves = Vec::with_capacity(2 * n_types);
        let mut rider_attacks: [Vec<(usize, u32)>; 2] = [Vec::new(), Vec::new()];
        let mut special_attackers: [Vec<usize>; 2] = [Vec::new(), Vec::new()];
        let mut hopper_attackers: [Vec<usize>; 2] = [Vec::new(), Vec::new()];
        for colour in 0..2usize {
            for (t, piece) in variant.pieces.iter().enumerate() {
                let mut pm = PieceMoves {
                    leap_quiet: vec![Bitboard::EMPTY; n],
                    leap_capture: vec![Bitboard::EMPTY; n],
                    leap_attackers: vec![Bitboard::EMPTY; n],
                    ep_capture: vec![Bitboard::EMPTY; n],
                    ..Default::default()
                };
                let init_rank = if Some(t) == pawn {
                    pawn_rank.map(|r| r[colour]).unwrap_or(piece_rank[colour])
                } else {
                    piece_rank[colour]
                };
                pm.initial_squares = geo.rank_mask(init_rank);
                for a in &piece.atoms {
                    let a: MoveAtom = if colour == 0 {
                        *a
                    } else {
                        MoveAtom { dr: -a.dr, ..*a }
                    };
                    let straight = a.df == 0 || a.dr == 0 || a.df.abs() == a.dr.abs();
                    if a.hop != Hop::None {
                        pm.hoppers.push(HopMove {
                            ray: ray_index(&mut rays, &geo, a.df, a.dr, 0),
                            grasshopper: a.hop == Hop::Grasshopper,
                            quiet: a.quiet,
                            capture: a.capture,
                        });
                        if a.capture && !hopper_attackers[colour].contains(&t) {
                            hopper_attackers[colour].push(t);
                        }
                    } else if a.range == 1 && !a.initial && !(a.lame && needs_path(a.df, a.dr)) {
                        for sq in 0..n as Square {
                            if let Some(to) = geo.offset(sq, a.df as i32, a.dr as i32) {
                                if a.quiet {
                                    pm.leap_quiet[sq as usize].set(to);
                                }
                                if a.capture {
                                    pm.leap_capture[sq as usize].set(to);
                                    pm.leap_attackers[to as usize].set(sq);
                                    pm.has_leap_capture = true;
                                }
                                if a.en_passant {
                                    pm.ep_capture[sq as usize].set(to);
                                }
                            }
                        }
                    } else if a.range != 1 && !a.initial {
                        let ray = ray_index(&mut rays, &geo, a.df, a.dr, a.range);
                        pm.riders.push(RiderMove {
                            ray,
                            quiet: a.quiet,
                            capture: a.capture,
                        });
                        if a.capture {
                            let back = ray_index(&mut rays, &geo, -a.df, -a.dr, a.range);
                            match rider_attacks[colour].iter_mut().find(|(r, _)| *r == back) {
                                Some((_, mask)) => *mask |= 1 << t,
                                None => rider_attacks[colour].push((back, 1 << t)),
                            }
                        }
                    } else {
                        // lame leaper, initial-only leaper or rider: explicit targets and paths
                        let mut targets = vec![Vec::new(); n];
                        for sq in 0..n as Square {
                            if a.range == 1 {
                                if let Some(to) = geo.offset(sq, a.df as i32, a.dr as i32) {
                                    let path = if a.lame {
                                        lame_path(&geo, sq, a.df, a.dr)
                                    } else {
                                        Bitboard::EMPTY
                                    };
                                    targets[sq as usize].push((to, path));
                                }
                            } else {
                                let mut cur = sq;
                                let mut path = Bitboard::EMPTY;
                                let mut steps = 0;
                                while let Some(next) = geo.offset(cur, a.df as i32, a.dr as i32) {
                                    targets[sq as usize].push((next, path));
                                    path.set(next);
                                    cur = next;
                                    steps += 1;
                                    if a.range != 0 && steps >= a.range {
                                        break;
                                    }
                                }
                            }
                        }
                        let _ = straight;
                        pm.specials.push(SpecialMove {
                            quiet: a.quiet,
                            capture: a.capture,
                            initial: a.initial,
                            targets,
                        });
                        if a.capture && !special_attackers[colour].contains(&t) {
                            special_attackers[colour].push(t);
                        }
                    }
                }
                moves.push(pm);
            }
        }

        let mut leap_attack_types: [Vec<usize>; 2] = [Vec::new(), Vec::new()];
        let mut leap_reach = [vec![Bitboard::EMPTY; n], vec![Bitboard::EMPTY; n]];
        let mut rider_types = [0u32; 2];
        let mut rider_reach = [vec![Bitboard::EMPTY; n], vec![Bitboard::EMPTY; n]];
        for c in 0..2 {
            for t in 0..n_types {
                let pm = &moves[c * n_types + t];
                if pm.has_leap_capture {
                    leap_attack_types[c].push(t);
                    for sq in 0..n {
                        leap_reach[c][sq] |= pm.leap_attackers[sq];
                    }
                }
            }
            for &(ray, mask) in &rider_attacks[c] {
                rider_types[c] |= mask;
                for sq in 0..n {
                    rider_reach[c][sq] |= rays[ray].rays[sq];
                }
            }
        }

        let mut promotion_zone = [Bitboard::EMPTY; 2];
        let mut promotion_optional = [Bitboard::EMPTY; 2];
        let mut promotion_to = Vec::new();
        let mut promotion_limit = None;
        if let Some(p) = &variant.promotion {
            let mirror = |r: u8| variant.ranks - 1 - r;
            promotion_zone = [geo.rank_mask(p.zone.1), geo.rank_mask(mirror(p.zone.1))];
            for r in p.zone.0..p.zone.1 {
                promotion_optional[0] |= geo.rank_mask(r);
                promotion_optional[1] |= geo.rank_mask(mirror(r));
            }
            promotion_to = p.to.clone();
            if p.only_captured {
                promotion_limit = Some((0..n_types).map(|t| start_count(&variant, t)).collect());
            }
        }
        let mut campmate = [Bitboard::EMPTY; 2];
        for (c, region) in variant.rules.campmate.iter().enumerate() {
            for &(f, r) in region {
                campmate[c].set(geo.square(f, r));
            }
        }
        let ends = &variant.rules;
        let rule_ends = ends.bare_king != crate::variant::BareKing::Plays
            || !ends.extinction.is_empty()
            || campmate.iter().any(|b| b.any());
        let castle_sides = variant.castling.as_ref().map(|c| {
            let s = |i: usize| CastleSide {
                king_file: c.sides[i].king_file,
                rook_file: c.sides[i].rook_file,
                notation: c.sides[i].notation.clone(),
            };
            [s(0), s(1)]
        });
        let castle_rook = variant.castling.as_ref().map(|c| c.rook);
        let adjust_piece = variant.adjustment.as_ref().map(|a| a.piece);
        let adjust_partners = variant
            .adjustment
            .as_ref()
            .map(|a| a.partners.iter().fold(0u32, |m, &p| m | 1 << p))
            .unwrap_or(0);
        let ep_types = (0..n_types)
            .filter(|&t| variant.pieces[t].atoms.iter().any(|a| a.en_passant))
            .collect();

        let mut rng = SplitMix(0x5EED_CAFE_F00D_D00D ^ (n as u64) << 8 ^ n_types as u64);
        let mut keys = |k: usize| (0..k).map(|_| rng.next()).collect::<Vec<u64>>();
        let zobrist = Zobrist {
            piece: keys(2 * n_types * n),
            side: keys(1)[0],
            castle: [keys(n), keys(n)],
            ep: keys(n),
            adjust: [keys(n), keys(n)],
        };

        Rules {
            geo,
            all: geo.all(),
            dark: geo.dark_squares(),
            n_types,
            rays,
            moves,
            rider_attacks,
            special_attackers,
            hopper_attackers,
            leap_attack_types,
            leap_reach,
            rider_types,
            rider_reach,
            royal: variant.royal(),
            pawn,
            promotion_zone,
            promotion_optional,
            promotion_to,
            promotion_limit,
            campmate,
            rule_ends,
            castle_rank: piece_rank,
            castle_rook,
            castle_sides,
            adjust_piece,
            adjust_partners,
            piece_rank,
            ep_types,
            zobrist,
            variant,
        }
    }

    #[inline]
    pub fn piece_moves(&self, colour: usize, t: usize) -> &PieceMoves {
        &self.moves[colour * self.n_types + t]
    }

    #[inline]
    pub fn piece_key(&self, colour: usize, t: usize, sq: Square) -> u64 {
        self.zobrist.piece[(colour * self.n_types + t) * self.geo.squares() + sq as usize]
    }

    pub fn letter(&self, t: usize, colour: usize) -> char {
        let c = self.variant.pieces[t].letter;
        if colour == 0 {
            c
        } else {
            c.to_ascii_lowercase()
        }
    }

    /// Bytes used by the compiled tables (approximate, for the bench's memory report).
    pub fn table_bytes(&self) -> usize {
        let bb = std::mem::size_of::<Bitboard>();
        let rays: usize = self.rays.iter().map(|r| 2 * r.rays.len() * bb).sum();
        let moves: usize = self
            .moves
            .iter()
            .map(|m| {
                4 * m.leap_quiet.len() * bb
                    + m.specials
                        .iter()
                        .map(|s| s.targets.iter().map(|t| t.len() * (1 + bb)).sum::<usize>())
                        .sum::<usize>()
            })
            .sum();
        let reach = 4 * self.geo.squares() * bb;
        rays + moves + reach + 8 * self.zobrist.piece.len() + 8 * 5 * self.geo.squares()
    }

    /// Square where a castling side puts the king and rook for `colour`.
    pub fn castle_targets(&self, colour: usize, side: usize) -> Option<(Square, Square)> {
        let s = &self.castle_sides.as_ref()?[side];
        let r = self.castle_rank[colour];
        Some((
            self.geo.square(s.king_file, r),
            self.geo.square(s.rook_file, r),
        ))
    }

    #[inline]
    pub fn no_square() -> Square {
        NO_SQUARE
    }
}

/// How many pieces of kind `t` White has in the start position (army, fixed placement, pawns).
fn start_count(v: &Variant, t: usize) -> u32 {
    let s = &v.setup;
    let army = s.army.iter().filter(|&&x| x == t).count();
    let placed = s
        .placement
        .iter()
        .filter(|p| p.white && p.piece == t)
        .count();
    let pawns = match s.pawn {
        Some((p, _)) if p == t && s.placement.is_empty() => (s.files.1 - s.files.0 + 1) as usize,
        _ => 0,
    };
    (army + placed + pawns) as u32
}

/// A lame leap needs a path only when it is longer than one step.
fn needs_path(df: i8, dr: i8) -> bool {
    df.abs() > 1 || dr.abs() > 1
}

/// The squares a lame leap passes over: along the line for straight leaps; for oblique ones
/// the orthogonal first step (as the Xiangqi horse).
fn lame_path(geo: &Geometry, sq: Square, df: i8, dr: i8) -> Bitboard {
    let mut b = Bitboard::EMPTY;
    let (adf, adr) = (df.abs(), dr.abs());
    if df == 0 || dr == 0 || adf == adr {
        let steps = adf.max(adr);
        let (sf, sr) = (df.signum(), dr.signum());
        for k in 1..steps {
            if let Some(s) = geo.offset(sq, (sf * k) as i32, (sr * k) as i32) {
                b.set(s);
            }
        }
    } else {
        let first = if adf > adr {
            (df.signum(), 0)
        } else {
            (0, dr.signum())
        };
        if let Some(s) = geo.offset(sq, first.0 as i32, first.1 as i32) {
            b.set(s);
        }
    }
    b
}
