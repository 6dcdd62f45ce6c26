#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# docs/prometheus.md's Grafana dashboard: valid JSON, and every ppsbench_live_* series its
# queries and the doc's query table name is one `run --prometheus` really writes.
# Usage: grafana_dashboard_test.sh PPSBENCH SOURCE-DIR
set -euo pipefail
ppsbench=$1 doc=$2/docs/prometheus.md
work=$(mktemp -d /tmp/ppsbench-dashboard.XXXXXX)
trap 'rm -rf "$work"' EXIT
"$ppsbench" run --source sim:threaded --count 30 --quiet -o "$work/run.csv" \
    --prometheus "$work/live.prom" >/dev/null
# The bias series is written only beside a reference path.
"$ppsbench" run --source sim:threaded,late=12us --source sim:reference --count 30 --quiet \
    -o "$work/bias.csv" --prometheus "$work/bias.prom" >/dev/null
python3 - "$doc" "$work/live.prom" "$work/bias.prom" <<'PY'
import json, re, sys
doc = open(sys.argv[1]).read()
prom = open(sys.argv[2]).read() + open(sys.argv[3]).read()
dashboard = json.loads(re.search(r"```json\n(.*?)```", doc, re.S).group(1))
written = set(re.findall(r"^(ppsbench_live_\w+)\{", prom, re.M))
queries = [t["expr"] for p in dashboard["panels"] for t in p["targets"]]
named = set(re.findall(r"ppsbench_live_\w+", " ".join(queries) + doc.split("### Grafana")[1]))
# chrony's series appear only when chronyd is sampled, which a simulated run does not do; a real
# chronyd writes them in tests/chrony/live_metrics_chronyd_test.cpp.
chrony_only = {"ppsbench_live_chrony_rms_offset_seconds", "ppsbench_live_chrony_status",
               "ppsbench_live_chrony_refclock_offset_seconds", "ppsbench_live_chrony_pps_selected"}
# The polled periods' series needs a poll: reference, real hardware (the lab's run writes it;
# tests/session/live_metrics_polled_test.cpp checks it).
poll_only = {"ppsbench_live_bias_polled_seconds"}
missing = named - written - chrony_only - poll_only
assert not missing, f"the doc names series ppsbench does not write: {sorted(missing)}"
print(f"dashboard: {len(dashboard['panels'])} panels, {len(named)} series named, all written by run --prometheus")
PY
