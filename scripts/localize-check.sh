#!/usr/bin/env bash
# Checks the first-diverging-stage bucketing of C campaigns against the
# injected bugs (`oracle localize-check`, see its --help): per bug, a short
# cgen campaign on x86-64 with the bug switched on, and the stages its
# findings land in next to the stage the bug lives in.
#
#   scripts/localize-check.sh [COUNT]     (default 30 programs per bug)
#
# Builds phicc and oracle with the injected bugs compiled in, into
# target/inject. Exit status 1 when a bug's findings land elsewhere.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --locked -q -p phicc -p oracle --bins --features oracle/inject-bugs --target-dir target/inject
exec target/inject/release/oracle localize-check --compiler target/inject/release/phicc "$@"
