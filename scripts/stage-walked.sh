#!/usr/bin/env bash
# Builds what a walked-engine device run needs (the binary, examples/walked_probe and the
# gpu_walked test binary), strips them into .dev1/ with the commit they were built from, and
# packs .dev1.tgz (xz; a few MB, under the device tool's carry limit). Refuses a dirty tree:
# a device result must name a commit.
#
#   bash scripts/stage-walked.sh
#   # then on the GPU machine (carry .dev1.tgz): bash scripts/walked-device-run.sh [SIZES]
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -n "$(git status --porcelain --untracked-files=no)" ]; then
  echo "stage-walked: the tree has changes; commit first (a device result names a commit)" >&2
  exit 1
fi
cargo build --release
cargo build --release --example walked_probe
test_bin=$(cargo test --release --no-run --test gpu_walked --message-format=json 2>/dev/null \
  | python3 scripts/test-executables.py gpu_walked | cut -f2)
target_dir=$(cargo metadata --format-version 1 --no-deps | python3 -c 'import json, sys; print(json.load(sys.stdin)["target_directory"])')
rm -rf .dev1 .dev1.tgz
mkdir -p .dev1
strip -o .dev1/binade "$target_dir/release/binade"
strip -o .dev1/walked_probe "$target_dir/release/examples/walked_probe"
strip -o .dev1/gpu_walked "$test_bin"
git rev-parse HEAD > .dev1/COMMIT
tar cJf .dev1.tgz .dev1
for p in /.dev1/ /.dev1.tgz; do
  grep -qx "$p" "$(git rev-parse --git-path info/exclude)" || echo "$p" >> "$(git rev-parse --git-path info/exclude)"
done
echo "staged .dev1.tgz ($(du -h .dev1.tgz | cut -f1)) at $(cat .dev1/COMMIT)"
