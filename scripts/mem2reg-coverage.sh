#!/usr/bin/env bash
# Line, region and branch coverage of compiler/src/passes/mem2reg/ reached by
# N cgen programs next to N Csmith programs (`oracle coverage`, see its
# --help; it builds the instrumented example with the nightly toolchain).
#
#   scripts/mem2reg-coverage.sh [N]     (default 500)
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh --csmith
rustup component add llvm-tools --toolchain nightly >/dev/null
exec cargo run --release --locked -q -p oracle -- coverage "$@"
