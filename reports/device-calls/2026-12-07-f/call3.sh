# Call 3 of the sixth session of 2026-12-07. The binaries of call 2 (f3561f5, .dev2.tgz).
# The probe's buffered builds at 2^30 and 8,294,400 terms, with the budget call 2 left.
# Prediction, written before the call: reports/walked-buffer/PREDICTION.md (and at 10^8
# as call 2 measured it, if it did).
set -u
T0=$(date +%s)
left() { echo $((${CALL_LIMIT:-585} - $(date +%s) + T0)); }
rm -rf .devbin && tar xJf .dev2.tgz
export BINADE_REQUIRE_GPU=1 BINADE_MODULE_FORM=cubin BINADE_BIN=$PWD/.devbin/binade
D=$PWD
R=/tmp/r3; rm -rf $R; mkdir -p $R/probe
cp .devbin/tests/MANIFEST.tsv $R/
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader > $R/device.txt
pack() { tar czf $OUT/r3.tgz -C /tmp r3; }
cd $R/probe && timeout $(( $(left) - 8 )) $D/.devbin/examples/walked_probe 11 - 1073741824,8294400 > probe.csv 2> probe.err; echo "probe rc $?" | tee -a $R/rc.txt
cd $D; cut -d, -f1-4 $R/probe/probe.csv
pack
