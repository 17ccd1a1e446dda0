# Call 34 of 2026-12-06 (eighth session), binaries staged from a clean tree (MANIFEST.tsv names
# the commit): the f32 engine at three blocks a multiprocessor (WalkedShape::DEFAULT_F32,
# 80 registers a thread), as call 33's probe measured it faster on all eight rows.
# Prediction, written before the call:
# - gpu_walked's f32 tests pass at the new shape (plans and registers change no bit).
# - gpu-timing-f32: every engine figure within 5% of call 33's three-block build (2^30:
#   uniform 3.125 ms, half ties 3.255, log-normal 3.726, geometric 5.042; 10^8: 0.369,
#   1.282, 0.770, 0.687), every figure before (four blocks) within 5% of its four-block build
#   (2^30: 3.416, 3.623, 4.024, 6.099; 10^8: 0.393, 1.463, 0.902, 0.816).
set -u
[ -d .devbin ] || tar xJf .dev2.tgz
export BINADE_REQUIRE_GPU=1 BINADE_MODULE_FORM=cubin BINADE_BIN=$PWD/.devbin/binade
R=/tmp/r; rm -rf $R; mkdir -p $R
cp .devbin/tests/MANIFEST.tsv $R/
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader > $R/device.txt
T=$(awk -F'\t' '$1=="gpu_walked"{print $2}' .devbin/tests/MANIFEST.tsv)
timeout 110 .devbin/tests/$T --test-threads=1 f32 > $R/gpu_walked_f32.txt 2>&1; echo "gpu_walked f32 rc $?" | tee -a $R/rc.txt
grep -E "^test |test result" $R/gpu_walked_f32.txt
timeout 80 .devbin/binade run gpu-timing-f32 --out $R/gpu-timing-f32 > $R/gpu-timing-f32.log 2>&1; echo "gpu-timing-f32 rc $?" | tee -a $R/rc.txt
grep -E "^\| (1 - q|uniform|log|geo)" $R/gpu-timing-f32/README.md | head -12 | cut -c1-200
tar czf $OUT/r.tgz -C /tmp r
