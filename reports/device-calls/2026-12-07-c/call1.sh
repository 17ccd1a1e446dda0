# Call 1 of the third session of 2026-12-07 (thirteenth session, from 10:26 UTC), binaries of
# 5c2f826 (the kernel is unchanged since; .dev2.tgz staged then).
# Question: where do the 15 to 25 µs go before the walker has the first tile's exact sum at
# 8,294,400 terms? In 054862f's trace (reports/walked-first/054862f) the walker had it at
# 18.5 to 28.1 µs after its start, and the walker's own finish of it (the build whose walker
# finishes tile 0) took 18.0 to 22.5 µs: a planned pass with 9 native lanes, which by its
# operation count should take a few µs.
# walked_probe 11 events at 4,096 terms (one tile: the sum is the first tile's finish),
# 65,536 (16 tiles) and 8,294,400, every distribution.
# Prediction, written before the call: if the finish is slow in itself, the walker's finish of
# tile 0 at 4,096 terms takes 15 to 22 µs as at 8,294,400 and the engine's time at 4,096 terms
# is 20 µs or more; if it is slow because of the other producers on the machine (memory and
# issue contention), the finish at 4,096 terms takes under 8 µs. I expect the first: 15 to 22 µs.
set -u
rm -rf .devbin && tar xJf .dev2.tgz
export BINADE_REQUIRE_GPU=1 BINADE_MODULE_FORM=cubin BINADE_BIN=$PWD/.devbin/binade
R=/tmp/r1; rm -rf $R; mkdir -p $R
cp .devbin/tests/MANIFEST.tsv $R/
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader > $R/device.txt
cd $R
timeout 240 $OLDPWD/.devbin/examples/walked_probe 11 events 4096,65536,8294400 > probe.csv 2> probe.err; echo "probe rc $?" | tee rc.txt
cut -d, -f1-4,8,10,11,19,21-24,27 probe.csv | sed 's/"//g' | cut -c1-200
tar czf $OUT/r1.tgz -C /tmp r1
