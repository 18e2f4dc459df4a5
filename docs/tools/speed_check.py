#!/usr/bin/env python3
"""Is a build faster, and does it still search the same tree? (Python 3, no packages.)

Searches each position of docs/tools/speed_positions.txt (`variant|FEN`, 20 positions from
Fairy-Stockfish matches: plies 10 and 30 of two games per seed variant) with `go nodes N` in a
fresh `BIN uci --variant V` process, and reports

- a digest of every search's best move and last node count: a change meant to make the search
  faster without changing it must leave the digest as it was;
- the user seconds all the searches took.

  speed_check.py digest BIN [--nodes 200000]
  speed_check.py pair BASE NEW [--rounds 4] [--nodes 200000]
      (BASE and NEW side by side, one per core, the cores swapped every round: on a shared
      machine the load changes from minute to minute, and running the two together lets both
      see the same; prints NEW's time over BASE's per round and their mean)
  speed_check.py instructions BIN [--nodes 30000]
      (instructions executed, counted by valgrind's cachegrind: steadier than time, though
      fewer instructions are not always less time)

A single timing here varies by a few per cent from run to run; a speed-up smaller than that
needs several rounds of `pair`.
"""

import argparse
import hashlib
import os
import re
import subprocess
import sys
import threading

HERE = os.path.dirname(os.path.abspath(__file__))
POSITIONS = os.path.join(HERE, "speed_positions.txt")


def positions():
    with open(POSITIONS) as f:
        return [tuple(line.strip().split("|", 1)) for line in f if "|" in line]


def search(cmd, variant, fen, nodes, core=None):
    """One search in a fresh process: (best move, last node count, user seconds, what the
    process wrote to standard error)."""
    pre = (lambda: os.sched_setaffinity(0, {core})) if core is not None else None
    p = subprocess.Popen(cmd + ["uci", "--variant", variant], stdin=subprocess.PIPE,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                         bufsize=1, preexec_fn=pre)
    p.stdin.write(f"uci\nposition fen {fen}\ngo nodes {nodes}\n")
    p.stdin.flush()
    last_nodes, best = None, None
    for line in p.stdout:
        m = re.search(r"\bnodes (\d+)", line)
        if line.startswith("info depth") and m:
            last_nodes = int(m.group(1))
        if line.startswith("bestmove"):
            best = line.split()[1]
            break
    p.stdin.write("quit\n")
    p.stdin.close()
    p.stdout.close()
    err = p.stderr.read()
    p.stderr.close()
    _, status, usage = os.wait4(p.pid, 0)
    p.returncode = os.waitstatus_to_exitcode(status)
    if best is None:
        sys.exit(f"{' '.join(cmd)}: no bestmove for {variant} {fen} (exit {p.returncode})")
    return best, last_nodes, usage.ru_utime, err


def run_all(cmd, nodes, core=None):
    """(digest, user seconds) over every position."""
    h = hashlib.md5()
    total = 0.0
    for variant, fen in positions():
        best, n, secs, _ = search(cmd, variant, fen, nodes, core)
        h.update(f"{best} {n}\n".encode())
        total += secs
    return h.hexdigest()[:8], total


def pair(base, new, rounds, nodes):
    ratios = []
    for r in range(rounds):
        cores = (0, 1) if r % 2 == 0 else (1, 0)
        out = {}

        def one(name, cmd, core):
            out[name] = run_all(cmd, nodes, core)

        threads = [threading.Thread(target=one, args=("base", base, cores[0])),
                   threading.Thread(target=one, args=("new", new, cores[1]))]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        (db, tb), (dn, tn) = out["base"], out["new"]
        ratios.append(tn / tb)
        print(f"round {r + 1}: base {db} {tb:.2f} s, new {dn} {tn:.2f} s, ratio {tn / tb:.3f}",
              flush=True)
    print(f"mean ratio {sum(ratios) / len(ratios):.3f} over {rounds} rounds")


def instructions(cmd, nodes):
    vg = ["valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null"]
    h = hashlib.md5()
    total = 0
    for variant, fen in positions():
        best, n, _, err = search(vg + cmd, variant, fen, nodes)
        m = re.search(r"I\s+refs:\s+([\d,]+)", err)
        if not m:
            sys.exit(f"valgrind gave no count for {variant}: {err[-300:]}")
        total += int(m.group(1).replace(",", ""))
        h.update(f"{best} {n}\n".encode())
    print(f"{h.hexdigest()[:8]} {total:,} instructions")


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    d = sub.add_parser("digest")
    d.add_argument("bin")
    d.add_argument("--nodes", type=int, default=200000)
    p = sub.add_parser("pair")
    p.add_argument("base")
    p.add_argument("new")
    p.add_argument("--rounds", type=int, default=4)
    p.add_argument("--nodes", type=int, default=200000)
    i = sub.add_parser("instructions")
    i.add_argument("bin")
    i.add_argument("--nodes", type=int, default=30000)
    a = ap.parse_args()
    if a.cmd == "digest":
        digest, secs = run_all([a.bin], a.nodes)
        print(f"{digest} {secs:.2f} s")
    elif a.cmd == "pair":
        pair([a.base], [a.new], a.rounds, a.nodes)
    else:
        instructions([a.bin], a.nodes)


if __name__ == "__main__":
    main()
