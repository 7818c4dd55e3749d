#!/usr/bin/env bash
# For each injected bug: how many programs until the first finding, cgen
# next to Csmith, each program checked in process (phicc's frontend, then
# the IR check: interpreted without and with the mem2reg pipeline under two
# inline-asm schedules). See oracle/examples/first_findings.rs.
#
# Usage: scripts/cgen-vs-csmith.sh [N] [FUEL] [cgen|csmith|both]     (default
# 500 programs per generator, 20,000,000 interpreter steps per run, both)
set -euo pipefail
cd "$(dirname "$0")/.."
command -v csmith >/dev/null && [ -f /usr/include/csmith/csmith.h ] || scripts/setup.sh --campaign
cargo build -q --release --locked -p oracle --features inject-bugs --example first_findings
exec target/release/examples/first_findings "${1:-500}" "${2:-20000000}" "${3:-both}"
