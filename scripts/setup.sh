#!/usr/bin/env bash
# Installs what phicc's tests and campaigns need when it is missing.
#   scripts/setup.sh            the test suite's needs (Rust tools, gcc)
#   scripts/setup.sh --campaign also the cross toolchains, QEMU (qemu-user, and the faster-starting
#                               qemu-user-static), Csmith (and mimalloc for it) and cvise
#   scripts/setup.sh --csmith   the test suite's needs and Csmith (its native sample)
#   scripts/setup.sh --llvm     the test suite's needs and LLVM 15 (opt-15, for bench-mem2reg)
#   scripts/setup.sh --torture  also gcc-12-source (gcc's torture tests, for oracle torture)
# Options combine (scripts/setup.sh --campaign --torture).
# Debian packages come from apt-get (you are root on the project machines);
# Rust tools from crates.io. Safe to run repeatedly: it only installs what is absent.
set -euo pipefail

want_campaign=0
want_csmith=0
want_llvm=0
want_torture=0
for arg in "$@"; do
    case $arg in
        --campaign) want_campaign=1 ;;
        --csmith) want_csmith=1 ;;
        --llvm) want_llvm=1 ;;
        --torture) want_torture=1 ;;
        *) echo "setup: unknown option $arg" >&2; exit 2 ;;
    esac
done

apt_updated=0
apt_install() {
    local missing=()
    for pkg in "$@"; do
        dpkg -s "$pkg" >/dev/null 2>&1 || missing+=("$pkg")
    done
    [ ${#missing[@]} -eq 0 ] && return 0
    if [ "$(id -u)" != 0 ]; then
        echo "setup: missing Debian packages: ${missing[*]} (run as root to install them)" >&2
        return 1
    fi
    if [ $apt_updated = 0 ]; then
        apt-get update -qq
        apt_updated=1
    fi
    echo "setup: installing ${missing[*]}"
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
}

command -v cargo >/dev/null || { echo "setup: cargo is required (rustup)" >&2; exit 1; }
command -v gcc >/dev/null || apt_install gcc libc6-dev

if ! cargo nextest --version >/dev/null 2>&1; then
    echo "setup: installing cargo-nextest"
    cargo install --locked cargo-nextest >/dev/null 2>&1 || echo "setup: cargo-nextest unavailable; tests fall back to cargo test" >&2
fi

if [ $want_campaign = 1 ]; then
    apt_install qemu-user qemu-user-static gcc-aarch64-linux-gnu gcc-riscv64-linux-gnu \
        libc6-dev-arm64-cross libc6-dev-riscv64-cross csmith libcsmith-dev libmimalloc2.0 cvise
fi

if [ $want_csmith = 1 ]; then
    apt_install csmith libcsmith-dev libmimalloc2.0
fi

if [ $want_llvm = 1 ]; then
    apt_install llvm-15
fi

if [ $want_torture = 1 ]; then
    # /usr/src/gcc-12/gcc-12.2.0-dfsg.tar.xz, read by `oracle torture`.
    apt_install gcc-12-source
fi
