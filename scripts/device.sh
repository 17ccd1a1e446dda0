#!/usr/bin/env bash
# Runs on the GPU machine, from a copy of the tree with .devbin/ (scripts/stage-device.sh):
# each named experiment with the carried binary, its report into device-reports/NAME, then
# all reports packed into $OUT/reports.tar.gz (the device tool brings back few files).
#
#   bash scripts/device.sh gpu-tests gpu-parity gpu-timing:quick ...
#
# NAME:quick runs the quick settings. `gpu-tests` runs the carried test binaries with
# BINADE_REQUIRE_GPU=1. Every report records the commit the binary was built from (embedded
# at build time). BINADE_BIN names another binary (default .devbin/binade).
set -u
bin=${BINADE_BIN:-.devbin/binade}
out=${OUT:-/tmp/binade-device-out}
BINADE_PYTHON=${BINADE_PYTHON:-$(bash "$(dirname "$0")/cupy-python.sh")}; export BINADE_PYTHON
export BINADE_REQUIRE_GPU=1
mkdir -p "$out" device-reports
rc=0
for e in "$@"; do
  args=()
  if [[ "$e" == *:quick ]]; then e=${e%:quick}; args=(--quick); fi
  start=$(date +%s)
  echo "=== $e ${args[*]:-}"
  "$bin" run "$e" "${args[@]}" --out "device-reports/$e" || rc=$?
  echo "=== $e: $(( $(date +%s) - start )) s, exit status so far $rc"
  tar czf "$out/reports.tar.gz" device-reports  # after each one: a cut-off run keeps what finished
done
exit $rc
