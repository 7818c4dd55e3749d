#!/usr/bin/env bash
# Compile time to an object file: phicc -c (x86-64, release build, both
# configurations) next to gcc -O0 -c on the same Csmith programs, in the same
# run, one process per file for both, files in the page cache.
#
#   scripts/bench-compile.sh [COUNT]     (default 300: csmith seeds 1..COUNT)
#
# PHICC=path measures that phicc binary instead of building this checkout's
# (e.g. an older build, for a before/after table in the same conditions).
#
# Prints the total and per-file wall time of each, the ratio (the goal of
# issue 6 is phicc at least 5x faster than gcc -O0), and phicc's own
# per-phase sums from --time-phases (frontend phases, passes, backend, and
# the assembler: integrated, or gcc for modules with inline asm). Wall time
# and CPU time (user + system of all processes, less sensitive to other load
# on the machine) are both reported; an otherwise idle machine is best.
set -euo pipefail
cd "$(dirname "$0")/.."

count=${1:-300}
command -v csmith >/dev/null && [ -f /usr/include/csmith/csmith.h ] || scripts/setup.sh --csmith
if [ -n "${PHICC:-}" ]; then
    phicc=$PHICC
else
    cargo build --release --locked -q -p phicc --bin phicc
    phicc=$PWD/target/release/phicc
fi

dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
for n in $(seq 1 "$count"); do
    csmith --seed "$n" >"$dir/$n.c"
done
files=("$dir"/*.c)
cat "${files[@]}" >/dev/null

now() { date +%s.%N; }

# Warm up both once.
gcc -O0 -c -w -I/usr/include/csmith "${files[0]}" -o "$dir/warm.o"
"$phicc" -c -w -I/usr/include/csmith "${files[0]}" -o "$dir/warm.o"

cpu() { awk '{ print $14 + $15 + $16 + $17 }' /proc/$$/stat; }  # utime+stime+cutime+cstime (ticks)
tick=$(getconf CLK_TCK)

t0=$(now); c0=$(cpu)
for f in "${files[@]}"; do
    gcc -O0 -c -w -I/usr/include/csmith "$f" -o "$dir/out.o"
done
t1=$(now); c1=$(cpu)
failed=0
for f in "${files[@]}"; do
    "$phicc" -c -w --time-phases -I/usr/include/csmith "$f" -o "$dir/out.o" 2>>"$dir/phases.txt" || failed=$((failed + 1))
done
t2=$(now); c2=$(cpu)
for f in "${files[@]}"; do
    "$phicc" -fno-mem2reg -c -w -I/usr/include/csmith "$f" -o "$dir/out.o" || failed=$((failed + 1))
done
t3=$(now); c3=$(cpu)

awk -v n="${#files[@]}" -v g0="$t0" -v g1="$t1" -v p1="$t2" -v p2="$t3" -v failed="$failed" \
    -v cg="$(( c1 - c0 ))" -v cm="$(( c2 - c1 ))" -v cn="$(( c3 - c2 ))" -v tick="$tick" '
/^phicc: times \(s\): preprocess/ { pp += $5; pa += $7; se += $9; lo += $11; ve += $13 }
/^phicc: times \(s\): passes/ { ps += $5; be += $7; as += $9; k++ }
END {
    gcc = g1 - g0; m = p1 - g1; nm = p2 - p1
    printf "files: %d (phicc failed on %d)\n", n, failed
    printf "gcc -O0 -c           : %8.3f s total, %7.2f ms per file\n", gcc, 1000 * gcc / n
    printf "phicc -c (mem2reg)   : %8.3f s total, %7.2f ms per file, %.2fx faster than gcc\n", m, 1000 * m / n, gcc / m
    printf "phicc -c (nomem2reg) : %8.3f s total, %7.2f ms per file, %.2fx faster than gcc\n", nm, 1000 * nm / n, gcc / nm
    printf "CPU time (user+sys): gcc %.2f s, phicc mem2reg %.2f s (%.2fx), nomem2reg %.2f s (%.2fx)\n", cg / tick, cm / tick, cg / cm, cn / tick, cg / cn
    printf "phicc (mem2reg) phases, sums over %d files:\n", k
    printf "  preprocess %.3f s, parse %.3f s, sema %.3f s, lower %.3f s, verify %.3f s\n", pp, pa, se, lo, ve
    printf "  passes %.3f s, backend %.3f s, assembler %.3f s\n", ps, be, as
    printf "  rest (process start, reading, writing, linking nothing): %.3f s\n", m - (pp + pa + se + lo + ve + ps + be + as)
}' "$dir/phases.txt"
