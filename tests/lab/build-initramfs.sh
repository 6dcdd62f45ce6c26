#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Build the lab's initramfs: busybox, the guest helpers, ppsbench_lab.ko for every fetched
# kernel (the guest picks its own by `uname -r`), /init and the guest test scripts.
#
# Usage: build-initramfs.sh [-o OUTPUT] [--bin PATH]... [--script PATH]...
#   --bin PATH     copy an extra host binary into /usr/bin with the shared libraries ldd finds
#                  (also PPSBENCH_LAB_EXTRA_BINS, space-separated)
#   --script PATH  add a guest test script; scripts run in name order after the built-in ones
#                  (also PPSBENCH_LAB_GUEST_SCRIPTS, space-separated). See guest/README in docs/lab.md.
# Default output: $PPSBENCH_LAB_CACHE/initramfs.cpio.gz
set -euo pipefail
source "$(dirname "$0")/lib.sh"

lab_need_pkgs /bin/busybox:busybox-static cpio:cpio gzip:gzip gcc:gcc \
    /usr/include/sys/timepps.h:pps-tools ldd:libc-bin

out="${PPSBENCH_LAB_CACHE}/initramfs.cpio.gz"
read -r -a bins <<<"${PPSBENCH_LAB_EXTRA_BINS:-}"
read -r -a scripts <<<"${PPSBENCH_LAB_GUEST_SCRIPTS:-}"
while (($#)); do
    case "$1" in
        -o) out="$2"; shift 2 ;;
        --bin) bins+=("$2"); shift 2 ;;
        --script) scripts+=("$2"); shift 2 ;;
        *) lab_die "unknown argument '$1' (usage: build-initramfs.sh [-o OUT] [--bin PATH]... [--script PATH]...)" ;;
    esac
done

stage="${PPSBENCH_LAB_CACHE}/initramfs-root"
rm -rf "$stage"
mkdir -p "$stage"/{bin,sbin,usr/bin,usr/sbin,etc,proc,sys,dev,tmp,run,root,lib/modules,lab/tests.d,var/lib,var/log}

# busybox and its applet links; the applet list includes "busybox" itself, which must not
# become a link to itself.
cp /bin/busybox "$stage/bin/busybox"
for applet in $(/bin/busybox --list); do
    [[ "$applet" == busybox ]] && continue
    [[ -e "$stage/bin/$applet" ]] || ln -s busybox "$stage/bin/$applet"
done

# Guest helpers, static so they need nothing from the guest.
for h in ppsfetch gpioevents hog; do
    gcc -O2 -Wall -Wextra -Werror -static -o "$stage/usr/bin/$h" "$LAB_DIR/guest/$h.c"
done

# One module per fetched kernel.
nmod=0
for fl in "${lab_flavours[@]}"; do
    kdir=$(lab_kdir "$fl")
    [[ -f "$kdir/single/ppsbench_lab.ko" && -f "$kdir/split/ppsbench_lab.ko" ]] || continue
    abi=$(cat "$kdir/abi")
    for shape in single split; do
        mkdir -p "$stage/lib/modules/$abi/$shape"
        cp "$kdir/$shape/ppsbench_lab.ko" "$stage/lib/modules/$abi/$shape/"
    done
    nmod=$((nmod + 1))
done
((nmod)) || lab_die "no ppsbench_lab.ko built; run fetch.sh and build-module.sh first"

# Extra binaries (the ppsbench binary, chronyd, ...) with their shared libraries.
copy_with_libs() {
    local bin="$1" dest="$2" lib
    [[ -x "$bin" ]] || lab_die "--bin $bin: not an executable file"
    cp -L "$bin" "$dest"
    # A RelWithDebInfo ppsbench is mostly DWARF; the guest needs none of it, and every byte of
    # the initramfs is decompressed by emulated instructions at each boot.
    strip --strip-debug "$dest" 2>/dev/null || true
    # ldd prints "name => /path (addr)" or "/path (addr)"; a static binary makes it fail.
    while read -r lib; do
        [[ -e "$stage$lib" ]] && continue
        mkdir -p "$stage$(dirname "$lib")"
        cp -L "$lib" "$stage$lib"
    done < <(ldd "$bin" 2>/dev/null | awk '/=> \//{print $3} /^\t\//{print $1}')
}
for b in "${bins[@]}"; do
    copy_with_libs "$b" "$stage/usr/bin/$(basename "$b")"
    lab_log "added $b as /usr/bin/$(basename "$b")"
    # The guest's busybox sh runs its own applet of the same name before searching PATH.
    if [[ -L "$stage/bin/$(basename "$b")" ]]; then
        lab_log "note: busybox has an applet named $(basename "$b"); guest scripts must call /usr/bin/$(basename "$b")"
    fi
done

# Guest scripts: built-in ones first, then the caller's, in the order given.
cp "$LAB_DIR/guest/init" "$stage/init"
cp "$LAB_DIR/guest/lab-lib.sh" "$stage/lab/lab-lib.sh"
cp "$LAB_DIR"/guest/tests.d/*.sh "$stage/lab/tests.d/"
i=50
for s in "${scripts[@]}"; do
    [[ -f "$s" ]] || lab_die "--script $s: no such file"
    cp "$s" "$stage/lab/tests.d/${i}-$(basename "$s")"
    i=$((i + 1))
    lab_log "added guest script $s"
done
chmod 755 "$stage/init" "$stage"/lab/tests.d/*.sh

printf 'root:x:0:0:root:/root:/bin/sh\n' >"$stage/etc/passwd"
printf 'root:x:0:\n' >"$stage/etc/group"

mkdir -p "$(dirname "$out")"
(cd "$stage" && find . -print0 | cpio --null -o -H newc --quiet | gzip -1) >"$out.tmp"
mv "$out.tmp" "$out"
lab_log "initramfs $out ($(du -h "$out" | cut -f1))"
