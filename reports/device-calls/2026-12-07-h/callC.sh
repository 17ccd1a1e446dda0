# Call C of 2026-12-07-h, binaries of 5ccd8b6 staged from a clean clone in another folder than
# the tree the device gets (/tmp/ci29): the whole suite again after call B, whose 4 failures
# were tests reading files by the compile-time source path (fixed in 5ccd8b6, with
# tests/build_paths.rs to keep it so).
# Prediction, written before the call: every test of the 41 binaries passes, 0 skipped
# (BINADE_REQUIRE_GPU=1), in 440 to 520 s (call B: 470.8 s, gpu_walked 470.3 s alone).
set -u
rm -rf .devbin && tar xJf .dev2.tgz
export BINADE_REQUIRE_GPU=1 BINADE_MODULE_FORM=cubin BINADE_BIN=$PWD/.devbin/binade
R=/tmp/rC; rm -rf $R; mkdir -p $R
cp .devbin/tests/MANIFEST.tsv $R/
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader > $R/device.txt
timeout ${SUITE_LIMIT:-575} .devbin/binade run gpu-tests --out $R/gpu-tests > $R/gpu-tests.log 2>&1; echo "gpu-tests rc $?" | tee -a $R/rc.txt
head -c 700 $R/gpu-tests/README.md | tail -c 500
tar czf $OUT/rC.tgz -C /tmp rC
