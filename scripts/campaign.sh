#!/usr/bin/env bash
# The main job: a short differential campaign. Installs what is missing
# (scripts/setup.sh --campaign: QEMU, cross gccs, Csmith, cvise), builds phicc
# and oracle in release mode, then compiles Csmith programs with and without
# mem2reg + phi elimination for x86-64, AArch64 and RISC-V 64, runs them
# (QEMU for the foreign ISAs) against gcc -O0, and prints the summary.
#
#   scripts/campaign.sh [oracle campaign options...]
#   default: --generator csmith --count 100 --out findings/campaign-<seed>
#
# Until phicc has a backend for every target, the C campaign cannot run; the
# script says so and runs the IR-level campaign (mem2reg pipeline checked in
# the interpreter) instead. Exit status: 0 nothing found, 1 findings, 2 tool error.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh --campaign

cargo build --release --locked -p phicc -p oracle --bins
oracle=target/release/oracle
phicc=target/release/phicc
seed=${SEED:-$(date +%Y%m%d)}

probe=$(mktemp -d)
trap 'rm -rf "$probe"' EXIT
printf 'int main(void) { return 0; }\n' > "$probe/p.c"
missing=()
for t in x86_64 aarch64 riscv64; do
    if ! [ -x "$phicc" ] || ! "$phicc" -S --target=$t -o "$probe/p.s" "$probe/p.c" 2>"$probe/err"; then
        missing+=("$t")
    fi
done

if [ ${#missing[@]} -gt 0 ]; then
    echo "campaign: phicc cannot compile for ${missing[*]} yet ($(head -n1 "$probe/err" 2>/dev/null));"
    echo "campaign: running the IR-level campaign instead (oracle campaign --generator irgen)."
    exec "$oracle" campaign --generator irgen --seed "$seed" --count 20000 --out "findings/ir-campaign-$seed" "$@"
fi

exec "$oracle" campaign --generator csmith --seed "$seed" --count 100 \
    --compiler "$phicc" --out "findings/campaign-$seed" "$@"
