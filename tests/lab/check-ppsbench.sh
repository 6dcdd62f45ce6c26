#!/usr/bin/env bash
# Phase-2 checks: what the real ppsbench binary captured and diagnosed in the guest
# (guest/ppsbench.sh), against the module's records, then compare and gate on the host.
#
# Usage: check-ppsbench.sh RESULTS_DIR
#   PPSBENCH_LAB_PPSBENCH  the host's ppsbench binary (default: build/ppsbench of this checkout)
# Reads RESULTS_DIR/<config>/<mode>/{records.txt,pps.csv,gpio.csv,doctor.json,ppsbench.txt,...};
# writes RESULTS_DIR/ppsbench/ (derived captures, compare and gate outputs, summary.md) and
# RESULTS_DIR/check-ppsbench.counts ("PASSED FAILED"). Exit 1 when any check fails.
#
# What is asserted, per configuration and handler mode (facts, never emulated microseconds):
#  1. ppsbench run exited 0 for the PPS and the GPIO capture, and each holds N pulses.
#  2. Every pps.csv line equals, to the nanosecond, the module's record with the same PPS
#     sequence number (sequence and timestamp).
#  3. Every gpio.csv event falls within a pulse width after a recorded raise of line 1
#     (CLOCK_MONOTONIC), one event per edge, with no edge skipped between the first and last.
#  4. doctor: the device is a pps-gpio (as the module looks) with the handler of its mode
#     (threaded -> single, split -> split, nothread -> no-thread) on the recorded IRQ; the
#     pps-timestamp-context verdict is `fail` (and timestamp_context "thread") exactly when the
#     module recorded thread-context timestamps, `ok` ("hard-irq") otherwise; exit status 1
#     exactly when a verdict failed. With chronyd in the guest: chrony-running and
#     chrony-refclock are ok, and chronyc lists the PPS refclock.
# Then over all captures (needs `ppsbench compare` and `ppsbench gate`; skipped with a note
# when this binary has neither):
#  5. compare prints the stock / threadirqs / PREEMPT_RT table of the raw captures and of the
#     delay captures (text and Markdown).
#  6. gate --max-ratio 1.25 of the thread-context delay captures (rt/threaded,
#     threadirqs/threaded) against stock/threaded (hard IRQ) exits 1; gate of stock/threaded's
#     even pulses against its odd pulses (A/A) exits 0. stock/nothread and rt/split against
#     stock/threaded (hard IRQ, but other runs) and the raw captures are run and logged, not
#     asserted (see below).
#  7. Order, from ppsbench's own report of the delay captures: every thread-context run's
#     median is more than PPSBENCH_LAB_ORDER_FACTOR (default 2) times every hard-IRQ run's.
#
# Delay captures: raw PPS phase offsets under TCG are dominated by the emulated hrtimer's
# lateness, which is common to every mode and varies several-fold between boots. For each
# captured pulse the module recorded when the IRQ was raised; a delay capture keeps the pulse's
# sequence and puts its timestamp at intended edge + (timestamp - IRQ raised), so its phase
# offset is exactly the IRQ-raise-to-timestamp delay, the part the handler mode changes.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
lab_need_pkgs jq:jq

(($# == 1)) || lab_die "usage: check-ppsbench.sh RESULTS_DIR"
[[ -d "$1" ]] || lab_die "no results directory $1"
res="$(cd "$1" && pwd)"
pb="${PPSBENCH_LAB_PPSBENCH:-$LAB_DIR/../../build/ppsbench}"
[[ -x "$pb" ]] || lab_die "no ppsbench binary $pb; build it or set PPSBENCH_LAB_PPSBENCH"
pb="$(cd "$(dirname "$pb")" && pwd)/$(basename "$pb")"
factor="${PPSBENCH_LAB_ORDER_FACTOR:-2}"
out="$res/ppsbench"
rm -rf "$out"
mkdir -p "$out/delay"

fails=0 passes=0
fail() { printf '[lab] FAIL %s\n' "$*" >&2; fails=$((fails + 1)); }
pass() { printf '[lab] ok   %s\n' "$*" >&2; passes=$((passes + 1)); }
kv() { sed -n "s/^$1=//p" "$2" | head -n 1; }
# Pulse lines (sequence,edge,timestamp_ns[,extra columns]); comments and the header are not.
data_lines() { grep -E '^[0-9]+,(assert|clear),-?[0-9]+(,-?[0-9]+)*$' "$1" | cut -d, -f1-3 || true; }

# config/mode -> "thread" or "hard" (from the records), for the cross-run checks.
declare -A context_of=()
tsv="$out/summary.tsv"
printf 'config\tmode\tcontext\tpps_equal\tpps_missed\tgpio_matched\tdoctor_context\tdoctor_verdict\thandler\tchrony\tmedian_delay_ns\n' >"$tsv"

for cdir in "$res"/*/; do
    config=$(basename "$cdir")
    [[ -f "$res/$config.console.log" ]] || continue
    for mdir in "$cdir"*/; do
        mode=$(basename "$mdir")
        [[ "$mode" == boot ]] && continue
        id="$config/$mode"
        rec="$mdir/records.txt" st="$mdir/ppsbench.txt"
        if [[ ! -f "$st" || ! -f "$rec" ]]; then
            fail "$id: guest/ppsbench.sh left no results: $(cat "$mdir/failed" "$mdir"/*ppsbench.log 2>/dev/null | head -n 5 | tr '\n' ' ')"
            continue
        fi
        count=$(sed -n 's/.*ppsbench.count=\([0-9]*\).*/\1/p' "$mdir/info.txt" | head -n 1)
        period_ms=$(sed -n 's/.* period_ms=\([0-9]*\).*/\1/p' "$rec" | head -n 1)
        irq=$(sed -n 's/.* irq=\([0-9]*\).*/\1/p' "$rec" | head -n 1)

        # 1. exit codes and counts
        for what in pps gpio; do
            rc=$(kv "${what}_run_rc" "$st")
            n=0
            [[ -f "$mdir/$what.csv" ]] && n=$(data_lines "$mdir/$what.csv" | wc -l)
            if [[ "$rc" == 0 && "$n" == "$count" ]]; then
                pass "$id: ppsbench run --source $what: exit 0, $n/$count pulses"
            else
                fail "$id: ppsbench run --source $what: exit ${rc:-none}, $n/$count pulses: $(tail -n 3 "$mdir/$what-run.txt" 2>/dev/null | tr '\n' ' ')"
            fi
        done

        # 2. pps.csv against the records, joined on the PPS sequence number. Prints per pulse:
        #    OK seq hardirq intended ts raised   (or MISSING/DIFF)
        # awk numbers are doubles, exact only to 2^53: the 19-digit timestamps are compared as
        # strings here and subtracted only in bash's 64-bit integers below.
        joined="$mdir/pps-joined.txt"
        data_lines "$mdir/pps.csv" | tr ',' ' ' | awk '
            NR==FNR { if ($1 !~ /^#/ && $8 > 0) { ts[$8]=$6; hi[$8]=$9; ie[$8]=$2; ra[$8]=$4 } next }
            { if (!($1 in ts)) { print "MISSING", $1; next }
              if (ts[$1] "" != $3 "") { print "DIFF", $1, $3, ts[$1]; next }
              print "OK", $1, hi[$1], ie[$1], $3, ra[$1] }' "$rec" - >"$joined"
        n=$(wc -l <"$joined")
        ok=$(grep -c '^OK' "$joined" || true)
        if ((n > 0 && ok == n)); then
            pass "$id: $ok/$n pps.csv timestamps equal the module's records (sequence and ns)"
        else
            fail "$id: $ok/$n pps.csv timestamps equal the module's records: $(grep -v '^OK' "$joined" | head -n 3 | tr '\n' ';')"
        fi
        if [[ "$(kv run_chrony "$st")" == 1 ]]; then
            # Whether chronyd follows PPS at the instant of a sample is chrony's business (with
            # `local stratum 1` and -x it reports LOCAL, 7F7F0101, now and then under TCG);
            # ppsbench must read it faithfully: every sample finds the PPS refclock by its refid,
            # and says "ok" exactly when tracking's reference is that refclock (50505300, "PPS").
            samples=$(grep '^# chrony ' "$mdir/pps.csv" | sed 's/^# chrony //' || true)
            nsamples=$(grep -c . <<<"$samples" || true)
            bad=$(jq -c 'select(.pps_pick != "refid" or .pps_source.name != "PPS"
                             or ((.status == "ok") != (.tracking.ref_id == "50505300")))
                         | {status, pick: .pps_pick, source: .pps_source.name, ref: .tracking.ref_id}' <<<"$samples" 2>&1 | head -n 2)
            last_ok=$(tail -n 1 <<<"$samples" | jq -r 'select(.status == "ok") | .tracking.rms_offset_ns' 2>/dev/null || true)
            if ((nsamples >= 2)) && [[ -z "$bad" ]]; then
                pass "$id: ppsbench run --chrony auto: $nsamples samples, PPS refclock found by refid, status agrees with tracking's reference$([[ -n "$last_ok" ]] && echo ", RMS offset $last_ok ns at the end")"
            else
                fail "$id: ppsbench run --chrony auto: $nsamples samples (need start and end): ${bad:-}"
            fi
            [[ "$last_ok" =~ ^[0-9]+$ ]] && chrony_rms_runs=$((${chrony_rms_runs:-0} + 1))
            chrony_runs=$((${chrony_runs:-0} + 1))
        elif [[ -n "$(kv chronyd_pid "$st")" && -z "${chrony_note:-}" ]]; then
            chrony_note=1
            lab_log "note: this ppsbench run has no --chrony option yet: chrony samples in captures not checked"
        fi
        missed=$(awk '$1=="OK" { if (p != "" && $2 > p + 1) m += $2 - p - 1; p = $2 } END { print m + 0 }' "$joined")
        hard_n=$(awk '$1=="OK" && $3==1' "$joined" | wc -l)
        if ((ok > 0 && hard_n == ok)); then
            context=hard
        elif ((ok > 0 && hard_n == 0)); then
            context=thread
        else
            context=mixed
            fail "$id: the records mix hard-IRQ and thread timestamps ($hard_n/$ok hard)"
        fi
        context_of[$id]=$context

        # 3. gpio.csv against the recorded raises of line 1 (CLOCK_MONOTONIC)
        width_ns=$((period_ms * 1000000 * 20 / 100))
        gjoined="$mdir/gpio-joined.txt"
        data_lines "$mdir/gpio.csv" | tr ',' ' ' | awk -v w="$width_ns" '
            NR==FNR { if ($1 !~ /^#/ && $5 > 0) { e[++n]=$1; f[n]=$5 } next }
            { best=""; for (i=1; i<=n; i++) { d=$3-f[i]; if (d>=0 && d<w) best=e[i] " " d }
              print (best=="" ? "NOMATCH " $3 : "OK " best) }' "$rec" - >"$gjoined"
        gn=$(wc -l <"$gjoined")
        gok=$(grep -c '^OK' "$gjoined" || true)
        gaps=$(awk '$1=="OK" { if (p != "" && $2 != p + 1) g++; p = $2 } END { print g + 0 }' "$gjoined")
        if ((gn > 0 && gok == gn && gaps == 0)); then
            pass "$id: $gok/$gn gpio.csv events match consecutive recorded raises of line 1"
        else
            fail "$id: $gok/$gn gpio.csv events match recorded raises, $gaps edge(s) skipped or repeated: $(grep -v '^OK' "$gjoined" | head -n 3 | tr '\n' ';')"
        fi

        # 4. doctor
        dj="$mdir/doctor.json"
        doc_ctx=none doc_sev=none handler=none chrony=-
        if [[ -s "$dj" ]] && jq -e . "$dj" >/dev/null 2>&1; then
            doc_ctx=$(jq -r '.timestamp_context' "$dj")
            doc_sev=$(jq -r '[.verdicts[] | select(.check == "pps-timestamp-context") | .severity][0] // "none"' "$dj")
            handler=$(jq -r '.system.pps.handler // "none"' "$dj")
            kind=$(jq -r '.system.pps.kind // "none"' "$dj")
            doc_irq=$(jq -r '.system.pps.irq.number // "none"' "$dj")
            doc_thread=$(jq -r '.system.pps.irq.thread.comm // "none"' "$dj")
            nfail=$(jq -r '.summary.fail' "$dj")
            # The module looks like pps-gpio (module/ppsbench_lab.c): the doctor tells its shapes
            # apart by the handler symbols in /proc/kallsyms, and IRQF_NO_THREAD by the missing
            # thread where threading is forced; on stock nothing tells nothread from threaded.
            case "$mode" in
                threaded) want_handler="single" ;;
                split) want_handler="split" ;;
                nothread) if [[ "$config" == stock ]]; then want_handler=single; else want_handler=no-thread; fi ;;
                *) want_handler=unknown ;;
            esac
            if [[ "$kind" == pps-gpio && "$handler" == "$want_handler" && "$doc_irq" == "$irq" ]]; then
                pass "$id: doctor sees a pps-gpio, handler $handler (mode=$mode), IRQ $doc_irq, thread $doc_thread"
            else
                fail "$id: doctor saw kind $kind, handler $handler, IRQ $doc_irq (expected pps-gpio, $want_handler, $irq)"
            fi
            if [[ "$doc_thread" == none ]] && grep -q " irq/$irq-" "$mdir/irqthreads.txt"; then
                fail "$id: doctor found no IRQ thread but irqthreads.txt has irq/$irq-"
            fi
            if [[ "$context" == thread ]]; then want_sev=fail want_ctx=thread; else want_sev=ok want_ctx=hard-irq; fi
            if [[ "$doc_sev" == "$want_sev" && "$doc_ctx" == "$want_ctx" ]]; then
                pass "$id: doctor pps-timestamp-context $doc_sev ($doc_ctx), as the records say ($context)"
            else
                fail "$id: doctor pps-timestamp-context $doc_sev ($doc_ctx) but the records say $context (expected $want_sev, $want_ctx): $(jq -r '.verdicts[] | select(.check == "pps-timestamp-context") | .message' "$dj" | head -c 300)"
            fi
            drc=$(kv doctor_rc "$st")
            want_rc=0
            ((nfail > 0)) && want_rc=1
            if [[ "$drc" == "$want_rc" ]]; then
                pass "$id: doctor exit $drc with $nfail fail verdict(s)"
            else
                fail "$id: doctor exit $drc with $nfail fail verdict(s) (expected $want_rc): $(jq -r '.verdicts[] | select(.severity == "fail") | .check' "$dj" | tr '\n' ' ')"
            fi
            if [[ -n "$(kv chronyd_pid "$st")" ]]; then
                running=$(jq -r '[.verdicts[] | select(.check == "chrony-running") | .severity][0] // "none"' "$dj")
                refclock=$(jq -r '[.verdicts[] | select(.check == "chrony-refclock") | .severity][0] // "none"' "$dj")
                listed=no
                grep -qE '^#. PPS ' "$mdir/chrony.txt" 2>/dev/null && listed=yes
                chrony="running $running, refclock $refclock, chronyc lists PPS: $listed"
                if [[ "$running" == ok && "$refclock" == ok && "$listed" == yes ]]; then
                    chrony=ok
                    grep -qE '^#\* PPS ' "$mdir/chrony.txt" && chrony="ok, PPS selected"
                    pass "$id: chronyd with refclock PPS $(jq -r '.system.pps.device' "$dj"): $chrony"
                else
                    fail "$id: chronyd with refclock PPS: $chrony (chronyd.log: $(tail -n 2 "$mdir/chronyd.log" 2>/dev/null | tr '\n' ' '))"
                fi
            fi
        else
            fail "$id: doctor gave no JSON (exit $(kv doctor_rc "$st")): $(head -c 300 "$mdir/doctor.err" 2>/dev/null)"
        fi
        delay_median=$(while read -r tag _ _ _ ts raised; do [[ "$tag" == OK ]] && echo $((ts - raised)); done <"$joined" | median)
        printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$config" "$mode" "$context" "$ok/$n" "$missed" \
            "$gok/$gn" "$doc_ctx" "$doc_sev" "$handler" "$chrony" "$delay_median" >>"$tsv"

        # The delay capture: same header, one pulse per matched line, timestamp moved to
        # intended edge + (timestamp - IRQ raised).
        if ((ok > 0)); then
            dcap="$out/delay/$config-$mode.csv"
            {
                head -n 1 "$mdir/pps.csv"
                printf '# meta %s\n' "$(sed -n 's/^# meta //p' "$mdir/pps.csv" | jq -c --arg l "$config-$mode" \
                    '.label = $l | .source = ("lab-delay:" + .source) | .lab_derived = "ppsbench lab: timestamp = intended edge + (PPS timestamp - IRQ raised), from the module records (tests/lab/check-ppsbench.sh)"')"
                echo "sequence,edge,timestamp_ns"
                while read -r tag seq _ intended ts raised; do
                    [[ "$tag" == OK ]] && printf '%s,assert,%s\n' "$seq" "$((intended + ts - raised))"
                done <"$joined"
                grep '^# end ' "$mdir/pps.csv" || true
            } >"$dcap"
        fi
    done
done

# 5-7. compare, gate and order over all runs
have() { "$pb" "$1" --help >/dev/null 2>&1; }
run_logged() { # run_logged FILE CMD...: save the command and its output, return its exit code
    local file="$1" rc=0
    shift
    # Shown as run from the results directory, so the logs read the same on every machine.
    local shown="${*/#$pb/ppsbench}"
    { printf '$ %s\n' "${shown//$res\//}"; (cd "$res" && "${@//$res\//}") 2>&1 || rc=$?; printf '(exit %d)\n' "$rc"; } >"$file"
    return "$rc"
}
pick() { # pick CONTEXT [CONFIG...]: the first config/mode with that context, preferring the configs given
    local want="$1" id c
    shift
    for c in "$@" ""; do
        for id in $(printf '%s\n' "${!context_of[@]}" | sort); do
            [[ "${context_of[$id]}" == "$want" && (-z "$c" || "$id" == "$c/"*) ]] && { echo "$id"; return 0; }
        done
    done
    return 1
}
# Rows in the order the story is told: stock, threadirqs, rt; threaded, split, nothread.
ordered=()
for c in stock threadirqs rt; do
    for m in threaded split nothread; do
        [[ -n "${context_of[$c/$m]:-}" && -f "$out/delay/$c-$m.csv" ]] && ordered+=("$c/$m")
    done
done
base_id=stock/threaded
[[ -n "${context_of[$base_id]:-}" ]] || base_id=$(pick hard stock) || base_id=""

if ! have compare || ! have gate; then
    lab_log "note: $pb has no compare/gate subcommand yet; checks 5-7 skipped"
elif [[ -z "$base_id" || ${#ordered[@]} -lt 2 ]]; then
    lab_log "note: compare/gate need a hard-IRQ baseline and another run; skipped"
else
    raw=() delay=()
    for id in "${ordered[@]}"; do
        [[ "$id" == "$base_id" ]] && continue
        raw+=("$res/$id/pps.csv")
        delay+=("$out/delay/${id/\//-}.csv")
    done
    base_raw="$res/$base_id/pps.csv" base_delay="$out/delay/${base_id/\//-}.csv"
    for fmt in text markdown; do
        for kind in raw delay; do
            if [[ $kind == raw ]]; then b=$base_raw files=("${raw[@]}"); else b=$base_delay files=("${delay[@]}"); fi
            if run_logged "$out/compare-$kind.$fmt.txt" "$pb" compare --baseline "$b" "${files[@]}" --format "$fmt"; then
                pass "compare ($kind captures, $fmt): $((${#files[@]} + 1)) runs"
            else
                fail "compare ($kind captures, $fmt) failed: $(tail -n 2 "$out/compare-$kind.$fmt.txt" | tr '\n' ' ')"
            fi
        done
    done
    cat "$out/compare-raw.text.txt" "$out/compare-delay.text.txt" >&2

    # 6. gate. A regression: each thread-context run against the stock hard-IRQ baseline.
    for thread_id in rt/threaded threadirqs/threaded; do
        [[ "${context_of[$thread_id]:-}" == thread ]] || continue
        rc=0
        name="gate-${thread_id/\//-}"
        run_logged "$out/$name.txt" "$pb" gate --baseline "$base_delay" "$out/delay/${thread_id/\//-}.csv" \
            --max-ratio 1.25 --junit "$out/$name.junit.xml" || rc=$?
        if ((rc == 1)); then
            pass "gate: $thread_id (thread) against $base_id (hard IRQ), --max-ratio 1.25: exit 1 (regression)"
        else
            fail "gate: $thread_id (thread) against $base_id (hard IRQ), --max-ratio 1.25: exit $rc, expected 1: $(tail -n 3 "$out/$name.txt" | tr '\n' ' ')"
        fi
    done
    # No regression, A/A: the baseline's own pulses, odd against even. Same handler, same
    # boot, same seconds, so the same noise. Two separate hard-IRQ runs are not an A/A pair
    # under TCG, even on one boot: the emulated machine's noise follows the host's load, and
    # stock threaded vs nothread (identical handler) gave sigma ratios of 0.88-3.86 over six
    # runs with the 95 % lower bound above 1.25 twice (docs/lab.md); that pair is logged below.
    half() { # half PARITY: the baseline delay capture's pulses of that parity (1 odd, 0 even)
        local n=0 line
        while IFS= read -r line; do
            if [[ "$line" =~ ^[0-9]+, ]]; then
                n=$((n + 1))
                ((n % 2 == $1)) && printf '%s\n' "$line"
            elif [[ "$line" == "# meta "* ]]; then
                printf '# meta %s\n' "$(jq -c --arg p "$([[ $1 == 1 ]] && echo odd || echo even)" \
                    '.label += "-" + $p + " pulses"' <<<"${line#\# meta }")"
            elif [[ "$line" != "# end "* ]]; then
                printf '%s\n' "$line"
            fi
        done <"$base_delay"
        return 0
    }
    aa="${base_id/\//-}"
    half 1 >"$out/delay/$aa-odd.csv"
    half 0 >"$out/delay/$aa-even.csv"
    rc=0
    run_logged "$out/gate-aa.txt" "$pb" gate --baseline "$out/delay/$aa-odd.csv" "$out/delay/$aa-even.csv" --max-ratio 1.25 || rc=$?
    if ((rc == 0)); then
        pass "gate: $base_id even pulses against its odd pulses (A/A, hard IRQ), --max-ratio 1.25: exit 0"
    else
        fail "gate: $base_id even pulses against its odd pulses (A/A, hard IRQ), --max-ratio 1.25: exit $rc, expected 0: $(tail -n 3 "$out/gate-aa.txt" | tr '\n' ' ')"
    fi
    # Not asserted, recorded: hard IRQ on another kernel (rt/split, the RT-safe fix). Its σ under
    # TCG differs from stock's by a factor that is real for the emulated kernels (often
    # statistically supported), so a 1.25 limit across kernels may fail; docs/lab.md has numbers.
    # Nor the raw captures: their phase is mostly the emulated timer's lateness, which varies
    # between modes of one boot as much as the thread's delay does.
    info_gate() { # info_gate NAME BASELINE CURRENT
        local rc=0
        run_logged "$out/$1.txt" "$pb" gate --baseline "$2" "$3" --max-ratio 1.25 || rc=$?
        lab_log "info (not asserted): $1: exit $rc: $(grep -m1 -E '\[(pass|FAIL)\]' "$out/$1.txt" | sed 's/^ *//')"
    }
    [[ "${context_of[stock/nothread]:-}" == hard && "$base_id" == stock/threaded ]] && info_gate gate-stock-nothread "$base_delay" "$out/delay/stock-nothread.csv"
    [[ "${context_of[rt/split]:-}" == hard && "$base_id" != rt/split ]] && info_gate gate-rt-split "$base_delay" "$out/delay/rt-split.csv"
    [[ -n "${context_of[rt/threaded]:-}" ]] && info_gate gate-raw-rt-threaded "$base_raw" "$res/rt/threaded/pps.csv"
    [[ -n "${context_of[stock/nothread]:-}" ]] && info_gate gate-raw-stock-nothread "$base_raw" "$res/stock/nothread/pps.csv"
fi

# chrony: ppsbench read an RMS offset synchronised to PPS in at least one run.
if ((${chrony_runs:-0} > 0)); then
    if ((${chrony_rms_runs:-0} > 0)); then
        pass "chrony: ppsbench run recorded chrony's RMS offset, synchronised to the PPS refclock, at the end of $chrony_rms_runs of $chrony_runs runs"
    else
        fail "chrony: in none of $chrony_runs runs did ppsbench's last chrony sample show chronyd synchronised to PPS (see <config>/<mode>/chrony.txt)"
    fi
fi

# 7. order, from the delay captures' median (independent of compare's output format)
tmin="" hmax=""
for id in "${ordered[@]}"; do
    m=$(awk -F'\t' -v c="${id%/*}" -v md="${id#*/}" '$1==c && $2==md {print $11}' "$tsv")
    [[ "$m" =~ ^[0-9]+$ ]] || continue
    if [[ "${context_of[$id]}" == thread ]]; then
        if [[ -z "$tmin" ]] || ((m < tmin)); then tmin=$m; fi
    elif [[ -z "$hmax" ]] || ((m > hmax)); then
        hmax=$m
    fi
done
if [[ -n "$tmin" && -n "$hmax" ]]; then
    if ((tmin > factor * hmax)); then
        pass "order: fastest thread-context median delay $((tmin / 1000)) us > $factor x slowest hard-IRQ median $((hmax / 1000)) us"
    else
        fail "order: fastest thread-context median delay $((tmin / 1000)) us is not above $factor x slowest hard-IRQ median $((hmax / 1000)) us"
    fi
fi

# The table for docs/ and the CI log.
{
    echo "QEMU-emulated (TCG, no KVM): the delay is emulated time, for order only."
    echo
    echo "| config | handler mode | timestamp taken in (module record) | pps.csv = records | GPIO events matched | doctor: pps-timestamp-context | doctor: handler | chronyd (refclock PPS) | median IRQ raised → PPS timestamp (µs) |"
    echo "|---|---|---|---|---|---|---|---|---|"
    for id in "${ordered[@]}"; do
        awk -F'\t' -v c="${id%/*}" -v md="${id#*/}" '$1==c && $2==md {
            ctx = ($3 == "thread" ? "thread" : ($3 == "hard" ? "hard IRQ" : $3))
            printf "| %s | %s | %s | %s | %s | %s (%s) | %s | %s | %.1f |\n", $1, $2, ctx, $4, $6, $8, $7, $9, $10, $11 / 1000 }' "$tsv"
    done
} >"$out/summary.md"
cat "$out/summary.md" >&2
printf '%d %d\n' "$passes" "$fails" >"$res/check-ppsbench.counts"
if ((fails)); then
    lab_log "ppsbench: $fails check(s) failed"
    exit 1
fi
lab_log "ppsbench: all checks passed"
