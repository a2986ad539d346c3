#!/usr/bin/env python3
"""An engine that learns its variants from a file, as Fairy-Stockfish does with `VariantPath`: a
proxy for a real `spider-chess --variant FILE` (the command is argv[1:]) whose `UCI_Variant`
offers only spider-chess until `setoption name VariantPath value ...` is given; a `uci` after that
declares the loaded variants too. Every other line passes through unchanged."""
import subprocess
import sys
import threading

child = subprocess.Popen(sys.argv[1:], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
state = {"loaded": False, "hide": True}


def relay():
    for line in child.stdout:
        if line.startswith("option name UCI_Variant ") and state["hide"]:
            line = "option name UCI_Variant type combo default spider-chess var spider-chess\n"
        if line.strip() == "uciok":
            sys.stdout.write("option name VariantPath type string default <empty>\n")
        sys.stdout.write(line)
        sys.stdout.flush()


threading.Thread(target=relay, daemon=True).start()
for line in sys.stdin:
    words = line.split()
    if words[:3] == ["setoption", "name", "VariantPath"]:
        state["loaded"] = True
        continue
    if words[:1] == ["uci"]:
        state["hide"] = not state["loaded"]
    child.stdin.write(line)
    child.stdin.flush()
    if words[:1] == ["quit"]:
        break
child.wait()
