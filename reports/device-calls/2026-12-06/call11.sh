# Call 11 of 2026-12-06 (third session, from 06:21 UTC): the f32 walked engine's plans tile by
# tile, and a profile of its moves on uniform terms. examples/walked_f32_paths alone, carried
# stripped as .dev3.tgz.
#  1. `tiles` mode on the geometric and log-normal f32 streams at 10^8 terms and the geometric
#     at 2^28: each tile's planned binade (its unit word's) against the f32 loop's binade
#     before it, by path, for the engine's build and the build without moves, two runs each;
#  2. the counters of the four f32 builds on every stream at 10^8 and 2^30 terms;
#  3. ncu (clocks left alone) on the uniform f32 stream at 2^30 terms: the engine's build and
#     the build without moves, each on its second launch.
set -u
tar xJf .dev3.tgz; export BINADE_REQUIRE_GPU=1; P=.devbin/examples/walked_f32_paths; R=/tmp/r; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader > $R/device.txt
timeout 120 $P tiles 100000000 Geometric,LogNormal3 > $R/tiles-1e8.txt 2>&1; echo "tiles 1e8 rc $?" | tee -a $R/rc.txt
timeout 90 $P tiles 268435456 Geometric > $R/tiles-2e28.txt 2>&1; echo "tiles 2^28 rc $?" | tee -a $R/rc.txt
timeout 150 $P 100000000,1073741824 > $R/paths.csv 2>&1; echo "paths rc $?" | tee -a $R/rc.txt
NCU=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu /usr/local/cuda/bin/ncu 2>/dev/null | head -1)
echo "ncu: $NCU" >> $R/rc.txt
timeout 200 $NCU --clock-control none -k walked_sum --launch-skip 1 --launch-count 3 \
  --section SpeedOfLight --section MemoryWorkloadAnalysis --section ComputeWorkloadAnalysis \
  --section WarpStateStats --section SchedulerStats --section LaunchStats --section Occupancy \
  $P once Uniform 1073741824 > $R/ncu-uniform-2e30.txt 2>&1; echo "ncu rc $?" | tee -a $R/rc.txt
tail -3 $R/tiles-1e8.txt; cat $R/rc.txt
tar czf $OUT/r.tgz -C /tmp r
