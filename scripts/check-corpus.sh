#!/usr/bin/env bash
# Replays every IR file of corpora/ through phiopt: the verifier alone, then
# the whole mem2reg pipeline with the verifier after each pass, comparing the
# interpreter's outcome before and after under several inline-asm schedules.
# Usage: scripts/check-corpus.sh [DIR...]   (default: corpora/ir corpora/regressions)
set -uo pipefail
cd "$(dirname "$0")/.."

cargo build --quiet --locked -p phicc --bin phiopt
phiopt=target/debug/phiopt

dirs=("$@")
[ ${#dirs[@]} -eq 0 ] && dirs=(corpora/ir corpora/regressions)
pipelines=("verify" "mem2reg-pipeline")

total=0 failed=0
for dir in "${dirs[@]}"; do
    [ -d "$dir" ] || continue
    for f in "$dir"/*.ir; do
        [ -e "$f" ] || continue
        for p in "${pipelines[@]}"; do
            total=$((total + 1))
            if out=$("$phiopt" --passes="$p" --verify-each --check --schedule=0,1,2,3 "$f" 2>&1); then
                echo "ok    $f [$p]"
            else
                failed=$((failed + 1))
                echo "FAIL  $f [$p]"
                echo "$out" | sed 's/^/      /'
            fi
        done
    done
done
echo "corpus: $((total - failed)) passed, $failed failed"
[ $failed -eq 0 ]
