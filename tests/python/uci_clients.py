"""Our UCI engine driven by python-chess's engine client, as GUIs and scripts use it.

Run by tests/python_chess.rs: `python3 uci_clients.py ENGINE_BINARY`. Prints one `ok NAME`
line per check and exits non-zero (with the traceback) at the first failure.
"""
import sys
import threading
import time

import chess
import chess.engine

BIN = sys.argv[1]


def engine():
    # `--variant chess`: python-chess knows orthodox chess only.
    return chess.engine.SimpleEngine.popen_uci([BIN, "uci", "--variant", "chess"], timeout=20)


def whole_game(e):
    """A whole game against itself; every move python-chess gets must be legal for it."""
    board = chess.Board()
    game = object()
    while not board.is_game_over(claim_draw=True) and board.ply() < 300:
        result = e.play(board, chess.engine.Limit(time=0.02), game=game)
        assert result.move in board.legal_moves, (result.move, board.fen())
        board.push(result.move)
    assert board.ply() >= 10
    return board


def analyse(e):
    board = chess.Board("r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5Q2/PPPP1PPP/RNB1K1NR w KQkq - 2 4")
    info = e.analyse(board, chess.engine.Limit(depth=4))
    assert info["depth"] >= 4, info
    assert info["pv"][0] == chess.Move.from_uci("f3f7"), info  # Qxf7#, mate in one
    assert info["score"].white().mate() == 1, info
    many = e.analyse(board, chess.engine.Limit(depth=3), multipv=1)
    assert many[0]["pv"], many


def new_game_mid_session(e):
    """`ucinewgame` between games (python-chess sends it when `game` changes)."""
    board = chess.Board()
    for game in range(3):
        b = board.copy()
        for _ in range(4):
            m = e.play(b, chess.engine.Limit(depth=2), game=game).move
            assert m in b.legal_moves
            b.push(m)


def long_move_list(e):
    """`position startpos moves ...` with hundreds of moves."""
    import random

    rng = random.Random(5)
    board = chess.Board()
    while board.ply() < 400:
        moves = list(board.legal_moves)
        if not moves or board.is_game_over():
            board = chess.Board() if board.ply() < 200 else board
            if board.ply() >= 200:
                break
            continue
        board.push(rng.choice(moves))
    assert board.ply() >= 200, board.ply()
    if not board.is_game_over():
        m = e.play(board, chess.engine.Limit(depth=2)).move
        assert m in board.legal_moves


def every_clock_field(e):
    board = chess.Board()
    board.push_san("e4")
    t = time.monotonic()
    limit = chess.engine.Limit(white_clock=3, black_clock=3, white_inc=0.05, black_inc=0.05,
                               remaining_moves=20)
    m = e.play(board, limit).move
    assert m in board.legal_moves
    assert time.monotonic() - t < 3, "used more than its clock"
    # Only one side's clock, depth and nodes too.
    for limit in [chess.engine.Limit(black_clock=1), chess.engine.Limit(nodes=2000),
                  chess.engine.Limit(depth=3, time=1)]:
        assert e.play(board, limit).move in board.legal_moves


def stop_races_the_end(e):
    """`stop` sent as the search ends by itself: one answer each, never a hang."""
    board = chess.Board()
    for i in range(40):
        with e.analysis(board, chess.engine.Limit(time=0.001 * (i % 5))) as a:
            time.sleep(0.001 * (i % 3))
            a.stop()
            best = a.wait()
        assert best.move is None or best.move in board.legal_moves


def isready_during_search(e):
    board = chess.Board()
    with e.analysis(board) as a:  # go infinite
        time.sleep(0.2)
        for _ in range(5):
            t = time.monotonic()
            e.ping()  # isready -> readyok
            assert time.monotonic() - t < 0.5, time.monotonic() - t
        a.stop()
        a.wait()


def one_bestmove_per_go():
    """Raw protocol through python-chess's transport: count `bestmove` lines per `go`."""
    import subprocess

    p = subprocess.Popen([BIN, "uci", "--variant", "chess"], stdin=subprocess.PIPE,
                         stdout=subprocess.PIPE, text=True)
    lines = []
    reader = threading.Thread(target=lambda: lines.extend(p.stdout))
    reader.start()
    n = 30
    cmds = ["uci", "position startpos"]
    for i in range(n):
        cmds.append("go movetime %d" % (i % 3))
        if i % 2:
            cmds.append("stop")
    cmds += ["isready", "quit"]
    p.stdin.write("\n".join(cmds) + "\n")
    p.stdin.flush()
    p.wait(timeout=20)
    reader.join(timeout=5)
    count = sum(1 for l in lines if l.startswith("bestmove"))
    assert count == n, (count, lines[-5:])


def main():
    e = engine()
    try:
        for check in [whole_game, analyse, new_game_mid_session, long_move_list,
                      every_clock_field, stop_races_the_end, isready_during_search]:
            check(e)
            print("ok", check.__name__, flush=True)
    finally:
        e.quit()
    one_bestmove_per_go()
    print("ok one_bestmove_per_go", flush=True)


if __name__ == "__main__":
    main()
