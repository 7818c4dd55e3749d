#!/usr/bin/env bash
# The generated-code benchmark (issue 14): fixed workloads (repro-02, zlib,
# Lua fib(32) and its test suite, SQLite, Csmith and cgen programs) built by
# gcc -O0, gcc -O1, phicc -fno-mem2reg, phicc and phicc -O1, run
# round-robin; prints CPU-time ratios to gcc -O0 and the largest stack
# frames (markdown). A thin wrapper around `oracle bench-code`.
#
#   scripts/bench-code.sh [ORACLE-OPTIONS] [WORKLOAD...]
#
# e.g. --targets x86_64,aarch64, --reps 5, --quick, --out FILE,
# --compiler PHICC (see `oracle bench-code --help`). Builds are cached in
# ~/.cache/phicc-bench. RELEASE=1 builds phicc and oracle with --release
# (faster builds of SQLite; the generated code is the same).
# Exit status: 0 all outputs equal gcc -O0's, 1 a mismatch or a failure, 2 tool error.
set -euo pipefail
cd "$(dirname "$0")/.."
profile=debug
flags=()
if [ -n "${RELEASE:-}" ]; then
    profile=release
    flags=(--release)
fi
cargo build -q --locked "${flags[@]}" -p phicc -p oracle --bins
exec "target/$profile/oracle" bench-code --compiler "target/$profile/phicc" "$@"
