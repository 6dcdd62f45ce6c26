#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Run the whole lab: fetch kernels, build the module and the initramfs, boot every
# configuration under QEMU, extract the results from the serial consoles and check them.
#
# Usage: run-lab.sh [options]
#   --configs LIST    comma-separated subset of: stock, threadirqs, rt   (default: all three)
#   --modes LIST      handler modes tried in every boot (default: threaded,split,nothread)
#   --count N         pulses per capture (default 300)
#   --period-ms MS    pulse period (default 100)
#   --bin PATH        extra binary for the guest, with its libraries (repeatable)
#   --script PATH     extra guest test script, run for every mode (repeatable)
#   --ppsbench BIN    phase 2: put the ppsbench binary BIN (and chronyd/chronyc when the host has
#                     them) into the guest, run guest/ppsbench.sh, guest/ptp.sh and
#                     guest/poll.sh for every mode (guest/faults.sh in split mode,
#                     guest/calibrate.sh in threaded mode), and check its captures, doctor
#                     verdicts, compare and gate with check-ppsbench.sh, the PTP reference's
#                     bias with check-ptp.sh, the polled reference's and the calibration loop
#                     with check-poll.sh
#   --host-hook PATH  run `PATH RESULTS_DIR` on the host after the checks (e.g. ppsbench compare)
#   --results DIR     where results go (default $PPSBENCH_LAB_CACHE/results)
# Environment: PPSBENCH_LAB_CACHE (downloads and builds; default tests/lab/.cache),
#   PPSBENCH_LAB_EXTRA_BINS, PPSBENCH_LAB_GUEST_SCRIPTS, PPSBENCH_LAB_HOST_HOOK (same as the
#   options), PPSBENCH_LAB_BOOT_TIMEOUT (seconds per boot, default 900),
#   PPSBENCH_LAB_ORDER_FACTOR (default 2), PPSBENCH_LAB_PPSBENCH (same as --ppsbench).
# The last line on stderr is `lab: N passed, M failed` (checks; a failed boot counts as failed).
# Exit: 0 all checks passed, 1 a check or a boot failed, 2 bad usage.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
source "$here/lib.sh"

configs=stock,threadirqs,rt
modes=threaded,split,nothread
count=300
period_ms=100
results="${PPSBENCH_LAB_CACHE}/results"
host_hook="${PPSBENCH_LAB_HOST_HOOK:-}"
ppsbench_bin="${PPSBENCH_LAB_PPSBENCH:-}"
initramfs_args=()
usage() { awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0" >&2; exit 2; }
while (($#)); do
    case "$1" in
        --configs) configs="$2"; shift 2 ;;
        --modes) modes="$2"; shift 2 ;;
        --count) count="$2"; shift 2 ;;
        --period-ms) period_ms="$2"; shift 2 ;;
        --bin) initramfs_args+=(--bin "$2"); shift 2 ;;
        --script) initramfs_args+=(--script "$2"); shift 2 ;;
        --host-hook) host_hook="$2"; shift 2 ;;
        --ppsbench) ppsbench_bin="$2"; shift 2 ;;
        --results) results="$2"; shift 2 ;;
        -h | --help) usage ;;
        *) printf '[lab] unknown argument %s\n' "$1" >&2; usage ;;
    esac
done
[[ "$count" =~ ^[1-9][0-9]*$ ]] || { lab_log "--count must be a positive integer"; exit 2; }
[[ "$period_ms" =~ ^[1-9][0-9]*$ ]] || { lab_log "--period-ms must be a positive integer"; exit 2; }

if [[ -n "$ppsbench_bin" ]]; then
    [[ -x "$ppsbench_bin" ]] || { lab_log "--ppsbench $ppsbench_bin: not an executable; build it first (cmake --build build)"; exit 2; }
    ppsbench_bin="$(cd "$(dirname "$ppsbench_bin")" && pwd)/$(basename "$ppsbench_bin")"
    initramfs_args+=(--bin "$ppsbench_bin" --script "$here/guest/ppsbench.sh" --script "$here/guest/ptp.sh" --script "$here/guest/poll.sh" --script "$here/guest/faults.sh" --script "$here/guest/calibrate.sh")
    # chronyd in the guest is optional: without it the chrony checks are skipped, not failed.
    for b in /usr/sbin/chronyd /usr/bin/chronyc; do
        if [[ -x "$b" ]]; then initramfs_args+=(--bin "$b"); else lab_log "no $b on the host: the guest runs without chrony (apt-get install chrony)"; fi
    done
fi

# config -> kernel flavour and extra kernel arguments
config_flavour() { case "$1" in stock | threadirqs) echo amd64 ;; rt) echo rt-amd64 ;; *) return 1 ;; esac; }
config_args() { case "$1" in threadirqs) echo threadirqs ;; *) echo ;; esac; }
IFS=, read -r -a config_list <<<"$configs"
flavours=()
for c in "${config_list[@]}"; do
    fl=$(config_flavour "$c") || { lab_log "unknown configuration '$c' (stock, threadirqs, rt)"; exit 2; }
    [[ " ${flavours[*]} " == *" $fl "* ]] || flavours+=("$fl")
done

timings=()
step() { # step NAME CMD...: run and time it
    local name="$1" t0 t1 rc=0
    shift
    t0=$(date +%s.%N)
    "$@" || rc=$?
    t1=$(date +%s.%N)
    timings+=("$(printf '%-28s %6.1f s%s' "$name" "$(echo "$t1 - $t0" | bc)" "$( ((rc)) && echo " (FAILED, exit $rc)")")")
    return "$rc"
}
t_start=$(date +%s.%N)

initrd="${PPSBENCH_LAB_CACHE}/initramfs.cpio.gz"
# A preparation step that fails ends the lab; CI still gets its summary line.
prepare() {
    step "$@" && return 0
    printf '%s\n' "${timings[@]}" >&2
    printf 'lab: 0 passed, 1 failed (%s failed)\n' "$1" >&2
    exit 1
}
prepare "fetch" "$here/fetch.sh" "${flavours[@]}"
prepare "build module" "$here/build-module.sh" "${flavours[@]}"
prepare "build initramfs" "$here/build-initramfs.sh" -o "$initrd" "${initramfs_args[@]}"

rm -rf "$results"
mkdir -p "$results"
boot_failed=0 boot_failed_n=0
for c in "${config_list[@]}"; do
    log="$results/$c.console.log"
    # shellcheck disable=SC2046 # the config's kernel arguments are words on purpose
    if ! PPSBENCH_LAB_INITRD="$initrd" step "boot $c" "$here/boot.sh" "$(config_flavour "$c")" "$log" \
        $(config_args "$c") "ppsbench.config=$c" "ppsbench.modes=$modes" \
        "ppsbench.count=$count" "ppsbench.period_ms=$period_ms"; then
        boot_failed=1 boot_failed_n=$((boot_failed_n + 1))
    fi
    # Split the console into files: "@@LAB FILE mode/name" ... "@@LAB EOF".
    tr -d '\r' <"$log" | awk -v dir="$results/$c" '
        /^@@LAB FILE / { f = dir "/" $3; d = f; sub(/\/[^\/]*$/, "", d); system("mkdir -p \"" d "\""); printf "" > f; next }
        /^@@LAB EOF/ { if (f != "") close(f); f = ""; next }
        f != "" { print > f }'
done

check_rc=0
step "check" "$here/check-results.sh" "$results" || check_rc=$?
if [[ -n "$ppsbench_bin" ]]; then
    PPSBENCH_LAB_PPSBENCH="$ppsbench_bin" step "check ppsbench" "$here/check-ppsbench.sh" "$results" || check_rc=1
    PPSBENCH_LAB_PPSBENCH="$ppsbench_bin" step "check ptp" "$here/check-ptp.sh" "$results" || check_rc=1
    PPSBENCH_LAB_PPSBENCH="$ppsbench_bin" step "check poll" "$here/check-poll.sh" "$results" || check_rc=1
fi
"$here/margins.sh" "$results" || true
hook_rc=0
if [[ -n "$host_hook" ]]; then
    step "host hook" "$host_hook" "$results" || hook_rc=$?
fi

total=$(echo "$(date +%s.%N) - $t_start" | bc)
{
    printf '%s\n' "${timings[@]}"
    printf '%-28s %6.1f s\n' "total" "$total"
} | tee "$results/timings.txt" >&2
lab_log "results in $results (summary.md, summary.tsv, <config>/<mode>/...)"
# One line for CI logs: the check scripts leave "PASSED FAILED" in RESULTS/*.counts.
passed=0 failed=0
for f in "$results"/*.counts; do
    [[ -f "$f" ]] || continue
    read -r p f_ <"$f"
    passed=$((passed + p)) failed=$((failed + f_))
done
failed=$((failed + boot_failed_n + (hook_rc != 0)))
printf 'lab: %d passed, %d failed\n' "$passed" "$failed" >&2
((boot_failed == 0 && check_rc == 0 && hook_rc == 0)) || exit 1
