#!/usr/bin/env bash
# The whole test suite: installs what is missing, checks formatting, builds
# everything (including benchmarks), then runs every test (the IR corpus is
# replayed by the filetests runner). Exits non-zero on any failure.
set -euo pipefail
cd "$(dirname "$0")/.."

# The oracle tests run binaries under QEMU and use the cross gccs and Csmith;
# the torture sample needs gcc-12-source.
scripts/setup.sh --campaign --torture

echo "== cargo fmt --check"
cargo fmt --all -- --check

echo "== build"
cargo build --workspace --all-targets --locked 2>&1 | tail -n 3

# The injected-bug proof needs a build with the bugs compiled in; it runs first
# so that the main suite's summary line is the last thing printed.
echo "== injected bugs: each found by a short IR campaign"
cargo test -q --locked -p oracle --features inject-bugs --test injected_bugs

echo "== csmith sample: 12 programs compiled by phicc for x86-64, run natively, checked against gcc -O0"
# (the debug build from above: no release build needed)
PHICC=$PWD/target/debug/phicc SEEDS="1 2 3 4 5 6 7 8 9 10 11 12" JOBS=2 scripts/csmith-native.sh

echo "== csmith sample: 6 programs compiled by phicc for AArch64, run under QEMU, checked against aarch64 gcc -O0"
PHICC=$PWD/target/debug/phicc SEEDS="1 2 3 4 5 6" JOBS=2 scripts/csmith-native.sh --target=aarch64

echo "== csmith sample: 6 programs compiled by phicc for RISC-V 64, run under QEMU, checked against riscv64 gcc -O0"
PHICC=$PWD/target/debug/phicc SEEDS="1 2 3 4 5 6" JOBS=2 scripts/csmith-native.sh --target=riscv64

echo "== torture sample: 440 of gcc's 1,653 torture execute tests (every ~4th by name) on x86-64, mem2reg"
target/debug/oracle torture --target x86_64 --config mem2reg --sample 440 --jobs 2 --quiet \
    --compiler "$PWD/target/debug/phicc" --out torture-out/ci-x86_64-mem2reg

echo "== tests"
if cargo nextest --version >/dev/null 2>&1; then
    cargo nextest run --workspace --locked --no-fail-fast
else
    cargo test --workspace --locked --no-fail-fast
fi
