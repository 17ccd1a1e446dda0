# Call 35 of 2026-12-06 (ninth session), binaries staged from a clean tree (MANIFEST.tsv names
# the commit), fixtures/cache carried (the astronaut fixtures' PNG): the plans' mean margin
# (`Margin::Mean`, `BINADE_WK_MARGIN` 1), now the engine's, against the tile margin before it.
# The jobs run in the order 1, 4, 2, 3 (the tests before the timings of other streams), each
# result packed as it comes. Predictions, written before the call:
# 1. ssimulacra2-timing (its text holds the prediction too): checker-10px in one launch at
#    most 1.4x the tree sums (2.93x at 3818228), its first frame's sums finishing at most 170
#    tiles (320 at 3818228) and its slowest walker under 300 µs (1,353); the tile margin
#    within 10% of 3818228's 1.263 ms; astronaut-4k-jpeg30 in one launch at least 5% faster
#    than with the tile margin, astronaut-jpeg50 within 5% of it. Every sum the CPU's bits.
# 2. walked_probe (f64; four distributions at 8,294,400, 10^8 and 2^30): the mean margin within
#    3% of the tile margin at 10^8 and 2^30 on every distribution, within 5% at 8,294,400;
#    the same tiles finished give or take 10%. Every total the loop's bits.
# 3. walked_f32_paths time, e3 (the engine: mean margin) against m3 (tile margin), four f32
#    streams at 10^8 and 2^30: within 3% on every row.
# 4. gpu-tests-changed (reduced experiments): every test of the 38 binaries passes (373, one
#    new: walked_equals_the_loop_tile_margin).
set -u
[ -d .devbin ] || tar xJf .dev2.tgz
export BINADE_REQUIRE_GPU=1 BINADE_MODULE_FORM=cubin BINADE_BIN=$PWD/.devbin/binade
R=/tmp/r; rm -rf $R; mkdir -p $R
cp .devbin/tests/MANIFEST.tsv $R/
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader > $R/device.txt
ls fixtures/cache/skimage > $R/fixtures-cache.txt 2>&1
timeout 150 .devbin/binade run ssimulacra2-timing --out $R/ssimulacra2-timing > $R/ssimulacra2-timing.log 2>&1; echo "ssimulacra2-timing rc $?" | tee -a $R/rc.txt
cut -d, -f1-4,14-21 $R/ssimulacra2-timing/timing.csv
tar czf $OUT/r.tgz -C /tmp r
timeout 290 .devbin/binade run gpu-tests-changed --experiments experiments/reduced --out $R/gpu-tests-changed > $R/gpu-tests-changed.log 2>&1; echo "gpu-tests-changed rc $?" | tee -a $R/rc.txt
head -c 400 $R/gpu-tests-changed/README.md | tail -c 300
tar czf $OUT/r.tgz -C /tmp r
(cd $R && timeout 150 $OLDPWD/.devbin/examples/walked_probe > probe.csv 2> probe.err); echo "probe rc $?" | tee -a $R/rc.txt
cut -d, -f1-6 $R/probe.csv | head -40
(cd $R && timeout 90 $OLDPWD/.devbin/examples/walked_f32_paths time 100000000,1073741824 Uniform,SsimTies,LogNormal3,Geometric e3,m3 > f32-time.csv 2> f32-time.err); echo "f32 time rc $?" | tee -a $R/rc.txt
cut -d, -f1-5 $R/f32-time.csv | head -20
tar czf $OUT/r.tgz -C /tmp r
