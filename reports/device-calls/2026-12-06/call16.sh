# Call 16 of 2026-12-06 (third session), at 654dfd7 (the binaries staged for call 15): sum_cli, and issue 12's
# 10^9-term rows of cpu-timing on the GPU host's CPUs, for uniform, log-normal and half ties,
# f64 and f32 (`experiments/reduced/cpu-timing-1e9-a.toml`). The committed `reports/cpu-timing`
# is b442460's, about 500 commits back; its f32 rows on all threads at 10^9 (901 ms uniform,
# 348 log-normal, 847 half ties) may be stale: `examples/threads_probe` at 5cd5602 summed f32
# at 10^8 in 5 to 8 ms on 16 threads.
# Prediction, written before the call: f32 on all threads at 10^9 under 150 ms for each of the
# three; f64 on all threads within 20% of b442460's (127, 132, 152 ms); one thread within 10%.
set -u
tar xJf .dev2.tgz; export BINADE_REQUIRE_GPU=1; B=.devbin/binade; R=/tmp/r; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader > $R/device.txt
lscpu > $R/lscpu.txt
# sum_cli again, as the gpu-tests runner starts it (call 15 ran it without BINADE_BIN, so every
# test that starts the binary looked for it at the build machine's path and failed)
BINADE_BIN=$PWD/.devbin/binade BINADE_MODULE_FORM=cubin timeout 60 .devbin/tests/sum_cli --test-threads 4 > $R/sum_cli.log 2>&1; echo "sum_cli rc $?" | tee -a $R/rc.txt
grep "test result" $R/sum_cli.log
timeout 560 $B run cpu-timing-1e9-a --experiments experiments/reduced --out $R/cpu-timing-1e9-a > $R/cpu.log 2>&1; echo "cpu-timing rc $?" | tee -a $R/rc.txt
head -5 $R/cpu-timing-1e9-a/README.md
tar czf $OUT/r.tgz -C /tmp r
