# Call 33 of 2026-12-06 (eighth session), binaries staged from a clean tree (MANIFEST.tsv names
# the commit): why the f32 engine's re-read (Moves::Crossing) costs uniform and half-ties terms
# 8 to 10% at 2^30 (call 31), where its sums re-read few look-backs.
# Builds timed in turn by examples/walked_f32_paths (time mode): e4 the engine (Crossing), p4
# Parity (no re-read), t4 TagOnly (Crossing's tag bit and ballot, the re-read compiled out),
# e3/p3 the same at 3 blocks a multiprocessor (85 registers a thread, not 64), ep/pp the
# producers alone of e4 and p4.
# Prediction, written before the call:
# - The cost is the re-read's code, not its work: ptxas gives the kernel function 272/288
#   spill bytes (stores/loads) in e4 against 244/244 in p4 and t4. So on uniform and half
#   ties at 2^30: t4 within 2% of p4, e4 5 to 10% over p4; at 3 blocks e3 within 3% of p3;
#   ep over pp by about what e4 is over p4.
# - Look-backs read again (e4): uniform and half ties at 2^30 10 to 500, all in the sums'
#   growth (first ~8,448 tiles); geometric hundreds to a few thousand; t4's "would have"
#   counts of the same order.
# - ssimulacra2-timing (the trace table is new): checker-10px at 1920x1080 about 3x the tree
#   sums as at 054862f; its slowest walker a full-frame sum (scale 0) whose walker time is
#   most of the launch, with more time in finishes than astronaut-4k's slowest.
# - The GPU suite (gpu-tests-changed, reduced experiments) passes: the kernel's path bits now
#   come from the host, and every build gained the re-read flag; gpu_walked's f32 tests
#   have Moves::TagOnly among the plan shapes.
set -u
[ -d .devbin ] || tar xJf .dev2.tgz
export BINADE_REQUIRE_GPU=1 BINADE_MODULE_FORM=cubin BINADE_BIN=$PWD/.devbin/binade
R=/tmp/r; rm -rf $R; mkdir -p $R
cp .devbin/tests/MANIFEST.tsv $R/
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader > $R/device.txt
timeout 200 .devbin/examples/walked_f32_paths time 100000000,1073741824 Uniform,SsimTies,LogNormal3,Geometric e4,p4,t4,e3,p3,ep,pp > $R/time.csv 2> $R/time.err; echo "time rc $?" | tee -a $R/rc.txt
cat $R/time.csv; tail -3 $R/time.err
timeout 60 .devbin/binade run ssimulacra2-timing --out $R/ssimulacra2-timing > $R/ssimulacra2-timing.log 2>&1; echo "ssimulacra2-timing rc $?" | tee -a $R/rc.txt
grep -A12 "walked_trace\|slowest walkers" $R/ssimulacra2-timing/README.md | cut -c1-220 | head -20
timeout 300 .devbin/binade run gpu-tests-changed --experiments experiments/reduced --out $R/gpu-tests-changed > $R/gpu-tests-changed.log 2>&1; echo "gpu-tests-changed rc $?" | tee -a $R/rc.txt
head -c 300 $R/gpu-tests-changed/README.md | tail -c 200
tar czf $OUT/r.tgz -C /tmp r
