#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Checks that two builds of ppsbench (amd64 and an ARM one under qemu-user) gave the same
figures: every output file of tests/cross/figures.sh in A is in B, with the same exit status,
and the same text once every number is taken out, and every number equal within 1e-12
relative (JSON: every value, compared structurally; text: every number in reading order).
A JSON number is relative to its own size or to the largest number beside it in the same object
or list, whichever is larger: a figure that is zero by construction, such as the mean of
least-squares residuals (1e-13 ns of rounding beside a σ of 500 ns), is rounding noise on both
sides, and 32-bit ARM (no double-precision SIMD, so Eigen sums in another order) rounds it
differently.
Usage: same_figures.py A B"""
import json
import math
import re
import sys
from pathlib import Path

RELATIVE = 1e-12
NUMBER = re.compile(r"[-+−]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")


def close(a, b, scale=0.0):
    if a == b:
        return True
    if math.isnan(a) and math.isnan(b):
        return True
    return abs(a - b) <= RELATIVE * max(abs(a), abs(b), scale)


def scale_of(values):
    """The largest finite magnitude among the numbers in one object or list."""
    numbers = [abs(v) for v in values
               if isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)]
    return max(numbers, default=0.0)


def as_number(text):
    return float(text.replace("−", "-"))


def compare_text(a, b, where, problems):
    a_numbers, b_numbers = NUMBER.findall(a), NUMBER.findall(b)
    if NUMBER.sub("#", a) != NUMBER.sub("#", b) or len(a_numbers) != len(b_numbers):
        problems.append(f"{where}: the text differs beyond its numbers")
        return 0
    for i, (x, y) in enumerate(zip(a_numbers, b_numbers)):
        if not close(as_number(x), as_number(y)):
            problems.append(f"{where}: number {i + 1}: {x} != {y}")
    return len(a_numbers)


def compare_json(a, b, where, problems, scale=0.0):
    if isinstance(a, dict) and isinstance(b, dict):
        if a.keys() != b.keys():
            problems.append(f"{where}: keys {sorted(a.keys() ^ b.keys())} in one only")
            return 0
        inner = scale_of(a.values())
        return sum(compare_json(a[k], b[k], f"{where}.{k}", problems, inner) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        if len(a) != len(b):
            problems.append(f"{where}: {len(a)} items != {len(b)}")
            return 0
        inner = scale_of(a)
        return sum(compare_json(x, y, f"{where}[{i}]", problems, inner)
                   for i, (x, y) in enumerate(zip(a, b)))
    if isinstance(a, bool) or isinstance(b, bool) or a is None or b is None:
        if a != b:
            problems.append(f"{where}: {a!r} != {b!r}")
        return 0
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        if not close(float(a), float(b), scale):
            problems.append(f"{where}: {a!r} != {b!r}")
        return 1
    if isinstance(a, str) and isinstance(b, str):
        return compare_text(a, b, where, problems)
    problems.append(f"{where}: {a!r} != {b!r}")
    return 0


def main():
    a_dir, b_dir = Path(sys.argv[1]), Path(sys.argv[2])
    problems = []
    numbers = 0
    outputs = sorted(p for p in a_dir.iterdir() if p.suffix not in (".status", ".stderr"))
    for a in outputs:
        b = b_dir / a.name
        if not b.exists():
            problems.append(f"{a.name}: missing from {b_dir}")
            continue
        status_a = (a_dir / (a.name + ".status")).read_text().strip()
        status_b = (b_dir / (a.name + ".status")).read_text().strip()
        if status_a != status_b:
            problems.append(f"{a.name}: exit status {status_a} != {status_b}")
        a_text, b_text = a.read_text(), b.read_text()
        if a.suffix == ".json" and a_text.strip():
            try:
                numbers += compare_json(json.loads(a_text), json.loads(b_text), a.name, problems)
            except json.JSONDecodeError as e:
                problems.append(f"{a.name}: not JSON ({e})")
        else:
            numbers += compare_text(a_text, b_text, a.name, problems)
    for p in problems[:50]:
        print(f"same_figures.py: {p}", file=sys.stderr)
    if problems or not outputs:
        print(f"same_figures.py: {len(problems)} differences in {len(outputs)} outputs", file=sys.stderr)
        return 1
    print(f"same_figures.py: {len(outputs)} outputs, {numbers} numbers, all within {RELATIVE:g} relative"
          " (to the number or the largest beside it)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
