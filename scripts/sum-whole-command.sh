#!/usr/bin/env bash
# Times `binade sum` as a whole command (a new process each run, wall clock) on one file of
# N uniform f64 terms written by numpy (N the second argument, default 10^8), for each engine,
# against reading the file (the GPU engines with `--upload plain`, `--engine gpu` also with
# `--upload staged`); writes
# DIR/sum-whole-command-N/{times.tsv,ENGINE-REP.json} (ENGINE gpu-staged for the staged upload), DIR the
# first argument (default $OUT). Run on the GPU machine from the tree with .devbin/
# (scripts/stage-device.sh). The file is read once first (page cache) and removed after.
set -u
bin=${BINADE_BIN:-.devbin/binade}
n=${2:-100000000}
d=${1:-${OUT:-/tmp}}/sum-whole-command-$n
mkdir -p "$d"
f=/tmp/binade-u$n.npy
python3 -c "import numpy as np; np.save('$f', np.random.default_rng(2026).random($n))"
cat "$f" > /dev/null
now() { date +%s%N; }
{
  printf 'built from\t%s\n' "$("$bin" sum "$f" --engine loop --format json | python3 -c 'import json, sys; print(json.load(sys.stdin)["built_from"])')"
  printf 'what\trun\tms\texit\n'
  for rep in 1 2 3 4 5; do
    s=$(now); cat "$f" > /dev/null; t=$(now)
    printf 'cat FILE > /dev/null\t%s\t%s\t0\n' "$rep" "$(( (t - s) / 1000 ))e-3"
    for e in loop fast gpu:plain gpu:staged gpu-onepass:plain; do
      opts=(--engine "${e%%:*}"); name=${e%%:*}
      if [[ "$e" == *:staged ]]; then opts+=(--upload staged); name=${e%%:*}-staged; fi
      if [[ "$e" == *:plain ]]; then opts+=(--upload plain); fi
      s=$(now); "$bin" sum "$f" "${opts[@]}" --format json > "$d/$name-$rep.json" 2>&1; rc=$?; t=$(now)
      printf 'binade sum %s\t%s\t%s\t%s\n' "${opts[*]}" "$rep" "$(( (t - s) / 1000 ))e-3" "$rc"
    done
  done
} | tee "$d/times.tsv"
rm -f "$f"
