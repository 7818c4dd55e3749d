#!/usr/bin/env bash
# The main job: a differential campaign (`oracle campaign`, see its --help).
# Installs what is missing (scripts/setup.sh --campaign: QEMU, cross gccs,
# Csmith, cvise), builds phicc and oracle in release mode, checks that phicc
# builds a trivial program for every target, then compiles Csmith programs
# with and without mem2reg + phi elimination for x86-64, AArch64 and RISC-V
# 64, runs them (QEMU for the foreign ISAs) against the host's gcc -O0, and
# prints the summary: outcomes, findings by bucket, the rate and where the
# time goes. phicc runs in process (oracle's own phicc library, in a worker
# process: `oracle campaign --help`, --spawn-compiler); binaries are linked
# with gold or ld directly (--linker); reference outcomes are cached in
# ~/.cache/phicc-oracle/reference (--no-reference-cache).
#
#   scripts/campaign.sh [oracle campaign options...]
#   default: --generator csmith --seed $SEED (default: today) --count ${COUNT:-100}
#            --out findings/campaign-<seed>; later options override these.
#   e.g. scripts/campaign.sh --generator cgen --emphasis lost-copy --count 50
#
# A directory that holds the same campaign is resumed. Exit status: 0 nothing
# found, 1 findings, 2 tool error.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh --campaign
cargo build --release --locked -p phicc -p oracle --bins
seed=${SEED:-$(date +%Y%m%d)}
exec target/release/oracle campaign --probe --generator csmith --seed "$seed" --count "${COUNT:-100}" \
    --out "findings/campaign-$seed" "$@"
