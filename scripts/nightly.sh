#!/usr/bin/env bash
# One shard of the nightly differential campaign (run by the CI matrix in
# .github/workflows/nightly.yml, or by any batch scheduler):
#
#   SHARD=K/N MINUTES=M SEED=S GENERATOR=csmith|cgen|irgen scripts/nightly.sh OUTDIR
#
# Every shard of one night uses the same SEED, so the shards together run one
# deterministic campaign; `oracle merge` puts their OUTDIRs back together.
# Exit status: 0 nothing found, 1 findings, 2 tool error.
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-findings/nightly}
scripts/setup.sh --campaign
cargo build --release --locked -p phicc -p oracle --bins
exec target/release/oracle campaign \
    --generator "${GENERATOR:-csmith}" \
    --seed "${SEED:-$(date -u +%Y%m%d)}" \
    --shard "${SHARD:-1/1}" \
    --minutes "${MINUTES:-60}" \
    --compiler target/release/phicc \
    --targets "${TARGETS:-x86_64,aarch64,riscv64}" \
    --configs "${CONFIGS:-nomem2reg,mem2reg}" \
    --probe --quiet --out "$out"
