#!/usr/bin/env bash
# Real programs as a project suite (issue 16): zlib, Lua and SQLite built by
# phicc through their own build systems, tested, and compared with the
# target's gcc -O0 build. A thin wrapper around `oracle realprogs`.
#
#   scripts/realprogs.sh TARGET CONFIG [PROGRAM...] [-- ORACLE-OPTIONS]
#
# TARGET: x86_64, aarch64, riscv64, a comma-separated list, or `all`.
# CONFIG: nomem2reg, mem2reg, opt, a comma-separated list, or `all`.
# PROGRAM: zlib, lua, sqlite (default: all three).
# ORACLE-OPTIONS: e.g. --work DIR, --out DIR, --sources DIR, --stack-mib N,
# --keep (see `oracle realprogs --help`). RELEASE=1 builds phicc and oracle
# with --release (much faster compiles of SQLite).
# Exit status: 0 every program passes, 1 a failure, 2 tool error.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ $# -lt 2 ]; then
    sed -n '2,14p' "$0" >&2
    exit 2
fi
target=$1 config=$2
shift 2
[ "$target" = all ] && target=x86_64,aarch64,riscv64
[ "$config" = all ] && config=nomem2reg,mem2reg,opt
programs=()
while [ $# -gt 0 ] && [ "$1" != -- ]; do
    programs+=("$1")
    shift
done
[ "${1:-}" = -- ] && shift
profile=debug
flags=()
if [ -n "${RELEASE:-}" ]; then
    profile=release
    flags=(--release)
fi
cargo build -q --locked "${flags[@]}" -p phicc -p oracle --bins
exec "target/$profile/oracle" realprogs --targets "$target" --configs "$config" \
    --compiler "target/$profile/phicc" "$@" "${programs[@]}"
