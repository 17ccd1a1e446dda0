# Call 15 of 2026-12-06 (third session), at 654dfd7 (361be44's sources; staged by
# scripts/stage-device.sh with the tree clean): the engine of call 14's V4 and its plan mutant Moves::BaseUnknown.
#  1. gpu_walked's f32 tests and its compile test (the engine's f32 build and the plan shapes,
#     BaseUnknown among them, each on every f32 kill case, twice);
#  2. gpu-timing-f32 (8,294,400, 10^8 and 2^30 terms; the build without the moves beside);
#  3. binade sum --engine gpu --check on numpy-written f32 files: log-normal 2^26 and 2^28, and
#     the geometric stream of scripts/f32-moves-plan-model.py (10^8 less a partial tile);
#  4. the whole mutations matrix (its f32 table has BaseUnknown);
#  5. the test binaries sum_cli and binade-lib (binade sum's f32 device path among them).
# Prediction, written before the call: every test and every mutant row as before (plan mutants
# keep the loop's bits); gpu-timing-f32's walked figures as call 14's V4 within 10% (uniform
# 2^30 about 3.1 ms, log-normal about 3.9, geometric about 26); half ties at 2^30 between 5 and
# 14 ms (13.6 at 6466b94); the numpy geometric file under 300 tiles finished (1,580 at 6466b94).
set -u
tar xJf .dev2.tgz; export BINADE_REQUIRE_GPU=1; B=.devbin/binade; R=/tmp/r; mkdir -p $R/sum
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader > $R/device.txt
BINADE_MODULE_FORM=cubin timeout 170 .devbin/tests/gpu_walked walked_f32 walked_compiles --test-threads 2 --nocapture > $R/gpu_walked_f32.log 2>&1; echo "gpu_walked rc $?" | tee -a $R/rc.txt
timeout 200 $B run gpu-timing-f32 --out $R/gpu-timing-f32 > $R/gpu-timing-f32.log 2>&1; echo "timing rc $?" | tee -a $R/rc.txt
python3 -c '
import numpy as np
g = np.random.default_rng(1)
for k in (26, 28):
    np.save(f"/tmp/ln{k}.npy", np.exp(3.0 * g.standard_normal(2**k)).astype(np.float32))
n = 100_000_000 - 100_000_000 % 4096
g = np.random.default_rng(1)
i = np.arange(n, dtype=np.float64)
np.save("/tmp/geo.npy", ((0.5 + 0.5 * g.random(n)) * np.exp2(i * 2.0**-23 - 120.0)).astype(np.float32))
'
for f in ln26 ln28 geo; do
  s=$EPOCHREALTIME
  timeout 60 $B sum --engine gpu --upload plain --check --format json /tmp/$f.npy > $R/sum/$f.json 2> $R/sum/$f.err; rc=$?
  echo "$f rc $rc wall $(awk "BEGIN{print $EPOCHREALTIME - $s}") s" >> $R/sum/runs.txt
done
cat $R/sum/runs.txt
timeout 300 $B run mutations --out $R/mutations > $R/mutations.log 2>&1; echo "mutations rc $?" | tee -a $R/rc.txt
for t in sum_cli binade-lib; do
  f=$(awk -F'\t' -v n=$t '$1==n{print $2}' .devbin/tests/MANIFEST.tsv)
  BINADE_MODULE_FORM=cubin timeout 60 .devbin/tests/$f --test-threads 4 > $R/$t.log 2>&1; echo "$t rc $?" | tee -a $R/rc.txt
done
grep -E "test result|FAILED|panicked" $R/gpu_walked_f32.log $R/sum_cli.log $R/binade-lib.log | head
tar czf $OUT/r.tgz -C /tmp r
