#!/usr/bin/env python3
"""Which of Fairy-Stockfish's evaluation terms our evaluation misses.

Both engines' `eval` commands print their static evaluation split into terms (Fairy-Stockfish
11.1: Material, Imbalance, Pawns, ..., King safety, Threats, Space, Initiative; ours: material,
centre, rank, mobility, king, ...). On a set of positions (the `positions.json` that
`acpl.py positions` writes), this tool fits Fairy-Stockfish's total by least squares on our
term groups (middlegame and endgame parts, tapered by our phase) and reports, for each of
Fairy-Stockfish's terms, the share of the remaining difference's variance it explains: the
largest share is the judgement our terms cannot express, whatever weights a fit gives them.

  eval_terms.py collect --bin target/release/modern-chess [--dir target/acpl]
  eval_terms.py report [--dir target/acpl]

Needs numpy (`pip install numpy`) for the report.
"""
import argparse
import json
import os
import re
import subprocess

FSF = "/usr/games/fairy-stockfish"
HERE = os.path.dirname(os.path.abspath(__file__))
INI = os.path.normpath(os.path.join(HERE, "../../../shared/tools/fairy-variants.ini"))
FAIRY = {"mrc": "mrc", "mrc64": "mrc64", "merc": "merc", "icrc": "merc", "pmrc": "pmrc"}
FSF_ROW = re.compile(r"\s*([A-Za-z ]+?)\s*\|.*\|\s*(-?[\d.]+)\s+(-?[\d.]+)\s*$")


class Engine:
    def __init__(self, cmd):
        self.p = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=subprocess.DEVNULL, text=True, bufsize=1)

    def send(self, line):
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()

    def eval_lines(self, fen):
        """The lines of `eval` for one position, up to `Total evaluation`."""
        self.send("position fen " + fen)
        self.send("eval")
        out = []
        while True:
            line = self.p.stdout.readline()
            if not line:
                raise RuntimeError("engine died")
            out.append(line)
            if line.startswith("Total evaluation"):
                return out

    def quit(self):
        self.send("quit")
        self.p.wait()


def fsf_terms(lines):
    """Fairy-Stockfish's term table (White minus Black, centipawns) and its total."""
    terms = {}
    for line in lines:
        m = FSF_ROW.match(line)
        if m and m.group(1) != "Term":
            terms[m.group(1)] = (float(m.group(2)) * 100, float(m.group(3)) * 100)
    total = lines[-1].split()[2]
    return terms, None if total == "none" else float(total) * 100


def our_terms(lines):
    """Our group table (White minus Black), phase share and total."""
    terms, phase = {}, None
    for line in lines:
        w = line.split()
        if len(w) == 7 and re.fullmatch(r"-?\d+", w[5]):
            terms[w[0]] = (int(w[5]), int(w[6]))
        if line.startswith("phase"):
            phase = int(w[1]) / int(w[3])
    return terms, phase, float(lines[-1].split()[2]) * 100


def collect(args):
    positions = json.load(open(os.path.join(args.dir, "positions.json")))
    by_variant = {}
    for v, fen in positions:
        by_variant.setdefault(v, []).append(fen)
    rows = []
    for v, fens in by_variant.items():
        fsf = Engine([FSF])
        fsf.send(f"setoption name VariantPath value {args.ini}")
        fsf.send(f"setoption name UCI_Variant value {FAIRY.get(v, v)}")
        ours = Engine([args.bin, "uci", "--variant", v])
        for fen in fens:
            ft, ftot = fsf_terms(fsf.eval_lines(fen))
            if ftot is None:
                continue
            ot, phase, otot = our_terms(ours.eval_lines(fen))
            rows.append(dict(v=v, fen=fen, ftot=ftot, ft=ft, otot=otot, ot=ot, ph=phase))
        fsf.quit()
        ours.quit()
    json.dump(rows, open(os.path.join(args.dir, "eval_terms.json"), "w"))
    print(f"{len(rows)} positions")


def report(args):
    import numpy as np

    rows = json.load(open(os.path.join(args.dir, "eval_terms.json")))
    rows = [r for r in rows if abs(r["ftot"]) < 1500]
    ours = sorted({k for r in rows for k in r["ot"]})
    theirs = sorted({k for r in rows for k in r["ft"]} - {"Total"})

    def tapered(pair, ph):
        return pair[0] * ph + pair[1] * (1 - ph)

    for name in ["all"] + sorted({r["v"] for r in rows}):
        sel = [r for r in rows if name in ("all", r["v"])]
        y = np.array([r["ftot"] for r in sel])
        o = np.array([r["otot"] for r in sel])
        x = np.array([[r["ot"].get(k, (0, 0))[i] * (r["ph"] if i == 0 else 1 - r["ph"])
                       for k in ours for i in (0, 1)] + [1] for r in sel])
        beta, *_ = np.linalg.lstsq(x, y, rcond=None)
        rest = y - x @ beta
        print(f"{name}: {len(sel)} positions, correlation {np.corrcoef(o, y)[0, 1]:.3f}, "
              f"residual after a refit of our groups {rest.std():.0f} cp "
              f"(Fairy-Stockfish's spread {y.std():.0f})")
        if name != "all":
            continue
        shares = []
        for k in theirs:
            t = np.array([tapered(r["ft"].get(k, (0, 0)), r["ph"]) for r in sel])
            if t.std() > 0:
                shares.append((np.corrcoef(t, rest)[0, 1] ** 2, k, t.std()))
        for share, k, sd in sorted(shares, reverse=True):
            print(f"  {k:12s} spread {sd:6.1f} cp, explains {share:.1%} of the residual")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--dir", default="target/acpl")
    sub = ap.add_subparsers(dest="cmd", required=True)
    c = sub.add_parser("collect")
    c.add_argument("--bin", required=True)
    c.add_argument("--ini", default=INI)
    sub.add_parser("report")
    args = ap.parse_args()
    collect(args) if args.cmd == "collect" else report(args)


if __name__ == "__main__":
    main()
