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
echo "== oracle bisect names the pass and function of an injected bug (one file, a three-file build)"
cargo test -q --locked -p oracle --features inject-bugs --test bisect

# Csmith samples through `oracle campaign` (the debug builds from above: no
# release build needed): `csmith --seed 1..N` with Csmith's default options,
# compiled by phicc in both configurations, run natively or under QEMU, and
# checked against the target's own gcc -O0 (exit 1 on any finding).
csmith_sample() { # TARGET COUNT
    echo "== csmith sample: $2 programs compiled by phicc for $1, checked against $1 gcc -O0"
    local out=target/csmith-sample/$1 status=0
    rm -rf "$out" && mkdir -p target/csmith-sample
    target/debug/oracle campaign --generator csmith --csmith-args= --program-seeds "1..$2" \
        --targets "$1" --reference per-target --compiler target/debug/phicc --jobs 2 --quiet \
        --out "$out" >"$out.log" 2>&1 || status=$?
    if [ $status != 0 ]; then cat "$out.log"; return $status; fi
    grep -E '^(Programs|this run):|^\| agree' "$out.log"
}
csmith_sample x86_64 12
csmith_sample aarch64 6
csmith_sample riscv64 6

echo "== realprogs: zlib built by phicc (mem2reg) for x86-64 through configure + make, tested, compared with gcc -O0 (~30 s)"
# Needs the snapshots in ../shared/realprogs (or REALPROGS_SOURCES); missing
# sources are an error, not a skip.
scripts/realprogs.sh x86_64 mem2reg zlib -- --work target/realprogs \
    ${REALPROGS_SOURCES:+--sources "$REALPROGS_SOURCES"}

echo "== torture sample: 440 of gcc's 1,653 torture execute tests (every ~4th by name) on x86-64, mem2reg"
target/debug/oracle torture --target x86_64 --config mem2reg --sample 440 --jobs 2 --quiet \
    --compiler "$PWD/target/debug/phicc" --out torture-out/ci-x86_64-mem2reg

echo "== tests"
if cargo nextest --version >/dev/null 2>&1; then
    cargo nextest run --workspace --locked --no-fail-fast
else
    cargo test --workspace --locked --no-fail-fast
fi
