#!/usr/bin/env python3
"""Collect perft counts from Fairy-Stockfish for the variant files named after its variants.

usage: tests/data/fairy-perft.py [--seed N] [--nodes LIMIT] > tests/data/fairy-perft.toml

For each variant: the start position, positions from seeded random games played by this script
with Fairy-Stockfish's own move lists (biased towards captures, promotions and castling so that
endings are reached), picked where castling, en passant, promotion (inside a zone), a bare king
or a hopper capture is available, and a few hand-made positions. Every count is Fairy-Stockfish's
(`go perft N`), at depths 1.. while the count stays under the node limit. modern-chess is not run:
tests/fairy_perft.rs compares it with these numbers.
"""
import random, re, subprocess, sys

ENGINE = "/usr/games/fairy-stockfish"
VARIANTS = ["capablanca", "gothic", "janus", "embassy", "caparandom", "courier", "shatranj",
            "makruk", "knightmate", "amazon", "almost", "chancellor", "modern", "grand", "shako"]
# Hand-made positions: what random games rarely reach.
EXTRA = {
    "shatranj": [
        ("bare king: the side not to move is bare, no moves", "8/8/8/4k3/8/8/3K4/7R w - - 0 1"),
        ("bare king: the bared side to move may bare back", "8/8/8/4k3/2r5/8/3K4/7R b - - 0 1"),
        ("bare king: last piece can be taken", "8/8/8/5k2/3r4/2K5/8/8 w - - 0 1"),
    ],
    "courier": [
        ("bare king", "12/12/12/5k6/12/5K6/1m10/12 b - - 0 1"),
        ("bare king: capture to bare", "12/6k5/12/5w6/4K7/12/12/12 w - - 0 1"),
    ],
    "grand": [
        ("promotion zone: optional on 8 and 9, compulsory on 10",
         "r8r/1nbqkcabn1/p1pppppp1p/10/10/10/10/1PPPPPPPP1/1NBQKCAB2/R8R w - - 0 1"),
        ("pawns inside the zone, nothing captured yet",
         "r8r/1nbqkcabn1/pPpp1ppp1p/2P7/10/10/10/3PPPPPP1/1NBQKCAB2/R8R w - - 0 1"),
        ("pawn on rank 9 with a queen missing: may promote to it only",
         "r4k3r/1P8/10/10/10/10/10/10/4K5/R8R w - - 0 1"),
        ("pawn on rank 9, every kind complete: cannot step to rank 10",
         "r3k4r/1P8/10/10/10/10/10/10/1NBQKCABN1/R8R w - - 0 1"),
    ],
    "shako": [
        ("cannon captures over a hurdle",
         "c8c/ernbqkbnre/pppp1ppppp/10/4p5/10/4P5/PPPP1PPPPP/ERNBQKBNRE/C8C w IBib - 0 1"),
        ("cannon checks through a hurdle",
         "10/10/4k5/10/10/10/10/4P5/10/4C4K b - - 0 1"),
    ],
    "caparandom": [
        ("random start", "brkqacrbnn/pppppppppp/10/10/10/10/PPPPPPPPPP/BRKQACRBNN w BGbg - 0 1"),
        ("random start", "qarnbkcbnr/pppppppppp/10/10/10/10/PPPPPPPPPP/QARNBKCBNR w CJcj - 0 1"),
    ],
    "makruk": [
        ("pawns one step from promotion", "k7/8/8/3P4/4p3/8/8/7K w - - 0 1"),
    ],
}


class Fairy:
    def __init__(self, variant):
        self.p = subprocess.Popen([ENGINE], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  text=True, bufsize=1)
        self.cmd("uci", "uciok")
        self.cmd(f"setoption name UCI_Variant value {variant}")
        self.cmd("setoption name UCI_Chess960 value true")
        self.cmd("isready", "readyok")

    def cmd(self, line, until=None):
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()
        out = []
        while until:
            l = self.p.stdout.readline()
            if not l:
                raise SystemExit("fairy-stockfish stopped")
            out.append(l.rstrip("\n"))
            if l.startswith(until):
                break
        return out

    def fen(self, base, moves=()):
        self.cmd(f"position fen {base}" + (" moves " + " ".join(moves) if moves else ""))
        return next(l[5:] for l in self.cmd("d", "Checkers") if l.startswith("Fen: "))

    def divide(self, fen, depth):
        self.cmd(f"position fen {fen}")
        out = self.cmd(f"go perft {depth}", "Nodes searched")
        moves = [l.split(":")[0] for l in out if re.match(r"^\S+: \d+$", l)]
        return moves, int(out[-1].split(":")[1])

    def start(self):
        self.cmd("position startpos")
        return next(l[5:] for l in self.cmd("d", "Checkers") if l.startswith("Fen: "))


def board(fen):
    """Square name -> piece letter."""
    out = {}
    rows = fen.split()[0].split("/")
    for i, row in enumerate(rows):
        rank = len(rows) - i
        f = 0
        for tok in re.findall(r"\d+|.", row):
            if tok.isdigit():
                f += int(tok)
            else:
                out[f"{chr(97 + f)}{rank}"] = tok
                f += 1
    return out


def split(move):
    m = re.match(r"([a-z])(\d+)([a-z])(\d+)(.*)", move)
    return m.group(1) + m.group(2), m.group(3) + m.group(4), m.group(5)


def features(fen, moves):
    b = board(fen)
    white = fen.split()[1] == "w"
    own = str.isupper if white else str.islower
    found = set()
    if fen.split()[3] != "-":
        found.add("en passant")
    for mv in moves:
        fr, to, promo = split(mv)
        p, q = b.get(fr), b.get(to)
        if promo:
            found.add("promotion")
        if p and p.upper() == "K" and q and own(q):
            found.add("castling")
        if p and p.upper() == "C" and q and not own(q) and "shako" in CURRENT:
            found.add("hopper capture")
    sides = [[c for c in b.values() if c.isupper()], [c for c in b.values() if c.islower()]]
    if any(len(s) == 1 for s in sides):
        found.add("bare king")
    return found


CURRENT = []


def playout(fairy, start, rng, plies):
    """Positions along one random game, each with what it offers."""
    fen, seen = start, []
    for ply in range(plies):
        moves, _ = fairy.divide(fen, 1)
        if not moves:
            break
        seen.append((ply, fen, features(fen, moves)))
        b = board(fen)
        promos = [m for m in moves if split(m)[2]]
        captures = [m for m in moves if split(m)[1] in b]
        pick = rng.random()
        if promos and pick < 0.7:
            mv = rng.choice(promos)
        elif captures and pick < 0.75:
            mv = rng.choice(captures)
        else:
            mv = rng.choice(moves)
        fen = fairy.fen(fen, [mv])
    return seen


def usable(fen):
    """Fairy-Stockfish writes an en passant field even where there is no double step (makruk's
    `88`): such FENs are left out rather than edited."""
    ep = fen.split()[3]
    return ep == "-" or re.fullmatch(r"[a-z]\d+", ep) is not None


def counts(fairy, fen, limit):
    out = []
    for depth in range(1, 7):
        _, n = fairy.divide(fen, depth)
        out.append(n)
        if n == 0 or n * max(1, out[0]) > limit:
            break
    return out


def main():
    args = sys.argv[1:]
    seed = int(args[args.index("--seed") + 1]) if "--seed" in args else 1
    limit = int(args[args.index("--nodes") + 1]) if "--nodes" in args else 3_000_000
    print("# Perft counts from Fairy-Stockfish 11.1 (`go perft N`, UCI_Chess960 on), collected by")
    print(f"# tests/data/fairy-perft.py --seed {seed} --nodes {limit}; perft[i] is the count at depth i+1.")
    print("# `why` says what the position offers. Read by tests/fairy_perft.rs.\n")
    for v in VARIANTS:
        CURRENT[:] = [v]
        fairy = Fairy(v)
        rng = random.Random(f"{seed}-{v}")
        start = fairy.start()
        chosen = [("start", start)]
        wanted = ["castling", "en passant", "promotion", "bare king", "hopper capture"]
        for game in range(12):
            for ply, fen, found in playout(fairy, start, rng, 160):
                for w in list(wanted):
                    if w in found and ply > 2 and usable(fen):
                        chosen.append((f"{w} (random game {game}, ply {ply})", fen))
                        wanted.remove(w)
            if not wanted:
                break
        chosen += EXTRA.get(v, [])
        for why, fen in chosen:
            print("[[position]]")
            print(f'variant = "{v}"')
            print(f'why = "{why}"')
            print(f'fen = "{fen}"')
            print(f"perft = {counts(fairy, fen, limit)}\n")
        fairy.cmd("quit")


if __name__ == "__main__":
    main()
