#!/usr/bin/env bash
# The whole test suite: installs what is missing, checks formatting, builds
# everything (including benchmarks), runs every test, then replays the IR
# corpus through phiopt. Exits non-zero on any failure.
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/setup.sh

echo "== cargo fmt --check"
cargo fmt --all -- --check

echo "== build"
cargo build --workspace --all-targets --locked 2>&1 | tail -n 3

echo "== corpus: phiopt --check over corpora/ir"
scripts/check-corpus.sh

echo "== tests"
if cargo nextest --version >/dev/null 2>&1; then
    cargo nextest run --workspace --locked --no-fail-fast
else
    cargo test --workspace --locked --no-fail-fast
fi
