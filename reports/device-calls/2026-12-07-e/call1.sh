# Call 1 of the fifth session of 2026-12-07. Binaries of the commit that makes the last
# position first (`WalkedShape::last_first`) and the compose ahead (`WalkedShape::ahead`, new)
# the engine's shape (.dev2.tgz, staged from a clean tree; CCCL's headers in .cccl.tgz).
# Prediction: reports/walked-ahead/PREDICTION.md, written before the call: at 8,294,400 terms
# the engine 0.86 to 0.90 of the build without the compose ahead on every stream, the
# bisection as at d600150; 10^8 and 2^30 the three builds within 2%; every total the loop's
# bits; gpu-timing uniform 8,294,400 terms 1.35 to 1.45x cupy.sum, 10^8 and 2^30 within 3%
# of 5c2f826's; gpu_walked all pass, AheadUnawaited killed.
set -u
T0=$(date +%s)
left() { echo $((${CALL_LIMIT:-585} - $(date +%s) + T0)); }
rm -rf .devbin && tar xJf .dev2.tgz
[ -d experiments/peers/cccl/include ] || tar xJf .cccl.tgz
export BINADE_REQUIRE_GPU=1 BINADE_MODULE_FORM=cubin BINADE_BIN=$PWD/.devbin/binade
D=$PWD
R=/tmp/r1; rm -rf $R; mkdir -p $R/probe $R/probe30
cp .devbin/tests/MANIFEST.tsv $R/
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader > $R/device.txt
pack() { tar czf $OUT/r1.tgz -C /tmp r1; }
cd $R/probe && timeout 100 $D/.devbin/examples/walked_probe 11 - 8294400,100000000 > probe.csv 2> probe.err; echo "probe rc $?" | tee -a $R/rc.txt
cut -d, -f1-4,12 probe.csv | sed 's/"//g'
cd $D; pack
timeout 200 .devbin/binade run gpu-timing --out $R/gpu-timing > $R/gpu-timing.log 2>&1; echo "gpu-timing rc $?" | tee -a $R/rc.txt
head -c 900 $R/gpu-timing/README.md | tail -c 750
pack
L=$(left); echo "left $L s"
timeout $((L - 70)) .devbin/tests/gpu_walked > $R/gpu_walked.log 2>&1; echo "gpu_walked rc $?" | tee -a $R/rc.txt
grep -E "FAILED|panicked|test result" $R/gpu_walked.log | tail -8
pack
L=$(left); echo "left $L s"
if [ "$L" -ge 40 ]; then
  cd $R/probe30 && timeout $((L - 8)) $D/.devbin/examples/walked_probe 11 - 1073741824 > probe.csv 2> probe.err; echo "probe30 rc $?" | tee -a $R/rc.txt
  cut -d, -f1-4,12 probe.csv | sed 's/"//g'
  cd $D
fi
pack
