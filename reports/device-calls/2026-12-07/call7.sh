# Call 7 of 2026-12-07 (eleventh session), the binaries of calls 5 and 6 (7f27b03): gpu-parity
# in its quick mode, which ends with compute-sanitizer's memcheck, racecheck and synccheck on
# gpu-sanitize (small sizes, every kernel; the walked engine among them, now with the tie
# corrections, whose block reduction writes and reads sh.tp across a barrier).
# Prediction, written before the call: every exact sum the loop's bits (2,392 at 88f4369, the
# walked engine 409 of 409), each tool clean (0 errors, 0 hazards), about 200 s.
set -u
[ -d .devbin ] || tar xJf .dev2.tgz
export BINADE_REQUIRE_GPU=1 BINADE_MODULE_FORM=cubin BINADE_BIN=$PWD/.devbin/binade
R=/tmp/r7; rm -rf $R; mkdir -p $R
cp .devbin/tests/MANIFEST.tsv $R/
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader > $R/device.txt
timeout 420 .devbin/binade run gpu-parity --quick --out $R/gpu-parity-quick > $R/gpu-parity-quick.log 2>&1; echo "gpu-parity-quick rc $?" | tee -a $R/rc.txt
head -c 800 $R/gpu-parity-quick/README.md | tail -c 650
grep -A6 "compute-sanitizer on the pipeline" $R/gpu-parity-quick/README.md | cut -c1-120
tar czf $OUT/r7.tgz -C /tmp r7
