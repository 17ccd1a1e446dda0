# Not run (no machine; README.md). At 981e601 the engine keeps the pair units (`tie_parity`
# off): staged there, this call times the engine as it was, and its predictions do not apply.
# Call 3 of 2026-12-07 (tenth session), on the machine call 2 left warm, the same binaries
# (9add337), fixtures/cache/skimage and CCCL 3.3.5's headers (.cccl.tgz) carried: the reports of the walked engine's default
# shape, which takes its tie units from tie corrections since 9add337 (`tie_parity`).
# Predictions, written before the call (after call 2's probe, whose figures they take):
# 1. gpu-timing: the walked rows on half ties within 5% of call 2's probe engine column; the
#    other walked rows within 5% of the report at 054862f (2^30 uniform 3.043 ms, log-normal
#    3.036, geometric 3.670; 10^8 0.322, 0.330, 0.380; 8,294,400 0.059, 0.061, 0.069); every
#    total the loop's bits.
# 2. ssimulacra2-timing: astronaut-4k-jpeg30 in one launch 1.57 to 1.62 ms a frame (1.626 at
#    168b9b2: 15,686 of its first frame's tiles have a tie, about 0.4 µs less a tie tile spread
#    over 132 multiprocessors); astronaut-jpeg50 and checker-10px within 5% of 168b9b2's;
#    every sum the CPU's bits.
set -u
[ -d .devbin ] || tar xJf .dev2.tgz
[ -d experiments/peers/cccl/include ] || tar xJf .cccl.tgz
export BINADE_REQUIRE_GPU=1 BINADE_MODULE_FORM=cubin BINADE_BIN=$PWD/.devbin/binade
R=/tmp/r3; rm -rf $R; mkdir -p $R
cp .devbin/tests/MANIFEST.tsv $R/
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader > $R/device.txt
timeout 150 .devbin/binade run ssimulacra2-timing --out $R/ssimulacra2-timing > $R/ssimulacra2-timing.log 2>&1; echo "ssimulacra2-timing rc $?" | tee -a $R/rc.txt
cut -d, -f1-4,14-21 $R/ssimulacra2-timing/timing.csv
tar czf $OUT/r3.tgz -C /tmp r3
timeout 300 .devbin/binade run gpu-timing --out $R/gpu-timing > $R/gpu-timing.log 2>&1; echo "gpu-timing rc $?" | tee -a $R/rc.txt
head -c 700 $R/gpu-timing/README.md | tail -c 550
tar czf $OUT/r3.tgz -C /tmp r3
