# Call 1 of the sixth session of 2026-12-07. Binaries of 91efe8f (.dev2.tgz, staged from a
# clean tree): the engine's shape since 531e5f2 (the last position first), which no full
# run of the suite, the kill matrix or the metric timings has used yet.
# Prediction, written before the call:
# 1. gpu-tests (full): every test of every binary passes with BINADE_REQUIRE_GPU=1, 0 skips
#    (a1d2e7c's run: 358 of 358 in 390 s on an H100).
# 2. mutations: every walked mutant killed by a wrong result, AheadUnawaited (new since
#    5c2f826's matrix) and StepLastTrusted among them; 2 Rust/header mutants only by a
#    coverage check, as at 5c2f826.
# 3. walked_probe's phases at 10^8 terms (the producers alone, cut after the load and tree
#    sum, after the plan, after the unit): half ties' unit step costs more than uniform's
#    (at d09aedd the producers alone took 0.3575 ms on half ties against 0.3067 on uniform);
#    predicted: load and tree sum within 3% across the four streams, the plan step about
#    +10% on every stream, the unit step +5% on uniform and +15 to 20% on half ties.
# 4. ssimulacra2-timing and float-vif-timing, with what is left: within 5% of 5c2f826's
#    figures (3840x2160 1.12x the tree sums; float VIF 1.027x the trees).
set -u
T0=$(date +%s)
left() { echo $((${CALL_LIMIT:-585} - $(date +%s) + T0)); }
rm -rf .devbin && tar xJf .dev2.tgz
export BINADE_REQUIRE_GPU=1 BINADE_MODULE_FORM=cubin BINADE_BIN=$PWD/.devbin/binade
D=$PWD
R=/tmp/r1; rm -rf $R; mkdir -p $R
cp .devbin/tests/MANIFEST.tsv $R/
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader > $R/device.txt
pack() { tar czf $OUT/r1.tgz -C /tmp r1; }
timeout 440 .devbin/binade run gpu-tests --out $R/gpu-tests > $R/gpu-tests.log 2>&1; echo "gpu-tests rc $?" | tee -a $R/rc.txt
head -c 700 $R/gpu-tests/README.md | tail -c 500
pack
L=$(left); echo "left $L s"
if [ "$L" -ge 100 ]; then
  timeout $((L - 8)) .devbin/binade run mutations --out $R/mutations > $R/mutations.log 2>&1; echo "mutations rc $?" | tee -a $R/rc.txt
  head -c 900 $R/mutations/README.md | tail -c 700
else
  echo "mutations not run: $L s left" | tee -a $R/rc.txt
fi
pack
L=$(left); echo "left $L s"
if [ "$L" -ge 70 ]; then
  mkdir -p $R/phases && cd $R/phases && timeout $((L - 30)) $D/.devbin/examples/walked_probe 11 phases 100000000 > probe.csv 2> probe.err; echo "phases rc $?" | tee -a $R/rc.txt
  cd $D; cat $R/phases/probe.csv | cut -d, -f1-4
else
  echo "phases not run: $L s left" | tee -a $R/rc.txt
fi
pack
L=$(left); echo "left $L s"
if [ "$L" -ge 45 ]; then
  timeout $((L - 8)) .devbin/binade run ssimulacra2-timing --out $R/ssimulacra2-timing > $R/ssimulacra2-timing.log 2>&1; echo "ssimulacra2-timing rc $?" | tee -a $R/rc.txt
else
  echo "ssimulacra2-timing not run: $L s left" | tee -a $R/rc.txt
fi
pack
L=$(left); echo "left $L s"
if [ "$L" -ge 15 ]; then
  timeout $((L - 5)) .devbin/binade run float-vif-timing --out $R/float-vif-timing > $R/float-vif-timing.log 2>&1; echo "float-vif-timing rc $?" | tee -a $R/rc.txt
else
  echo "float-vif-timing not run: $L s left" | tee -a $R/rc.txt
fi
pack
