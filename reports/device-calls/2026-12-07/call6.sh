# Call 6 of 2026-12-07 (eleventh session), the binaries of call 5 (7f27b03, whose GPU suite
# passed there), fixtures/cache/skimage and CCCL 3.5.0's headers (.cccl.tgz, the PyPI wheel
# nvidia-cuda-cccl 13.3.5.0.6) carried: the reports of the walked engine with the tie
# corrections (`tie_parity` on since 7f27b03).
# Predictions, written before the call (from call 4's probe at 8a3ef12 on an H100):
# 1. gpu-timing: the walked rows within 5% of call 4's "walked, tie parity" (half ties 2^30
#    3.418 ms, 10^8 0.366, 8,294,400 0.064; uniform 3.029, 0.321, 0.062; log-normal 3.017,
#    0.330, 0.065; geometric 3.657, 0.387, 0.071); the ratio to cupy.sum at 2^30 uniform 1.07
#    to 1.13 (1.10 at 054862f), on half ties 1.2 to 1.3 (1.5 with the pair units); every total
#    the loop's bits.
# 2. ssimulacra2-timing: astronaut-4k-jpeg30 in one launch 1.57 to 1.62 ms a frame (1.626 at
#    168b9b2); astronaut-jpeg50 and checker-10px within 5% of 168b9b2's; every sum the CPU's
#    bits.
set -u
[ -d .devbin ] || tar xJf .dev2.tgz
[ -d experiments/peers/cccl/include ] || tar xJf .cccl.tgz
export BINADE_REQUIRE_GPU=1 BINADE_MODULE_FORM=cubin BINADE_BIN=$PWD/.devbin/binade
R=/tmp/r6; rm -rf $R; mkdir -p $R
cp .devbin/tests/MANIFEST.tsv $R/
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader > $R/device.txt
timeout 150 .devbin/binade run ssimulacra2-timing --out $R/ssimulacra2-timing > $R/ssimulacra2-timing.log 2>&1; echo "ssimulacra2-timing rc $?" | tee -a $R/rc.txt
head -c 700 $R/ssimulacra2-timing/README.md | tail -c 550
tar czf $OUT/r6.tgz -C /tmp r6
timeout 330 .devbin/binade run gpu-timing --out $R/gpu-timing > $R/gpu-timing.log 2>&1; echo "gpu-timing rc $?" | tee -a $R/rc.txt
head -c 900 $R/gpu-timing/README.md | tail -c 750
tar czf $OUT/r6.tgz -C /tmp r6
