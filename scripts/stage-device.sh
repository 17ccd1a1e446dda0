#!/usr/bin/env bash
# Builds what the GPU machine runs (it has no Rust toolchain) and stages it in .devbin/:
#   .devbin/binade            the binary (stripped)
#   .devbin/tests/NAME        every test binary of `cargo test --release --no-run` (stripped)
#   .devbin/tests/MANIFEST.tsv  NAME, file, and the commit it was built from (-dirty if the
#                             tree had changes): the gpu-tests experiment refuses binaries of
#                             another commit than its own.
#   .devbin/examples/NAME     with STAGE_EXAMPLES="NAME ...": those examples (stripped)
#   .devbin/libvmaf/         with LIBVMAF_BUILD=DIR (a meson build folder of libvmaf with its
#                             SIMD code on): its tools/vmaf and src/libvmaf.so.3, for
#                             scripts/device-libvmaf-avx512.sh
# Respects CARGO_TARGET_DIR (relative or absolute) and any target-dir of cargo's config: the
# target folder is asked of `cargo metadata`. Needs python3 (to read cargo's JSON messages).
# Refuses a tree whose research pages fail tests/research.rs (stale against the reports).
set -euo pipefail
cd "$(dirname "$0")/.."
commit=$(git rev-parse HEAD)
if [ -n "$(git status --porcelain --untracked-files=no)" ]; then commit="$commit-dirty"; fi
# The research pages are checked against the reports by host tests the GPU suite runs too: a
# staging whose pages are stale would carry failing tests to the device (call 31b of
# 2026-12-06). Refuse it here.
if ! cargo test --release --test research --quiet >/dev/null 2>&1; then
  echo "stage-device: tests/research.rs fails: the research pages are stale; run binade reindex reports and binade research --from-reports, commit, and stage again" >&2
  exit 1
fi
rm -rf .devbin
mkdir -p .devbin/tests
grep -qx '/.devbin/' "$(git rev-parse --git-path info/exclude)" || echo '/.devbin/' >> "$(git rev-parse --git-path info/exclude)"
cargo build --release
target_dir=$(cargo metadata --format-version 1 --no-deps | python3 -c 'import json, sys; print(json.load(sys.stdin)["target_directory"])')
strip -o .devbin/binade "$target_dir/release/binade"
cargo test --release --no-run --message-format=json 2>/dev/null \
  | python3 scripts/test-executables.py | sort -u | while IFS=$'\t' read -r name exe; do
    strip -o ".devbin/tests/$name" "$exe"
    printf '%s\t%s\t%s\n' "$name" "$name" "$commit" >> .devbin/tests/MANIFEST.tsv
  done
if [ -n "${STAGE_EXAMPLES:-}" ]; then
  mkdir -p .devbin/examples
  for e in $STAGE_EXAMPLES; do
    cargo build --release --example "$e"
    strip -o ".devbin/examples/$e" "$target_dir/release/examples/$e"
  done
fi
if [ -n "${LIBVMAF_BUILD:-}" ]; then
  mkdir -p .devbin/libvmaf
  strip -o .devbin/libvmaf/vmaf "$LIBVMAF_BUILD/tools/vmaf"
  strip -o .devbin/libvmaf/libvmaf.so.3 "$LIBVMAF_BUILD/src/libvmaf.so.3"
fi
echo "staged $(wc -l < .devbin/tests/MANIFEST.tsv) test binaries and the binary ($(du -sh .devbin | cut -f1)) at $commit"
