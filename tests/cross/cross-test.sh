#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Cross-builds ppsbench for ARM (the architecture of most PPS time servers) in a clean Debian
# root and tests it under qemu-user (docs/install.md, "ARM: cross-built and tested under
# qemu-user"). The ARM legs of ./dev.sh package (Debian 13, both architectures) and of
# ./dev.sh cross. For each ARCH:
#   deb      the Debian package, cross-built (dpkg-buildpackage -a ARCH -Pcross) with warnings as
#            errors, its man pages made by help2man through the emulator; its build also
#            compiles the unit tests of core, store, stats, import and analysis and runs them
#            under qemu-user (debian/rules), so one compile serves the package and the tests;
#            then lintian --fail-on error,warning. The .debs land in OUT
#   figures  ppsbench demo, report --format json of every capture in examples/ and doctor
#            --sysroot of every fixture in tests/sysinfo/fixtures: the same figures as the amd64
#            build (REFERENCE) within 1e-12 relative (tests/cross/same_figures.py)
#   build    (by hand, to iterate) cmake with cmake/toolchains/TRIPLET.cmake into
#            build-cross-RELEASE-ARCH: the program, its man pages and the same test programs
#   test     (by hand) ctest of that build under qemu-user
# The root: amd64 with arm64 and armhf as foreign architectures (multiarch), so the build tools
# run natively and only the built programs need the emulator; one root serves both
# architectures, made once by mmdebstrap and kept in CACHE (~2.5 GB; its ~600 MB of .debs are
# downloaded once).
# Usage: tests/cross/cross-test.sh [RELEASE] ARCH...   RELEASE bookworm|trixie (default trixie),
#                                                      ARCH arm64|armhf
# Needs root (mmdebstrap, chroot, bind mounts). Environment:
#   PPSBENCH_CROSS_STEPS      the steps to run for each ARCH, default "deb figures"
#   PPSBENCH_JOBS             parallel jobs (default nproc)
#   PPSBENCH_CROSS_CACHE      the roots and ccache (default tests/cross/.cache)
#   PPSBENCH_CROSS_OUT        where the .debs go (default build-deb)
#   PPSBENCH_REFERENCE        the amd64 ppsbench to compare figures with (default build/ppsbench;
#                             ./dev.sh test builds it)
# The other test programs (capture, chrony, cli, latency, report, session, sysinfo, the shell
# tests) are not built here: they start chronyd, need real-time scheduling, signals and process
# groups, setpriv, a browser or the host kernel's PPS and GPIO interfaces, which qemu-user does
# not emulate or emulates differently; they run natively on amd64 (./dev.sh test), and on real
# kernels in the lab (docs/lab.md). The code they test is in the program, which is built here
# with warnings as errors.
set -euo pipefail
cd "$(dirname "$0")/../.."
checkout=$PWD

release=trixie
arches=()
for word in "$@"; do
    case "$word" in
        bookworm | trixie) release=$word ;;
        arm64 | armhf) arches+=("$word") ;;
        *) echo "usage: tests/cross/cross-test.sh [bookworm|trixie] arm64|armhf...; '$word' is neither" >&2; exit 2 ;;
    esac
done
if [ ${#arches[@]} -eq 0 ]; then
    echo "usage: tests/cross/cross-test.sh [bookworm|trixie] arm64|armhf..." >&2
    exit 2
fi
if [ "$(id -u)" -ne 0 ]; then
    echo "cross-test.sh: needs root (mmdebstrap, chroot and bind mounts)" >&2
    exit 2
fi
steps=${PPSBENCH_CROSS_STEPS:-deb figures}
jobs=${PPSBENCH_JOBS:-$(nproc)}
cache=$(realpath -m "${PPSBENCH_CROSS_CACHE:-tests/cross/.cache}")
out=$(realpath -m "${PPSBENCH_CROSS_OUT:-build-deb}")
reference=$(realpath -m "${PPSBENCH_REFERENCE:-build/ppsbench}")
mkdir -p "$cache/ccache" "$out"

step_started=$SECONDS
took() {  # STEP: one line a step, so a CI log shows where the time went
    echo "cross-test.sh: $1 ($release) $((SECONDS - step_started)) s"
    step_started=$SECONDS
}

# What the root holds. Arch-all packages take no suffix. pkgconf:ARCH brings ARCH's
# TRIPLET-pkg-config (debhelper's cross builds call it); python3-numpy is the stats tests'
# oracle (tests/stats/numpy_oracle.hpp); git tells build-deb.sh the tree. pps-tools (the
# <sys/timepps.h> header) is not Multi-Arch: one architecture's is installed at a time, and the
# other's .deb waits in /var/cache/ppsbench (use_pps_tools, below).
packages=(crossbuild-essential-arm64 crossbuild-essential-armhf cmake ninja-build pkgconf
    help2man qemu-user ccache python3 python3-numpy git debhelper dpkg-dev lintian
    libeigen3-dev nlohmann-json3-dev pps-tools:arm64)
for foreign in arm64 armhf; do
    packages+=(pkgconf:"$foreign" libgpiod-dev:"$foreign" libboost-program-options-dev:"$foreign"
        libfmt-dev:"$foreign" zlib1g-dev:"$foreign" libgtest-dev:"$foreign"
        libgmock-dev:"$foreign")
done
hash=$(printf '%s\n' "$release" "${packages[@]}" | sha256sum | cut -c1-12)
root=$cache/root-$release-arm-$hash
if [ ! -f "$root/.ppsbench-root-complete" ]; then
    echo "cross-test.sh: making the $release root for arm64 and armhf in $root (once)"
    rm -rf --one-file-system "$root" "$root.partial"
    include=$(IFS=,; echo "${packages[*]}")
    # shellcheck source=../support/mmdebstrap-retry.sh
    . "$checkout/tests/support/mmdebstrap-retry.sh"
    mmdebstrap_retry "$root.partial" --variant=buildd --architectures=amd64,arm64,armhf --include="$include" \
        --components=main \
        --customize-hook='mkdir -p "$1/var/cache/ppsbench" && chroot "$1" sh -c "cd /var/cache/ppsbench && apt-get download -q pps-tools:arm64 pps-tools:armhf"' \
        "$release" "$root.partial" http://deb.debian.org/debian
    mv "$root.partial" "$root"
    touch "$root/.ppsbench-root-complete"
    took root
fi
[ "$steps" = root ] && exit 0

mounts=()
cleanup() {
    local i
    for ((i = ${#mounts[@]} - 1; i >= 0; i--)); do
        umount -l "${mounts[i]}" 2>/dev/null || true
    done
    return 0
}
trap cleanup EXIT
mount_bind() {  # FROM TO
    mkdir -p "$root$2"
    mount --bind "$1" "$root$2"
    mounts+=("$root$2")
}
mkdir -p "$root/proc"
mount -t proc proc "$root/proc"
mounts+=("$root/proc")
mount_bind /dev /dev
mount_bind "$checkout" /src
mount_bind "$cache/ccache" /ccache
mount_bind "$out" /out
mkdir -p "$root/tmp"
mount -t tmpfs tmpfs "$root/tmp"
mounts+=("$root/tmp")
# A git worktree's repository lies outside it: build-deb.sh asks git what the tree holds.
git_dir=$(git rev-parse --path-format=absolute --git-common-dir)
case "$git_dir" in
    "$checkout"/*) ;;
    *) mount_bind "$git_dir" "$git_dir" && mount -o remount,bind,ro "$root$git_dir" ;;
esac
# The stats tests' shared reference data (Stable32's PHASE.DAT, tests/stats/reference_data.hpp)
# lives beside the checkout, when it is there at all; the package builds from a copy of the
# tree, so the tests are told where (PPSBENCH_REFERENCE_DATA).
reference_data=
if [ -d "$checkout/../shared/data" ]; then
    mount_bind "$checkout/../shared/data" /shared/data
    mount -o remount,bind,ro "$root/shared/data"
    reference_data=/shared/data
fi
in_root() {  # COMMAND...: in the root, in the checkout, with ccache
    chroot "$root" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 \
        CCACHE_DIR=/ccache CCACHE_BASEDIR=/src CCACHE_NOHASHDIR=1 \
        PPSBENCH_REFERENCE_DATA="$reference_data" sh -c 'cd /src && exec "$@"' sh "$@"
}
use_pps_tools() {  # ARCH: that architecture's pps-tools, the other's removed
    if ! in_root dpkg-query -W -f='${Status}' "pps-tools:$1" 2>/dev/null | grep -q ' installed$'; then
        in_root dpkg --purge --force-depends pps-tools:arm64 pps-tools:armhf >/dev/null 2>&1 || true
        in_root sh -c "dpkg -i /var/cache/ppsbench/pps-tools_*_$1.deb" >/dev/null
    fi
}

version=$(dpkg-parsechangelog -S Version)
for arch in "${arches[@]}"; do
    case "$arch" in
        arm64) triplet=aarch64-linux-gnu ;;
        armhf) triplet=arm-linux-gnueabihf ;;
    esac
    build=build-cross-$release-$arch
    # The program the figures step runs: the package build's, or the build step's if it ran.
    program=/out/src-$arch/ppsbench-$version/obj-$triplet/emulated/ppsbench
    use_pps_tools "$arch"
    for step in $steps; do
        case "$step" in
            deb)
                in_root env DEB_BUILD_OPTIONS="parallel=$jobs" PPSBENCH_WERROR=ON \
                    PPSBENCH_JOBS="$jobs" tests/package/build-deb.sh --host-arch "$arch" /out
                took "deb with the unit tests under qemu-user ($arch)"
                ;;
            build)
                in_root cmake -S . -B "$build" -G Ninja \
                    -DCMAKE_TOOLCHAIN_FILE=cmake/toolchains/$triplet.cmake \
                    -DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_BUILD_TYPE=RelWithDebInfo \
                    -DPPSBENCH_WERROR=ON -DPPSBENCH_UNITY_BUILD=ON -DPPSBENCH_BUILD_BENCH=OFF \
                    "-DPPSBENCH_TEST_MODULES=core;store;stats;import;analysis"
                in_root cmake --build "$build" -j "$jobs"
                program=/src/$build/emulated/ppsbench
                took "build ($arch)"
                ;;
            test)
                in_root ctest --test-dir "$build" --output-on-failure -j "$jobs"
                took "test ($arch)"
                ;;
            figures)
                if [ ! -x "$reference" ]; then
                    echo "cross-test.sh: no amd64 reference at $reference (./dev.sh build, or PPSBENCH_REFERENCE)" >&2
                    exit 1
                fi
                if ! in_root test -x "$program"; then
                    echo "cross-test.sh: no $arch build to take figures from ($program): run the deb or build step first" >&2
                    exit 1
                fi
                # In the root's /tmp, where both sides can write.
                figures=/tmp/ppsbench-figures
                rm -rf "${root:?}$figures"
                PPSBENCH=$reference tests/cross/figures.sh "$root$figures/amd64"
                in_root env PPSBENCH="$program" tests/cross/figures.sh "$figures/$arch"
                python3 tests/cross/same_figures.py "$root$figures/amd64" "$root$figures/$arch"
                took "figures ($arch)"
                ;;
            *) echo "cross-test.sh: unknown step '$step'" >&2; exit 2 ;;
        esac
    done
    echo "cross-test.sh: $arch on $release: $steps passed"
done
