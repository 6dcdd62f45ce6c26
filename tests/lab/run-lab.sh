#!/usr/bin/env bash
# Run the whole lab: fetch kernels, build the module and the initramfs, boot every
# configuration under QEMU, extract the results from the serial consoles and check them.
#
# Usage: run-lab.sh [options]
#   --configs LIST    comma-separated subset of: stock, threadirqs, rt   (default: all three)
#   --modes LIST      handler modes tried in every boot (default: threaded,split,nothread)
#   --count N         pulses fetched per mode (default 30)
#   --period-ms MS    pulse period (default 100)
#   --bin PATH        extra binary for the guest, with its libraries (repeatable)
#   --script PATH     extra guest test script, run for every mode (repeatable)
#   --host-hook PATH  run `PATH RESULTS_DIR` on the host after the checks (e.g. ppsbench compare)
#   --results DIR     where results go (default $PPSBENCH_LAB_CACHE/results)
# Environment: PPSBENCH_LAB_CACHE (downloads and builds; default tests/lab/.cache),
#   PPSBENCH_LAB_EXTRA_BINS, PPSBENCH_LAB_GUEST_SCRIPTS, PPSBENCH_LAB_HOST_HOOK (same as the
#   options), PPSBENCH_LAB_BOOT_TIMEOUT (seconds per boot, default 300),
#   PPSBENCH_LAB_ORDER_FACTOR (default 2).
# Exit: 0 all checks passed, 1 a check or a boot failed, 2 bad usage.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
source "$here/lib.sh"

configs=stock,threadirqs,rt
modes=threaded,split,nothread
count=30
period_ms=100
results="${PPSBENCH_LAB_CACHE}/results"
host_hook="${PPSBENCH_LAB_HOST_HOOK:-}"
initramfs_args=()
usage() { sed -n '2,20p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
while (($#)); do
    case "$1" in
        --configs) configs="$2"; shift 2 ;;
        --modes) modes="$2"; shift 2 ;;
        --count) count="$2"; shift 2 ;;
        --period-ms) period_ms="$2"; shift 2 ;;
        --bin) initramfs_args+=(--bin "$2"); shift 2 ;;
        --script) initramfs_args+=(--script "$2"); shift 2 ;;
        --host-hook) host_hook="$2"; shift 2 ;;
        --results) results="$2"; shift 2 ;;
        -h | --help) usage ;;
        *) printf '[lab] unknown argument %s\n' "$1" >&2; usage ;;
    esac
done
[[ "$count" =~ ^[1-9][0-9]*$ ]] || { lab_log "--count must be a positive integer"; exit 2; }
[[ "$period_ms" =~ ^[1-9][0-9]*$ ]] || { lab_log "--period-ms must be a positive integer"; exit 2; }

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
step "fetch" "$here/fetch.sh" "${flavours[@]}" || exit 1
step "build module" "$here/build-module.sh" "${flavours[@]}" || exit 1
step "build initramfs" "$here/build-initramfs.sh" -o "$initrd" "${initramfs_args[@]}" || exit 1

rm -rf "$results"
mkdir -p "$results"
boot_failed=0
for c in "${config_list[@]}"; do
    log="$results/$c.console.log"
    # shellcheck disable=SC2046 # the config's kernel arguments are words on purpose
    if ! PPSBENCH_LAB_INITRD="$initrd" step "boot $c" "$here/boot.sh" "$(config_flavour "$c")" "$log" \
        $(config_args "$c") "ppsbench.config=$c" "ppsbench.modes=$modes" \
        "ppsbench.count=$count" "ppsbench.period_ms=$period_ms"; then
        boot_failed=1
    fi
    # Split the console into files: "@@LAB FILE mode/name" ... "@@LAB EOF".
    tr -d '\r' <"$log" | awk -v dir="$results/$c" '
        /^@@LAB FILE / { f = dir "/" $3; d = f; sub(/\/[^\/]*$/, "", d); system("mkdir -p \"" d "\""); printf "" > f; next }
        /^@@LAB EOF/ { if (f != "") close(f); f = ""; next }
        f != "" { print > f }'
done

check_rc=0
step "check" "$here/check-results.sh" "$results" || check_rc=$?
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
((boot_failed == 0 && check_rc == 0 && hook_rc == 0)) || exit 1
