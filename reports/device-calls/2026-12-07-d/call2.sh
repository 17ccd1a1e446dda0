# Call 2 of the fourth session of 2026-12-07: call1.sh cut to fit what eight failed starts
# left of the device time (614 s at 14:03). Binaries of d600150 (.dev2.tgz), as call1.sh.
# The predictions are call1.sh's: at 8,294,400 terms the last position first 0.92 to 0.96 of
# the bisected build on uniform, log-normal and half ties, 5 to 8 µs faster on geometric,
# every total the loop's bits; the first tile's finish by the walker: its walk 4 to 6 µs, its
# load 1 to 2 µs, its keys and scan 1 to 2 µs; gpu_walked's chosen tests pass, the f32
# re-read test counting hundreds of re-reads for the engine and TagOnly and none for Parity.
set -u
T0=$(date +%s)
left() { echo $((${CALL_LIMIT:-300} - $(date +%s) + T0)); }
rm -rf .devbin && tar xJf .dev2.tgz
export BINADE_REQUIRE_GPU=1 BINADE_MODULE_FORM=cubin BINADE_BIN=$PWD/.devbin/binade
D=$PWD
R=/tmp/r2; rm -rf $R; mkdir -p $R/probe $R/events
cp .devbin/tests/MANIFEST.tsv $R/
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader > $R/device.txt
pack() { tar czf $OUT/r2.tgz -C /tmp r2; }
cd $R/probe && timeout 70 $D/.devbin/examples/walked_probe 11 - 8294400 > probe.csv 2> probe.err; echo "probe rc $?" | tee -a $R/rc.txt
cut -d, -f1-4,12 probe.csv | sed 's/"//g'
cd $D; pack
cd $R/events && timeout 60 $D/.devbin/examples/walked_probe 11 events 4096,8294400 > probe.csv 2> probe.err; echo "events rc $?" | tee -a $R/rc.txt
cd $D; pack
L=$(left); echo "left $L s"
timeout $((L - 8)) .devbin/tests/gpu_walked walked_f32_rereads walked_equals_the_loop_last_position_first walked_equals_the_loop_traced walked_mutants_give_wrong_totals > $R/gpu_walked.log 2>&1; echo "gpu_walked rc $?" | tee -a $R/rc.txt
grep -E "^test |test result|killed: step" $R/gpu_walked.log | tail -12
pack
