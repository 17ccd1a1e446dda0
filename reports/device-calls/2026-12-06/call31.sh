# Call 31 of 2026-12-06 (seventh session), binaries staged from a clean tree (MANIFEST.tsv
# names the commit): the f32 walked engine's re-read limited to spans with a tile whose two
# moves are apart (WK_MOVES_APART), and the parity moves as each thread's sum in ulps,
# M = rint(M + n) (both builds of gpu-timing-f32 have them).
# Prediction, written before the call:
# - gpu-timing-f32: uniform and half ties within 3% of the build before (`Moves::Parity`);
#   geometric within 10% of call 29's 6.64 ms at 2^30 and 0.868 at 10^8; log-normal at 2^30
#   3.9 to 4.3 ms in both builds (the moves now one add and one rint a term; call 29: about
#   4.9), at 10^8 within 5% of call 29.
# - the GPU suite passes (plans change no bit) and the kill matrix as in call 30.
set -u
[ -d .devbin ] || tar xJf .dev2.tgz
export BINADE_REQUIRE_GPU=1 BINADE_MODULE_FORM=cubin BINADE_BIN=$PWD/.devbin/binade
B=.devbin/binade; R=/tmp/r; rm -rf $R; mkdir -p $R
cp .devbin/tests/MANIFEST.tsv $R/
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader > $R/device.txt
timeout 150 $B run gpu-timing-f32 --out $R/gpu-timing-f32 > $R/gpu-timing-f32.log 2>&1; echo "gpu-timing-f32 rc $?" | tee -a $R/rc.txt
grep -E "^\| (1 - q|uniform|log|geo)" $R/gpu-timing-f32/README.md | head -12 | cut -c1-200
timeout 200 $B run mutations --out $R/mutations > $R/mutations.log 2>&1; echo "mutations rc $?" | tee -a $R/rc.txt
head -c 700 $R/mutations/README.md | tail -c 450
timeout 230 $B run gpu-tests-changed --experiments experiments/reduced --out $R/gpu-tests-changed > $R/gpu-tests-changed.log 2>&1; echo "gpu-tests-changed rc $?" | tee -a $R/rc.txt
head -c 300 $R/gpu-tests-changed/README.md | tail -c 200
tar czf $OUT/r.tgz -C /tmp r
