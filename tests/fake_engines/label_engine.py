#!/usr/bin/env python3
"""A scripted UCI engine for the `orrery label` tests (tests/referee_label.rs): it answers
`eval` like Stockfish (a report ending in `Final evaluation ... (white side)`) and `go` with one
`info ... score` line and a `bestmove`, with fixed scores that depend only on the side to move, so
that the test can check the turn to White's view.

Usage: label_engine.py BEHAVIOUR
Environment: FAKE_ARG (a number some behaviours take).

Behaviours:
  good       eval: +1.23 with White to move, -0.45 with Black to move (White's side);
             go: `score cp 77` from the side to move's view
  none       eval: `Final evaluation: none (in check)` for every position
  mate       go: `score mate 3`
  die        exits with status 5 at the eval or go after FAKE_ARG (default 3) answered ones
  hang       never answers the eval or go after FAKE_ARG (default 3) answered ones
  error      answers eval with `info string error: unknown command eval`
"""
import os
import sys
import time

behaviour = sys.argv[1] if len(sys.argv) > 1 else "good"
limit = int(os.environ.get("FAKE_ARG", "3"))
answered = 0
white_to_move = True


def out(line):
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def side_to_move(words):
    """White to move after `position fen F... [moves M...]` or `position startpos [moves ...]`."""
    white = words[1] != "fen" or words[3] == "w"
    if "moves" in words and (len(words) - words.index("moves") - 1) % 2 == 1:
        white = not white
    return white


def misbehave():
    global answered
    if behaviour == "die" and answered >= limit:
        sys.stderr.write("fake label engine: out of cheese\n")
        sys.exit(5)
    if behaviour == "hang" and answered >= limit:
        while True:
            time.sleep(60)
    answered += 1


for raw in sys.stdin:
    words = raw.split()
    if not words:
        continue
    cmd = words[0]
    if cmd == "uci":
        out("id name label-fake")
        out("option name Hash type spin default 16 min 1 max 1024")
        out("uciok")
    elif cmd == "isready":
        out("readyok")
    elif cmd == "position":
        white_to_move = side_to_move(words)
    elif cmd == "eval":
        misbehave()
        if behaviour == "error":
            out("info string error: unknown command eval")
            continue
        out("")
        out(" Contributing terms for the classical eval:")
        out("Classical evaluation   +9.99 (white side)")
        if behaviour == "none":
            out("Final evaluation: none (in check)")
        elif white_to_move:
            out("Final evaluation       +1.23 (white side)")
        else:
            out("Final evaluation       -0.45 (white side)")
        out("")
    elif cmd == "go":
        misbehave()
        score = "mate 3" if behaviour == "mate" else "cp 77"
        out(f"info depth 1 score {score} nodes 1 pv 0000")
        out("bestmove 0000")
    elif cmd == "quit":
        break
