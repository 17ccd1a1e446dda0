# Call 1 of the second session of 2026-12-07 (twelfth session), 07:58 UTC. The binaries of
# calls 5 to 8 of 2026-12-07 (.dev2.tgz, built at 7f27b03; src/fast, src/vif, kernels/float_vif*
# and src/experiment/cpu_timing.rs unchanged since). This is call 9 of 2026-12-07
# (../2026-12-07/call9.sh), which failed to start, with float-vif-timing added.
# Prediction for cpu-timing, written before the call (call 9's): every sum, f64 and f32, the
# loop's bits; at 10^8 uniform f64 the fast engine on 1 thread 0.85 to 1.0 of the loop (0.94
# at 9cb8fd3), on 16 threads 1.2 to 1.6x the lane-wise plain parallel sum (1.46); half ties f64
# on 1 thread 1.0 to 1.2 (1.11); N(1, 1) f32 on 16 threads fewer chunks term by term than 1,753
# (the signed f32 lanes); the geometric stream's chunks term by term 107 as before (a property
# of the stream); about 210 s.
# Prediction for float-vif-timing, written before the call: on an H100 the scorer's exact
# sums within 2% of 7fd0c3c's 1.537 ms a 3840x2160 frame, 1.01 to 1.05x the trees (1.027 at
# 7fd0c3c; its kernels have not changed); on an H200 the ratio in the same band.
set -u
[ -d .devbin ] || tar xJf .dev2.tgz
export BINADE_BIN=$PWD/.devbin/binade BINADE_MODULE_FORM=cubin BINADE_REQUIRE_GPU=1
R=/tmp/r1; rm -rf $R; mkdir -p $R
cp .devbin/tests/MANIFEST.tsv $R/ 2>/dev/null
lscpu > $R/lscpu.txt; nvidia-smi -L > $R/device.txt
timeout 60 .devbin/binade run float-vif-timing --out $R/float-vif-timing > $R/float-vif-timing.log 2>&1; echo "float-vif-timing rc $?" | tee -a $R/rc.txt
head -c 700 $R/float-vif-timing/README.md | tail -c 500
timeout 330 .devbin/binade run cpu-timing --experiments experiments/reduced --out $R/cpu-timing > $R/cpu-timing.log 2>&1; echo "cpu-timing rc $?" | tee -a $R/rc.txt
head -c 800 $R/cpu-timing/README.md | tail -c 650
tar czf $OUT/r1.tgz -C /tmp r1
