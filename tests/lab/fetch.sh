#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Download Debian's stock and PREEMPT_RT kernels plus what an out-of-tree module build needs,
# unpack them into the cache (no install), and keep vmlinuz. Re-running is cheap: packages
# already downloaded for the current ABI are reused.
#
# Usage: fetch.sh [FLAVOUR...]      (default: amd64 rt-amd64)
set -euo pipefail
source "$(dirname "$0")/lib.sh"

lab_need_pkgs apt-cache:apt dpkg-deb:dpkg

flavours=("$@")
((${#flavours[@]})) || flavours=("${lab_flavours[@]}")

# Resolve the ABI package the meta-package currently depends on, e.g.
# linux-image-amd64 -> linux-image-6.1.0-57-amd64. apt-cache needs fresh lists.
resolve_image() {
    local meta="linux-image-$1" dep
    dep=$(apt-cache depends "$meta" 2>/dev/null | awk '/Depends: linux-image-/{print $2; exit}')
    if [[ -z "$dep" ]]; then
        lab_log "apt-cache cannot resolve $meta; running apt-get update"
        apt-get -o Acquire::Retries=3 update -qq
        dep=$(apt-cache depends "$meta" 2>/dev/null | awk '/Depends: linux-image-/{print $2; exit}')
    fi
    [[ -n "$dep" ]] || lab_die "cannot resolve $meta with apt-cache (no Debian package lists?)"
    printf '%s' "$dep"
}

debs="${PPSBENCH_LAB_CACHE}/debs"
mkdir -p "$debs"

download() { # download PKG into $debs unless a .deb of its candidate version is there
    local pkg="$1" ver file
    ver=$(apt-cache policy "$pkg" | awk '/Candidate:/{print $2}')
    [[ -n "$ver" && "$ver" != "(none)" ]] || lab_die "no candidate version for $pkg"
    file=$(find "$debs" -maxdepth 1 -name "${pkg}_${ver//:/%3a}_*.deb" | head -n1)
    if [[ -z "$file" ]]; then
        lab_log "downloading $pkg $ver"
        (cd "$debs" && apt-get download -qq -o Acquire::Retries=3 -o APT::Sandbox::User=root "$pkg=$ver") || lab_die "apt-get download $pkg=$ver failed"
        file=$(find "$debs" -maxdepth 1 -name "${pkg}_${ver//:/%3a}_*.deb" | head -n1)
        [[ -n "$file" ]] || lab_die "apt-get download $pkg=$ver left no .deb in $debs"
    fi
    printf '%s' "$file"
}

for fl in "${flavours[@]}"; do
    image=$(resolve_image "$fl")
    abi=${image#linux-image-}                  # 6.1.0-57-amd64 / 6.1.0-57-rt-amd64
    base=${abi%-"$fl"}                         # 6.1.0-57
    common="linux-headers-${base}-common"
    [[ "$fl" == rt-* ]] && common+="-rt"
    kdir=$(lab_kdir "$fl")
    if [[ -f "$kdir/abi" && "$(cat "$kdir/abi")" == "$abi" && -f "$kdir/vmlinuz" && -f "$kdir/build/Makefile" ]]; then
        lab_log "$fl: $abi already unpacked in $kdir"
        continue
    fi
    lab_log "$fl: kernel ABI $abi"
    pkgs=("$image" "linux-headers-$abi" "$common" linux-kbuild-6.1 linux-compiler-gcc-12-x86)
    files=()
    for p in "${pkgs[@]}"; do files+=("$(download "$p")"); done

    rm -rf "$kdir" && mkdir -p "$kdir/root"
    # From the image only vmlinuz and its config: the guest loads no module but ours.
    dpkg-deb --fsys-tarfile "${files[0]}" | tar -x -C "$kdir/root" "./boot/vmlinuz-$abi" "./boot/config-$abi"
    for f in "${files[@]:1}"; do
        dpkg -x "$f" "$kdir/root"
    done
    cp "$kdir/root/boot/vmlinuz-$abi" "$kdir/vmlinuz"
    cp "$kdir/root/boot/config-$abi" "$kdir/config"

    # The headers' top Makefile includes the -common tree by absolute path
    # (/usr/src/linux-headers-X-common); point it at the unpacked copy.
    hdr="$kdir/root/usr/src/linux-headers-$abi"
    [[ -f "$hdr/Makefile" ]] || lab_die "no $hdr/Makefile in linux-headers-$abi"
    sed -i "s#/usr/src/#$kdir/root/usr/src/#g" "$hdr/Makefile"
    # The kbuild tools (scripts/, tools/) are symlinks into /usr/lib/linux-kbuild-6.1: make them
    # relative to the unpacked tree.
    while IFS= read -r -d '' link; do
        target=$(readlink "$link")
        if [[ "$target" == /usr/* ]]; then ln -sfn "$kdir/root$target" "$link"; fi
    done < <(find "$kdir/root/usr/src" -type l -print0)
    ln -sfn "$hdr" "$kdir/build"
    printf '%s\n' "$abi" > "$kdir/abi"
    lab_log "$fl: vmlinuz and headers ready in $kdir"
done
