#!/usr/bin/env python3
"""Match records as a teacher's games: split `match --pgn` / `bench --strength --pgn` files by
variant and cut each game before it is decided, for `modern-chess tune --games 0 --imitate FILE
--teacher NAME` (which then learns only NAME's moves: Fairy-Stockfish's, say, in the positions
our engine's games reach).

  match_teacher.py --out teacher bench-*.pgn    (writes teacher-mrc.pgn, teacher-merc.pgn, ...)

A game is kept up to the first move whose comment scores beyond --max-score pawns either way
(`{+4.52/12 0.102s 77824n}`, as `match` writes them; mates count as decided): past that point
the moves only convert a won game. The variant comes from each game's [Variant] tag.
"""
import argparse
import re
import sys

TAG = re.compile(r'^\[(\w+) "(.*)"\]\s*$')
TOKEN = re.compile(r"\{[^}]*\}|\S+")
SCORE = re.compile(r"^\{\s*([+-]?)(#?)(\d+(?:\.\d+)?)")
RESULTS = {"1-0", "0-1", "1/2-1/2", "*"}


def games(text):
    """(tags, movetext) for every game of a PGN text."""
    tags, moves, out = [], [], []
    for line in text.splitlines():
        m = TAG.match(line)
        if m:
            if moves:
                out.append((tags, " ".join(moves)))
                tags, moves = [], []
            tags.append(m.groups())
        elif line.strip():
            moves.append(line.strip())
    if tags:
        out.append((tags, " ".join(moves)))
    return out


def decided(comment, max_score):
    """Does an engine's comment score the position as won or lost (beyond max_score pawns)?"""
    m = SCORE.match(comment)
    if not m:
        return False
    _sign, mate, value = m.groups()
    return bool(mate) or float(value) > max_score


def cut(movetext, max_score):
    """The moves (SAN, no numbers or comments) before the first decided score."""
    kept = []
    for tok in TOKEN.findall(movetext):
        if tok.startswith("{"):
            if decided(tok, max_score):
                kept.pop()
                break
        elif tok in RESULTS or re.match(r"^\d+\.+$", tok):
            continue
        else:
            kept.append(re.sub(r"^\d+\.+", "", tok))
    return kept


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("pgn", nargs="+")
    ap.add_argument("--out", required=True, help="prefix of the files written, one per variant")
    ap.add_argument("--max-score", type=float, default=4.0, help="pawns")
    a = ap.parse_args()
    per_variant = {}
    for path in a.pgn:
        with open(path, encoding="utf-8") as f:
            for tags, movetext in games(f.read()):
                t = dict(tags)
                variant = t.get("Variant", "").lower()
                moves = cut(movetext, a.max_score)
                if not variant or not moves:
                    continue
                keep = [(k, v) for k, v in tags if k in ("Event", "White", "Black", "Variant", "SetUp", "FEN")]
                head = "".join(f'[{k} "{v}"]\n' for k, v in keep) + '[Result "*"]\n'
                per_variant.setdefault(variant, []).append(head + "\n" + " ".join(moves) + " *\n")
    for variant, recs in sorted(per_variant.items()):
        name = f"{a.out}-{variant}.pgn"
        with open(name, "w", encoding="utf-8") as f:
            f.write("\n".join(recs))
        print(f"{name}: {len(recs)} games", file=sys.stderr)


if __name__ == "__main__":
    main()
