# Call 2b of 2026-12-07 (tenth session): call 2 cut down to what fits the device time left
# after the failed starts (449 s at 03:17 UTC): walked_probe (its prediction in call2.sh, 1)
# and the gpu_walked binary alone (its tests of both tie paths, the new mutants killed by a
# wrong total, every shape the loop's bits), binaries of 9add337 (MANIFEST.tsv).
# Prediction for gpu_walked, written before the call: every test passes.
set -u
[ -d .devbin ] || tar xJf .dev2.tgz
export BINADE_REQUIRE_GPU=1 BINADE_MODULE_FORM=cubin BINADE_BIN=$PWD/.devbin/binade
R=/tmp/r; rm -rf $R; mkdir -p $R
cp .devbin/tests/MANIFEST.tsv $R/
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader > $R/device.txt
(cd $R && timeout 100 $OLDPWD/.devbin/examples/walked_probe 11 - 100000000,1073741824 > probe.csv 2> probe.err); echo "probe rc $?" | tee -a $R/rc.txt
cut -d, -f1-6,9,12 $R/probe.csv | head -40
tar czf $OUT/r.tgz -C /tmp r
timeout ${WALKED_LIMIT:-220} .devbin/tests/gpu_walked --test-threads=2 > $R/gpu_walked.txt 2>&1; echo "gpu_walked rc $?" | tee -a $R/rc.txt
grep -E "test result|FAILED|panicked" $R/gpu_walked.txt | head -10
tar czf $OUT/r.tgz -C /tmp r
