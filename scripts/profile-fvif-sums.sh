#!/usr/bin/env bash
# Runs on the GPU machine: Nsight Compute's sections for the float VIF row sums of one
# 3840x2160 frame, the four scales' first launches of one row-sum kernel (KERNEL, default
# `fvif_row_sums_binade_paired`, the paired rows), inside a quick `float-vif-timing` run.
# Writes into DIR (default device-reports/profile-fvif-sums/KERNEL): details.txt (speed of light, launch statistics,
# occupancy, warp states per launch), raw.csv (the same launches' metrics) and meta.txt (ncu's
# version and the commit the binary was built from). Clocks are left as they are.
#
#   bash scripts/profile-fvif-sums.sh [DIR]
set -euo pipefail
kernel=${KERNEL:-fvif_row_sums_binade_paired}
dir=${1:-device-reports/profile-fvif-sums/$kernel}
bin=${BINADE_BIN:-.devbin/binade}
mkdir -p "$dir"
ncu=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu | head -1)
rep="$dir/fvif-sums"
"$ncu" --clock-control none --kernel-name "$kernel" --launch-count 4 \
  --section SpeedOfLight --section LaunchStats --section Occupancy --section WarpStateStats \
  --section SchedulerStats -f -o "$rep" \
  "$bin" run float-vif-timing --quick --out "$dir/run" > "$dir/ncu-run.txt" 2>&1
"$ncu" --import "$rep.ncu-rep" --page details > "$dir/details.txt"
"$ncu" --import "$rep.ncu-rep" --page raw --csv > "$dir/raw.csv"
{
  echo "kernel $kernel"
  echo "ncu $("$ncu" --version | tail -1)"
  grep -m1 -o 'commit | `[0-9a-f]*`' "$dir/run/README.md" || true
} > "$dir/meta.txt"
rm -f "$rep.ncu-rep"
