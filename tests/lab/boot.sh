#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Boot one lab configuration under QEMU (TCG: no KVM needed) and save its serial console.
# Guest time is instruction-counted (-icount shift=1,sleep=off, one vCPU): every guest
# instruction takes 2 ns of guest time, so delays are reproducible; docs/lab.md says why.
#
# Usage: boot.sh FLAVOUR LOG [KERNEL_ARG...]
#   FLAVOUR     amd64 or rt-amd64 (fetched by fetch.sh)
#   LOG         file that receives the serial console
#   KERNEL_ARG  appended to the command line, e.g. threadirqs ppsbench.modes=threaded,split
# Environment: PPSBENCH_LAB_INITRD (default $PPSBENCH_LAB_CACHE/initramfs.cpio.gz),
#              PPSBENCH_LAB_BOOT_TIMEOUT seconds (default 900), PPSBENCH_LAB_SMP (default 1),
#              PPSBENCH_LAB_ICOUNT (-icount argument, default shift=1,sleep=off; "off" = plain
#              TCG, whose guest time follows the host's load).
# Exit: 0 when the guest printed "@@LAB DONE", 1 otherwise (timeout, panic, no markers).
set -euo pipefail
source "$(dirname "$0")/lib.sh"

lab_need_pkgs qemu-system-x86_64:qemu-system-x86 timeout:coreutils

(($# >= 2)) || lab_die "usage: boot.sh FLAVOUR LOG [KERNEL_ARG...]"
fl="$1" log="$2"
shift 2
kdir=$(lab_kdir "$fl")
[[ -f "$kdir/vmlinuz" ]] || lab_die "$fl: no $kdir/vmlinuz; run fetch.sh first"
initrd="${PPSBENCH_LAB_INITRD:-${PPSBENCH_LAB_CACHE}/initramfs.cpio.gz}"
[[ -f "$initrd" ]] || lab_die "no initramfs $initrd; run build-initramfs.sh first"
limit="${PPSBENCH_LAB_BOOT_TIMEOUT:-900}"

# quiet + loglevel=3: kernel messages stay out of the result stream (the guest sends dmesg
# as a file at the end); errors and BUG splats still reach the console.
append="console=ttyS0 quiet loglevel=3 panic=-1 tsc=reliable $*"
icount="${PPSBENCH_LAB_ICOUNT:-shift=1,sleep=off}"
clock=()
[[ "$icount" == off ]] || clock=(-icount "$icount")
lab_log "boot $fl (icount ${icount}, smp ${PPSBENCH_LAB_SMP:-1}): $append"
start=$(date +%s)
rc=0
timeout --foreground -k 10 "$limit" \
    qemu-system-x86_64 -accel tcg "${clock[@]}" -m 512 -smp "${PPSBENCH_LAB_SMP:-1}" -nographic -no-reboot \
    -kernel "$kdir/vmlinuz" -initrd "$initrd" -append "$append" \
    </dev/null >"$log" 2>&1 || rc=$?
secs=$(($(date +%s) - start))
if grep -q '^@@LAB DONE' <(tr -d '\r' <"$log"); then
    lab_log "boot $fl finished in ${secs}s"
    exit 0
fi
if ((rc == 124)); then
    lab_log "boot $fl timed out after ${limit}s (PPSBENCH_LAB_BOOT_TIMEOUT); last console lines:"
else
    lab_log "boot $fl ended without results (qemu exit $rc, ${secs}s); last console lines:"
fi
tail -n 25 "$log" >&2
exit 1
