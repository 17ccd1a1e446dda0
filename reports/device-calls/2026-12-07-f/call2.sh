# Call 2 of the sixth session of 2026-12-07. Binaries of the commit that adds the buffered
# producers (WalkedShape::buffer; .dev2.tgz, staged from a clean tree; the engine's PTX is
# 91efe8f's).
# Call 1 (binaries of 91efe8f) ran the kill matrix and the metric timings, but its
# gpu-tests was cut at 440 s with 38 of 40 binaries done. So the whole suite goes first here,
# with a longer limit.
# Prediction, written before the call:
# 1. gpu-tests (full): every test of every binary passes with BINADE_REQUIRE_GPU=1, 0 skips,
#    the new walked_equals_the_loop_buffered among them, and walked_mutants_give_wrong_totals
#    kills BufferTileBehind. About 480 s.
# 2. walked_probe at 10^8 terms with what is left: reports/walked-buffer/PREDICTION.md.
set -u
T0=$(date +%s)
left() { echo $((${CALL_LIMIT:-585} - $(date +%s) + T0)); }
rm -rf .devbin && tar xJf .dev2.tgz
export BINADE_REQUIRE_GPU=1 BINADE_MODULE_FORM=cubin BINADE_BIN=$PWD/.devbin/binade
D=$PWD
R=/tmp/r2; rm -rf $R; mkdir -p $R/probe
cp .devbin/tests/MANIFEST.tsv $R/
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader > $R/device.txt
pack() { tar czf $OUT/r2.tgz -C /tmp r2; }
timeout $(( $(left) - 70 )) .devbin/binade run gpu-tests --out $R/gpu-tests > $R/gpu-tests.log 2>&1; echo "gpu-tests rc $?" | tee -a $R/rc.txt
head -c 700 $R/gpu-tests/README.md | tail -c 500
pack
L=$(left); echo "left $L s"
if [ "$L" -ge 40 ]; then
  cd $R/probe && timeout $((L - 10)) $D/.devbin/examples/walked_probe 11 - 100000000 > probe.csv 2> probe.err; echo "probe rc $?" | tee -a $R/rc.txt
  cd $D; cut -d, -f1-4 $R/probe/probe.csv
else
  echo "probe not run: $L s left" | tee -a $R/rc.txt
fi
pack
