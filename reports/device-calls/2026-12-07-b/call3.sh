# Call 3 of the second session of 2026-12-07 (twelfth session), binaries of 5c2f826 (the
# look-back's early window the engine's: WalkedShape::DEFAULT.early = Early::On, so also the
# f32 engine's and SSIMULACRA2's), CCCL 3.5.0's headers (.cccl.tgz) and the skimage
# photographs carried. Predictions, written before the call:
# 1. gpu-tests-changed: every test passes, none skipped (about 376 tests; gpu_walked about
#    220 s).
# 2. mutations: every walked mutant, f64 and f32, killed by a wrong total; every plan mutant,
#    Early::Shifted among them, the loop's bits on every case.
# 3. gpu-timing (if time is left): the walked rows within 3% of call 2's probe with the window
#    (2^30: uniform 2.92 ms, log-normal 2.90, half ties 3.43, geometric 3.40; 10^8: 0.302,
#    0.309, 0.362, 0.361); walked / cupy.sum at 2^30 uniform 1.05 to 1.10, geometric 1.2 to
#    1.3; every total the loop's bits.
# 4. ssimulacra2-timing and gpu-timing-f32 (if time is left): astronaut-4k-jpeg30 1.53 to
#    1.62 ms a frame (1.614 at 7f27b03); the f32 rows within 5% of 7f27b03's (the window not
#    timed on f32 before this call); every sum the CPU's bits.
set -u
T0=$(date +%s)
left() { echo $((${CALL_LIMIT:-590} - $(date +%s) + T0)); }
[ -d .devbin ] || tar xJf .dev2.tgz
[ -d experiments/peers/cccl/include ] || tar xJf .cccl.tgz
export BINADE_REQUIRE_GPU=1 BINADE_MODULE_FORM=cubin BINADE_BIN=$PWD/.devbin/binade
R=/tmp/r3; rm -rf $R; mkdir -p $R
cp .devbin/tests/MANIFEST.tsv $R/
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader > $R/device.txt
timeout 330 .devbin/binade run gpu-tests-changed --experiments experiments/reduced --out $R/gpu-tests-changed > $R/gpu-tests-changed.log 2>&1; echo "gpu-tests-changed rc $?" | tee -a $R/rc.txt
head -c 600 $R/gpu-tests-changed/README.md | tail -c 450
tar czf $OUT/r3.tgz -C /tmp r3
L=$(left); echo "left $L s"
timeout $((L - 10)) .devbin/binade run mutations --out $R/mutations > $R/mutations.log 2>&1; echo "mutations rc $?" | tee -a $R/rc.txt
head -c 900 $R/mutations/README.md | tail -c 700
tar czf $OUT/r3.tgz -C /tmp r3
L=$(left); echo "left $L s"
if [ "$L" -ge 170 ]; then
  timeout $((L - 10)) .devbin/binade run gpu-timing --out $R/gpu-timing > $R/gpu-timing.log 2>&1; echo "gpu-timing rc $?" | tee -a $R/rc.txt
  head -c 900 $R/gpu-timing/README.md | tail -c 750
else
  echo "gpu-timing not run: $L s left" | tee -a $R/rc.txt
fi
tar czf $OUT/r3.tgz -C /tmp r3
