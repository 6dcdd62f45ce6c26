# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=sh
# Fault and two-path guest test, once per boot (split mode); added by `run-lab.sh --ppsbench`
# after guest/ppsbench.sh, whose chrony.conf it reuses. Checks are on the host
# (check-ppsbench.sh). Writes to $LAB_OUT:
#   dual.csv-1/-2 (+ dual-run.txt)   one run, two sources: /dev/ppsN and GPIO line 1
#   chrony-kill.csv (+ -run.txt)     chronyd killed mid-run
#   rmmod.csv (+ -run.txt)           the module removed mid-run; records.txt saved just before
#   faults.txt                       exit codes and the moments of the faults
set -u
[ "$LAB_MODE" = split ] || exit 0
pb=/usr/bin/ppsbench
st="$LAB_OUT/faults.txt"
: >"$st"
[ -x "$pb" ] || exit 1
chip=${LAB_GPIOCHIP_DEV#/dev/}
# Real time of the last pulse, read from the device: marks a moment on the pulses' clock.
last_pulse() { cut -d'#' -f1 "/sys/class/pps/${LAB_PPS_DEV#/dev/}/assert"; }

# One run, two paths: the same edges on the PPS line and on GPIO line 1.
"$pb" run --source "pps:$LAB_PPS_DEV" --source "gpio:$chip:$LAB_GPIO_LINE" \
    --period "${LAB_PERIOD_MS}ms" --count "$LAB_COUNT" --label "$LAB_CONFIG-dual" \
    -o "$LAB_OUT/dual.csv" --chrony off >"$LAB_OUT/dual-run.txt" 2>&1
echo "dual_run_rc=$?" >>"$st"

# chronyd killed during a run: the capture must go on, and say when chrony was lost.
if [ -x /usr/bin/chronyd ] && [ -f /tmp/chrony.conf ]; then
    /usr/bin/chronyd -x -d -u root -f /tmp/chrony.conf >"$LAB_OUT/chronyd-kill.log" 2>&1 &
    cpid=$!
    waited=0
    while [ "$waited" -lt 20 ] && ! /usr/bin/chronyc -n tracking 2>/dev/null | grep -q '^Reference ID.*(PPS)'; do
        sleep 0.5
        waited=$((waited + 1))
    done
    "$pb" run --source "pps:$LAB_PPS_DEV" --period "${LAB_PERIOD_MS}ms" --count "$LAB_COUNT" \
        --label "$LAB_CONFIG-chrony-kill" -o "$LAB_OUT/chrony-kill.csv" --chrony on \
        --chrony-refid PPS --chrony-interval 1s >"$LAB_OUT/chrony-kill-run.txt" 2>&1 &
    rpid=$!
    sleep 2
    echo "chronyd_killed_after=$(last_pulse)" >>"$st"
    kill "$cpid"
    wait "$cpid" 2>/dev/null
    wait "$rpid"
    echo "chrony_kill_run_rc=$?" >>"$st"
fi

# The module removed during a run: ppsbench must exit 1, name the device, keep every pulse.
"$pb" run --source "pps:$LAB_PPS_DEV" --period "${LAB_PERIOD_MS}ms" --count 100000 \
    --label "$LAB_CONFIG-rmmod" -o "$LAB_OUT/rmmod.csv" --chrony off >"$LAB_OUT/rmmod-run.txt" 2>&1 &
rpid=$!
sleep 2
cat /proc/ppsbench_lab >"$LAB_OUT/records.txt"
echo "rmmod_after=$(last_pulse)" >>"$st"
rmmod ppsbench_lab >>"$st" 2>&1
rc=$?
echo "rmmod_rc=$rc" >>"$st"
[ "$rc" -eq 0 ] || kill "$rpid"
# ppsbench notices at its next quiet second; a run still going after 10 s has hung.
waited=0
while kill -0 "$rpid" 2>/dev/null && [ "$waited" -lt 20 ]; do
    sleep 0.5
    waited=$((waited + 1))
done
if kill -0 "$rpid" 2>/dev/null; then
    echo "rmmod_run_hung=1" >>"$st"
    kill "$rpid"
fi
wait "$rpid"
echo "rmmod_run_rc=$?" >>"$st"
exit 0
