//! A small neural network that corrects the hand-written evaluation: its output, in
//! centipawns, is added to the sum of the weighted terms.
//!
//! Why a network: fits of the linear terms to Fairy-Stockfish's evaluation stopped at about
//! a third of its judgement, because much of it is made of interactions (a king's shelter
//! with the pieces aimed at it, pawn chains with the pieces behind them) that a sum of
//! per-term weights cannot express. A hidden layer over "piece of this kind on this square"
//! inputs can. The network learns the *difference* between another engine's evaluation and
//! ours (`modern-chess tune-net`), so it starts from what the terms already know.
//!
//! Shape: one input per (own or enemy, piece kind, square), seen from each side's point of
//! view (Black's board flipped rank-wise), a hidden layer of `hidden` clipped-ReLU units per
//! side sharing its weights, and one output over both halves, the side to move's first. It
//! depends only on the board's shape and piece count, never on a variant's name.
//!
//! File format (little-endian): the magic `MCNET01\n`, then `u16` kinds, files, ranks and
//! hidden size, `f32` scales of the input and output layers, the input weights
//! (`[feature][hidden]`) and hidden biases as `i16` times the input scale, the output
//! weights as `i16` times the output scale, and the output bias as `f32`.

use crate::geometry::Square;
use crate::piece::Colour;
use crate::position::Position;
use crate::rules::Rules;
use std::fmt;

/// The file's first eight bytes.
const MAGIC: &[u8; 8] = b"MCNET01\n";
/// Largest hidden layer a file may ask for.
pub const MAX_HIDDEN: usize = 256;
/// The output is in units of this many centipawns.
pub const OUTPUT_CP: f32 = 100.0;

/// Why a network file cannot be used.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NetworkError {
    /// Not a network file, or cut short, or with sizes out of range.
    Format(String),
    /// A network made for another board or piece set.
    Mismatch {
        /// What the file says: kinds, files, ranks.
        file: (usize, u8, u8),
        /// What the variant has.
        variant: (usize, u8, u8),
    },
    /// The file could not be read.
    Io(String),
}

impl fmt::Display for NetworkError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NetworkError::Format(s) => write!(f, "not a usable network file: {s}"),
            NetworkError::Mismatch { file, variant } => write!(
                f,
                "network made for {} piece kinds on {}x{}, the variant has {} on {}x{}",
                file.0, file.1, file.2, variant.0, variant.1, variant.2
            ),
            NetworkError::Io(s) => write!(f, "{s}"),
        }
    }
}

impl std::error::Error for NetworkError {}

/// The network, with its weights as `f32` for evaluation and training alike.
#[derive(Clone, Debug, PartialEq)]
pub struct Network {
    pub(crate) kinds: usize,
    pub(crate) files: u8,
    pub(crate) ranks: u8,
    pub(crate) hidden: usize,
    /// `[feature * hidden + unit]`.
    pub(crate) w1: Vec<f32>,
    pub(crate) b1: Vec<f32>,
    /// `[unit]` for the side to move, then `[hidden + unit]` for the other side.
    pub(crate) w2: Vec<f32>,
    pub(crate) b2: f32,
}

impl Network {
    /// A network for `rules`' board and pieces with `hidden` units per side, all weights
    /// from `init` (called once per weight, input layer first).
    pub fn new(rules: &Rules, hidden: usize, init: &mut dyn FnMut() -> f32) -> Network {
        let kinds = rules.n_types;
        let features = 2 * kinds * rules.geo.squares();
        let hidden = hidden.clamp(1, MAX_HIDDEN);
        Network {
            kinds,
            files: rules.geo.files,
            ranks: rules.geo.ranks,
            hidden,
            w1: (0..features * hidden).map(|_| init()).collect(),
            b1: vec![0.5; hidden],
            w2: (0..2 * hidden).map(|_| init() * 0.1).collect(),
            b2: 0.0,
        }
    }

    /// Number of inputs per side.
    pub fn features(&self) -> usize {
        2 * self.kinds * self.files as usize * self.ranks as usize
    }

    /// Hidden units per side.
    pub fn hidden(&self) -> usize {
        self.hidden
    }

    /// Does the network fit `rules`' board and pieces?
    pub fn check_fits(&self, rules: &Rules) -> Result<(), NetworkError> {
        let variant = (rules.n_types, rules.geo.files, rules.geo.ranks);
        let file = (self.kinds, self.files, self.ranks);
        if file == variant {
            Ok(())
        } else {
            Err(NetworkError::Mismatch { file, variant })
        }
    }

    /// The input of a piece of `colour` and kind `kind` on `sq`, seen by `view`: own or
    /// enemy, kind, and the square with the ranks counted from `view`'s side.
    #[inline(always)]
    pub fn feature(&self, view: Colour, colour: Colour, kind: usize, sq: Square) -> usize {
        let files = self.files as usize;
        let (f, r) = (sq as usize % files, sq as usize / files);
        let r = if view == Colour::White {
            r
        } else {
            self.ranks as usize - 1 - r
        };
        let enemy = (colour != view) as usize;
        ((enemy * self.kinds + kind) * self.ranks as usize + r) * files + f
    }

    /// The inputs of `pos` seen by the side to move and by the other side.
    pub fn active(&self, pos: &Position) -> (Vec<u32>, Vec<u32>) {
        let us = pos.side_to_move();
        let mut own = Vec::with_capacity(48);
        let mut other = Vec::with_capacity(48);
        for sq in pos.occupied() {
            if let Some(p) = pos.piece_at(sq) {
                let k = p.kind.index();
                own.push(self.feature(us, p.colour, k, sq) as u32);
                other.push(self.feature(us.other(), p.colour, k, sq) as u32);
            }
        }
        (own, other)
    }

    /// The correction in centipawns for the side to move of `pos`.
    pub fn evaluate(&self, pos: &Position) -> i32 {
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx2") {
            // SAFETY: the processor has AVX2: checked just above.
            return unsafe { self.evaluate_avx2(pos) };
        }
        self.evaluate_here(pos)
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    unsafe fn evaluate_avx2(&self, pos: &Position) -> i32 {
        self.evaluate_here(pos)
    }

    #[inline(always)]
    fn evaluate_here(&self, pos: &Position) -> i32 {
        let h = self.hidden;
        let mut acc = [[0f32; MAX_HIDDEN]; 2];
        acc[0][..h].copy_from_slice(&self.b1);
        acc[1][..h].copy_from_slice(&self.b1);
        let us = pos.side_to_move();
        for sq in pos.occupied() {
            let Some(p) = pos.piece_at(sq) else { continue };
            let k = p.kind.index();
            for (side, view) in [us, us.other()].into_iter().enumerate() {
                let row = self.feature(view, p.colour, k, sq) * h;
                add_row(&mut acc[side][..h], &self.w1[row..row + h]);
            }
        }
        (self.output(&acc[0][..h], &acc[1][..h]) * OUTPUT_CP).round() as i32
    }

    /// The output layer over the two halves' accumulated inputs (network units).
    #[inline(always)]
    pub(crate) fn output(&self, own: &[f32], other: &[f32]) -> f32 {
        let h = self.hidden;
        let mut sum = self.b2;
        for (a, w) in own.iter().zip(&self.w2[..h]) {
            sum += a.clamp(0.0, 1.0) * w;
        }
        for (a, w) in other.iter().zip(&self.w2[h..]) {
            sum += a.clamp(0.0, 1.0) * w;
        }
        sum
    }

    /// The network as the bytes of a network file.
    pub fn to_bytes(&self) -> Vec<u8> {
        let s1 = scale_of(self.w1.iter().chain(&self.b1));
        let s2 = scale_of(self.w2.iter());
        let mut out = Vec::with_capacity(32 + 2 * (self.w1.len() + 3 * self.hidden));
        out.extend_from_slice(MAGIC);
        for v in [
            self.kinds,
            self.files as usize,
            self.ranks as usize,
            self.hidden,
        ] {
            out.extend_from_slice(&(v as u16).to_le_bytes());
        }
        out.extend_from_slice(&s1.to_le_bytes());
        out.extend_from_slice(&s2.to_le_bytes());
        for v in self.w1.iter().chain(&self.b1) {
            out.extend_from_slice(&quantise(*v, s1).to_le_bytes());
        }
        for v in &self.w2 {
            out.extend_from_slice(&quantise(*v, s2).to_le_bytes());
        }
        out.extend_from_slice(&self.b2.to_le_bytes());
        out
    }

    /// Reads a network file's bytes.
    ///
    /// # Errors
    /// [`NetworkError::Format`] for anything but a whole, well-formed file.
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, NetworkError> {
        let mut r = Reader { bytes, at: 0 };
        if r.take(8)? != MAGIC {
            return Err(NetworkError::Format("no MCNET01 header".into()));
        }
        let kinds = r.u16()? as usize;
        let files = r.u16()?;
        let ranks = r.u16()?;
        let hidden = r.u16()? as usize;
        let squares = files as usize * ranks as usize;
        if kinds == 0 || kinds > 64 || files == 0 || ranks == 0 || squares > 128 {
            return Err(NetworkError::Format(format!(
                "{kinds} kinds on {files}x{ranks}"
            )));
        }
        if hidden == 0 || hidden > MAX_HIDDEN {
            return Err(NetworkError::Format(format!("{hidden} hidden units")));
        }
        let (s1, s2) = (r.f32()?, r.f32()?);
        if !(s1.is_finite() && s2.is_finite()) {
            return Err(NetworkError::Format("scales are not finite".into()));
        }
        let features = 2 * kinds * squares;
        let w1 = r.i16s(features * hidden, s1)?;
        let b1 = r.i16s(hidden, s1)?;
        let w2 = r.i16s(2 * hidden, s2)?;
        let b2 = r.f32()?;
        if r.at != bytes.len() || !b2.is_finite() {
            return Err(NetworkError::Format("wrong length".into()));
        }
        Ok(Network {
            kinds,
            files: files as u8,
            ranks: ranks as u8,
            hidden,
            w1,
            b1,
            w2,
            b2,
        })
    }
}

/// Network files shipped in `variants/nets/`, built into the binary beside the variant files,
/// by the name the variant's `[engine] network` gives.
pub const BUILTIN_FILES: &[(&str, &[u8])] = &[];

/// Largest network file read.
const MAX_FILE_BYTES: u64 = 16 << 20;

/// The network the variant's `[engine] network` names, relative to the variant file.
///
/// `Ok(None)` when the variant names none, or names a file that does not exist (as for
/// weights, a missing file means the evaluation without it); a built-in variant finds its
/// built-in copy unless `variants/NAME` exists in the working directory.
///
/// # Errors
/// A file that exists but cannot be read, is not a network, or was made for another board.
pub fn for_variant(rules: &Rules) -> Result<Option<Network>, NetworkError> {
    let Some(name) = rules.variant.engine.network.as_deref() else {
        return Ok(None);
    };
    let origin = std::path::Path::new(&rules.variant.origin);
    let path = if rules.variant.origin.starts_with("<built-in") {
        let local = std::path::Path::new("variants").join(name);
        if !local.is_file() {
            return match BUILTIN_FILES.iter().find(|(n, _)| *n == name) {
                Some((_, bytes)) => checked(rules, Network::from_bytes(bytes)).map(Some),
                None => Ok(None),
            };
        }
        local
    } else {
        origin
            .parent()
            .unwrap_or(std::path::Path::new(""))
            .join(name)
    };
    if !path.is_file() {
        return Ok(None);
    }
    let io = |e: std::io::Error| NetworkError::Io(format!("{}: {e}", path.display()));
    if std::fs::metadata(&path).map_err(io)?.len() > MAX_FILE_BYTES {
        return Err(NetworkError::Format(format!(
            "{} is too large",
            path.display()
        )));
    }
    let bytes = std::fs::read(&path).map_err(io)?;
    checked(rules, Network::from_bytes(&bytes)).map(Some)
}

fn checked(rules: &Rules, net: Result<Network, NetworkError>) -> Result<Network, NetworkError> {
    let net = net?;
    net.check_fits(rules)?;
    Ok(net)
}

#[inline(always)]
fn add_row(acc: &mut [f32], row: &[f32]) {
    for (a, w) in acc.iter_mut().zip(row) {
        *a += w;
    }
}

/// The scale that maps the largest weight onto `i16::MAX`.
fn scale_of<'a>(values: impl Iterator<Item = &'a f32>) -> f32 {
    let max = values.fold(0f32, |m, v| m.max(v.abs()));
    if max > 0.0 {
        max / i16::MAX as f32
    } else {
        1.0
    }
}

fn quantise(v: f32, scale: f32) -> i16 {
    (v / scale).round().clamp(i16::MIN as f32, i16::MAX as f32) as i16
}

/// Reads a network file from the front.
struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn take(&mut self, n: usize) -> Result<&[u8], NetworkError> {
        let end = self.at.checked_add(n).filter(|&e| e <= self.bytes.len());
        let end = end.ok_or_else(|| NetworkError::Format("cut short".into()))?;
        let s = &self.bytes[self.at..end];
        self.at = end;
        Ok(s)
    }
    fn u16(&mut self) -> Result<u16, NetworkError> {
        let b = self.take(2)?;
        Ok(u16::from_le_bytes([b[0], b[1]]))
    }
    fn f32(&mut self) -> Result<f32, NetworkError> {
        let b = self.take(4)?;
        Ok(f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }
    fn i16s(&mut self, n: usize, scale: f32) -> Result<Vec<f32>, NetworkError> {
        let b = self.take(n * 2)?;
        Ok(b.chunks_exact(2)
            .map(|c| i16::from_le_bytes([c[0], c[1]]) as f32 * scale)
            .collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog;
    use crate::fen::parse_fen;

    fn rules(name: &str) -> Rules {
        catalog::load_rules(name).expect("variant")
    }

    fn small_net(rules: &Rules) -> Network {
        let mut x = 12345u64;
        let mut init = move || {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            ((x >> 40) as f32 / (1u64 << 24) as f32 - 0.5) * 0.2
        };
        Network::new(rules, 16, &mut init)
    }

    #[test]
    fn a_network_file_reads_back_as_written() {
        let r = rules("mrc");
        let net = small_net(&r);
        let back = Network::from_bytes(&net.to_bytes()).expect("reads back");
        assert_eq!(back.hidden, 16);
        for (a, b) in net.w1.iter().zip(&back.w1) {
            assert!((a - b).abs() < 1e-4, "{a} {b}");
        }
        assert!(back.check_fits(&r).is_ok());
        assert!(matches!(
            back.check_fits(&rules("merc")),
            Err(NetworkError::Mismatch { .. })
        ));
    }

    #[test]
    fn damaged_network_files_are_refused() {
        let bytes = small_net(&rules("mrc64")).to_bytes();
        assert!(Network::from_bytes(&bytes[..bytes.len() - 1]).is_err());
        assert!(Network::from_bytes(&[bytes.as_slice(), &[0]].concat()).is_err());
        assert!(Network::from_bytes(b"MCNET01\n").is_err());
        assert!(Network::from_bytes(b"hello").is_err());
        let mut huge = bytes.clone();
        huge[14] = 0xff;
        huge[15] = 0xff;
        assert!(Network::from_bytes(&huge).is_err());
    }

    #[test]
    fn the_correction_is_the_same_for_either_side_of_a_mirrored_position() {
        // The same position with colours swapped and the board turned: the side to move
        // sees the same thing, so the correction is the same.
        let r = rules("chess");
        let net = small_net(&r);
        let a = parse_fen(
            &r,
            "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
        );
        let b = parse_fen(
            &r,
            "rnbqkb1r/pppp1ppp/5n2/4p3/4P3/2N5/PPPP1PPP/R1BQKBNR b KQkq - 2 3",
        );
        let a = Position::from_setup(&r, a.expect("fen")).expect("legal");
        let b = Position::from_setup(&r, b.expect("fen")).expect("legal");
        assert_eq!(net.evaluate(&a), net.evaluate(&b));
        assert_ne!(net.evaluate(&a), 0);
    }
}
