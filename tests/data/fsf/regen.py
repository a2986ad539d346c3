#!/usr/bin/env python3
"""Regenerates the perft data the test suite compares with (tests/data/fsf/*.perft) from
Fairy-Stockfish, so that `cargo test` never needs Fairy-Stockfish itself.

    tests/data/fsf/regen.py [FAIRY_STOCKFISH [VARIANT...]]
        (default: $FSF or /work/peers/fairy-stockfish-lb, every variant)

For each variant below: the project's `variant_positions` example loads the Interactive Diagram
definition from tests/data/variants/, prints its start position and seeded random positions with a
perft depth each; Fairy-Stockfish (a LARGEBOARDS build) counts `go perft DEPTH` for each of them
(after `setoption name VariantPath` for the project's own variants in variants.ini), and the counts
are written as `FEN;DEPTH;NODES` lines. Fairy-Stockfish's start position is checked to be the same
as the one the definition loads.
"""

import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", "..", ".."))

# (definition file stem, Fairy-Stockfish variant name, uses variants.ini, positions, seed)
VARIANTS = [
    ("chess", "chess", False, 40, 1),
    ("capablanca", "capablanca", False, 40, 2),
    ("grand", "grand", False, 40, 3),
    ("shatranj", "shatranj", False, 40, 4),
    ("moat", "moat", True, 40, 5),
    ("donut", "donut", True, 40, 6),
]

# Hand-made positions with the special moves random play rarely reaches (castling, en passant
# right after a double step, promotions), added to the random ones.
EXTRA = {
    "capablanca": ["r4k3r/1P8/10/10/10/10/10/R4K3R w KQkq - 0 1"],
    "shatranj": ["rn1k2nr/1P6/8/8/8/8/6p1/RN1K2NR w - - 0 1"],
    "moat": ["5k6/1P10/12/2Pp8/*3*2*3*/*3*2*3*/12/12/12/5K6 w - d8 0 1"],
    "donut": [
        "5k4/10/10/2pP**4/4**4/10/10/5K4[Nn] w - c6 0 1",
        "r4k3r/10/10/4**4/4**4/10/10/R4K3R[] w KQkq - 0 1",
    ],
}


class Engine:
    """Fairy-Stockfish over pipes, one command at a time."""

    def __init__(self, path):
        self.proc = subprocess.Popen(
            [path], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1
        )

    def send(self, line):
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def until(self, prefix):
        lines = []
        while True:
            line = self.proc.stdout.readline()
            if not line:
                raise RuntimeError("Fairy-Stockfish exited; last lines: %r" % lines[-5:])
            line = line.strip()
            lines.append(line)
            if line.startswith(prefix):
                return line, lines

    def sync(self):
        self.send("isready")
        self.until("readyok")

    def close(self):
        self.send("quit")
        self.proc.wait(timeout=30)


def main():
    fsf = sys.argv[1] if len(sys.argv) > 1 else os.environ.get("FSF", "/work/peers/fairy-stockfish-lb")
    subprocess.run(
        ["cargo", "build", "--example", "variant_positions"], cwd=ROOT, check=True
    )
    example = os.path.join(ROOT, "target", "debug", "examples", "variant_positions")
    only = sys.argv[2:]
    for stem, name, own, count, seed in VARIANTS:
        if only and stem not in only:
            continue
        definition = os.path.join(ROOT, "tests", "data", "variants", stem + ".txt")
        extra = os.path.join(HERE, ".extra-" + stem)
        with open(extra, "w") as f:
            f.write("\n".join(EXTRA.get(stem, [])) + "\n")
        out = subprocess.run(
            [example, definition, str(count), str(seed), "300000", extra],
            check=True,
            capture_output=True,
            text=True,
        ).stdout.split("\n")
        os.remove(extra)
        cases = [line.split(";") for line in out if line.strip()]
        engine = Engine(fsf)
        engine.send("uci")
        engine.until("uciok")
        if own:
            engine.send("setoption name VariantPath value " + os.path.join(HERE, "variants.ini"))
        engine.send("setoption name UCI_Variant value " + name)
        engine.sync()
        engine.send("position startpos")
        engine.send("d")
        line, _ = engine.until("Fen:")
        start = line[len("Fen:"):].strip()
        ours = cases[0][0]
        if start.split()[0] != ours.split()[0]:
            raise SystemExit("%s: start positions differ:\n  FSF  %s\n  ours %s" % (stem, start, ours))
        rows = []
        for fen, depth in cases:
            engine.send("position fen " + fen)
            engine.send("go perft " + depth)
            line, _ = engine.until("Nodes searched:")
            nodes = int(line.split(":")[1])
            rows.append("%s;%s;%d" % (fen, depth, nodes))
        engine.close()
        target = os.path.join(HERE, stem + ".perft")
        with open(target, "w") as f:
            f.write("# FEN;DEPTH;NODES from %s (tests/data/fsf/regen.py)\n" % os.path.basename(fsf))
            f.write("\n".join(rows) + "\n")
        print("%s: %d positions -> %s" % (stem, len(rows), os.path.relpath(target, ROOT)))


if __name__ == "__main__":
    main()
