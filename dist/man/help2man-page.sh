#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Makes one man page with help2man from the built program's --help, plus the hand-written
# sections in dist/man/NAME.h2m, so the options in a page are always the options in --help.
# Usage: help2man-page.sh PPSBENCH PAGE-NAME INCLUDE OUTPUT VERSION
#   PAGE-NAME is ppsbench or ppsbench-COMMAND; the NAME line's text is the command's summary
#   from `ppsbench --help`.
set -eu
ppsbench=$1 page=$2 include=$3 output=$4 version=$5

if [ "$page" = ppsbench ]; then
    help_option=--help
    summary="measure PPS timestamp jitter and compare it across kernels"
else
    command=${page#ppsbench-}
    help_option="$command --help"
    summary=$("$ppsbench" --help | awk -v c="$command" '$1 == c { $1 = ""; sub(/^ +/, ""); print; exit }')
    if [ -z "$summary" ]; then
        echo "help2man-page.sh: '$command' is not in 'ppsbench --help'; remove $include or add the command" >&2
        exit 1
    fi
fi

# --locale: help2man's own default is C, whatever the environment says, and in C it prints "??"
# for σ, µ, − and →.
"${HELP2MAN:-help2man}" --no-info --no-discard-stderr --locale=C.UTF-8 --section=1 \
    --manual="ppsbench manual" \
    --source="ppsbench $version" --version-string="$page $version" \
    --help-option="$help_option" --name="$summary" --include="$include" \
    --output="$output.tmp" "$ppsbench"
mv "$output.tmp" "$output"
