# Call 3 of the third session of 2026-12-07, binaries of 9aa227d (WalkedShape::last_first the
# engine's), .devbin extracted afresh.
# (The kill matrix moved to call 2.)
# 2. gpu-timing: every walked row within 5% of call 2's probe for the engine (last position
#    first); every total the loop's bits.
# 3. ssimulacra2-timing: astronaut-4k-jpeg30 within 3% of 5c2f826's 1.620 ms a frame or
#    faster (each of its 108 sums has few crossings); every sum the CPU's bits.
# 4. gpu-parity --quick with the sanitizers, if time is left: every walked sum exact;
#    memcheck, racecheck and synccheck clean.
set -u
T0=$(date +%s)
left() { echo $((${CALL_LIMIT:-560} - $(date +%s) + T0)); }
rm -rf .devbin && tar xJf .dev2.tgz
[ -d experiments/peers/cccl/include ] || tar xJf .cccl.tgz
export BINADE_REQUIRE_GPU=1 BINADE_MODULE_FORM=cubin BINADE_BIN=$PWD/.devbin/binade
R=/tmp/r3; rm -rf $R; mkdir -p $R
cp .devbin/tests/MANIFEST.tsv $R/
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader > $R/device.txt
timeout 200 .devbin/binade run gpu-timing --out $R/gpu-timing > $R/gpu-timing.log 2>&1; echo "gpu-timing rc $?" | tee -a $R/rc.txt
head -c 700 $R/gpu-timing/README.md | tail -c 600
tar czf $OUT/r3.tgz -C /tmp r3
timeout 100 .devbin/binade run ssimulacra2-timing --out $R/ssimulacra2-timing > $R/ssimulacra2-timing.log 2>&1; echo "ssimulacra2-timing rc $?" | tee -a $R/rc.txt
head -c 700 $R/ssimulacra2-timing/README.md | tail -c 550
tar czf $OUT/r3.tgz -C /tmp r3
L=$(left); echo "left $L s"
if [ "$L" -ge 150 ]; then
  timeout $((L - 10)) .devbin/binade run gpu-parity --quick --out $R/gpu-parity-quick > $R/gpu-parity-quick.log 2>&1; echo "gpu-parity rc $?" | tee -a $R/rc.txt
  head -c 900 $R/gpu-parity-quick/README.md | tail -c 700
else
  echo "gpu-parity not run: $L s left" | tee -a $R/rc.txt
fi
tar czf $OUT/r3.tgz -C /tmp r3
