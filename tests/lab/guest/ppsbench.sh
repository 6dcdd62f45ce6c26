# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=sh
# Phase-2 guest test: the real ppsbench binary against the lab module, for every handler mode.
# Added by `run-lab.sh --ppsbench BIN` (as a --script); runs after 10-phase1.sh, in busybox sh.
# It only captures; every check is done on the host (check-ppsbench.sh) against records.txt,
# the module's ground truth, which /init saves after all scripts ran.
#
# Writes to $LAB_OUT: doctor.json (+ .err), pps.csv, gpio.csv, PPS-only runs pps-b/-c.csv,
# PPS runs under load pps-rthog.csv and pps-otherhog.csv, their stdout/stderr (*-run.txt),
# latency-gpio.csv and latency-pps.csv (ppsbench latency over the jumper wire, + .txt), and
# ppsbench.txt with the exit codes; chrony.txt and chronyd.log when chronyd is in the initramfs.
set -u
pb=/usr/bin/ppsbench
status="$LAB_OUT/ppsbench.txt"
: >"$status"
[ -x "$pb" ] || { echo "no $pb in the initramfs (run-lab.sh --ppsbench BIN)" >>"$status"; exit 1; }

# chronyd with the lab's PPS device as its only refclock, so the doctor sees a real chronyd
# using /dev/ppsN. -x: never touch the guest's clock (the captures are checked against the
# module's timestamps, which must not be stepped mid-run); `local stratum 1` because a PPS
# refclock without `lock` has no time of day of its own. rate: the lab's pulses are not 1 Hz.
chronyd_pid=
if [ -x /usr/bin/chronyd ]; then
    rate=$((1000 / LAB_PERIOD_MS))
    [ "$rate" -ge 1 ] || rate=1
    mkdir -p /run/chrony /var/lib/chrony
    chmod 0770 /run/chrony
    cat >/tmp/chrony.conf <<EOF
refclock PPS $LAB_PPS_DEV refid PPS rate $rate poll 0 dpoll 0
local stratum 1
bindcmdaddress /run/chrony/chronyd.sock
cmdport 0
driftfile /var/lib/chrony/drift
EOF
    /usr/bin/chronyd -x -d -u root -f /tmp/chrony.conf >"$LAB_OUT/chronyd.log" 2>&1 &
    chronyd_pid=$!
    echo "chronyd_pid=$chronyd_pid" >>"$status"
fi

# The doctor reads /proc and /sys here, on a real kernel with the module loaded; its pulse
# check waits 1.2 s for new edges, so the module's pulses must be arriving.
"$pb" doctor "$LAB_PPS_DEV" --format json >"$LAB_OUT/doctor.json" 2>"$LAB_OUT/doctor.err"
echo "doctor_rc=$?" >>"$status"

# The raw files the doctor read, for fixture trees (tests/sysinfo/fixtures/lab-*): busybox
# head prints "==> FILE <==" before each.
pps_sys="/sys/class/pps/${LAB_PPS_DEV#/dev/}"
thread_pid=$(grep -l "^irq/$LAB_IRQ-" /proc/[0-9]*/comm 2>/dev/null | head -n 1 | cut -d/ -f3)
# The handler symbols, as the doctor finds them, and the other IRQ threads' names (they show
# that the process list was readable when the PPS IRQ has no thread).
grep pps_gpio_ /proc/kallsyms >/tmp/kallsyms 2>&1
other_threads=$(grep -l "^irq/" /proc/[0-9]*/comm 2>/dev/null | grep -v "^/proc/$thread_pid/" | head -n 3)
head -n 200 /proc/sys/kernel/osrelease /proc/sys/kernel/version /proc/cmdline /proc/uptime \
    /sys/kernel/realtime "$pps_sys/name" "$pps_sys/path" "$pps_sys/mode" "$pps_sys/assert" \
    "$pps_sys/clear" "$pps_sys/device/uevent" /tmp/kallsyms \
    /proc/interrupts "/proc/irq/$LAB_IRQ/smp_affinity_list" "/proc/irq/$LAB_IRQ/effective_affinity_list" \
    ${thread_pid:+/proc/$thread_pid/comm /proc/$thread_pid/stat /proc/$thread_pid/status} \
    $other_threads \
    >"$LAB_OUT/sysfs-snapshot.txt" 2>&1

# ppsbench run samples chrony at its start and end: give chronyd time to select the PPS
# refclock first (about 3 s at poll 0 under TCG), or every sample says "not synchronised".
if [ -n "$chronyd_pid" ] && [ -x /usr/bin/chronyc ]; then
    waited=0
    while [ "$waited" -lt 20 ] && ! /usr/bin/chronyc -n tracking 2>/dev/null | grep -q '^Reference ID.*(PPS)'; do
        sleep 0.5
        waited=$((waited + 1))
    done
    echo "chrony_sync_wait_halfseconds=$waited" >>"$status"
fi

# The same edges through both paths at once: line 0 feeds /dev/ppsN (RFC 2783), line 1 the GPIO
# character device (libgpiod). Each capture is joined with the records on the host.
"$pb" run --source "gpio:${LAB_GPIOCHIP_DEV#/dev/}:$LAB_GPIO_LINE" --period "${LAB_PERIOD_MS}ms" \
    --count "$LAB_COUNT" --label "$LAB_CONFIG-$LAB_MODE-gpio" -o "$LAB_OUT/gpio.csv" --quiet \
    >"$LAB_OUT/gpio-run.txt" 2>&1 &
gpio_pid=$!
# chrony's figures go into the capture once `ppsbench run` can sample them (--chrony).
# The refid is given because chronyd here reads /tmp/chrony.conf, not the packaged file.
chrony_opt=
if [ -n "$chronyd_pid" ] && "$pb" run --help 2>&1 | grep -q -- '--chrony-refid'; then
    chrony_opt="--chrony auto --chrony-refid PPS"
elif [ -n "$chronyd_pid" ] && "$pb" run --help 2>&1 | grep -q -- '--chrony'; then
    chrony_opt="--chrony auto"
fi
echo "run_chrony=${chrony_opt:+1}" >>"$status"
# shellcheck disable=SC2086 # chrony_opt is words or nothing
"$pb" run --source "pps:$LAB_PPS_DEV" --period "${LAB_PERIOD_MS}ms" --count "$LAB_COUNT" \
    --label "$LAB_CONFIG-$LAB_MODE-a" -o "$LAB_OUT/pps.csv" --quiet $chrony_opt >"$LAB_OUT/pps-run.txt" 2>&1
echo "pps_run_rc=$?" >>"$status"
wait "$gpio_pid"
echo "gpio_run_rc=$?" >>"$status"

# Runs B and C: the PPS device alone, twice, under the same conditions (run A shares the CPU
# with the GPIO capture): the gates compare these (check-ppsbench.sh), B and C as an A/A pair.
# Twice the pulses of the other runs: the A/A σ ratio's 95 % interval must be narrower than
# x0.8-x1.25 (300 pulses gave x0.76-x1.30); idle guest time costs nothing (sleep=off).
aa_count=$((LAB_COUNT * 2))
echo "aa_count=$aa_count" >>"$status"
for run in b c; do
    label="$LAB_CONFIG-$LAB_MODE"
    [ "$run" = c ] && label="$label-c"
    "$pb" run --source "pps:$LAB_PPS_DEV" --period "${LAB_PERIOD_MS}ms" --count "$aa_count" \
        --label "$label" -o "$LAB_OUT/pps-$run.csv" --quiet \
        >"$LAB_OUT/pps-$run-run.txt" 2>&1
    echo "pps_${run}_run_rc=$?" >>"$status"
done

# Under load (guest/hog.c; one vCPU, so the hog shares the CPU with the interrupt and its
# thread): `rthog` spins at SCHED_FIFO 60, above the irq/N thread's 50, `otherhog` at
# SCHED_OTHER, each for 1 ms of every 7.3 ms. Guest time is instruction-counted, so a hog period
# that divided the pulse period would meet every pulse at the same phase (all delayed alike, or
# none); 7.3 ms walks through the phases.
# 100 pulses are plenty here: a held-off thread adds up to a millisecond, a hundred times its
# unloaded spread; busy guest time is what the lab's wall time is made of.
load_count=100
[ "$LAB_COUNT" -lt 100 ] && load_count=$LAB_COUNT
echo "load_count=$load_count" >>"$status"
hog_secs=$((load_count * LAB_PERIOD_MS / 1000 + 5))
run_loaded() { # run_loaded NAME PRIO BURST_US PERIOD_US
    name=$1
    shift
    hog "$@" "$hog_secs" >"$LAB_OUT/$name-hog.txt" 2>&1 &
    hog_pid=$!
    "$pb" run --source "pps:$LAB_PPS_DEV" --period "${LAB_PERIOD_MS}ms" --count "$load_count" \
        --label "$LAB_CONFIG-$LAB_MODE-$name" -o "$LAB_OUT/pps-$name.csv" --quiet \
        >"$LAB_OUT/pps-$name-run.txt" 2>&1
    echo "pps_${name}_run_rc=$?" >>"$status"
    kill "$hog_pid" 2>/dev/null
    wait "$hog_pid" 2>/dev/null
}
run_loaded rthog 60 1000 7300
run_loaded otherhog 0 1000 7300

# ppsbench latency over the module's jumper wire (output line 2 to inputs 0 and 1): the
# generator stops meanwhile, so only the wire drives the inputs.
gen=/sys/module/ppsbench_lab/parameters/generator
chip=${LAB_GPIOCHIP_DEV#/dev/}
echo 0 >"$gen"
"$pb" latency --drive "$chip:$LAB_WIRE_LINE" --sense "gpio:$chip:$LAB_GPIO_LINE" --interval 10ms \
    --count "$LAB_COUNT" --label "$LAB_CONFIG-$LAB_MODE-gpio" -o "$LAB_OUT/latency-gpio.csv" \
    >"$LAB_OUT/latency-gpio.txt" 2>&1
echo "latency_gpio_rc=$?" >>"$status"
"$pb" latency --drive "$chip:$LAB_WIRE_LINE" --sense "pps:$LAB_PPS_DEV" --edge assert \
    --interval 10ms --count "$LAB_COUNT" --label "$LAB_CONFIG-$LAB_MODE-pps" \
    -o "$LAB_OUT/latency-pps.csv" >"$LAB_OUT/latency-pps.txt" 2>&1
echo "latency_pps_rc=$?" >>"$status"
echo 1 >"$gen"

if [ -n "$chronyd_pid" ]; then
    if [ -x /usr/bin/chronyc ]; then
        for what in sources sourcestats tracking; do
            echo "== chronyc $what"
            /usr/bin/chronyc -n -h /run/chrony/chronyd.sock "$what" 2>&1
        done >"$LAB_OUT/chrony.txt"
    fi
    kill "$chronyd_pid" 2>/dev/null
    wait "$chronyd_pid" 2>/dev/null
fi
# The module notes pps_seq just after pps_event() has woken the reader: let the last one land.
sleep 0.3
exit 0
