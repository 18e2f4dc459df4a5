//! `modern-chess bench`: perft speed on a fixed set of positions, optionally against
//! Fairy-Stockfish and Stockfish run on the same positions in the same run.
//!
//! The positions and their reference counts are `tests/data/perft.toml`, built into the binary
//! so the bench runs from any directory. The depth of each position is the deepest whose node
//! count (listed, or extrapolated from the last two listed depths) stays within `--max-nodes`,
//! so every position takes about the same time. Fairy-Stockfish gets a variants.ini written
//! from our variant files' `[fairy]` sections, so the comparison runs the rules we define.

use super::uci_client::UciClient;
use anyhow::{anyhow, bail, Context, Result};
use clap::Args;
use modern_chess::catalog;
use modern_chess::setup;
use modern_chess::variant::Variant;
use modern_chess::Position;
use modern_chess::Rules;
use modern_chess::{Colour, PieceKind};
use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

const REFERENCE: &str = include_str!("../../tests/data/perft.toml");

#[derive(Args)]
pub struct BenchArgs {
    /// Fairy-Stockfish binary to run on the same positions (e.g. /usr/games/fairy-stockfish)
    #[arg(long, value_name = "PATH")]
    pub fairy_stockfish: Option<PathBuf>,
    /// Stockfish binary to run on the orthodox chess positions (e.g. /usr/games/stockfish)
    #[arg(long, value_name = "PATH")]
    pub stockfish: Option<PathBuf>,
    /// Also time our perft split over this many threads (the single-threaded time is always
    /// measured); with --strength, our engine's search threads (Lazy SMP, default 1)
    #[arg(long, value_name = "N")]
    pub threads: Option<usize>,
    /// Node budget per position: the depth is the deepest whose count stays within it
    #[arg(long, value_name = "N", default_value_t = 25_000_000)]
    pub max_nodes: u64,
    /// Only these variants (short names, comma separated)
    #[arg(long, value_delimiter = ',', value_name = "LIST")]
    pub variants: Vec<String>,
    /// Every position of the reference file (default: the first start position and the first
    /// middlegame position of each variant)
    #[arg(long)]
    pub all: bool,
    /// Time each run this many times and keep the fastest (the machine may be busy)
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub repeat: u32,
    /// Measure CPU time (user + system, from /proc, Linux only) instead of wall-clock time:
    /// fairer on a busy machine, where a process waiting for a core is not working
    #[arg(long)]
    pub cpu: bool,
    /// Instead of perft: the strength benchmark, matches against a UCI engine in each variant
    /// (the five seed variants unless --variants names others)
    #[arg(long)]
    pub strength: bool,
    /// Strength benchmark: games per variant (random starts, each played twice, colours
    /// reversed)
    #[arg(long, value_name = "N", default_value_t = 8, requires = "strength")]
    pub games_per_variant: u32,
    /// Strength benchmark: time per move of both engines, in milliseconds
    #[arg(long, value_name = "MS", default_value_t = 100, requires = "strength")]
    pub movetime: u64,
    /// Strength benchmark: our engine searches to this depth every move instead of for
    /// --movetime (with --engine-depth: games that do not depend on the machine's load)
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=64), requires = "strength")]
    pub depth: Option<u32>,
    /// Strength benchmark: the other engine searches to this depth every move (`go depth N`)
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=64), requires = "strength")]
    pub engine_depth: Option<u32>,
    /// Strength benchmark: our engine searches this many nodes every move instead of for
    /// --movetime (with --engine-nodes: equal work for both, whatever the machine's load)
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..), requires = "strength")]
    pub nodes: Option<u64>,
    /// Strength benchmark: the other engine searches this many nodes every move (`go nodes N`)
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..), requires = "strength")]
    pub engine_nodes: Option<u64>,
    /// Strength benchmark: the other engine's command line
    #[arg(
        long,
        value_name = "CMD",
        default_value = "/usr/games/fairy-stockfish",
        requires = "strength"
    )]
    pub engine: String,
    /// Strength benchmark, a diagnostic: our engine evaluates with this engine's static
    /// evaluation (its `eval` command, e.g. /usr/games/fairy-stockfish) instead of its own,
    /// so the match measures our search alone against the other engine's
    #[arg(long, value_name = "CMD", requires = "strength")]
    pub eval_with: Option<String>,
    /// Strength benchmark: --eval-with's centipawns per one of ours (Fairy-Stockfish 11.1's
    /// static evaluation runs about 1.2 times ours)
    #[arg(long, value_name = "X", default_value_t = 1.0, requires = "eval_with",
          value_parser = super::label::parse_eval_scale)]
    pub eval_scale: f64,
    /// Strength benchmark: our engine's contempt in centipawns: a draw counts this much
    /// below equal for it (negative: above; default 0, as the UCI option `Contempt`)
    #[arg(long, value_name = "CP", allow_hyphen_values = true, value_parser = super::engines::parse_contempt, requires = "strength")]
    pub contempt: Option<i32>,
    /// Strength benchmark: seed of the random start positions (the same seed, the same starts)
    #[arg(long, value_name = "S", default_value_t = 1, requires = "strength")]
    pub seed: u64,
    /// Strength benchmark: also write every game to this PGN file
    #[arg(long, value_name = "FILE", requires = "strength")]
    pub pgn: Option<PathBuf>,
}

/// CPU seconds (user + system) used so far by a process (`None`: this one), from
/// /proc/PID/stat (fields 14 and 15, in clock ticks of 1/100 s, the Linux default).
fn cpu_seconds(pid: Option<u32>) -> Result<f64> {
    let path = match pid {
        Some(p) => format!("/proc/{p}/stat"),
        None => "/proc/self/stat".to_string(),
    };
    let text = std::fs::read_to_string(&path).with_context(|| format!("--cpu needs {path}"))?;
    // the command name (field 2) may contain spaces: count fields after its closing bracket
    let rest = text.rsplit_once(')').map(|(_, r)| r).unwrap_or("");
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let tick = |i: usize| -> Result<f64> {
        fields
            .get(i)
            .and_then(|f| f.parse::<f64>().ok())
            .ok_or_else(|| anyhow!("cannot read {path}"))
    };
    // after the name: state is field 3, so utime (14) and stime (15) are at 11 and 12
    Ok((tick(11)? + tick(12)?) / 100.0)
}

/// How runs are timed: wall clock, or the CPU time of a process.
#[derive(Clone, Copy)]
enum Clock {
    Wall,
    Cpu(Option<u32>),
}

impl Clock {
    fn start(self) -> Result<(Instant, f64)> {
        Ok((
            Instant::now(),
            match self {
                Clock::Wall => 0.0,
                Clock::Cpu(pid) => cpu_seconds(pid)?,
            },
        ))
    }
    fn elapsed(self, since: (Instant, f64)) -> Result<f64> {
        Ok(match self {
            Clock::Wall => since.0.elapsed().as_secs_f64(),
            Clock::Cpu(pid) => cpu_seconds(pid)? - since.1,
        })
    }
}

#[derive(Deserialize)]
struct Reference {
    position: Vec<Case>,
}

#[derive(Deserialize, Clone)]
struct Case {
    variant: String,
    fen: String,
    perft: Vec<u64>,
}

/// One position of the bench, with its chosen depth.
struct Job {
    variant: String,
    kind: &'static str,
    fen: String,
    depth: u32,
    /// The reference count at that depth, when the file lists it.
    expected: Option<u64>,
}

/// The deepest depth whose count (listed, or extrapolated by the last listed growth rate)
/// stays within `budget`; at least 1.
fn choose_depth(perft: &[u64], budget: u64) -> (u32, Option<u64>) {
    let mut depth = 0;
    for (i, &n) in perft.iter().enumerate() {
        if n <= budget {
            depth = i + 1;
        } else {
            break;
        }
    }
    if depth == 0 {
        return (1, perft.first().copied());
    }
    if depth == perft.len() && perft.len() >= 2 {
        let last = perft[perft.len() - 1] as f64;
        let growth = last / perft[perft.len() - 2].max(1) as f64;
        let mut estimate = last;
        let mut d = depth;
        while growth > 1.0 && d < 12 {
            estimate *= growth;
            if estimate > budget as f64 {
                break;
            }
            d += 1;
        }
        return (d as u32, perft.get(d - 1).copied());
    }
    (depth as u32, Some(perft[depth - 1]))
}

/// A start position: no move made yet, so every pawn still stands on its starting rank across
/// the army's files (a middlegame position has lost or moved some).
fn is_start(rules: &Rules, pos: &Position) -> bool {
    let v = rules.variant();
    let (Some(pawn), Some((_, rank))) = (rules.pawn(), v.setup().pawn) else {
        return pos.fullmove_number() == 1;
    };
    let geo = &rules.geo();
    (0..2).all(|c| {
        let r = if c == 0 { rank } else { geo.ranks - 1 - rank };
        (v.setup().files.0..=v.setup().files.1).all(|f| {
            pos.pieces(Colour::from_index(c), PieceKind(pawn as u8))
                .has(geo.square(f, r))
        })
    }) && pos.fullmove_number() == 1
}

fn jobs(args: &BenchArgs) -> Result<Vec<Job>> {
    let data: Reference = toml::from_str(REFERENCE).context("built-in perft reference")?;
    let mut out = Vec::new();
    let mut seen: BTreeMap<(String, &'static str), usize> = BTreeMap::new();
    let mut cache: BTreeMap<String, Rules> = BTreeMap::new();
    for case in &data.position {
        if !args.variants.is_empty()
            && !args
                .variants
                .iter()
                .any(|v| v.eq_ignore_ascii_case(&case.variant))
        {
            continue;
        }
        if !cache.contains_key(&case.variant) {
            let rules = catalog::load_rules(&case.variant).map_err(|e| anyhow!("{e}"))?;
            cache.insert(case.variant.clone(), rules);
        }
        let rules = &cache[&case.variant];
        let pos = Position::from_fen(rules, &case.fen).map_err(|e| anyhow!("{}: {e}", case.fen))?;
        let kind = if is_start(rules, &pos) {
            "start"
        } else {
            "middlegame"
        };
        let n = seen.entry((case.variant.clone(), kind)).or_default();
        *n += 1;
        if !args.all && *n > 1 {
            continue;
        }
        let (depth, expected) = choose_depth(&case.perft, args.max_nodes);
        out.push(Job {
            variant: case.variant.clone(),
            kind,
            fen: case.fen.clone(),
            depth,
            expected,
        });
    }
    if out.is_empty() {
        bail!(
            "no bench position matches --variants {}",
            args.variants.join(",")
        );
    }
    Ok(out)
}

/// Our perft, with the root moves shared out among `threads` threads.
fn perft_threads(rules: &Rules, pos: &Position, depth: u32, threads: usize) -> u64 {
    if threads <= 1 || depth <= 1 {
        return pos.perft(rules, depth);
    }
    let moves = pos.legal_moves(rules);
    let moves = moves.as_slice();
    let next = AtomicUsize::new(0);
    std::thread::scope(|s| {
        let handles: Vec<_> = (0..threads)
            .map(|_| {
                s.spawn(|| {
                    let mut sum = 0;
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        let Some(&m) = moves.get(i) else { break sum };
                        sum += pos.play_unchecked(rules, m).perft(rules, depth - 1);
                    }
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap_or(0)).sum()
    })
}

/// Runs `f` `repeat` times; the count of the first run and the fastest time.
fn timed(clock: Clock, repeat: u32, mut f: impl FnMut() -> Result<u64>) -> Result<(u64, f64)> {
    let mut best = f64::INFINITY;
    let mut nodes = 0;
    for i in 0..repeat.max(1) {
        let t = clock.start()?;
        let n = f()?;
        best = best.min(clock.elapsed(t)?);
        if i == 0 {
            nodes = n;
        } else if n != nodes {
            bail!("perft gave {nodes} then {n} nodes");
        }
    }
    Ok((nodes, best))
}

// ---------------------------------------------------------------------------------------------
// Fairy-Stockfish's variant file, from ours
// ---------------------------------------------------------------------------------------------

/// The Fairy-Stockfish definition of a variant: `None` when the `[fairy]` section has no
/// template (the variant is built into Fairy-Stockfish under its `variant` name) or no name.
/// Board, start position, promotion, double step and castling come from the variant itself;
/// pieces the template does not know are named by `[fairy] pieces` (Fairy-Stockfish 11.1 has no
/// custom pieces, so each must map to one of its built-in pieces).
pub fn fairy_section(v: &Variant) -> Option<String> {
    let name = v.fairy().variant.as_ref()?;
    let template = v.fairy().template.as_ref()?;
    let mut s = format!("[{name}:{template}]\n");
    let file = |f: u8| (b'a' + f) as char;
    s.push_str(&format!("maxFile = {}\n", file(v.files() - 1)));
    s.push_str(&format!("maxRank = {}\n", v.ranks()));
    for (letter, piece) in &v.fairy().pieces {
        s.push_str(&format!("{piece} = {}\n", letter.to_ascii_lowercase()));
    }
    let army: String = v
        .setup()
        .army
        .iter()
        .map(|&t| v.pieces()[t].letter)
        .collect();
    if let Ok(sp) = setup::parse_back_rank(v, &army) {
        let fen = setup::start_fen(v, &sp);
        let six: Vec<&str> = fen.split_whitespace().take(6).collect();
        s.push_str(&format!("startFen = {}\n", six.join(" ")));
    }
    if let Some(p) = &v.promotion() {
        s.push_str(&format!("promotionRank = {}\n", p.zone.0 + 1));
        let to: String =
            p.to.iter()
                .map(|&t| v.pieces()[t].letter.to_ascii_lowercase())
                .collect();
        s.push_str(&format!("promotionPieceTypes = {to}\n"));
    }
    if let Some((_, rank)) = v.setup().pawn {
        s.push_str(&format!("doubleStepRank = {}\n", rank + 1));
    }
    match &v.castling() {
        Some(c) => {
            s.push_str(&format!("castlingRank = {}\n", v.setup().rank + 1));
            s.push_str(&format!(
                "castlingQueensideFile = {}\n",
                file(c.sides[0].king_file)
            ));
            s.push_str(&format!(
                "castlingKingsideFile = {}\n",
                file(c.sides[1].king_file)
            ));
        }
        None => s.push_str("castling = false\n"),
    }
    Some(s)
}

/// A variants.ini for every variant of the jobs (one section per Fairy-Stockfish name).
fn fairy_ini(variants: &[&Variant]) -> String {
    let mut out = String::from(
        "# Written by `modern-chess bench` from the [fairy] sections of its variant files.\n",
    );
    let mut done = Vec::new();
    for v in variants {
        if let (Some(name), Some(section)) = (&v.fairy().variant, fairy_section(v)) {
            if !done.contains(name) {
                out.push('\n');
                out.push_str(&section);
                done.push(name.clone());
            }
        }
    }
    out
}

// ---------------------------------------------------------------------------------------------
// Talking to a UCI engine
// ---------------------------------------------------------------------------------------------

/// Fairy-Stockfish or Stockfish through the one UCI client the binary has (shared with
/// `match`), timed by wall clock or by the child's CPU time.
struct Uci {
    client: UciClient,
    clock: Clock,
}

/// A perft may take long, but an engine that says nothing for this long is stuck.
const PERFT_WAIT: Duration = Duration::from_secs(3600);

impl Uci {
    fn start(path: &Path, cpu: bool) -> Result<Uci> {
        let client = UciClient::start(&format!("\"{}\"", path.display()))?;
        let clock = if cpu {
            Clock::Cpu(Some(client.pid()))
        } else {
            Clock::Wall
        };
        Ok(Uci { client, clock })
    }

    fn send(&mut self, line: &str) -> Result<()> {
        self.client.send(line)
    }

    /// Reads lines until one starts with `prefix`; returns it.
    fn wait_for(&mut self, prefix: &str) -> Result<String> {
        let lines = self.client.read_until(prefix, PERFT_WAIT)?;
        Ok(lines
            .last()
            .map(|l| l.trim().to_string())
            .unwrap_or_default())
    }

    fn sync(&mut self) -> Result<()> {
        self.client.is_ready().map(|_| ())
    }

    /// Perft of one position; the count and the time from `go` to the result.
    fn perft(&mut self, fen: &str, depth: u32, repeat: u32) -> Result<(u64, f64)> {
        self.send(&format!("position fen {fen}"))?;
        self.sync()?;
        let clock = self.clock;
        timed(clock, repeat, || {
            self.send(&format!("go perft {depth}"))?;
            let line = self.wait_for("Nodes searched")?;
            line.rsplit(':')
                .next()
                .and_then(|n| n.trim().parse::<u64>().ok())
                .ok_or_else(|| anyhow!("{}: cannot read `{line}`", self.client.name))
        })
    }
}

// ---------------------------------------------------------------------------------------------
// The run
// ---------------------------------------------------------------------------------------------

/// Totals of one engine over a variant's positions.
#[derive(Default, Clone, Copy)]
struct Total {
    nodes: u64,
    secs: f64,
}

impl Total {
    fn add(&mut self, nodes: u64, secs: f64) {
        self.nodes += nodes;
        self.secs += secs;
    }
    fn mnps(&self) -> f64 {
        self.nodes as f64 / self.secs.max(1e-9) / 1e6
    }
}

#[derive(Default)]
struct Row {
    positions: usize,
    ours: Total,
    threads: Total,
    fairy: Option<Total>,
    stockfish: Option<Total>,
    table_bytes: usize,
}

fn ratio(ours: &Total, other: &Option<Total>) -> String {
    match other {
        Some(o) if o.secs > 0.0 => format!("{:.2}", o.secs / ours.secs.max(1e-9)),
        _ => "-".into(),
    }
}

pub fn run(args: BenchArgs) -> Result<()> {
    if args.strength {
        return super::strength::run(&args);
    }
    let jobs = jobs(&args)?;
    let mut rules_of: BTreeMap<String, Rules> = BTreeMap::new();
    for j in &jobs {
        if !rules_of.contains_key(&j.variant) {
            let r = catalog::load_rules(&j.variant).map_err(|e| anyhow!("{e}"))?;
            rules_of.insert(j.variant.clone(), r);
        }
    }
    let mut others = Others::start(&args, &rules_of)?;
    println!(
        "Position: {} bytes; perft, single-threaded unless marked; {} times, the fastest of {}",
        std::mem::size_of::<Position>(),
        if args.cpu { "CPU" } else { "wall-clock" },
        args.repeat.max(1)
    );
    let mut run = BenchRun {
        args: &args,
        rows: BTreeMap::new(),
        order: Vec::new(),
        mismatches: Vec::new(),
    };
    for job in &jobs {
        let line = run.measure(&rules_of[&job.variant], job, &mut others)?;
        println!("{line}");
    }
    drop(others); // the engines stop and the variants file goes (`Drop`)
    println!();
    run.print_table(&rules_of);
    println!("\nratio = the other engine's time / ours (above 1: we are faster)");
    if !run.mismatches.is_empty() {
        bail!("node counts differ:\n{}", run.mismatches.join("\n"));
    }
    println!("node counts agree");
    Ok(())
}

/// The engines we compare with, when asked for, and the Fairy-Stockfish variants file.
struct Others {
    fairy: Option<Uci>,
    stockfish: Option<Uci>,
    ini_path: std::path::PathBuf,
}

impl Others {
    fn start(args: &BenchArgs, rules_of: &BTreeMap<String, Rules>) -> Result<Others> {
        // Made before anything can fail: an engine that does not start drops it, and the
        // variants file goes with it (see `Drop`).
        let mut others = Others {
            fairy: None,
            stockfish: None,
            ini_path: std::env::temp_dir()
                .join(format!("modern-chess-bench-{}.ini", std::process::id())),
        };
        if let Some(path) = &args.fairy_stockfish {
            let ini_path = &others.ini_path;
            let variants: Vec<&Variant> = rules_of.values().map(|r| r.variant()).collect();
            std::fs::write(ini_path, fairy_ini(&variants))
                .with_context(|| format!("cannot write {}", ini_path.display()))?;
            let mut e = Uci::start(path, args.cpu)?;
            e.send(&format!(
                "setoption name VariantPath value {}",
                ini_path.display()
            ))?;
            e.send("setoption name UCI_Chess960 value true")?;
            e.sync()?;
            others.fairy = Some(e);
        }
        if let Some(path) = &args.stockfish {
            let mut e = Uci::start(path, args.cpu)?;
            e.send("setoption name UCI_Chess960 value true")?;
            e.sync()?;
            others.stockfish = Some(e);
        }
        Ok(others)
    }

    fn stop(&mut self) {
        drop(self.fairy.take());
        drop(self.stockfish.take());
        let _ = std::fs::remove_file(&self.ini_path);
    }
}

/// A bench that fails half-way (an engine that does not start, a search that breaks) still
/// stops the engines and removes the variants file.
impl Drop for Others {
    fn drop(&mut self) {
        self.stop();
    }
}

/// The results so far: a row per variant in first-seen order, and any count that differs.
struct BenchRun<'a> {
    args: &'a BenchArgs,
    rows: BTreeMap<String, Row>,
    order: Vec<String>,
    mismatches: Vec<String>,
}

impl BenchRun<'_> {
    /// Times one job with us (and our threads) and the other engines; the line to print.
    fn measure(&mut self, rules: &Rules, job: &Job, others: &mut Others) -> Result<String> {
        let args = self.args;
        let clock = if args.cpu {
            Clock::Cpu(None)
        } else {
            Clock::Wall
        };
        let threads = args.threads.unwrap_or(1).max(1);
        let pos = Position::from_fen(rules, &job.fen).map_err(|e| anyhow!("{}: {e}", job.fen))?;
        let (nodes, secs) = timed(clock, args.repeat, || Ok(pos.perft(rules, job.depth)))?;
        let mut line = format!(
            "{:<9} {:<10} d{} {:>11} nodes  ours {:>6.3} s {:>6.2} Mn/s",
            rules.variant().short(),
            job.kind,
            job.depth,
            nodes,
            secs,
            nodes as f64 / secs.max(1e-9) / 1e6
        );
        if let Some(e) = job.expected.filter(|&e| e != nodes) {
            self.mismatches.push(format!(
                "{} {} depth {}: reference {e}, ours {nodes}",
                job.variant, job.fen, job.depth
            ));
        }
        if !self.order.contains(&job.variant) {
            self.order.push(job.variant.clone());
        }
        let row = self.rows.entry(job.variant.clone()).or_default();
        row.table_bytes = rules.table_bytes();
        row.positions += 1;
        row.ours.add(nodes, secs);
        if threads > 1 {
            // several threads: only wall-clock time means anything
            let (n, s) = timed(Clock::Wall, args.repeat, || {
                Ok(perft_threads(rules, &pos, job.depth, threads))
            })?;
            if n != nodes {
                self.mismatches
                    .push(format!("{}: {threads} threads gave {n}", job.fen));
            }
            row.threads.add(n, s);
            line.push_str(&format!(
                "  {threads} threads {:>6.2} Mn/s",
                n as f64 / s.max(1e-9) / 1e6
            ));
        }
        self.compare(rules, job, others, (nodes, secs), &mut line)?;
        Ok(line)
    }

    /// The same perft by Fairy-Stockfish and (for chess) Stockfish, when they run.
    fn compare(
        &mut self,
        rules: &Rules,
        job: &Job,
        others: &mut Others,
        (nodes, secs): (u64, f64),
        line: &mut String,
    ) -> Result<()> {
        let repeat = self.args.repeat;
        let row = self
            .rows
            .get_mut(&job.variant)
            .expect("row made by measure");
        let fairy_name = rules.variant().fairy().variant.clone();
        if let (Some(e), Some(name)) = (others.fairy.as_mut(), &fairy_name) {
            e.send(&format!("setoption name UCI_Variant value {name}"))?;
            let (n, s) = e.perft(&job.fen, job.depth, repeat)?;
            if n != nodes {
                self.mismatches.push(format!(
                    "{} {} depth {}: Fairy-Stockfish {n}, ours {nodes}",
                    job.variant, job.fen, job.depth
                ));
            }
            row.fairy.get_or_insert_with(Total::default).add(n, s);
            line.push_str(&format!(
                "  fairy-stockfish {:>6.3} s (x{:.2})",
                s,
                s / secs.max(1e-9)
            ));
        }
        // Stockfish plays only the game Fairy-Stockfish calls "chess" (with Chess960 on).
        if let (Some(e), Some("chess")) = (others.stockfish.as_mut(), fairy_name.as_deref()) {
            let (n, s) = e.perft(&job.fen, job.depth, repeat)?;
            if n != nodes {
                self.mismatches.push(format!(
                    "{} {} depth {}: Stockfish {n}, ours {nodes}",
                    job.variant, job.fen, job.depth
                ));
            }
            row.stockfish.get_or_insert_with(Total::default).add(n, s);
            line.push_str(&format!(
                "  stockfish {:>6.3} s (x{:.2})",
                s,
                s / secs.max(1e-9)
            ));
        }
        Ok(())
    }

    /// The per-variant summary as a Markdown table.
    fn print_table(&self, rules_of: &BTreeMap<String, Rules>) {
        let args = self.args;
        let threads = args.threads.unwrap_or(1).max(1);
        let mut header = String::from("| variant | positions | nodes | ours s | ours Mn/s |");
        let mut rule = String::from("|---|---:|---:|---:|---:|");
        if threads > 1 {
            header.push_str(&format!(" ours {threads}T Mn/s |"));
            rule.push_str("---:|");
        }
        if args.fairy_stockfish.is_some() {
            header.push_str(" Fairy-SF s | Fairy-SF Mn/s | ratio vs Fairy-SF |");
            rule.push_str("---:|---:|---:|");
        }
        if args.stockfish.is_some() {
            header.push_str(" Stockfish s | Stockfish Mn/s | ratio vs Stockfish |");
            rule.push_str("---:|---:|---:|");
        }
        header.push_str(" tables KiB |");
        rule.push_str("---:|");
        println!("{header}\n{rule}");
        for v in &self.order {
            println!("{}", self.table_line(&rules_of[v], &self.rows[v], threads));
        }
    }

    fn table_line(&self, rules: &Rules, r: &Row, threads: usize) -> String {
        let mut line = format!(
            "| {} | {} | {} | {:.3} | {:.2} |",
            rules.variant().short(),
            r.positions,
            r.ours.nodes,
            r.ours.secs,
            r.ours.mnps()
        );
        if threads > 1 {
            line.push_str(&format!(" {:.2} |", r.threads.mnps()));
        }
        let cell = |t: &Option<Total>| match t {
            Some(t) => format!(" {:.3} | {:.2} |", t.secs, t.mnps()),
            None => " - | - |".into(),
        };
        if self.args.fairy_stockfish.is_some() {
            line.push_str(&format!(
                "{} {} |",
                cell(&r.fairy),
                ratio(&r.ours, &r.fairy)
            ));
        }
        if self.args.stockfish.is_some() {
            line.push_str(&format!(
                "{} {} |",
                cell(&r.stockfish),
                ratio(&r.ours, &r.stockfish)
            ));
        }
        line.push_str(&format!(" {} |", r.table_bytes.div_ceil(1024)));
        line
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn depth_within_budget_and_extrapolated() {
        assert_eq!(choose_depth(&[20, 400, 8902], 1000), (2, Some(400)));
        assert_eq!(choose_depth(&[20, 400, 8902], 10), (1, Some(20)));
        // 8902 * 22 = 195,844 fits, the next (4.3 million) does not
        assert_eq!(choose_depth(&[20, 400, 8902], 200_000), (4, None));
    }

    #[test]
    fn fairy_section_is_written_from_the_variant_file() {
        let v = catalog::load("mrc").unwrap();
        let s = fairy_section(&v).unwrap();
        assert!(s.starts_with("[mrc:chess]\n"), "{s}");
        for line in [
            "maxFile = i",
            "maxRank = 9",
            "archbishop = m",
            "promotionRank = 9",
            "promotionPieceTypes = qmrbn",
            "castlingQueensideFile = c",
            "castlingKingsideFile = g",
        ] {
            assert!(s.lines().any(|l| l == line), "{line} missing in\n{s}");
        }
        let merc = fairy_section(&catalog::load("merc").unwrap()).unwrap();
        assert!(merc.lines().any(|l| l == "castlingRank = 2"), "{merc}");
        assert!(merc.lines().any(|l| l == "doubleStepRank = 3"), "{merc}");
        // built into Fairy-Stockfish: nothing to write
        assert!(fairy_section(&catalog::load("chess").unwrap()).is_none());
    }
}
