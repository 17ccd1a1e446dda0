# Call 30 of 2026-12-06 (seventh session), on the machine call 29 left warm, the same staging:
# the whole kill matrix (`binade run mutations`, with the new f32 plan mutant `Moves::Parity`
# and the float VIF head mutant at the head of 64) and the GPU suite (`gpu-tests-changed`,
# every test binary, experiments/reduced).
# Prediction, written before the call: every named mutant killed by a wrong result or by
# coverage as at 3426936 (22 and 2), every plan mutant and correct build keeps the loop's
# bits; every GPU test passes; about 190 s and 220 s.
set -u
[ -d .devbin ] || tar xJf .dev2.tgz
export BINADE_REQUIRE_GPU=1 BINADE_MODULE_FORM=cubin BINADE_BIN=$PWD/.devbin/binade
R=/tmp/r; rm -rf $R; mkdir -p $R
cp .devbin/tests/MANIFEST.tsv $R/
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader > $R/device.txt
timeout 280 .devbin/binade run mutations --out $R/mutations > $R/mutations.log 2>&1; echo "mutations rc $?" | tee -a $R/rc.txt
head -c 1200 $R/mutations/README.md; tail -3 $R/mutations.log
timeout 290 .devbin/binade run gpu-tests-changed --experiments experiments/reduced --out $R/gpu-tests-changed > $R/gpu-tests-changed.log 2>&1; echo "gpu-tests-changed rc $?" | tee -a $R/rc.txt
head -c 800 $R/gpu-tests-changed/README.md
tar czf $OUT/r.tgz -C /tmp r
