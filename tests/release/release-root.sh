#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# A Debian root of another release (Debian 13 "trixie": g++ 14, libgpiod 2, fmt 10, Boost 1.83,
# chrony 4.6) with the packages a build and its tests need, made once by mmdebstrap and kept in
# CACHE: the folder is named after the release and a hash of the package list, so a new list
# makes a new root and an unchanged one is reused as it is (the tests run in it never write
# there: the checkout and /tmp are mounted over, run-in-root.sh). Prints the root's path.
# Needs root (mmdebstrap's root mode).
# Usage: tests/release/release-root.sh RELEASE CACHE PACKAGE...
set -euo pipefail
release=$1
cache=$(realpath -m "$2")
shift 2
if [ "$(id -u)" -ne 0 ]; then
    echo "release-root.sh: needs root (mmdebstrap builds a chroot; sudo ./dev.sh test)" >&2
    exit 2
fi
command -v mmdebstrap >/dev/null || {
    echo "release-root.sh: mmdebstrap is missing (apt-get install mmdebstrap)" >&2
    exit 2
}
# The release's keys come with debian-archive-keyring; the mirror is the one this machine uses.
mirror=$(sed -n 's|^URIs: *\(http[^ ]*/debian\)/*$|\1|p' /etc/apt/sources.list.d/debian.sources \
    2>/dev/null | head -1)
mirror=${mirror:-http://deb.debian.org/debian}
list=$(printf '%s\n' "$@" | sort -u)
hash=$(printf '%s\n%s\n' "$release" "$list" | sha256sum | cut -c1-12)
root=$cache/$release-$hash
if [ -f "$root/.ppsbench-root-complete" ]; then
    echo "$root"
    exit 0
fi
mkdir -p "$cache"
rm -rf "$root" "$root.partial"
# No services start on install; apt's caches are emptied so the kept root stays small.
echo "release-root.sh: building a Debian $release root in $root ($(wc -w <<<"$list") packages)" >&2
# shellcheck source=../support/mmdebstrap-retry.sh
. "$(dirname "$(realpath "$0")")/../support/mmdebstrap-retry.sh"
mmdebstrap_retry "$root.partial" --variant=apt --include="$(paste -sd, <<<"$list")" \
    --essential-hook='mkdir -p "$1"/usr/sbin && printf "#!/bin/sh\nexit 101\n" >"$1"/usr/sbin/policy-rc.d && chmod +x "$1"/usr/sbin/policy-rc.d' \
    --customize-hook='rm -f "$1"/usr/sbin/policy-rc.d' \
    "$release" "$root.partial" "deb $mirror $release main"
mv "$root.partial" "$root"
touch "$root/.ppsbench-root-complete"
echo "$root"
