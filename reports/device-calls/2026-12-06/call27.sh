# Call 27 of 2026-12-06 (sixth session), on the machine calls 25 and 26 left warm, the same
# staging (.devbin at 3426936): the whole GPU suite, every test binary, as gpu-tests-changed
# runs them (experiments/reduced), the first since the parity moves became the f32 default.
# Prediction, written before the call: every test passes (plans change no bit), about 250 s.
set -u
[ -d .devbin ] || tar xJf .dev2.tgz
export BINADE_REQUIRE_GPU=1 BINADE_MODULE_FORM=cubin BINADE_BIN=$PWD/.devbin/binade
R=/tmp/r; rm -rf $R; mkdir -p $R
timeout 330 .devbin/binade run gpu-tests-changed --experiments experiments/reduced --out $R/gpu-tests-changed > $R/gpu-tests-changed.log 2>&1; echo "gpu-tests-changed rc $?" | tee -a $R/rc.txt
head -c 800 $R/gpu-tests-changed/README.md
tar czf $OUT/r.tgz -C /tmp r
