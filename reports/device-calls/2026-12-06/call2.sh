# Call 2 of 2026-12-06 (at 88f4369): the f32 stall cap on the GPU, then the kill-check fixes.
#  1. gpu_walked's f32 tests and its compile test (the capped, uncapped and TooLow builds);
#  2. binade sum --engine gpu on uniform f32 files of 2^24 to 2^30 terms, by the binary
#     before the cap (a712836, .devbin/binade-before, up to 2^28) and after it: kernel ms
#     and the tiles the walker finished from their terms;
#  3. gpu-timing-f32 (8,294,400, 10^8 and 2^30 terms; the uncapped build up to 10^8);
#  4. gpu-tests-hold, then mutations-device-fvif (experiments/reduced).
# Everything is written under $OUT as it goes, so a cut call keeps what finished.
set -u
tar xJf .dev2.tgz; export BINADE_REQUIRE_GPU=1; B=.devbin/binade; R=$OUT/r; mkdir -p $R/f32-stall
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader > $R/device.txt
timeout 130 .devbin/tests/gpu_walked walked_f32 walked_compiles --test-threads 2 --nocapture > $R/gpu_walked_f32.log 2>&1; echo "gpu_walked rc $?" | tee -a $R/rc.txt
python3 -c '
import numpy as np
for k in (24, 26, 28, 30):
    np.save(f"/tmp/u{k}.npy", np.random.default_rng(k).random(2**k, dtype=np.float32))
'
for k in 24 26 28 30; do
  for b in before after; do
    [ $b = before ] && [ $k = 30 ] && continue
    bin=$B; [ $b = before ] && bin=.devbin/binade-before
    s=$EPOCHREALTIME
    timeout 40 $bin sum --engine gpu --upload plain --check --format json /tmp/u$k.npy > $R/f32-stall/$b-$k.json 2> $R/f32-stall/$b-$k.err; rc=$?
    echo "$b k=$k rc $rc wall $(awk "BEGIN{print $EPOCHREALTIME - $s}") s" >> $R/f32-stall/runs.txt
  done
done
cat $R/f32-stall/runs.txt
timeout 150 $B run gpu-timing-f32 --out $R/gpu-timing-f32 > $R/gpu-timing-f32.log 2>&1; echo "timing rc $?" | tee -a $R/rc.txt
timeout 100 $B run gpu-tests-hold --experiments experiments/reduced --out $R/gpu-tests-hold > $R/hold.log 2>&1; echo "hold rc $?" | tee -a $R/rc.txt
timeout 60 $B run mutations-device-fvif --experiments experiments/reduced --out $R/mutations-device-fvif > $R/mut.log 2>&1; echo "mut rc $?" | tee -a $R/rc.txt
