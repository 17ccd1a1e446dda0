# binade recipes. `just --list` shows them.

# Run one experiment and write reports/NAME (add --quick for the short settings).
run-experiment NAME *ARGS:
    cargo run --release --quiet -- run {{NAME}} {{ARGS}}

# Run the test suite (release profile: the tests check millions of samples).
test:
    cargo test --release

# List the experiments.
list:
    cargo run --release --quiet -- list

# Generic mutation testing of the algebra modules (installs cargo-mutants if needed).
mutants *ARGS:
    command -v cargo-mutants >/dev/null || cargo install --locked cargo-mutants
    cargo run --release --quiet -- run cargo-mutants {{ARGS}}

# Sum term files the way the CPU loop does (see docs/sum.md), e.g. `just sum --check a.npy`.
sum *ARGS:
    cargo run --release --quiet -- sum {{ARGS}}

# Rewrite the numpy-written .npy fixtures of `binade sum` (needs python3 with numpy).
npy-fixtures:
    python3 fixtures/npy/make.py

# Build, stage binary + experiments in .devbin/ and print the GPU machine's command (ARGS: e.g. --quick).
gpu *ARGS:
    cargo build --release
    mkdir -p .devbin
    cp target/release/binade .devbin/binade
    rm -rf .devbin/experiments && cp -r experiments .devbin/experiments
    grep -qx '/.devbin/' "$(git rev-parse --git-path info/exclude)" || echo '/.devbin/' >> "$(git rev-parse --git-path info/exclude)"
    @echo 'device command (carry [".devbin"]); the reports come back as $OUT/gpu-reports.tar.gz:'
    @echo 'cd .devbin && for p in python3 /opt/torch/.venv/bin/python; do "$p" -c "import cupy" 2>/dev/null && export BINADE_PYTHON="$p" && break; done; rc=0; ./binade run gpu-parity {{ARGS}} --experiments experiments --out reports/gpu-parity || rc=$?; ./binade run gpu-timing {{ARGS}} --experiments experiments --out reports/gpu-timing || rc=$?; tar czf "$OUT/gpu-reports.tar.gz" reports; exit $rc'

# Float VIF: CPU reference against committed bits, device header on the host, kernel compile/parity (skipped without NVRTC/GPU).
vif-test:
    cargo test --release --test vif_reference --test vif_header --test vif_gpu
