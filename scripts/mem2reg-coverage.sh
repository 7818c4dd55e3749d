#!/usr/bin/env bash
# Line, region and branch coverage of compiler/src/passes/mem2reg/ reached by N
# cgen programs next to N Csmith programs (issue 9): builds the
# `mem2reg_coverage` example with `-C instrument-coverage` (nightly, for
# branch coverage) in target/coverage, runs it once per generator, and prints
# llvm-cov's summary of the mem2reg files for each.
#
# Usage: scripts/mem2reg-coverage.sh [N]     (default 500)
# Needs: the nightly toolchain with llvm-tools (rustup component add
# llvm-tools --toolchain nightly) and csmith (scripts/setup.sh --campaign).
set -euo pipefail
cd "$(dirname "$0")/.."
N=${1:-500}

sysroot=$(rustc +nightly --print sysroot)
bin=$(echo "$sysroot"/lib/rustlib/*/bin)
if [ ! -x "$bin/llvm-profdata" ]; then
    rustup component add llvm-tools --toolchain nightly
fi
command -v csmith >/dev/null || scripts/setup.sh --campaign

export CARGO_TARGET_DIR=$PWD/target/coverage
RUSTFLAGS="-C instrument-coverage -Z coverage-options=branch" \
    cargo +nightly build -q --release -p oracle --example mem2reg_coverage
exe=$CARGO_TARGET_DIR/release/examples/mem2reg_coverage
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

for gen in cgen csmith; do
    rm -f "$work"/*.profraw
    LLVM_PROFILE_FILE="$work/$gen-%p.profraw" "$exe" "$gen" "$N"
    "$bin/llvm-profdata" merge -sparse "$work"/"$gen"-*.profraw -o "$work/$gen.profdata"
    echo "== $gen: $N programs"
    "$bin/llvm-cov" report "$exe" -instr-profile="$work/$gen.profdata" \
        --show-branch-summary compiler/src/passes/mem2reg/ | sed "s|$PWD/||"
done
