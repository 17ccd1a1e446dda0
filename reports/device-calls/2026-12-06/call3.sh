# Call 3 of 2026-12-06 (at 88f4369, the same warm H100): call 2 again but gpu_walked, its
# reports packed in one file (call 2 wrote them one by one under $OUT, and only eight files
# come back from a call).
set -u
tar xJf .dev2.tgz; export BINADE_REQUIRE_GPU=1; B=.devbin/binade; R=/tmp/r; mkdir -p $R/f32-stall
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader > $R/device.txt
# (gpu_walked ran in call 2; its log came back)
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
tar czf $OUT/r.tgz -C /tmp r
