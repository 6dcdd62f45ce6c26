#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Installs the .deb into a clean Debian 12 root (13 with PPSBENCH_RELEASE=trixie, release.sh)
# made by mmdebstrap from the apt sources this machine uses, the way a user would (apt-get install ./ppsbench_*.deb resolves the
# dependencies), and runs it there: ppsbench demo, man ppsbench, ppsbench doctor, the system
# group from sysusers.d, the udev rule, bash completion, and systemd-analyze verify of the units.
# Needs root (mmdebstrap's root mode: real chroot with /proc and /sys mounted for the hooks).
# Usage: tests/package/install-test.sh DEB [CACHE]
#   CACHE keeps the downloaded .debs between runs (default tests/package/.cache).
set -euo pipefail
deb=$(realpath "$1")
here=$(dirname "$(realpath "$0")")
cache=$(realpath -m "${2:-$(dirname "$0")/.cache}")
# shellcheck source=release.sh
. "$here/release.sh"
if [ "$(id -u)" -ne 0 ]; then
    echo "install-test.sh: needs root (mmdebstrap builds a chroot)" >&2
    exit 2
fi
mkdir -p "$cache"
root=$(mktemp -d /tmp/ppsbench-install-test.XXXXXX)
trap 'rm -rf --one-file-system "$root"' EXIT

echo "install-test.sh: building a $release_name root from $sources (cache $cache)"
# shellcheck source=../support/mmdebstrap-retry.sh
. "$here/../support/mmdebstrap-retry.sh"
mmdebstrap_retry "$root" --variant=minbase --include=man-db,bash-completion --skip=essential/unlink \
    --setup-hook='mkdir -p "$1"/var/cache/apt/archives/' \
    --setup-hook="sync-in '$cache' /var/cache/apt/archives/" \
    --customize-hook="copy-in '$deb' /tmp" \
    --customize-hook='chroot "$1" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q /tmp/'"$(basename "$deb")" \
    --customize-hook="sync-out /var/cache/apt/archives '$cache'" \
    "$release" "$root" "$sources"
# The checks run after the root is made, not in a hook: a download that fails is tried again
# (mmdebstrap_retry), a check that fails is not. They need /proc, /sys and /dev as the hooks had,
# mounted in a private mount namespace (as run-in-root.sh does): on a host whose / is shared,
# unmounting a recursive bind of /dev or /sys would take the host's /dev/pts or cgroups too.
install -m 0644 "$here/checks-in-root.sh" "$root/tmp/checks-in-root.sh"
unshare --mount --propagation private -- /bin/sh -euc '
    mount -t proc proc "$1/proc"
    mount --rbind /sys "$1/sys"
    mount --rbind /dev "$1/dev"
    exec chroot "$1" sh /tmp/checks-in-root.sh' sh "$root"
echo "install-test.sh: the package installs and works in a clean $release_name"
