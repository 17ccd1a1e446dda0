# Call 2 of the second session of 2026-12-07 (twelfth session), binaries of the commit in
# MANIFEST.tsv (0e343c6's engine and tests, and examples/add_latency.rs; the
# look-back's first window copied with the terms, `WalkedShape::early`, a shape beside the
# engine's). Predictions, written before the call:
# 1. walked_probe: reports/walked-early/PREDICTION.md (geometric at 2^30 the engine 3.25 to
#    3.45 ms with the window, from about 3.66; uniform and log-normal within 2%; every total
#    the loop's bits).
# 2. gpu_walked's walked_equals_the_loop_early_window and _shifted and the engine shape's test:
#    pass, the ranged plans counted above 0 on 10^8 half-ties terms (about 5,000).
# 3. cpu-timing without its 10^9 sizes (call 1's prediction, call1.sh, which did not start):
#    every sum the loop's bits; 10^8 uniform f64 1 thread 0.85 to 1.0 of the loop.
# 4. add_latency on the GPU host: a dependent f64 add about half a dependent multiply's
#    latency (0.45 to 0.55; Golden Cove's 2 and 4 cycles, if the host is Sapphire Rapids as
#    its 16-core Intel Xeon and the loop's 0.77 ns a term at 10^6 at 9cb8fd3 suggest); the
#    loop on L1 terms within 10% of the dependent add. On the 2-core AMD EPYC build machine
#    (with a cargo-mutants run beside it): add 1.90 ns, multiply 1.89, ratio 1.00, loop 1.85.
set -u
T0=$(date +%s)
left() { echo $((${CALL_LIMIT:-590} - $(date +%s) + T0)); }
[ -d .devbin ] || tar xJf .dev2.tgz
export BINADE_REQUIRE_GPU=1 BINADE_MODULE_FORM=cubin BINADE_BIN=$PWD/.devbin/binade
R=/tmp/r2; rm -rf $R; mkdir -p $R
cp .devbin/tests/MANIFEST.tsv $R/
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader > $R/device.txt
lscpu > $R/lscpu.txt
timeout 60 .devbin/examples/add_latency > $R/add-latency.csv 2> $R/add-latency.err; echo "add_latency rc $?" | tee -a $R/rc.txt
cat $R/add-latency.csv
(cd $R && timeout 200 $OLDPWD/.devbin/examples/walked_probe > probe.csv 2> probe.err); echo "probe rc $?" | tee -a $R/rc.txt
cut -d, -f1-4,14-17 $R/probe.csv | head -80
tar czf $OUT/r2.tgz -C /tmp r2
timeout 150 .devbin/tests/gpu_walked --test-threads 1 walked_equals_the_loop_early_window walked_equals_the_loop_engine_shape --nocapture > $R/gpu-walked-early.log 2>&1; echo "gpu_walked early rc $?" | tee -a $R/rc.txt
grep -E "^test |test result|tiles by" $R/gpu-walked-early.log | cut -c1-200
tar czf $OUT/r2.tgz -C /tmp r2
L=$(left); echo "left $L s"
if [ "$L" -ge 200 ]; then
  timeout $((L - 15)) .devbin/binade run cpu-timing --experiments experiments/reduced --out $R/cpu-timing > $R/cpu-timing.log 2>&1; echo "cpu-timing rc $?" | tee -a $R/rc.txt
  head -c 800 $R/cpu-timing/README.md | tail -c 650
else
  echo "cpu-timing not run: $L s left" | tee -a $R/rc.txt
fi
tar czf $OUT/r2.tgz -C /tmp r2
