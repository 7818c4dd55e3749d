#!/usr/bin/env bash
# Checks the first-diverging-stage bucketing of C campaigns against the
# injected bugs: for each bug of compiler/src/inject.rs, a short cgen campaign
# on x86-64 with the bug switched on (PHICC_INJECT_BUG), then the stages of its
# mismatch/crash findings next to the stage the bug lives in.
#
#   scripts/localize-check.sh [COUNT]     (default 30 programs per bug)
#
# Builds phicc with --features phicc/inject-bugs into target/inject. Prints one
# line per bug: expected stage, the stages found (with counts), and OK when
# every finding of the bug's own classes landed in its stage. Exit status 1
# when a bug's findings land elsewhere (a bug no campaign found is reported,
# not failed: see the README's injected-bug table for which generator reaches it).
set -euo pipefail
cd "$(dirname "$0")/.."
count=${1:-30}
cargo build --release --locked -q -p oracle --bin oracle
cargo build --release --locked -q -p phicc --bin phicc --features phicc/inject-bugs --target-dir target/inject
oracle=target/release/oracle
phicc=target/inject/release/phicc
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

# bug  stages-it-lives-in (an extended regex over pass names)  cgen-emphasis
plan="lost-copy phi-elim lost-copy
no-critical-edge-split phi-elim default
switch-dup-edge phi-elim switch-cost
no-indirect-isolation phi-elim computed-goto
no-asm-goto-snapshot mem2reg(-params)? asm-goto
no-constant-narrowing mem2reg(-params)? default
promote-volatile mem2reg(-params)? default
promote-address-taken mem2reg(-params)? params
direct-df-only mem2reg(-params)? default
wrong-uninit-value mem2reg(-params)? default"

status=0
while read -r bug stage emphasis; do
    dir="$out/$bug"
    "$oracle" campaign --generator cgen --emphasis "$emphasis" --seed 1 --count "$count" \
        --targets x86_64 --compiler "$phicc" --inject-bug "$bug" --out "$dir" --quiet </dev/null \
        >/dev/null 2>"$dir.err" || [ $? -eq 1 ] || { cat "$dir.err" >&2; exit 2; }
    # Findings the bug itself causes: mismatches, timeouts and crashes in mem2reg only.
    found=$(grep -h '"cells":\["x86_64/mem2reg"\]' "$dir/findings.jsonl" 2>/dev/null |
        sed -n 's/.*"stage":"\([^"]*\)".*/\1/p' | sort | uniq -c | awk '{printf "%s%s x%s", sep, $2, $1; sep=", "}' || true)
    verdict="OK"
    if [ -z "$found" ]; then
        verdict="not found in $count programs"
    elif grep -h '"cells":\["x86_64/mem2reg"\]' "$dir/findings.jsonl" | grep -Evq "\"stage\":\"($stage)\""; then
        verdict="MISPLACED"
        status=1
    fi
    printf '%-24s expected %-18s found: %-40s %s\n' "$bug" "$stage" "${found:--}" "$verdict"
done <<< "$plan"
exit $status
