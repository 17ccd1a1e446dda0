# Call 34b of 2026-12-06 (ninth session): call34.sh's two jobs (the f32 engine at three blocks,
# prediction in call34.sh, unchanged) on binaries staged at e105a79 (clean tree; MANIFEST.tsv
# names the commit), followed by the whole GPU suite at that commit.
# Prediction for the suite, written before the call: gpu-tests-changed (reduced experiments)
# passes every test of its 38 binaries, as at 3818228 (372 of 372); the f32 tests at three
# blocks and frame_walked_totals (host code of the SSIMULACRA2 walked path, first run on the
# GPU here) change no bit.
set -u
bash reports/device-calls/2026-12-06/call34.sh
export BINADE_REQUIRE_GPU=1 BINADE_MODULE_FORM=cubin BINADE_BIN=$PWD/.devbin/binade
R=/tmp/r
timeout 330 .devbin/binade run gpu-tests-changed --experiments experiments/reduced --out $R/gpu-tests-changed > $R/gpu-tests-changed.log 2>&1; echo "gpu-tests-changed rc $?" | tee -a $R/rc.txt
head -c 400 $R/gpu-tests-changed/README.md | tail -c 300
tar czf $OUT/r.tgz -C /tmp r
