#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# One entry point for people and CI (README.md):
#   ./dev.sh run    install what is needed, build, and run the main job: a capture on /dev/pps0
#                   when it exists, otherwise the built-in (simulated) demo
#   ./dev.sh test   install what is needed, build, and run every test: a warnings-as-errors
#                   build, then the same tests under AddressSanitizer + UndefinedBehaviorSanitizer
#                   (as root in a Debian 13 root, tests/release/, so one leg covers the other
#                   release), each fuzz harness briefly (fuzz/, clang) and, as root, the package
#                   check with its ARM legs and the real-kernel lab (below) at the end; its
#                   builds are unity builds
#                   (PPSBENCH_UNITY_BUILD, CMakeLists.txt), and it prints each step's time
#   ./dev.sh sanitize [DIR]
#                   the sanitizer leg alone, on this machine (what ./dev.sh test runs in the root)
#   ./dev.sh check  the rules the build cannot see: every #include against the module table
#                   (docs/modules.txt), the size rule (no function over 80 lines, no file over 400
#                   without a reason) and clang-format; ./dev.sh test runs it first
#   ./dev.sh build  install and build only (one file at a time unless ./dev.sh test configured
#                   build/ as a unity build: an edit then recompiles its batch)
#   ./dev.sh package
#                   build the Debian package (dpkg-buildpackage, lintian), install it into a
#                   clean Debian 12 root made by mmdebstrap and run it there, then boot such a
#                   root with systemd-nspawn and run the monitor and nightly units under its
#                   systemd (tests/package/); the same for Debian 13, its package built in the
#                   Debian 13 root (build-deb/trixie/); then the ARM legs: the arm64 and armhf
#                   packages cross-built for Debian 13 with their unit tests run under
#                   qemu-user, and the ARM program's figures against this machine's build
#                   (tests/cross/cross-test.sh; all three Debian 13 .debs in build-deb/trixie/);
#                   needs root, downloads ~100 MB of .debs once (cached), the Debian 13 root's
#                   ~700 MB and the ARM root's ~600 MB
#   ./dev.sh cross [RELEASE] [ARCH...]
#                   the ARM legs alone (tests/cross/cross-test.sh; Debian 13 and arm64 and
#                   armhf by default; bookworm for Raspberry Pi OS bookworm's Debian 12); needs
#                   root
#   ./dev.sh lab [run-lab.sh options]
#                   build, then boot Debian's stock, threadirqs and PREEMPT_RT kernels under QEMU
#                   with the lab's PPS module and run ppsbench in them (tests/lab/, docs/lab.md);
#                   needs root (it installs QEMU and friends), downloads ~160 MB once
# Environment: PPSBENCH_JOBS (parallel jobs, default: nproc), PPSBENCH_DURATION (run: 10m),
#   PPSBENCH_SKIP_LAB=1 (test: skip the lab), PPSBENCH_LAB_CACHE (lab downloads; default
#   tests/lab/.cache), PPSBENCH_SKIP_PACKAGE=1 (test: skip the package check),
#   PPSBENCH_PACKAGE_CACHE (its .deb downloads; default tests/package/.cache),
#   PPSBENCH_SKIP_DEBIAN13=1 (test, package: no Debian 13 root; the sanitizer leg runs here),
#   PPSBENCH_SKIP_ARM=1 (test, package: no ARM legs), PPSBENCH_CROSS_CACHE (their root;
#   default tests/cross/.cache),
#   PPSBENCH_RELEASE_CACHE (the Debian 13 root; default tests/release/.cache),
#   PPSBENCH_SKIP_FUZZ=1 (test: skip the fuzz harnesses), PPSBENCH_FUZZ_SECONDS (test: seconds
#   per fuzz harness, default 3), PPSBENCH_PROPERTY_CASES (test: after the fuzzers, the
#   metamorphic property suite again with this many cases per property; CI's run has 200).
set -euo pipefail
cd "$(dirname "$0")"

jobs=${PPSBENCH_JOBS:-$(nproc)}
build_packages=(cmake ninja-build g++ pkg-config libgpiod-dev libboost-program-options-dev
  libfmt-dev libeigen3-dev nlohmann-json3-dev zlib1g-dev pps-tools libgtest-dev libgmock-dev
  libbenchmark-dev help2man)
# Only the tests need these: a real chronyd, numpy as an independent oracle, clang-format,
# setpriv (util-linux) to test permission errors without root, xmllint/rsvg for SVG checks,
# chromium and tidy for the --html page (tests/page), cmark-gfm for the Markdown labels,
# promtool (Debian: prometheus) to check and unit-test dist/prometheus/ppsbench.rules.yml, and a
# real node_exporter (prometheus-node-exporter) scraping the --prometheus textfile, zsh for the
# zsh completion test (tests/install).
test_packages=(chrony python3-numpy python3-prometheus-client clang-format util-linux libxml2-utils
  librsvg2-bin chromium tidy cmark-gfm prometheus prometheus-node-exporter zsh)
# ./dev.sh check: the architecture checker (Python) and Universal Ctags for the functions' ends.
check_packages=(python3 universal-ctags clang-format)
# The fuzz harnesses (fuzz/): Debian's clang with its libFuzzer/sanitizer runtimes (only
# recommended by clang, so named here) and llvm-symbolizer for readable crash reports; the
# release's own LLVM (Debian 12: 14, Debian 13: 19).
llvm=14
[ "$(. /etc/os-release 2>/dev/null && echo "${VERSION_ID:-}")" = 13 ] && llvm=19
fuzz_packages=(clang "libclang-rt-$llvm-dev" "llvm-$llvm")

# How long each step of a command took, one line each ("dev.sh: build 312 s"), so a CI log
# shows where its time went; a failing step says so with its time too.
step_name=""
step_started=$SECONDS
step() {  # NAME: the step that starts now (the one before it has ended)
  step_name=$1
  step_started=$SECONDS
}
took() {  # the step that just ended
  echo "dev.sh: $step_name $((SECONDS - step_started)) s"
  step_name=""
}
report_failed_step() {
  local status=$?
  if [ "$status" -ne 0 ] && [ -n "$step_name" ]; then
    echo "dev.sh: $step_name failed after $((SECONDS - step_started)) s (exit $status)" >&2
  fi
}
trap report_failed_step EXIT

install_packages() {
  local missing=()
  for p in "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  local sudo=()
  [ "$(id -u)" -ne 0 ] && sudo=(sudo)
  echo "dev.sh: installing ${missing[*]}"
  "${sudo[@]}" apt-get -o Acquire::Retries=3 update -qq
  # No service start on install: a test starts its own chronyd; the host's clock is left alone.
  local made_policy=0
  if [ ! -e /usr/sbin/policy-rc.d ]; then
    printf '#!/bin/sh\nexit 101\n' | "${sudo[@]}" tee /usr/sbin/policy-rc.d >/dev/null
    "${sudo[@]}" chmod +x /usr/sbin/policy-rc.d
    made_policy=1
  fi
  DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get -o Acquire::Retries=3 install -y -qq --no-install-recommends \
    "${missing[@]}" >/dev/null
  [ "$made_policy" -eq 1 ] && "${sudo[@]}" rm -f /usr/sbin/policy-rc.d
  return 0
}

configure_and_build() {  # DIR [cmake args...]
  local dir=$1
  shift
  # ccache when the machine has it: paths relative to the checkout, so every clone and worktree
  # of the project shares one cache (a rebuild after a small change takes seconds, not minutes).
  local launcher=()
  if command -v ccache >/dev/null 2>&1; then
    export CCACHE_BASEDIR=$PWD CCACHE_NOHASHDIR=1
    launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
  fi
  cmake -S . -B "$dir" -G Ninja "${launcher[@]}" "$@" >/dev/null
  cmake --build "$dir" -j "$jobs"
}

check_format() {
  local files
  files=$(git ls-files '*.cpp' '*.hpp' 2>/dev/null | grep -v '^tests/lab/' || true)
  [ -z "$files" ] && return 0
  # shellcheck disable=SC2086
  clang-format --dry-run -Werror $files
  echo "dev.sh: clang-format: clean"
}

run_checks() {
  check_format
  python3 tests/architecture/check_architecture.py
}

# The Debian package, built and installed for real; the tests have already run, so the package
# build skips them (nocheck).
package_packages=(debhelper dpkg-dev lintian mmdebstrap man-db bash-completion systemd-container)
# What a release root (tests/release/) needs beside the build and test packages: the package
# build (git lists the files it copies) and the Python checks of ./dev.sh check.
root_packages=(build-essential debhelper dpkg-dev lintian git python3)
run_package() {
  if [ "$(id -u)" -ne 0 ]; then
    echo "dev.sh: the package check needs root: mmdebstrap builds a Debian 12 chroot (sudo ./dev.sh package)" >&2
    return 1
  fi
  local start=$SECONDS
  step package-build
  DEB_BUILD_OPTIONS=nocheck PPSBENCH_JOBS=$jobs PPSBENCH_WERROR=ON tests/package/build-deb.sh build-deb
  took
  step package-install
  tests/package/install-test.sh build-deb/ppsbench_*_"$(dpkg --print-architecture)".deb "${PPSBENCH_PACKAGE_CACHE:-tests/package/.cache}"
  took
  # The units under a real systemd: the same root with systemd, booted by systemd-nspawn
  # (SKIPPED, exit 0, where the machine cannot boot a container).
  step package-systemd
  tests/package/systemd-test.sh build-deb/ppsbench_*_"$(dpkg --print-architecture)".deb "${PPSBENCH_PACKAGE_CACHE:-tests/package/.cache}"
  took
  echo "dev.sh: package: built, lintian clean, installed and run in a clean Debian 12 in $((SECONDS - start)) s"
  if [ "${PPSBENCH_SKIP_DEBIAN13:-0}" = 1 ]; then
    echo "dev.sh: package for Debian 13: SKIPPED because PPSBENCH_SKIP_DEBIAN13=1"
    return 0
  fi
  # Debian 13's package: built in the Debian 13 root with its debhelper and lintian, then
  # installed and run in a clean Debian 13 root and booted there, as the Debian 12 one.
  start=$SECONDS
  step debian13-root
  local root
  root=$(release_root trixie)
  took
  step package-debian13-build
  tests/release/run-in-root.sh "$root" env DEB_BUILD_OPTIONS=nocheck PPSBENCH_JOBS="$jobs" \
    PPSBENCH_WERROR=ON tests/package/build-deb.sh build-deb/trixie
  took
  local cache=${PPSBENCH_PACKAGE_CACHE:-tests/package/.cache}/trixie
  step package-debian13-install
  PPSBENCH_RELEASE=trixie tests/package/install-test.sh build-deb/trixie/ppsbench_*_amd64.deb "$cache"
  took
  step package-debian13-systemd
  PPSBENCH_RELEASE=trixie tests/package/systemd-test.sh build-deb/trixie/ppsbench_*_amd64.deb "$cache"
  took
  echo "dev.sh: package: built, lintian clean, installed and run in a clean Debian 13 in $((SECONDS - start)) s"
  run_arm_legs
}

# The ARM legs (Raspberry Pi OS trixie's architectures): arm64 and armhf packages cross-built in
# a Debian 13 root, their unit tests run under qemu-user in the same build, lintian-clean, and
# the ARM program's figures equal to this machine's build's (tests/cross/cross-test.sh). The
# .debs go beside the amd64 one, in build-deb/trixie/.
run_arm_legs() {
  if [ "${PPSBENCH_SKIP_ARM:-0}" = 1 ]; then
    echo "dev.sh: ARM legs: SKIPPED because PPSBENCH_SKIP_ARM=1 (sudo ./dev.sh cross runs them alone)"
    return 0
  fi
  local start=$SECONDS
  step arm-debian13
  PPSBENCH_JOBS=$jobs PPSBENCH_CROSS_OUT=build-deb/trixie tests/cross/cross-test.sh trixie arm64 armhf
  took
  echo "dev.sh: ARM: arm64 and armhf built, unit-tested under qemu-user, figures equal amd64's, lintian clean in $((SECONDS - start)) s"
}

# Each libFuzzer harness (fuzz/) for a few seconds over its committed corpus; new inputs go to a
# scratch folder, so the committed corpus stays small. Bounded: a harness gets
# PPSBENCH_FUZZ_SECONDS (3) and a hard timeout, 2 GB of memory and 100 MB of file output.
run_fuzzers() {
  local start=$SECONDS clang
  clang=$(command -v "clang++-$llvm" || command -v clang++ || true)
  if [ -z "$clang" ]; then
    echo "dev.sh: fuzz: clang++ is missing (apt-get install ${fuzz_packages[*]}; PPSBENCH_SKIP_FUZZ=1 skips the step)" >&2
    return 1
  fi
  local seconds=${PPSBENCH_FUZZ_SECONDS:-3}
  echo "dev.sh: now each fuzz harness for ${seconds} s (fuzz/; PPSBENCH_SKIP_FUZZ=1 skips it)"
  # Only the harnesses: no man pages (they would build the whole app with clang).
  step fuzz-build
  configure_and_build build-fuzz -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_COMPILER="$clang" \
    -DPPSBENCH_FUZZ=ON -DPPSBENCH_BUILD_TESTS=OFF -DPPSBENCH_BUILD_BENCH=OFF -DPPSBENCH_MAN_PAGES=OFF \
    -DPPSBENCH_UNITY_BUILD=ON
  took
  step fuzz-run
  if [ -x "/usr/lib/llvm-$llvm/bin/llvm-symbolizer" ]; then
    export ASAN_SYMBOLIZER_PATH=/usr/lib/llvm-$llvm/bin/llvm-symbolizer
  fi
  # A failing input is kept here (not in the checkout) to reproduce: HARNESS FILE.
  mkdir -p build-fuzz/artifacts
  local harness name scratch log status
  for harness in build-fuzz/fuzz/*_fuzz; do
    name=$(basename "$harness" _fuzz)
    scratch=$(mktemp -d)
    log=$(mktemp)
    status=0
    (ulimit -f 100000; timeout $((seconds + 60)) "$harness" -max_total_time="$seconds" \
      -rss_limit_mb=2048 -timeout=10 -print_final_stats=1 \
      -artifact_prefix="build-fuzz/artifacts/$name-" "$scratch" "fuzz/corpus/$name" \
      >"$log" 2>&1) || status=$?
    if [ "$status" -ne 0 ]; then
      tail -40 "$log" >&2
      rm -rf "$scratch" "$log"
      echo "dev.sh: fuzz: $name failed (exit $status); the input is in build-fuzz/artifacts/ (run $harness FILE to reproduce)" >&2
      return 1
    fi
    sed -n "s/^stat::number_of_executed_units: *\([0-9]*\)/  $name: \1 runs, nothing found/p" "$log"
    rm -rf "$scratch" "$log"
  done
  took
  echo "dev.sh: fuzz: every harness clean in $((SECONDS - start)) s"
}

run_lab() {  # [run-lab.sh options]
  if [ "$(id -u)" -ne 0 ]; then
    echo "dev.sh: the lab needs root: it installs qemu-system-x86 and boots kernels (sudo ./dev.sh lab)" >&2
    return 1
  fi
  tests/lab/run-lab.sh --ppsbench build/ppsbench "$@"
}

# The tests again under AddressSanitizer + UndefinedBehaviorSanitizer, warnings as errors, in
# DIR: on this machine, or in the Debian 13 root (./dev.sh sanitize DIR is what runs there).
run_sanitizer_leg() {  # DIR
  echo "dev.sh: now the same tests under AddressSanitizer + UndefinedBehaviorSanitizer ($(
    . /etc/os-release && echo "$PRETTY_NAME"), $(c++ --version | head -n 1))"
  step sanitizer-build
  configure_and_build "$1" -DCMAKE_BUILD_TYPE=Debug -DPPSBENCH_SANITIZE=ON -DPPSBENCH_WERROR=ON \
    -DPPSBENCH_BUILD_BENCH=OFF -DPPSBENCH_UNITY_BUILD=ON
  took
  step sanitizer-ctest
  ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1 \
    ctest --test-dir "$1" --output-on-failure -j "$jobs"
  took
}

# A root of another Debian release (tests/release/) with what a build, every test and the
# package build need there; made once and kept in PPSBENCH_RELEASE_CACHE.
release_root() {  # RELEASE: prints the root's path
  tests/release/release-root.sh "$1" "${PPSBENCH_RELEASE_CACHE:-tests/release/.cache}" \
    "${build_packages[@]}" "${test_packages[@]}" "${root_packages[@]}"
}

case "${1:-}" in
  run)
    install_packages "${build_packages[@]}"
    # Its own build folder: the test build's settings (-Werror, sanitizers) stay out of it.
    # A first build is from scratch: in batches, as ./dev.sh test's (a third of the time).
    configure_and_build build-release -DCMAKE_BUILD_TYPE=Release -DPPSBENCH_BUILD_TESTS=OFF \
      -DPPSBENCH_WERROR=OFF -DPPSBENCH_UNITY_BUILD=ON
    if [ -e /dev/pps0 ]; then
      exec ./build-release/ppsbench run --source pps:/dev/pps0 --duration "${PPSBENCH_DURATION:-10m}" \
        --label "$(uname -r)"
    fi
    echo "dev.sh: no /dev/pps0 here, so running the simulated demo"
    exec ./build-release/ppsbench demo
    ;;
  test)
    # Every build here is from scratch on CI, so they compile in batches (PPSBENCH_UNITY_BUILD).
    step install
    if [ "${PPSBENCH_SKIP_FUZZ:-0}" = 1 ]; then
      install_packages "${build_packages[@]}" "${test_packages[@]}" "${check_packages[@]}"
    else
      install_packages "${build_packages[@]}" "${test_packages[@]}" "${check_packages[@]}" \
        "${fuzz_packages[@]}"
    fi
    took
    step check
    run_checks
    took
    step build
    configure_and_build build -DCMAKE_BUILD_TYPE=RelWithDebInfo -DPPSBENCH_WERROR=ON \
      -DPPSBENCH_UNITY_BUILD=ON
    took
    step ctest
    ctest --test-dir build --output-on-failure -j "$jobs"
    took
    # The sanitizer leg is also the Debian 13 leg: the same tests under ASan/UBSan, built with
    # Debian 13's g++ 14, libgpiod 2, fmt 10 and Boost 1.83 and run against its chrony 4.6, in a
    # root of its own; one leg covers both (Debian 12's compilers and libraries had the build
    # and tests above). Without root (no chroot) it runs here, on this machine's release.
    if [ "${PPSBENCH_SKIP_DEBIAN13:-0}" = 1 ] || [ "$(id -u)" -ne 0 ]; then
      echo "dev.sh: debian13: SKIPPED because $([ "$(id -u)" -ne 0 ] && echo "it needs root (chroot)" ||
        echo PPSBENCH_SKIP_DEBIAN13=1); the sanitizer leg runs on this machine's release instead"
      run_sanitizer_leg build-sanitize
    else
      step debian13-root
      debian13_root=$(release_root trixie)
      took
      echo "dev.sh: now the tests under AddressSanitizer + UndefinedBehaviorSanitizer in Debian 13 ($debian13_root)"
      tests/release/run-in-root.sh "$debian13_root" env PPSBENCH_JOBS="$jobs" \
        ./dev.sh sanitize build-debian13-sanitize
    fi
    if [ "${PPSBENCH_SKIP_FUZZ:-0}" = 1 ]; then
      echo "dev.sh: fuzz: SKIPPED because PPSBENCH_SKIP_FUZZ=1"
    else
      run_fuzzers
    fi
    # The long mode of tests/analysis/metamorphic_property_test.cpp: more seeds, same checks.
    if [ -n "${PPSBENCH_PROPERTY_CASES:-}" ]; then
      echo "dev.sh: now the metamorphic property suite, ${PPSBENCH_PROPERTY_CASES} cases per property"
      step property-suite
      PPSBENCH_PROPERTY_CASES=$PPSBENCH_PROPERTY_CASES build/tests/analysis_tests \
        --gtest_filter='MetamorphicProperty.*'
      took
    fi
    if [ "${PPSBENCH_SKIP_PACKAGE:-0}" = 1 ]; then
      echo "dev.sh: package: SKIPPED because PPSBENCH_SKIP_PACKAGE=1"
    elif [ "$(id -u)" -ne 0 ]; then
      echo "dev.sh: package: SKIPPED because it needs root (mmdebstrap builds a chroot); run sudo ./dev.sh package"
    else
      echo "dev.sh: now the Debian package: build, lintian, install into a clean Debian 12 (PPSBENCH_SKIP_PACKAGE=1 skips it)"
      step package-install-tools
      install_packages "${package_packages[@]}"
      took
      # With the ARM legs (Debian 13 arm64 and armhf: one cross build each, its unit tests under
      # qemu-user, the figures against amd64) CI's run takes about 65 minutes on a quiet
      # two-core machine from cold caches (docs/install.md); PPSBENCH_SKIP_ARM=1 leaves them out.
      run_package
    fi
    # The lab last: it is the slowest part (a few minutes) and needs root.
    if [ "${PPSBENCH_SKIP_LAB:-0}" = 1 ]; then
      echo "dev.sh: lab: SKIPPED because PPSBENCH_SKIP_LAB=1"
    elif [ "$(id -u)" -ne 0 ]; then
      echo "dev.sh: lab: SKIPPED because it needs root (it installs QEMU and boots kernels); run sudo ./dev.sh lab"
    else
      echo "dev.sh: now the real-kernel lab (tests/lab/run-lab.sh; PPSBENCH_SKIP_LAB=1 skips it)"
      step lab
      run_lab
      took
    fi
    echo "dev.sh: test: every step passed in $SECONDS s"
    ;;
  lab)
    shift
    install_packages "${build_packages[@]}"
    configure_and_build build -DCMAKE_BUILD_TYPE=RelWithDebInfo
    run_lab "$@"
    ;;
  package)
    install_packages "${build_packages[@]}" "${package_packages[@]}"
    # The ARM legs compare their figures with this machine's build.
    configure_and_build build -DCMAKE_BUILD_TYPE=RelWithDebInfo
    run_package
    ;;
  sanitize)  # [DIR]: the sanitizer leg alone (./dev.sh test runs it in the Debian 13 root)
    install_packages "${build_packages[@]}" "${test_packages[@]}"
    run_sanitizer_leg "${2:-build-sanitize}"
    ;;
  cross)  # [RELEASE] [ARCH...]: the ARM legs alone (tests/cross/cross-test.sh)
    shift
    if [ "$(id -u)" -ne 0 ]; then
      echo "dev.sh: the cross legs need root (mmdebstrap, chroot): sudo ./dev.sh cross" >&2
      exit 2
    fi
    install_packages mmdebstrap "${build_packages[@]}"
    # The figures are compared with this machine's own build of the same tree.
    configure_and_build build -DCMAKE_BUILD_TYPE=RelWithDebInfo
    words=("$@")
    case " ${words[*]} " in *" arm64 "* | *" armhf "*) ;; *) words+=(arm64 armhf) ;; esac
    step cross
    tests/cross/cross-test.sh "${words[@]}"
    took
    ;;
  check)
    install_packages "${check_packages[@]}"
    run_checks
    ;;
  build)
    install_packages "${build_packages[@]}"
    configure_and_build build -DCMAKE_BUILD_TYPE=RelWithDebInfo
    ;;
  *)
    echo "usage: ./dev.sh run|test|check|build|package|cross|lab|sanitize" >&2
    exit 2
    ;;
esac
