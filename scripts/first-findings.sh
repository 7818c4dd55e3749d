#!/usr/bin/env bash
# Per injected bug, the first program of cgen and of Csmith that shows it
# (`oracle first-findings`, see its --help):
#
#   scripts/first-findings.sh [COUNT]                natively: phicc with the bug,
#                                                    built and run against gcc -O0
#   scripts/first-findings.sh --in-process [COUNT]   phicc's frontend + the IR check
#   (default 100 programs per generator; --generators cgen|csmith for one)
#
# Builds phicc and oracle with the injected bugs compiled in, into target/inject.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh --campaign
cargo build --release --locked -q -p phicc -p oracle --bins --features oracle/inject-bugs --target-dir target/inject
exec target/inject/release/oracle first-findings --compiler target/inject/release/phicc "$@"
