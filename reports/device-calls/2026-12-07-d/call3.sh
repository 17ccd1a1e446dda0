# Call 3 of the fourth session of 2026-12-07, with the 194 device s left after call 2: binaries
# of 9ec65b1 (staged from a clean tree), whose first_finish_phases_in_order checks the log from
# the finish of tile 0 on (mended in 0f5a2d6 after d600150's first version failed in call 2).
# Prediction: walked_equals_the_loop_traced passes (the log of the one-tile sum holds the
# walker's steps and split end, then exactly finish, loaded, keyed, walked, finish end).
# Not run: 162 device s left and no machine could be started for it (README.md).
set -u
rm -rf .devbin && tar xJf .dev2.tgz
export BINADE_REQUIRE_GPU=1 BINADE_MODULE_FORM=cubin BINADE_BIN=$PWD/.devbin/binade
R=/tmp/r3; rm -rf $R; mkdir -p $R
cp .devbin/tests/MANIFEST.tsv $R/
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader > $R/device.txt
timeout 80 .devbin/tests/gpu_walked walked_equals_the_loop_traced > $R/gpu_walked.log 2>&1; echo "gpu_walked rc $?" | tee -a $R/rc.txt
grep -E "^test |test result" $R/gpu_walked.log
tar czf $OUT/r3.tgz -C /tmp r3
