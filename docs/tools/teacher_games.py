#!/usr/bin/env python3
"""Fairy-Stockfish 11.1 self-play games from random start positions, as PGN, for
`modern-chess tune --games 0 --imitate FILE` (the teacher's moves to learn from).

  teacher_games.py --bin target/release/modern-chess --variants mrc,pmrc --games 300 \\
      --nodes 12000 --seed 1 --out teacher     (writes teacher-mrc.pgn, teacher-pmrc.pgn)

Each game starts from `positions --random` (a new start per game), Fairy-Stockfish plays both
sides at --nodes a move, and the record stops before the first move it scores beyond
--max-score centipawns either way (decided positions teach little about judgement) or at 200
plies. Moves are written as coordinates (`e2e4`), which `tune` and `replay` read. About one
game every 3 seconds per process on the 2-core machine at 12,000 nodes; run one process per core.
"""
import argparse
import os
import random
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from acpl import FSF, INI, Engine  # noqa: E402


def play(engine, start, nodes, max_score):
    """One game's moves up to the first decided score."""
    engine.send("ucinewgame")
    moves = []
    for _ in range(200):
        engine.send("isready")
        engine.until("readyok")
        engine.send(f"position fen {start}" + (" moves " + " ".join(moves) if moves else ""))
        engine.send(f"go nodes {nodes}")
        lines = engine.until("bestmove")
        move = lines[-1].split()[1]
        if move in ("(none)", "0000"):
            break
        score = 0
        for line in lines:
            m = re.search(r"score (cp|mate) (-?\d+)", line)
            if m and " bound" not in line:
                score = int(m.group(2)) if m.group(1) == "cp" else 100000
        if abs(score) > max_score:
            break
        moves.append(move)
    return moves


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bin", default="target/release/modern-chess")
    ap.add_argument("--variants", default="mrc,mrc64,merc,pmrc")
    ap.add_argument("--games", type=int, default=300, help="games per variant")
    ap.add_argument("--nodes", type=int, default=12000)
    ap.add_argument("--max-score", type=int, default=400)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", default="teacher")
    args = ap.parse_args()
    rng = random.Random(args.seed)
    for v in args.variants.split(","):
        engine = Engine(FSF, v, INI)
        with open(f"{args.out}-{v}.pgn", "a") as f:
            for g in range(args.games):
                seed = str(rng.randrange(1 << 30))
                r = subprocess.run([args.bin, "positions", "--variant", v, "--random", "--seed", seed],
                                   capture_output=True, text=True, check=True)
                start = r.stdout.strip().splitlines()[-1]
                moves = play(engine, start, args.nodes, args.max_score)
                if len(moves) < 4:
                    continue
                body = " ".join((f"{i // 2 + 1}. " if i % 2 == 0 else "") + m for i, m in enumerate(moves))
                f.write(f'[Event "teacher"]\n[Round "{g + 1}"]\n[White "Fairy-Stockfish"]\n'
                        f'[Black "Fairy-Stockfish"]\n[Variant "{v}"]\n[SetUp "1"]\n'
                        f'[FEN "{start}"]\n[Result "*"]\n\n{body} *\n\n')
                f.flush()
        engine.quit()


if __name__ == "__main__":
    main()
