#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Cross-builds ppsbench for ARM (the architecture of most PPS time servers) in a clean Debian
# root and tests it under qemu-user (docs/install.md, "ARM: cross-built and tested under
# qemu-user"):
#   root     an amd64 root of RELEASE made by mmdebstrap with ARCH as a foreign architecture:
#            the cross compiler, qemu-user and the :ARCH -dev packages; kept as a tarball in
#            CACHE, so only the first run downloads (~300 MB)
#   build    cmake with cmake/toolchains/TRIPLET.cmake: warnings as errors, a unity build, the
#            man pages made by help2man through the emulator
#   test     ctest -L 'core|store|stats|import|analysis' under qemu-user (why only these: below)
#   figures  ppsbench demo, report --format json of every capture in examples/ and doctor
#            --sysroot of every fixture in tests/sysinfo/fixtures: the same figures as the amd64
#            build (REFERENCE) within 1e-12 relative (tests/cross/same_figures.py)
#   deb      dpkg-buildpackage -a ARCH (nocheck) into OUT, lintian --fail-on error,warning
# Usage: tests/cross/cross-test.sh ARCH [RELEASE]      ARCH arm64|armhf, RELEASE bookworm|trixie
# Needs root (chroot, bind mounts). Environment:
#   PPSBENCH_CROSS_STEPS      the steps to run, default "build test figures deb"
#   PPSBENCH_JOBS             parallel jobs (default nproc)
#   PPSBENCH_CROSS_CACHE      root tarballs and ccache (default tests/cross/.cache)
#   PPSBENCH_CROSS_ROOT       where the root is unpacked (default a temporary directory,
#                             removed at the end; a given one is kept and reused)
#   PPSBENCH_CROSS_OUT        where the .debs go (default build-deb)
#   PPSBENCH_REFERENCE        the amd64 ppsbench to compare figures with (default build/ppsbench;
#                             ./dev.sh test builds it)
# The other test programs (capture, chrony, cli, latency, report, session, sysinfo, the shell
# tests) are not run here: they start chronyd, need real-time scheduling, signals and process
# groups, setpriv, a browser or the host kernel's PPS and GPIO interfaces, which qemu-user does
# not emulate or emulates differently; they run natively on amd64 (./dev.sh test), and on real
# kernels in the lab (docs/lab.md). One build of them is still compiled here (warnings as errors).
set -euo pipefail
cd "$(dirname "$0")/../.."
checkout=$PWD

arch=${1:-}
release=${2:-bookworm}
case "$arch" in
    arm64) triplet=aarch64-linux-gnu ;;
    armhf) triplet=arm-linux-gnueabihf ;;
    *) echo "usage: tests/cross/cross-test.sh arm64|armhf [bookworm|trixie]" >&2; exit 2 ;;
esac
case "$release" in
    bookworm | trixie) ;;
    *) echo "cross-test.sh: RELEASE is bookworm or trixie, not '$release'" >&2; exit 2 ;;
esac
if [ "$(id -u)" -ne 0 ]; then
    echo "cross-test.sh: needs root (mmdebstrap, chroot and bind mounts)" >&2
    exit 2
fi
steps=${PPSBENCH_CROSS_STEPS:-build test figures deb}
jobs=${PPSBENCH_JOBS:-$(nproc)}
cache=$(realpath -m "${PPSBENCH_CROSS_CACHE:-tests/cross/.cache}")
out=$(realpath -m "${PPSBENCH_CROSS_OUT:-build-deb}")
reference=$(realpath -m "${PPSBENCH_REFERENCE:-build/ppsbench}")
build=build-cross-$release-$arch
mkdir -p "$cache/ccache" "$out"

step_started=$SECONDS
took() {  # STEP: one line a step, so a CI log shows where the time went
    echo "cross-test.sh: $1 ($arch, $release) $((SECONDS - step_started)) s"
    step_started=$SECONDS
}

# The root: amd64 with ARCH as a foreign architecture (multiarch), so the build tools run
# natively and only the built program needs the emulator. Arch-all packages take no suffix.
# pkgconf:ARCH brings ARCH's TRIPLET-pkg-config (debhelper's cross builds call it); python3-numpy
# is the stats tests' oracle (tests/stats/numpy_oracle.hpp); git tells build-deb.sh the tree.
packages=(crossbuild-essential-"$arch" cmake ninja-build pkgconf pkgconf:"$arch" help2man qemu-user
    ccache python3 python3-numpy git debhelper dpkg-dev lintian
    libgpiod-dev:"$arch" libboost-program-options-dev:"$arch" libfmt-dev:"$arch"
    zlib1g-dev:"$arch" pps-tools:"$arch" libgtest-dev:"$arch" libgmock-dev:"$arch"
    libeigen3-dev nlohmann-json3-dev)
tarball=$cache/root-$release-$arch.tar
if [ ! -s "$tarball" ]; then
    echo "cross-test.sh: making the $release root for $arch (once; cached as $tarball)"
    include=$(IFS=,; echo "${packages[*]}")
    mmdebstrap --variant=buildd --format=tar --architectures=amd64,"$arch" --include="$include" \
        --components=main "$release" "$tarball.tmp" http://deb.debian.org/debian
    mv "$tarball.tmp" "$tarball"
    took root
fi
[ "$steps" = root ] && exit 0

if [ -n "${PPSBENCH_CROSS_ROOT:-}" ]; then
    root=$(realpath -m "$PPSBENCH_CROSS_ROOT")
    keep_root=1
else
    root=$(mktemp -d /var/tmp/ppsbench-cross.XXXXXX)
    keep_root=0
fi
mounts=()
cleanup() {
    local i
    for ((i = ${#mounts[@]} - 1; i >= 0; i--)); do
        umount -l "${mounts[i]}" 2>/dev/null || true
    done
    [ "$keep_root" -eq 0 ] && rm -rf --one-file-system "$root"
    return 0
}
trap cleanup EXIT
if [ ! -x "$root/usr/bin/$triplet-g++" ] || [ "$tarball" -nt "$root/.ppsbench-root" ]; then
    rm -rf --one-file-system "$root"
    mkdir -p "$root"
    tar -C "$root" -xf "$tarball"
    touch "$root/.ppsbench-root"
    took unpack
fi
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
# A git worktree's repository lies outside it: build-deb.sh asks git what the tree holds.
git_dir=$(git rev-parse --path-format=absolute --git-common-dir)
case "$git_dir" in
    "$checkout"/*) ;;
    *) mount_bind "$git_dir" "$git_dir" && mount -o remount,bind,ro "$root$git_dir" ;;
esac
# The stats tests' shared reference data (Stable32's PHASE.DAT, tests/stats/reference_data.hpp)
# lives beside the checkout, when it is there at all.
if [ -d "$checkout/../shared/data" ]; then
    mount_bind "$checkout/../shared/data" /shared/data
fi
in_root() {  # COMMAND...: in the root, in the checkout, with ccache
    chroot "$root" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 \
        CCACHE_DIR=/ccache CCACHE_BASEDIR=/src CCACHE_NOHASHDIR=1 \
        sh -c 'cd /src && exec "$@"' sh "$@"
}

for step in $steps; do
    case "$step" in
        build)
            in_root cmake -S . -B "$build" -G Ninja \
                -DCMAKE_TOOLCHAIN_FILE=cmake/toolchains/$triplet.cmake \
                -DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_BUILD_TYPE=RelWithDebInfo \
                -DPPSBENCH_WERROR=ON -DPPSBENCH_UNITY_BUILD=ON -DPPSBENCH_BUILD_BENCH=OFF
            # The program, its man pages and the test programs run here, no more (CI's time).
            in_root cmake --build "$build" -j "$jobs" --target ppsbench man_pages \
                core_tests store_tests stats_tests import_tests analysis_tests
            took build
            ;;
        test)
            in_root ctest --test-dir "$build" -L '^(core|store|stats|import|analysis)$' \
                --output-on-failure -j "$jobs"
            took test
            ;;
        figures)
            if [ ! -x "$reference" ]; then
                echo "cross-test.sh: no amd64 reference at $reference (./dev.sh build, or PPSBENCH_REFERENCE)" >&2
                exit 1
            fi
            # In the root's /tmp, where both sides can write (kept there for a look).
            figures=/tmp/ppsbench-figures
            rm -rf "${root:?}$figures"
            PPSBENCH=$reference tests/cross/figures.sh "$root$figures/amd64"
            # The build's wrapper that starts ppsbench under qemu-user (CMakeLists.txt).
            in_root env PPSBENCH="$build/emulated/ppsbench" tests/cross/figures.sh "$figures/$arch"
            python3 tests/cross/same_figures.py "$root$figures/amd64" "$root$figures/$arch"
            took figures
            ;;
        deb)
            in_root env DEB_BUILD_OPTIONS="nocheck parallel=$jobs" \
                tests/package/build-deb.sh --host-arch "$arch" /out
            took deb
            ;;
        *) echo "cross-test.sh: unknown step '$step'" >&2; exit 2 ;;
    esac
done
echo "cross-test.sh: $arch on $release: $steps passed"
