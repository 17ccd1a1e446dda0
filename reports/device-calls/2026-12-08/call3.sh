# Call 3 of 2026-12-08: what fits of calls 1 and 2 in the device time left after five starts
# that found no machine (734 s at 01:48). First call 2's probe, run once (`walked_probe 11
# caps`) with `cupy.sum` on the same sizes (its prediction: call2.sh and
# ../../walked-caps/PREDICTION.md); then of call 1's suite only the test the changes since the
# last suite run are about: `gpu_walked`'s `walked_mutants_give_wrong_totals`, whose
# `walked_kill::stale_words` now ends with two rounds on the first 2^23 terms with one producer
# block (08aae2f); then the rest of `gpu_walked` in the time left.
# Binaries: the suite's of 561ab59 (.dev2.tgz), walked_probe of 44c8eff (.devprobe.tgz, its
# MANIFEST line).
# Prediction for the tests, written before the call: `walked_mutants_give_wrong_totals` passes
# (every walked mutant killed, "walker reads an unpublished word" among them), 0 skipped; every
# other `gpu_walked` test that runs passes.
set -u
T0=$(date +%s)
left() { echo $((${CALL_LIMIT:-560} - $(date +%s) + T0)); }
rm -rf .devbin && tar xJf .dev2.tgz && tar xJf .devprobe.tgz
export BINADE_REQUIRE_GPU=1 BINADE_MODULE_FORM=cubin BINADE_BIN=$PWD/.devbin/binade
D=$PWD
R=/tmp/r3; rm -rf $R; mkdir -p $R/a $R/tests
cp .devbin/MANIFEST-probe.tsv .devbin/tests/MANIFEST.tsv $R/
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader > $R/device.txt
S=2097152,4194304,8294400,16777216,33554432,100000000
pack() { tar czf $OUT/r3.tgz -C /tmp r3; }
cd $R/a && timeout 170 $D/.devbin/examples/walked_probe 11 caps $S > probe.csv 2> probe.err; echo "probe a rc $?" | tee -a $R/rc.txt
cd $D; pack
timeout 60 "$(bash scripts/cupy-python.sh)" experiments/peers/cupy_sum.py --sizes $S --pool 33554432 --seed 2026 > $R/cupy.json 2> $R/cupy.err; echo "cupy rc $?" | tee -a $R/rc.txt
pack
grep -h ",8294400," $R/a/probe.csv | cut -d, -f1-4
L=$(left); echo "left $L s"
t=$(date +%s); timeout $((L - 15)) .devbin/tests/gpu_walked --exact walked_mutants_give_wrong_totals --test-threads 1 > $R/tests/mutants.log 2>&1; echo "gpu_walked mutants rc $? in $(( $(date +%s) - t )) s" | tee -a $R/rc.txt
tail -5 $R/tests/mutants.log
pack
L=$(left); echo "left $L s"
if [ "$L" -ge 60 ]; then
  t=$(date +%s); timeout $((L - 10)) .devbin/tests/gpu_walked --skip walked_mutants_give_wrong_totals > $R/tests/rest.log 2>&1; echo "gpu_walked rest rc $? in $(( $(date +%s) - t )) s" | tee -a $R/rc.txt
  grep -E "^test .* (ok|FAILED)$|test result" $R/tests/rest.log | tail -50
fi
pack
