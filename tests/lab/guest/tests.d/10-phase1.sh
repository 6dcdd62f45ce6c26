# SPDX-License-Identifier: GPL-2.0-or-later
# Phase-1 guest test: prove the kernel path without ppsbench. Writes raw results to $LAB_OUT;
# all checks are done on the host (run-lab.sh), against the module's records.
set -u
{
    echo "config=$LAB_CONFIG mode=$LAB_MODE kernel=$(uname -r)"
    echo "realtime=$(cat /sys/kernel/realtime 2>/dev/null || echo 0)"
    echo "cmdline=$(cat /proc/cmdline)"
    echo "pps_dev=$LAB_PPS_DEV gpiochip=$LAB_GPIOCHIP_DEV irq=$LAB_IRQ"
    for f in name path; do echo "sysfs_$f=$(cat "/sys/class/pps/${LAB_PPS_DEV#/dev/}/$f" 2>/dev/null)"; done
    echo "pps_exists=$([ -c "$LAB_PPS_DEV" ] && echo 1 || echo 0)"
    echo "gpiochip_exists=$([ -c "$LAB_GPIOCHIP_DEV" ] && echo 1 || echo 0)"
} >"$LAB_OUT/info.txt"

# The same edges through the GPIO character device (line 1) while ppsfetch reads /dev/pps0.
gpioevents "$LAB_GPIOCHIP_DEV" "$LAB_GPIO_LINE" "$LAB_COUNT" 5 >"$LAB_OUT/gpioevents.txt" 2>"$LAB_OUT/gpioevents.err" &
gpid=$!
ppsfetch "$LAB_PPS_DEV" "$LAB_COUNT" 5 >"$LAB_OUT/ppsfetch.txt" 2>"$LAB_OUT/ppsfetch.err"
echo "ppsfetch_rc=$?" >>"$LAB_OUT/info.txt"
wait $gpid
echo "gpioevents_rc=$?" >>"$LAB_OUT/info.txt"
# The module notes pps_seq just after pps_event() has woken the reader: let it finish.
sleep 0.3

# IRQ threads: "pid comm policy rt_priority" (stat fields 41 and 40).
for d in /proc/[0-9]*; do
    c=$(cat "$d/comm" 2>/dev/null) || continue
    # shellcheck disable=SC2046 # split the stat fields on purpose
    case "$c" in
        irq/*) set -- $(sed 's/^.*) //' "$d/stat"); echo "${d#/proc/} $c policy=${39} prio=${38}" ;;
    esac
done >"$LAB_OUT/irqthreads.txt"
grep -E "^ *$LAB_IRQ:" /proc/interrupts >"$LAB_OUT/interrupts.txt" || true
exit 0
