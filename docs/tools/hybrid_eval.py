#!/usr/bin/env python3
"""Our static evaluation with some of its term groups replaced by Fairy-Stockfish's: a UCI
"engine" whose `eval` prints `Total evaluation: X (white side)`, for `--eval-with`, so a match
can tell which of Fairy-Stockfish's terms carries the points its whole evaluation wins in our
search (`bench --strength --eval-with /usr/games/fairy-stockfish` shows the whole).

  hybrid_eval.py --ours BIN [--swap "king=King safety"]... [--scale 1.18] [--fairy CMD]

Each `--swap OURS=THEIRS` takes our group OURS (a row of our `eval` table: material, king,
mobility, threat, pawn, passed, ...) out of our total and puts Fairy-Stockfish's term THEIRS
(a row of its `eval` table: Material, King safety, Mobility, Threats, Space, ...) in, its
centipawns divided by --scale (its centipawn is about 1.18 of ours), both blended by our game
phase. Without a swap the total is ours. Every other command goes to Fairy-Stockfish, whose
options (UCI_Variant, VariantPath) it reports as its own, so `bench`/`uci` configure it as
they would Fairy-Stockfish. Two engines and a Python loop per evaluation: about 2,000-3,000
evaluations a second, so keep the node counts small (8,000-16,000 a move).

Use it through a wrapper script, as `--eval-with` takes a command without quoting:
  printf '#!/bin/sh\\nexec python3 docs/tools/hybrid_eval.py --ours target/release/modern-chess --swap "king=King safety"\\n' > hk.sh
  target/release/modern-chess bench --strength --variants mrc,pmrc --nodes 16000 --engine-nodes 12500 --eval-with ./hk.sh
Python 3, no packages.
"""
import argparse
import re
import subprocess
import sys

OUR_ROW = re.compile(r"^(\w+)\s+-?\d+\s+-?\d+\s+-?\d+\s+-?\d+\s+(-?\d+)\s+(-?\d+)$")
THEIR_ROW = re.compile(r"^\s*([A-Za-z ]+?)\s*\|.*\|.*\|\s*([-\d.]+)\s+([-\d.]+)\s*$")


class Engine:
    def __init__(self, cmd):
        self.p = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  text=True, bufsize=1)

    def send(self, line):
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()

    def until(self, prefix):
        lines = []
        while True:
            line = self.p.stdout.readline()
            if not line:
                sys.exit("hybrid_eval: an engine ended")
            lines.append(line.rstrip("\n"))
            if line.startswith(prefix):
                return lines


def hybrid(ours_lines, their_lines, swaps, scale):
    """Our total in centipawns from White's side with the swaps made; None in check."""
    if any("none" in l for l in their_lines if l.startswith("Total evaluation")):
        return None
    groups, terms, phase, total = {}, {}, 256, None
    for line in ours_lines:
        m = OUR_ROW.match(line.strip())
        if m:
            groups[m.group(1)] = (int(m.group(2)), int(m.group(3)))
        if line.startswith("phase"):
            phase = int(line.split()[1])
        if line.startswith("Total evaluation"):
            total = float(line.split()[2]) * 100
    for line in their_lines:
        m = THEIR_ROW.match(line)
        if m:
            terms[m.group(1).strip()] = (float(m.group(2)) * 100, float(m.group(3)) * 100)
    if total is None:
        return None

    def blend(mg, eg):
        return (mg * phase + eg * (256 - phase)) / 256

    for ours, theirs in swaps:
        total -= blend(*groups.get(ours, (0, 0)))
        total += blend(*terms.get(theirs, (0, 0))) / scale
    return total


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--ours", required=True, help="our binary")
    ap.add_argument("--swap", action="append", default=[], help="OURS=THEIRS")
    ap.add_argument("--scale", type=float, default=1.18)
    ap.add_argument("--fairy", default="/usr/games/fairy-stockfish")
    a = ap.parse_args()
    swaps = [tuple(s.split("=", 1)) for s in a.swap]
    if any(len(s) != 2 for s in swaps):
        sys.exit("hybrid_eval: --swap takes OURS=THEIRS")
    fsf, ours = Engine(a.fairy.split()), Engine([a.ours, "uci"])
    ours.send("uci")
    ours.until("uciok")
    for line in sys.stdin:
        line = line.strip()
        if line == "uci":
            fsf.send("uci")
            print("id name hybrid_eval")
            for l in fsf.until("uciok"):
                if l.startswith("option"):
                    print(l)
            print("uciok", flush=True)
        elif line == "isready":
            for e in (fsf, ours):
                e.send("isready")
                e.until("readyok")
            print("readyok", flush=True)
        elif line.startswith("position"):
            fsf.send(line)
            ours.send(line)
        elif line == "eval":
            fsf.send("eval")
            ours.send("eval")
            v = hybrid(ours.until("Total evaluation"), fsf.until("Total evaluation"), swaps,
                       a.scale)
            text = "none (in check)" if v is None else "%.2f (white side)" % (v / 100)
            print("Total evaluation: " + text, flush=True)
        elif line == "quit":
            break
        else:
            fsf.send(line)
            m = re.match(r"setoption name UCI_Variant value (\S+)", line)
            if m:
                ours.send(line)
    for e in (fsf, ours):
        e.send("quit")


if __name__ == "__main__":
    main()
