# Call 5 of 2026-12-07 (eleventh session), binaries staged from a clean tree at 7f27b03
# (MANIFEST.tsv names the commit), where the walked engine takes a tie tile's unit from its
# tie corrections (`tie_parity` on) after call 4's probe (2^30 half ties 3.418 against 4.190 ms
# with pair units, every total the loop's bits). Call 4's GPU suite ran out of its 280 s:
# 37 of 38 binaries had finished at 140 s, gpu_walked had not at 280 s (285 s alone in the
# whole suite's last run). This call runs the suite at 7f27b03 with room for it, then the
# kill matrix.
# Predictions, written before the call:
# 1. gpu-tests-changed (reduced experiments): every test of the 38 binaries passes, none
#    skipped (BINADE_REQUIRE_GPU=1); gpu_walked 280 to 400 s, the slowest binary; its
#    `walked_equals_the_loop_pair_units` takes the tie path on both shapes; the mutants
#    TieParityKept and TieCarryIgnored killed by a wrong total.
# 2. binade run mutations, if at least 130 s are left: as at 8a3ef12 in call 4 (22 of 24 named
#    algebra mutants killed by a wrong result, 2 by coverage, 0 survived; 8 plan mutants change
#    0 results), the walked tables' mutants each killed by a wrong total, now built with the
#    tie corrections (TieIgnored among them).
set -u
T0=$(date +%s)
left() { echo $((${CALL_LIMIT:-590} - $(date +%s) + T0)); }
[ -d .devbin ] || tar xJf .dev2.tgz
export BINADE_REQUIRE_GPU=1 BINADE_MODULE_FORM=cubin BINADE_BIN=$PWD/.devbin/binade
R=/tmp/r5; rm -rf $R; mkdir -p $R
cp .devbin/tests/MANIFEST.tsv $R/
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader > $R/device.txt
timeout 450 .devbin/binade run gpu-tests-changed --experiments experiments/reduced --out $R/gpu-tests-changed > $R/gpu-tests-changed.log 2>&1; echo "gpu-tests-changed rc $?" | tee -a $R/rc.txt
head -c 700 $R/gpu-tests-changed/README.md | tail -c 550
tar czf $OUT/r5.tgz -C /tmp r5
L=$(left); echo "left $L s"
if [ "$L" -ge 130 ]; then
  timeout $((L - 10)) .devbin/binade run mutations --out $R/mutations > $R/mutations.log 2>&1; echo "mutations rc $?" | tee -a $R/rc.txt
  head -c 600 $R/mutations/README.md | tail -c 450
else
  echo "mutations not run: $L s left" | tee -a $R/rc.txt
fi
tar czf $OUT/r5.tgz -C /tmp r5
