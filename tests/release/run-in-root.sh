#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Runs a command in a root made by release-root.sh, in the checkout: the checkout is mounted at
# the same path inside (so a build folder, its CMake cache and every path a log prints read the
# same inside and out), with the host's /dev, /proc and /sys and a fresh /tmp, in a private mount
# namespace, so nothing stays mounted when the command ends, whatever way it ends; the shared
# reference data beside the checkout, read-only, where it is. Nothing in
# the root is written to but the empty mount points.
# Usage: tests/release/run-in-root.sh ROOT COMMAND [ARG...]    (as root; runs from the checkout)
set -euo pipefail
root=$(realpath "$1")
shift
checkout=$(realpath "$(dirname "$0")/../..")
if [ "$(id -u)" -ne 0 ]; then
    echo "run-in-root.sh: needs root (mount and chroot)" >&2
    exit 2
fi
scratch=$(mktemp -d /tmp/ppsbench-root-tmp.XXXXXX)
trap 'rm -rf "$scratch"' EXIT
chmod 1777 "$scratch"
# The environment inside is the root's, not the host's: only what a build and its tests read.
exec unshare --mount --propagation private -- /bin/bash -euc '
    root=$1 checkout=$2 scratch=$3
    shift 3
    mount --rbind /dev "$root/dev"
    mount -t proc proc "$root/proc"
    mount --rbind /sys "$root/sys"
    mount --bind "$scratch" "$root/tmp"
    mkdir -p "$root$checkout"
    mount --bind "$checkout" "$root$checkout"
    # The shared reference data beside the checkout (Stable32'"'"'s results, tests/stats), read-only.
    if [ -d "$checkout/../shared" ]; then
        shared=$(realpath "$checkout/../shared")
        mkdir -p "$root$shared"
        mount --bind "$shared" "$root$shared"
        mount -o remount,bind,ro "$root$shared"
    fi
    cp -L /etc/resolv.conf "$root/etc/resolv.conf" 2>/dev/null || true
    cd "$checkout"
    exec chroot "$root" /usr/bin/env -i HOME=/root PATH=/usr/sbin:/usr/bin:/sbin:/bin \
        LANG=C.UTF-8 TERM="${TERM:-dumb}" CI="${CI:-}" \
        /bin/sh -c "cd \"$checkout\" && exec \"\$@\"" sh "$@"
' sh "$root" "$checkout" "$scratch" "$@"
