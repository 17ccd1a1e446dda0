# Call 29 of 2026-12-06 (seventh session), binaries staged by scripts/stage-device.sh from a
# clean tree (.devbin/tests/MANIFEST.tsv names the commit): the f32 walked engine's look-backs
# read again across a crossing (`Moves::Crossing`, BINADE_WK_MOVES 5, now the f32 default),
# and the float VIF scorer's head of 64 segments (HEAD_SEGMENTS, was 8). Call 28's question
# (log-normal at 2^30) is asked again here by gpu-timing-f32's "before" column, now
# `Moves::Parity` (3426936's engine) with 21 timings instead of 5.
# Prediction, written before the call:
# - vif_gpu 11 of 11 and gpu_walked's f32 tests (with the new plan shapes) all pass: plans
#   and heads change no bit.
# - gpu-timing-f32: geometric at 2^30 500 to 900 tiles finished (2,312 before) and 7 to 12 ms
#   (25.4), at 10^8 50 to 90 tiles (178) and 0.9 to 1.4 ms (1.78); uniform, log-normal and half
#   ties within 5% of the build before with the same tiles finished; log-normal at 2^30 in the
#   build before within 10% of 3.963 ms (so call 25's 4.928 was that run's).
# - float-vif-parity: every output of both twins the CPU reference's bits, the scorer's head of
#   64 and heads 8, 16, 32 beside (14,100 of 14,100 or the count with the added row).
# - float-vif-timing: the scorer (head 64) within 2% of call 25's 1.554 ms, about 1.03x the trees.
set -u
[ -d .devbin ] || tar xJf .dev2.tgz
export BINADE_REQUIRE_GPU=1 BINADE_MODULE_FORM=cubin BINADE_BIN=$PWD/.devbin/binade
B=.devbin/binade; R=/tmp/r; rm -rf $R; mkdir -p $R
cp .devbin/tests/MANIFEST.tsv $R/
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader > $R/device.txt
timeout 200 .devbin/tests/gpu_walked walked_f32 walked_compiles --test-threads 2 > $R/gpu_walked_f32.log 2>&1; echo "gpu_walked rc $?" | tee -a $R/rc.txt
grep -E "test result|FAILED|panicked" $R/gpu_walked_f32.log | head -8
timeout 200 $B run gpu-timing-f32 --out $R/gpu-timing-f32 > $R/gpu-timing-f32.log 2>&1; echo "gpu-timing-f32 rc $?" | tee -a $R/rc.txt
grep -E "^\| (1 - q|uniform|log|geo)" $R/gpu-timing-f32/README.md | head -12 | cut -c1-200
timeout 90 .devbin/tests/vif_gpu > $R/vif_gpu.log 2>&1; echo "vif_gpu rc $?" | tee -a $R/rc.txt
grep -E "test result|FAILED|panicked" $R/vif_gpu.log | head -8
timeout 120 $B run float-vif-parity --out $R/float-vif-parity > $R/float-vif-parity.log 2>&1; echo "float-vif-parity rc $?" | tee -a $R/rc.txt
head -c 600 $R/float-vif-parity/README.md
timeout 60 $B run float-vif-timing --out $R/float-vif-timing > $R/float-vif-timing.log 2>&1; echo "float-vif-timing rc $?" | tee -a $R/rc.txt
head -c 800 $R/float-vif-timing/README.md
tar czf $OUT/r.tgz -C /tmp r
