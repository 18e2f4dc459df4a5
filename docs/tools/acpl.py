#!/usr/bin/env python3
"""Average centipawn loss (ACPL) of a UCI engine's moves, judged by a deeper Fairy-Stockfish.

A diagnostic for search and evaluation changes that is cheaper than a match: every position
of a fixed set gets one move from the engine under test, and an oracle (Fairy-Stockfish 11.1
at --oracle-nodes, 400,000 by default) scores its own best move and the tested move (with
`searchmoves`). The loss is best - tested, capped at 300; positions the oracle already
calls decided (|best| > 400) are skipped. The oracle's answers are cached in the work
directory, so a second engine on the same positions costs only its new moves.

  acpl.py positions --bin target/release/modern-chess GAMES.pgn...   (PGNs from `match --pgn`
      or `bench --strength --pgn`; each game's [Variant] tag, else the file's first
      `[Event "MRC match"]` tag, names the variant; every 3rd position from ply 6, or
      --every N --from PLY; --max-score P skips positions where either engine's score in the
      PGN comments of the moves before and after is beyond P pawns, decided already)
  acpl.py run NAME "ENGINE COMMAND with {v} for the variant" [--go "go nodes 40000"] [--jobs 2]
      (--jobs: variants shared among that many processes, each with its own oracle)
  acpl.py compare BASE NAME...     (paired difference and its standard error)

Example: acpl.py run main "target/release/modern-chess uci --variant {v}"
"""
import argparse
import concurrent.futures
import fcntl
import json
import math
import os
import re
import subprocess

FSF = "/usr/games/fairy-stockfish"
HERE = os.path.dirname(os.path.abspath(__file__))
INI = os.path.normpath(os.path.join(HERE, "../../../shared/tools/fairy-variants.ini"))
# Fairy-Stockfish's name for each seed variant (ICRC plays as MERC: the same rules there).
FAIRY = {"mrc": "mrc", "mrc64": "mrc64", "merc": "merc", "icrc": "merc", "pmrc": "pmrc"}
LOSS_CAP = 300
DECIDED = 400


class Engine:
    """One UCI engine process for one variant."""

    def __init__(self, cmd, variant, ini):
        self.p = subprocess.Popen(cmd, shell=True, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=subprocess.DEVNULL, text=True, bufsize=1)
        self.nodes = 0
        self.send("uci")
        opts = " ".join(self.until("uciok"))
        if "UCI_Chess960" in opts:
            self.send("setoption name UCI_Chess960 value true")
        if "Fairy-Stockfish" in opts:
            self.send(f"setoption name VariantPath value {ini}")
            self.send(f"setoption name UCI_Variant value {FAIRY.get(variant, variant)}")
        self.send("isready")
        self.until("readyok")

    def send(self, s):
        self.p.stdin.write(s + "\n")
        self.p.stdin.flush()

    def until(self, word):
        lines = []
        while True:
            line = self.p.stdout.readline()
            if not line:
                raise RuntimeError("engine died")
            line = line.strip()
            lines.append(line)
            if line.startswith(word):
                return lines

    def go(self, fen, go, searchmoves=None):
        """The engine's move and its last exact score (mates as +-2000 less the distance)."""
        self.send("ucinewgame")
        self.send("isready")
        self.until("readyok")
        self.send(f"position fen {fen}")
        self.send(go + (f" searchmoves {searchmoves}" if searchmoves else ""))
        lines = self.until("bestmove")
        score = None
        for line in lines:
            m = re.search(r" nodes (\d+)", line)
            if m:
                self.nodes = int(m.group(1))
            m = re.search(r"score (cp|mate) (-?\d+)", line)
            if m and " bound" not in line:
                v = int(m.group(2))
                score = v if m.group(1) == "cp" else (2000 - abs(v)) * (1 if v > 0 else -1)
        return lines[-1].split()[1], score

    def quit(self):
        self.send("quit")
        self.p.wait()


def games_by_variant(pgn):
    """The games of a PGN file (their text), by the variant each names."""
    with open(pgn) as f:
        text = f.read()
    head = re.match(r'\[Event "(\S+) match"\]', text)
    out = {}
    for g in re.split(r"\n(?=\[Event )", text):
        if "[Result" not in g:
            continue
        m = re.search(r'\[Variant "([^"]+)"\]', g)
        if not m and not head:
            raise SystemExit(f"{pgn}: a game names no variant ([Variant] or a `match` Event)")
        out.setdefault((m or head).group(1).lower(), []).append(g.strip() + "\n")
    return out


def replay_fens(args, v, games):
    """Each game's positions as FENs, the start first, from our `replay --verbose`."""
    path = os.path.join(args.dir, f"replay-{v}.pgn")
    with open(path, "w") as f:
        f.write("\n".join(games))
    r = subprocess.run([args.bin, "replay", "--variant", v, path, "--verbose"],
                       capture_output=True, text=True, check=True)
    out = []
    for line in r.stdout.splitlines():
        if line.startswith("== game"):
            out.append([])
        elif line.startswith("start: "):
            out[-1].append(line[7:].strip())
        elif re.match(r"^\d+\.", line) and len(line.split(None, 1)) == 2:
            out[-1].append(line.split(None, 1)[1].strip())
    return out


def comment_scores(game):
    """The size of each move's score in its PGN comment, in pawns (mates and none: inf)."""
    body = game.split("\n\n", 1)[1] if "\n\n" in game else ""
    out = []
    for c in re.findall(r"\{([^}]*)\}", body):
        m = re.match(r"\s*[+-]?(\d+\.\d+)/", c)
        out.append(float(m.group(1)) if m else math.inf)
    return out


def positions(args):
    out = []
    for pgn in args.pgn:
        for v, games in games_by_variant(pgn).items():
            for game, fens in zip(games, replay_fens(args, v, games)):
                scores = comment_scores(game)
                for i in range(args.from_ply, len(fens) - 4, args.every):
                    around = scores[i - 1:i + 1]
                    if args.max_score is None or (
                            len(around) == 2 and max(around) <= args.max_score):
                        out.append((v, fens[i]))
    with open(os.path.join(args.dir, "positions.json"), "w") as f:
        json.dump(out, f)
    print(len(out), "positions")


def load(path, default):
    try:
        with open(path) as f:
            return json.load(f)
    except FileNotFoundError:
        return default


def save_oracle(args, cache):
    """Merges into the file on disk, so runs side by side keep each other's answers (one at a
    time, under a lock)."""
    path = os.path.join(args.dir, "oracle.json")
    with open(path + ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        disk = load(path, {})
        for k, v in cache.items():
            disk.setdefault(k, {}).update(v)
        tmp = f"{path}.{os.getpid()}"
        with open(tmp, "w") as f:
            json.dump(disk, f)
        os.replace(tmp, path)
    return disk


def run(args):
    pos = load(os.path.join(args.dir, "positions.json"), None)
    if pos is None:
        raise SystemExit("no positions.json: run `acpl.py positions` first")
    by_var = {}
    for v, f in pos:
        by_var.setdefault(v, []).append(f)
    # Variants dealt out to the jobs, the largest first, each to the least loaded job.
    shares = [dict() for _ in range(max(1, args.jobs))]
    for v, fens in sorted(by_var.items(), key=lambda x: -len(x[1])):
        min(shares, key=lambda s: sum(map(len, s.values())))[v] = fens
    with concurrent.futures.ProcessPoolExecutor(len(shares)) as ex:
        parts = list(ex.map(run_share, [args] * len(shares), shares))
    moves = {k: m for part in parts for k, m in part[0].items()}
    nodes = [n for part in parts for n in part[1]]
    # Every job merged its answers into the file under the lock: it holds them all.
    report(args, pos, load(os.path.join(args.dir, "oracle.json"), {}), moves, nodes)


def run_share(args, by_var):
    """The tested engine's moves on these variants' positions, and the oracle's scores."""
    moves, nodes = {}, []
    for v, fens in by_var.items():
        e = Engine(args.cmd.format(v=v), v, args.ini)
        for f in fens:
            moves[f] = e.go(f, args.go)[0]
            nodes.append(e.nodes)
        e.quit()
    cache = load(os.path.join(args.dir, "oracle.json"), {})
    oracle_go = f"go nodes {args.oracle_nodes}"
    for v, fens in by_var.items():
        o = None
        for f in fens:
            c = cache.setdefault(f, {})
            if "best" not in c:
                o = o or Engine(FSF, v, args.ini)
                b, s = o.go(f, oracle_go)
                c["best"], c[b] = b, s
            if moves[f] not in c:
                o = o or Engine(FSF, v, args.ini)
                c[moves[f]] = o.go(f, oracle_go, moves[f])[1]
        if o:
            o.quit()
        cache = save_oracle(args, cache)
    return moves, nodes


def report(args, pos, cache, moves, nodes):
    tot, rows = {}, []
    for v, f in pos:
        c = cache[f]
        best = c[c["best"]]
        if best is None or abs(best) > DECIDED:
            continue
        s = c[moves[f]]
        loss = min(LOSS_CAP, max(0, best - s)) if s is not None else LOSS_CAP
        t = tot.setdefault(v, [0, 0, 0])
        t[0] += loss
        t[1] += 1
        t[2] += moves[f] == c["best"]
        rows.append((v, f, moves[f], loss))
    with open(os.path.join(args.dir, f"res-{args.name}.json"), "w") as f:
        json.dump(rows, f)
    n = sum(t[1] for t in tot.values())
    acpl = sum(t[0] for t in tot.values()) / max(1, n)
    agree = sum(t[2] for t in tot.values()) / max(1, n)
    per = " ".join(f"{v}:{t[0] / t[1]:.1f}" for v, t in tot.items())
    print(f"{args.name}: nodes {sum(nodes) / max(1, len(nodes)):.0f} acpl {acpl:.1f} "
          f"agree {agree:.2f} n={n} {per}")


def compare(args):
    def losses(name):
        rows = load(os.path.join(args.dir, f"res-{name}.json"), None)
        if rows is None:
            raise SystemExit(f"no results for {name}")
        return {(r[0], r[1]): r[3] for r in rows}

    base = losses(args.base)
    for name in args.names:
        other = losses(name)
        d = [other[k] - base[k] for k in base if k in other]
        if len(d) < 2:
            print(f"{name}: too few common positions")
            continue
        m = sum(d) / len(d)
        sd = math.sqrt(sum((x - m) ** 2 for x in d) / (len(d) - 1))
        print(f"{name} - {args.base}: {m:+.2f} +- {sd / math.sqrt(len(d)):.2f} (n={len(d)})")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--dir", default="target/acpl", help="work directory (positions, cache)")
    ap.add_argument("--ini", default=INI, help="Fairy-Stockfish's variants.ini")
    sub = ap.add_subparsers(dest="what", required=True)
    p = sub.add_parser("positions")
    p.add_argument("--bin", default="target/release/modern-chess")
    p.add_argument("--every", type=int, default=3, help="one position every N plies")
    p.add_argument("--from", dest="from_ply", type=int, default=6, help="the first ply taken")
    p.add_argument("--max-score", type=float, help="skip positions scored beyond P pawns")
    p.add_argument("pgn", nargs="+")
    p = sub.add_parser("run")
    p.add_argument("name")
    p.add_argument("cmd")
    p.add_argument("--go", default="go nodes 40000")
    p.add_argument("--oracle-nodes", type=int, default=400000)
    p.add_argument("--jobs", type=int, default=1, help="processes, variants shared among them")
    p = sub.add_parser("compare")
    p.add_argument("base")
    p.add_argument("names", nargs="+")
    args = ap.parse_args()
    os.makedirs(args.dir, exist_ok=True)
    {"positions": positions, "run": run, "compare": compare}[args.what](args)


if __name__ == "__main__":
    main()
