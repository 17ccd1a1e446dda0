# Call 4 of 2026-12-07 (eleventh session), binaries staged from a clean tree at 8a3ef12
# (MANIFEST.tsv names the commit): call2.sh's steps, unchanged, at the commit where the walked
# engine keeps the pair units by default (`tie_parity` off since 981e601; the tie path by tie
# corrections is built beside it in walked_probe, walked_f32_paths q3, gpu_walked's SHAPES[26]
# and the mutants TieParityKept and TieCarryIgnored). Calls 1 to 3 could not start.
# Predictions, written before the call (reports/walked-tie-parity/PREDICTION.md has the
# arithmetic):
# 1. walked_probe (f64; four distributions at 8,294,400, 10^8 and 2^30): "walked, tie parity"
#    on half ties at 2^30 3.4 to 3.8 ms ("walked (pair-unit ties)" 4.18 at 168b9b2, timed
#    beside it), at 10^8 0.36 to 0.41 ms (0.434), at 8,294,400 within 5% of the pair units;
#    uniform, log-normal and geometric within 3% of the pair-unit build; every total the loop's
#    bits.
# 2. gpu-tests-changed (reduced experiments): every test of every binary passes, with
#    BINADE_REQUIRE_GPU=1 so none can skip; the two new mutants killed by a wrong total.
# 3. walked_f32_paths time, e3 (the f32 engine) against q3 (tie corrections), half ties and
#    uniform at 10^8 and 2^30: half ties faster by 0 to 5% (the f32 tie path costs 4% at 2^30
#    at 168b9b2), uniform within 3%.
# 4. binade run mutations, if at least 170 s are left: the matrix as at fb0be33 (22 of 24 named
#    algebra mutants killed by a wrong result, 2 by coverage, 0 survived), the walked table with
#    26 mutants, each killed by a wrong total.
set -u
T0=$(date +%s)
left() { echo $((${CALL_LIMIT:-590} - $(date +%s) + T0)); }
[ -d .devbin ] || tar xJf .dev2.tgz
export BINADE_REQUIRE_GPU=1 BINADE_MODULE_FORM=cubin BINADE_BIN=$PWD/.devbin/binade
R=/tmp/r; rm -rf $R; mkdir -p $R
cp .devbin/tests/MANIFEST.tsv $R/
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader > $R/device.txt
(cd $R && timeout 120 $OLDPWD/.devbin/examples/walked_probe > probe.csv 2> probe.err); echo "probe rc $?" | tee -a $R/rc.txt
cut -d, -f1-6,9 $R/probe.csv | head -60
tar czf $OUT/r.tgz -C /tmp r
timeout 280 .devbin/binade run gpu-tests-changed --experiments experiments/reduced --out $R/gpu-tests-changed > $R/gpu-tests-changed.log 2>&1; echo "gpu-tests-changed rc $?" | tee -a $R/rc.txt
head -c 600 $R/gpu-tests-changed/README.md | tail -c 450
tar czf $OUT/r.tgz -C /tmp r
[ "$(left)" -ge 60 ] && (cd $R && timeout 40 $OLDPWD/.devbin/examples/walked_f32_paths time 100000000,1073741824 SsimTies,Uniform e3,q3 > f32-time.csv 2> f32-time.err); echo "f32 time rc $?" | tee -a $R/rc.txt
cut -d, -f1-5 $R/f32-time.csv | head -12
tar czf $OUT/r.tgz -C /tmp r
L=$(left); echo "left $L s"
if [ "$L" -ge 170 ]; then
  timeout $((L - 10)) .devbin/binade run mutations --out $R/mutations > $R/mutations.log 2>&1; echo "mutations rc $?" | tee -a $R/rc.txt
  head -c 900 $R/mutations/README.md | tail -c 700
else
  echo "mutations not run: $L s left" | tee -a $R/rc.txt
fi
tar czf $OUT/r.tgz -C /tmp r
