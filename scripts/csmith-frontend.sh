#!/usr/bin/env bash
# The Csmith sweep of the C frontend: `csmith --seed N` (default options) for
# every N in the range must preprocess, parse and analyze without error for
# x86-64, AArch64 and RISC-V 64 (with -I/usr/include/csmith). Generated
# programs are cached in target/csmith-frontend/. Prints the failures, the
# counts, and our time next to `gcc -O0 -fsyntax-only` on the same files.
# Usage: scripts/csmith-frontend.sh [FIRST-LAST]   (default 1-300)
set -euo pipefail
cd "$(dirname "$0")/.."

range=${1:-1-300}
first=${range%-*}
last=${range#*-}
dir=target/csmith-frontend

if ! command -v csmith >/dev/null || [ ! -f /usr/include/csmith/csmith.h ]; then
    echo "csmith (and its headers in /usr/include/csmith) is not installed: run scripts/setup.sh" >&2
    exit 2
fi

mkdir -p "$dir"
generated=0
for seed in $(seq "$first" "$last"); do
    f="$dir/csmith_$seed.c"
    if [ ! -s "$f" ]; then
        csmith --seed "$seed" > "$f.tmp" && mv "$f.tmp" "$f"
        generated=$((generated + 1))
    fi
done
echo "== $((last - first + 1)) Csmith programs in $dir ($generated generated now)"

echo "== gcc -O0 -fsyntax-only (x86-64)"
start=$(date +%s%N)
for seed in $(seq "$first" "$last"); do
    gcc -O0 -fsyntax-only -w -I/usr/include/csmith "$dir/csmith_$seed.c"
done
end=$(date +%s%N)
ms=$(((end - start) / 1000000))
echo "x86_64: gcc -O0 -fsyntax-only $((ms / 1000)).$(printf '%03d' $((ms % 1000)))s"

echo "== phicc preprocess + parse + analyze (release build, every target)"
PHICC_CSMITH_DIR="$PWD/$dir" PHICC_CSMITH_SEEDS="$first-$last" \
    cargo test --release --locked --quiet -p phicc --lib csmith_sema_sweep -- --ignored --nocapture --test-threads=1 \
    2>&1 | grep -v '^$' | grep -v '^running ' | grep -v '^test result' | grep -v '^\.$'
