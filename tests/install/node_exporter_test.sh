#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The fleet path with the real component: Debian's prometheus-node-exporter, its textfile
# collector on the directory `ppsbench run --prometheus` writes to during a run. Scrapes the
# exporter while the run goes on (ppsbench's series are there, with the run so far) and after
# it ends (the run's final pulses match the capture file, σ matches `ppsbench report`).
# The exporter listens on 127.0.0.1 only, on a free port. Skips (77) without the exporter.
# Usage: node_exporter_test.sh PPSBENCH
set -euo pipefail
ppsbench=$(realpath "$1")
exporter=/usr/bin/prometheus-node-exporter
if [ ! -x "$exporter" ]; then
    echo "SKIP: $exporter is not installed (Debian: prometheus-node-exporter)"
    exit 77
fi
work=$(mktemp -d /tmp/ppsbench-node-exporter.XXXXXX)
pids=()
cleanup() {
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    wait 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT
mkdir "$work/textfile"
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
"$exporter" --web.listen-address="127.0.0.1:$port" --collector.disable-defaults \
    --collector.textfile --collector.textfile.directory="$work/textfile" 2>"$work/exporter.log" &
pids+=($!)

# A simulated source paced in real time: ten pulses a second for eight seconds.
"$ppsbench" run --source sim:threaded --pace realtime --period 100ms --duration 8s --quiet \
    --label exporter-test -o "$work/run.csv" --prometheus "$work/textfile/ppsbench.prom" \
    --prometheus-interval 1s >"$work/run.out" 2>&1 &
run_pid=$!
pids+=($run_pid)

# Prints "name{labels} value" for ppsbench's series and the textfile collector's own status.
scrape() {
    python3 - "$port" <<'PY'
import re, sys, urllib.request
body = urllib.request.urlopen(f"http://127.0.0.1:{sys.argv[1]}/metrics", timeout=5).read().decode()
try:  # the reference parser (python3-prometheus-client) when installed
    from prometheus_client.parser import text_string_to_metric_families
    samples = [(s.name, s.labels, s.value) for f in text_string_to_metric_families(body) for s in f.samples]
except ImportError:  # else the exposition format's sample lines: name{k="v",...} value
    samples = []
    for line in body.splitlines():
        m = re.match(r'^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$', line)
        if m:
            labels = dict(re.findall(r'([a-zA-Z_]\w*)="((?:[^"\\]|\\.)*)"', m.group(2) or ""))
            samples.append((m.group(1), labels, float(m.group(3))))
for name, labels, value in samples:
    if name.startswith("ppsbench_") or name == "node_textfile_scrape_error":
        print(f"{name}{{{labels.get('window', '')}}} {float(value)}")
PY
}
value() { awk -v k="$1" '$1 == k { print $2 }' <<<"$2"; }

# Wait for the exporter and for a second or two of pulses (the run lasts eight).
for _ in $(seq 50); do
    during=$(scrape 2>/dev/null) && [ "$(value 'ppsbench_live_pulses{run}' "$during")" != "" ] &&
        [ "$(value 'ppsbench_live_pulses{run}' "$during" | cut -d. -f1)" -ge 10 ] && break
    sleep 0.2
done
echo "during the run:"
echo "$during" | sed 's/^/  /'
pulses_during=$(value 'ppsbench_live_pulses{run}' "$during")
[ "$(value 'node_textfile_scrape_error{}' "$during")" = "0.0" ] || { echo "FAIL: textfile scrape error"; exit 1; }
python3 -c "import sys; v = float(sys.argv[1]); sys.exit(0 if 10 <= v < 80 else 1)" "$pulses_during" ||
    { echo "FAIL: run-so-far pulses $pulses_during is not a run in progress"; exit 1; }
[ -n "$(value 'ppsbench_live_offset_stddev_seconds{run}' "$during")" ] || { echo "FAIL: no run σ"; exit 1; }
[ -n "$(value 'ppsbench_live_offset_stddev_seconds{interval}' "$during")" ] || { echo "FAIL: no interval σ"; exit 1; }

wait "$run_pid"
after=$(scrape)
pulses_after=$(value 'ppsbench_live_pulses{run}' "$after")
in_file=$(grep -vc '^#' "$work/run.csv")
in_file=$((in_file - 1))  # the column header
sigma_report=$("$ppsbench" report "$work/run.csv" --format json |
    python3 -c 'import json, sys; r = json.load(sys.stdin); print(r["runs"][0]["offset_ns"]["stddev"])' 2>/dev/null || true)
echo "after the run: pulses $pulses_after (file: $in_file), σ $(value 'ppsbench_live_offset_stddev_seconds{run}' "$after") s (report: ${sigma_report:-?} ns)"
python3 - "$pulses_after" "$in_file" "$(value 'ppsbench_live_offset_stddev_seconds{run}' "$after")" "$sigma_report" "$pulses_during" <<'PY'
import sys
pulses, in_file, sigma = float(sys.argv[1]), int(sys.argv[2]), float(sys.argv[3])
assert pulses == in_file, f"exporter says {pulses} pulses, the capture file has {in_file}"
assert float(sys.argv[5]) < pulses, f"the scrape during the run ({sys.argv[5]}) was not mid-run"
if sys.argv[4]:
    report = float(sys.argv[4]) * 1e-9
    assert abs(sigma - report) <= 1e-9 * max(abs(report), 1e-12) * 1e3, f"σ {sigma} vs report {report}"
PY
echo "node_exporter: ppsbench's series scraped during and after the run, consistent with the file"
