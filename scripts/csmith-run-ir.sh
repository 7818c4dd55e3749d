#!/usr/bin/env bash
# Csmith programs through phicc's frontend, lowering and interpreter.
#
#   scripts/csmith-run-ir.sh [FIRST] [LAST]     (default seeds 1..300)
#
# For each seed N: `csmith --seed N` (default options) gives a program; gcc -O0
# on x86-64 gives the reference checksum (programs whose gcc binary runs longer
# than 10 s are skipped and counted); `phicc --run-ir` with and without the
# mem2reg pipeline must print the same; and the program must lower and verify
# for each of the three targets. Prints one line per failure and the counts;
# exits 1 when anything failed.
#
# Environment: JOBS (parallel seeds, default 2), PHICC (the compiler binary,
# default: built here in release mode), KEEP=dir (keep the programs and
# outputs there), RUN_TIMEOUT (seconds per phicc --run-ir, default 300).
set -euo pipefail
cd "$(dirname "$0")/.."

first=${1:-1}
last=${2:-300}
jobs=${JOBS:-2}
run_timeout=${RUN_TIMEOUT:-300}

command -v csmith >/dev/null && [ -f /usr/include/csmith/csmith.h ] || scripts/setup.sh --campaign
if [ -z "${PHICC:-}" ]; then
    cargo build --release --locked -q -p phicc --bin phicc
    PHICC=$PWD/target/release/phicc
fi
export PHICC run_timeout

work=${KEEP:-$(mktemp -d)}
mkdir -p "$work"
[ -n "${KEEP:-}" ] || trap 'rm -rf "$work"' EXIT
export work

# One seed: prints "seed N: RESULT [detail]".
one_seed() {
    local n=$1 c="$work/$1.c" t
    csmith --seed "$n" >"$c" 2>/dev/null || { echo "seed $n: csmith-failed"; return; }
    if ! gcc -O0 -w -I/usr/include/csmith "$c" -o "$work/$n.gcc" 2>"$work/$n.gcc.err"; then
        echo "seed $n: gcc-failed"; return
    fi
    local st=0
    timeout 10 "$work/$n.gcc" >"$work/$n.ref" 2>/dev/null || st=$?
    if [ $st = 124 ]; then echo "seed $n: skipped (gcc binary ran longer than 10 s)"; return; fi
    if [ $st != 0 ]; then echo "seed $n: gcc-binary-failed (status $st)"; return; fi
    for t in x86_64 aarch64 riscv64; do
        if ! "$PHICC" --target=$t --emit-ir -w -I/usr/include/csmith "$c" -o /dev/null 2>"$work/$n.$t.err"; then
            echo "seed $n: lower-failed on $t: $(head -c 300 "$work/$n.$t.err" | tr '\n' ' ')"; return
        fi
    done
    local cfg flag
    for cfg in mem2reg nomem2reg; do
        flag=""; [ $cfg = nomem2reg ] && flag=-fno-mem2reg
        st=0
        timeout "$run_timeout" "$PHICC" --run-ir $flag -w -I/usr/include/csmith "$c" >"$work/$n.$cfg.out" 2>"$work/$n.$cfg.err" || st=$?
        if [ $st = 124 ]; then echo "seed $n: run-ir-timeout ($cfg)"; return; fi
        if [ $st != 0 ]; then echo "seed $n: run-ir-failed ($cfg, status $st): $(head -c 300 "$work/$n.$cfg.err" | tr '\n' ' ')"; return; fi
        if ! cmp -s "$work/$n.ref" "$work/$n.$cfg.out"; then
            echo "seed $n: MISMATCH ($cfg): gcc $(tail -n1 "$work/$n.ref"), phicc $(tail -n1 "$work/$n.$cfg.out")"; return
        fi
    done
    echo "seed $n: ok"
    [ -n "${KEEP:-}" ] || rm -f "$work/$n".*
}
export -f one_seed

start=$(date +%s)
seq "$first" "$last" | xargs -P "$jobs" -I{} bash -c 'one_seed {}' | tee "$work/results.txt" | grep -v ': ok$' || true
end=$(date +%s)

r="$work/results.txt"
count() { grep -c "$@" "$r" || true; }
total=$(wc -l <"$r")
ok=$(count ': ok$')
skipped=$(count ': skipped')
echo "csmith seeds $first..$last: $total programs in $((end - start)) s"
echo "  agree with gcc (mem2reg and nomem2reg, all targets lower+verify): $ok"
echo "  skipped (gcc binary > 10 s): $skipped"
echo "  mismatches: $(count MISMATCH)"
echo "  lowering/verification failures: $(count lower-failed)"
echo "  run-ir failures: $(count run-ir-failed)   run-ir timeouts: $(count run-ir-timeout)"
echo "  reference problems (csmith/gcc): $(count -e csmith-failed -e gcc-failed -e gcc-binary-failed)"
[ "$ok" -eq "$((total - skipped))" ]
