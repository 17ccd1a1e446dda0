# Call 2 of the third session of 2026-12-07, binaries of 9aa227d, which added
# WalkedShape::last_first (a segmented step's search tries a failing segment's last position
# first) as the engine's shape, and prints an experiment stage's first progress line when it
# starts (the done line joined before exit). After eleven failed starts the engine's shape at
# HEAD went back to the bisection (last_first off, its PTX c2c53ba's); the kernel source is the
# same, so these binaries test and time both shapes as HEAD builds them.
# Why: call 1's trace (5c2f826) at 8,294,400 uniform terms has the walk's ten split ends
# 0.45 to 1.1 µs apart, the gap growing with the segment's length (the bisection's depth), and
# the walk ends 20 µs after the producers' last unit word.
# 1. walked_probe 11 - 8294400,100000000,1073741824: the engine (last position first) against
#    the bisection (c2c53ba's walk), and the producers alone.
#    Prediction, written before the call: at 8,294,400 terms the engine 3 to 5 µs faster on
#    uniform, log-normal and half ties (ratio 0.92 to 0.96 of the bisected build; about 0.059
#    ms on uniform against 0.063) and 5 to 8 µs on the geometric stream (17 split ends);
#    geometric at 10^8 0.95 to 0.99 (the walker is behind the producers there); every other
#    row at 10^8 and 2^30 within 1% (the walker is not on the critical path); every total
#    the loop's bits.
# 2. gpu_walked, every test with BINADE_REQUIRE_GPU=1: all pass, the new mutant
#    StepLastTrusted killed by a wrong total on f64 and f32 (walked_kill's step search case
#    has a segment the loop leaves two tiles before its end).
# 3. mutations (the kill matrix): every walked mutant killed, StepLastTrusted among them.
# 4. walked_probe 11 events 8294400, if time is left: the gaps between split ends in the
#    engine's trace about 0.3 to 0.45 µs, no longer growing with the segment.
# 5. run_places: 11 of 11 (the progress test no longer depends on timing).
# (Cut as device starts failed, 10:57 to 11:58, with about 400 device s left: the call runs the probe at 8,294,400 and 10^8 terms first, then run_places, then
# gpu_walked in what is left (it took about 220 s before); the 2^30 size, the kill matrix's
# experiment and the events trace are dropped.)
set -u
T0=$(date +%s)
left() { echo $((${CALL_LIMIT:-560} - $(date +%s) + T0)); }
rm -rf .devbin && tar xJf .dev2.tgz
export BINADE_REQUIRE_GPU=1 BINADE_MODULE_FORM=cubin BINADE_BIN=$PWD/.devbin/binade
D=$PWD
R=/tmp/r2; rm -rf $R; mkdir -p $R/probe $R/events
cp .devbin/tests/MANIFEST.tsv $R/
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader > $R/device.txt
cd $R/probe && timeout 100 $D/.devbin/examples/walked_probe 11 - 8294400,100000000 > probe.csv 2> probe.err; echo "probe rc $?" | tee -a $R/rc.txt
cut -d, -f1-4,12 probe.csv | sed 's/"//g'
cd $D; tar czf $OUT/r2.tgz -C /tmp r2
timeout 30 .devbin/tests/run_places > $R/run-places.log 2>&1; echo "run_places rc $?" | tee -a $R/rc.txt
grep -h "test result" $R/run-places.log
L=$(left); echo "left $L s"
timeout $((L - 8)) .devbin/tests/gpu_walked > $R/gpu_walked.log 2>&1; echo "gpu_walked rc $?" | tee -a $R/rc.txt
grep -E "^test .*(FAILED|ok)$|test result" $R/gpu_walked.log | tail -45
tar czf $OUT/r2.tgz -C /tmp r2
# Not run: every try to start a machine for it failed or was refused (README.md).
