# SPDX-License-Identifier: GPL-2.0-or-later
# Shared settings for the lab scripts; sourced, not run.
# shellcheck shell=bash

LAB_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# Downloads, unpacked kernels and build outputs live here; override to share between checkouts.
: "${PPSBENCH_LAB_CACHE:=${LAB_DIR}/.cache}"
export PPSBENCH_LAB_CACHE

lab_log() { printf '[lab] %s\n' "$*" >&2; }
lab_die() { printf '[lab] error: %s\n' "$*" >&2; exit 1; }

# Install host packages only when a command is missing, so a warm machine pays nothing.
lab_need_pkgs() {
    local missing=() pair cmd pkg
    for pair in "$@"; do
        cmd="${pair%%:*}"
        pkg="${pair#*:}"
        if [[ "$cmd" == /* ]]; then
            [[ -e "$cmd" ]] || missing+=("$pkg")
        else
            command -v "$cmd" >/dev/null 2>&1 || missing+=("$pkg")
        fi
    done
    ((${#missing[@]} == 0)) && return 0
    [[ $(id -u) -eq 0 ]] || lab_die "missing packages ${missing[*]}: install them (apt-get install ${missing[*]}) or run as root"
    lab_log "installing host packages: ${missing[*]}"
    if [[ ! -f "${PPSBENCH_LAB_CACHE}/.apt-updated" ]]; then
        apt-get -o Acquire::Retries=3 update -qq
        mkdir -p "${PPSBENCH_LAB_CACHE}" && touch "${PPSBENCH_LAB_CACHE}/.apt-updated"
    fi
    DEBIAN_FRONTEND=noninteractive apt-get -o Acquire::Retries=3 install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}

# Flavours: stock (amd64) and PREEMPT_RT (rt-amd64). Kernel N's files: $PPSBENCH_LAB_CACHE/kernels/<flavour>/
# shellcheck disable=SC2034 # used by the scripts that source this file
lab_flavours=(amd64 rt-amd64)
lab_kdir() { printf '%s/kernels/%s' "${PPSBENCH_LAB_CACHE}" "$1"; }

# Reads numbers on stdin, prints their median (the mean of the two middle values for even n,
# rounded to whole ns), or "nan" when there are none.
median() {
    sort -n | awk '{v[NR]=$1} END{if(NR==0){print "nan"; exit} m=int((NR+1)/2); if(NR%2) print v[m]; else printf "%.0f\n", (v[m]+v[m+1])/2}'
}

# kv KEY FILE: the value of the first KEY=value line of FILE (the guest scripts' status files).
kv() { sed -n "s/^$1=//p" "$2" | head -n 1; }

# The directories a boot produced, one per line: lab_config_dirs RESULTS prints each <config>/
# (it has its console log beside it; ppsbench/ and the other derived directories do not), and
# lab_mode_dirs RESULTS each <config>/<mode>/ of those (boot/ is the boot's own, not a mode).
lab_config_dirs() {
    local c
    for c in "$1"/*/; do
        if [[ -f "$1/$(basename "$c").console.log" ]]; then printf '%s\n' "$c"; fi
    done
}
lab_mode_dirs() {
    local c m
    while read -r c; do
        for m in "$c"*/; do
            if [[ "$(basename "$m")" != boot ]]; then printf '%s\n' "$m"; fi
        done
    done < <(lab_config_dirs "$1")
}

# Margins. Every asserted figure that has a limit is recorded with how far it stayed from it, so
# each run shows how close each assertion came to failing (docs/lab.md, "Margins"); run-lab.sh
# tables the worst per assertion. An assertion whose margin falls under 20 % is to be redesigned,
# not retried. lab_margin FILE ASSERTION INSTANCE FIGURE OP LIMIT: OP '<' (the figure must stay
# at or below LIMIT) or '>' (above it); the margin is the distance to the limit as a fraction of
# the limit's size, negative when the assertion failed. Appends one tab-separated line:
# ASSERTION INSTANCE FIGURE OP LIMIT MARGIN.
lab_margin() {
    awk -v a="$2" -v i="$3" -v f="$4" -v op="$5" -v l="$6" 'BEGIN {
        s = l < 0 ? -l : l
        if (s == 0 || f !~ /^[-+]?[0-9.]+$/) exit
        printf "%s\t%s\t%s\t%s\t%s\t%.3f\n", a, i, f, op, l, (op == "<" ? l - f : f - l) / s }' >>"$1"
}

# to_ns "992 µs" | "+10.7 µs" | "-4 ns" | "1.2 ms": ppsbench's printed time in ns (a number).
to_ns() {
    awk -v t="$*" 'BEGIN {
        gsub(/−/, "-", t); gsub(/\+/, "", t); n = split(t, p, " ")
        u = p[2]; f = (u == "ns") ? 1 : (u == "µs" || u == "us") ? 1e3 : (u == "ms") ? 1e6 : (u == "s") ? 1e9 : 0
        if (n < 2 || f == 0) exit 1
        printf "%.0f\n", p[1] * f }'
}
