# Call D of 2026-12-07-h, on the machine call C left warm, binaries of 5ccd8b6: the kill
# matrix, last run at 91efe8f (before the mutants BufferTileBehind, down_count, pext_carry).
# Prediction, written before the call: as at 91efe8f (22 of 24 named algebra mutants killed by
# a wrong result, 2 by a coverage check, 0 survived; 8 plan mutants change 0 results); every
# walked mutant killed by a wrong total, BufferTileBehind among them; the fast engine's table
# with down_count killed on one thread and on threads, pext_carry the same where the host's
# CPU takes the PEXT path (an Intel Xeon with BMI2: expected) and else changing no bit; no
# failed check; 100 to 200 s.
# The call ran it after `sed -i s/timeout 560/timeout 280/` (315 s of device time were left
# after call C), as this file now reads.
set -u
[ -d .devbin ] || tar xJf .dev2.tgz
export BINADE_REQUIRE_GPU=1 BINADE_MODULE_FORM=cubin BINADE_BIN=$PWD/.devbin/binade
R=/tmp/rD; rm -rf $R; mkdir -p $R
cp .devbin/tests/MANIFEST.tsv $R/
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader > $R/device.txt
grep -m1 "model name" /proc/cpuinfo > $R/cpu.txt; grep -m1 -o "bmi2" /proc/cpuinfo >> $R/cpu.txt
timeout 280 .devbin/binade run mutations --out $R/mutations > $R/mutations.log 2>&1; echo "mutations rc $?" | tee -a $R/rc.txt
head -c 600 $R/mutations/README.md | tail -c 450
tar czf $OUT/rD.tgz -C /tmp rD
