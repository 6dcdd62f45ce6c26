# SPDX-License-Identifier: GPL-2.0-or-later
# Cross-compiling for aarch64-linux-gnu with Debian's cross toolchain (crossbuild-essential-arm64) and
# multiarch :arm64 -dev packages; the built programs run under qemu-user
# (tests/cross/cross-test.sh, docs/install.md).
#   cmake -S . -B build-aarch64 -DCMAKE_TOOLCHAIN_FILE=cmake/toolchains/aarch64-linux-gnu.cmake
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(CMAKE_C_COMPILER aarch64-linux-gnu-gcc)
set(CMAKE_CXX_COMPILER aarch64-linux-gnu-g++)
# The target's .pc files only (multiarch: /usr/lib/aarch64-linux-gnu/pkgconfig), never the build machine's.
set(ENV{PKG_CONFIG_LIBDIR} /usr/lib/aarch64-linux-gnu/pkgconfig:/usr/share/pkgconfig)
# Every program the build runs (the man pages' help2man, the tests) goes through qemu-user;
# the variable tells a test it runs emulated, so what qemu-user cannot emulate (e.g. huge
# pages in /proc/self/smaps) skips with a reason instead of failing. The libraries are
# multiarch (/lib/aarch64-linux-gnu), so qemu finds them without -L.
set(CMAKE_CROSSCOMPILING_EMULATOR env PPSBENCH_UNDER_EMULATOR=1 qemu-aarch64)
