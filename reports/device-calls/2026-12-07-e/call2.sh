# Call 2 of the fifth session of 2026-12-07. Binaries of d09aedd (531e5f2's code with
# gpu-timing's prose for this run; .dev2.tgz, staged from a
# clean tree): the engine's shape with the last position first and without the compose ahead
# (it did not pay in call 1); CCCL's headers in .cccl.tgz.
# Prediction, written before the call: gpu-timing's walked rows within 3% of call 1's probe
# engine column where the probe's "walked, composed ahead" build is not the engine: uniform
# 8,294,400 terms about 0.0585 ms (1.5 to 1.6x cupy.sum), 10^8 0.30, 2^30 2.91; every total
# the loop's bits. gpu_walked all pass (the traced test now checks both openings of the log).
# The events trace at 8,294,400 terms: with the compose ahead, step 1 composed before the first
# tile's sum is taken; the sum taken at about the same time as without it. Order: gpu-timing,
# gpu_walked, the events trace with what is left (the budget after call 1 and a failed start).
set -u
T0=$(date +%s)
left() { echo $((${CALL_LIMIT:-585} - $(date +%s) + T0)); }
rm -rf .devbin && tar xJf .dev2.tgz
[ -d experiments/peers/cccl/include ] || tar xJf .cccl.tgz
export BINADE_REQUIRE_GPU=1 BINADE_MODULE_FORM=cubin BINADE_BIN=$PWD/.devbin/binade
D=$PWD
R=/tmp/r2; rm -rf $R; mkdir -p $R/events
cp .devbin/tests/MANIFEST.tsv $R/
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader > $R/device.txt
pack() { tar czf $OUT/r2.tgz -C /tmp r2; }
timeout 290 .devbin/binade run gpu-timing --out $R/gpu-timing > $R/gpu-timing.log 2>&1; echo "gpu-timing rc $?" | tee -a $R/rc.txt
head -c 900 $R/gpu-timing/README.md | tail -c 750
pack
L=$(left); echo "left $L s"
if [ "$L" -ge 240 ]; then
  timeout $((L - 40)) .devbin/tests/gpu_walked > $R/gpu_walked.log 2>&1; echo "gpu_walked rc $?" | tee -a $R/rc.txt
  grep -E "FAILED|panicked|test result" $R/gpu_walked.log | tail -8
else
  echo "gpu_walked not run: $L s left" | tee -a $R/rc.txt
fi
pack
L=$(left); echo "left $L s"
if [ "$L" -ge 25 ]; then
  cd $R/events && timeout $((L - 8)) $D/.devbin/examples/walked_probe 11 events 8294400 > probe.csv 2> probe.err; echo "events rc $?" | tee -a $R/rc.txt
  cd $D
fi
pack
