#!/usr/bin/env bash
# cgen programs through the real phicc on every target in both
# configurations, against gcc -O0 (issue 9): for seeds 1..N (emphasis
# cycling through the presets, as in cgen-validity.sh), the output of
# `phicc -static --target=T [-fno-mem2reg]` (x86-64 natively, AArch64 and
# RISC-V 64 under QEMU) must equal the output of the x86-64 `gcc -O0` build
# (the programs print the same on every target: cgen-validity.sh checks
# that with the cross gcc). A difference is a phicc bug or a generator
# portability problem; the program is kept in $KEEP.
#
# Usage: scripts/cgen-phicc-targets.sh [N]     (default 60)
#        env: JOBS (default nproc), KEEP (default /tmp/cgen-phicc-targets),
#        TARGETS (default "x86_64 aarch64 riscv64")
set -euo pipefail
cd "$(dirname "$0")/.."
N=${1:-60}
JOBS=${JOBS:-$(nproc)}
KEEP=${KEEP:-/tmp/cgen-phicc-targets}
TARGETS=${TARGETS:-x86_64 aarch64 riscv64}
for t in $TARGETS; do
    [ "$t" = x86_64 ] && continue
    command -v "qemu-$t" >/dev/null && command -v "$t-linux-gnu-gcc" >/dev/null || scripts/setup.sh --campaign
done
cargo build -q --release --locked -p phicc --bin phicc
cargo build -q --release --locked -p oracle --bin oracle
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
cp target/release/phicc target/release/oracle "$WORK/"
mkdir -p "$KEEP"
export WORK KEEP TARGETS

# One seed: one line per target and configuration, "ok ..." or "FAIL ...".
check_one() {
    local seed=$1 d="$WORK/$1"
    local -a emph=(default lost-copy asm-goto switch-cost computed-goto params)
    local e=${emph[$((seed % 6))]}
    mkdir -p "$d"
    if ! "$WORK/oracle" cgen --seed "$seed" --emphasis "$e" -o "$d/p.c" ||
        ! gcc -O0 -w "$d/p.c" -o "$d/gcc" || ! timeout 10 "$d/gcc" >"$d/ref.out" || [ ! -s "$d/ref.out" ]; then
        echo "FAIL $seed $e (no gcc -O0 reference)"
        return
    fi
    local t cfg flag run
    for t in $TARGETS; do
        run=()
        [ "$t" = x86_64 ] || run=("qemu-$t")
        for cfg in mem2reg nomem2reg; do
            flag=()
            [ "$cfg" = nomem2reg ] && flag=(-fno-mem2reg)
            if ! "$WORK/phicc" -w -static --target="$t" "${flag[@]}" "$d/p.c" -o "$d/$t-$cfg" 2>"$d/err"; then
                echo "FAIL $seed $e $t $cfg: phicc: $(head -c 200 "$d/err" | tr '\n' ' ')"
                cp "$d/p.c" "$KEEP/cgen-$seed-$e.c"
            elif ! timeout 60 "${run[@]}" "$d/$t-$cfg" >"$d/out" 2>/dev/null || ! cmp -s "$d/ref.out" "$d/out"; then
                echo "FAIL $seed $e $t $cfg: prints something else than gcc -O0"
                cp "$d/p.c" "$KEEP/cgen-$seed-$e.c"
            else
                echo "ok $seed $e $t $cfg"
            fi
        done
    done
    rm -rf "$d"
}
export -f check_one

seq 1 "$N" | xargs -P "$JOBS" -I{} bash -c 'check_one {}' >"$WORK/results"
for t in $TARGETS; do
    for cfg in mem2reg nomem2reg; do
        echo "$t $cfg: $(awk -v t="$t" -v c="$cfg" '$1 == "ok" && $4 == t && $5 == c' "$WORK/results" | wc -l) of $N print what gcc -O0 prints"
    done
done
grep '^FAIL' "$WORK/results" | sort -k2 -n || true
! grep -q '^FAIL' "$WORK/results"
