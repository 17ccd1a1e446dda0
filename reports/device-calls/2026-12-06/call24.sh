# Call 24 of 2026-12-06 (fifth session), the staging of call 22 (.dev2.tgz, binaries of
# df9ad94): the kill matrix's float VIF and staged-upload device tables alone
# (`mutations-device-fvif`, a partial run of `mutations`), for the 214 s of device time left
# after call 22; the whole matrix (call 23) does not fit.
# Prediction, written before the call: every float VIF mutant killed by a wrong result, the
# headed rows' FVIF_HEAD_ONE_SHORT among them; every correct build (the headed rows too) the
# CPU's bits; the staged upload's mutant killed; under 60 s.
set -u
[ -d .devbin ] || tar xJf .dev2.tgz
export BINADE_REQUIRE_GPU=1 BINADE_MODULE_FORM=cubin BINADE_BIN=$PWD/.devbin/binade
R=/tmp/r; rm -rf $R; mkdir -p $R
cp .devbin/tests/MANIFEST.tsv $R/
timeout 90 .devbin/binade run mutations-device-fvif --experiments experiments/reduced --out $R/mutations-device-fvif > $R/mut.log 2>&1; echo "mut rc $?" | tee -a $R/rc.txt
head -c 600 $R/mutations-device-fvif/README.md; grep -E "headed|SURVIVED|killed" $R/mutations-device-fvif/README.md | head -20
tar czf $OUT/r.tgz -C /tmp r
