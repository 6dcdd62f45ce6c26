# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=sh
# The calibration loop (issue 24 item 9), once per boot in threaded mode (thread-context on
# threadirqs and rt, hard IRQ on stock); added by `run-lab.sh --ppsbench` last, because it
# reloads the module. Checks are on the host (check-poll.sh).
#  1. ppsbench calibrate on guest/poll.sh's two-path run (poll-dual-1.csv, 100 ms pulses);
#     its offset written into the refclock line of /etc/chrony/chrony.conf (where doctor reads
#     it); ppsbench doctor --bias on that run with that file.
#  2. chrony's refclocks.log importer takes 1 Hz refclocks only, so the module is reloaded at
#     period_ms=1000 (the mode's records saved first, as records.txt) and chronyd (-x, a plain
#     `refclock PPS` line) runs twice with a PPS-only ppsbench run beside it: without the
#     offset, then with it. No poller runs then: on one vCPU it delays the thread's timestamps
#     of the edges it polls, which chronyd would average in.
# chronyd -x never adjusts the clock, so the module's edges stay on exact CLOCK_REALTIME
# multiples and the raw offsets keep the lateness; what the offset moves is chronyd's own
# (virtual) clock, raw + offset − cooked in refclocks.log, which check-poll.sh reads through
# `import chrony-refclocks --offset raw|cooked`.
# Writes to $LAB_OUT: calib.txt (exit codes, the offset), calibrate.json/.txt,
# chrony-calibrated.conf, doctor-bias.json/.txt, chrony-before.txt / chrony-after.txt (sources,
# sourcestats), refclocks-before.log / refclocks-after.log, chrony-pps-before/after.csv
# (+ -run.txt), calib-records.txt (the 1 Hz module's records).
# shellcheck disable=SC2153 # LAB_*: exported by /init (lab-lib.sh)
set -u
[ "$LAB_MODE" = threaded ] || exit 0
pb=/usr/bin/ppsbench
st="$LAB_OUT/calib.txt"
: >"$st"
[ -x "$pb" ] && [ -x /usr/bin/chronyd ] && [ -x /usr/bin/chronyc ] || { echo "no_chrony=1" >>"$st"; exit 0; }
. /lab/lab-lib.sh

conf=/etc/chrony/chrony.conf
mkdir -p /etc/chrony /run/chrony /var/lib/chrony
chmod 0770 /run/chrony
sock=/run/chrony/chronyd.sock

write_conf() { # write_conf OFFSET: chrony.conf, the refclock line with OFFSET (none if empty)
    cat >"$conf" <<CONF
refclock PPS $LAB_PPS_DEV refid PPS${1:+ offset $1}
local stratum 1
bindcmdaddress $sock
cmdport 0
driftfile /var/lib/chrony/drift
logdir /tmp/chrony-log
log refclocks
CONF
}
start_chronyd() { # start_chronyd LOGNAME: chronyd on $conf, its refclocks.log fresh
    rm -rf /tmp/chrony-log && mkdir -p /tmp/chrony-log
    /usr/bin/chronyd -x -d -u root -f "$conf" >"$LAB_OUT/chronyd-$1.log" 2>&1 &
    chronyd_pid=$!
    # Until the PPS refclock is selected (a few polls of 16 s): refclocks.log starts earlier.
    waited=0
    while [ "$waited" -lt 120 ] && ! /usr/bin/chronyc -n -h "$sock" tracking 2>/dev/null | grep -q '^Reference ID.*(PPS)'; do
        sleep 1
        waited=$((waited + 1))
    done
    echo "chrony_${1}_sync_wait_s=$waited" >>"$st"
}
stop_chronyd() { # stop_chronyd NAME: its figures and refclocks.log, then stop it
    for what in sources sourcestats; do
        echo "== chronyc $what"
        /usr/bin/chronyc -n -h "$sock" "$what" 2>&1
    done >"$LAB_OUT/chrony-$1.txt"
    kill "$chronyd_pid" 2>/dev/null
    wait "$chronyd_pid" 2>/dev/null
    cp /tmp/chrony-log/refclocks.log "$LAB_OUT/refclocks-$1.log" 2>/dev/null
}
pps_run() { # pps_run NAME: a PPS-only run while chronyd collects
    "$pb" run --source "pps:$LAB_PPS_DEV" --period 1s --count 150 --label "$LAB_CONFIG-$1" \
        -o "$LAB_OUT/chrony-pps-$1.csv" --chrony on --chrony-refid PPS --quiet \
        >"$LAB_OUT/chrony-pps-$1-run.txt" 2>&1
    echo "pps_${1}_rc=$?" >>"$st"
}

"$pb" calibrate "$LAB_OUT/poll-dual-1.csv" >"$LAB_OUT/calibrate.txt" 2>&1
echo "calibrate_rc=$?" >>"$st"
"$pb" calibrate "$LAB_OUT/poll-dual-1.csv" --format json >"$LAB_OUT/calibrate.json" 2>>"$LAB_OUT/calibrate.txt"
offset=$(sed -n 's/.*"chrony_offset_s": *"\([-0-9.]*\)".*/\1/p' "$LAB_OUT/calibrate.json" | head -n 1)
echo "offset_s=$offset" >>"$st"
[ -n "$offset" ] || exit 1
write_conf "$offset"
cp "$conf" "$LAB_OUT/chrony-calibrated.conf"
"$pb" doctor "$LAB_PPS_DEV" --bias "$LAB_OUT/poll-dual-1.csv" --format json --pulse-wait 0 \
    >"$LAB_OUT/doctor-bias.json" 2>"$LAB_OUT/doctor-bias.err"
echo "doctor_bias_rc=$?" >>"$st"
"$pb" doctor "$LAB_PPS_DEV" --bias "$LAB_OUT/poll-dual-1.csv" --pulse-wait 0 >"$LAB_OUT/doctor-bias.txt" 2>&1

cat /proc/ppsbench_lab >"$LAB_OUT/records.txt"
rmmod ppsbench_lab || { echo "rmmod_failed=1" >>"$st"; exit 1; }
finish() { # the 1 Hz module's records; removed so /init does not save them over records.txt
    sleep 1.2
    cat /proc/ppsbench_lab >"$LAB_OUT/calib-records.txt"
    rmmod ppsbench_lab
}
insmod "/lib/modules/$(uname -r)/single/ppsbench_lab.ko" mode=threaded period_ms=1000 records=8192 \
    >>"$st" 2>&1 || { echo "insmod_failed=1" >>"$st"; exit 1; }
lab_discover
write_conf ""
start_chronyd before
pps_run before
stop_chronyd before
write_conf "$offset"
start_chronyd after
pps_run after
stop_chronyd after
finish
exit 0
