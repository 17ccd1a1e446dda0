# Call 1 of 2026-12-08: the whole GPU suite alone, binaries of 561ab59 staged from /work/main
# (clean tree). It has not run since d640331/08aae2f made the kill of the mutant "walker reads
# an unpublished word" one-sided (`walked_kill::stale_words` ends with two rounds on a fresh
# job of the first 2^23 terms with one producer block) and 986aea0 moved gpu-tests' output to
# unnamed temporary files.
# Prediction, written before the call: every test of the 41 binaries passes, 0 skipped
# (BINADE_REQUIRE_GPU=1), the unpublished-read mutant killed; the suite in 470 to 530 s
# (call C of 2026-12-07-h: 493.2 s, gpu_walked 492.6 s; the two added rounds of 2^23 terms
# with one producer block cost at most a few seconds), inside its 540 s deadline.
set -u
rm -rf .devbin && tar xJf .dev2.tgz
export BINADE_REQUIRE_GPU=1 BINADE_MODULE_FORM=cubin BINADE_BIN=$PWD/.devbin/binade
R=/tmp/r1; rm -rf $R; mkdir -p $R
cp .devbin/tests/MANIFEST.tsv $R/
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader > $R/device.txt
timeout ${SUITE_LIMIT:-580} .devbin/binade run gpu-tests --out $R/gpu-tests > $R/gpu-tests.log 2>&1; echo "gpu-tests rc $?" | tee -a $R/rc.txt
head -c 900 $R/gpu-tests/README.md | tail -c 700
tar czf $OUT/r1.tgz -C /tmp r1
