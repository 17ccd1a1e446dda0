# Call 19 of 2026-12-06 (fourth session), staged by scripts/stage-walked.sh (.dev1.tgz) at the
# commit in .dev1/COMMIT: the first tile finished by its producer (WalkedShape::first,
# BINADE_WK_FIRST), the engine's shape, against the walker's own finish of it (first: false,
# byte for byte the PTX of bc9ee39, call 18's engine).
#  1. all of gpu_walked with BINADE_REQUIRE_GPU=1 (the two new mutants FirstUnfinished and
#     FirstStartIgnored among the kill tests; the traced test checks the new First event);
#  2. examples/walked_probe 11 events 8294400,100000000,1073741824: both builds and their
#     trace builds, four distributions, event logs in walker-events.csv;
#  3. cupy.sum on the same sizes.
# Prediction, written before the call (call 18's trace of 8,294,400 uniform terms: the walker
# took the first tile's sum at 37.9 µs, then a step of 1,024 tiles with ten split ends to
# 60.7 µs, then the last step to 65.2): the producer of tile 0 finishes it by about 23 to 27
# µs (its own round of about 3 to 5 µs, then the finish of about 20), so the walker's first
# step starts about 12 µs earlier; the engine at 8,294,400 uniform terms from 0.070 to 0.056
# to 0.060 ms (1.45 to 1.55x cupy.sum in the same call), the other three distributions about
# as much faster; 10^8 and 2^30 within 2% of the walker's own finish.
set -u
tar xJf .dev1.tgz; export BINADE_REQUIRE_GPU=1; R=/tmp/r; rm -rf $R; mkdir -p $R
cp .dev1/COMMIT $R/COMMIT
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader > $R/device.txt
BINADE_MODULE_FORM=cubin timeout 330 .dev1/gpu_walked --test-threads 4 > $R/gpu_walked.log 2>&1; echo "gpu_walked rc $?" | tee -a $R/rc.txt
(cd $R && timeout 200 $OLDPWD/.dev1/walked_probe 11 events 8294400,100000000,1073741824 > probe.csv 2> probe.err); echo "probe rc $?" | tee -a $R/rc.txt
for p in python3 /opt/torch/.venv/bin/python; do if "$p" -c "import cupy" 2>/dev/null; then py=$p; break; fi; done
timeout 60 ${py:-python3} experiments/peers/cupy_sum.py --sizes 8294400,100000000,1073741824 --pool 33554432 --seed 2026 --reps 11 > $R/cupy.json 2> $R/cupy.err; echo "cupy rc $?" | tee -a $R/rc.txt
grep -E "test result|FAILED|panicked" $R/gpu_walked.log | head
cut -d, -f1-5,12,22-24 $R/probe.csv
tar czf $OUT/r.tgz -C /tmp r
