# Call 8 of 2026-12-07 (eleventh session), the binaries of calls 5 to 7 (7f27b03), CCCL's
# headers carried: gpu-timing-f32, the f32 engine (`WalkedShape::DEFAULT_F32`) now with the
# tie corrections (call 4's build `q3`).
# Prediction, written before the call: the walked f32 rows within 5% of call 4's q3 (half
# ties 10^8 1.251 ms, 2^30 3.205; uniform 0.370, 3.137) and of reports/gpu-timing-f32
# (e105a79) for the other streams; every total the f32 loop's bits; about 40 s.
set -u
[ -d .devbin ] || tar xJf .dev2.tgz
[ -d experiments/peers/cccl/include ] || tar xJf .cccl.tgz
export BINADE_REQUIRE_GPU=1 BINADE_MODULE_FORM=cubin BINADE_BIN=$PWD/.devbin/binade
R=/tmp/r8; rm -rf $R; mkdir -p $R
cp .devbin/tests/MANIFEST.tsv $R/
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader > $R/device.txt
timeout 200 .devbin/binade run gpu-timing-f32 --out $R/gpu-timing-f32 > $R/gpu-timing-f32.log 2>&1; echo "gpu-timing-f32 rc $?" | tee -a $R/rc.txt
head -c 900 $R/gpu-timing-f32/README.md | tail -c 750
tar czf $OUT/r8.tgz -C /tmp r8
