# Call 18 of 2026-12-06 (fourth session), staged by scripts/stage-walked.sh (.dev1.tgz) at the
# commit in .dev1/COMMIT: where the walker's time goes at 8,294,400 terms.
#  1. gpu_walked's traced test (the new event log checked against the walker's counts) and the
#     engine-shape test, with BINADE_REQUIRE_GPU=1;
#  2. examples/walked_probe 11 events 8294400,100000000: the engine and its trace build, four
#     distributions; the trace build's walker event log of three launches (walker-events.csv);
#  3. cupy.sum on the same sizes (experiments/peers/cupy_sum.py).
# Prediction, written before the call (the walker ended 23 µs after the last unit word at
# 517c5e6's 8,294,400 uniform terms, with 25 µs in one finish and ten split ends): the first
# tile's finish takes 5 to 10 µs; the step that covers tiles 1 to 1,024 ends its ten split
# ends in series (each 1 to 2 µs), so it ends after the producers are done; the last step
# starts after the last unit word and takes 3 to 6 µs.
set -u
tar xJf .dev1.tgz; export BINADE_REQUIRE_GPU=1; R=/tmp/r; mkdir -p $R
cp .dev1/COMMIT $R/COMMIT
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader > $R/device.txt
BINADE_MODULE_FORM=cubin timeout 150 .dev1/gpu_walked walked_equals_the_loop_traced walked_equals_the_loop_engine_shape --test-threads 2 > $R/gpu_walked.log 2>&1; echo "gpu_walked rc $?" | tee -a $R/rc.txt
(cd $R && timeout 200 $OLDPWD/.dev1/walked_probe 11 events 8294400,100000000 > probe.csv 2> probe.err); echo "probe rc $?" | tee -a $R/rc.txt
for p in python3 /opt/torch/.venv/bin/python; do if "$p" -c "import cupy" 2>/dev/null; then py=$p; break; fi; done
timeout 60 ${py:-python3} experiments/peers/cupy_sum.py --sizes 8294400,100000000 --pool 33554432 --seed 2026 --reps 11 > $R/cupy.json 2> $R/cupy.err; echo "cupy rc $?" | tee -a $R/rc.txt
grep -E "test result|FAILED|panicked" $R/gpu_walked.log | head
head -c 3000 $R/walker-events.csv
tar czf $OUT/r.tgz -C /tmp r
