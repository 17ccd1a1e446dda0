# Call 12 of 2026-12-06 (third session): examples/walked_f32_paths alone, carried as .dev3.tgz.
#  1. `trace` of the geometric f32 stream at 10^8 terms: every tile's loop sum, tree sum,
#     moves around the loop's binade and plan words, to follow the chain of plans;
#  2. `time`: the engine's f32 build against the build without moves, and both with 3 (and
#     the moves with 2) blocks a multiprocessor, on uniform, log-normal and geometric f32 at
#     10^8 and 2^30 terms (call 11's ncu run had the moves' build at 68.1M local-memory
#     spill requests against 39.9M without them, 64 registers a thread in both).
set -u
tar xJf .dev3.tgz; export BINADE_REQUIRE_GPU=1; P=.devbin/examples/walked_f32_paths; R=/tmp/r; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader > $R/device.txt
timeout 120 $P trace Geometric 100000000 > $R/trace-geometric-1e8.csv 2> $R/trace.err; echo "trace rc $?" | tee -a $R/rc.txt
gzip $R/trace-geometric-1e8.csv
timeout 300 $P time 100000000,1073741824 Uniform,LogNormal3,Geometric > $R/time.csv 2> $R/time.err; echo "time rc $?" | tee -a $R/rc.txt
cat $R/time.csv $R/rc.txt
tar czf $OUT/r.tgz -C /tmp r
# Prediction, written before the call: at 2^30 uniform terms the moves' build with 3 blocks a
# multiprocessor (85 registers) loses most of its spills and runs within 5% of the build
# without moves at 4 blocks (2.56 ms in call 11's profile); the build without moves gains
# under 5% from 3 blocks; 2 blocks is slower than 3 (less to hide the loads' latency). The
# trace shows which move each look-back tile added, and where the chain leaves the loop.
