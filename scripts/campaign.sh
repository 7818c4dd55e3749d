#!/usr/bin/env bash
# The main job: a differential campaign. Installs what is missing
# (scripts/setup.sh --campaign: QEMU, cross gccs, Csmith, cvise), builds phicc
# and oracle in release mode, then compiles Csmith programs with and without
# mem2reg + phi elimination (configurations nomem2reg, mem2reg) for x86-64,
# AArch64 and RISC-V 64, runs them (QEMU for the foreign ISAs) against the
# host's gcc -O0, and prints the summary: outcomes, findings by bucket, the
# rate and where the time goes (compile, assemble and link, run, reference).
#
#   scripts/campaign.sh [oracle campaign options...]
#   default: --generator csmith --seed $SEED (default: today) --count ${COUNT:-100}
#            --out findings/campaign-<seed>; later options override these.
#   e.g. scripts/campaign.sh --generator cgen --emphasis lost-copy --count 50
#
# A directory that holds the same campaign is resumed (rerunning after a kill
# loses and repeats nothing). Exit status: 0 nothing found, 1 findings, 2 tool error.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh --campaign

cargo build --release --locked -p phicc -p oracle --bins
oracle=target/release/oracle
phicc=target/release/phicc
seed=${SEED:-$(date +%Y%m%d)}

# Fail early and clearly when phicc cannot compile a trivial program for a target.
probe=$(mktemp -d)
trap 'rm -rf "$probe"' EXIT
printf 'int main(void) { return 0; }\n' > "$probe/p.c"
for t in x86_64 aarch64 riscv64; do
    if ! "$phicc" -static --target=$t -o "$probe/p-$t" "$probe/p.c" 2>"$probe/err"; then
        echo "campaign: phicc cannot build a trivial program for $t:" >&2
        cat "$probe/err" >&2
        exit 2
    fi
done

echo "campaign: load average before the run: $(cut -d' ' -f1-3 /proc/loadavg)"
"$oracle" campaign --generator csmith --seed "$seed" --count "${COUNT:-100}" \
    --compiler "$phicc" --out "findings/campaign-$seed" "$@"
