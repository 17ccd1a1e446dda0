# Call 32 of 2026-12-06 (seventh session), on the machine call 31 left warm, the same staging:
# `binade run cpu-timing --experiments experiments/reduced` (10^6 to 10^8, five distributions,
# f64 and f32, numpy peers, the whole command on a 10^8-term file) on the 16-core host, the
# first run there since c75469e and d36a526 changed the threaded plan's estimates (the last,
# reduced-bac133d, was before them).
# Prediction, written before the call: every sum the loop's bits; at 10^8 the one-thread
# engine 0.55 to 0.70x the loop (bac133d: 0.56 to 0.65), all threads within 1.5x rayon's sum
# on every row (bac133d: 1.02 to 1.44), the geometric f64 row's re-formed chunks below
# bac133d's 6,349; the whole command on the 10^8-term file below 0.5x the read (bac133d 0.30).
set -u
[ -d .devbin ] || tar xJf .dev2.tgz
export BINADE_BIN=$PWD/.devbin/binade
R=/tmp/r; rm -rf $R; mkdir -p $R
cp .devbin/tests/MANIFEST.tsv $R/
lscpu > $R/lscpu.txt
timeout 400 .devbin/binade run cpu-timing --experiments experiments/reduced --out $R/cpu-timing > $R/cpu-timing.log 2>&1; echo "cpu-timing rc $?" | tee -a $R/rc.txt
head -c 700 $R/cpu-timing/README.md | tail -c 500
tar czf $OUT/r.tgz -C /tmp r
