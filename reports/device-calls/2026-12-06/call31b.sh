# Call 31b of 2026-12-06 (seventh session), on the machine call 31 left warm, the same staging
# (fb0be33): the GPU suite again, which call 31 cut at 230 s; run as given inline to the device
# tool. Prediction (not written before the call; the same as call 31's): every test passes.
set -u; [ -d .devbin ] || tar xJf .dev2.tgz; export BINADE_REQUIRE_GPU=1 BINADE_MODULE_FORM=cubin BINADE_BIN=$PWD/.devbin/binade; R=/tmp/r2; rm -rf $R; mkdir -p $R; cp .devbin/tests/MANIFEST.tsv $R/; timeout 420 .devbin/binade run gpu-tests-changed --experiments experiments/reduced --out $R/gpu-tests-changed > $R/gpu-tests-changed.log 2>&1; echo "gpu-tests-changed rc $?" | tee -a $R/rc.txt; head -c 300 $R/gpu-tests-changed/README.md | tail -c 200; tail -3 $R/gpu-tests-changed.log; tar czf $OUT/r2.tgz -C /tmp r2
