# Call 36 of 2026-12-06 (ninth session), binaries staged from a clean tree (MANIFEST.tsv names
# the commit): call 35 measured the mean margin 6 to 11% slower on f64 streams of 10^8 and
# 2^30 terms, so the engine's default takes the tile margin again and SSIMULACRA2's sums take
# the mean margin (`ssimulacra2::device::WALKED_SHAPE`, the same build call 35 ran as the
# engine). This call runs the tests whose code changed with that split: gpu_walked's
# walked_equals_the_loop_mean_margin (the mean margin's shape, and the engine's hints with
# the tile margin) and walked_equals_the_loop_engine_shape, ssimulacra2_gpu (the device's
# SSIMULACRA2 sums by walked_engine) and score_gpu (`binade score` on the GPU, whose
# DeviceSsimulacra2 builds WALKED_SHAPE).
# Prediction, written before the call: every test passes (3 + 2 + 2), as the same builds did
# at 168b9b2 (call 35: 373 of 373).
set -u
[ -d .devbin ] || tar xJf .dev2.tgz
export BINADE_REQUIRE_GPU=1 BINADE_MODULE_FORM=cubin BINADE_BIN=$PWD/.devbin/binade
R=/tmp/r; rm -rf $R; mkdir -p $R
cp .devbin/tests/MANIFEST.tsv $R/
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader > $R/device.txt
(timeout 200 .devbin/tests/gpu_walked --test-threads=2 walked_equals_the_loop_mean_margin walked_equals_the_loop_engine_shape > $R/gpu_walked.txt 2>&1; echo "gpu_walked rc $?" >> $R/rc.txt) &
(timeout 200 .devbin/tests/score_gpu > $R/score_gpu.txt 2>&1; echo "score_gpu rc $?" >> $R/rc.txt; timeout 60 .devbin/tests/ssimulacra2_gpu > $R/ssimulacra2_gpu.txt 2>&1; echo "ssimulacra2_gpu rc $?" >> $R/rc.txt) &
wait
cat $R/rc.txt; grep -h "test result" $R/*.txt
tar czf $OUT/r.tgz -C /tmp r
