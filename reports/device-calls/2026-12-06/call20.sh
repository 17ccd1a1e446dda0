# Call 20 of 2026-12-06 (fourth session), staged by scripts/stage-walked.sh (.dev1.tgz) at the
# commit in .dev1/COMMIT, carrying CCCL's headers (.cccl.tgz: the nvidia-cuda-cccl 13.3.5 wheel
# unpacked in experiments/peers/cccl/include) and fixtures/cache/skimage (scikit-image 0.26.0's
# bundled PNGs): call 19 again with the first tile's finish no longer dead code, then the
# official timing runs of the engine that has it.
#  1. all of gpu_walked with BINADE_REQUIRE_GPU=1;
#  2. examples/walked_probe 11 events 8294400,100000000 (both builds, their traces, cupy.sum);
#  3. binade run gpu-timing, ssimulacra2-timing, float-vif-timing.
# Prediction, written before the call: as call 19's (the first tile's sum taken by the walker
# at about 23 to 27 µs, not 37 to 41; the engine at 8,294,400 uniform terms 0.056 to 0.060 ms
# in the probe, about 12 µs below the walker's own finish in the same call, 10^8 within 2%);
# gpu-timing as its text says (8,294,400 uniform terms about 0.053 ms, about 1.4x cupy.sum;
# 10^8 and 2^30 within 3% of b5d3995's); SSIMULACRA2 at 3840x2160 one launch a frame a few
# percent faster (108 sums, each with a first tile), float VIF unchanged (its sums do not use
# the walked engine).
set -u
tar xJf .dev1.tgz; tar xJf .cccl.tgz; export BINADE_REQUIRE_GPU=1; B=.dev1/binade; R=/tmp/r; rm -rf $R; mkdir -p $R
cp .dev1/COMMIT $R/COMMIT
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader > $R/device.txt
BINADE_MODULE_FORM=cubin timeout 200 .dev1/gpu_walked --test-threads 4 > $R/gpu_walked.log 2>&1; echo "gpu_walked rc $?" | tee -a $R/rc.txt
grep -E "test result|FAILED" $R/gpu_walked.log | head -5
(cd $R && timeout 100 $OLDPWD/.dev1/walked_probe 11 events 8294400,100000000 > probe.csv 2> probe.err); echo "probe rc $?" | tee -a $R/rc.txt
for p in python3 /opt/torch/.venv/bin/python; do if "$p" -c "import cupy" 2>/dev/null; then py=$p; break; fi; done
timeout 40 ${py:-python3} experiments/peers/cupy_sum.py --sizes 8294400,100000000 --pool 33554432 --seed 2026 --reps 11 > $R/cupy.json 2> $R/cupy.err; echo "cupy rc $?" | tee -a $R/rc.txt
cut -d, -f1-4,12,21-23 $R/probe.csv
timeout 280 $B run gpu-timing --out $R/gpu-timing > $R/gpu-timing.log 2>&1; echo "gpu-timing rc $?" | tee -a $R/rc.txt
timeout 45 $B run ssimulacra2-timing --out $R/ssimulacra2-timing > $R/ssimulacra2-timing.log 2>&1; echo "ssimulacra2-timing rc $?" | tee -a $R/rc.txt
timeout 20 $B run float-vif-timing --out $R/float-vif-timing > $R/float-vif-timing.log 2>&1; echo "float-vif-timing rc $?" | tee -a $R/rc.txt
head -c 1500 $R/gpu-timing/README.md
tar czf $OUT/r.tgz -C /tmp r
