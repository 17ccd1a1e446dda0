# Call A (of 2026-12-07-g, run second in 2026-12-07-h). Binaries of 0768ebe (.dev2.tgz, staged from a
# clean tree): the buffered producers (WalkedShape::BUFFERED) built at f70dd6c and never
# measured (call 2 of 2026-12-07-f found no machine).
# Prediction, written before the call: ../../walked-buffer/PREDICTION.md (buffered producers
# alone 0.85 to 0.92 of the engine's producers alone on half ties at 10^8 and 2^30, 0.95 to
# 1.00 on uniform and log-normal, 0.90 to 0.97 on geometric; the buffered engine within 2% of
# its producers' ratio; 3 blocks without the buffer 1.00 to 1.08 of the engine; every total
# the loop's bits).
set -u
T0=$(date +%s)
left() { echo $((${CALL_LIMIT:-560} - $(date +%s) + T0)); }
rm -rf .devbin && tar xJf .dev2.tgz
export BINADE_REQUIRE_GPU=1 BINADE_MODULE_FORM=cubin BINADE_BIN=$PWD/.devbin/binade
D=$PWD
R=/tmp/rA; rm -rf $R; mkdir -p $R/probe $R/probe30
cp .devbin/tests/MANIFEST.tsv $R/
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader > $R/device.txt
pack() { tar czf $OUT/rA.tgz -C /tmp rA; }
cd $R/probe && timeout 200 $D/.devbin/examples/walked_probe 11 - 100000000 > probe.csv 2> probe.err; echo "probe rc $?" | tee -a $R/rc.txt
cut -d, -f1-4 probe.csv | sed 's/"//g'
cd $D; pack
L=$(left); echo "left $L s"
if [ "$L" -ge 40 ]; then
  cd $R/probe30 && timeout $((L - 10)) $D/.devbin/examples/walked_probe 11 - 1073741824,8294400 > probe.csv 2> probe.err; echo "probe30 rc $?" | tee -a $R/rc.txt
  cut -d, -f1-4 probe.csv | sed 's/"//g'
  cd $D
fi
pack
