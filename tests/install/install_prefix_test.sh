#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# `cmake --install --prefix DIR` and `DESTDIR=DIR cmake --install` put every file under DIR:
# a staged or private install never writes to the running system (main wrote the units, the
# udev rule, sysusers.d and /etc/default to absolute paths read from pkg-config).
# Usage: install_prefix_test.sh CMAKE BUILD-DIR
set -eu
cmake=$1 build=$2
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

# The files one install wrote, from cmake's "-- Installing: PATH" lines.
installed() { sed -n 's/^-- \(Installing\|Up-to-date\): //p' "$1"; }

check_under() {  # LOG DIR WHAT
    count=0
    for path in $(installed "$1"); do
        count=$((count + 1))
        case $path in
            "$2"/*) ;;
            *) fail "$3: $path is outside $2" ;;
        esac
    done
    [ "$count" -gt 10 ] || fail "$3: only $count files installed (see $1)"
    echo "$3: $count files, all under $2"
}

prefix=$scratch/prefix
"$cmake" --install "$build" --prefix "$prefix" >"$scratch/prefix.log" 2>&1 ||
    { cat "$scratch/prefix.log"; fail "cmake --install --prefix failed"; }
check_under "$scratch/prefix.log" "$prefix" "--prefix"
for file in bin/ppsbench lib/systemd/system/ppsbench-monitor.service \
    lib/systemd/system/ppsbench-nightly.service lib/systemd/system/ppsbench-nightly.timer \
    lib/udev/rules.d/60-ppsbench.rules lib/sysusers.d/ppsbench.conf etc/default/ppsbench \
    share/ppsbench/prometheus/ppsbench.rules.yml; do
    [ -f "$prefix/$file" ] || fail "--prefix: no $prefix/$file"
done

stage=$scratch/stage
DESTDIR=$stage "$cmake" --install "$build" >"$scratch/destdir.log" 2>&1 ||
    { cat "$scratch/destdir.log"; fail "DESTDIR=... cmake --install failed"; }
check_under "$scratch/destdir.log" "$stage" "DESTDIR"
[ -n "$(find "$stage" -name 60-ppsbench.rules)" ] || fail "DESTDIR: no udev rule staged"

[ "$failures" -eq 0 ] || { echo "$failures failure(s)"; exit 1; }
