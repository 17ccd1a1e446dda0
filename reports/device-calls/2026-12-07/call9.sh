# Not run: the start failed (05:33 UTC, nvidia-h100-x1, 90 device s), leaving 265 s, less than the
# call and a start need. Kept with its prediction for a session with device time.
# Call 9 of 2026-12-07 (eleventh session), the binaries of calls 5 to 8 (7f27b03; src/fast as
# at HEAD): cpu-timing without its 10^9 sizes (experiments/reduced/cpu-timing.toml) on the
# GPU host's 16 cores, the CPU engine's first run there since 9cb8fd3
# (reports/cpu-timing-gpu-host-1e8), after the threads' plan changes of 7477d96, c75469e and
# d36a526 and the signed f32 lanes of d654949.
# Prediction, written before the call: every sum, f64 and f32, the loop's bits; at 10^8 uniform
# f64 the fast engine on 1 thread 0.85 to 1.0 of the loop (0.94 at 9cb8fd3), on 16 threads
# 1.2 to 1.6x the lane-wise plain parallel sum (1.46); half ties f64 on 1 thread 1.0 to 1.2
# (1.11); N(1, 1) f32 on 16 threads fewer chunks term by term than 1,753 (the signed f32
# lanes); the geometric stream's chunks term by term 107 as before (a property of the stream);
# about 210 s.
set -u
[ -d .devbin ] || tar xJf .dev2.tgz
export BINADE_BIN=$PWD/.devbin/binade
R=/tmp/r9; rm -rf $R; mkdir -p $R
cp .devbin/tests/MANIFEST.tsv $R/
lscpu > $R/lscpu.txt
timeout 300 .devbin/binade run cpu-timing --experiments experiments/reduced --out $R/cpu-timing > $R/cpu-timing.log 2>&1; echo "cpu-timing rc $?" | tee -a $R/rc.txt
head -c 800 $R/cpu-timing/README.md | tail -c 650
tar czf $OUT/r9.tgz -C /tmp r9
