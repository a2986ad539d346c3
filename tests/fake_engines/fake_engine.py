#!/usr/bin/env python3
"""Scripted fake engine for the referee tests (tic-tac-toe and race).

Usage: fake_engine.py BEHAVIOUR [GAME]   (GAME: tic-tac-toe (default) or race)
BEHAVIOURS: good (first legal move), crash (exits at the first go), hang (never answers go),
illegal (answers an occupied square), garbage (answers `bestmove` with no move, or bytes that
are not text in CECP), flag (sleeps 1.5 s before answering), mute (never finishes the handshake),
random (a seeded random legal move, seed from the environment FAKE_SEED).
"""
import os
import random
import sys
import time

behaviour = sys.argv[1] if len(sys.argv) > 1 else "good"
rng = random.Random(int(os.environ.get("FAKE_SEED", "1")))


def out(line):
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


SQUARES = [f + r for r in "123" for f in "abc"]


def ttt_board(start, moves):
    cells = list(start.split("/")[0]) if start else ["."] * 9
    side = start.split("/")[1] if start else "x"
    for m in moves:
        cells[SQUARES.index(m)] = side
        side = "o" if side == "x" else "x"
    return cells


def choose(game, start, moves):
    if game == "race":
        return "1" if behaviour != "random" else rng.choice("123")
    cells = ttt_board(start, moves)
    empty = [SQUARES[i] for i in range(9) if cells[i] == "."]
    occupied = [SQUARES[i] for i in range(9) if cells[i] != "."]
    if behaviour == "illegal":
        return occupied[0] if occupied else "z9"
    if behaviour == "random":
        return rng.choice(empty)
    return empty[0]


def answer(game, start, moves, send):
    if behaviour == "crash":
        sys.exit(3)
    if behaviour == "hang":
        time.sleep(3600)
    if behaviour == "flag":
        time.sleep(1.5)
    if behaviour == "garbage":
        send(None)
        return
    send(choose(game, start, moves))


def uci():
    game = sys.argv[2] if len(sys.argv) > 2 else "tic-tac-toe"
    start, moves = None, []
    out("id name fake-" + behaviour)
    out("option name Hash type spin default 16 min 1 max 1024")
    if behaviour == "mute":
        time.sleep(3600)
    out("uciok")
    for line in sys.stdin:
        w = line.split()
        if not w:
            continue
        if w[0] == "isready":
            out("readyok")
        elif w[0] == "quit":
            return
        elif w[0] == "position":
            start, moves = None, []
            rest = w[1:]
            if rest and rest[0] == "fen":
                start = rest[1]
                rest = rest[2:]
            elif rest and rest[0] == "startpos":
                rest = rest[1:]
            if rest and rest[0] == "moves":
                moves = rest[1:]
            if game == "race":
                moves = []
        elif w[0] == "go":
            out("info depth 1 score cp 12 nodes 1 pv x")

            def send(mv):
                out("bestmove" if mv is None else "bestmove " + mv)

            answer(game, start, moves, send)


def xboard():
    start, moves = None, []
    for line in sys.stdin:
        w = line.split()
        if not w:
            continue
        cmd = w[0]
        if cmd == "protover":
            if behaviour == "mute":
                time.sleep(3600)
            out('feature usermove=1 setboard=1 myname="fake-%s" done=1' % behaviour)
        elif cmd == "quit":
            return
        elif cmd == "new":
            start, moves = None, []
        elif cmd == "setboard":
            start, moves = w[1], []
        elif cmd == "usermove":
            moves.append(w[1])
        elif cmd == "go":
            out("1 7 0 1 a1")

            def send(mv):
                if mv is None:
                    sys.stdout.buffer.write(b"\xff\xfe garbage\n")
                    sys.stdout.flush()
                else:
                    moves.append(mv)
                    out("move " + mv)

            answer("tic-tac-toe", start, moves, send)


if __name__ == "__main__":
    first = sys.stdin.readline().strip()
    if first == "uci":
        uci()
    elif first == "xboard":
        xboard()
