# SPDX-License-Identifier: GPL-2.0-or-later
# Sourced by install-test.sh and systemd-test.sh: which Debian release their clean root is
# (PPSBENCH_RELEASE: bookworm, the default, or trixie), from which apt sources, and what to call
# it in messages. bookworm's root is made from this machine's own sources (its snapshot, its
# security suite); another release from the same mirror.
release=${PPSBENCH_RELEASE:-bookworm}
case "$release" in
    bookworm) release_name="Debian 12" ;;
    trixie) release_name="Debian 13" ;;
    *)
        echo "$(basename "$0"): PPSBENCH_RELEASE=$release: use bookworm or trixie" >&2
        exit 2
        ;;
esac
sources=/etc/apt/sources.list.d/debian.sources
[ -r "$sources" ] || sources=/etc/apt/sources.list
if [ "$release" != bookworm ]; then
    mirror=$(sed -n 's|^URIs: *\(http[^ ]*/debian\)/*$|\1|p' "$sources" 2>/dev/null | head -1)
    sources="deb ${mirror:-http://deb.debian.org/debian} $release main"
fi
