# Call 2 of the sixth session of 2026-12-07. Binaries of the commit after f3561f5 (whose
# buffered copy of the next tile was issued before its own tile was read from the same slots:
# a race, found in review before any run), which adds the buffered
# producers (WalkedShape::buffer; .dev2.tgz, staged from a clean tree; the engine's PTX is
# 91efe8f's).
# Call 1 ran on binaries of 91efe8f: the kill matrix and the metric timings. Its gpu-tests
# was cut at 440 s, with 38 of 40 binaries done.
# A first try of this call, as the whole suite and then the probe, got no machine. 1,027 s
# were left after it, which is not enough for both, so this call runs the probe and
# gpu_walked, the binary that holds the new code's tests.
# Prediction, written before the call:
# 1. walked_probe: reports/walked-buffer/PREDICTION.md.
# 2. gpu_walked: every test passes with BINADE_REQUIRE_GPU=1, the new
#    walked_equals_the_loop_buffered among them, and walked_mutants_give_wrong_totals kills
#    BufferTileBehind.
set -u
T0=$(date +%s)
left() { echo $((${CALL_LIMIT:-585} - $(date +%s) + T0)); }
rm -rf .devbin && tar xJf .dev2.tgz
export BINADE_REQUIRE_GPU=1 BINADE_MODULE_FORM=cubin BINADE_BIN=$PWD/.devbin/binade
D=$PWD
R=/tmp/r2; rm -rf $R; mkdir -p $R/probe $R/probe30
cp .devbin/tests/MANIFEST.tsv $R/
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader > $R/device.txt
pack() { tar czf $OUT/r2.tgz -C /tmp r2; }
cd $R/probe && timeout 140 $D/.devbin/examples/walked_probe 11 - 100000000,8294400 > probe.csv 2> probe.err; echo "probe rc $?" | tee -a $R/rc.txt
cut -d, -f1-4 probe.csv | sed 's/"//g'
cd $D; pack
L=$(left); echo "left $L s"
timeout $((L - 40)) .devbin/tests/gpu_walked > $R/gpu_walked.log 2>&1; echo "gpu_walked rc $?" | tee -a $R/rc.txt
grep -E "FAILED|panicked|test result" $R/gpu_walked.log | tail -8
pack
L=$(left); echo "left $L s"
if [ "$L" -ge 30 ]; then
  cd $R/probe30 && timeout $((L - 8)) $D/.devbin/examples/walked_probe 11 - 1073741824 > probe.csv 2> probe.err; echo "probe30 rc $?" | tee -a $R/rc.txt
  cut -d, -f1-4 probe.csv | sed 's/"//g'
  cd $D
fi
pack
