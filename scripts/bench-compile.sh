#!/usr/bin/env bash
# Compile speed: `oracle bench-compile` through scripts/oracle.sh (release
# build, set-up included). phicc -c next to gcc -O0 -c on Csmith programs,
# CPU seconds and the ratio; see docs/results.md#compile-speed.
#   scripts/bench-compile.sh 300                      # seeds 1..300, x86-64
#   scripts/bench-compile.sh 300 --targets x86_64,aarch64,riscv64
# Each target is timed in three configurations: mem2reg, -fno-mem2reg, -O1.
set -euo pipefail
exec "$(dirname "$0")/oracle.sh" bench-compile "$@"
