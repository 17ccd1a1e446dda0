# Call 9 of 2026-12-06 (second session): call 8 again with the moves' window base taken by each warp (no
# barrier; the block drops the moves where its warps' bases differ).
#  1. gpu_walked's f32 tests and its compile test (the engine's f32 build with the moves, and
#     the builds without them, without the cap, and with the plan mutants TooLow and Swapped);
#  2. gpu-timing-f32 (8,294,400, 10^8 and 2^30 terms; the build without the moves up to 2^30);
#  3. binade sum --engine gpu --check on log-normal f32 .npy files of 2^26 and 2^28 terms
#     (numpy's generator, seed 1) and on the geometric f32 stream of
#     scripts/f32-moves-plan-model.py (10^8 terms less a partial tile, the same numpy draws):
#     the whole command, kernel ms and tiles finished, the last beside the model's misses;
#  4. the whole mutations matrix (its f32 table now has the moves' plan mutant and the builds
#     without the moves, and without the cap and the moves).
# Everything is packed into one archive at the end (only eight files come back from a call).
set -u
tar xJf .dev2.tgz; export BINADE_REQUIRE_GPU=1; B=.devbin/binade; R=/tmp/r; mkdir -p $R/sum
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader > $R/device.txt
timeout 150 .devbin/tests/gpu_walked walked_f32 walked_compiles --test-threads 2 --nocapture > $R/gpu_walked_f32.log 2>&1; echo "gpu_walked rc $?" | tee -a $R/rc.txt
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
tar czf $OUT/r.tgz -C /tmp r
