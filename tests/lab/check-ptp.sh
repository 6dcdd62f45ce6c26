#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Issue 17 checks: the module's PTP clock as the hardware reference for the PPS path
# (guest/ptp.sh), against the module's records.
#
# Usage: check-ptp.sh RESULTS_DIR
#   PPSBENCH_LAB_PPSBENCH      the host's ppsbench binary (default: build/ppsbench)
#   PPSBENCH_LAB_PTP_FACTOR    "thread-context bias >> hard-IRQ bias" means more than this many
#                              times (default 5)
# Writes RESULTS_DIR/ptp/ (summary.md, summary.tsv) and RESULTS_DIR/check-ptp.counts.
#
# The clock latches each edge when the timer raises the PPS line (raised_ns in the records) and
# reads CLOCK_REALTIME + ptp_offset_ns. So, per configuration and handler mode:
#  1. run --source ptp:/dev/ptpN --source pps:/dev/ppsN exits 0 with N pulses on each path,
#     and the PTP path's metadata names the cross-timestamp used (extended, the module's default).
#  2. Every PTP pulse, moved to CLOCK_REALTIME by ppsbench, equals its edge's raised_ns within
#     the uncertainty ppsbench recorded beside it (phc_offset_uncertainty_ns): the conversion
#     is as good as it says.
#  3. Every paired edge's PPS − PTP difference equals the module's own raise -> timestamp delay
#     of that edge (ts_ns − raised_ns) within the same uncertainty; ppsbench pairs all N edges.
#  4. The bias ppsbench reports (`report --metrics bias_median,bias_mean` on the PPS path's
#     file, when the binary has those metrics) equals the records' median / mean delay within
#     the largest uncertainty of the run.
#  5. Order: every thread-context run's median bias is more than FACTOR x every hard-IRQ run's.
#     And `gate --max-bias-growth 2us` of each mode's PPS path against the split mode's of the
#     same boot exits 1 exactly when that mode's timestamps were taken in a thread.
# Once per boot (split mode):
#  6. The precise cross-timestamp gives every edge's raise time to the nanosecond, and the
#     basic one is used (and recorded) when the clock offers nothing better.
#  7. Errors, one line each, exit 2: no such clock, extts channel out of range, pin out of
#     range, a refused edge, the channel busy (its pin unassigned, as igb refuses); pin=0
#     assigns the pin for the run and puts the unassigned function back afterwards.
set -euo pipefail
source "$(dirname "$0")/lib.sh"

(($# == 1)) || lab_die "usage: check-ptp.sh RESULTS_DIR"
[[ -d "$1" ]] || lab_die "no results directory $1"
res="$(cd "$1" && pwd)"
pb="${PPSBENCH_LAB_PPSBENCH:-$LAB_DIR/../../build/ppsbench}"
[[ -x "$pb" ]] || lab_die "no ppsbench binary $pb; build it or set PPSBENCH_LAB_PPSBENCH"
factor="${PPSBENCH_LAB_PTP_FACTOR:-5}"
out="$res/ptp"
rm -rf "$out"
mkdir -p "$out"
margins="$res/check-ptp.margins.tsv"
: >"$margins"

fails=0 passes=0
fail() { printf '[lab] FAIL %s\n' "$*" >&2; fails=$((fails + 1)); }
pass() { printf '[lab] ok   %s\n' "$*" >&2; passes=$((passes + 1)); }
# Pulse lines with their extra columns: sequence,edge,timestamp_ns[,...].
rows() { grep -E '^[0-9]+,(assert|clear),-?[0-9]+(,-?[0-9]+)*$' "$1" 2>/dev/null || true; }
meta_has() { grep -m1 '^# meta ' "$1" 2>/dev/null | grep -q "$2"; }
abs() { local v=$1; echo $((v < 0 ? -v : v)); }

tsv="$out/summary.tsv"
printf 'config\tmode\tcontext\tmethod\tpairs\tmedian_delay_ns\tppsbench_median_ns\tppsbench_mean_ns\tmax_conversion_error_ns\tmax_uncertainty_ns\n' >"$tsv"
declare -A bias_of=() context_of=()

mapfile -t mode_dirs < <(lab_mode_dirs "$res")
for mdir in "${mode_dirs[@]}"; do
    config=$(basename "$(dirname "$mdir")") mode=$(basename "$mdir")
    id="$config/$mode"
    st="$mdir/ptp.txt" rec="$mdir/records.txt"
    if [[ ! -f "$st" || ! -f "$rec" ]]; then
        fail "$id: guest/ptp.sh left no results: $(tr '\n' ' ' <"$mdir/failed" 2>/dev/null)"
        continue
    fi
    if [[ -n "$(kv no_ptp_dev "$st")" ]]; then
        fail "$id: the module registered no PTP clock (insmod: $(tr '\n' ' ' <"$mdir/insmod.txt" 2>/dev/null))"
        continue
    fi
    count=$(sed -n 's/.*ppsbench.count=\([0-9]*\).*/\1/p' "$mdir/info.txt" | head -n 1)
    period_ns=$(($(sed -n 's/.* period_ms=\([0-9]*\).*/\1/p' "$rec" | head -n 1) * 1000000))
    # The records by intended edge (a multiple of the period): raise time, PPS timestamp,
    # and the context the timestamp was taken in.
    declare -A raised_of=() ts_of=()
    hard=0 thread=0
    while read -r _ intended _ raised _ ts _ pps_seq hardirq _; do
        raised_of[$intended]=$raised
        ts_of[$intended]=$ts
        if ((pps_seq > 0)); then
            if ((hardirq)); then hard=$((hard + 1)); else thread=$((thread + 1)); fi
        fi
    done < <(grep -E '^[0-9]+ ' "$rec")
    context=mixed
    ((thread == 0 && hard > 0)) && context=hard
    ((hard == 0 && thread > 0)) && context=thread
    context_of[$id]=$context

    # 1. the two-path run
    d1="$mdir/ptp-dual-1.csv" d2="$mdir/ptp-dual-2.csv"
    n1=$(rows "$d1" | wc -l) n2=$(rows "$d2" | wc -l)
    rc=$(kv ptp_dual_rc "$st")
    if [[ "$rc" == 0 && "$n1" == "$count" && "$n2" == "$count" ]]; then
        pass "$id: run --source ptp --source pps: exit 0, $n1 + $n2 pulses"
    else
        fail "$id: run --source ptp --source pps: exit ${rc:-none}, $n1/$count + $n2/$count pulses: $(tail -n 3 "$mdir/ptp-dual-run.txt" 2>/dev/null | tr '\n' ' ')"
        continue
    fi
    method=$(grep -m1 '^# meta ' "$d1" | grep -o '"cross_timestamp":"[a-z]*"' | cut -d'"' -f4 || true)
    if [[ "$method" == extended ]]; then
        pass "$id: the PTP path records its cross-timestamp: $method"
    else
        fail "$id: the PTP path's metadata names cross_timestamp '${method:-none}', want extended"
    fi

    # 2. each PTP pulse on CLOCK_REALTIME = the edge's raise, within its stated uncertainty
    declare -A ptp_of=() unc_of=()
    bad=0 max_err=0 max_unc=0 worst=0 # worst: the largest error / uncertainty, in thousandths
    while IFS=, read -r _ _ ts _ unc; do
        key=$(((ts + period_ns / 2) / period_ns * period_ns))
        ptp_of[$key]=$ts
        unc_of[$key]=$unc
        raised=${raised_of[$key]:-}
        if [[ -z "$raised" ]]; then
            bad=$((bad + 1))
            continue
        fi
        err=$(abs $((ts - raised)))
        ((err > max_err)) && max_err=$err
        ((unc > max_unc)) && max_unc=$unc
        ((unc > 0 && err * 1000 / unc > worst)) && worst=$((err * 1000 / unc))
        ((err <= unc)) || bad=$((bad + 1))
    done < <(rows "$d1")
    lab_margin "$margins" "PTP pulse = its edge's raise time: error / stated uncertainty, worst edge" "$id" "$(awk -v w="$worst" 'BEGIN { print w / 1000 }')" '<' 1
    if ((bad == 0)); then
        pass "$id: every PTP pulse is its edge's raise time within the stated uncertainty (largest error $max_err ns, largest uncertainty $max_unc ns)"
    else
        fail "$id: $bad/$n1 PTP pulses are not their edge's raise time within the uncertainty ppsbench recorded (largest error $max_err ns, uncertainty up to $max_unc ns)"
    fi

    # 3. per edge: PPS − PTP = the module's raise -> timestamp delay, within the uncertainty
    bad=0 pairs=0 worst=0
    : >"$out/$config-$mode-delays.txt"
    while IFS=, read -r _ _ ts; do
        key=$(((ts + period_ns / 2) / period_ns * period_ns))
        ptp=${ptp_of[$key]:-}
        [[ -n "$ptp" && -n "${raised_of[$key]:-}" ]] || continue
        pairs=$((pairs + 1))
        delay=$((${ts_of[$key]} - ${raised_of[$key]}))
        diff=$((ts - ptp))
        echo "$delay $diff" >>"$out/$config-$mode-delays.txt"
        err=$(abs $((diff - delay)))
        ((${unc_of[$key]} > 0 && err * 1000 / ${unc_of[$key]} > worst)) && worst=$((err * 1000 / ${unc_of[$key]}))
        ((err <= ${unc_of[$key]})) || bad=$((bad + 1))
    done < <(rows "$d2" | cut -d, -f1-3)
    lab_margin "$margins" "PPS − PTP = the module's delay: error / stated uncertainty, worst edge" "$id" "$(awk -v w="$worst" 'BEGIN { print w / 1000 }')" '<' 1
    reported_pairs=$(grep -m1 -oE '[0-9]+ pairs' "$mdir/ptp-dual-run.txt" | cut -d' ' -f1 || true)
    if ((bad == 0 && pairs == count)) && [[ "$reported_pairs" == "$pairs" ]]; then
        pass "$id: all $pairs edges paired, and each one's PPS − PTP equals the module's raise -> timestamp delay within the uncertainty"
    else
        fail "$id: $bad/$pairs paired edges differ from the module's delay by more than the uncertainty; ppsbench reported ${reported_pairs:-no} pairs of $count"
    fi
    median_delay=$(cut -d' ' -f1 "$out/$config-$mode-delays.txt" | median)
    mean_delay=$(awk '{ s += $1 } END { if (NR) printf "%.1f\n", s / NR; else print "nan" }' "$out/$config-$mode-delays.txt")

    # 4. the bias ppsbench reports
    pb_median=- pb_mean=-
    if report=$("$pb" report "$d2" --format csv --metrics bias_median,bias_mean 2>"$out/$config-$mode-report.err"); then
        line=$(echo "$report" | grep -v '^#' | sed -n 2p)
        pb_median=$(echo "$line" | awk -F, '{ print $(NF - 1) }')
        pb_mean=$(echo "$line" | awk -F, '{ print $NF }')
        lab_margin "$margins" "reported bias median and mean = the records' (± largest uncertainty)" "$id" \
            "$(awk -v a="$pb_median" -v b="$median_delay" -v c="$pb_mean" -v d="$mean_delay" 'BEGIN {
                e1 = a - b; e2 = c - d; if (e1 < 0) e1 = -e1; if (e2 < 0) e2 = -e2; print (e1 > e2 ? e1 : e2) }')" '<' "$(awk -v u="$max_unc" 'BEGIN { print u + 0.5 }')"
        if awk -v a="$pb_median" -v b="$median_delay" -v c="$pb_mean" -v d="$mean_delay" -v u="$max_unc" \
            'BEGIN { e1 = a - b; e2 = c - d; if (e1 < 0) e1 = -e1; if (e2 < 0) e2 = -e2; exit !(e1 <= u + 0.5 && e2 <= u + 0.5) }'; then
            pass "$id: reported bias median $pb_median ns, mean $pb_mean ns = the records' $median_delay / $mean_delay ns within ±$max_unc ns"
        else
            fail "$id: reported bias median $pb_median ns, mean $pb_mean ns; the records say $median_delay / $mean_delay ns (allowed ±$max_unc ns)"
        fi
    elif grep -q "unknown metric\|bias_median" "$out/$config-$mode-report.err"; then
        [[ -n "${bias_note:-}" ]] || lab_log "note: this ppsbench has no bias metrics: reported bias not checked"
        bias_note=1
    else
        fail "$id: ppsbench report $d2 failed: $(head -c 300 "$out/$config-$mode-report.err")"
    fi
    bias_of[$id]=$median_delay
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$config" "$mode" "$context" "$method" "$pairs" \
        "$median_delay" "$pb_median" "$pb_mean" "$max_err" "$max_unc" >>"$tsv"
    unset raised_of ts_of ptp_of unc_of

    [[ "$mode" == split ]] || continue
    short=$(kv short_count "$st")
    # 6. the precise and the basic cross-timestamp
    for m in precise basic; do
        f="$mdir/ptp-$m.csv"
        n=$(rows "$f" | wc -l)
        if [[ "$(kv "ptp_${m}_rc" "$st")" == 0 && "$n" == "$short" ]] && meta_has "$f" "\"cross_timestamp\":\"$m\""; then
            pass "$config: ptp clock with only the $m cross-timestamp: exit 0, $n pulses, recorded as $m"
        else
            fail "$config: ptp clock with only the $m cross-timestamp: exit $(kv "ptp_${m}_rc" "$st"), $n/$short pulses: $(tail -n 2 "$mdir/ptp-$m-run.txt" | tr '\n' ' ')"
        fi
    done
    # The precise sample latches both clocks at once: every edge to the nanosecond.
    exact=$(rows "$mdir/ptp-precise.csv" | cut -d, -f3 | while read -r ts; do
        key=$(((ts + period_ns / 2) / period_ns * period_ns))
        grep -qE "^[0-9]+ $key [0-9]+ $ts " "$rec" && echo ok
    done | wc -l)
    if [[ "$exact" == "$short" ]]; then
        pass "$config: precise cross-timestamps: all $exact edges at their raise time to the nanosecond"
    else
        fail "$config: precise cross-timestamps: $exact/$short edges at their raise time to the nanosecond"
    fi
    # 7. errors and the pin
    for e in "err-nodev:no such PTP hardware clock" \
        "err-extts:extts=1: the clock has 1 external-timestamp channel" \
        "err-pin:pin=3: the clock has 1 programmable pins" \
        "err-edge:refused external timestamps on channel 0 for the falling edge" \
        "err-busy:channel 0 is busy"; do
        name=${e%%:*} want=${e#*:}
        f="$mdir/ptp-$name-run.txt"
        rc=$(kv "ptp_${name}_rc" "$st")
        if [[ "$rc" == 2 ]] && [[ $(grep -c . "$f") == 1 ]] && grep -q "$want" "$f"; then
            pass "$config: $name: exit 2, one line: $(head -c 160 "$f")"
        else
            fail "$config: $name: exit ${rc:-none} (want 2), want one line with '$want': $(head -c 300 "$f" | tr '\n' ' ')"
        fi
    done
    n=$(rows "$mdir/ptp-pin.csv" | wc -l)
    before=$(kv pin_before "$st") unassigned=$(kv pin_unassigned "$st") after=$(kv pin_after "$st")
    if [[ "$(kv ptp_pin_rc "$st")" == 0 && "$n" == "$short" && "$before" == "1 0" && "$unassigned" == "0 0" && "$after" == "0 0" ]]; then
        pass "$config: pin=0 on an unassigned pin: exit 0, $n pulses, the pin back to '$after' afterwards"
    else
        fail "$config: pin=0: exit $(kv ptp_pin_rc "$st"), $n/$short pulses, pin '$before' -> '$unassigned' -> after the run '$after' (want 1 0 -> 0 0 -> 0 0)"
    fi
done

# 5. order: thread-context bias >> hard-IRQ bias
tmin="" hmax=""
for id in "${!bias_of[@]}"; do
    b=${bias_of[$id]}
    [[ "$b" =~ ^[0-9]+$ ]] || continue
    if [[ "${context_of[$id]}" == thread ]]; then
        if [[ -z "$tmin" ]] || ((b < tmin)); then tmin=$b; fi
    elif [[ "${context_of[$id]}" == hard ]]; then
        if [[ -z "$hmax" ]] || ((b > hmax)); then hmax=$b; fi
    fi
done
if [[ -n "$tmin" && -n "$hmax" ]]; then
    lab_margin "$margins" "PTP bias order: thread-context median bias > $factor × hard-IRQ" all "$tmin" '>' $((factor * hmax))
    if ((tmin > factor * hmax)); then
        pass "bias order: smallest thread-context median bias $tmin ns > $factor x largest hard-IRQ median bias ($hmax ns)"
    else
        fail "bias order: smallest thread-context median bias $tmin ns is not above $factor x largest hard-IRQ median bias ($hmax ns)"
    fi
else
    lab_log "note: bias order not checked (thread-context runs: ${tmin:-none}, hard-IRQ runs: ${hmax:-none})"
fi

# 5b. the bias-growth gate against the split mode of the same boot
: >"$out/gates.tsv"
for id in $(printf '%s\n' "${!bias_of[@]}" | sort); do
    c=${id%/*} m=${id#*/}
    [[ "$m" == split && -n "${bias_of[$c/split]:-}" ]] && continue
    [[ -n "${bias_of[$c/split]:-}" ]] || continue
    want=0
    [[ "${context_of[$id]}" == thread ]] && want=1
    rc=0
    "$pb" gate --baseline "$res/$c/split/ptp-dual-2.csv" "$res/$id/ptp-dual-2.csv" --max-bias-growth 2us \
        >"$out/gate-$c-$m.txt" 2>&1 || rc=$?
    printf '%s vs %s/split\t%s\t%s\t%s\n' "$id" "$c" "$want" "$rc" "$(grep -m1 -oE 'growth [+−-][^;]*' "$out/gate-$c-$m.txt" || true)" >>"$out/gates.tsv"
    # The 95 % interval of the growth, "CI +10.7 µs to +10.7 µs": a thread must have its lower
    # bound above 2 µs, a hard IRQ both bounds within ±2 µs.
    read -r lo_ns hi_ns < <(grep -m1 -oE 'CI [+−-]?[0-9.]+ [nµm]?s to [+−-]?[0-9.]+ [nµm]?s' "$out/gate-$c-$m.txt" |
        sed -E 's/CI (.*) to (.*)/\1|\2/' | { IFS='|' read -r a b && echo "$(to_ns "$a") $(to_ns "$b")"; }) || true
    if ((want)); then
        lab_margin "$margins" "bias growth against split, thread (gate --max-bias-growth 2us exits 1): CI lower bound" "$id" "${lo_ns:-}" '>' 2000
    else
        lab_margin "$margins" "bias growth against split, hard IRQ (gate --max-bias-growth 2us exits 0): CI bound's size" "$id" \
            "$(awk -v a="${lo_ns:-x}" -v b="${hi_ns:-x}" 'BEGIN { if (a b ~ /x/) exit; a = a < 0 ? -a : a; b = b < 0 ? -b : b; print (a > b ? a : b) }')" '<' 2000
    fi
    if [[ "$rc" == "$want" ]]; then
        pass "gate --max-bias-growth 2us: $id against $c/split exits $rc ($(grep -m1 -oE 'growth [+−-][^;]*' "$out/gate-$c-$m.txt"))"
    else
        fail "gate --max-bias-growth 2us: $id against $c/split exits $rc, want $want: $(tail -n 2 "$out/gate-$c-$m.txt" | tr '\n' ' ')"
    fi
done

{
    echo "QEMU TCG with -icount shift=1,sleep=off: instruction-counted guest time, not hardware time."
    echo
    echo "| config | handler mode | timestamp taken in | cross-timestamp | pairs | median raise → PPS timestamp, records (µs) | bias median, ppsbench (µs) | bias mean, ppsbench (µs) | largest conversion error (ns) | largest stated uncertainty (ns) |"
    echo "|---|---|---|---|---|---|---|---|---|---|"
    tail -n +2 "$tsv" | sort -t$'\t' -k1,1 -k2,2 | awk -F'\t' '{
        ctx = ($3 == "thread" ? "thread" : ($3 == "hard" ? "hard IRQ" : $3))
        pm = ($7 == "-" ? "-" : sprintf("%.3f", $7 / 1000)); pn = ($8 == "-" ? "-" : sprintf("%.3f", $8 / 1000))
        printf "| %s | %s | %s | %s | %s | %.3f | %s | %s | %s | %s |\n", $1, $2, ctx, $4, $5, $6 / 1000, pm, pn, $9, $10 }'
    if [[ -s "$out/gates.tsv" ]]; then
        echo
        echo "| gate --max-bias-growth 2us | expected exit | exit | median growth, 95 % CI |"
        echo "|---|---|---|---|"
        awk -F'\t' '{ printf "| %s | %s | %s | %s |\n", $1, $2, $3, $4 }' "$out/gates.tsv"
    fi
} >"$out/summary.md"
cat "$out/summary.md" >&2
printf '%d %d\n' "$passes" "$fails" >"$res/check-ptp.counts"
if ((fails)); then
    lab_log "ptp: $fails check(s) failed"
    exit 1
fi
lab_log "ptp: all checks passed"
