#!/usr/bin/env bash
# Mutation score of the SSA code (issue 17; docs/results.md#mutation-score).
#
#   scripts/mutation-score.sh [extra cargo-mutants options]
#
# cargo-mutants (crates.io, installed on first use) mutates the SSA code
# (passes/mem2reg, passes/phi_elim.rs, passes/copyprop.rs, and the CFG and
# dominator analysis ir/analysis.rs) and runs the harness check
# oracle/tests/mutation_harness.rs against each mutant: a short IR campaign
# in both generator modes and a cgen sample in the interpreter. The outcome
# files (caught.txt, missed.txt, unviable.txt, timeout.txt) land in
# $MUTANTS_OUT/mutants.out (default target/mutation-score).
#
# Every cargo command cargo-mutants runs is `cargo test [--no-run]
# --workspace --test mutation_harness` (without --workspace it would test
# only the mutated package, phicc). cargo-mutants 27 runs its own baseline
# with the mutated package only, where that target does not exist, so this
# script runs the baseline itself (the unmutated tree must pass) and tells
# cargo-mutants to skip it; the timeout is then explicit (MUTANT_TIMEOUT;
# the test itself fails after 20 s on one input, so a pass that loops forever
# is caught long before it). --iterate continues an interrupted run.
# Each mutant is built in a copy of the tree; JOBS (default 2) copies build
# and test at once. Pass --copy-target=true to start the copies from this
# tree's target/ (fast when it holds only a debug build of the workspace).
# Exit status: cargo-mutants' (0 all caught, 2 some missed, 3 some timed out).
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v cargo-mutants >/dev/null; then
    cargo install --locked cargo-mutants
fi
out=${MUTANTS_OUT:-target/mutation-score}
mkdir -p "$out"
echo "baseline: cargo test -p oracle --test mutation_harness"
cargo test -q -p oracle --test mutation_harness
exec cargo mutants \
    --test-workspace=true \
    --cargo-arg=--test --cargo-arg=mutation_harness \
    --baseline=skip \
    -f compiler/src/passes/mem2reg/placement.rs \
    -f compiler/src/passes/mem2reg/promote.rs \
    -f compiler/src/passes/mem2reg/rename.rs \
    -f compiler/src/passes/phi_elim.rs \
    -f compiler/src/passes/copyprop.rs \
    -f compiler/src/ir/analysis.rs \
    --jobs "${JOBS:-2}" \
    --timeout "${MUTANT_TIMEOUT:-150}" \
    --build-timeout "${MUTANT_BUILD_TIMEOUT:-600}" \
    --output "$out" \
    "$@"
