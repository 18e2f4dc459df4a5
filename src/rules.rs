//! Compiled rules: the variant turned into move tables, once, when it loads.
//!
//! Leapers become one target bitboard per square, colour and mode (quiet or capture); riders
//! become ray tables per direction and step limit, walked with a first-blocker lookup; lame and
//! initial-only moves keep an explicit (target, path) list. Reverse tables answer "who attacks
//! this square" without generating moves. Nothing here knows a variant by name.

use crate::betza::{Hop, MoveAtom};
use crate::geometry::{Bitboard, Geometry, Square};
use crate::piece::Colour;
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
    pub rays: SquareBoards,
    /// A copy of the unlimited ray's table, so cutting a ray at its blocker is one lookup in
    /// the same table rather than two.
    pub beyond: SquareBoards,
}

/// One bitboard per square, with room for every value of a [`Square`], so that a lookup by
/// square needs no bounds check (rays are looked up in the innermost loops of move
/// generation and evaluation). Entries past the board stay empty.
pub type SquareBoards = Box<[Bitboard; 256]>;

impl RayTable {
    /// Squares reached from `sq` with occupancy `occ` (the first blocker included).
    #[inline]
    pub fn attacks(&self, sq: Square, occ: Bitboard) -> Bitboard {
        let ray = self.rays[sq as usize];
        let blockers = ray & occ;
        if blockers.is_empty() {
            return ray;
        }
        // Both ends, then a select: the direction alternates from ray to ray, so a branch on
        // it would often be mispredicted.
        let (first, last) = (blockers.lsb(), blockers.msb());
        let b = if self.ascending { first } else { last };
        ray & !self.beyond[b as usize]
    }
    /// First occupied square on the ray from `sq`, if any.
    #[inline]
    pub fn first_blocker(&self, sq: Square, occ: Bitboard) -> Option<Square> {
        let blockers = self.rays[sq as usize] & occ;
        if blockers.is_empty() {
            return None;
        }
        let (first, last) = (blockers.lsb(), blockers.msb());
        Some(if self.ascending { first } else { last })
    }
}

/// A rider move of one piece kind: which ray, and what it may do at the end.
#[derive(Debug, Clone, Copy)]
pub struct RiderMove {
    pub ray: usize,
    pub quiet: bool,
    pub capture: bool,
}

/// `1 << i` for every bit of a board: a lookup is cheaper than a variable 128-bit shift.
static SINGLE_BITS: [u128; 128] = {
    let mut t = [0u128; 128];
    let mut i = 0;
    while i < 128 {
        t[i] = 1 << i;
        i += 1;
    }
    t
};

/// Two rider moves of one piece along one line in opposite directions, with the same step
/// limit and modes (a rook's file, a bishop's diagonal): the squares both reach come from one
/// subtraction instead of two blocker lookups, and move generation and the evaluation look
/// them up in their innermost loops.
#[derive(Debug, Clone, Copy)]
pub struct RiderLine {
    /// The ray along which the square index grows.
    pub up: usize,
    pub down: usize,
    pub quiet: bool,
    pub capture: bool,
}

impl RiderLine {
    /// Squares reached along both rays from `sq` with occupancy `occ`, each ray's first
    /// blocker included: the "obstruction difference". Subtracting the highest blocker below
    /// `sq` (or square 0 when there is none) from the blockers above it sets every bit from
    /// that blocker up to the lowest blocker above; the line's mask keeps those on the line.
    #[inline]
    pub fn attacks(&self, rays: &[RayTable], sq: Square, occ: Bitboard) -> Bitboard {
        let s = sq as usize;
        let (up, down) = (rays[self.up].rays[s].0, rays[self.down].rays[s].0);
        let (above, below) = (up & occ.0, down & occ.0);
        let lowest = SINGLE_BITS[(127 - (below | 1).leading_zeros()) as usize];
        Bitboard((up | down) & (above ^ above.wrapping_sub(lowest)))
    }
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
    /// The same riders again, those that pair up into lines as lines and the rest alone
    /// (what the hot loops walk; `riders` is the plain list the rest of the code reads).
    pub lines: Vec<RiderLine>,
    pub lone_riders: Vec<RiderMove>,
    pub specials: Vec<SpecialMove>,
    /// Per square: every target the special moves could have from there (on an empty
    /// board), so a generator can pass over those that cannot give a target it wants.
    pub special_reach: Vec<Bitboard>,
    /// Hopper moves (cannon, grasshopper).
    pub hoppers: Vec<HopMove>,
    /// Where `i` moves are allowed (the piece's initial rank).
    pub initial_squares: Bitboard,
    pub has_leap_capture: bool,
    /// Every capture of the piece is a plain leap or a rider's: whether one of its moves
    /// gives check can be read from the tables without making it (no hopper, no lame or
    /// initial capture). Asked for every move the search looks at.
    pub captures_by_tables: bool,
}

impl PieceMoves {
    /// Could a special move from `from` reach a square in `wanted`? Special moves are few,
    /// but looking at them costs: a generator asks this first.
    #[inline]
    pub fn specials_may_reach(&self, from: Square, wanted: Bitboard) -> bool {
        !self.specials.is_empty() && (self.special_reach[from as usize] & wanted).any()
    }
}

/// Castling compiled for one side: the destination files.
#[derive(Debug, Clone)]
pub struct CastleSide {
    /// The file the king ends on (from 0).
    pub king_file: u8,
    /// The file the rook ends on (from 0).
    pub rook_file: u8,
    /// How the variant writes this castling (`O-O`, `O-O-O`).
    pub notation: String,
}

/// The compiled rules of one variant: move, ray and attack tables, castling, promotion and
/// adjustment data, and the hash keys. Everything else reads a position against them.
///
/// Only [`Rules::compile`] makes one, from a [`Variant`] that passed its checks:
/// ```
/// use modern_chess::{catalog, Rules};
///
/// let rules = Rules::compile(catalog::load("mrc").unwrap());
/// assert_eq!((rules.geo().files, rules.geo().ranks), (9, 9));
/// assert_eq!(rules.variant().short(), "MRC");
/// assert_eq!(rules.letter(modern_chess::Colour::Black, rules.royal()), 'k');
/// ```
#[derive(Debug, Clone)]
pub struct Rules {
    pub(crate) variant: Variant,
    pub(crate) geo: Geometry,
    pub(crate) all: Bitboard,
    pub(crate) dark: Bitboard,
    pub(crate) n_types: usize,
    pub(crate) rays: Vec<RayTable>,
    /// `moves[colour * n_types + type]`.
    pub(crate) moves: Vec<PieceMoves>,
    /// Per colour: (ray used backwards from the target, bit mask of piece types) for attacks.
    pub(crate) rider_attacks: [Vec<(usize, u32)>; 2],
    /// Per colour: piece types whose special (lame/initial) moves can capture.
    pub(crate) special_attackers: [Vec<usize>; 2],
    /// Per colour: piece types with a capturing hopper move.
    pub(crate) hopper_attackers: [Vec<usize>; 2],
    /// Per colour: piece types with a plain leap capture (the only ones the leap test visits).
    pub(crate) leap_attack_types: [Vec<usize>; 2],
    /// Per colour and square: every square from which some piece of that colour could capture
    /// the square with a plain leap (one test rules out all leapers).
    pub(crate) leap_reach: [Vec<Bitboard>; 2],
    /// Per colour: bit mask of the piece types with a capturing rider move.
    pub(crate) rider_types: [u32; 2],
    /// Per colour and square: every square from which some rider of that colour could capture
    /// the square on an empty board (one test rules out all riders).
    pub(crate) rider_reach: [Vec<Bitboard>; 2],
    pub(crate) royal: usize,
    pub(crate) pawn: Option<usize>,
    /// Per colour, the rank where promotion is compulsory (the zone's last).
    pub(crate) promotion_zone: [Bitboard; 2],
    /// Per colour, the zone's ranks before the last, where promotion is optional.
    pub(crate) promotion_optional: [Bitboard; 2],
    pub(crate) promotion_to: Vec<usize>,
    /// With `only_captured`: per kind, how many a side has at the start (it may promote to a
    /// kind only while it has fewer).
    pub(crate) promotion_limit: Option<Vec<u32>>,
    /// Per colour, campmate squares: a royal piece there wins.
    pub(crate) campmate: [Bitboard; 2],
    /// Some rule ends the game before any move (bare king, campmate, extinction).
    pub(crate) rule_ends: bool,
    /// Castling rank per colour (White's piece rank, mirrored for Black).
    pub(crate) castle_rank: [u8; 2],
    pub(crate) castle_rook: Option<usize>,
    pub(crate) castle_sides: Option<[CastleSide; 2]>,
    pub(crate) adjust_piece: Option<usize>,
    /// Bit mask of piece types a bishop may adjust with.
    pub(crate) adjust_partners: u32,
    /// Piece-rank per colour (for the adjustment field).
    pub(crate) piece_rank: [u8; 2],
    /// Types with an `e` (en passant) capture.
    pub(crate) ep_types: Vec<usize>,
    /// Per piece type: the most moves one such piece can ever have (see [`move_bound`]).
    pub(crate) move_bound: Vec<usize>,
    pub(crate) zobrist: Zobrist,
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
        let piece_rank = [variant.setup.rank, variant.ranks - 1 - variant.setup.rank];
        let pawn = variant.pieces.iter().position(|p| p.pawn);
        let mut rays: Vec<RayTable> = Vec::new();
        let tables = MoveTables::compile(&variant, &geo, &mut rays, piece_rank, pawn);
        let reach = Reach::of(&tables, &rays, n_types, n);
        let promo = Promotion::of(&variant, &geo);
        let move_bound = move_bound(&tables.moves, &rays, n_types, pawn, &promo);
        let campmate = campmate(&variant, &geo);
        let ends = &variant.rules;
        let rule_ends = ends.bare_king != crate::variant::BareKing::Plays
            || !ends.extinction.is_empty()
            || campmate.iter().any(|b| b.any());
        Rules {
            geo,
            all: geo.all(),
            dark: geo.dark_squares(),
            n_types,
            rays,
            moves: tables.moves,
            rider_attacks: tables.rider_attacks,
            special_attackers: tables.special_attackers,
            hopper_attackers: tables.hopper_attackers,
            leap_attack_types: reach.leap_attack_types,
            leap_reach: reach.leap_reach,
            rider_types: reach.rider_types,
            rider_reach: reach.rider_reach,
            royal: variant.royal(),
            pawn,
            promotion_zone: promo.zone,
            promotion_optional: promo.optional,
            promotion_to: promo.to,
            promotion_limit: promo.limit,
            campmate,
            rule_ends,
            castle_rank: piece_rank,
            castle_rook: variant.castling.as_ref().map(|c| c.rook),
            castle_sides: castle_sides(&variant),
            adjust_piece: variant.adjustment.as_ref().map(|a| a.piece),
            adjust_partners: adjust_partners(&variant),
            piece_rank,
            ep_types: (0..n_types)
                .filter(|&t| variant.pieces[t].atoms.iter().any(|a| a.en_passant))
                .collect(),
            move_bound,
            zobrist: Zobrist::new(n, n_types),
            variant,
        }
    }

    /// The checked variant these tables were compiled from.
    pub fn variant(&self) -> &Variant {
        &self.variant
    }

    /// The board's shape (files and ranks), for naming and walking squares.
    pub fn geo(&self) -> Geometry {
        self.geo
    }

    /// How many piece kinds the variant has (kinds are indices `0..n_types()`).
    pub fn n_types(&self) -> usize {
        self.n_types
    }

    /// The royal kind: the piece that may not be left attacked.
    pub fn royal(&self) -> usize {
        self.royal
    }

    /// The pawn kind, if the variant has one (it promotes and double-steps).
    pub fn pawn(&self) -> Option<usize> {
        self.pawn
    }

    /// The kinds a pawn may promote to, in the variant's order.
    pub fn promotion_to(&self) -> &[usize] {
        &self.promotion_to
    }

    /// The kind that castles with the king, if the variant castles.
    pub fn castle_rook(&self) -> Option<usize> {
        self.castle_rook
    }

    /// Castling's destinations for the queen side (`[0]`) and king side (`[1]`), if any.
    pub fn castle_sides(&self) -> Option<&[CastleSide; 2]> {
        self.castle_sides.as_ref()
    }

    /// The kind that may make a Bishop Adjustment, if the variant has that rule.
    pub fn adjust_piece(&self) -> Option<usize> {
        self.adjust_piece
    }

    #[inline]
    pub(crate) fn piece_moves(&self, colour: Colour, t: usize) -> &PieceMoves {
        &self.moves[colour as usize * self.n_types + t]
    }

    #[inline]
    pub(crate) fn piece_key(&self, colour: Colour, t: usize, sq: Square) -> u64 {
        self.zobrist.piece[(colour as usize * self.n_types + t) * self.geo.squares() + sq as usize]
    }

    /// The FEN letter of a piece (upper case White).
    pub fn letter(&self, colour: Colour, t: usize) -> char {
        colour.cased(self.variant.pieces[t].letter)
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
    pub fn castle_targets(&self, colour: Colour, side: usize) -> Option<(Square, Square)> {
        let s = &self.castle_sides.as_ref()?[side];
        let r = self.castle_rank[colour];
        Some((
            self.geo.square(s.king_file, r),
            self.geo.square(s.rook_file, r),
        ))
    }
}

/// Per piece type, the most moves one such piece can ever make: the most targets it has from
/// any square (leaps, rays on an empty board, lame and initial moves, plus en passant) times the
/// promotion choices for a pawn, and for a pawn also the bound of every piece it may become.
/// Summed over a side's pieces (which never grow in number) it bounds every move list.
fn move_bound(
    moves: &[PieceMoves],
    rays: &[RayTable],
    n_types: usize,
    pawn: Option<usize>,
    promo: &Promotion,
) -> Vec<usize> {
    let targets = |pm: &PieceMoves, sq: usize| -> usize {
        let mut b = pm.leap_quiet[sq] | pm.leap_capture[sq];
        for r in &pm.riders {
            b |= rays[r.ray].rays[sq];
        }
        // a hopper lands on its (unlimited) ray, before or beyond the hurdle
        for h in &pm.hoppers {
            b |= rays[h.ray].rays[sq];
        }
        for sp in &pm.specials {
            for &(to, _) in &sp.targets[sq] {
                b.set(to);
            }
        }
        (b.count() + pm.ep_capture[sq].count()) as usize
    };
    let most = |t: usize| -> usize {
        (0..2)
            .map(|c| &moves[c * n_types + t])
            .flat_map(|pm| (0..pm.leap_quiet.len()).map(move |sq| targets(pm, sq)))
            .max()
            .unwrap_or(0)
    };
    let mut bound: Vec<usize> = (0..n_types).map(most).collect();
    if let Some(p) = pawn {
        let promoted = promo.to.iter().map(|&t| bound[t]).max().unwrap_or(0);
        // in an optional zone a pawn move may also stay a pawn: one choice more
        let choices = promo.to.len().max(1) + usize::from(promo.optional.iter().any(|b| b.any()));
        bound[p] = (bound[p] * choices).max(promoted);
    }
    bound
}

/// The index of the ray table with this direction and step limit, built on first use (with
/// the unlimited ray of the same direction, which cuts it at a blocker).
fn ray_index(rays: &mut Vec<RayTable>, geo: &Geometry, df: i8, dr: i8, range: u8) -> usize {
    if let Some(i) = rays
        .iter()
        .position(|r| r.df == df && r.dr == dr && r.range == range)
    {
        return i;
    }
    let full = (range != 0).then(|| ray_index(rays, geo, df, dr, 0));
    let n = geo.squares();
    let mut t: SquareBoards = Box::new([Bitboard::EMPTY; 256]);
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
        t[sq as usize] = b;
    }
    let ascending = (dr as i32) * geo.files as i32 + df as i32 > 0;
    let idx = rays.len();
    let beyond = match full {
        None => t.clone(),
        Some(f) => rays[f].rays.clone(),
    };
    rays.push(RayTable {
        beyond,
        df,
        dr,
        range,
        ascending,
        rays: t,
    });
    idx
}

/// The per-piece tables and the attack lists built with them.
struct MoveTables {
    moves: Vec<PieceMoves>,
    rider_attacks: [Vec<(usize, u32)>; 2],
    special_attackers: [Vec<usize>; 2],
    hopper_attackers: [Vec<usize>; 2],
}

impl MoveTables {
    /// Every piece of both colours, White's first (`moves[colour * n_types + type]`).
    fn compile(
        variant: &Variant,
        geo: &Geometry,
        rays: &mut Vec<RayTable>,
        piece_rank: [u8; 2],
        pawn: Option<usize>,
    ) -> MoveTables {
        let pawn_rank = variant.setup.pawn.map(|(_, r)| [r, variant.ranks - 1 - r]);
        let mut tables = MoveTables {
            moves: Vec::with_capacity(2 * variant.pieces.len()),
            rider_attacks: [Vec::new(), Vec::new()],
            special_attackers: [Vec::new(), Vec::new()],
            hopper_attackers: [Vec::new(), Vec::new()],
        };
        for colour in Colour::ALL {
            for (t, piece) in variant.pieces.iter().enumerate() {
                let init_rank = match pawn_rank {
                    Some(r) if Some(t) == pawn => r[colour],
                    _ => piece_rank[colour],
                };
                let pm = tables.piece(geo, rays, colour, t, &piece.atoms, init_rank);
                tables.moves.push(pm);
            }
        }
        tables
    }

    /// One piece's tables: plain leaps as bitboards, riders as rays, the rest as explicit
    /// (target, path) lists.
    fn piece(
        &mut self,
        geo: &Geometry,
        rays: &mut Vec<RayTable>,
        colour: Colour,
        t: usize,
        atoms: &[MoveAtom],
        init_rank: u8,
    ) -> PieceMoves {
        let n = geo.squares();
        let mut pm = PieceMoves {
            leap_quiet: vec![Bitboard::EMPTY; n],
            leap_capture: vec![Bitboard::EMPTY; n],
            leap_attackers: vec![Bitboard::EMPTY; n],
            ep_capture: vec![Bitboard::EMPTY; n],
            initial_squares: geo.rank_mask(init_rank),
            ..Default::default()
        };
        for a in atoms {
            // Black's moves are White's with the ranks reversed.
            let a = match colour {
                Colour::White => *a,
                Colour::Black => MoveAtom { dr: -a.dr, ..*a },
            };
            if a.hop != Hop::None {
                self.add_hopper(&mut pm, geo, rays, colour, t, &a);
            } else if a.range == 1 && !a.initial && !(a.lame && needs_path(a.df, a.dr)) {
                add_leap(&mut pm, geo, &a);
            } else if a.range != 1 && !a.initial {
                self.add_rider(&mut pm, geo, rays, colour, t, &a);
            } else {
                pm.specials.push(special_move(geo, &a));
                if a.capture && !self.special_attackers[colour].contains(&t) {
                    self.special_attackers[colour].push(t);
                }
            }
        }
        pm.special_reach = special_reach(&pm, n);
        (pm.lines, pm.lone_riders) = pair_riders(&pm.riders, rays);
        pm.captures_by_tables = pm.hoppers.is_empty() && !pm.specials.iter().any(|sp| sp.capture);
        pm
    }

    /// A hopper move (cannon, grasshopper) along its unlimited ray.
    fn add_hopper(
        &mut self,
        pm: &mut PieceMoves,
        geo: &Geometry,
        rays: &mut Vec<RayTable>,
        colour: Colour,
        t: usize,
        a: &MoveAtom,
    ) {
        pm.hoppers.push(HopMove {
            ray: ray_index(rays, geo, a.df, a.dr, 0),
            grasshopper: a.hop == Hop::Grasshopper,
            quiet: a.quiet,
            capture: a.capture,
        });
        if a.capture && !self.hopper_attackers[colour].contains(&t) {
            self.hopper_attackers[colour].push(t);
        }
    }

    /// A rider move, and its reverse ray in the attack list when it captures.
    fn add_rider(
        &mut self,
        pm: &mut PieceMoves,
        geo: &Geometry,
        rays: &mut Vec<RayTable>,
        colour: Colour,
        t: usize,
        a: &MoveAtom,
    ) {
        let ray = ray_index(rays, geo, a.df, a.dr, a.range);
        pm.riders.push(RiderMove {
            ray,
            quiet: a.quiet,
            capture: a.capture,
        });
        if a.capture {
            let back = ray_index(rays, geo, -a.df, -a.dr, a.range);
            let attacks = &mut self.rider_attacks[colour];
            match attacks.iter_mut().find(|(r, _)| *r == back) {
                Some((_, mask)) => *mask |= 1 << t,
                None => attacks.push((back, 1 << t)),
            }
        }
    }
}

/// Splits a piece's riders into lines (opposite directions, the same step limit and modes)
/// and the riders left alone.
fn pair_riders(riders: &[RiderMove], rays: &[RayTable]) -> (Vec<RiderLine>, Vec<RiderMove>) {
    let mut lines = Vec::new();
    let mut alone: Vec<RiderMove> = Vec::new();
    for &r in riders {
        let ray = &rays[r.ray];
        let partner = alone.iter().position(|o| {
            let other = &rays[o.ray];
            (other.df, other.dr) == (-ray.df, -ray.dr)
                && other.range == ray.range
                && (o.quiet, o.capture) == (r.quiet, r.capture)
        });
        match partner {
            Some(i) => {
                let o = alone.remove(i);
                let (up, down) = if ray.ascending {
                    (r.ray, o.ray)
                } else {
                    (o.ray, r.ray)
                };
                lines.push(RiderLine {
                    up,
                    down,
                    quiet: r.quiet,
                    capture: r.capture,
                });
            }
            None => alone.push(r),
        }
    }
    (lines, alone)
}

/// A plain leap: one target bit per square and mode.
fn add_leap(pm: &mut PieceMoves, geo: &Geometry, a: &MoveAtom) {
    for sq in 0..geo.squares() as Square {
        let Some(to) = geo.offset(sq, a.df as i32, a.dr as i32) else {
            continue;
        };
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

/// A lame leaper, initial-only leaper or rider: explicit targets and paths per square.
fn special_move(geo: &Geometry, a: &MoveAtom) -> SpecialMove {
    let mut targets = vec![Vec::new(); geo.squares()];
    for sq in 0..geo.squares() as Square {
        if a.range == 1 {
            if let Some(to) = geo.offset(sq, a.df as i32, a.dr as i32) {
                let path = if a.lame {
                    lame_path(geo, sq, a.df, a.dr)
                } else {
                    Bitboard::EMPTY
                };
                targets[sq as usize].push((to, path));
            }
            continue;
        }
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
    SpecialMove {
        quiet: a.quiet,
        capture: a.capture,
        initial: a.initial,
        targets,
    }
}

/// The "could anything of this colour attack here at all" tables that let the attack test
/// skip whole groups of pieces.
struct Reach {
    leap_attack_types: [Vec<usize>; 2],
    leap_reach: [Vec<Bitboard>; 2],
    rider_types: [u32; 2],
    rider_reach: [Vec<Bitboard>; 2],
}

impl Reach {
    fn of(tables: &MoveTables, rays: &[RayTable], n_types: usize, n: usize) -> Reach {
        let mut r = Reach {
            leap_attack_types: [Vec::new(), Vec::new()],
            leap_reach: [vec![Bitboard::EMPTY; n], vec![Bitboard::EMPTY; n]],
            rider_types: [0; 2],
            rider_reach: [vec![Bitboard::EMPTY; n], vec![Bitboard::EMPTY; n]],
        };
        for c in 0..2 {
            for t in 0..n_types {
                let pm = &tables.moves[c * n_types + t];
                if pm.has_leap_capture {
                    r.leap_attack_types[c].push(t);
                    for sq in 0..n {
                        r.leap_reach[c][sq] |= pm.leap_attackers[sq];
                    }
                }
            }
            for &(ray, mask) in &tables.rider_attacks[c] {
                r.rider_types[c] |= mask;
                for sq in 0..n {
                    r.rider_reach[c][sq] |= rays[ray].rays[sq];
                }
            }
        }
        r
    }
}

/// Per square, the targets of `pm`'s special moves from there (initial ones only from its
/// initial squares).
fn special_reach(pm: &PieceMoves, n: usize) -> Vec<Bitboard> {
    (0..n)
        .map(|sq| {
            let mut reach = Bitboard::EMPTY;
            for sp in &pm.specials {
                if !sp.initial || pm.initial_squares.has(sq as Square) {
                    for &(to, _) in &sp.targets[sq] {
                        reach.set(to);
                    }
                }
            }
            reach
        })
        .collect()
}

/// Where and into what pawns promote.
struct Promotion {
    /// Per colour, the rank where promotion is compulsory (the zone's last).
    zone: [Bitboard; 2],
    /// Per colour, the zone's ranks before the last, where promotion is optional.
    optional: [Bitboard; 2],
    to: Vec<usize>,
    /// With `only_captured`: per kind, how many a side has at the start.
    limit: Option<Vec<u32>>,
}

impl Promotion {
    fn of(variant: &Variant, geo: &Geometry) -> Promotion {
        let mut promo = Promotion {
            zone: [Bitboard::EMPTY; 2],
            optional: [Bitboard::EMPTY; 2],
            to: Vec::new(),
            limit: None,
        };
        let Some(p) = &variant.promotion else {
            return promo;
        };
        let mirror = |r: u8| variant.ranks - 1 - r;
        promo.zone = [geo.rank_mask(p.zone.1), geo.rank_mask(mirror(p.zone.1))];
        for r in p.zone.0..p.zone.1 {
            promo.optional[0] |= geo.rank_mask(r);
            promo.optional[1] |= geo.rank_mask(mirror(r));
        }
        promo.to = p.to.clone();
        if p.only_captured {
            let kinds = variant.pieces.len();
            promo.limit = Some((0..kinds).map(|t| start_count(variant, t)).collect());
        }
        promo
    }
}

/// Per colour, campmate squares: a royal piece there wins.
fn campmate(variant: &Variant, geo: &Geometry) -> [Bitboard; 2] {
    let mut camp = [Bitboard::EMPTY; 2];
    for (c, region) in variant.rules.campmate.iter().enumerate() {
        for &(f, r) in region {
            camp[c].set(geo.square(f, r));
        }
    }
    camp
}

fn castle_sides(variant: &Variant) -> Option<[CastleSide; 2]> {
    variant.castling.as_ref().map(|c| {
        let s = |i: usize| CastleSide {
            king_file: c.sides[i].king_file,
            rook_file: c.sides[i].rook_file,
            notation: c.sides[i].notation.clone(),
        };
        [s(0), s(1)]
    })
}

/// Bit mask of the piece types a bishop may adjust with.
fn adjust_partners(variant: &Variant) -> u32 {
    variant
        .adjustment
        .as_ref()
        .map(|a| a.partners.iter().fold(0u32, |m, &p| m | 1 << p))
        .unwrap_or(0)
}

impl Zobrist {
    /// Keys from a fixed seed (depending only on the board size and piece count), so hashes
    /// are the same in every run.
    fn new(n: usize, n_types: usize) -> Zobrist {
        let mut rng = SplitMix(0x5EED_CAFE_F00D_D00D ^ (n as u64) << 8 ^ n_types as u64);
        let mut keys = |k: usize| (0..k).map(|_| rng.next()).collect::<Vec<u64>>();
        Zobrist {
            piece: keys(2 * n_types * n),
            side: keys(1)[0],
            castle: [keys(n), keys(n)],
            ep: keys(n),
            adjust: [keys(n), keys(n)],
        }
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog;
    use crate::variant::{NoResolver, Variant};

    /// Nightriders, step-limited riders and one-way riders, which no built-in variant has.
    const EXOTIC: &str = r#"
name = "Exotic riders"
short = "exotic"
[board]
files = 10
ranks = 10
[pieces]
K = { name = "King", betza = "K", royal = true }
N = { name = "Nightrider", betza = "NN" }
S = { name = "Short rook", betza = "R2F" }
D = { name = "Dabbaba rider", betza = "DDW" }
L = { name = "Lance", betza = "fRbmR" }
P = { name = "Pawn", betza = "fmWfceFifmnD", pawn = true }
[setup]
army = "SNDLKLDNSS"
random = true
symmetry = "mirror"
bishops = "any"
[promotion]
rank = 10
to = "S"
"#;

    /// Every built-in variant's riders and the exotic ones: the lines and lone riders are the
    /// riders again, modes included, and a line reaches what its two rays reach, on every
    /// square of random occupancies.
    #[test]
    fn rider_lines_reach_what_their_two_rays_reach() {
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut random = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            Bitboard(seed as u128 | ((seed.rotate_left(29) as u128) << 64))
        };
        let exotic = Variant::from_text("exotic.toml", EXOTIC, &NoResolver).unwrap();
        let mut all: Vec<(String, Rules)> = catalog::BUILTIN
            .iter()
            .map(|(name, _)| (name.to_string(), catalog::load_rules(name).unwrap()))
            .collect();
        all.push(("exotic".into(), Rules::compile(exotic)));
        let mut lines_seen = 0;
        for (name, rules) in &all {
            for pm in &rules.moves {
                let modes = |r: &RiderMove| (r.ray, r.quiet, r.capture);
                let mut rays: Vec<_> = pm.riders.iter().map(modes).collect();
                let mut split: Vec<_> = pm.lone_riders.iter().map(modes).collect();
                split.extend(
                    pm.lines
                        .iter()
                        .flat_map(|l| [(l.up, l.quiet, l.capture), (l.down, l.quiet, l.capture)]),
                );
                rays.sort_unstable();
                split.sort_unstable();
                assert_eq!(rays, split, "{name}");
                for l in &pm.lines {
                    lines_seen += 1;
                    let (up, down) = (&rules.rays[l.up], &rules.rays[l.down]);
                    assert!(up.ascending && !down.ascending, "{name}");
                    assert_eq!((up.df, up.dr, up.range), (-down.df, -down.dr, down.range));
                    for _ in 0..100 {
                        let occ = random() & rules.all;
                        for occ in [occ, occ & random(), occ & random() & random()] {
                            for sq in 0..rules.geo.squares() as Square {
                                let want = up.attacks(sq, occ) | down.attacks(sq, occ);
                                assert_eq!(l.attacks(&rules.rays, sq, occ), want, "{name}");
                            }
                        }
                    }
                }
            }
        }
        assert!(lines_seen > 100, "{lines_seen}");
    }
}
