# Call 1 of 2026-12-07 (tenth session), binaries staged from a clean tree at e572e73 (MANIFEST.tsv
# names the commit). Call 36 of 2026-12-06 did not run (the device budget was spent): the test
# code of 167d19e (the engine's default back to the tile margin, SSIMULACRA2's sums on the mean
# margin) has not run on a GPU. This call runs the whole GPU suite at that code and the kill
# matrix, last run at fb0be33.
# Predictions, written before the call:
# 1. gpu-tests-changed (reduced experiments): every test of every binary passes (373 at 168b9b2;
#    the same count or more here), with BINADE_REQUIRE_GPU=1 so no GPU test can skip.
# 2. binade run mutations: the same matrix as fb0be33's: 22 of 24 named mutants killed by a wrong
#    result, 2 only by coverage (landing-refused, rust and header), 0 survived, 8 plan mutants
#    changing 0 results, no failed check in the engines' own mutant tables (now run on the GPU).
set -u
[ -d .devbin ] || tar xJf .dev2.tgz
export BINADE_REQUIRE_GPU=1 BINADE_MODULE_FORM=cubin BINADE_BIN=$PWD/.devbin/binade
R=/tmp/r; rm -rf $R; mkdir -p $R
cp .devbin/tests/MANIFEST.tsv $R/
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader > $R/device.txt
timeout 300 .devbin/binade run gpu-tests-changed --experiments experiments/reduced --out $R/gpu-tests-changed > $R/gpu-tests-changed.log 2>&1; echo "gpu-tests-changed rc $?" | tee -a $R/rc.txt
head -c 600 $R/gpu-tests-changed/README.md | tail -c 450
tar czf $OUT/r.tgz -C /tmp r
timeout 240 .devbin/binade run mutations --out $R/mutations > $R/mutations.log 2>&1; echo "mutations rc $?" | tee -a $R/rc.txt
head -c 900 $R/mutations/README.md | tail -c 700
tar czf $OUT/r.tgz -C /tmp r
