#!/usr/bin/env bash
# One orrery match as N shards run by GNU parallel, on this machine or over ssh.
#
#   docs/recipes/parallel-match.sh DIR N MATCH-OPTIONS...
#
# plays `orrery match MATCH-OPTIONS --shard K/N` for K = 1..N at once, shard K writing
# DIR/shard-K.jsonl, then prints the merged report of DIR (`orrery stats DIR`). The N shards
# together play exactly the games of the unsharded match, so the merged report is the one the
# match would give on one machine. With `--sprt ...` in MATCH-OPTIONS, add
# `--stop-file DIR/STOP`: the shard that sees the merged SPRT decide writes it and every shard
# stops after its current game. Rerunning the same command resumes every shard.
#
# Over ssh: add e.g. `-S 4/host1,4/host2 --workdir "$PWD"` to the parallel line (DIR on a
# filesystem every host sees, orrery and the engines at the same paths). ORRERY picks the
# orrery binary (default: orrery on the PATH).
set -euo pipefail
if [ $# -lt 2 ]; then
  echo "usage: $0 DIR N MATCH-OPTIONS..." >&2
  exit 2
fi
dir=$1
n=$2
shift 2
orrery=${ORRERY:-orrery}
mkdir -p "$dir"
# -q: each argument reaches orrery as one word (engine commands have spaces); {} is K.
parallel -q --will-cite --halt now,fail=1 --line-buffer --jobs "$n" \
  "$orrery" match "$@" --shard "{}/$n" --records "$dir/shard-{}.jsonl" \
  ::: $(seq 1 "$n")
"$orrery" stats "$dir"
