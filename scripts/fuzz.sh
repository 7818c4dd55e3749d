#!/usr/bin/env bash
# Coverage-guided fuzzing with the fast build: a thin wrapper around
# cargo-fuzz (libFuzzer) that builds a target optimized, without a
# sanitizer, without comparison tracing and with mimalloc as the allocator
# (the code under test is safe Rust; docs/results.md#fuzzing-throughput has
# the rates of both builds), then runs it on a working corpus plus the seed
# corpus.
#
#   scripts/fuzz.sh [TARGET] [LIBFUZZER-OPTION...]
#
# TARGET defaults to mem2reg_roundtrip (others: opt_roundtrip, phi_elim_roundtrip,
# c_roundtrip, ir_text_roundtrip, frontend). Options go to libFuzzer, e.g.
# -max_total_time=600 -jobs=2 -print_final_stats=1. The working corpus is
# fuzz/corpus/TARGET; crashes land in fuzz/artifacts/TARGET. SANITIZER=address
# builds cargo-fuzz's default (AddressSanitizer, comparisons traced) instead.
# `cd fuzz && cargo +nightly fuzz run TARGET` keeps working as before.
set -euo pipefail
cd "$(dirname "$0")/.."
target=mem2reg_roundtrip
if [ $# -gt 0 ] && [ "${1#-}" = "$1" ]; then
    target=$1
    shift
fi
command -v cargo-fuzz >/dev/null || cargo install --locked cargo-fuzz
rustup toolchain list | grep -q '^nightly' || rustup toolchain install nightly --profile minimal
cd fuzz
if [ "${SANITIZER:-none}" = none ]; then
    flags=(-O -s none --no-trace-compares --features mimalloc)
else
    flags=(-s "$SANITIZER")
fi
cargo +nightly fuzz build "$target" "${flags[@]}"
mkdir -p "corpus/$target" "artifacts/$target"
seeds=()
[ -d "../corpora/fuzz/$target" ] && seeds=("../corpora/fuzz/$target")
exec "target/x86_64-unknown-linux-gnu/release/$target" "corpus/$target" "${seeds[@]}" \
    -artifact_prefix="artifacts/$target/" "$@"
