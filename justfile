# binade recipes. `just --list` shows them.
#
# Cargo's own progress is shown (the first build compiles the bundled GMP and MPFR: minutes).
# Builds go to CARGO_TARGET_DIR when it is set. Arguments are passed through as given
# (quoted file names stay whole).

set positional-arguments := true

# Run one experiment, in the repository root: a full run of the committed settings writes reports/NAME; --quick or any override writes reports-local/NAME; --out DIR writes DIR only.
run-experiment NAME *ARGS:
    cargo run --release -- run "$@"

# Run the test suite (release profile: the tests check millions of samples).
test:
    cargo test --release

# List the experiments ((GPU): needs an NVIDIA GPU).
list:
    cargo run --release -- list

# Install `binade` into ~/.cargo/bin (the experiment files are built in: it runs from any folder).
install:
    cargo install --locked --path .

# Generic mutation testing of the algebra modules (installs cargo-mutants if needed).
mutants *ARGS:
    command -v cargo-mutants >/dev/null || cargo install --locked cargo-mutants
    cargo run --release -- run cargo-mutants "$@"

# Sum term files the way the CPU loop does (see docs/sum.md), e.g. `just sum --check a.npy`; file names are taken from the folder you run `just` in.
[no-cd]
sum *ARGS:
    cargo run --release --manifest-path "{{justfile_directory()}}/Cargo.toml" -- sum "$@"

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

# Set Research-1433's and ADR-1412's claims beside the harness's figures (reports/research-1433, reports/adr-1412); without --from-reports it first runs every cited experiment (several need a GPU).
research *ARGS:
    cargo run --release -- research "$@"
