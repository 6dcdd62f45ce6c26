#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The units under a real systemd (issue 23): a clean Debian 12 root (or PPSBENCH_RELEASE's,
# release.sh) made by mmdebstrap, as in install-test.sh, with systemd and the .deb installed, booted with systemd-nspawn --boot. A
# check unit in the root (systemd-checks-in-root.sh) then starts ppsbench-monitor.service on a
# simulated source (set in /etc/default/ppsbench, the unit's EnvironmentFile, since there is no
# /dev/pps0), waits for it to write and rotate its captures and its .prom file, lists the
# nightly timer, runs ppsbench-nightly.service on two nights that pass and one that regresses,
# and checks that every night published its figures. Its exit status is the container's.
# Needs root. Where systemd-nspawn is missing or the container cannot boot on this machine (no
# privileges, no usable cgroups), it prints "SKIPPED: <why>" and exits 0, as the lab does.
# Usage: tests/package/systemd-test.sh DEB [CACHE]
#   CACHE keeps the downloaded .debs between runs (default tests/package/.cache, install-test.sh's).
set -euo pipefail
deb=$(realpath "$1")
here=$(dirname "$(realpath "$0")")
cache=$(realpath -m "${2:-$(dirname "$0")/.cache}")
# shellcheck source=release.sh
. "$here/release.sh"
skip() {
    echo "systemd-test.sh: SKIPPED: $*"
    exit 0
}
[ "$(id -u)" -eq 0 ] || skip "needs root (mmdebstrap builds a root, systemd-nspawn boots it)"
command -v systemd-nspawn >/dev/null || skip "systemd-nspawn is missing (apt-get install systemd-container)"
if ! command -v mmdebstrap >/dev/null; then
    echo "systemd-test.sh: mmdebstrap is missing (apt-get install mmdebstrap)" >&2
    exit 2
fi
mkdir -p "$cache"
root=$(mktemp -d /tmp/ppsbench-systemd-test.XXXXXX)
log=$(mktemp /tmp/ppsbench-systemd-test.XXXXXX.log)
trap 'rm -rf "$root" "$log"' EXIT

echo "systemd-test.sh: building a $release_name root with systemd from $sources (cache $cache)"
# shellcheck source=../support/mmdebstrap-retry.sh
. "$here/../support/mmdebstrap-retry.sh"
mmdebstrap_retry "$root" --variant=minbase --include=systemd,systemd-sysv,dbus --skip=essential/unlink \
    --setup-hook='mkdir -p "$1"/var/cache/apt/archives/' \
    --setup-hook="sync-in '$cache' /var/cache/apt/archives/" \
    --customize-hook="copy-in '$deb' /tmp" \
    --customize-hook='chroot "$1" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q /tmp/'"$(basename "$deb")" \
    --customize-hook="sync-out /var/cache/apt/archives '$cache'" \
    "$release" "$root" "$sources"

# The check unit: runs once the system is up, then ends the container with the checks' status.
install -D -m 0755 "$here/systemd-checks-in-root.sh" "$root/usr/local/lib/ppsbench-check/checks.sh"
cat >"$root/etc/systemd/system/ppsbench-check.service" <<'EOF'
[Unit]
Description=ppsbench: the units under a real systemd (tests/package/systemd-test.sh)
After=multi-user.target
[Service]
Type=oneshot
ExecStart=/usr/local/lib/ppsbench-check/checks.sh /var/log/ppsbench-check
[Install]
WantedBy=multi-user.target
EOF
mkdir -p "$root/etc/systemd/system/multi-user.target.wants"
ln -s /etc/systemd/system/ppsbench-check.service \
    "$root/etc/systemd/system/multi-user.target.wants/ppsbench-check.service"
# A container has no console to log in on.
ln -sf /dev/null "$root/etc/systemd/system/console-getty.service"

# Under a systemd host nspawn puts the container in a scope of its own over the system bus;
# elsewhere (a plain VM, a CI container) it stays in the cgroup it was started in.
nspawn=(systemd-nspawn --quiet --register=no --boot --directory="$root" --console=pipe)
if [ ! -S /run/dbus/system_bus_socket ] || [ "$(cat /proc/1/comm 2>/dev/null)" != systemd ]; then
    nspawn+=(--keep-unit)
fi
echo "systemd-test.sh: booting it: ${nspawn[*]}"
status=0
timeout --kill-after=10s 240s "${nspawn[@]}" </dev/null >"$log" 2>&1 || status=$?
if [ ! -e "$root/var/log/ppsbench-check/booted" ]; then
    tail -n 20 "$log"
    skip "systemd-nspawn --boot did not reach multi-user.target here (exit $status; its output is above)"
fi
cat "$root/var/log/ppsbench-check/log"
if [ "$status" -ne 0 ] || [ "$(cat "$root/var/log/ppsbench-check/status" 2>/dev/null)" != 0 ]; then
    [ "$status" -eq 124 ] && echo "systemd-test.sh: the container did not end within 240 s"
    echo "systemd-test.sh: FAILED (container exit $status); the container's own output:" >&2
    tail -n 40 "$log" >&2
    exit 1
fi
echo "systemd-test.sh: the monitor and nightly units work under a real systemd"
