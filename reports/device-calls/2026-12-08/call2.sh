# Call 2 of 2026-12-08: where the engine's 3-block gain at 8,294,400 terms comes from, and
# whether a cap on the producer blocks meets issue 11's goal there (<= 1.5x `cupy.sum`).
# Binary: walked_probe with its `caps` mode (.devprobe.tgz, built at 44c8eff, the commit its
# MANIFEST line names); nothing of the suite's .dev2.tgz is needed. `walked_probe 11 caps SIZES`, twice,
# then `cupy_sum.py` on the same sizes.
# Prediction, written before the call (reports/walked-caps/PREDICTION.md):
# - every total of every build the loop's bits;
# - at 8,294,400 terms the 3-block build 0.85 to 0.95 of the engine (call A of 2026-12-07-h:
#   0.85 to 0.94), and the engine capped at 3 producer blocks a multiprocessor within 3% of
#   the 3-block build (the gain is the block count, not the register budget);
# - the cap at 2 a multiprocessor 0.90 to 1.00 of the cap at 3 at 2^21 to 8,294,400 terms;
#   the cap at 1 slower than the cap at 2 at every size (too few loads in flight);
# - at 10^8 every cap at 3 or 2 within 0.97 to 1.08 of the engine;
# - the engine 1.35 to 1.60x `cupy.sum` at 8,294,400 uniform terms, the best cap 1.20 to 1.45x.
set -u
T0=$(date +%s)
left() { echo $((${CALL_LIMIT:-560} - $(date +%s) + T0)); }
rm -rf .devbin && tar xJf .devprobe.tgz
D=$PWD
R=/tmp/r2; rm -rf $R; mkdir -p $R/a $R/b
cp .devbin/MANIFEST-probe.tsv $R/
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader > $R/device.txt
S=2097152,4194304,8294400,16777216,33554432,100000000
pack() { tar czf $OUT/r2.tgz -C /tmp r2; }
cd $R/a && timeout 200 $D/.devbin/examples/walked_probe 11 caps $S > probe.csv 2> probe.err; echo "probe a rc $?" | tee -a $R/rc.txt
cd $D; pack
timeout 60 "$(bash scripts/cupy-python.sh)" experiments/peers/cupy_sum.py --sizes $S --pool 33554432 --seed 2026 > $R/cupy.json 2> $R/cupy.err; echo "cupy rc $?" | tee -a $R/rc.txt
pack
L=$(left); echo "left $L s"
if [ "$L" -ge 60 ]; then
  cd $R/b && timeout $((L - 20)) $D/.devbin/examples/walked_probe 11 caps $S > probe.csv 2> probe.err; echo "probe b rc $?" | tee -a $R/rc.txt
  cd $D
fi
pack
grep -h "8294400" $R/a/probe.csv | cut -d, -f1-4
