#!/usr/bin/env python3
"""The misbehaving-engine kit: a scripted engine for the referee tests (tic-tac-toe and race),
speaking UCI or CECP (chosen by the first command, like the real engines) and playing the first
empty square, except where BEHAVIOUR makes it misbehave.

Usage: fake_engine.py BEHAVIOUR [GAME]      GAME: tic-tac-toe (default) or race
Environment: FAKE_SEED (random), FAKE_PIDFILE (pids of the engine and of any child it starts,
one a line, for orphan checks), FAKE_ARG (a number some behaviours take).

Behaviours (both dialects unless marked):
  good              plays correctly
  random            a seeded random legal move
  crash             exits with status 3 at the first go
  stderr-crash      writes "fatal: out of cheese" to stderr, then exits at the first go
  exit-mid-game     exits at the go after FAKE_ARG (default 2) answered moves
  hang              never answers go
  illegal           answers an occupied square
  garbage           UCI: `bestmove` with no move; CECP: bytes that are not UTF-8
  garbage-after     the move followed by junk on the same line (`bestmove a1 junk`)
  non-utf8          bytes that are not UTF-8 at go
  flag              sleeps 1.5 s past the time it was given before answering
  mute              never finishes the handshake
  slow-handshake    sleeps FAKE_ARG ms (default 1500) before uciok / done=1
  flood             at go, writes info lines as fast as it can and never answers
  slow-flood        at go, writes an info line every millisecond and never answers
  flood-handshake   writes info lines forever instead of uciok / done=1
  huge-line         at go, a 5 MB info line, then the move
  huge-token        answers with a 5 MB move token
  long-token        answers with a 20 kB move token (under the line limit)
  double-answer     two answers to one go, in one write
  late-answer       a second answer just before the readyok / pong that follows its move
  answer-before-go  an answer right after the handshake, before any go
  partial-line      writes its answer in two pieces 50 ms apart (correct)
  partial-exit      writes half an answer line without a newline, then exits
  child-stdout      starts a child that sleeps holding stdout, then plays correctly
  exit-leave-child  starts such a child, then exits at the first go
  close-stdin       closes its stdin after the handshake and keeps running
  ignore-quit       ignores quit, SIGTERM and end of input, plays correctly
  stderr-flood      writes to stderr without end while playing correctly
  refuse-options    answers every option with an error (UCI info string error / CECP Error)
  error-on-position UCI: answers position with info string error; CECP: Error on usermove
"""
import os
import random
import signal
import subprocess
import sys
import threading
import time

behaviour = sys.argv[1] if len(sys.argv) > 1 else "good"
game = sys.argv[2] if len(sys.argv) > 2 else "tic-tac-toe"
rng = random.Random(int(os.environ.get("FAKE_SEED", "1")))
arg = os.environ.get("FAKE_ARG")
answered = 0


def out(line):
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def raw(data):
    os.write(1, data)


def note_pid(pid):
    path = os.environ.get("FAKE_PIDFILE")
    if path:
        with open(path, "a") as f:
            f.write("%d\n" % pid)


def start_child():
    # A child that inherits stdout and outlives us unless its process group is killed.
    child = subprocess.Popen(["sleep", "300"], stdin=subprocess.DEVNULL)
    note_pid(child.pid)


note_pid(os.getpid())
if behaviour in ("child-stdout", "exit-leave-child"):
    start_child()
if behaviour == "ignore-quit":
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
if behaviour == "stderr-flood":
    def spew():
        chunk = ("warning: stderr without end " * 40 + "\n").encode()
        while True:
            try:
                os.write(2, chunk)
            except OSError:
                return
    threading.Thread(target=spew, daemon=True).start()


SQUARES = [f + r for r in "123" for f in "abc"]


def ttt_board(start, moves):
    cells = list(start.split("/")[0]) if start else ["."] * 9
    side = start.split("/")[1] if start else "x"
    for m in moves:
        cells[SQUARES.index(m)] = side
        side = "o" if side == "x" else "x"
    return cells


def choose(start, moves):
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


def flood_forever(line):
    chunk = (line + "\n").encode() * 4000
    while True:
        raw(chunk)


def go(start, moves, prefix, given_ms):
    """Answers one go; `prefix` is `bestmove ` or `move `."""
    global answered
    mv = choose(start, moves)
    if behaviour in ("crash", "stderr-crash"):
        if behaviour == "stderr-crash":
            sys.stderr.write("fatal: out of cheese\n")
            sys.stderr.flush()
        sys.exit(3)
    if behaviour == "exit-leave-child":
        os._exit(0)
    if behaviour == "exit-mid-game" and answered >= int(arg or "2"):
        sys.exit(4)
    if behaviour == "hang":
        time.sleep(3600)
    if behaviour == "flag":
        time.sleep((given_ms or 0) / 1000.0 + 1.5)
    if behaviour == "flood":
        flood_forever("info depth 1 score cp 0 nodes 1 pv a1" if prefix == "bestmove " else "1 0 0 1 a1")
    if behaviour == "slow-flood":
        while True:
            out("info depth 1 score cp 0 nodes 1" if prefix == "bestmove " else "1 0 0 1 a1")
            time.sleep(0.001)
    if behaviour == "huge-line":
        raw(b"info string " + b"x" * 5_000_000 + b"\n")
    if behaviour == "garbage":
        if prefix == "bestmove ":
            out("bestmove")
        else:
            raw(b"\xff\xfe garbage\n")
        return None
    if behaviour == "non-utf8":
        raw(b"\xff\xfe\xfd\n")
        time.sleep(3600)
    if behaviour == "huge-token":
        mv = "q" * 5_000_000
    if behaviour == "long-token":
        mv = "q" * 20_000
    if behaviour == "garbage-after":
        mv = mv + " junk"
    answered += 1
    if behaviour == "double-answer":
        other = "c3" if mv != "c3" else "b3"
        raw((prefix + mv + "\n" + prefix + other + "\n").encode())
        return mv
    if behaviour == "partial-line":
        raw(prefix[:3].encode())
        time.sleep(0.05)
        raw((prefix[3:] + mv + "\n").encode())
        return mv
    if behaviour == "partial-exit":
        raw((prefix + mv[:1]).encode())
        os._exit(5)
    out(prefix + mv)
    return mv


def uci():
    start, moves = None, []
    out("id name fake-" + behaviour)
    out("option name Hash type spin default 16 min 1 max 1024")
    out("option name Style type string default normal")
    if behaviour == "mute":
        time.sleep(3600)
    if behaviour == "flood-handshake":
        flood_forever("info string still starting")
    if behaviour == "slow-handshake":
        time.sleep(int(arg or "1500") / 1000.0)
    out("uciok")
    seen_go = False
    for line in sys.stdin:
        w = line.split()
        if not w:
            continue
        if w[0] == "isready":
            if behaviour == "late-answer" and seen_go:
                out("bestmove c3")
            out("readyok")
        elif w[0] == "ucinewgame":
            if behaviour == "answer-before-go":
                out("bestmove a1")
            if behaviour == "close-stdin":
                # Take the isready that follows, close the input, then answer it: every
                # write the referee makes after the readyok finds the input closed.
                sys.stdin.readline()
                os.close(0)
                out("readyok")
                time.sleep(3600)
        elif w[0] == "setoption":
            if behaviour == "refuse-options":
                out("info string error: this engine takes no options")
        elif w[0] == "quit":
            if behaviour == "ignore-quit":
                continue
            return
        elif w[0] == "position":
            if behaviour == "error-on-position":
                out("info string error: I do not like this position")
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
            seen_go = True
            out("info depth 1 score cp 12 nodes 1 pv x")
            given = None
            for key in ("wtime", "btime", "movetime"):
                if key in w:
                    given = max(given or 0, int(w[w.index(key) + 1]))
            go(start, moves, "bestmove ", given)
    if behaviour == "ignore-quit":
        time.sleep(3600)


def xboard():
    start, moves = None, []
    given = None
    seen_go = False
    for line in sys.stdin:
        w = line.split()
        if not w:
            continue
        cmd = w[0]
        if cmd == "protover":
            if behaviour == "mute":
                time.sleep(3600)
            if behaviour == "flood-handshake":
                flood_forever("feature done=0")
            if behaviour == "slow-handshake":
                time.sleep(int(arg or "1500") / 1000.0)
            out('feature usermove=1 setboard=1 ping=1 myname="fake-%s"' % behaviour)
            out('feature variants="normal,tictactoe,race" option="Hash -spin 16 1 1024"')
            out("feature done=1")
        elif cmd == "ping":
            if behaviour == "late-answer" and seen_go:
                out("move c3")
            out("pong " + (w[1] if len(w) > 1 else ""))
        elif cmd == "option":
            if behaviour == "refuse-options":
                out("Error (this engine takes no options): " + line.strip())
        elif cmd == "quit":
            if behaviour == "ignore-quit":
                continue
            return
        elif cmd == "new":
            start, moves = None, []
            if behaviour == "answer-before-go":
                out("move a1")
        elif cmd == "setboard":
            start, moves = w[1], []
        elif cmd == "time":
            given = int(w[1]) * 10
        elif cmd == "st":
            given = int(float(w[1]) * 1000)
        elif cmd == "usermove":
            if behaviour == "error-on-position":
                out("Error (I do not like this move): " + line.strip())
            moves.append(w[1])
        elif cmd == "go":
            seen_go = True
            out("1 7 0 1 a1")
            mv = go(start, moves, "move ", given)
            if mv is not None:
                moves.append(mv.split()[0])
    if behaviour == "ignore-quit":
        time.sleep(3600)


if __name__ == "__main__":
    first = sys.stdin.readline().strip()
    if first == "uci":
        uci()
    elif first == "xboard":
        xboard()
