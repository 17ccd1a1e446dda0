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

# Build and stage .devbin/ (the binary and every test binary, stripped) and print the GPU machine's command.
gpu *EXPERIMENTS="gpu-tests gpu-parity gpu-timing":
    bash scripts/stage-device.sh
    @echo "device command (carry [\".devbin\"]): bash scripts/device.sh {{EXPERIMENTS}}"
    @echo "then: tar xzf FILES_AT/reports.tar.gz && cp -r device-reports/* reports/ && binade reindex"

# Float VIF: CPU reference against committed bits, device header on the host, kernel compile/parity (skipped without NVRTC/GPU).
vif-test:
    cargo test --release --test vif_reference --test vif_header --test vif_gpu

# Photographs for the natural fixtures: the scikit-image wheel's data PNGs into fixtures/cache/skimage.
fixtures:
    mkdir -p .whl fixtures/cache/skimage
    pip download --no-deps --only-binary=:all: --python-version 3.12 --platform manylinux_2_17_x86_64 scikit-image==0.24.0 -d .whl
    cd .whl && unzip -o -j scikit_image-0.24.0-*.whl skimage/data/astronaut.png skimage/data/coffee.png skimage/data/chelsea.png skimage/data/motorcycle_left.png skimage/data/motorcycle_right.png -d ../fixtures/cache/skimage
