# Call 1 of 2026-12-06: the kill-check fixes (gpu-tests-hold, then mutations-device-fvif), then
# the f32 walked engine's time against the size of a uniform f32 stream, to find where the
# 2^30 row of gpu-timing-f32 spent its time (binade sum --engine gpu reports the tiles the
# walker finished lane by lane).
set -u
tar xJf .dev2.tgz; export BINADE_REQUIRE_GPU=1; B=.devbin/binade; R=device-reports; mkdir -p $R/f32-stall
timeout 120 $B run gpu-tests-hold --experiments experiments/reduced --out $R/gpu-tests-hold > $R/hold.log 2>&1; echo "hold rc $?"
timeout 80 $B run mutations-device-fvif --experiments experiments/reduced --out $R/mutations-device-fvif > $R/mut.log 2>&1; echo "mut rc $?"
python3 -c '
import numpy as np
for k in (22, 24, 25, 26, 27, 28):
    np.save(f"/tmp/u{k}.npy", np.random.default_rng(k).random(2**k, dtype=np.float32))
'
for k in 22 24 25 26 27 28; do
  /usr/bin/time -f "k=$k wall %e s" timeout 60 $B sum --engine gpu --upload plain --check --format json /tmp/u$k.npy >> $R/f32-stall/sum.jsonl 2>> $R/f32-stall/time.log
  echo "k=$k rc $?" >> $R/f32-stall/time.log
done
cat $R/f32-stall/time.log; tail -c 1500 $R/f32-stall/sum.jsonl
tar czf $OUT/reports.tar.gz $R
