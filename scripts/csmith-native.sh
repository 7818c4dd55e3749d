#!/usr/bin/env bash
# Csmith programs compiled by phicc and run natively or under QEMU user-mode.
#
#   scripts/csmith-native.sh [--target=x86_64|aarch64|riscv64] [FIRST] [LAST]
#                                               (default x86_64, seeds 1..300)
#
# For each seed N: `csmith --seed N` (default options) gives a program; the
# target's gcc -O0 binary (static and under qemu-<arch> for a foreign
# target) gives the reference checksum (programs whose gcc binary runs longer
# than 10 s are skipped and counted); phicc with and without mem2reg
# (`-fno-mem2reg`) compiles it to an executable for the target, which must
# print the same (a phicc binary running longer than 10 s is a timeout,
# counted apart). Prints one line per failure and the counts; exits 1 when
# anything failed.
#
# Environment: JOBS (parallel seeds, default 2), PHICC (the compiler binary,
# default: built here in release mode), KEEP=dir (keep programs, binaries and
# outputs there), SEEDS="3 17 250" (an explicit list instead of FIRST..LAST).
set -euo pipefail
cd "$(dirname "$0")/.."

target=x86_64
case "${1:-}" in
    --target=*) target=${1#--target=}; shift ;;
esac
first=${1:-1}
last=${2:-300}
jobs=${JOBS:-2}

case "$target" in
    x86_64) tgcc=gcc; run=(); static=() ;;
    aarch64) tgcc=aarch64-linux-gnu-gcc; run=(qemu-aarch64); static=(-static) ;;
    riscv64) tgcc=riscv64-linux-gnu-gcc; run=(qemu-riscv64); static=(-static) ;;
    *) echo "unknown target '$target' (x86_64, aarch64, riscv64)" >&2; exit 2 ;;
esac
# The native target runs its binaries directly even on a foreign host.
if [ "$target" = "$(uname -m)" ]; then run=(); fi

command -v csmith >/dev/null && [ -f /usr/include/csmith/csmith.h ] || scripts/setup.sh --csmith
if ! command -v "$tgcc" >/dev/null || { [ ${#run[@]} -gt 0 ] && ! command -v "${run[0]}" >/dev/null; }; then
    scripts/setup.sh --campaign
fi
if [ -z "${PHICC:-}" ]; then
    cargo build --release --locked -q -p phicc --bin phicc
    PHICC=$PWD/target/release/phicc
fi
export PHICC target tgcc
export RUN="${run[*]:-}" STATIC="${static[*]:-}"

work=${KEEP:-$(mktemp -d)}
mkdir -p "$work"
[ -n "${KEEP:-}" ] || trap 'rm -rf "$work"' EXIT
export work

# One seed: prints "seed N: RESULT [detail]".
one_seed() {
    local n=$1 c="$work/$1.c"
    csmith --seed "$n" >"$c" 2>/dev/null || { echo "seed $n: csmith-failed"; return; }
    # shellcheck disable=SC2086 # RUN and STATIC are word lists
    if ! $tgcc $STATIC -O0 -w -I/usr/include/csmith "$c" -o "$work/$n.gcc" 2>"$work/$n.gcc.err"; then
        echo "seed $n: gcc-failed"; return
    fi
    local st=0
    timeout 10 $RUN "$work/$n.gcc" >"$work/$n.ref" 2>/dev/null || st=$?
    if [ $st = 124 ]; then echo "seed $n: skipped (gcc binary ran longer than 10 s)"; return; fi
    if [ $st != 0 ]; then echo "seed $n: gcc-binary-failed (status $st)"; return; fi
    local cfg flag
    for cfg in mem2reg nomem2reg; do
        flag=""; [ $cfg = nomem2reg ] && flag=-fno-mem2reg
        st=0
        "$PHICC" --target="$target" $STATIC $flag -w -I/usr/include/csmith "$c" -o "$work/$n.$cfg" 2>"$work/$n.$cfg.err" || st=$?
        if [ $st != 0 ]; then
            echo "seed $n: compile-failed ($cfg, status $st): $(head -c 300 "$work/$n.$cfg.err" | tr '\n' ' ')"; return
        fi
        st=0
        timeout 10 $RUN "$work/$n.$cfg" >"$work/$n.$cfg.out" 2>/dev/null || st=$?
        if [ $st = 124 ]; then echo "seed $n: timeout ($cfg binary ran longer than 10 s)"; return; fi
        if [ $st != 0 ]; then echo "seed $n: CRASH ($cfg binary, status $st)"; return; fi
        if ! cmp -s "$work/$n.ref" "$work/$n.$cfg.out"; then
            echo "seed $n: MISMATCH ($cfg): gcc $(tail -n1 "$work/$n.ref"), phicc $(tail -n1 "$work/$n.$cfg.out")"; return
        fi
    done
    echo "seed $n: ok"
    [ -n "${KEEP:-}" ] || rm -f "$work/$n".*
}
export -f one_seed

start=$(date +%s)
if [ -n "${SEEDS:-}" ]; then
    printf '%s\n' $SEEDS
else
    seq "$first" "$last"
fi | xargs -P "$jobs" -I{} bash -c 'one_seed {}' | tee "$work/results.txt" | grep -v ': ok$' || true
end=$(date +%s)

r="$work/results.txt"
count() { grep -c "$@" "$r" || true; }
total=$(wc -l <"$r")
ok=$(count ': ok$')
skipped=$(count ': skipped')
timeouts=$(count ': timeout')
echo "csmith $target${RUN:+ (under $RUN)}: $total programs in $((end - start)) s"
echo "  same checksum as gcc -O0 (mem2reg and nomem2reg): $ok"
echo "  skipped (gcc binary > 10 s): $skipped"
echo "  phicc binary > 10 s: $timeouts"
echo "  mismatches: $(count MISMATCH)   crashes: $(count CRASH)"
echo "  compile failures: $(count compile-failed)"
echo "  reference problems (csmith/gcc): $(count -e csmith-failed -e gcc-failed -e gcc-binary-failed)"
[ "$ok" -eq "$((total - skipped - timeouts))" ]
