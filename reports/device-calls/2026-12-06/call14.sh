# Call 14 of 2026-12-06 (third session): examples/walked_f32_paths built four ways, carried as
# .dev3.tgz. Each kernel is 5d9630a's ("both": call 13's A and B) or that with a patch of this
# directory applied (variant-*.patch, written against 5d9630a's kernel):
#   both: 5d9630a (the control, timed in call 13);
#   B:    call 13's B (the reduction change alone, no look-back change);
#   V2:   both, but the moves' reduction as before B (every thread combines, no vote), with
#         B's multiply by u_mb in place of the division (ptxas: 204 bytes of spill stores,
#         against 268 for both and 196 at c3e9c6a);
#   V4:   V2 with B's vote (a warp with no moves skips their shuffles) (212 bytes).
# `time` of each one's engine build on uniform, log-normal and geometric f32 at 10^8 and 2^30.
# Prediction, written before the call: V2 or V4 keeps both's geometric and log-normal figures
# (within 5%) and comes within 5% of B on uniform terms at 2^30 (B 2.90 ms, both 3.28 in call 13).
set -u
tar xJf .dev3.tgz; export BINADE_REQUIRE_GPU=1; E=.devbin/examples; R=/tmp/r; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader > $R/device.txt
for v in both B V2 V4; do
  timeout 120 $E/paths_$v time 100000000,1073741824 Uniform,LogNormal3,Geometric e4 > $R/time-$v.csv 2> $R/time-$v.err; echo "time $v rc $?" | tee -a $R/rc.txt
done
for v in both B V2 V4; do sed "s/^/$v,/" $R/time-$v.csv; done
tar czf $OUT/r.tgz -C /tmp r
