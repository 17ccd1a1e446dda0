# Call 1 of the fourth session of 2026-12-07: call 2 of the third session (../2026-12-07-c/call2.sh)
# with the whole device budget back. Binaries of d600150 (.dev2.tgz, staged from a clean
# tree): HEAD's engine (the bisection, c2c53ba's PTX) and walked_probe's builds of both shapes
# ("walked (last position first)" and "walked, crossings bisected"); gpu_walked tests the
# last position first as SHAPES[29] and kills StepLastTrusted, and has the new f32 re-read
# test; trace builds stamp a finish's phases, and the events mode traces the first tile
# finished by the walker.
# Prediction (reports/walked-last-first/PREDICTION.md, written before the call): at 8,294,400
# terms the engine 3 to 5 µs faster than the bisected build on uniform, log-normal and half ties
# (0.92 to 0.96), 5 to 8 µs on geometric; geometric 10^8 0.95 to 0.99; every other 10^8 and 2^30
# row within 1%; every total the loop's bits. gpu_walked all pass, StepLastTrusted killed on f64
# and f32; the kill matrix kills every walked mutant; the events trace's gaps between split ends
# 0.3 to 0.45 µs, no longer growing with the segment; run_places 11 of 11. The f32 re-read
# test (new): the engine and TagOnly count hundreds of re-reads on 10^8 geometric f32 terms
# (814 to 1,239 at 168b9b2 and 3818228), Parity none, all three the f32 loop's bits.
# The first tile's finish by the walker split into its phases (events at 4,096 terms, new
# stamps; 8.6 to 9.9 µs in all at 5c2f826): the one-thread walk of the planned runs and ~10
# native lanes the largest, 4 to 6 µs; the tile's load (a cold read of 32 KiB by one block)
# 1 to 2 µs; the keys and the segmented scan 1 to 2 µs.
set -u
T0=$(date +%s)
left() { echo $((${CALL_LIMIT:-585} - $(date +%s) + T0)); }
rm -rf .devbin && tar xJf .dev2.tgz
export BINADE_REQUIRE_GPU=1 BINADE_MODULE_FORM=cubin BINADE_BIN=$PWD/.devbin/binade
D=$PWD
R=/tmp/r1; rm -rf $R; mkdir -p $R/probe $R/events $R/probe30
cp .devbin/tests/MANIFEST.tsv $R/
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader > $R/device.txt
pack() { tar czf $OUT/r1.tgz -C /tmp r1; }
cd $R/probe && timeout 100 $D/.devbin/examples/walked_probe 11 - 8294400,100000000 > probe.csv 2> probe.err; echo "probe rc $?" | tee -a $R/rc.txt
cut -d, -f1-4,12 probe.csv | sed 's/"//g'
cd $D; pack
timeout 30 .devbin/tests/run_places > $R/run-places.log 2>&1; echo "run_places rc $?" | tee -a $R/rc.txt
grep -h "test result" $R/run-places.log
timeout 260 .devbin/tests/gpu_walked > $R/gpu_walked.log 2>&1; echo "gpu_walked rc $?" | tee -a $R/rc.txt
grep -E "FAILED|test result" $R/gpu_walked.log | tail -8
pack
L=$(left); echo "left $L s"
if [ "$L" -ge 110 ]; then
  timeout $((L - 60)) .devbin/binade run mutations --out $R/mutations > $R/mutations.log 2>&1; echo "mutations rc $?" | tee -a $R/rc.txt
  head -c 900 $R/mutations/README.md | tail -c 700
else
  echo "mutations not run: $L s left" | tee -a $R/rc.txt
fi
pack
L=$(left); echo "left $L s"
if [ "$L" -ge 25 ]; then
  cd $R/events && timeout $((L - 8)) $D/.devbin/examples/walked_probe 11 events 4096,8294400 > probe.csv 2> probe.err; echo "events rc $?" | tee -a $R/rc.txt
  cd $D
fi
pack
