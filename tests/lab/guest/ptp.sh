# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=sh
# PTP guest test (issue 17): the module's PTP clock as the hardware reference for the PPS path,
# for every handler mode; added by `run-lab.sh --ppsbench` after guest/ppsbench.sh and before
# guest/faults.sh (which removes the module). Checks are on the host (check-ptp.sh). The clock
# latches each edge when the timer raises the PPS line and reads CLOCK_REALTIME + 37 s, so the
# bias ppsbench reports must be the module's own raise -> timestamp delay of each edge.
# Writes to $LAB_OUT:
#   ptp-dual-1.csv / -2.csv (+ ptp-dual-run.txt)   run --source ptp:... --source pps:...
#   ptp-sysfs.txt                                  the clock's sysfs, as doctor reads it
#   ptp-doctor.json                                 ppsbench doctor --format json
#   split mode only: ptp-precise.csv, ptp-basic.csv (the other cross-timestamps), ptp-pin.csv
#   (pin=0 assigned for a run and restored), ptp-err-*.txt (errors that can be reached here)
#   ptp.txt                                        exit codes and pin functions
# LAB_PPS_DEV, LAB_PTP_DEV, LAB_MODE, ...: exported by /init (lab-lib.sh).
# shellcheck disable=SC2153
set -u
pb=/usr/bin/ppsbench
st="$LAB_OUT/ptp.txt"
: >"$st"
[ -x "$pb" ] || exit 1
if [ -z "${LAB_PTP_DEV:-}" ] || [ ! -e "$LAB_PTP_DEV" ]; then
    echo "no_ptp_dev=1" >>"$st"
    exit 1
fi
echo "ptp_dev=$LAB_PTP_DEV" >>"$st"
sys="/sys/class/ptp/${LAB_PTP_DEV#/dev/}"
pin="$sys/pins/PPS-IN"
param=/sys/module/ppsbench_lab/parameters/ptp_cross
head -n 20 "$sys/clock_name" "$sys/n_external_timestamps" "$sys/n_programmable_pins" \
    "$sys/n_periodic_outputs" "$pin" >"$LAB_OUT/ptp-sysfs.txt" 2>&1
"$pb" doctor --format json >"$LAB_OUT/ptp-doctor.json" 2>"$LAB_OUT/ptp-doctor.err"
echo "doctor_rc=$?" >>"$st"

# The bias run: both paths see the same edges; path A is the reference.
"$pb" run --source "ptp:$LAB_PTP_DEV" --source "pps:$LAB_PPS_DEV" --period "${LAB_PERIOD_MS}ms" \
    --count "$LAB_COUNT" --label "$LAB_CONFIG-$LAB_MODE-ptp" -o "$LAB_OUT/ptp-dual.csv" \
    --chrony off >"$LAB_OUT/ptp-dual-run.txt" 2>&1
echo "ptp_dual_rc=$?" >>"$st"

[ "$LAB_MODE" = split ] || exit 0
short=20
echo "short_count=$short" >>"$st"
one() { # one NAME SPEC [ARGS...]: a short PTP-only run
    name=$1 spec=$2
    shift 2
    "$pb" run --source "$spec" --period "${LAB_PERIOD_MS}ms" --count "$short" --chrony off \
        --label "$LAB_CONFIG-$name" -o "$LAB_OUT/ptp-$name.csv" --quiet "$@" \
        >"$LAB_OUT/ptp-$name-run.txt" 2>&1
    echo "ptp_${name}_rc=$?" >>"$st"
}
# The other two cross-timestamps: the clock declines the better ones when told.
echo 2 >"$param"
one precise "ptp:$LAB_PTP_DEV"
echo 0 >"$param"
one basic "ptp:$LAB_PTP_DEV"
echo 1 >"$param"

# Errors reachable on this clock.
one err-nodev "ptp:/dev/ptp9"
one err-extts "ptp:$LAB_PTP_DEV,extts=1"
one err-pin "ptp:$LAB_PTP_DEV,pin=3"
one err-edge "ptp:$LAB_PTP_DEV" --edge clear
# The pin taken off the channel: the driver refuses the channel (EBUSY, as igb does) ...
echo "pin_before=$(cat "$pin")" >>"$st"
echo "0 0" >"$pin"
echo "pin_unassigned=$(cat "$pin")" >>"$st"
one err-busy "ptp:$LAB_PTP_DEV"
# ... and pin=0 assigns it for the run and puts it back afterwards.
one pin "ptp:$LAB_PTP_DEV,pin=0"
echo "pin_after=$(cat "$pin")" >>"$st"
echo "1 0" >"$pin"
exit 0
