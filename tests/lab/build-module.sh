#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Build ppsbench_lab.ko out of tree against an unpacked Debian kernel (see fetch.sh), once per
# handler shape: `single` (modes threaded and nothread) and `split`. Each build holds only its
# shape's handlers, under pps-gpio's symbol names, so /proc/kallsyms tells them apart as it
# does for the real driver. The source tree is copied so the build leaves nothing in the checkout.
#
# Usage: build-module.sh [FLAVOUR...]      (default: amd64 rt-amd64)
# Output: $PPSBENCH_LAB_CACHE/kernels/<flavour>/{single,split}/ppsbench_lab.ko
set -euo pipefail
source "$(dirname "$0")/lib.sh"

# Debian's 6.1 kernels are built with gcc-12; kbuild refuses a mismatched compiler for plugins
# and warns otherwise, so use exactly that one.
lab_need_pkgs gcc-12:gcc-12 make:make bc:bc

flavours=("$@")
((${#flavours[@]})) || flavours=("${lab_flavours[@]}")

for fl in "${flavours[@]}"; do
    kdir=$(lab_kdir "$fl")
    [[ -f "$kdir/build/Makefile" ]] || lab_die "$fl: no unpacked headers in $kdir; run fetch.sh first"
    for shape in single split; do
        out="$kdir/module-build-$shape"
        rm -rf "$out" && mkdir -p "$out"
        cp "$LAB_DIR/module/ppsbench_lab.c" "$LAB_DIR/module/Makefile" "$out/"
        lab_log "$fl: building ppsbench_lab.ko ($shape handler) against $(cat "$kdir/abi")"
        split=0
        [[ "$shape" == split ]] && split=1
        if ! make -s -C "$kdir/build/" M="$out" CC=gcc-12 HOSTCC=gcc-12 LAB_SPLIT_HANDLER=$split \
            modules >"$out/build.log" 2>&1; then
            cat "$out/build.log" >&2
            lab_die "$fl: module build failed (log above, also in $out/build.log)"
        fi
        # Warnings are errors for our own code: show them and stop.
        if grep -q 'ppsbench_lab.c.*warning' "$out/build.log"; then
            cat "$out/build.log" >&2
            lab_die "$fl: module build produced warnings"
        fi
        mkdir -p "$kdir/$shape"
        cp "$out/ppsbench_lab.ko" "$kdir/$shape/ppsbench_lab.ko"
        lab_log "$fl: $kdir/$shape/ppsbench_lab.ko"
    done
done
