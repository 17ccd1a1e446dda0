# Call 25 of 2026-12-06 (sixth session), staged by scripts/stage-device.sh (.devbin packed in
# .dev2.tgz) at the commit in .devbin/tests/MANIFEST.tsv. First written at 1baa60e (items 1 to
# 3); after five failed starts, extended at the parity moves' commit (items 4 and 5) and
# restaged.
#  1. tests/vif_gpu.rs with BINADE_REQUIRE_GPU=1 (the scorer's headed rows, 37f7999, with
#     their own binaries for the first time);
#  2. binade run float-vif-timing: heads 4, 8, 16, 32 and 64, beside and not; the headline now
#     leads with the scorer's figure (head 8, sums beside) and names the fastest head timed;
#  3. binade run float-vif-parity: the scorer's headed rows and heads 16 and 32, beside;
#  4. tests/gpu_walked.rs's f32 tests and compile test: the f32 engine with the parity moves
#     (Moves::Parity, BINADE_WK_MOVES 4) and its plan shapes, Moves::On among them, each on
#     every f32 kill case, twice;
#  5. binade run gpu-timing-f32: the parity moves against the per-term moves (the column before).
# Prediction, written before the call:
#  - heads 4, 8, 16 within 1% of call 22 (1.616, 1.597, 1.581 ms beside; 1.066x the trees
#    for head 8); term-by-term segments a row 5.23, 4.26, 3.16 as there (same frame, same
#    plan); head 32 about 2.2, head 64 about 1.2 (the crossings near 32 and 64 left);
#  - head 32 within 1% of head 16 beside (one crossing fewer, against 960 serial adds at scale 0
#    that begin to outlast the formers); head 64 slower than head 32 (1,920 serial adds, about
#    4 us a block at scale 0, beyond the formers' time); the fastest head 16 or 32;
#  - vif_gpu 11 of 11; parity: every output the CPU's bits, 10 twins;
#  - gpu_walked's f32 tests pass (plans change no bit);
#  - gpu-timing-f32, half ties: at 10^8 about 60 tiles finished (997 before) and 1 to 2.5 ms
#    (16.3 before); at 2^30 under 150 tiles finished (1,028) and under 6 ms (18.4); uniform,
#    log-normal and geometric within 5% of the column before, with the same tiles finished.
set -u
tar xJf .dev2.tgz; export BINADE_REQUIRE_GPU=1 BINADE_MODULE_FORM=cubin BINADE_BIN=$PWD/.devbin/binade
B=.devbin/binade; R=/tmp/r; rm -rf $R; mkdir -p $R
cp .devbin/tests/MANIFEST.tsv $R/
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader > $R/device.txt
timeout 120 .devbin/tests/vif_gpu > $R/vif_gpu.log 2>&1; echo "vif_gpu rc $?" | tee -a $R/rc.txt
grep -E "test result|FAILED|panicked" $R/vif_gpu.log | head -8
timeout 90 $B run float-vif-timing --out $R/float-vif-timing > $R/float-vif-timing.log 2>&1; echo "float-vif-timing rc $?" | tee -a $R/rc.txt
head -c 1000 $R/float-vif-timing/README.md; grep -A20 "walks on the timed" $R/float-vif-timing/README.md
timeout 150 $B run float-vif-parity --out $R/float-vif-parity > $R/float-vif-parity.log 2>&1; echo "float-vif-parity rc $?" | tee -a $R/rc.txt
head -c 600 $R/float-vif-parity/README.md
timeout 170 .devbin/tests/gpu_walked walked_f32 walked_compiles --test-threads 2 > $R/gpu_walked_f32.log 2>&1; echo "gpu_walked rc $?" | tee -a $R/rc.txt
grep -E "test result|FAILED|panicked" $R/gpu_walked_f32.log | head -8
timeout 200 $B run gpu-timing-f32 --out $R/gpu-timing-f32 > $R/gpu-timing-f32.log 2>&1; echo "gpu-timing-f32 rc $?" | tee -a $R/rc.txt
grep -E "^\| (1 - q|uniform|log|geo)" $R/gpu-timing-f32/README.md | head -12 | cut -c1-200
tar czf $OUT/r.tgz -C /tmp r
