# Call 26 of 2026-12-06 (sixth session), on the machine call 25 left warm, the same staging
# (.dev2.tgz, .devbin at the commit in MANIFEST.tsv): the whole kill matrix, `binade run mutations`, the first
# since the walked engine's first-tile finish (054862f: mutants FirstUnfinished and
# FirstStartIgnored) and the float VIF headed rows (FVIF_HEAD_ONE_SHORT). Written as call 23 in the fifth session, not run there. Call 21 was cut by a
# 330 s limit; this one has 560 s.
# Prediction, written before the call: every named mutant killed, every correct build and plan
# mutant keeps the bits, about 400 s.
set -u
[ -d .devbin ] || tar xJf .dev2.tgz
export BINADE_REQUIRE_GPU=1 BINADE_MODULE_FORM=cubin BINADE_BIN=$PWD/.devbin/binade
R=/tmp/r; rm -rf $R; mkdir -p $R
cp .devbin/tests/MANIFEST.tsv $R/
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader > $R/device.txt
timeout 560 .devbin/binade run mutations --out $R/mutations > $R/mutations.log 2>&1; echo "mutations rc $?" | tee -a $R/rc.txt
head -c 1500 $R/mutations/README.md; tail -5 $R/mutations.log
tar czf $OUT/r.tgz -C /tmp r
