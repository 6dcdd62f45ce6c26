#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Copy one lab run's outputs into examples/lab/ (the files docs/lab.md quotes), so the examples
# are always a real run of the current code, never edited by hand.
#
# Usage: export-examples.sh RESULTS_DIR [DEST]      (DEST default: examples/lab of this checkout)
# RESULTS_DIR is what run-lab.sh --ppsbench wrote (with run-lab.log: its stderr, if saved).
set -euo pipefail
source "$(dirname "$0")/lib.sh"

(($# >= 1)) || lab_die "usage: export-examples.sh RESULTS_DIR [DEST]"
res="$(cd "$1" && pwd)"
dest="${2:-$LAB_DIR/../../examples/lab}"
[[ -f "$res/ppsbench/summary.md" ]] || lab_die "$res has no ppsbench/summary.md: run run-lab.sh --ppsbench first"
mkdir -p "$dest"
find "$dest" -mindepth 1 -not -name README.md -delete

cp "$res/summary.md" "$dest/summary-kernel-path.md"
cp "$res/ppsbench/summary.md" "$dest/summary-ppsbench.md"
cp "$res/timings.txt" "$dest/timings.txt"
[[ -f "$res/run-lab.log" ]] && grep -E '^\[lab\] (ok|FAIL|info)|^lab: ' "$res/run-lab.log" >"$dest/checks.log"
cp "$res/ppsbench/compare-raw.markdown.txt" "$dest/compare-raw.md"
cp "$res/ppsbench/compare-raw.text.txt" "$dest/compare-raw.txt"
cp "$res/ppsbench/report-delay.markdown.txt" "$dest/report-delay.md"
for f in "$res"/ppsbench/gate-*.txt "$res"/ppsbench/gate-*.junit.xml; do
    [[ -f "$f" ]] && cp "$f" "$dest/"
done
cp "$res/ppsbench/gates.tsv" "$res/ppsbench/latency.tsv" "$dest/" 2>/dev/null || true

# A few captures and what the guest said about them, stock vs PREEMPT_RT.
mkdir -p "$dest/captures"
for id in stock/threaded rt/threaded rt/split; do
    [[ -d "$res/$id" ]] || continue
    n=${id/\//-}
    for f in pps-b.csv pps-rthog.csv latency-pps.csv doctor.json chrony.txt; do
        [[ -f "$res/$id/$f" ]] && cp "$res/$id/$f" "$dest/captures/$n.$f"
    done
    # The module's records of the whole mode are ~400 kB: the header and the first 300 edges.
    [[ -f "$res/$id/records.txt" ]] && head -n 303 "$res/$id/records.txt" >"$dest/captures/$n.records-head.txt"
done
for f in dual-1.csv dual-2.csv dual-run.txt chrony-kill.csv chrony-kill-run.txt rmmod.csv rmmod-run.txt faults.txt; do
    [[ -f "$res/rt/split/$f" ]] && cp "$res/rt/split/$f" "$dest/captures/rt-split.$f"
done
lab_log "examples in $dest"
