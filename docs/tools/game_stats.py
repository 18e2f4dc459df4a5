#!/usr/bin/env python3
"""Where the points go: statistics over `match` / `bench --strength --pgn` records, read from
each move's comment (`{+0.27/13 0.102s 93184n}`: the mover's own search score, its depth).

  game_stats.py bias GAMES.pgn...
      Both engines' average scores from White's side, by ply, split by which engine has
      White: an engine whose reported score leans to the side to move shows it here (the
      forty-second session found Fairy-Stockfish 11.1's about 0.4 pawns to the side to move).
  game_stats.py conversion GAMES.pgn...
      For thresholds of 1.5, 2, 3 and 5 pawns: how many games each engine's own score reached
      it, and what that engine scored in them; and what we scored where the opponent's own
      score had us that far ahead.
  game_stats.py moves GAMES.pgn...
      What each of our moves cost by the opponent's judgement, by kind of move and phase: its
      score before its move against its score before its next move (which takes in our move
      between), so its side-to-move lean cancels. Positions it already calls beyond 2.5
      pawns are left out.
  game_stats.py disagree --bin target/release/modern-chess GAMES.pgn...
      Both engines' static evaluations split into term groups (their `eval` commands), in
      positions after our move where our score was +1 or more and the opponent's -0.2 or
      less from our side (D), against a random sample of all positions after our moves
      within 3 pawns (C), plies 20-120: the group whose difference grows most from C to D
      is where our evaluation is too optimistic. Needs Fairy-Stockfish 11.1 at
      /usr/games/fairy-stockfish and ../shared/tools/fairy-variants.ini.

  game_stats.py drift --bin target/release/modern-chess GAMES.pgn...
      Fairy-Stockfish's middlegame evaluation terms from our side at plies 0, 12, 24 and
      40, averaged over the games: where and how early we fall behind by its judgement
      (the forty-third session: Space −13 cp by ply 12, King safety −21 by ply 24 and −75
      by ply 40). Needs Fairy-Stockfish as `disagree` does.

  game_stats.py foresight GAMES.pgn...
      In the games we lost: the move where our own score fell below -1.5 for good (never
      back above -1), and both engines' scores (each from its own side) 8, 4 and 1 of our
      moves before it. The forty-fourth session: Fairy-Stockfish was at +2.0 eight moves
      before, we at -0.2: it sees the loss coming long before we do.
  game_stats.py habits GAMES.pgn...
      Per variant and engine, over each side's first ten moves: the share of pawn moves, of
      pawn moves on the central three files, of captures, and how many games that engine
      castled in its first thirty moves (the forty-fourth session: Fairy-Stockfish castles in
      about three MRC/MRC64/PMRC games of four, we in two of five, and it plays twice our
      central pawn moves).
  game_stats.py roaming --bin target/release/modern-chess GAMES.pgn...
      Per variant and engine, over each side's first twenty moves: the share of moves made
      by a piece (not a pawn or the king), and of those, the share that moved a piece for
      the second time or more, and for the third time or more (pieces followed from square
      to square through the game's positions; the forty-fifth session: our pieces move a
      third time in 23-31% of our piece moves, Fairy-Stockfish's in 18-25%).

  game_stats.py thrown GAMES.pgn...
      The games the opponent's own score once had us 2 pawns or more ahead that we did not
      win: per variant, how many, in how many one of our later moves let its score for
      itself rise by a pawn or more at once (the first such move: our own score then, the
      rise, and whether its reply captured), and the sums of its score's rises and falls
      over our moves from that point, per game (scores clipped to 10 pawns) (the forty-seventh session: 209 of
      232 such games have that move, our own score at it +1.96 in the median, three replies
      in four quiet: positional misjudgement rather than a missed tactic).

  game_stats.py blunders --bin BIN [--configs "@100;@1000;lmr@100"] GAMES.pgn...
      A suite of our worst moves: per game (shuffled, seed 7, at most --count), the first of
      our moves at plies 16-90 after which the opponent's own score for itself rose by 1.5
      or more from within a pawn of level. Each configuration (`OFF@MS`: the value of the
      environment variable MC_OFF, read by a build with
      docs/experiments/search/pruning-toggles.patch, and a move time) searches the position
      before that move afresh; Fairy-Stockfish judges its choice at 300 ms. Prints per
      configuration the judged score after our move (mean, from our side) and how many
      choices stay within a pawn: which pruning, if any, hides what the opponent saw (the
      forty-sixth session: none; ten times the time gained 37 cp).

Our engine is the player whose name starts with --ours (default `modern-chess`). Python 3,
no packages.
"""
import argparse
import collections
import os
import random
import re
import statistics
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
FSF = "/usr/games/fairy-stockfish"
INI = os.path.normpath(os.path.join(HERE, "../../../shared/tools/fairy-variants.ini"))
SCORE = re.compile(r"([^\s{}]+)\s*\{([+-]?[\d.]+|[+-]?M\d+|[+-]?#\d+)/(\d+)")
RESULT = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}


class Game:
    """One game: its tags, whether we had White, our result, and per ply (SAN, score)."""

    def __init__(self, text, ours):
        self.text = "[Event " + text
        self.tags = dict(re.findall(r'\[(\w+) "([^"]*)"\]', text))
        self.we_white = self.tags.get("White", "").startswith(ours)
        r = RESULT.get(self.tags.get("Result"))
        self.result = None if r is None else (r if self.we_white else 1 - r)
        body = text.split("\n\n", 1)[1] if "\n\n" in text else ""
        self.plies = []
        for san, score, _depth in SCORE.findall(body):
            san = re.sub(r"^\d+\.+", "", san)
            self.plies.append((san, parse_score(score)))

    def ours(self, ply):
        """Is `ply` (0-based) one of our moves?"""
        return (ply % 2 == 0) == self.we_white


def parse_score(s):
    try:
        return float(s)
    except ValueError:
        return -99.0 if s.startswith("-") else 99.0


def load(paths, ours):
    games = []
    for p in paths:
        with open(p) as f:
            for chunk in f.read().split("[Event ")[1:]:
                g = Game(chunk, ours)
                if g.result is not None:
                    games.append(g)
    return games


def bias(games):
    by = collections.defaultdict(list)
    for g in games:
        for i, (_, v) in enumerate(g.plies[:24]):
            v = max(-20.0, min(20.0, v))  # a mate counts as 20 pawns here
            white_view = v if i % 2 == 0 else -v
            who = "ours" if g.ours(i) else "theirs"
            by[(who, g.we_white, i)].append(white_view)
    for who in ("theirs", "ours"):
        for we_white in (True, False):
            cells = [
                f"{i}:{statistics.mean(by[(who, we_white, i)]):+.2f}"
                for i in range(24)
                if by[(who, we_white, i)]
            ]
            side = "we have White" if we_white else "we have Black"
            print(f"{who:6s} scores, White's side, {side}: {' '.join(cells)}")


def conversion(games):
    for th in (1.5, 2, 3, 5):
        ours_up = [g for g in games if max((v for i, (_, v) in enumerate(g.plies) if g.ours(i)), default=0) >= th]
        theirs_up = [g for g in games if max((v for i, (_, v) in enumerate(g.plies) if not g.ours(i)), default=0) >= th]
        they_say_we = [g for g in games if min((v for i, (_, v) in enumerate(g.plies) if not g.ours(i)), default=0) <= -th]
        def pct(n, d):
            return f"{100 * n / d:.0f}%" if d else "-"
        s1 = sum(g.result for g in ours_up)
        s2 = sum(1 - g.result for g in theirs_up)
        s3 = sum(g.result for g in they_say_we)
        print(
            f"+{th}: our own score reached it in {len(ours_up)} games, we scored {s1} ({pct(s1, len(ours_up))}); "
            f"theirs in {len(theirs_up)}, they scored {s2} ({pct(s2, len(theirs_up))}); "
            f"their score had us there in {len(they_say_we)}, we scored {s3} ({pct(s3, len(they_say_we))})"
        )


def thrown(games, lead=2.0, rise=1.0):
    """Games the opponent's own score had us `lead` ahead that we did not win: where its
    score for itself first rose by `rise` or more over one of our moves."""
    per = collections.defaultdict(lambda: [0, 0, [], [], 0, 0.0, 0.0])
    for g in games:
        theirs = [(i, v) for i, (_, v) in enumerate(g.plies) if not g.ours(i)]
        start = next((i for i, v in theirs if v <= -lead), None)
        if start is None or g.result == 1.0:
            continue
        row = per[g.tags.get("Variant", "?")]
        row[0] += 1
        first = True
        for (i, before), (j, after) in zip(theirs, theirs[1:]):
            if i < start or j != i + 2:
                continue
            # Clipped, so a mate score found late does not swamp the sums.
            delta = max(-10.0, min(10.0, after)) - max(-10.0, min(10.0, before))
            row[5 if delta > 0 else 6] += delta
            if first and delta >= rise:
                first = False
                row[1] += 1
                row[2].append(g.plies[i + 1][1])
                row[3].append(delta)
                row[4] += "x" in g.plies[j][0]
    print(f"games the opponent's own score had us +{lead} or more in that we did not win")
    print("variant  games  thrown  our score then  rise  reply captured  rises  falls")
    for v, (n, k, ours, rises, caps, up, down) in sorted(per.items()):
        med = lambda xs: f"{statistics.median(xs):+.2f}" if xs else "-"
        print(f"{v:8} {n:5} {k:7} {med(ours):>15} {med(rises):>5} {caps:>15} {up / n:+6.2f} {down / n:+6.2f}")


def is_pawn_move(san):
    """A pawn's move (a capture too): SAN names every other piece by a capital letter."""
    return san[0].islower()


def move_kind(san):
    if san.startswith("O-O"):
        return "castling"
    if "x" in san:
        return "capture"
    if is_pawn_move(san):
        return "pawn"
    return san[0]


def moves(games):
    acc = collections.defaultdict(lambda: [0, 0.0])
    for g in games:
        for i in range(1, len(g.plies) - 1):
            if not g.ours(i):
                continue
            before, after = g.plies[i - 1][1], g.plies[i + 1][1]
            if abs(before) > 2.5 or abs(after) > 4:
                continue
            phase = "opening" if i < 24 else ("middlegame" if i < 80 else "ending")
            cell = acc[(phase, move_kind(g.plies[i][0]))]
            cell[0] += 1
            cell[1] += after - before
    print("phase       kind      moves  cost (pawns, their view)")
    for (phase, kind), (n, total) in sorted(acc.items()):
        if n >= 30:
            print(f"{phase:11s} {kind:9s} {n:6d}  {total / n:+.3f}")


class Engine:
    """A UCI engine answering `eval`."""

    def __init__(self, cmd, setup):
        self.p = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
        for line in setup + ["isready"]:
            self.p.stdin.write(line + "\n")
        self.p.stdin.flush()
        while "readyok" not in self.p.stdout.readline():
            pass

    def eval(self, fen):
        self.p.stdin.write(f"position fen {fen}\neval\n")
        self.p.stdin.flush()
        lines = []
        for line in self.p.stdout:
            lines.append(line)
            if line.startswith("Total evaluation"):
                break
        return lines


def our_terms(lines):
    out = {}
    for line in lines:
        f = line.split()
        if len(f) == 7 and re.fullmatch(r"-?\d+", f[5]):
            out[f[0]] = (int(f[5]), int(f[6]))
    return out


def their_terms(lines):
    """Fairy-Stockfish's totals per term, in our centipawns (its pawns times 100 / 1.18)."""
    out = {}
    for line in lines:
        m = re.match(r"\s*([A-Za-z ]+?)\s*\|.*\|\s*(-?[\d.]+)\s+(-?[\d.]+)\s*$", line)
        if m and m.group(1) != "Term":
            out[m.group(1)] = (float(m.group(2)) * 100 / 1.18, float(m.group(3)) * 100 / 1.18)
    return out


GROUPS = {
    "material+placement": (["material", "centre", "rank", "file", "square"], ["Material", "Imbalance"]),
    "mobility": (["mobility"], ["Mobility"]),
    "king": (["king"], ["King safety"]),
    "pawns": (["pawn"], ["Pawns"]),
    "passed": (["passed"], ["Passed"]),
    "threats": (["threat"], ["Threats"]),
    "pieces": ([], ["Knights", "Bishops", "Rooks", "Queens"]),
    "space": ([], ["Space"]),
    "initiative": ([], ["Initiative"]),
}


def fairy_name(variant):
    """The name Fairy-Stockfish knows `variant` by: the `[fairy]` section's `variant` key of
    its file in variants/ (ICRC is Fairy-Stockfish's MERC), else the name itself."""
    path = os.path.join(HERE, "..", "..", "variants", variant + ".toml")
    try:
        text = open(path).read()
    except OSError:
        return variant
    section = text.split("[fairy]", 1)[1] if "[fairy]" in text else ""
    m = re.search(r'^variant\s*=\s*"([^"]+)"', section, re.M)
    return m.group(1) if m else variant


def fairy_engine(variant):
    """Fairy-Stockfish set up for `variant`, answering `eval`."""
    return Engine([FSF], ["uci", f"setoption name VariantPath value {INI}",
                          f"setoption name UCI_Variant value {fairy_name(variant)}",
                          "setoption name UCI_Chess960 value true"])


def fens_of(binary, variant, game):
    with open("/tmp/game_stats_one.pgn", "w") as f:
        f.write(game.text)
    out = subprocess.run(
        [binary, "replay", "--variant", variant, "--verbose", "/tmp/game_stats_one.pgn"],
        capture_output=True, text=True,
    ).stdout
    fens = []
    for line in out.splitlines():
        m = re.match(r"\d+\.+\S+\s+(\S+ \S+ \S+ \S+ \S+ \S+)$", line.strip())
        if m:
            fens.append(m.group(1))
    return fens


def disagree(games, binary):
    random.seed(1)
    engines = {}
    sets = {"D": [], "C": []}
    for g in games:
        variant = g.tags.get("Variant", "").lower()
        fens = None
        for i in range(20, min(len(g.plies) - 1, 120)):
            if not g.ours(i):
                continue
            ours, theirs = g.plies[i][1], -g.plies[i + 1][1]
            if ours >= 1.0 and theirs <= -0.2:
                kind = "D"
            elif abs(ours) <= 3 and random.random() < 0.08:
                kind = "C"
            else:
                continue
            fens = fens or fens_of(binary, variant, g)
            if i >= len(fens):
                continue
            if variant not in engines:
                engines[variant] = (
                    Engine([binary, "uci", "--variant", variant], ["uci"]),
                    fairy_engine(variant),
                )
            mine, fsf = engines[variant]
            sign = 1 if g.we_white else -1
            sets[kind].append((sign, our_terms(mine.eval(fens[i])), their_terms(fsf.eval(fens[i]))))
    print(f"D: {len(sets['D'])} positions, C: {len(sets['C'])}; centipawns from our side, ours / theirs")
    for phase, name in ((0, "middlegame"), (1, "endgame")):
        print(name)
        for group, (ours_rows, their_rows) in GROUPS.items():
            row = []
            for kind in ("D", "C"):
                o = [s * sum(t.get(r, (0, 0))[phase] for r in ours_rows) for s, t, _ in sets[kind]]
                f = [s * sum(t.get(r, (0, 0))[phase] for r in their_rows) for s, _, t in sets[kind]]
                row.append((statistics.mean(o or [0]), statistics.mean(f or [0])))
            (od, fd), (oc, fc) = row
            excess = (od - fd) - (oc - fc)
            print(f"  {group:19s} D {od:+7.1f} / {fd:+7.1f}   C {oc:+7.1f} / {fc:+7.1f}   difference grows {excess:+7.1f}")


def drift(games, binary, plies=(0, 12, 24, 40)):
    """Fairy-Stockfish's middlegame evaluation terms from our side at a few plies, averaged
    over the games: which of its terms we fall behind in, and when."""
    engines = {}
    acc = collections.defaultdict(lambda: collections.defaultdict(list))
    for g in games:
        variant = g.tags.get("Variant", "").lower()
        fens = fens_of(binary, variant, g)
        if variant not in engines:
            engines[variant] = fairy_engine(variant)
        sign = 1 if g.we_white else -1
        for p in plies:
            if p < len(fens):
                for term, (mg, _eg) in their_terms(engines[variant].eval(fens[p])).items():
                    acc[p][term].append(sign * mg)
    print("Fairy-Stockfish's middlegame terms, centipawns from our side, mean over the games")
    print(f"{'term':14s}" + "".join(f"{'ply ' + str(p):>9s}" for p in plies))
    for term in sorted({t for p in acc for t in acc[p]}):
        row = "".join(f"{statistics.mean(acc[p][term]) if acc[p][term] else 0:+9.1f}" for p in plies)
        print(f"{term:14s}{row}")


def collapse(ours):
    """Index among our scores `ours` where it fell below -1.5 for good, or None."""
    for k, v in enumerate(ours):
        if v < -1.5 and all(x < -1.0 for x in ours[k:]):
            return k
    return None


def foresight(games, before=(8, 4, 1)):
    rows = []
    for g in (g for g in games if g.result == 0):
        ours = [v for i, (_, v) in enumerate(g.plies) if g.ours(i)]
        theirs = [v for i, (_, v) in enumerate(g.plies) if not g.ours(i)]
        k = collapse(ours)
        if k is not None and k >= max(before) and k <= len(theirs):
            rows.append([(ours[k - b], theirs[k - b]) for b in before])
    if not rows:
        print("no lost game collapses late enough to look back")
        return
    print(f"{len(rows)} lost games where our score collapsed at our move {max(before)} or later")
    for j, b in enumerate(before):
        o = statistics.median(r[j][0] for r in rows)
        t = statistics.median(r[j][1] for r in rows)
        seen = sum(r[j][1] > 1.0 for r in rows) / len(rows)
        print(f"{b} moves before: ours {o:+.2f}, theirs {t:+.2f} (their own side); theirs above +1 in {100 * seen:.0f}%")


def central(san, files):
    """Is `san` a pawn move on one of the three central files of a board `files` wide?"""
    return is_pawn_move(san) and abs(ord(san[0]) - ord("a") - (files - 1) / 2) <= 1


def habits(games):
    acc = collections.defaultdict(collections.Counter)
    for g in games:
        first_rank = g.tags.get("FEN", "8").split("/")[0]
        files = sum(int(c) if c.isdigit() else 1 for c in re.findall(r"\d+|\D", first_rank))
        for who in ("ours", "theirs"):
            c = acc[(g.tags.get("Variant", "?"), who)]
            c["games"] += 1
            mine = [san for i, (san, _) in enumerate(g.plies) if g.ours(i) == (who == "ours")]
            c["castled"] += any(san.startswith("O-O") for san in mine[:30])
            for san in mine[:10]:
                c["moves"] += 1
                c["pawn"] += is_pawn_move(san)
                c["central"] += central(san, files)
                c["capture"] += "x" in san
    print(f"{'variant':8s}{'engine':8s}{'pawn':>6s}{'central':>9s}{'capture':>9s}{'castled':>14s}")
    for (v, who), c in sorted(acc.items()):
        m = max(1, c["moves"])
        print(f"{v:8s}{who:8s}{c['pawn'] / m:6.2f}{c['central'] / m:9.2f}{c['capture'] / m:9.2f}{c['castled']:7d}/{c['games']}")


def board_of(fen):
    """The pieces of a FEN's board: {(row, column): letter}."""
    board = {}
    for r, row in enumerate(fen.split()[0].split("/")):
        c = 0
        for m in re.finditer(r"(\d+)|([A-Za-z])", row):
            if m.group(1):
                c += int(m.group(1))
            else:
                board[(r, c)] = m.group(2)
                c += 1
    return board


def moved_piece(before, after, white):
    """(from, to, letter) of the side's one piece that left a square for another between two
    boards, or None (castling, promotion and the like move more than one or change it)."""
    gone = [s for s, p in before.items() if p.isupper() == white and after.get(s) != p]
    came = [s for s, p in after.items() if p.isupper() == white and before.get(s) != p]
    if len(gone) == 1 and len(came) == 1 and before[gone[0]] == after[came[0]]:
        return gone[0], came[0], before[gone[0]]
    return None


def roaming(games, binary, moves=20):
    acc = collections.defaultdict(collections.Counter)
    for g in games:
        # fens_of gives the positions after each move; the first move starts from the FEN tag.
        fens = [g.tags.get("FEN", "")] + fens_of(binary, g.tags.get("Variant", "").lower(), g)
        boards = [board_of(f) for f in fens]
        times = {s: 0 for s in boards[0]} if boards else {}
        for ply in range(min(2 * moves, len(boards) - 1)):
            white = fens[ply].split()[1] == "w"
            who = "ours" if white == g.we_white else "theirs"
            c = acc[(g.tags.get("Variant", "?"), who)]
            c["moves"] += 1
            m = moved_piece(boards[ply], boards[ply + 1], white)
            if m is None:
                times = {s: times.get(s, 0) for s in boards[ply + 1]}
                continue
            src, dst, letter = m
            n = times.pop(src, 0)
            times[dst] = n + 1
            if letter.upper() not in "PK":
                c["piece"] += 1
                c["again"] += n >= 1
                c["third"] += n >= 2
    print(f"{'variant':8s}{'engine':8s}{'piece':>7s}{'again':>7s}{'third+':>8s}")
    for (v, who), c in sorted(acc.items()):
        p = max(1, c["piece"])
        print(f"{v:8s}{who:8s}{c['piece'] / max(1, c['moves']):7.2f}{c['again'] / p:7.2f}{c['third'] / p:8.2f}")


def blunder_suite(games, binary, count):
    """(variant, FEN before our move) for our worst moves: see the module's doc."""
    random.seed(7)
    games = list(games)
    random.shuffle(games)
    suite = []
    for g in games:
        if len(suite) >= count:
            break
        hits = [i for i in range(16, min(90, len(g.plies) - 1))
                if g.ours(i) and -1.0 <= g.plies[i - 1][1] <= 1.0
                and 1.5 <= g.plies[i + 1][1] - g.plies[i - 1][1] and g.plies[i + 1][1] < 50]
        if not hits:
            continue
        variant = g.tags.get("Variant", "").lower()
        fens = fens_of(binary, variant, g)
        if len(fens) >= hits[0]:
            suite.append((variant, fens[hits[0] - 1]))
    return suite


def uci_go(p, fen, moves, ms):
    """Searches `fen` (then `moves`) for `ms` ms on a fresh table: (bestmove, last score in cp)."""
    p.stdin.write(f"ucinewgame\nposition fen {fen}{' moves ' + moves if moves else ''}\ngo movetime {ms}\n")
    p.stdin.flush()
    score = 0
    for line in p.stdout:
        f = line.split()
        if f and f[0] == "info" and "score" in f:
            k = f.index("score")
            v = int(f[k + 2])
            score = v if f[k + 1] == "cp" else (10000 if v > 0 else -10000)
        if f and f[0] == "bestmove":
            return f[1], score


def blunders(games, binary, configs, count):
    suite = blunder_suite(games, binary, count)
    judges, verdicts = {}, {}
    print(f"{len(suite)} positions")
    for config in configs.split(";"):
        off, ms = config.split("@")
        ours, scores = {}, []
        for variant, fen in suite:
            if variant not in ours:
                env = dict(os.environ, MC_OFF=off)
                ours[variant] = subprocess.Popen([binary, "uci", "--variant", variant], stdin=subprocess.PIPE,
                                                 stdout=subprocess.PIPE, text=True, bufsize=1, env=env)
            if variant not in judges:
                judges[variant] = fairy_engine(variant).p
            move, _ = uci_go(ours[variant], fen, "", int(ms))
            if (fen, move) not in verdicts:
                verdicts[fen, move] = -uci_go(judges[variant], fen, move, 300)[1]
            scores.append(max(-1500, min(1500, verdicts[fen, move])))
        for p in ours.values():
            p.stdin.write("quit\n")
            p.stdin.flush()
        within = sum(s >= -100 for s in scores)
        print(f"{config:<14} judged score after our move {sum(scores) / len(scores):+7.1f} cp, within a pawn {within}/{len(scores)}")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("command", choices=["bias", "conversion", "moves", "disagree", "drift", "foresight", "habits", "roaming", "blunders", "thrown"])
    ap.add_argument("--configs", default="@100;@1000")
    ap.add_argument("--count", type=int, default=80)
    ap.add_argument("games", nargs="+")
    ap.add_argument("--ours", default="modern-chess")
    ap.add_argument("--bin", default="target/release/modern-chess")
    a = ap.parse_args()
    games = load(a.games, a.ours)
    if not games:
        sys.exit("no finished games in those files")
    print(f"{len(games)} games, we scored {sum(g.result for g in games)}")
    if a.command == "disagree":
        disagree(games, os.path.abspath(a.bin))
    elif a.command == "drift":
        drift(games, os.path.abspath(a.bin))
    elif a.command == "roaming":
        roaming(games, os.path.abspath(a.bin))
    elif a.command == "blunders":
        blunders(games, os.path.abspath(a.bin), a.configs, a.count)
    else:
        {
            "bias": bias,
            "conversion": conversion,
            "moves": moves,
            "foresight": foresight,
            "habits": habits,
            "thrown": thrown,
        }[a.command](games)


if __name__ == "__main__":
    main()
