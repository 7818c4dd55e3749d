#!/usr/bin/env bash
# Validity of the C generator (issue 9): for seeds 1..N (default 1000), the
# program of `oracle cgen --seed S --emphasis E` (E cycling through the six
# presets) must
#   1. compile with `gcc -O2 -Wall -Wextra` with no warning about
#      uninitialized use, sequence points or overflow (those are errors);
#   2. run clean under `gcc -O0 -fsanitize=undefined,address -fno-sanitize-recover=all`
#      (ASan also checking stack use after return);
#   3. print the same as the `gcc -O2` build, and as the plain-C fallback of
#      its inline asm (`-U__x86_64__` selects the `#else` branches).
# Then the first CROSS seeds (default 30; 0 to skip) are cross-compiled with
# aarch64-linux-gnu-gcc and riscv64-linux-gnu-gcc (-static -O2), run under
# qemu-aarch64 / qemu-riscv64, and must print the same as on x86-64: the
# per-target asm goto templates compute the same thing.
#
# Usage: scripts/cgen-validity.sh [N]      env: JOBS (default nproc), CROSS,
#        KEEP (directory for failing programs, default /tmp/cgen-validity-failures)
# Exit status: 0 all valid, 1 some program failed (listed), 2 setup error.
set -euo pipefail
cd "$(dirname "$0")/.."

N=${1:-1000}
JOBS=${JOBS:-$(nproc)}
CROSS=${CROSS:-30}
KEEP=${KEEP:-/tmp/cgen-validity-failures}

command -v gcc >/dev/null || { echo "cgen-validity: gcc is missing (scripts/setup.sh installs it)" >&2; exit 2; }
cargo build -q --release --locked -p oracle --bin oracle
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
# A copy, so that rebuilding during a long run does not change the generator.
cp target/release/oracle "$WORK/oracle"
ORACLE=$WORK/oracle
mkdir -p "$KEEP"

# Sanitizers work here? (Missing libubsan/libasan makes every check fail.)
printf 'int main(void){return 0;}\n' >"$WORK/probe.c"
if ! gcc -fsanitize=undefined,address "$WORK/probe.c" -o "$WORK/probe" 2>/dev/null || ! ASAN_OPTIONS=detect_leaks=0 "$WORK/probe"; then
    echo "cgen-validity: gcc's sanitizers do not work here (libasan/libubsan missing?)" >&2
    exit 2
fi

export ORACLE WORK KEEP
EMPHASES=(default lost-copy asm-goto switch-cost computed-goto params)
export EMPHASES_LIST="${EMPHASES[*]}"

# One seed: prints "ok SEED" or "FAIL SEED EMPHASIS: reason".
check_one() {
    local seed=$1
    local -a emph=($EMPHASES_LIST)
    local e=${emph[$((seed % ${#emph[@]}))]}
    local d="$WORK/$seed"
    mkdir -p "$d"
    "$ORACLE" cgen --seed "$seed" --emphasis "$e" -o "$d/p.c"
    fail() {
        echo "FAIL $seed $e: $1"
        cp "$d/p.c" "$KEEP/cgen-$seed-$e.c"
        rm -rf "$d"
    }
    if ! gcc -O2 -Wall -Wextra -Werror=uninitialized -Werror=maybe-uninitialized \
        -Werror=sequence-point -Werror=overflow "$d/p.c" -o "$d/o2" 2>"$d/warn"; then
        fail "gcc -O2 -Wall -Wextra: $(grep -m1 -E 'error' "$d/warn")"
        return
    fi
    if ! gcc -O0 -fsanitize=undefined,address -fno-sanitize-recover=all "$d/p.c" -o "$d/san" 2>/dev/null; then
        fail "gcc -fsanitize does not compile it"
        return
    fi
    if ! ASAN_OPTIONS=detect_leaks=0:detect_stack_use_after_return=1 timeout 10 "$d/san" >"$d/san.out" 2>"$d/san.err"; then
        fail "sanitized run: $(head -c 300 "$d/san.err")"
        return
    fi
    if ! timeout 10 "$d/o2" >"$d/o2.out"; then
        fail "gcc -O2 build exits non-zero"
        return
    fi
    if ! cmp -s "$d/san.out" "$d/o2.out"; then
        fail "gcc -O0 (sanitized) and gcc -O2 print different checksums"
        return
    fi
    if ! gcc -O1 -w -U__x86_64__ "$d/p.c" -o "$d/plain" 2>/dev/null || ! timeout 10 "$d/plain" >"$d/plain.out"; then
        fail "the plain-C asm fallback does not build or run"
        return
    fi
    if ! cmp -s "$d/o2.out" "$d/plain.out"; then
        fail "the plain-C asm fallback prints something else than the x86-64 asm"
        return
    fi
    local nwarn
    nwarn=$(grep -c 'warning:' "$d/warn" || true)
    echo "ok $seed $nwarn"
    rm -rf "$d"
}
export -f check_one

echo "== cgen validity: $N programs, $JOBS jobs"
seq 1 "$N" | xargs -P "$JOBS" -I{} bash -c 'check_one {}' >"$WORK/results"
fails=$(grep -c '^FAIL' "$WORK/results" || true)
warned=$(awk '$1 == "ok" && $3 > 0' "$WORK/results" | wc -l)
grep '^FAIL' "$WORK/results" | sort -k2 -n || true
echo "valid: $((N - fails)) of $N ($warned with other -Wall -Wextra warnings); failing programs in $KEEP"

cross_fails=0
if [ "$CROSS" -gt 0 ]; then
    for arch in aarch64 riscv64; do
        if ! command -v "$arch-linux-gnu-gcc" >/dev/null || ! command -v "qemu-$arch" >/dev/null; then
            echo "cross $arch: skipped ($arch-linux-gnu-gcc or qemu-$arch missing; scripts/setup.sh --campaign)"
            continue
        fi
        ok=0
        for seed in $(seq 1 "$CROSS"); do
            emph=($EMPHASES_LIST)
            e=${emph[$((seed % ${#emph[@]}))]}
            "$ORACLE" cgen --seed "$seed" --emphasis "$e" -o "$WORK/x.c"
            gcc -O2 -w "$WORK/x.c" -o "$WORK/x86" && "$WORK/x86" >"$WORK/x86.out"
            if "$arch-linux-gnu-gcc" -static -O2 -w "$WORK/x.c" -o "$WORK/cross" &&
                timeout 20 "qemu-$arch" "$WORK/cross" >"$WORK/cross.out" &&
                cmp -s "$WORK/x86.out" "$WORK/cross.out"; then
                ok=$((ok + 1))
            else
                echo "FAIL cross $arch seed $seed ($e)"
                cp "$WORK/x.c" "$KEEP/cgen-$seed-$e-$arch.c"
                cross_fails=$((cross_fails + 1))
            fi
        done
        echo "cross $arch: $ok of $CROSS print the same as x86-64"
    done
fi

[ "$fails" -eq 0 ] && [ "$cross_fails" -eq 0 ]
