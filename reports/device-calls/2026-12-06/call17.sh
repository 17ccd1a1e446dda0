# Call 17 of 2026-12-06 (third session), at 654dfd7 (the binaries staged for call 15): issue 12's
# 10^9-term rows of cpu-timing for the geometric and N(1, 1) streams, f64 and f32
# (`experiments/reduced/cpu-timing-1e9-b.toml`), on the machine still warm from call 16.
# Prediction, written before the call: every sum with the loop's bits; f64 on all threads
# within 20% of the 1e9-a rows' uniform figure (73 ms) for geometric, N(1, 1) slower (signed
# terms: chunks that cross zero go term by term).
set -u
tar xJf .dev2.tgz; export BINADE_REQUIRE_GPU=1; B=.devbin/binade; R=/tmp/r; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader > $R/device.txt
lscpu > $R/lscpu.txt
timeout 270 $B run cpu-timing-1e9-b --experiments experiments/reduced --out $R/cpu-timing-1e9-b > $R/cpu.log 2>&1; echo "cpu-timing rc $?" | tee -a $R/rc.txt
head -5 $R/cpu-timing-1e9-b/README.md
tar czf $OUT/r.tgz -C /tmp r
