# Call 2 of the sixth session of 2026-12-07. Binaries of the commit after f3561f5 (whose
# buffered copy of the next tile was issued before its own tile was read from the same slots:
# a race, found in review before any run), which adds the buffered
# producers (WalkedShape::buffer; .dev2.tgz, staged from a clean tree; the engine's PTX is
# 91efe8f's).
# Call 1 ran on binaries of 91efe8f: the kill matrix and the metric timings. Its gpu-tests
# was cut at 440 s, with 38 of 40 binaries done.
# Seven tries of this call got no machine (1,148 → 487 s), so it runs the probe at 10^8 and only the
# two gpu_walked tests of the new code: the buffered build against the loop on every kill and
# segmented case, and the mutants (BufferTileBehind among them). The engine's PTX is the same
# as 91efe8f's, whose suite call 1 ran (cut at 38 of 40 binaries). Then the probe at 2^30 and
# 8,294,400 terms with what is left.
# Prediction, written before the call:
# 1. walked_probe: reports/walked-buffer/PREDICTION.md.
# 2. walked_equals_the_loop_buffered passes; walked_mutants_give_wrong_totals kills every
#    walked mutant, BufferTileBehind among them.
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
cd $R/probe && timeout 110 $D/.devbin/examples/walked_probe 11 - 100000000 > probe.csv 2> probe.err; echo "probe rc $?" | tee -a $R/rc.txt
cut -d, -f1-4 probe.csv | sed 's/"//g'
cd $D; pack
L=$(left); echo "left $L s"
timeout 170 .devbin/tests/gpu_walked walked_equals_the_loop_buffered walked_mutants_give_wrong_totals --nocapture > $R/gpu_walked.log 2>&1; echo "gpu_walked rc $?" | tee -a $R/rc.txt
grep -E "FAILED|panicked|test result|killed: walked: buffered" $R/gpu_walked.log | tail -8
pack
L=$(left); echo "left $L s"
if [ "$L" -ge 30 ]; then
  cd $R/probe30 && timeout $((L - 8)) $D/.devbin/examples/walked_probe 11 - 1073741824,8294400 > probe.csv 2> probe.err; echo "probe30 rc $?" | tee -a $R/rc.txt
  cut -d, -f1-4 probe.csv | sed 's/"//g'
  cd $D
fi
pack
