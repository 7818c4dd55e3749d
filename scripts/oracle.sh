#!/usr/bin/env bash
# Any `oracle` subcommand with what it needs: installs what is missing
# (scripts/setup.sh --campaign), builds phicc and oracle in release mode, and
# runs `oracle "$@"`, whose default compiler is target/release/phicc
# (PHICC=path or --compiler measures another build). `scripts/oracle.sh
# --help` lists the subcommands; for example:
#   scripts/oracle.sh bench-compile 300                 # phicc -c next to gcc -O0 -c
#   scripts/oracle.sh bench-compile 300 --syntax-only --targets x86_64,aarch64,riscv64
#   scripts/oracle.sh csmith-run-ir --seeds 1..300      # Csmith through phicc --run-ir
#   scripts/oracle.sh cgen-validity 1000                # cgen programs under gcc and sanitizers
#   scripts/oracle.sh campaign --generator csmith --csmith-args= --program-seeds 1..300 \
#       --targets aarch64 --reference per-target --out findings/csmith-aarch64
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh --campaign >&2
cargo build --release --locked -q -p phicc -p oracle --bins
exec target/release/oracle "$@"
