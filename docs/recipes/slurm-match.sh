#!/usr/bin/env bash
# One orrery match as a Slurm job array: array task K plays shard K of 16 (`--shard env/16`
# takes K from SLURM_ARRAY_TASK_ID) into its own records file in a directory every node sees.
# The shards share an SPRT through the stop file: the shard that sees the merged LLR of all the
# records files in the directory cross a bound writes it, and every shard stops after its
# current game. A task that is requeued or resubmitted resumes from its records file.
#
#   mkdir -p results/sprt && sbatch docs/recipes/slurm-match.sh
#   orrery stats results/sprt                  # merged report, while running or after
#   orrery stats results/sprt --follow         # follow it until it is decided
#
# Keep the --array size and SHARDS equal. The engines and orrery must be at the same paths on
# every node (or in the job's container).
#SBATCH --job-name=orrery-sprt
#SBATCH --array=1-16
#SBATCH --ntasks=1
#SBATCH --cpus-per-task=1
#SBATCH --time=24:00:00
#SBATCH --requeue
#SBATCH --output=results/sprt/slurm-%A_%a.log
set -euo pipefail
SHARDS=16
DIR=results/sprt
mkdir -p "$DIR"
exec orrery match --game spider-chess --games 40000 --tc 10+0.1 \
  --engine name=new,cmd=./bin/spider-chess-new \
  --engine name=old,cmd=./bin/spider-chess-old \
  --each option.Hash=64 --random-plies 8 --seed 2026 \
  --sprt elo0=0,elo1=5 \
  --shard env/$SHARDS \
  --records "$DIR/shard-$SLURM_ARRAY_TASK_ID.jsonl" \
  --stop-file "$DIR/STOP" --quiet
