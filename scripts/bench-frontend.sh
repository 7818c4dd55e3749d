#!/usr/bin/env bash
# Frontend speed: preprocess + parse + sema + lower (+ verify) of Csmith
# programs by phicc (`-fsyntax-only`, release build) next to
# `gcc -O0 -fsyntax-only` on the same files, in the same run, one process per
# file for both, files in the page cache for both.
#
#   scripts/bench-frontend.sh [COUNT]     (default 300: csmith seeds 1..COUNT)
#
# Prints the total and per-file wall time of each, their ratio, and phicc's
# own per-phase sums (from --time-phases).
set -euo pipefail
cd "$(dirname "$0")/.."

count=${1:-300}
command -v csmith >/dev/null && [ -f /usr/include/csmith/csmith.h ] || scripts/setup.sh --campaign
cargo build --release --locked -q -p phicc --bin phicc
phicc=$PWD/target/release/phicc

dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
for n in $(seq 1 "$count"); do
    csmith --seed "$n" >"$dir/$n.c"
done
files=("$dir"/*.c)
cat "${files[@]}" >/dev/null

now() { date +%s.%N; }

# Warm up both once.
gcc -O0 -fsyntax-only -w -I/usr/include/csmith "${files[0]}"
"$phicc" -fsyntax-only -w -I/usr/include/csmith "${files[0]}"

t0=$(now)
for f in "${files[@]}"; do
    gcc -O0 -fsyntax-only -w -I/usr/include/csmith "$f"
done
t1=$(now)
failed=0
for f in "${files[@]}"; do
    "$phicc" -fsyntax-only -w --time-phases -I/usr/include/csmith "$f" 2>>"$dir/phases.txt" || failed=$((failed + 1))
done
t2=$(now)

awk -v n="${#files[@]}" -v g0="$t0" -v g1="$t1" -v p1="$t2" -v failed="$failed" '
/^phicc: times/ { pp += $5; pa += $7; se += $9; lo += $11; ve += $13; k++ }
END {
    gcc = g1 - g0; ph = p1 - g1
    printf "files: %d (phicc failed on %d)\n", n, failed
    printf "gcc -O0 -fsyntax-only : %8.3f s total, %7.2f ms per file\n", gcc, 1000 * gcc / n
    printf "phicc -fsyntax-only   : %8.3f s total, %7.2f ms per file (%.2fx gcc)\n", ph, 1000 * ph / n, ph / gcc
    printf "phicc phases (sum over %d files): preprocess %.3f s, parse %.3f s, sema %.3f s, lower %.3f s, verify %.3f s\n", k, pp, pa, se, lo, ve
}' "$dir/phases.txt"
