# Call 13 of 2026-12-06 (third session): four builds of examples/walked_f32_paths, carried as
# .dev3.tgz, whose kernels differ only in the f32 moves' code (the f64 build's PTX and the f32
# build without moves are HEAD's in all four):
#   head: the kernel of c3e9c6a (call 12's);
#   A:    look-backs longer than 32 tiles sum their first passes' moves both ways (from the
#         window base and the binade above) and keep the one for the base's binade;
#   B:    the moves' block reduction: a warp with no moves skips their shuffles, warp 0 alone
#         combines them, and multiplies by u_mb instead of dividing by 1 / u_mb;
#   both: A and B (the candidate).
#  1. `time` (CUDA-event medians of 11 launches) of each one's engine build on uniform,
#     log-normal and geometric f32 at 10^8 and 2^30 terms, head's build without moves beside;
#  2. `tiles` of `both` on the geometric and log-normal f32 streams at 10^8.
# Prediction, written before the call: with A the geometric stream's chains follow the loop as
# the host model's do (under 100 tiles finished at 10^8 against about 1,550; under 3 ms against
# 15; at 2^30 under 20 ms against 320); log-normal about as before; uniform unchanged by A, and
# B takes back part of the moves' cost there (2^30: about 3.0 ms against 3.40, the build
# without moves 2.56).
set -u
tar xJf .dev3.tgz; export BINADE_REQUIRE_GPU=1; E=.devbin/examples; R=/tmp/r; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader > $R/device.txt
for v in head A B both; do
  b=e4; [ $v = head ] && b=e4,n4
  timeout 150 $E/paths_$v time 100000000,1073741824 Uniform,LogNormal3,Geometric $b > $R/time-$v.csv 2> $R/time-$v.err; echo "time $v rc $?" | tee -a $R/rc.txt
done
timeout 120 $E/paths_both tiles 100000000 Geometric,LogNormal3 > $R/tiles-both-1e8.txt 2>&1; echo "tiles rc $?" | tee -a $R/rc.txt
for v in head A B both; do sed "s/^/$v,/" $R/time-$v.csv; done
grep -v "^  " $R/tiles-both-1e8.txt | head -40
tar czf $OUT/r.tgz -C /tmp r
