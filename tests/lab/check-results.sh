#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Check the lab's results against the module's ground truth and print the results table.
#
# Usage: check-results.sh RESULTS_DIR
#   RESULTS_DIR/<config>/<mode>/{info.txt,records.txt,ppsfetch.txt,gpioevents.txt,irqthreads.txt}
# Writes RESULTS_DIR/summary.md, summary.tsv and check-results.counts ("PASSED FAILED").
# Exit 1 when any check fails.
#
# What is asserted (facts and order only; emulated timing is too noisy for absolute numbers):
#  1. /dev/ppsN and /dev/gpiochipN exist; ppsfetch and gpioevents got every pulse they asked for.
#  2. Every timestamp ppsfetch read equals, to the nanosecond, the module's record with the same
#     PPS sequence number.
#  3. The context the module recorded: the timestamp is taken in a thread exactly when the
#     handler is force-threaded (mode=threaded on PREEMPT_RT or with threadirqs), in hard IRQ
#     otherwise; a thread-context timestamp ran in the irq/N-ppsbench-lab thread.
#  4. An irq/N- thread for the PPS IRQ exists exactly when the mode has one (split always;
#     threaded only when forced), so its presence alone does not mean threaded timestamps.
#  5. Every GPIO event matches a recorded edge (0 <= event - line raised < pulse width).
#  6. Order: every thread-context run's median delay (PPS timestamp - IRQ raised) is more than
#     PPSBENCH_LAB_ORDER_FACTOR (default 2) times every hard-IRQ run's and every run's GPIO
#     event delay (gpiolib-cdev v1 stamps events in its hard-IRQ handler, also on PREEMPT_RT).
#     Delays are measured from the raise, not from the intended edge, because the emulated
#     hrtimer's own lateness (tens to hundreds of us, varying per boot) is common to every
#     mode and would drown the difference; ts - intended edge is reported, not asserted.
set -euo pipefail
source "$(dirname "$0")/lib.sh"

(($# == 1)) || lab_die "usage: check-results.sh RESULTS_DIR"
res="$1"
[[ -d "$res" ]] || lab_die "no results directory $res"
factor="${PPSBENCH_LAB_ORDER_FACTOR:-2}"
margins="$res/check-results.margins.tsv"
: >"$margins"

fails=0 passes=0
fail() { printf '[lab] FAIL %s\n' "$*" >&2; fails=$((fails + 1)); }
pass() { printf '[lab] ok   %s\n' "$*" >&2; passes=$((passes + 1)); }

# ns_diff(a, b) = a - b for decimal strings of up to 19 digits whose difference is below 2^53:
# the high digits are subtracted apart from the low 12, so no intermediate exceeds 2^53.
# shellcheck disable=SC2016 # awk source
awk_ns_diff='function ns_diff(a, b,   la, lb) { la = length(a); lb = length(b)
    if (la < 16 || lb < 16) return a - b
    return (substr(a, 1, la - 12) - substr(b, 1, lb - 12)) * 1000000000000 + (substr(a, la - 11) - substr(b, lb - 11)) }'
export awk_ns_diff
us() { awk -v n="$1" 'BEGIN{if(n=="nan") print "n/a"; else printf "%.1f", n/1000}'; }

tsv="$res/summary.tsv"
printf 'config\tkernel\tmode\tcontext\tirq_thread\tfetched\tmatched\tmedian_ts_minus_edge_ns\tmedian_ts_minus_raised_ns\tmedian_gpio_minus_raised_ns\ttimer_late_edges\n' >"$tsv"

mapfile -t mode_dirs < <(lab_mode_dirs "$res")
for mdir in "${mode_dirs[@]}"; do
    config=$(basename "$(dirname "$mdir")") mode=$(basename "$mdir")
    id="$config/$mode"
    info="$mdir/info.txt" rec="$mdir/records.txt"
    if [[ ! -f "$info" || ! -f "$rec" ]]; then
        fail "$id: no results (insmod or test failed): $(cat "$mdir/insmod.txt" "$mdir/failed" 2>/dev/null | head -n 5)"
        continue
    fi
    kernel=$(sed -n 's/.*kernel=\([^ ]*\).*/\1/p' "$info" | head -n 1)
    realtime=$(kv realtime "$info")
    cmdline=$(kv cmdline "$info")
    forced=0
    [[ "$realtime" == 1 || " $cmdline " == *" threadirqs "* ]] && forced=1
    irq=$(sed -n 's/.* irq=\([0-9]*\).*/\1/p' "$rec" | head -n 1)
    period_ms=$(sed -n 's/.* period_ms=\([0-9]*\).*/\1/p' "$rec" | head -n 1)
    count=$(wc -l <"$mdir/ppsfetch.txt" 2>/dev/null || echo 0)

    # 1. devices and captures
    [[ "$(kv pps_exists "$info")" == 1 ]] || fail "$id: no PPS device"
    [[ "$(kv gpiochip_exists "$info")" == 1 ]] || fail "$id: no gpiochip device"
    [[ "$(kv ppsfetch_rc "$info")" == 0 ]] || fail "$id: ppsfetch failed: $(cat "$mdir/ppsfetch.err")"
    [[ "$(kv gpioevents_rc "$info")" == 0 ]] || fail "$id: gpioevents failed: $(cat "$mdir/gpioevents.err")"

    # 2. exact equality, joined on the PPS sequence number; prints per matched pulse:
    #    hardirq comm ts-intended ts-raised
    joined="$mdir/joined.txt"
    # awk numbers are doubles, exact only to 2^53 (~104 days in ns): compare the 19-digit
    # timestamps as strings and subtract them with ns_diff().
    awk "$awk_ns_diff"'
         NR==FNR { if ($1 !~ /^#/ && $8 > 0) { ts[$8]=$6; hi[$8]=$9; comm[$8]=$12; d0[$8]=ns_diff($6, $2); d1[$8]=ns_diff($6, $4) } next }
         $1=="assert" { if (!($2 in ts)) { print "MISSING", $2; next }
                        if (ts[$2] "" != $3 "") { print "DIFF", $2, $3, ts[$2]; next }
                        print "OK", $2, hi[$2], comm[$2], d0[$2], d1[$2] }' "$rec" "$mdir/ppsfetch.txt" >"$joined"
    matched=$(grep -c '^OK' "$joined" || true)
    if ((count > 0 && matched == count)); then
        pass "$id: $matched/$count fetched timestamps equal the module's records (sequence and ns)"
    else
        fail "$id: only $matched/$count fetched timestamps equal the records: $(grep -v '^OK' "$joined" | head -n 3 | tr '\n' ';')"
    fi

    # 3. context
    expect_hard=1
    [[ "$mode" == threaded && $forced == 1 ]] && expect_hard=0
    hard_n=$(awk '$1=="OK" && $3==1' "$joined" | wc -l)
    thread_ok=$(awk -v irq="$irq" '$1=="OK" && $3==0 && index($4, "irq/" irq "-")==1' "$joined" | wc -l)
    if ((expect_hard)); then
        context="hard IRQ"
        if ((matched > 0 && hard_n == matched)); then
            pass "$id: timestamps taken in hard IRQ"
        else
            fail "$id: expected hard-IRQ timestamps, $hard_n/$matched were"
        fi
    else
        context="thread"
        if ((matched > 0 && thread_ok == matched)); then
            pass "$id: timestamps taken in the irq/$irq- thread"
        else
            fail "$id: expected timestamps in irq/$irq- thread, $thread_ok/$matched were"
        fi
    fi

    # 4. thread presence
    expect_thread=0
    [[ "$mode" == split || ($mode == threaded && $forced == 1) ]] && expect_thread=1
    if grep -q " irq/$irq-" "$mdir/irqthreads.txt"; then has_thread=1; else has_thread=0; fi
    thread_desc=$(awk -v p="irq/$irq-" 'index($2, p)==1 {print $2, $3, $4; exit}' "$mdir/irqthreads.txt")
    [[ -n "$thread_desc" ]] || thread_desc="none"
    expected_word=absent
    ((expect_thread)) && expected_word=present
    if ((has_thread == expect_thread)); then
        pass "$id: irq/$irq thread: $thread_desc (expected: $expected_word)"
    else
        fail "$id: irq/$irq thread: $thread_desc (expected: $expected_word)"
    fi

    # 5. GPIO events against recorded edges (CLOCK_MONOTONIC); prints event - raise per event
    width_ns=$((period_ms * 1000000 / 5))
    gdel="$mdir/gpio_delay.txt"
    awk -v w="$width_ns" 'NR==FNR { if ($1 !~ /^#/ && $5 > 0) f[++n]=$5; next }
         $1=="event" { best=-1; for (i=1; i<=n; i++) { d=$3-f[i]; if (d>=0 && d<w) best=d }
                       print (best<0 ? "NOMATCH " $3 : best) }' "$rec" "$mdir/gpioevents.txt" >"$gdel"
    gcount=$(grep -vc NOMATCH "$gdel" || true)
    gtotal=$(wc -l <"$gdel")
    if ((gtotal > 0 && gcount == gtotal)); then
        pass "$id: $gcount/$gtotal GPIO events match recorded edges"
    else
        fail "$id: $gcount/$gtotal GPIO events match recorded edges"
    fi

    m_edge=$(awk '$1=="OK"{print $5}' "$joined" | median)
    m_raised=$(awk '$1=="OK"{print $6}' "$joined" | median)
    m_gpio=$(grep -v NOMATCH "$gdel" | median)
    late=$(sed -n 's/.* timer_late=\([0-9]*\).*/\1/p' "$rec" | head -n 1)
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$config" "$kernel" "$mode" "$context" \
        "$thread_desc" "$count" "$matched" "$m_edge" "$m_raised" "$m_gpio" "${late:-0}" >>"$tsv"
done

# Per configuration: dmesg splats from the module's handlers (e.g. sleeping in atomic on RT with
# NO_THREAD).
mapfile -t config_dirs < <(lab_config_dirs "$res")
for cdir in "${config_dirs[@]}"; do
    config=$(basename "$cdir")
    if [[ -f "$cdir/boot/dmesg.txt" ]] && grep -qE 'BUG:|WARNING:|Call Trace' "$cdir/boot/dmesg.txt"; then
        fail "$config: kernel reported a BUG/WARNING: $(grep -m1 -E 'BUG:|WARNING:' "$cdir/boot/dmesg.txt")"
    fi
done

# 6. order
read -r tmin hmax < <(awk -F'\t' 'NR>1 && $9!="nan" { if ($4=="thread") { if (t=="" || $9<t) t=$9 } else { if (h=="" || $9>h) h=$9 } }
                                 NR>1 && $10!="nan" { if (h=="" || $10>h) h=$10 }
                                 END { print (t==""?"none":t), (h==""?"none":h) }' "$tsv")
if [[ "$tmin" != none && "$hmax" != none ]]; then
    lab_margin "$margins" "records order: thread-context PPS median delay > $factor × hard-IRQ (PPS or GPIO)" all "$tmin" '>' "$(awk -v h="$hmax" -v f="$factor" 'BEGIN { print f * h }')"
    if awk -v t="$tmin" -v h="$hmax" -v f="$factor" 'BEGIN{exit !(t > f*h)}'; then
        pass "order: slowest hard-IRQ median (PPS or GPIO) $(us "$hmax") us x $factor < fastest thread-context PPS median $(us "$tmin") us"
    else
        fail "order: thread-context PPS median $(us "$tmin") us is not above $factor x the slowest hard-IRQ median (PPS or GPIO) $(us "$hmax") us"
    fi
else
    lab_log "order: not checked (need both a thread-context and a hard-IRQ run)"
fi
while IFS=$'\t' read -r config _ mode context _ _ _ _ mf mg _; do
    [[ "$context" == thread ]] || continue
    lab_margin "$margins" "records: GPIO event delay < threaded PPS delay" "$config/$mode" "$mg" '<' "$mf"
    if awk -v g="$mg" -v p="$mf" 'BEGIN{exit !(g != "nan" && g < p)}'; then
        pass "$config/$mode: GPIO event (hard IRQ) stamped sooner after its raise than the threaded PPS timestamp (median $(us "$mg") vs $(us "$mf") us)"
    else
        fail "$config/$mode: GPIO event median delay $(us "$mg") us not below the threaded PPS timestamp's $(us "$mf") us"
    fi
done < <(tail -n +2 "$tsv")

# The table, for docs/ and the CI log.
{
    echo "QEMU-emulated (TCG, no KVM): delays are emulated-time, for order only, not real hardware latency."
    echo
    echo "| config | kernel | handler mode | timestamp taken in | irq thread (policy, prio) | pulses (matched/fetched) | median ts − edge (µs) | median PPS ts − IRQ raised (µs) | median GPIO event − IRQ raised (µs) |"
    echo "|---|---|---|---|---|---|---|---|---|"
    tail -n +2 "$tsv" | while IFS=$'\t' read -r config kernel mode context thread count matched me mf mg late; do
        echo "| $config | $kernel | $mode | $context | $thread | $matched/$count | $(us "$me") | $(us "$mf") | $(us "$mg") |"
    done
} >"$res/summary.md"
cat "$res/summary.md"
# run-lab.sh adds these up for its final "lab: N passed, M failed" line.
printf '%d %d\n' "$passes" "$fails" >"$res/check-results.counts"

if ((fails)); then
    lab_log "$fails check(s) failed"
    exit 1
fi
lab_log "all checks passed"
