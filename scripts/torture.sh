#!/usr/bin/env bash
# gcc's C torture execute tests (GCC 12.2, Debian's gcc-12-source) compiled by
# phicc for one target and configuration and compared with the expected-failure
# list corpora/torture/expected-failures-TARGET.txt (a thin wrapper around
# `oracle torture`; see oracle/src/torture.rs for how the suite is read):
#
#   scripts/torture.sh TARGET CONFIG [oracle torture options...]
#   scripts/torture.sh x86_64 mem2reg --sample 440 --jobs 2
#
# Installs gcc-12-source when missing; the tests are extracted into the cache
# ($XDG_CACHE_HOME/phicc-torture or ~/.cache/phicc-torture). $PHICC and $ORACLE
# name prebuilt binaries (default: a debug build of both).
# Exit status: 0 as expected, 1 a difference (named), 2 tool error.
set -euo pipefail
cd "$(dirname "$0")/.."
[ $# -ge 2 ] || { echo "usage: scripts/torture.sh TARGET CONFIG [options]" >&2; exit 2; }
target=$1 config=$2
shift 2
scripts/setup.sh --torture
if [ -z "${ORACLE:-}" ]; then
    cargo build -q --locked -p phicc -p oracle --bins
    ORACLE=target/debug/oracle
    PHICC=${PHICC:-$PWD/target/debug/phicc}
fi
exec "$ORACLE" torture --target "$target" --config "$config" \
    ${PHICC:+--compiler "$PHICC"} --out "torture-out/$target-$config" "$@"
