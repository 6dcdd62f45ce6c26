# SPDX-License-Identifier: GPL-2.0-or-later
# Cross-compiling for arm-linux-gnueabihf with Debian's cross toolchain (crossbuild-essential-armhf) and
# multiarch :armhf -dev packages; the built programs run under qemu-user
# (tests/cross/cross-test.sh, docs/install.md).
#   cmake -S . -B build-arm -DCMAKE_TOOLCHAIN_FILE=cmake/toolchains/arm-linux-gnueabihf.cmake
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR arm)
set(CMAKE_C_COMPILER arm-linux-gnueabihf-gcc)
set(CMAKE_CXX_COMPILER arm-linux-gnueabihf-g++)
# The target's .pc files only (multiarch: /usr/lib/arm-linux-gnueabihf/pkgconfig), never the build machine's.
set(ENV{PKG_CONFIG_LIBDIR} /usr/lib/arm-linux-gnueabihf/pkgconfig:/usr/share/pkgconfig)
# Every program the build runs (the man pages' help2man, the tests) goes through qemu-user;
# the variable tells a test it runs emulated, so what qemu-user cannot emulate (e.g. huge
# pages in /proc/self/smaps) skips with a reason instead of failing. The libraries are
# multiarch (/lib/arm-linux-gnueabihf), so qemu finds them without -L.
set(CMAKE_CROSSCOMPILING_EMULATOR env PPSBENCH_UNDER_EMULATOR=1 qemu-arm)
# 64-bit time_t and off_t: CMakeLists.txt asks for them on every 32-bit target (ppsbench_options).
