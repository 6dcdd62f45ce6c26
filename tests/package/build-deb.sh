#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Builds the Debian package from the working tree with dpkg-buildpackage, in a copy of the tree
# under OUT (the build writes next to the source, so the tree and its parent stay clean), then
# runs lintian on the result.
# Usage: tests/package/build-deb.sh [OUT]     (default build-deb; the .deb lands in OUT)
# DEB_BUILD_OPTIONS may add nocheck: dev.sh does, its earlier steps ran every test already.
set -euo pipefail
cd "$(dirname "$0")/../.."
out=$(realpath -m "${1:-build-deb}")
version=$(dpkg-parsechangelog -S Version)
# dpkg-buildpackage writes the packages next to the source directory (OUT/src), then they move
# to OUT. The copy's path never changes, so ccache finds a rebuild's objects.
src=$out/src/ppsbench-$version

mkdir -p "$out"
rm -rf "$out/src" "$out"/ppsbench_* "$out"/ppsbench-dbgsym_*
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
(cd "$src" && dpkg-buildpackage --build=binary --no-sign) >"$out/build.log" 2>&1 || {
    tail -n 40 "$out/build.log" >&2
    echo "build-deb.sh: dpkg-buildpackage failed; the log is $out/build.log" >&2
    exit 1
}
mv "$out"/src/ppsbench_"$version"_* "$out"/src/ppsbench-dbgsym_"$version"_* "$out"/
deb=$(ls "$out"/ppsbench_"$version"_*.deb)
echo "build-deb.sh: built $deb"
dpkg-deb --field "$deb" Depends
# Lintian on the binary package and the .changes: any error or warning fails the build.
lintian --fail-on error,warning --info --display-info "$out"/ppsbench_"$version"_*.changes
echo "build-deb.sh: lintian clean"
