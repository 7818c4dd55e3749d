#!/usr/bin/env bash
# For each injected bug (compiler/src/inject.rs): the first program, among
# seeds 1..N of cgen (emphasis cycling through the presets, as in
# cgen-validity.sh) and of Csmith (`csmith --seed S`), whose native x86-64
# build by phicc with the bug switched on (PHICC_INJECT_BUG, default
# pipeline) prints something else than its `gcc -O0` build. The companion of
# scripts/cgen-vs-csmith.sh (which checks in process); here every finding
# comes from compiling and running.
#
# Per program: the gcc -O0 output is the reference; phicc without a bug, in
# both configurations (default and -fno-mem2reg), must print the same, or
# the program is counted as "unusable" (a compiler bug or a generator
# problem: listed, kept in $KEEP) and skipped for every bug. Then per bug,
# phicc -S with the bug: an assembly text equal to the bug-free one cannot
# differ (nothing to run); otherwise the program is built and run.
#
# Usage: scripts/cgen-vs-csmith-native.sh [N] [cgen|csmith|both]
#        (default 100 programs per generator, both)
#        env: JOBS (default nproc), KEEP (default /tmp/cgen-native-findings),
#        RUN_TIMEOUT (seconds per run, default 10)
# Output: one table row per bug: "#k" = the k-th program is the first finding.
set -euo pipefail
cd "$(dirname "$0")/.."
N=${1:-100}
WHICH=${2:-both}
JOBS=${JOBS:-$(nproc)}
KEEP=${KEEP:-/tmp/cgen-native-findings}
RUN_TIMEOUT=${RUN_TIMEOUT:-10}
command -v csmith >/dev/null && [ -f /usr/include/csmith/csmith.h ] || scripts/setup.sh --campaign
cargo build -q --release --locked -p phicc --bin phicc --features phicc/inject-bugs
cargo build -q --release --locked -p oracle --bin oracle
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
cp target/release/phicc "$WORK/phicc"
cp target/release/oracle "$WORK/oracle"
mkdir -p "$KEEP"
BUGS=$(sed -n 's/^ *Bug::[A-Za-z]* => "\([a-z-]*\)",$/\1/p' compiler/src/inject.rs | sort -u | tr '\n' ' ')
export WORK KEEP RUN_TIMEOUT BUGS

# One program: prints "unusable GEN SEED reason", or one line
# "found GEN SEED BUG" per bug whose build prints something else.
check_one() {
    local gen=$1 seed=$2 d="$WORK/$1-$2" inc=() src
    mkdir -p "$d"
    src="$d/p.c"
    if [ "$gen" = cgen ]; then
        local -a emph=(default lost-copy asm-goto switch-cost computed-goto params)
        "$WORK/oracle" cgen --seed "$seed" --emphasis "${emph[$((seed % 6))]}" -o "$src"
    else
        csmith --seed "$seed" >"$src"
        inc=(-I/usr/include/csmith)
    fi
    unusable() {
        echo "unusable $gen $seed $1"
        cp "$src" "$KEEP/$gen-$seed.c"
        rm -rf "$d"
    }
    if ! gcc -O0 -w "${inc[@]}" "$src" -o "$d/gcc" 2>/dev/null ||
        ! timeout "$RUN_TIMEOUT" "$d/gcc" >"$d/ref.out" 2>/dev/null; then
        echo "skipped $gen $seed (gcc build fails or times out)"
        rm -rf "$d"
        return
    fi
    local cfg
    for cfg in mem2reg nomem2reg; do
        local flag=()
        [ "$cfg" = nomem2reg ] && flag=(-fno-mem2reg)
        if ! "$WORK/phicc" -w "${flag[@]}" "${inc[@]}" -S "$src" -o "$d/$cfg.s" 2>"$d/err"; then
            unusable "phicc $cfg: $(head -c 200 "$d/err" | tr '\n' ' ')"
            return
        fi
        if ! gcc "$d/$cfg.s" -lm -o "$d/$cfg" 2>/dev/null ||
            ! timeout "$RUN_TIMEOUT" "$d/$cfg" >"$d/$cfg.out" 2>/dev/null ||
            ! cmp -s "$d/ref.out" "$d/$cfg.out"; then
            unusable "phicc $cfg (no injected bug) differs from gcc -O0"
            return
        fi
    done
    local bug
    for bug in $BUGS; do
        # Already found by an earlier program of this generator: skip.
        if [ -f "$WORK/found-$gen-$bug" ] && [ "$(cat "$WORK/found-$gen-$bug")" -lt "$seed" ]; then
            continue
        fi
        # A rejected compile (verifier failure, internal error) is a finding too.
        if PHICC_INJECT_BUG=$bug "$WORK/phicc" -w "${inc[@]}" -S "$src" -o "$d/bug.s" 2>/dev/null; then
            cmp -s "$d/bug.s" "$d/mem2reg.s" && continue
            if gcc "$d/bug.s" -lm -o "$d/bug" 2>/dev/null &&
                timeout "$RUN_TIMEOUT" "$d/bug" >"$d/bug.out" 2>/dev/null &&
                cmp -s "$d/ref.out" "$d/bug.out"; then
                continue
            fi
            echo "found $gen $seed $bug"
        else
            echo "found $gen $seed $bug (phicc fails: exit $?)"
        fi
        (
            flock 9
            f="$WORK/found-$gen-$bug"
            if [ ! -f "$f" ] || [ "$(cat "$f")" -gt "$seed" ]; then echo "$seed" >"$f"; fi
        ) 9>"$WORK/lock"
    done
    echo "checked $gen $seed"
    rm -rf "$d"
}
export -f check_one

gens=(cgen csmith)
[ "$WHICH" = both ] || gens=("$WHICH")
start=$(date +%s)
for gen in "${gens[@]}"; do
    t0=$(date +%s)
    seq 1 "$N" | xargs -P "$JOBS" -I{} bash -c "check_one $gen {}" >"$WORK/$gen.results"
    echo "== $gen: $N programs in $(($(date +%s) - t0)) s:" \
        "$(grep -c '^checked' "$WORK/$gen.results" || true) usable," \
        "$(grep -c '^unusable' "$WORK/$gen.results" || true) unusable," \
        "$(grep -c '^skipped' "$WORK/$gen.results" || true) skipped"
    grep -E '^(unusable|skipped)' "$WORK/$gen.results" | sort -k3 -n || true
done
printf '\n%-24s' "injected bug"
for gen in "${gens[@]}"; do printf '%20s' "$gen: first finding"; done
echo
for bug in $BUGS; do
    printf '%-24s' "$bug"
    for gen in "${gens[@]}"; do
        first=$(awk -v b="$bug" '$1 == "found" && $4 == b { print $3 }' "$WORK/$gen.results" | sort -n | head -1)
        if [ -n "$first" ]; then printf '%20s' "#$first"; else printf '%20s' "none in $N"; fi
    done
    echo
done
echo "(total $(($(date +%s) - start)) s; unusable programs in $KEEP)"
