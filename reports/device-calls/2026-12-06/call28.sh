# Call 28 of 2026-12-06 (sixth session), the staging of calls 25 to 27 (.devbin at 3426936):
# `gpu-timing-f32` once more, to tell whether call 25's log-normal row at 2^30 (parity moves
# 4.928 ms with 646 walker steps, per-term moves 3.963 ms with 398) belongs to the build or
# to the run.
# Prediction, written before the call: the step counts vary from run to run (the walker's
# steps depend on when producers publish), so the two builds' log-normal 2^30 times land within
# 10% of each other; half ties as in call 25 (about 1.3 and 3.4 ms, 55 to 70 tiles finished).
set -u
[ -d .devbin ] || tar xJf .dev2.tgz
export BINADE_REQUIRE_GPU=1 BINADE_MODULE_FORM=cubin BINADE_BIN=$PWD/.devbin/binade
R=/tmp/r; rm -rf $R; mkdir -p $R
timeout 150 .devbin/binade run gpu-timing-f32 --out $R/gpu-timing-f32 > $R/gpu-timing-f32.log 2>&1; echo "gpu-timing-f32 rc $?" | tee -a $R/rc.txt
grep -E "^\| (log-normal|1 - q)" $R/gpu-timing-f32/README.md | cut -c1-160
tar czf $OUT/r.tgz -C /tmp r
