# Call 22 of 2026-12-06 (fifth session), staged by scripts/stage-device.sh (.devbin packed in
# .dev2.tgz) at the commit in .devbin/tests/MANIFEST.tsv: the float VIF headed rows (df9ad94).
#  1. tests/vif_gpu.rs with BINADE_REQUIRE_GPU=1 (the headed rows for every head, their mutant);
#  2. binade run float-vif-timing (the heads 4, 8 and 16, beside and not, with each variant's
#     walks and bits on the timed frame) and float-vif-parity (the headed rows beside);
#  3. binade run gpu-tests-changed --experiments experiments/reduced: every GPU test binary,
#     the first run of the whole suite since the walked engine's first-tile finish (054862f).
# Prediction, written before the call:
#  - the paired rows walk about 16 rounds a row, 7.9 segments of them term by term; a head of
#    8 segments takes the rounds of segments 0 to 7 (4 term by term, 3 runs), so about 4.0
#    term-by-term segments a row remain (head 4: about 5.0; head 16: about 3.0);
#  - the sums alone (paired rows 0.276 ms at 054862f): head 4 about 0.23, head 8 about 0.21,
#    head 16 about 0.21 ms (its 480 serial adds at scale 0 near the block's critical path);
#  - the frame with the sums beside, head 8: 1.62 to 1.64 ms, 1.08 to 1.09x the trees (the
#    goal, 1.10, met); the paired rows' figures within 1% of 054862f's (their kernel lost 4
#    registers, 44 to 40, from the walk's new start arguments);
#  - every test passes; every variant's sums the CPU's bits.
set -u
tar xJf .dev2.tgz; export BINADE_REQUIRE_GPU=1 BINADE_MODULE_FORM=cubin BINADE_BIN=$PWD/.devbin/binade
B=.devbin/binade; R=/tmp/r; rm -rf $R; mkdir -p $R
cp .devbin/tests/MANIFEST.tsv $R/
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader > $R/device.txt
timeout 120 .devbin/tests/vif_gpu > $R/vif_gpu.log 2>&1; echo "vif_gpu rc $?" | tee -a $R/rc.txt
grep -E "test result|FAILED|panicked" $R/vif_gpu.log | head -8
timeout 60 $B run float-vif-timing --out $R/float-vif-timing > $R/float-vif-timing.log 2>&1; echo "float-vif-timing rc $?" | tee -a $R/rc.txt
head -c 2500 $R/float-vif-timing/README.md; grep -A14 "walks on the timed" $R/float-vif-timing/README.md
timeout 120 $B run float-vif-parity --out $R/float-vif-parity > $R/float-vif-parity.log 2>&1; echo "float-vif-parity rc $?" | tee -a $R/rc.txt
timeout 260 $B run gpu-tests-changed --experiments experiments/reduced --out $R/gpu-tests-changed > $R/gpu-tests-changed.log 2>&1; echo "gpu-tests-changed rc $?" | tee -a $R/rc.txt
head -c 600 $R/float-vif-parity/README.md; head -c 800 $R/gpu-tests-changed/README.md
tar czf $OUT/r.tgz -C /tmp r
