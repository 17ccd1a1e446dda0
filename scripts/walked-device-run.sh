#!/usr/bin/env bash
# Runs on the GPU machine from a copy of the tree with .dev1.tgz (scripts/stage-walked.sh):
# the walked probe (examples/walked_probe, 5 timed launches an input, the sizes given, default
# 8294400,100000000,1073741824), cupy.sum on the same data and sizes, then every gpu_walked
# test with BINADE_REQUIRE_GPU=1 (or only the tests named in TESTS, space-separated); each
# output into $OUT (probe.csv, probe.err, cupy.json, gpu_walked.txt, COMMIT, smi.txt), each
# step under its own time limit so that a slow one leaves the others' output. Then, on the
# build machine: python3 scripts/walked-step-tables.py DIR on the copied folder.
#
#   OUT=/tmp/out bash scripts/walked-device-run.sh 8294400,100000000
set -u
out=${OUT:?set OUT to the folder the outputs go to}
sizes=${1:-8294400,100000000,1073741824}
mkdir -p "$out"
tar xJf .dev1.tgz
cp .dev1/COMMIT "$out/COMMIT"
nvidia-smi -L > "$out/smi.txt" 2>&1
py=$(bash "$(dirname "$0")/cupy-python.sh")
rc=0
timeout "${PROBE_LIMIT:-150}" .dev1/walked_probe 5 - "$sizes" > "$out/probe.csv" 2> "$out/probe.err" || rc=$?
echo "walked_probe: exit status $rc"
timeout 60 "$py" experiments/peers/cupy_sum.py --sizes "$sizes" --pool 33554432 --seed 2026 \
  --reps 7 > "$out/cupy.json" 2> "$out/cupy.err" || { rc=$?; echo "cupy_sum: exit status $rc"; }
# shellcheck disable=SC2086
BINADE_REQUIRE_GPU=1 timeout "${TEST_LIMIT:-330}" .dev1/gpu_walked --test-threads 4 ${TESTS:-} \
  > "$out/gpu_walked.txt" 2>&1 || rc=$?
grep -E "test result|FAILED|panicked" "$out/gpu_walked.txt"
exit $rc
