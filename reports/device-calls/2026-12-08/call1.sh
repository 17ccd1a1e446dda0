# Call 1 of 2026-12-08: the whole GPU suite alone, binaries of 561ab59 staged from /work/main
# (clean tree). It has not run since d640331/08aae2f made the kill of the mutant "walker reads
# an unpublished word" one-sided (`walked_kill::stale_words` ends with two rounds on a fresh
# job of the first 2^23 terms with one producer block) and 986aea0 moved gpu-tests' output to
# unnamed temporary files.
# Prediction, written before the call: every test of the 41 binaries passes, 0 skipped
# (BINADE_REQUIRE_GPU=1), the unpublished-read mutant killed; the suite in 470 to 530 s
# (call C of 2026-12-07-h: 493.2 s, gpu_walked 492.6 s; the two added rounds of 2^23 terms
# with one producer block cost at most a few seconds), inside its 540 s deadline.
set -u
rm -rf .devbin && tar xJf .dev2.tgz
mkdir -p "$OUT"
cp .devbin/tests/MANIFEST.tsv "$OUT/"
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader > "$OUT/device.txt"
# scripts/device.sh: the suite with BINADE_REQUIRE_GPU=1, its report packed into
# $OUT/reports.tar.gz (device-reports/gpu-tests); the test binaries load CUBINs.
BINADE_MODULE_FORM=cubin BINADE_BIN=$PWD/.devbin/binade timeout 580 bash scripts/device.sh gpu-tests; echo "gpu-tests rc $?"
head -c 900 device-reports/gpu-tests/README.md | tail -c 700
