#!/usr/bin/env bash
# On the GPU machine's host CPU (no build tools there): libvmaf's AVX-512 SSIMULACRA2 path on
# every fixture input, written as ssimulacra2-scores-avx512.csv into OUTDIR.
#   .devbin/libvmaf/vmaf and libvmaf.so.3: the tool built with its x86 SIMD code on
#     (LIBVMAF_BUILD=... scripts/stage-device.sh stages them; the same build as LIBVMAF_PATH=avx2);
#   .devbin/tests/ssimulacra2_libvmaf: writes the inputs from the manifests (photographs from
#     fixtures/cache, carried);
#   scripts/libvmaf-ssimulacra2-score.sh: the scoring loop.
# The tool runs unmasked: libvmaf takes its AVX-512 functions where the CPU has AVX-512 F, DQ,
# CD, BW and VL; without them this exits 2 and writes nothing.
# Usage: scripts/device-libvmaf-avx512.sh OUTDIR
set -euo pipefail
cd "$(dirname "$0")/.."
die() { echo "device-libvmaf-avx512: $*" >&2; exit 2; }
[ $# -eq 1 ] || die "usage: OUTDIR"
OUTDIR="$1"
for f in avx512f avx512dq avx512cd avx512bw avx512vl; do
  grep -qw "$f" /proc/cpuinfo || die "this CPU has no $f: libvmaf would not take its AVX-512 path"
done
[ -x .devbin/libvmaf/vmaf ] || die ".devbin/libvmaf/vmaf not staged (LIBVMAF_BUILD=... scripts/stage-device.sh)"
COMMIT=$(sed -n 's/^pub const LIBVMAF_COMMIT: &str = "\([0-9a-f]*\)";$/\1/p' src/fixtures/libvmaf.rs)
[ -n "$COMMIT" ] || die "no LIBVMAF_COMMIT in src/fixtures/libvmaf.rs"
INPUTS="$(mktemp -d)"
trap 'rm -rf "$INPUTS"' EXIT
BINADE_LIBVMAF_INPUTS="$INPUTS" .devbin/tests/ssimulacra2_libvmaf write_libvmaf_inputs --ignored --exact \
  >"$INPUTS/write.log" 2>&1 || { tail -5 "$INPUTS/write.log" >&2; die "writing the inputs failed"; }
mkdir -p "$OUTDIR"
grep -m1 "model name" /proc/cpuinfo | sed 's/^[^:]*: //' >"$OUTDIR/cpu.txt"
LD_LIBRARY_PATH="$PWD/.devbin/libvmaf${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" \
  scripts/libvmaf-ssimulacra2-score.sh .devbin/libvmaf/vmaf "$INPUTS" "$OUTDIR/ssimulacra2-scores-avx512.csv" "$COMMIT"
