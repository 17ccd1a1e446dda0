#!/usr/bin/env bash
# Runs on the GPU machine: Nsight Compute's counters for one launch of the one-pass engine
# (`binade sum --engine gpu`) on a file of N uniform [0, 1) doubles made by numpy, seeded.
# Writes into DIR (default device-reports/profile-onepass):
#   details.txt   ncu's sections: speed of light, memory, occupancy, warp states (stall reasons)
#   raw.csv       the same launch's metrics, one per row (ncu --page raw --csv)
#   stalls.csv, top_instructions.csv, barriers.csv
#                 the digest of the stall samples per SASS instruction (scripts/profile-digest.py
#                 of ncu --page source --csv; the page itself, about 10 MB, is not kept)
#   sum.json      the command's own JSON (the engine's tiles and paths; the sum's bits; the
#                 commit the binary was built from)
#   meta.txt      N, the seed, ncu's version and the commit the binary was built from
# ncu runs with --clock-control none (the clocks are left as they are) and replays the kernel
# with its memory restored, so every pass sees the same records.
#
#   bash scripts/profile-onepass.sh [N] [DIR]
set -euo pipefail
n=${1:-268435456}
dir=${2:-device-reports/profile-onepass}
bin=${BINADE_BIN:-.devbin/binade}
py=${BINADE_PYTHON:-python3}
mkdir -p "$dir"
data=$(mktemp -d)/terms.npy
"$py" -c "import numpy as np, sys; np.save(sys.argv[1], np.random.default_rng(2026).random(int(sys.argv[2])))" "$data" "$n"
"$bin" sum --engine gpu --format json "$data" > "$dir/sum.json"
ncu=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu | head -1)
rep="$dir/onepass"
"$ncu" --clock-control none --kernel-name regex:^onepass_sums --launch-count 1 --set full \
  --import-source no -f -o "$rep" "$bin" sum --engine gpu "$data" > "$dir/ncu-run.txt" 2>&1
"$ncu" --import "$rep.ncu-rep" --page details > "$dir/details.txt"
"$ncu" --import "$rep.ncu-rep" --page raw --csv > "$dir/raw.csv"
"$ncu" --import "$rep.ncu-rep" --page source --csv --print-source sass > "$dir/source.csv"
# meta.txt first: the digest's README reads it.
{
  echo "terms $n (numpy default_rng(2026).random, float64)"
  echo "ncu $("$ncu" --version | tail -1)"
  grep -o '"built_from": *"[^"]*"' "$dir/sum.json" | head -1 || true
} > "$dir/meta.txt"
"$py" "$(dirname "$0")/profile-digest.py" "$dir/source.csv" "$dir"
rm -f "$dir/source.csv"
rm -f "$rep.ncu-rep" "$data"
