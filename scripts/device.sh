#!/usr/bin/env bash
# Runs experiments on the GPU machine with a binary built elsewhere and packs their reports
# into one file, $OUT/reports.tar.gz (the device tool brings back few files).
#
#   bash scripts/device.sh gpu-parity gpu-timing:quick ...
#
# NAME:quick runs the quick settings. BINADE_BIN names the binary (default .devbin/binade);
# BINADE_COMMIT, when set, is recorded as the commit in every report.
set -u
bin=${BINADE_BIN:-.devbin/binade}
out=${OUT:-/tmp/binade-device-out}
for p in python3 /opt/torch/.venv/bin/python; do
  if "$p" -c "import cupy" 2>/dev/null; then export BINADE_PYTHON="$p"; break; fi
done
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
