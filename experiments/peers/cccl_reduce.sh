#!/usr/bin/env bash
# Builds experiments/peers/cccl_reduce.cu against CCCL headers and runs it; its stdout (one JSON object) passes
# through.   Usage: bash experiments/peers/cccl_reduce.sh --sizes N1,N2,... --pool P --seed S [--warmup W] [--reps R]
#
# Headers, first found: $BINADE_CCCL_INCLUDE; experiments/peers/cccl/include (e.g. the nvidia-cuda-cccl wheel
# unpacked there); the CUDA toolkit's own CCCL. Each may name the directory holding cub/ cuda/ nv/ or one above it
# (.../cccl, or an unpacked wheel's nvidia/cu13/include/cccl). NVCC picks the compiler (default: nvcc on PATH,
# then $CUDA_HOME/bin, /usr/local/cuda/bin); BINADE_NVCC_FLAGS adds compiler flags.
# Exit status: 3 when no headers with the determinism API (CCCL >= 3.1) are found, 2 on a build error,
# otherwise the program's.
set -uo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"

fail() {
  echo "cccl_reduce.sh: $2" >&2
  exit "$1"
}

# The directory under $1 that holds the CUB headers, if any.
cccl_root() {
  local d
  for d in "$1" "$1/cccl" "$1/include/cccl" "$1/nvidia/cu13/include/cccl" "$1/nvidia/cu13/include"; do
    if [[ -f "$d/cub/device/device_reduce.cuh" && -d "$d/cuda" ]]; then
      (cd "$d" && pwd)
      return 0
    fi
  done
  return 1
}

nvcc_bin="${NVCC:-}"
if [[ -z "$nvcc_bin" ]]; then
  for c in "$(command -v nvcc 2>/dev/null)" "${CUDA_HOME:-}/bin/nvcc" "${CUDA_PATH:-}/bin/nvcc" /usr/local/cuda/bin/nvcc; do
    if [[ -n "$c" && -x "$c" && ! -d "$c" ]]; then
      nvcc_bin="$c"
      break
    fi
  done
fi
[[ -n "$nvcc_bin" ]] || fail 2 "nvcc not found (set NVCC or put it on PATH)"

if [[ -n "${BINADE_CCCL_INCLUDE:-}" ]]; then
  root="$(cccl_root "$BINADE_CCCL_INCLUDE")" || fail 3 "no CCCL headers under BINADE_CCCL_INCLUDE=$BINADE_CCCL_INCLUDE"
  origin="BINADE_CCCL_INCLUDE"
elif [[ -d "$here/cccl/include" ]]; then
  root="$(cccl_root "$here/cccl/include")" || fail 3 "no CCCL headers under $here/cccl/include"
  origin="experiments/peers/cccl/include"
else
  cuda_root="$(cd "$(dirname "$(readlink -f "$nvcc_bin")")/.." && pwd)"
  root=""
  for d in "$cuda_root/include" "$cuda_root"/targets/*/include; do
    if root="$(cccl_root "$d")"; then break; fi
    root=""
  done
  [[ -n "$root" ]] || fail 3 "no CCCL headers in the CUDA toolkit at $cuda_root"
  origin="the CUDA toolkit ($cuda_root)"
fi

version="$(sed -n 's/^#define CCCL_VERSION \([0-9]*\).*/\1/p' "$root/cuda/std/__cccl/version.h" 2>/dev/null | head -n 1)"
if [[ -n "$version" ]]; then
  version="$((version / 1000000)).$((version / 1000 % 1000)).$((version % 1000))"
else
  version="unknown"
fi
if ! grep -q 'gpu_to_gpu' "$root/cuda/__execution/determinism.h" 2>/dev/null ||
  ! grep -q 'determinism::gpu_to_gpu' "$root/cub/device/device_reduce.cuh"; then
  fail 3 "CCCL $version from $origin ($root) lacks cuda::execution::determinism::gpu_to_gpu for cub::DeviceReduce (needs CCCL >= 3.1; unpack the nvidia-cuda-cccl wheel into experiments/peers/cccl/include or set BINADE_CCCL_INCLUDE)"
fi

tmp="$(mktemp -d)" || fail 2 "mktemp -d failed"
trap 'rm -rf "$tmp"' EXIT

read -r -a extra <<<"${BINADE_NVCC_FLAGS:-}"
if ! "$nvcc_bin" -O3 -std=c++20 -arch=sm_90 --expt-relaxed-constexpr -I"$root" "${extra[@]}" \
  -o "$tmp/cccl_reduce" "$here/cccl_reduce.cu" >"$tmp/build.log" 2>&1; then
  echo "cccl_reduce.sh: build failed ($nvcc_bin, CCCL $version from $root); last lines:" >&2
  tail -n 25 "$tmp/build.log" >&2
  exit 2
fi

"$tmp/cccl_reduce" "$@"
exit $?
