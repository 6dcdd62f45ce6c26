#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Runs inside the Debian 12 root of systemd-test.sh, booted by systemd-nspawn, as a oneshot
# unit once multi-user.target is up. Writes OUT/booted at once, what each check saw to OUT/log
# and the checks' exit status to OUT/status, then ends the container with that status.
# Usage: checks.sh OUT
out=$1
mkdir -p "$out"
: >"$out/booted"

state=/var/lib/ppsbench
prom=/run/ppsbench/ppsbench.prom
nightly_prom=/run/ppsbench/ppsbench-nightly.prom

fail() {
    echo "FAILED: $*"
    exit 1
}

# Waits up to $1 seconds for the shell condition $2.
wait_for() {
    tries=0
    until eval "$2"; do
        tries=$((tries + 1))
        [ "$tries" -le "$(($1 * 2))" ] || return 1
        sleep 0.5
    done
}

captures() {
    ls -1 "$state"/2*.csv 2>/dev/null
}

# One night of ppsbench-nightly.service: its exit status and how the unit ended.
night() {
    systemctl start ppsbench-nightly.service
    night_status=$?
    night_result=$(systemctl show -p Result --value ppsbench-nightly.service)
    night_main=$(systemctl show -p ExecMainStatus --value ppsbench-nightly.service)
    echo "nightly: systemctl start exited $night_status, Result=$night_result," \
        "last ExecStart exited $night_main"
    [ -s "$nightly_prom" ] || fail "no $nightly_prom after the night"
    grep -q '^# HELP ppsbench_' "$nightly_prom" || fail "$nightly_prom holds no ppsbench figures"
}

checks() {
    set -u
    echo "--- booted: $(systemctl is-system-running 2>&1) ($(systemctl --version | head -n 1))"

    # The settings file the units read (/etc/default/ppsbench from the package).
    settings=$(systemctl show -p EnvironmentFiles --value ppsbench-monitor.service | cut -d ' ' -f 1)
    [ -n "$settings" ] || fail "ppsbench-monitor.service names no EnvironmentFile"
    echo "--- ppsbench-monitor.service on a simulated source ($settings)"
    # Pulses every 20 ms in real time and a new file every 4 s: a day of the real unit, in
    # seconds. The rest of the unit (user, sandbox, paths) is as installed.
    cat >"$settings" <<'EOF'
PPSBENCH_SOURCE=sim:threaded
PPSBENCH_ROTATE=4s
PPSBENCH_PROMETHEUS_INTERVAL=1s
PPSBENCH_OPTIONS="--pace realtime --period 20ms --label container"
EOF
    systemctl enable --now ppsbench-monitor.service || fail "the monitor did not start"
    wait_for 30 '[ "$(captures | wc -l)" -ge 3 ] && [ -s "$prom" ]' ||
        fail "no third capture file or no $prom within 30 s: $(captures | tr '\n' ' ')"
    [ "$(systemctl is-active ppsbench-monitor.service)" = active ] || fail "the monitor is not active"
    captures
    grep -q '^# HELP ppsbench_' "$prom" || fail "$prom holds no ppsbench figures"
    echo "$prom: $(grep -c '^ppsbench_' "$prom") samples"
    complete=$(captures | tail -n 2 | head -n 1)
    [ "$(stat -c %U "$complete")" = ppsbench ] || fail "$complete is not the ppsbench user's"
    grep -q '"stop_reason":"rotated"' "$complete" || fail "$complete has no end record of a seam"
    ppsbench report "$complete" >/dev/null || fail "ppsbench report $complete failed"
    echo "monitor: active, rotating; $complete reads back"

    echo "--- ppsbench-nightly.timer"
    systemctl enable --now ppsbench-nightly.timer || fail "the timer did not start"
    systemctl list-timers --all --no-pager ppsbench-nightly.timer
    systemctl list-timers --all --no-pager | grep -q 'ppsbench-nightly.timer' ||
        fail "the timer is not listed"

    echo "--- ppsbench-nightly.service: two nights within the limit"
    # The monitor stops cleanly (SIGTERM) so the set of files holds still; the file before the
    # newest is the one the nightly unit compares, and a copy of it arms the baseline.
    systemctl stop ppsbench-monitor.service
    [ "$(systemctl show -p Result --value ppsbench-monitor.service)" = success ] ||
        fail "the monitor did not stop cleanly"
    newest=$(captures | tail -n 1)
    grep -q '^# end ' "$newest" || fail "$newest has no end record after systemctl stop"
    last=$(captures | tail -n 2 | head -n 1)
    install -o ppsbench -g ppsbench -m 0644 "$last" "$state/baseline.csv"
    night
    [ "$night_status" -eq 0 ] && [ "$night_result" = success ] || fail "the first night failed"
    first=$(stat -c %i "$nightly_prom")
    night
    [ "$night_status" -eq 0 ] && [ "$night_result" = success ] ||
        fail "the second night failed (the .prom file is state: replaced without --force)"
    [ "$(stat -c %i "$nightly_prom")" != "$first" ] || fail "the second night did not replace $nightly_prom"
    echo "nightly: passed twice, $nightly_prom replaced"

    echo "--- ppsbench-nightly.service: a regression night"
    # A calmer baseline (the stock kernel's model against the monitor's PREEMPT_RT one, σ ratio
    # about 3): the gate fails, and the figures of that night are published all the same.
    cp "$nightly_prom" /tmp/passing.prom
    ppsbench run --source sim:hardirq --period 20ms --count 600 -o /tmp/calm.csv >/dev/null ||
        fail "could not make the calm baseline"
    install -o ppsbench -g ppsbench -m 0644 /tmp/calm.csv "$state/baseline.csv"
    second=$(stat -c %i "$nightly_prom")
    night
    [ "$night_status" -ne 0 ] && [ "$night_result" = exit-code ] && [ "$night_main" = 1 ] ||
        fail "the regression night did not fail with the gate's exit 1"
    [ "$(stat -c %i "$nightly_prom")" != "$second" ] || fail "the regression night published nothing"
    ! cmp -s /tmp/passing.prom "$nightly_prom" || fail "the regression night's figures are the old ones"
    echo "nightly: the regression night failed (exit 1) and published its figures"
}

(checks) >"$out/log" 2>&1
status=$?
if [ "$status" -ne 0 ]; then
    {
        echo "--- the journal of the ppsbench units"
        journalctl -u ppsbench-monitor.service -u ppsbench-nightly.service --no-pager | tail -n 40
    } >>"$out/log" 2>&1
fi
echo "$status" >"$out/status"
systemctl --no-block exit "$status"
