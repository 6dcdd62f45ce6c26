# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=sh
# Polled-reference guest test (issue 24 item 9), every handler mode; added by `run-lab.sh
# --ppsbench` after guest/ptp.sh. Checks are on the host (check-poll.sh): the module's level
# register (/dev/gpiomemN, flipped by the timer just before it raises the edge's IRQ) is read by
# poll:mem:, so the PPS path's bias against it must be the module's raise -> timestamp delay.
#
# One vCPU (docs/lab.md): the poller cannot run beside the interrupt, so it runs at SCHED_FIFO
# 60, above the irq/N thread's 50: after the hard IRQ it runs first, sees the new level, stops
# polling and sleeps; only then does a force-threaded handler take its timestamp. Its bracket
# therefore spans the hard IRQ (the timer's raise and, in hard-IRQ modes, the timestamp).
# Unpinned: on the only CPU a --cpu is refused (the interrupt's CPU), tested below in split.
# Writes to $LAB_OUT:
#   poll-dual-1.csv / -2.csv (+ poll-dual-run.txt)  run --source pps:... --source poll:mem:...
#   poll-dual.prom                                  its live figures (the bias while it ran)
#   split mode only: poll-err-*.txt (errors that can be reached here)
#   poll.txt                                        the spec and exit codes
# shellcheck disable=SC2153 # LAB_*: exported by /init (lab-lib.sh)
set -u
pb=/usr/bin/ppsbench
st="$LAB_OUT/poll.txt"
: >"$st"
[ -x "$pb" ] || exit 1
if [ ! -c "$LAB_GPIOMEM_DEV" ]; then
    echo "no_gpiomem_dev=1" >>"$st"
    exit 1
fi
spec="poll:mem:$LAB_GPIOMEM_DEV,offset=$LAB_LEVEL_OFFSET,bit=$LAB_LEVEL_BIT"
echo "poll_spec=$spec" >>"$st"

# Path A the PPS device (SCHED_FIFO 10, below the irq thread: it only reads what the kernel
# stamped), path B the poller above it.
"$pb" run --source "pps:$LAB_PPS_DEV" --source "$spec" --period "${LAB_PERIOD_MS}ms" \
    --count "$LAB_COUNT" --rt-priority 10 --rt-priority 60 --label "$LAB_CONFIG-$LAB_MODE-poll" \
    -o "$LAB_OUT/poll-dual.csv" --chrony off --prometheus "$LAB_OUT/poll-dual.prom" \
    --prometheus-interval 1s --progress-interval 1s >"$LAB_OUT/poll-dual-run.txt" 2>&1
echo "poll_dual_rc=$?" >>"$st"

[ "$LAB_MODE" = split ] || exit 0
one() { # one NAME SPEC [ARGS...]: a short two-path run that must be refused
    name=$1 src=$2
    shift 2
    "$pb" run --source "pps:$LAB_PPS_DEV" --source "$src" --period "${LAB_PERIOD_MS}ms" \
        --count 5 --chrony off -o "/tmp/poll-$name.csv" --quiet "$@" \
        >"$LAB_OUT/poll-err-$name.txt" 2>&1
    echo "poll_${name}_rc=$?" >>"$st"
}
# The poller on the CPU that serves the PPS interrupt (the only one): refused before any file.
one placement "$spec" --cpu 0 --cpu 0
# Not a gpiomem device: /dev/mem-like MMIO is refused by name.
one notgpiomem "poll:mem:/dev/zero,offset=0,bit=0"
# A register outside the device's one page.
one offset "poll:mem:$LAB_GPIOMEM_DEV,offset=0x1000,bit=0"
# A reference that polls every period leaves no unpolled period to measure the bias on.
one everyperiod "poll:mem:$LAB_GPIOMEM_DEV,offset=0,bit=0,pattern=1"
exit 0
