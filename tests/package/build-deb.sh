#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Builds the Debian package from the working tree with dpkg-buildpackage, in a copy of the tree
# under OUT (the build writes next to the source, so the tree and its parent stay clean), then
# runs lintian on the result.
# Usage: tests/package/build-deb.sh [--host-arch ARCH] [OUT]   (default build-deb; the .deb lands in OUT)
#   --host-arch ARCH cross-builds for ARCH (dpkg-buildpackage -a ARCH -Pcross), in a root with the
#   cross toolchain and ARCH's build dependencies (tests/cross/cross-test.sh); its tests are the
#   unit tests, run under qemu-user (debian/rules)
# DEB_BUILD_OPTIONS may add nocheck (then also the nocheck build profile): dev.sh's native
# package builds do, its earlier steps ran every test already.
set -euo pipefail
cd "$(dirname "$0")/../.."
cross=()
arch=$(dpkg --print-architecture)
source_dir=src
if [ "${1:-}" = --host-arch ]; then
    arch=$2
    profiles=cross
    case " ${DEB_BUILD_OPTIONS:-} " in *" nocheck "*) profiles=cross,nocheck ;; esac
    cross=(--host-arch "$arch" "--build-profiles=$profiles")
    source_dir=src-$arch
    shift 2
fi
out=$(realpath -m "${1:-build-deb}")
version=$(dpkg-parsechangelog -S Version)
# dpkg-buildpackage writes the packages next to the source directory (OUT/src), then they move
# to OUT. The copy's path never changes, so ccache finds a rebuild's objects. Only this
# architecture's packages are replaced: OUT may hold the others'.
src=$out/$source_dir/ppsbench-$version

mkdir -p "$out"
rm -rf "${out:?}/$source_dir" "$out"/ppsbench_"$version"_"$arch".* \
    "$out"/ppsbench-dbgsym_"$version"_"$arch".*
mkdir -p "$src"
# What git tracks plus new files not ignored: the tree as it would be committed.
git ls-files -z --cached --others --exclude-standard | while IFS= read -r -d '' f; do
    [ -e "$f" ] && printf '%s\0' "$f"
done | tar -c --null -T - | tar -x -C "$src"

# ccache when available (CMake reads CMAKE_CXX_COMPILER_LAUNCHER from the environment); the
# copy is always at the same path, so a rebuild of an unchanged tree is all cache hits.
if command -v ccache >/dev/null 2>&1; then
    export CMAKE_CXX_COMPILER_LAUNCHER=ccache CCACHE_BASEDIR=$src CCACHE_NOHASHDIR=1
fi
export DEB_BUILD_OPTIONS="${DEB_BUILD_OPTIONS:-} parallel=${PPSBENCH_JOBS:-$(nproc)}"
log=$out/build-$arch.log
(cd "$src" && dpkg-buildpackage --build=binary --no-sign "${cross[@]}") >"$log" 2>&1 || {
    tail -n 40 "$log" >&2
    echo "build-deb.sh: dpkg-buildpackage failed; the log is $log" >&2
    exit 1
}
# The test summary, when the build ran tests (a cross build's unit tests, debian/rules).
grep -E '^[0-9]+% tests passed' "$log" || true
mv "$out/$source_dir/ppsbench_${version}_"* "$out/$source_dir/ppsbench-dbgsym_${version}_"* "$out"/
deb=$(ls "$out"/ppsbench_"$version"_"$arch".deb)
echo "build-deb.sh: built $deb"
dpkg-deb --field "$deb" Depends
# Lintian on the binary package and the .changes: any error or warning fails the build.
lintian --fail-on error,warning --info --display-info "$out"/ppsbench_"$version"_"$arch".changes
echo "build-deb.sh: lintian clean"
