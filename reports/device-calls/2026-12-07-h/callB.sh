# Call B (of 2026-12-07-g, run first in 2026-12-07-h). Binaries of
# 0768ebe: the whole test suite with BINADE_REQUIRE_GPU=1, started longest first by
# reports/gpu-tests/gpu-tests.csv (a1d2e7c's run; 4534506). The last full run, call 1 of
# 2026-12-07-f, was cut by its 440 s limit at 38 of 40 binaries (alphabetical order).
# The runner's own deadline (experiments/gpu-tests.toml, deadline_s = 540, added after this
# script was first written) kills what still runs at 540 s and writes the report; the outer
# timeout stays as a last resort.
# Prediction, written before the call: every test of every binary passes, 0 skips, in 380 to
# 480 s (gpu_onepass alone took 379 s at a1d2e7c; gpu_walked 285 s then, with more tests now).
set -u
rm -rf .devbin && tar xJf .dev2.tgz
export BINADE_REQUIRE_GPU=1 BINADE_MODULE_FORM=cubin BINADE_BIN=$PWD/.devbin/binade
R=/tmp/rB; rm -rf $R; mkdir -p $R
cp .devbin/tests/MANIFEST.tsv $R/
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader > $R/device.txt
timeout ${SUITE_LIMIT:-575} .devbin/binade run gpu-tests --out $R/gpu-tests > $R/gpu-tests.log 2>&1; echo "gpu-tests rc $?" | tee -a $R/rc.txt
head -c 700 $R/gpu-tests/README.md | tail -c 500
tar czf $OUT/rB.tgz -C /tmp rB
