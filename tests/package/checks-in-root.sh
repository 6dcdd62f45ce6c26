#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Runs inside the fresh Debian 12 root of install-test.sh, after apt-get installed the package.
# Each check prints what it saw; any failure stops the test.
set -eu
echo "--- installed: $(dpkg-query -W -f='${Package} ${Version} ${Status}' ppsbench)"
echo "--- ppsbench demo"
ppsbench demo
echo "--- man ppsbench"
MANPAGER=cat MANWIDTH=80 man ppsbench | head -n 12
for page in run report compare gate latency demo doctor import; do
    man -w "ppsbench-$page" >/dev/null
done
echo "man -w: every ppsbench-COMMAND(1) page is installed"
echo "--- ppsbench doctor (in a chroot: no PPS device, so findings are expected; exit 0 or 1)"
status=0
ppsbench doctor || status=$?
[ "$status" -le 1 ] || { echo "doctor exited $status"; exit 1; }
echo "--- system group and user from sysusers.d"
getent group ppsbench
getent passwd ppsbench
echo "--- udev rule"
cat /lib/udev/rules.d/60-ppsbench.rules | grep -v '^#'
echo "--- bash completion (bash-completion's on-demand loader)"
bash -c 'source /usr/share/bash-completion/bash_completion
    __load_completion ppsbench && complete -p ppsbench'
echo "--- systemd-analyze verify"
systemd-analyze verify /lib/systemd/system/ppsbench-monitor.service \
    /lib/systemd/system/ppsbench-nightly.service /lib/systemd/system/ppsbench-nightly.timer
echo "verify: no findings"
systemd-analyze security --offline=true /lib/systemd/system/ppsbench-monitor.service | tail -n 1
