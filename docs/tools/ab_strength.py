#!/usr/bin/env python3
"""Side-by-side strength runs: several builds (arms) play `bench --strength` on the same seeds,
interleaved, a few at a time, and a table compares them game by game.

  ab_strength.py run --out DIR --seeds 1821-1826 main=target/release/modern-chess \\
      new=/tmp/new/modern-chess [new2=BIN@WORKDIR] [--jobs 2] [-- --movetime 100 ...]
  ab_strength.py table --out DIR main new [--seeds 1821-1826]

`run` starts `BIN bench --strength --seed S --pgn DIR/ARM-S.pgn` for every seed and arm, in
the order seed by seed, arm by arm, so that the arms share the machine's load alike (a match at
a time limit depends on it); `--jobs` runs go at once (2 on a 2-core machine: each match keeps
about one core busy). An arm given as BIN@WORKDIR runs in WORKDIR, where a `variants/`
directory (variant files and `variants/weights/`) replaces the built-in ones: weights can be
tried without a build. A run whose standard error file already holds every game is skipped,
so an interrupted `run` resumes. Arguments after `--` go to every `bench --strength`.

`table` reads the `variant game N: White R Black (reason)` lines each run writes to standard
error and prints a Markdown table: points per seed and per variant, and for every arm after the
first its paired difference from the first (same seed, variant and game number, so the same
start and colours) with the standard error of that difference.
"""
import argparse
import math
import os
import re
import subprocess
import sys
import threading

VARIANTS = ["mrc", "mrc64", "merc", "icrc", "pmrc"]
LINE = re.compile(r"(\w+) game (\d+): (.+?) (1-0|0-1|1/2-1/2) (.+?) \(")


def seed_list(text):
    """`1821-1826` or `1821,1830` (or both) as a list of seeds."""
    out = []
    for part in text.split(","):
        lo, _, hi = part.partition("-")
        out.extend(range(int(lo), int(hi or lo) + 1))
    return out


def results(path):
    """{(variant, game): our points} from one run's standard error."""
    out = {}
    if not os.path.exists(path):
        return out
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            m = LINE.match(line)
            if not m:
                continue
            variant, game, white, result, _ = m.groups()
            ours_white = white.startswith("modern-chess")
            if result == "1/2-1/2":
                points = 0.5
            else:
                points = 1.0 if (result == "1-0") == ours_white else 0.0
            out[(variant, int(game))] = points
    return out


def run_one(out_dir, arm, binary, workdir, seed, extra):
    err = os.path.join(out_dir, f"{arm}-{seed}.err")
    with open(os.path.join(out_dir, f"{arm}-{seed}.txt"), "w") as txt, open(err, "w") as e:
        cmd = [binary, "bench", "--strength", "--seed", str(seed)]
        cmd += ["--pgn", os.path.join(out_dir, f"{arm}-{seed}.pgn")] + extra
        subprocess.run(cmd, cwd=workdir, stdout=txt, stderr=e, stdin=subprocess.DEVNULL)
    print(f"{arm} seed {seed}: {sum(results(err).values()):g} points", flush=True)


def parse_arm(spec):
    name, _, rest = spec.partition("=")
    binary, _, workdir = rest.partition("@")
    if not name or not binary:
        sys.exit(f"arm '{spec}': expected NAME=BINARY or NAME=BINARY@WORKDIR")
    binary = os.path.abspath(binary)
    if not os.access(binary, os.X_OK):
        sys.exit(f"arm '{name}': {binary} is not an executable file")
    return name, binary, os.path.abspath(workdir or os.getcwd())


def run(args, extra):
    out_dir = os.path.abspath(args.out)
    os.makedirs(out_dir, exist_ok=True)
    arms = [parse_arm(a) for a in args.arms]
    games = 8 * len(VARIANTS)
    todo = [
        (name, binary, workdir, seed)
        for seed in seed_list(args.seeds)
        for name, binary, workdir in arms
        if len(results(os.path.join(out_dir, f"{name}-{seed}.err"))) < games
    ]
    lock = threading.Lock()

    def worker():
        while True:
            with lock:
                if not todo:
                    return
                name, binary, workdir, seed = todo.pop(0)
            run_one(out_dir, name, binary, workdir, seed, extra)

    threads = [threading.Thread(target=worker) for _ in range(max(1, args.jobs))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    table(out_dir, [a[0] for a in arms], seed_list(args.seeds))


def table(out_dir, arms, seeds):
    runs = {(a, s): results(os.path.join(out_dir, f"{a}-{s}.err")) for a in arms for s in seeds}
    head = "| arm | " + " | ".join(map(str, seeds)) + " | " + " | ".join(
        v.upper() for v in VARIANTS) + " | in all | against the first, paired |"
    print(head)
    print("|" + "---|" * (len(seeds) + len(VARIANTS) + 3))
    for arm in arms:
        per_seed = [sum(runs[arm, s].values()) for s in seeds]
        played = [len(runs[arm, s]) for s in seeds]
        per_variant = [
            (sum(p for s in seeds for (v, _), p in runs[arm, s].items() if v == var),
             sum(1 for s in seeds for (v, _) in runs[arm, s] if v == var))
            for var in VARIANTS
        ]
        total = sum(per_seed)
        n = sum(played)
        pct = 100 * total / n if n else 0
        cells = [f"{p:g}" if k == 8 * len(VARIANTS) else f"{p:g}/{k}"
                 for p, k in zip(per_seed, played)]
        cells += [f"{p:g}/{k}" for p, k in per_variant]
        print(f"| {arm} | " + " | ".join(cells) + f" | {total:g}/{n} ({pct:.1f}%) | "
              + paired(runs, arms[0], arm, seeds) + " |")


def paired(runs, base, arm, seeds):
    """The sum of per-game differences from `base` over the games both played, ± its SE."""
    if arm == base:
        return ""
    diffs = [runs[arm, s][k] - runs[base, s][k]
             for s in seeds for k in runs[arm, s] if k in runs[base, s]]
    if len(diffs) < 2:
        return "too few games"
    mean = sum(diffs) / len(diffs)
    var = sum((d - mean) ** 2 for d in diffs) / (len(diffs) - 1)
    return f"{sum(diffs):+g} ± {math.sqrt(var * len(diffs)):.1f} in {len(diffs)} games"


def main():
    argv = sys.argv[1:]
    extra = []
    if "--" in argv:
        i = argv.index("--")
        argv, extra = argv[:i], argv[i + 1:]
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("run", help="play the runs, then print the table")
    r.add_argument("--out", required=True, help="directory for the PGN and log files")
    r.add_argument("--seeds", required=True, help="e.g. 1821-1826 or 1821,1825")
    r.add_argument("--jobs", type=int, default=2, help="runs at once (default 2)")
    r.add_argument("arms", nargs="+", help="NAME=BINARY or NAME=BINARY@WORKDIR; the first is the base")
    t = sub.add_parser("table", help="print the table of finished runs")
    t.add_argument("--out", required=True)
    t.add_argument("--seeds", required=True)
    t.add_argument("arms", nargs="+", help="arm names; the first is the base")
    args = ap.parse_args(argv)
    if args.cmd == "run":
        run(args, extra)
    else:
        table(os.path.abspath(args.out), args.arms, seed_list(args.seeds))


if __name__ == "__main__":
    main()
