#!/usr/bin/env python3
"""Balanced random openings for `orrery match --openings`, judged by Fairy-Stockfish.

    docs/recipes/balanced-openings.py VARIANT N SEED MAXCP DEPTH [VARIANTPATH] > book.txt

draws seeded random 8-ply openings (Fairy-Stockfish's `go perft 1` lists the legal moves;
promotions are left out) and keeps the first N distinct ones that it scores within +-MAXCP
centipawns at DEPTH, one `startpos moves ...` line each. Random plies alone often leave a side a
piece down; such openings decide both games of a pair alike and tell an SPRT nothing.
VARIANTPATH is Fairy-Stockfish's variants.ini for variants it does not know. FSF picks its binary
(default: fairy-stockfish-lb on the PATH, as ../shared/peers/build-fairy-stockfish.sh builds it).
"""
import os
import random
import subprocess
import sys

if len(sys.argv) < 6:
    sys.exit(__doc__)
variant, n, seed = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
maxcp, depth = int(sys.argv[4]), int(sys.argv[5])
fsf = subprocess.Popen([os.environ.get('FSF', 'fairy-stockfish-lb')], stdin=subprocess.PIPE,
                       stdout=subprocess.PIPE, text=True, bufsize=1)


def send(line):
    fsf.stdin.write(line + '\n')


def until(prefix):
    """The engine's lines up to and including the first that starts with `prefix`."""
    lines = []
    while True:
        line = fsf.stdout.readline()
        if not line:
            sys.exit('Fairy-Stockfish exited')
        lines.append(line.rstrip())
        if line.startswith(prefix):
            return lines


send('uci')
if len(sys.argv) > 6:
    send(f'setoption name VariantPath value {sys.argv[6]}')
send(f'setoption name UCI_Variant value {variant}')
send('setoption name Hash value 16')
send('isready')
until('readyok')
rng = random.Random(seed)
kept = tried = 0
seen = set()
while kept < n:
    moves = []
    for _ in range(8):
        send('position startpos moves ' + ' '.join(moves))
        send('go perft 1')
        legal = sorted(l.split(':')[0] for l in until('Nodes searched')
                       if ':' in l and not l.startswith('Nodes'))
        # No promotions (a piece letter at the end).
        legal = [m for m in legal if len(m) in (4, 5) and not m[-1].isalpha()]
        if not legal:
            break
        moves.append(rng.choice(legal))
    tried += 1
    if len(moves) < 8 or tuple(moves) in seen:
        continue
    seen.add(tuple(moves))
    send('ucinewgame')
    send('position startpos moves ' + ' '.join(moves))
    send(f'go depth {depth}')
    scores = [l.split(' score ')[1].split() for l in until('bestmove')
              if ' score ' in l and 'bound' not in l]
    kind, value = scores[-1][0], int(scores[-1][1])
    if kind == 'cp' and abs(value) <= maxcp:
        print('startpos moves ' + ' '.join(moves), flush=True)
        kept += 1
print(f'# kept {kept} of {tried}', file=sys.stderr)
send('quit')
