#!/usr/bin/env bash
# Regenerates fixtures/libvmaf/ssimulacra2-scores.csv: libvmaf's own SSIMULACRA2 scores of every
# input (fixtures/*.toml and fixtures/libvmaf/*.toml), printed by libvmaf's `vmaf` tool built
# from source at the revision below with its SIMD code off (the scalar path), under each
# `yuv_matrix` option the input is scored with (src/fixtures/libvmaf.rs: options_for).
# With LIBVMAF_PATH=avx2 it builds the tool with its x86 SIMD code on and runs it with
# `--cpumask 48` (AVX-512 and AVX-512 ICL not permitted), so the extractor takes its AVX2
# functions (the CPU must have AVX2), and writes fixtures/libvmaf/ssimulacra2-scores-avx2.csv
# instead. (A build with -Denable_avx512=false does not link at this revision.) With
# LIBVMAF_PATH=avx512 it runs the same build unmasked on a CPU with libvmaf's AVX-512 flags
# (AVX-512 F, DQ, CD, BW and VL) and writes fixtures/libvmaf/ssimulacra2-scores-avx512.csv; on a
# machine without the build tools, scripts/device-libvmaf-avx512.sh does the same from a tool
# built here.
#
# Usage: [LIBVMAF_PATH=scalar|avx2|avx512] scripts/libvmaf-ssimulacra2.sh [VMAF_SOURCE]
#   VMAF_SOURCE: a git repository (a clone or a bare mirror) holding the revision below, or an
#   unpacked tree of it (a folder with libvmaf/ and model/). Without it the script clones
#   https://github.com/Netflix/vmaf and fetches pull request 1536, whose head is the revision.
# Needs: git, a C compiler, meson and ninja (pip install meson ninja), python3, cargo, and the
# photographs (`just fixtures`). Builds outside the repository, in $WORK (default a temporary
# folder); writes only the CSV.
set -euo pipefail

COMMIT=6334d9be3cd98f09a511ed71da6389cac6a8ee80
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
WORK="${WORK:-$(mktemp -d)}"
PATH_KIND="${LIBVMAF_PATH:-scalar}"
case "$PATH_KIND" in
  scalar) OUT_CSV="$ROOT/fixtures/libvmaf/ssimulacra2-scores.csv"; ASM=(-Denable_asm=false); CPUMASK=() ;;
  avx2)
    grep -qw avx2 /proc/cpuinfo || { echo "libvmaf-ssimulacra2: this CPU has no AVX2" >&2; exit 2; }
    OUT_CSV="$ROOT/fixtures/libvmaf/ssimulacra2-scores-avx2.csv"; ASM=(-Denable_asm=true); CPUMASK=(--cpumask 48) ;;
  avx512)
    for f in avx512f avx512dq avx512cd avx512bw avx512vl; do
      grep -qw "$f" /proc/cpuinfo || { echo "libvmaf-ssimulacra2: this CPU has no $f" >&2; exit 2; }
    done
    OUT_CSV="$ROOT/fixtures/libvmaf/ssimulacra2-scores-avx512.csv"; ASM=(-Denable_asm=true); CPUMASK=() ;;
  *) echo "libvmaf-ssimulacra2: LIBVMAF_PATH is scalar, avx2 or avx512, not $PATH_KIND" >&2; exit 2 ;;
esac
SRC="$WORK/vmaf-src"
BUILD="$WORK/vmaf-build"
INPUTS="$WORK/inputs"

die() { echo "libvmaf-ssimulacra2: $*" >&2; exit 2; }
for tool in git meson ninja python3 cargo cc; do
  command -v "$tool" >/dev/null || die "$tool not found"
done
grep -q "^pub const LIBVMAF_COMMIT: &str = \"$COMMIT\";" "$ROOT/src/fixtures/libvmaf.rs" ||
  die "src/fixtures/libvmaf.rs names another LIBVMAF_COMMIT than $COMMIT"

# 1. The source at the revision.
rm -rf "$SRC" && mkdir -p "$SRC"
given="${1:-}"
if [ -n "$given" ] && [ -d "$given/libvmaf" ] && ! git -C "$given" rev-parse --git-dir >/dev/null 2>&1; then
  cp -r "$given/libvmaf" "$given/model" "$SRC/" 2>/dev/null || cp -r "$given/libvmaf" "$SRC/"
else
  if [ -z "$given" ]; then
    git clone --quiet --filter=blob:none --no-checkout https://github.com/Netflix/vmaf "$WORK/vmaf.git"
    git -C "$WORK/vmaf.git" fetch --quiet origin "pull/1536/head"
    given="$WORK/vmaf.git"
  fi
  gitdir="$(git -C "$given" rev-parse --git-dir)"
  case "$gitdir" in /*) ;; *) gitdir="$given/$gitdir" ;; esac
  git --git-dir="$gitdir" cat-file -e "$COMMIT^{commit}" 2>/dev/null || die "$given does not hold $COMMIT"
  # libvmaf/ is all the tool needs (built without the models, whose files may be absent).
  git --git-dir="$gitdir" archive "$COMMIT" libvmaf | tar x -C "$SRC"
fi
[ -f "$SRC/libvmaf/src/feature/ssimulacra2.c" ] || die "no libvmaf/src/feature/ssimulacra2.c at $COMMIT"

# 2. The tool: SIMD off (-Denable_asm=false leaves ARCH_X86 undefined, so the extractor takes its
#    scalar functions) or, for avx2, on (the extractor then picks its AVX2 functions on a CPU with
#    AVX2 and AVX-512 masked), release (-O3), no models built in; libvmaf's meson adds
#    -ffp-contract=off.
command -v nasm >/dev/null || [ "$PATH_KIND" = scalar ] || die "nasm not found (the SIMD build needs it)"
meson setup "$BUILD" "$SRC/libvmaf" --buildtype=release "${ASM[@]}" -Dbuilt_in_models=false \
  -Denable_tests=false -Denable_docs=false -Denable_dnn=disabled >"$WORK/meson.log" 2>&1 ||
  { tail -20 "$WORK/meson.log" >&2; die "meson setup failed (log: $WORK/meson.log)"; }
ninja -C "$BUILD" tools/vmaf >"$WORK/ninja.log" 2>&1 ||
  { tail -20 "$WORK/ninja.log" >&2; die "build failed (log: $WORK/ninja.log)"; }
VMAF="$BUILD/tools/vmaf"

# 3. The inputs as raw YUV files, from the manifests (the project's own generator).
cd "$ROOT"
BINADE_LIBVMAF_INPUTS="$INPUTS" cargo test --release --quiet --test ssimulacra2_libvmaf \
  write_libvmaf_inputs -- --ignored --exact >"$WORK/inputs.log" 2>&1 ||
  { tail -20 "$WORK/inputs.log" >&2; die "writing the inputs failed (log: $WORK/inputs.log)"; }

# 4. Scores (scripts/libvmaf-ssimulacra2-score.sh: the CSV written whole, then renamed into place).
"$ROOT/scripts/libvmaf-ssimulacra2-score.sh" "$VMAF" "$INPUTS" "$OUT_CSV" "$COMMIT" ${CPUMASK[@]+"${CPUMASK[@]}"}
echo "($PATH_KIND path; work folder $WORK)"
