# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
# check-poll.sh's checks, one function per part; sourced by it (which documents what each proves).
# Uses: res out pb tsv ctsv gap margins, bias_of context_of (declared by check-poll.sh).
# shellcheck disable=SC2154 # those

fails=0 passes=0
fail() { printf '[lab] FAIL %s\n' "$*" >&2; fails=$((fails + 1)); }
pass() { printf '[lab] ok   %s\n' "$*" >&2; passes=$((passes + 1)); }
# Pulse lines with their extra columns: sequence,edge,timestamp_ns[,...].
rows() { grep -E '^[0-9]+,(assert|clear),-?[0-9]+(,-?[0-9]+)*$' "$1" 2>/dev/null || true; }
# A live file's run-window sample of NAME on the measured path (path="A"), empty when absent.
live_sample() { # live_sample PROM NAME
    sed -n "s/^$2{.*path=\"A\".*window=\"run\"} \(.*\)$/\1/p" "$1" 2>/dev/null | head -n 1
}
# The first "bias" object of a report document.
bias_json() { jq -c 'first(.. | objects | select(has("bias") and (.bias | type) == "object") | .bias)' "$1"; }

# Joins the records (by intended edge), the PPS path and the poll path. Prints "span N" (the
# poll path's edges within the PPS path's first and last: the poll path's --count spans twice
# the periods), then one line per edge the PPS path caught: "polled KEY DELAY DIFF UNC" (the
# poll path has the edge too) or
# "unpolled KEY EXPECTED" (ts − raised_ns interpolated between the polled edges around it, by
# period count, 2 to 4 periods apart: the report's own rule, src/analysis/bias.cpp).
join_poll() { # join_poll RECORDS PPS_CSV POLL_CSV PERIOD_NS
    # Times since the first record's second: awk's numbers are doubles, exact only below 2^53.
    awk -v P="$4" '
        function rel(t) { return (substr(t, 1, length(t) - 9) - S0) * 1000000000 + substr(t, length(t) - 8) }
        function key(t) { return sprintf("%.0f", int((rel(t) + P / 2) / P) * P) }
        FILENAME == ARGV[1] {
            if ($1 !~ /^[0-9]+$/) next
            if (S0 == "") S0 = substr($2, 1, length($2) - 9)
            k = sprintf("%.0f", rel($2)); raised[k] = rel($4); ts[k] = rel($6); next
        }
        FILENAME == ARGV[2] {
            split($0, f, ","); k = key(f[3]); pps[k] = rel(f[3])
            if (first == "" || k + 0 < first) first = k + 0
            if (last == "" || k + 0 > last) last = k + 0
            next
        }
        { split($0, f, ","); k = key(f[3]); poll[k] = rel(f[3]); unc[k] = f[4]; np++; pk[np] = k + 0 }
        END {
            n = np  # the poll path rows are in time order
            for (i = 1; i <= n; i++) if (pk[i] >= first && pk[i] <= last) span++
            printf "span %d\n", span
            for (k in pps) {
                if (!(k in raised)) continue
                if (k in poll) { printf "polled %s %.0f %.0f %.0f\n", k, ts[k] - raised[k], pps[k] - poll[k], unc[k]; continue }
                b = ""; a = ""
                for (i = 1; i <= n; i++) { if (pk[i] < k + 0) b = pk[i]; else if (pk[i] > k + 0) { a = pk[i]; break } }
                if (b == "" || a == "") continue
                b = sprintf("%.0f", b); a = sprintf("%.0f", a)
                if (!(b in raised) || !(a in raised)) continue
                periods = (a - b) / P; at = (k - b) / P
                if (periods < 2 || periods > 4 || at < 1 || at >= periods) continue
                edge = raised[b] + int((raised[a] - raised[b]) * at / periods + 0.5)
                printf "unpolled %s %.0f\n", k, ts[k] - edge
            }
        }' "$1" <(rows "$2") <(rows "$3")
}

check_poll_mode() { # check_poll_mode MODE_DIR
    local mdir=$1 config mode id st rec count period_ns context n1 n2 rc
    config=$(basename "$(dirname "$mdir")") mode=$(basename "$mdir")
    id="$config/$mode" st="$mdir/poll.txt" rec="$mdir/records.txt"
    if [[ ! -f "$st" || ! -f "$rec" ]]; then
        fail "$id: guest/poll.sh left no results: $(tr '\n' ' ' <"$mdir/failed" 2>/dev/null)"
        return
    fi
    if [[ -n "$(kv no_gpiomem_dev "$st")" ]]; then
        fail "$id: the module's level register device is missing (insmod: $(tr '\n' ' ' <"$mdir/insmod.txt" 2>/dev/null))"
        return
    fi
    count=$(sed -n 's/.*ppsbench.count=\([0-9]*\).*/\1/p' "$mdir/info.txt" | head -n 1)
    period_ns=$(($(sed -n 's/.* period_ms=\([0-9]*\).*/\1/p' "$rec" | head -n 1) * 1000000))
    context=$(awk '$1 ~ /^[0-9]+$/ && $8 > 0 { if ($9) h++; else t++ }
        END { print (t == 0 && h > 0) ? "hard" : (h == 0 && t > 0) ? "thread" : "mixed" }' "$rec")
    context_of[$id]=$context

    # 1. the run
    local d1="$mdir/poll-dual-1.csv" d2="$mdir/poll-dual-2.csv"
    n1=$(rows "$d1" | wc -l) n2=$(rows "$d2" | wc -l) rc=$(kv poll_dual_rc "$st")
    if [[ "$rc" == 0 && "$n1" == "$count" ]] && ((n2 >= 8)); then
        pass "$id: run --source pps --source $(kv poll_spec "$st"): exit 0, $n1 PPS pulses, $n2 polled edges"
    else
        fail "$id: run --source pps --source poll:mem: exit ${rc:-none}, $n1/$count PPS pulses, $n2 polled edges: $(tail -n 3 "$mdir/poll-dual-run.txt" 2>/dev/null | tr '\n' ' ')"
        return
    fi

    # 2. per polled edge: PPS − poll = ts_ns − raised_ns within the half-bracket (+1 ns)
    local joined="$out/$config-$mode-edges.txt"
    join_poll "$rec" "$d1" "$d2" "$period_ns" >"$joined"
    local pairs bad max_unc median_delay span polled_periods=$(((count + 1) / 2)) missed
    pairs=$(grep -c '^polled ' "$joined" || true)
    span=$(awk '$1 == "span" { print $2 }' "$joined")
    # Windows that missed the edge are allowed, and counted: polled periods with no poll edge.
    missed=$((polled_periods > span ? polled_periods - span : 0))
    bad=$(awk '$1 == "polled" { e = $4 - $3; if (e < 0) e = -e; if (e > $5 + 1) b++ } END { print b + 0 }' "$joined")
    max_unc=$(awk '$1 == "polled" && $5 > m { m = $5 } END { print m + 0 }' "$joined")
    median_delay=$(awk '$1 == "polled" { print $3 }' "$joined" | median)
    lab_margin "$margins" "poll: PPS − poll = the module's delay: error / (half-bracket + 1 ns), worst edge" "$id" \
        "$(awk '$1 == "polled" { e = $4 - $3; if (e < 0) e = -e; r = e / ($5 + 1); if (r > m) m = r } END { printf "%.3f\n", m }' "$joined")" '<' 1
    if ((bad == 0 && pairs == span && pairs >= 8)); then
        pass "$id: each of the $pairs polled edges' PPS − poll equals the module's raise -> timestamp delay within its half-bracket (largest $max_unc ns; median delay $median_delay ns); $missed of $polled_periods windows missed the edge (allowed)"
    else
        fail "$id: $bad/$pairs polled edges' PPS − poll differ from the module's delay by more than the half-bracket (+1 ns); $span poll edges within the PPS run, $pairs matched a PPS pulse and a record"
    fi

    # 3. the report's figures
    local rj="$out/$config-$mode-report.json" b expected rep_median rep_polled ref_unc polled_median
    if ! "$pb" report "$d1" --format json >"$rj" 2>"$out/$config-$mode-report.err" || ! b=$(bias_json "$rj") || [[ -z "$b" || "$b" == null ]]; then
        fail "$id: ppsbench report $d1 gave no bias: $(head -c 300 "$out/$config-$mode-report.err")"
        return
    fi
    rep_median=$(jq -r '.median_ns' <<<"$b") rep_polled=$(jq -r '.polled.median_ns // "nan"' <<<"$b")
    ref_unc=$(jq -r '.reference_uncertainty_ns' <<<"$b")
    expected=$(awk '$1 == "unpolled" { print $3 }' "$joined" | median)
    polled_median=$(awk '$1 == "polled" { print $4 }' "$joined" | median)
    lab_margin "$margins" "poll: reported bias median = the records' (± reference uncertainty + 1 ns)" "$id" \
        "$(awk -v r="$rep_median" -v e="$expected" 'BEGIN { d = r - e; print d < 0 ? -d : d }')" '<' "$(awk -v u="$ref_unc" 'BEGIN { print u + 1 }')"
    if awk -v r="$rep_median" -v e="$expected" -v u="$ref_unc" -v rp="$rep_polled" -v pm="$polled_median" \
        'BEGIN { d = r - e; d2 = rp - pm; if (d < 0) d = -d; if (d2 < 0) d2 = -d2; exit !(e != "nan" && d <= u + 1 && d2 <= 1) }'; then
        pass "$id: reported bias median $rep_median ns = the records' $expected ns within the reference's ±$ref_unc ns; polled median $rep_polled ns = the per-edge $polled_median ns"
    else
        fail "$id: reported bias median $rep_median ns, polled $rep_polled ns; the records say $expected ns (allowed ±$ref_unc ns), the per-edge polled median $polled_median ns"
    fi
    bias_of[$id]=$rep_median

    # 3b. the live bias the run wrote (--prometheus): report's mean of the same periods, the
    # unpolled against interpolated edges and the polled apart, paired as the threads delivered
    local prom="$mdir/poll-dual.prom" live live_polled rep_mean rep_polled_mean
    live=$(live_sample "$prom" ppsbench_live_bias_seconds)
    live_polled=$(live_sample "$prom" ppsbench_live_bias_polled_seconds)
    rep_mean=$(jq -r '.mean_ns' <<<"$b") rep_polled_mean=$(jq -r '.polled.mean_ns // "nan"' <<<"$b")
    if awk -v l="$live" -v lp="$live_polled" -v r="$rep_mean" -v rp="$rep_polled_mean" \
        'BEGIN { d = l * 1e9 - r; d2 = lp * 1e9 - rp; if (d < 0) d = -d; if (d2 < 0) d2 = -d2; exit !(l != "" && lp != "" && d <= 0.5 && d2 <= 0.5) }' &&
        grep -q 'bias (unpolled periods) vs poll:mem:.*; polled periods run' "$mdir/poll-dual-run.txt"; then
        pass "$id: live bias (unpolled) ${live} s, polled ${live_polled} s = report's mean $rep_mean ns, polled $rep_polled_mean ns (±0.5 ns); the progress line says which is which"
    else
        fail "$id: live bias '${live}' s, polled '${live_polled}' s; report's mean $rep_mean ns, polled $rep_polled_mean ns; progress: $(grep -m 1 'bias' "$mdir/poll-dual-run.txt" | head -c 300)"
    fi
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$config" "$mode" "$context" "$pairs" "$missed" \
        "$median_delay" "$max_unc" "$rep_median" "$expected" "$rep_polled" "$ref_unc" >>"$tsv"

    # 5. reachable errors (split mode)
    [[ "$mode" == split ]] || return 0
    local e name want f
    for e in "placement:a poller spinning there delays the timestamp it measures" \
        "notgpiomem:is not a gpiomem device" \
        "offset:cannot map offset 0x1000" \
        "everyperiod:polls every period, so as path A's reference it leaves no period unpolled"; do
        name=${e%%:*} want=${e#*:} f="$mdir/poll-err-$name.txt" rc=$(kv "poll_${name}_rc" "$st")
        if [[ "$rc" == 2 ]] && [[ $(grep -c . "$f") == 1 ]] && grep -q "$want" "$f"; then
            pass "$config: poll $name: exit 2, one line: $(head -c 160 "$f")"
        else
            fail "$config: poll $name: exit ${rc:-none} (want 2), want one line with '$want': $(head -c 300 "$f" | tr '\n' ' ')"
        fi
    done
}

check_poll_order() {
    local tmin="" hmax="" id b
    for id in "${!bias_of[@]}"; do
        b=${bias_of[$id]%.*}
        [[ "$b" =~ ^-?[0-9]+$ ]] || continue
        if [[ "${context_of[$id]}" == thread ]]; then
            if [[ -z "$tmin" ]] || ((b < tmin)); then tmin=$b; fi
        elif [[ "${context_of[$id]}" == hard ]]; then
            # Signed: a hard-IRQ timestamp inside the bracket precedes its midpoint (a negative
            # bias); one that came out late would close the gap, as it should.
            if [[ -z "$hmax" ]] || ((b > hmax)); then hmax=$b; fi
        fi
    done
    if [[ -z "$tmin" || -z "$hmax" ]]; then
        lab_log "note: poll bias order not checked (thread-context runs: ${tmin:-none}, hard-IRQ runs: ${hmax:-none})"
        return
    fi
    lab_margin "$margins" "poll bias order: thread-context median bias − hard-IRQ's > $gap ns" all $((tmin - hmax)) '>' "$gap"
    if ((tmin - hmax > gap)); then
        pass "poll bias order: smallest thread-context median bias $tmin ns is more than $gap ns above the largest hard-IRQ one ($hmax ns)"
    else
        fail "poll bias order: smallest thread-context median bias $tmin ns is not more than $gap ns above the largest hard-IRQ one ($hmax ns)"
    fi
}

# mean and count of one capture's phase offsets, "MEAN N", through ppsbench report.
phase_mean() {
    "$pb" report "$1" --format csv --metrics pulses,mean,sigma 2>/dev/null | grep -v '^#' |
        awk -F, 'NR == 2 { print $5, $4, $6 }'
}

# One phase of chronyd (NAME before|after): its refclocks.log's last 60 samples (chronyd's
# virtual clock has settled by then), imported raw and cooked. Prints "RAW_MEAN COOKED_MEAN N SD".
chrony_phase() { # chrony_phase MODE_DIR NAME
    local log="$1/refclocks-$2.log" tag o
    tag="$out/$(basename "$(dirname "$1")")-$2"
    [[ -s "$log" ]] || return 1
    tail -n 60 "$log" >"$tag-tail.log"
    for o in raw cooked; do
        "$pb" import chrony-refclocks "$tag-tail.log" --offset "$o" -o "$tag-$o.csv" --force \
            >"$tag-$o.txt" 2>&1 || return 1
    done
    read -r rm rn rs < <(phase_mean "$tag-raw.csv")
    read -r cm _ _ < <(phase_mean "$tag-cooked.csv")
    echo "$rm $cm $rn $rs"
}

calibration_boots=0 calibrated_boots=0

# A bimodal refusal is right on one boot, but the loop (calibrate → chrony.conf → chronyd's
# clock) must be exercised on some boot, or the lab would pass without judging it.
check_calibration_coverage() {
    ((calibration_boots)) || return 0
    if ((calibrated_boots)); then
        pass "calibration loop checked on $calibrated_boots of $calibration_boots boots with chronyd"
    else
        fail "calibration loop not checked: calibrate refused on all $calibration_boots boots with chronyd (see each boot's calibrate.txt)"
    fi
}

check_calibration() { # check_calibration MODE_DIR (threaded mode)
    local mdir=$1 config st cj constant unc offset_s lat_mean lat_ci matches
    config=$(basename "$(dirname "$mdir")") st="$mdir/calib.txt"
    if [[ -n "$(kv no_chrony "$st")" ]]; then
        lab_log "note: $config: no chronyd in the guest: calibration loop not checked"
        return
    fi
    # 6. calibrate and doctor --bias
    calibration_boots=$((calibration_boots + 1))
    cj="$mdir/calibrate.json"
    constant=$(jq -r '.constant_ns // empty | round' "$cj" 2>/dev/null || true)
    unc=$(jq -r '.uncertainty_ns // empty | round' "$cj" 2>/dev/null || true)
    offset_s=$(kv offset_s "$st")
    local refusal separation
    refusal=$(jq -r '.refusal // empty' "$cj" 2>/dev/null || true)
    separation=$(jq -r '.separation // empty' "$cj" 2>/dev/null || true)
    if [[ "$(kv calibrate_rc "$st")" == 0 && -n "$constant" && -n "$offset_s" ]]; then
        pass "$config: calibrate on the poll run: $constant ns ± $unc ns, chrony offset $offset_s"
        calibrated_boots=$((calibrated_boots + 1))
    elif [[ "$(kv calibrate_rc "$st")" == 1 && "$refusal" == bimodal ]] &&
        jq -e '.separation > 4 and .minor_share >= 0.1' "$cj" >/dev/null 2>&1; then
        # The lateness against the one-vCPU bracket comes in two tight groups (hard IRQ: 105 of
        # 150 edges within −1.5…−1.0 µs, 40 within −1.0…+0.5 µs; thread: the irq/N wakeup lands
        # on one of two timer levels), so Ashman's D sits near calibrate's threshold of 4 in
        # every context: seen 2.4–4.1 (stock, hard), 2.4–4.3 (threadirqs, thread), 2.4 (rt).
        # A refusal whose stated D and minor share meet calibrate's documented rule is calibrate
        # doing its job; the loop below needs a constant, so it is checked on the other boots
        # (check_calibration_coverage fails the lab when no boot gave one).
        pass "$config: calibrate on the poll run refuses, exit 1, as bimodal (separation $separation > 4, minor share $(jq -r '.minor_share * 100 | round' "$cj") % ≥ 10 %; the lateness against the one-vCPU bracket, docs/lab.md): a refusal, not a constant, is right here"
        lab_log "info (not asserted): $config: no constant, so the chronyd loop is not checked on this boot"
        return
    else
        fail "$config: calibrate on the poll run: exit $(kv calibrate_rc "$st"): $(head -c 300 "$mdir/calibrate.txt" | tr '\n' ' ')"
        return
    fi
    # The monitor's figure for the alert: the same run's live file, chrony's filter estimate over
    # the whole run, is calibrate's constant (to the nanosecond: the same pairs, grouped alike).
    local live_filtered exact
    live_filtered=$(live_sample "$mdir/poll-dual.prom" ppsbench_live_bias_filtered_seconds)
    exact=$(jq -r '.constant_ns // empty' "$cj" 2>/dev/null || true)
    if awk -v l="$live_filtered" -v c="$exact" 'BEGIN { d = l * 1e9 - c; if (d < 0) d = -d; exit !(l != "" && c != "" && d <= 0.5) }'; then
        pass "$config: the live file's filtered bias ${live_filtered} s = calibrate's constant $exact ns (±0.5 ns)"
    else
        fail "$config: the live file's filtered bias '${live_filtered}' s, calibrate's constant '$exact' ns"
    fi
    matches=$(jq -r '[.bias_check.lines[]? | select(.daemon == "chrony") | .matches] | if length == 0 then "none" else (all | tostring) end' "$mdir/doctor-bias.json" 2>/dev/null || echo none)
    if [[ "$matches" == true ]] && grep -q "offset $offset_s" "$mdir/chrony-calibrated.conf"; then
        pass "$config: doctor --bias with the written chrony.conf: the offset matches ($(jq -r '.bias_check.lines[0] | "\(.text): difference \(.difference_ns) ns"' "$mdir/doctor-bias.json"))"
    else
        fail "$config: doctor --bias with the written chrony.conf: matches=$matches: $(head -c 300 "$mdir/doctor-bias.err") $(jq -c '.bias_check.lines' "$mdir/doctor-bias.json" 2>/dev/null | head -c 300)"
    fi

    # 7. chronyd's clock before and after: raw + offset − cooked (chronyd's virtual clock
    # against the never-adjusted system clock), = −(lateness + constant) before, −lateness after.
    read -r lat_mean lat_ci < <(awk '$1 ~ /^[0-9]+$/ && $8 > 0 {
            d = substr($4, length($4) - 8) - substr($2, length($2) - 8); s += d; ss += d * d; n++ }
        END { m = s / n; v = n > 1 ? (ss - n * m * m) / (n - 1) : 0; printf "%.1f %.1f\n", m, 1.96 * sqrt(v > 0 ? v : 0) }' "$mdir/calib-records.txt")
    local before after rb cb n sd ra ca na sda err_b err_a allowed offset_ns ss_b ss_a
    if ! before=$(chrony_phase "$mdir" before) || ! after=$(chrony_phase "$mdir" after); then
        fail "$config: no refclocks.log samples to import: $(tr '\n' ' ' <"$st")"
        return
    fi
    read -r rb cb n sd <<<"$before"
    read -r ra ca na sda <<<"$after"
    offset_ns=$(awk -v o="$offset_s" 'BEGIN { printf "%.0f", o * 1e9 }')
    # phase = −offset: raw + offset − cooked = cooked phase − raw phase + offset.
    err_b=$(awk -v r="$rb" -v c="$cb" 'BEGIN { printf "%.1f", c - r }')
    err_a=$(awk -v r="$ra" -v c="$ca" -v o="$offset_ns" 'BEGIN { printf "%.1f", c - r + o }')
    allowed=$(awk -v u="$unc" -v s1="$sd" -v n1="$n" -v s2="$sda" -v n2="$na" -v l="$lat_ci" \
        'BEGIN { printf "%.0f", u + 1.96 * s1 / sqrt(n1) + 1.96 * s2 / sqrt(n2) + l }')
    ss_b=$(awk '$1 == "PPS" { print $7 }' "$mdir/chrony-before.txt" | tail -n 1)
    ss_a=$(awk '$1 == "PPS" { print $7 }' "$mdir/chrony-after.txt" | tail -n 1)
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$config" "threaded" "$constant" "$unc" "$lat_mean" \
        "$err_b" "$err_a" "$allowed" "${ss_b:--}" "${ss_a:--}" "$matches" >>"$ctsv"
    lab_margin "$margins" "calibration: chronyd's clock before = −(lateness + constant)" "$config" \
        "$(awk -v b="$err_b" -v l="$lat_mean" -v k="$constant" 'BEGIN { d = b + l + k; print d < 0 ? -d : d }')" '<' "$allowed"
    lab_margin "$margins" "calibration: chronyd's clock after = −lateness" "$config" \
        "$(awk -v a="$err_a" -v l="$lat_mean" 'BEGIN { d = a + l; print d < 0 ? -d : d }')" '<' "$allowed"
    if awk -v b="$err_b" -v a="$err_a" -v l="$lat_mean" -v k="$constant" -v u="$allowed" 'BEGIN {
            db = b + l + k; da = a + l; if (db < 0) db = -db; if (da < 0) da = -da; exit !(db <= u && da <= u) }'; then
        pass "$config: chronyd's clock (raw + offset − cooked, last 60 samples): before −(lateness $lat_mean + constant $constant) = $err_b ns, after −lateness = $err_a ns, within ±$allowed ns; raw phase $rb → $ra ns (the timestamps stay late)"
    else
        fail "$config: chronyd's clock: before $err_b ns (want $(awk -v l="$lat_mean" -v k="$constant" 'BEGIN { print -(l + k) }')), after $err_a ns (want -$lat_mean), allowed ±$allowed ns; sourcestats offset $ss_b → $ss_a"
    fi
    # The sharp part, shown and not asserted: how far the offset moved chronyd's clock against
    # the constant, within the two phases' 95 % intervals alone. The phases are two runs, and
    # the module's 1 Hz lateness sits on one of two levels about 1.2 µs apart (8.3 / 9.5 µs on
    # threadirqs and rt: calibrate refuses a 1 Hz run as bimodal), so a phase's own interval
    # does not bound the difference between the phases: a run on rt moved it by 6.90 µs for a
    # 7.74 µs constant. The asserted check above allows for the lateness's spread.
    local moved sharp verdict
    moved=$(awk -v b="$err_b" -v a="$err_a" 'BEGIN { printf "%.1f", a - b }')
    sharp=$(awk -v s1="$sd" -v n1="$n" -v s2="$sda" -v n2="$na" \
        'BEGIN { printf "%.0f", 1.96 * s1 / sqrt(n1) + 1.96 * s2 / sqrt(n2) + 1 }')
    verdict=outside
    if awk -v m="$moved" -v k="$offset_ns" -v u="$sharp" 'BEGIN { d = m - k; if (d < 0) d = -d; exit !(d <= u) }'; then
        verdict=within
    fi
    lab_log "info (not asserted: the 1 Hz lateness's two levels): $config: the written offset moved chronyd's clock by $moved ns, the constant $offset_ns ns: $verdict ±$sharp ns"
}
