#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# ./dev.sh check's architecture rules fail on a planted violation of each kind, and pass on the
# tree as it is. Each case works on a fresh copy of the checkout's src/, include/, apps/ and the
# two docs the rule lives in, so the checkout itself is never touched.
# Usage: planted_test.sh SOURCE_DIR
set -u
source_dir=$1
checker=$source_dir/tests/architecture/check_architecture.py
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
passed=0
failed=0

fresh_copy() {
  rm -rf "$scratch/tree"
  mkdir -p "$scratch/tree/docs"
  cp -r "$source_dir/src" "$source_dir/include" "$source_dir/apps" "$scratch/tree/"
  cp "$source_dir/docs/modules.txt" "$source_dir/docs/architecture.md" "$scratch/tree/docs/"
}

# expect NAME EXIT_CODE TEXT: the checker on the scratch tree exits EXIT_CODE and prints TEXT.
expect() {
  local name=$1 code=$2 text=$3 out status=0
  out=$(python3 "$checker" --root "$scratch/tree" 2>&1) || status=$?
  if [ "$status" -eq "$code" ] && grep -qF -- "$text" <<<"$out"; then
    passed=$((passed + 1))
  else
    failed=$((failed + 1))
    echo "FAIL $name: exit $status (expected $code), output:" >&2
    echo "$out" | head -5 >&2
  fi
}

function_of() {  # NAME LINES: a C++ function NAME whose definition spans LINES lines
  echo "int $1() {"
  for ((i = 0; i < $2 - 3; i++)); do echo "    int v$i = $i;"; done
  echo "    return 0;"
  echo "}"
}

fresh_copy
expect "the tree as it is" 0 "hold to docs/modules.txt"

fresh_copy
printf '#include "ppsbench/stats/histogram.hpp"\n' >"$scratch/tree/src/render/planted.cpp"
expect "render reaching into stats" 1 \
  "src/render/planted.cpp:1: render includes ppsbench/stats/histogram.hpp, but render depends on analysis core latency"

fresh_copy
printf '#include "sysinfo/parse.hpp"\n' >"$scratch/tree/apps/ppsbench/planted.cpp"
printf '#include "sysinfo/parse.hpp"\n' >"$scratch/tree/apps/ppsbench/planted.cpp"
expect "the app including a private header" 1 \
  "apps/ppsbench/planted.cpp:1: apps/ includes sysinfo's private header sysinfo/parse.hpp"

fresh_copy
printf '#pragma once\n#include <Eigen/Dense>\n' >"$scratch/tree/include/ppsbench/stats/planted.hpp"
expect "Eigen in a public header" 1 "include/ppsbench/stats/planted.hpp:2: a public header includes <Eigen/Dense>"

fresh_copy
printf '#include <gpiod.hpp>\n' >"$scratch/tree/src/capture/planted.cpp"
expect "gpiod outside the GPIO backends" 1 "src/capture/planted.cpp:1: only a libgpiod backend file"
fresh_copy
printf '#include <gpiod.hpp>\n' >"$scratch/tree/src/latency/gpio_planted_v2.cpp"
expect "the C++ bindings in a v2 backend" 1 "src/latency/gpio_planted_v2.cpp:1: the v2 backends use"

fresh_copy
function_of planted 80 >"$scratch/tree/src/core/planted.cpp"
expect "a function of exactly 80 lines" 0 "hold to docs/modules.txt"
function_of planted 81 >"$scratch/tree/src/core/planted.cpp"
expect "a function of 81 lines" 1 "src/core/planted.cpp:1: planted is 81 lines (at most 80)"

fresh_copy
for n in $(seq 1 40); do function_of "f$n" 10; done >"$scratch/tree/src/core/planted.cpp"
expect "a file of 400 lines" 0 "hold to docs/modules.txt"
echo "// one line too many" >>"$scratch/tree/src/core/planted.cpp"
expect "a file of 401 lines" 1 "src/core/planted.cpp: 401 lines (at most 400)"
sed -i '1i // size: one table of forty rows reads best in one place' "$scratch/tree/src/core/planted.cpp"
expect "a long file that says why" 0 "hold to docs/modules.txt"

fresh_copy
echo "render: core analysis latency stats" >>"$scratch/tree/docs/modules.txt"
expect "the table changed but not its quote" 1 "docs/architecture.md: does not quote docs/modules.txt"

fresh_copy
sed -i 's/^core:$/core: stats/' "$scratch/tree/docs/modules.txt" "$scratch/tree/docs/architecture.md"
expect "a dependency cycle" 1 "docs/modules.txt: the dependencies go round: core -> stats -> core"

# A unity build compiles a target's files together: a name of a file's own (anonymous namespace,
# static) may be in one file of the target only, unless the namespaces differ.
own_name() {  # NAMESPACE: a file declaring `planted` in an anonymous namespace of NAMESPACE
  printf 'namespace %s {\nnamespace {\nconstexpr int planted = 1;\n}\n}\n' "$1"
}
fresh_copy
own_name ppsbench::core >"$scratch/tree/src/core/planted_a.cpp"
own_name ppsbench::stats >"$scratch/tree/src/stats/planted_b.cpp"
expect "one name in two namespaces" 0 "hold to docs/modules.txt"
own_name ppsbench::core >"$scratch/tree/src/core/planted_b.cpp"
expect "one name twice in a namespace" 1 \
  "src/core/planted_b.cpp:3: planted is also declared in src/core/planted_a.cpp"

# One SIMD switch (include/ppsbench/core/simd_target.hpp): the compiler's macros nowhere else,
# and the switch's macros only after its header.
fresh_copy
printf '#if defined(__SSE2__)\n#endif\n' >"$scratch/tree/src/stats/planted.cpp"
expect "a raw instruction-set test" 1 "src/stats/planted.cpp:1: tests __SSE2__"
printf '#if PPSBENCH_HAVE_SSE2\n#endif\n' >"$scratch/tree/src/stats/planted.cpp"
expect "the switch without its header" 1 \
  "src/stats/planted.cpp:1: tests PPSBENCH_HAVE_SSE2 before including"
printf '#include "ppsbench/core/simd_target.hpp"\n#if PPSBENCH_HAVE_SSE2\n#endif\n' \
  >"$scratch/tree/src/stats/planted.cpp"
expect "the switch with its header" 0 "hold to docs/modules.txt"

echo "architecture check: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
