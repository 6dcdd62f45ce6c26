#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Writes the figures one build of ppsbench gives, for tests/cross/same_figures.py to compare
# across architectures: `ppsbench demo`, `report --format json` of every capture in examples/,
# and `doctor --format json --sysroot` of every fixture in tests/sysinfo/fixtures/; each
# command's exit status beside its output. Paths are relative to the checkout, so they read
# the same in every build's output.
# Usage: PPSBENCH=path/to/ppsbench tests/cross/figures.sh OUT
set -eu
cd "$(dirname "$0")/../.."
out=$1
mkdir -p "$out"
run() {  # NAME ARGS...: stdout to OUT/NAME, the exit status to OUT/NAME.status
    name=$1
    shift
    status=0
    "$PPSBENCH" "$@" >"$out/$name" 2>"$out/$name.stderr" || status=$?
    echo "$status" >"$out/$name.status"
}
run demo.txt demo
for capture in $(find examples -name '*.csv' | sort); do
    run "report-$(echo "$capture" | tr / _).json" report --format json "$capture"
done
for fixture in tests/sysinfo/fixtures/*/; do
    name=$(basename "$fixture")
    run "doctor-$name.json" doctor --format json --pulse-wait 0 --sysroot "$fixture"
done
echo "figures.sh: $(find "$out" -name '*.status' | wc -l) outputs in $out"
