#!/usr/bin/env python3
"""When were the games decided? Reads `match`/`bench --strength --pgn` records (each move's
comment starts with its engine's score, `{+0.27/13 ...}`) and prints, by ply, both engines'
average scores of the game from our side, and for every game we lost the ply from which the
opponent's own scores called it won for good.

  decided.py [--ours modern-chess] [--won 2.0] [--held 1.0] [--bucket 8] [--until 80] GAMES.pgn...

A lost game counts as decided at the first ply where the opponent's score (from our side) is
at or below -WON pawns and stays at or below -HELD pawns for the rest of the game. The scores
are each engine's own search results, so they carry its contempt and its misjudgements: read
them as where the stronger engine saw the game turn, not as truth. Python 3, no packages.
"""
import argparse
import collections
import re
import statistics

SCORE = re.compile(r"\{([+-]?[0-9.]+|[+-]?M\d+)/\d+[^}]*\}")
TAG = re.compile(r'\[(\w+) "([^"]*)"\]')
CLIP = 5.0


def games(path):
    """(variant, we play White, our points, [score of each ply from its mover's side])."""
    with open(path, encoding="utf-8", errors="replace") as f:
        text = f.read()
    for record in text.split("[Event ")[1:]:
        tags = dict(TAG.findall("[Event " + record))
        body = record.split("\n\n", 1)[1] if "\n\n" in record else ""
        scores = []
        for m in SCORE.finditer(body):
            v = m.group(1)
            if "M" in v:
                scores.append(-CLIP if v.startswith("-") else CLIP)
            else:
                scores.append(max(-CLIP, min(CLIP, float(v))))
        yield tags, scores


def our_points(tags, ours_white):
    result = tags.get("Result", "*")
    if result == "1/2-1/2":
        return 0.5
    if result not in ("1-0", "0-1"):
        return None
    return 1.0 if (result == "1-0") == ours_white else 0.0


def decided_at(scores, ours_white, won, held):
    """First ply from which the opponent's scores say we are lost for good, or None."""
    theirs = [(p, -s) for p, s in enumerate(scores) if (p % 2 == 0) != ours_white]
    for i, (ply, v) in enumerate(theirs):
        if v <= -won and all(x <= -held for _, x in theirs[i:]):
            return ply
    return None


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("pgn", nargs="+")
    ap.add_argument("--ours", default="modern-chess", help="our engine's name starts with this")
    ap.add_argument("--won", type=float, default=2.0)
    ap.add_argument("--held", type=float, default=1.0)
    ap.add_argument("--bucket", type=int, default=8, help="plies per row of the score table")
    ap.add_argument("--until", type=int, default=80, help="the score table's last ply")
    args = ap.parse_args()

    views = collections.defaultdict(lambda: ([], []))  # bucket -> (our scores, theirs)
    per_variant = collections.defaultdict(lambda: [0, 0.0, 0, []])
    for path in args.pgn:
        for tags, scores in games(path):
            ours_white = tags.get("White", "").startswith(args.ours)
            if not ours_white and not tags.get("Black", "").startswith(args.ours):
                continue
            points = our_points(tags, ours_white)
            if points is None:
                continue
            for ply, s in enumerate(scores[: args.until]):
                our_move = (ply % 2 == 0) == ours_white
                views[ply // args.bucket][0 if our_move else 1].append(s if our_move else -s)
            row = per_variant[tags.get("Variant", "?")]
            row[0] += 1
            row[1] += points
            if points == 0.0:
                row[2] += 1
                d = decided_at(scores, ours_white, args.won, args.held)
                if d is not None:
                    row[3].append(d)

    print("| plies | our score, our moves | their score of us, their moves | difference |")
    print("|---|---|---|---|")
    for b in sorted(views):
        ours, theirs = views[b]
        if not ours or not theirs:
            continue
        o, t = statistics.mean(ours), statistics.mean(theirs)
        lo = b * args.bucket
        print(f"| {lo}-{lo + args.bucket - 1} | {o:+.2f} | {t:+.2f} | {o - t:+.2f} |")
    print()
    print(f"| variant | games | our points | losses | decided (their score <= -{args.won:g}, "
          f"then <= -{args.held:g}) | by ply 20 | by ply 40 | median ply |")
    print("|---|---|---|---|---|---|---|---|")
    all_d, all_losses = [], 0
    for v, (n, pts, losses, ds) in sorted(per_variant.items()):
        all_d += ds
        all_losses += losses
        print(row_text(v, n, pts, losses, ds))
    total_games = sum(r[0] for r in per_variant.values())
    total_points = sum(r[1] for r in per_variant.values())
    print(row_text("all", total_games, total_points, all_losses, all_d))


def row_text(name, n, pts, losses, ds):
    by20 = sum(1 for d in ds if d < 20)
    by40 = sum(1 for d in ds if d < 40)
    med = f"{statistics.median(ds):g}" if ds else "-"
    return f"| {name} | {n} | {pts:g} | {losses} | {len(ds)} | {by20} | {by40} | {med} |"


if __name__ == "__main__":
    main()
