#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# dist/prometheus: the alerting rules parse (promtool check rules) and each alert fires on the
# series meant to raise it and on no other (promtool test rules, ppsbench.rules.test.yml).
# Every metric they read is one the monitor writes or one docs/prometheus.md defines for it.
# Usage: prometheus_rules_test.sh DIST-PROMETHEUS-DIR. Exit 77 (skip) without promtool
# (Debian: apt install prometheus).
set -euo pipefail
dir=$1
if ! command -v promtool >/dev/null; then
    echo "SKIP: promtool not installed (Debian: apt install prometheus)"
    exit 77
fi
promtool check rules "$dir/ppsbench.rules.yml"
(cd "$dir" && timeout 240 promtool test rules ppsbench.rules.test.yml)
source_dir=$(cd "$dir/../.." && pwd)
# The metric names the rules use: written by the monitor (src/session/live_prometheus.cpp)
# or defined in docs/prometheus.md's table of names for a reference path.
for metric in $(grep -o 'ppsbench_[a-z_]*' "$dir/ppsbench.rules.yml" | sort -u); do
    grep -rq "$metric" "$source_dir/src/session/live_prometheus.cpp" "$source_dir/src/analysis" \
        "$source_dir/docs/prometheus.md" || { echo "FAIL: $metric is neither written nor documented"; exit 1; }
done
echo "prometheus rules: checked, unit-tested, every metric accounted for"
