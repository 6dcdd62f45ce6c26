#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Regenerates this folder: three simulated hour-long runs standing for the write-up's kernels,
# and the tables and plot ppsbench prints for them. SIMULATED data (docs/sim-models.md).
# Usage: examples/writeup/make.sh [path/to/ppsbench]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
ppsbench=${1:-$here/../../build/ppsbench}
cd "$here"
"$ppsbench" run -s sim:hardirq --seed 1 --duration 1h --label "Stock kernel" -o stock.csv --force -q >/dev/null
"$ppsbench" run -s sim:threaded --seed 2 --duration 1h --label "PREEMPT_RT" -o rt.csv --force -q >/dev/null
"$ppsbench" run -s sim:nothread --seed 3 --duration 1h --label "PREEMPT_RT + IRQF_NO_THREAD" -o rt-nothread.csv --force -q >/dev/null
"$ppsbench" compare --baseline stock.csv rt.csv rt-nothread.csv > compare.txt
"$ppsbench" compare --baseline stock.csv rt.csv rt-nothread.csv --format markdown --plot plot.svg --plot-log-counts --plot-stability stability.svg --force > compare.md
"$ppsbench" compare --baseline stock.csv rt.csv rt-nothread.csv --plot-log-counts --html compare.html --force > /dev/null
"$ppsbench" report stock.csv rt.csv rt-nothread.csv --format csv > report.csv
set +e
"$ppsbench" gate --baseline stock.csv rt.csv --max-ratio 1.25 > gate.txt
echo "exit status: $?" >> gate.txt
