# SPDX-License-Identifier: GPL-2.0-or-later
"""Exactness guard for speed work on `ppsbench report` (issue 26).

A speed change may reorder floating-point sums, but every figure of `report --format json` must
stay within a relative 1e-12 of what the code gave before the change. This tool:

  capture DIR   writes a fixed set of simulated captures into DIR (once; reused later, so the
                before and after reports read the very same pulses)
  save DIR      runs `report --format json` on each and keeps the JSON as DIR/NAME.json
  compare DIR   runs it again and compares with the kept JSON: every number within a relative
                1e-12 (absolute 1e-300 near zero), every string, boolean and null equal, the
                same keys and array lengths; prints each difference, exits 1 on any

Usage: python3 bench/report_golden.py --ppsbench build/ppsbench {capture|save|compare} DIR

The captures cover both sim kernels, missed pulses (up to 40 %), outliers (up to 2 %), clock
steps (one back by two seconds), both edges, a free-running clock, a monotonic clock, a 1 ms
period, duplicates and swapped pulses, a sampled log with made-up sequence numbers, at sizes
above and below the 65 536-value sample of the order statistics (so both the exact-sample and
the bracketed selection paths run) up to a million pulses.
"""

import argparse
import json
import math
import os
import subprocess
import sys

# name: (run arguments, report arguments). Counts stay small enough to run in seconds.
CASES = {
    "threaded-20k": (["-s", "sim:threaded", "--count", "20000"], []),
    "threaded-missed-300k": (["-s", "sim:threaded,missed=0.01,outliers=0.0005", "--count", "300000"], []),
    "hardirq-missed-200k": (["-s", "sim:hardirq,missed=0.01", "--count", "200000"], []),
    "hardirq-step-100k": (["-s", "sim:hardirq,step=3ms,step-at=20000", "--count", "100000"], []),
    "threaded-step-detrend2-100k": (["-s", "sim:threaded,step=-2ms,step-at=50000", "--count", "100000"],
                                    ["--detrend", "2"]),
    "edge-both-150k": (["-s", "sim:threaded,missed=0.001", "--edge", "both", "--count", "150000"], []),
    "edge-both-clear-150k": (["-s", "sim:threaded,missed=0.001", "--edge", "both", "--count", "150000"],
                             ["--edge", "clear"]),
    "free-running-100k": (["-s", "sim:threaded,freq=3", "--count", "100000"], []),
    # The simulator records a realtime clock; this file is rewritten to say monotonic (as a GPIO
    # capture does), so the detrended residuals are the headline.
    "monotonic-100k": (["-s", "sim:hardirq,missed=0.005", "--count", "100000"], []),
    # Valid data the fast paths must not assume away: heavy loss, many outliers, a 1 ms period,
    # a clock stepped back by two seconds (out-of-order timestamps), and a million pulses (the
    # bracketed selection with many windows, MTIE's segmented long windows).
    "heavy-loss-100k": (["-s", "sim:threaded,missed=0.4", "--count", "100000"], []),
    "outliers-2pc-100k": (["-s", "sim:hardirq,outliers=0.02,outlier-size=3ms", "--count", "100000"], []),
    "period-1ms-200k": (["-s", "sim:threaded,missed=0.002", "--period", "1ms", "--count", "200000"], []),
    "step-back-100k": (["-s", "sim:hardirq,step=-2s,step-at=30000", "--count", "100000"], []),
    "threaded-1m": (["-s", "sim:threaded,missed=0.001,outliers=0.0005", "--count", "1000000"], []),
    # Rewritten below (TRANSFORMS): duplicates and swapped neighbours; a sampled log whose
    # sequence numbers are made up (one pulse in 16, numbered 0).
    "duplicates-swaps-200k": (["-s", "sim:hardirq,missed=0.01", "--count", "200000"], []),
    "sampled-synthetic-200k": (["-s", "sim:threaded", "--count", "200000"], []),
}
MONOTONIC = {"monotonic-100k"}


def duplicates_and_swaps(lines):
    """Every 997th pulse line repeated 200 µs later; every 1499th swapped with the next."""
    out = []
    pulses = 0
    for line in lines:
        if line[:1].isdigit():
            pulses += 1
            if pulses % 997 == 0:
                seq, edge, ts = line.rstrip("\n").split(",")
                out.append(line)
                out.append(f"{seq},{edge},{int(ts) + 200000}\n")
                continue
            if pulses % 1499 == 0 and out and out[-1][:1].isdigit():
                out.insert(len(out) - 1, line)
                continue
        out.append(line)
    return out


def sampled_synthetic(lines):
    """One pulse in 16 kept, numbered 0, recorded as a sampled log with made-up numbers."""
    out = []
    pulses = 0
    for line in lines:
        if line.startswith("# meta "):
            line = line.replace('"cadence":"every-edge"', '"cadence":"sampled"', 1)
            line = line.replace('"sequence_numbers":"kernel"', '"sequence_numbers":"synthetic"', 1)
        elif line[:1].isdigit():
            pulses += 1
            if pulses % 16 != 1:
                continue
            _, edge, ts = line.split(",")
            line = f"0,{edge},{ts}"
        out.append(line)
    return out


TRANSFORMS = {"duplicates-swaps-200k": duplicates_and_swaps,
              "sampled-synthetic-200k": sampled_synthetic}

RELATIVE = 1e-12
TINY = 1e-300


def run(cmd):
    result = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    if result.returncode not in (0, 1):
        sys.exit(f"report_golden: {' '.join(cmd)} exited {result.returncode}: {result.stderr.strip()}")
    return result


def capture(binary, directory):
    os.makedirs(directory, exist_ok=True)
    for name, (run_args, _) in CASES.items():
        path = os.path.join(directory, name + ".csv")
        if os.path.exists(path):
            continue
        partial = path + ".partial"
        run([binary, "run", *run_args, "-o", partial, "--force"])
        if name in MONOTONIC:
            with open(partial, encoding="utf-8") as f:
                text = f.read()
            if '"clock":"realtime"' not in text:
                sys.exit(f"report_golden: {partial} does not record a realtime clock to rewrite")
            with open(partial, "w", encoding="utf-8") as f:
                f.write(text.replace('"clock":"realtime"', '"clock":"monotonic"', 1))
        if name in TRANSFORMS:
            with open(partial, encoding="utf-8") as f:
                lines = f.readlines()
            with open(partial, "w", encoding="utf-8") as f:
                f.writelines(TRANSFORMS[name](lines))
        os.replace(partial, path)
        print(f"wrote {path}")


def report(binary, directory, name):
    path = os.path.join(directory, name + ".csv")
    if not os.path.exists(path):
        sys.exit(f"report_golden: {path} is missing; run 'capture {directory}' first")
    result = run([binary, "report", path, "--format", "json", *CASES[name][1]])
    return json.loads(result.stdout)


def differences(old, new, where="$"):
    if isinstance(old, bool) or isinstance(new, bool) or old is None or new is None:
        if old != new or type(old) is not type(new):
            yield f"{where}: {old!r} -> {new!r}"
    elif isinstance(old, (int, float)) and isinstance(new, (int, float)):
        if isinstance(old, float) or isinstance(new, float):
            if math.isnan(old) or math.isnan(new):
                if not (math.isnan(old) and math.isnan(new)):
                    yield f"{where}: {old!r} -> {new!r}"
                return
        scale = max(abs(old), abs(new))
        if abs(old - new) > max(RELATIVE * scale, TINY):
            rel = abs(old - new) / scale
            yield f"{where}: {old!r} -> {new!r} (relative {rel:.3g})"
    elif isinstance(old, str) and isinstance(new, str):
        if where.endswith(".file"):  # the capture's path: the same file wherever DIR is
            old, new = os.path.basename(old), os.path.basename(new)
        if old != new:
            yield f"{where}: {old!r} -> {new!r}"
    elif isinstance(old, dict) and isinstance(new, dict):
        for key in sorted(set(old) | set(new)):
            if key not in new:
                yield f"{where}.{key}: missing now"
            elif key not in old:
                yield f"{where}.{key}: new key"
            else:
                yield from differences(old[key], new[key], f"{where}.{key}")
    elif isinstance(old, list) and isinstance(new, list):
        if len(old) != len(new):
            yield f"{where}: {len(old)} elements -> {len(new)}"
        for i, (a, b) in enumerate(zip(old, new)):
            yield from differences(a, b, f"{where}[{i}]")
    else:
        yield f"{where}: {type(old).__name__} {old!r} -> {type(new).__name__} {new!r}"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ppsbench", default="build/ppsbench", help="the binary to run")
    parser.add_argument("action", choices=["capture", "save", "compare"])
    parser.add_argument("directory")
    args = parser.parse_args()
    if args.action == "capture":
        capture(args.ppsbench, args.directory)
        return 0
    failed = 0
    numbers = 0
    for name in CASES:
        document = report(args.ppsbench, args.directory, name)
        golden = os.path.join(args.directory, name + ".json")
        if args.action == "save":
            with open(golden, "w", encoding="utf-8") as out:
                json.dump(document, out, indent=1, sort_keys=True)
            print(f"saved {golden}")
            continue
        with open(golden, encoding="utf-8") as kept:
            old = json.load(kept)
        found = list(differences(old, document))
        numbers = sum(1 for _ in walk_numbers(old))
        print(f"{name}: {numbers} numbers, {len(found)} differences")
        for line in found[:40]:
            print("  " + line)
        failed += bool(found)
    return 1 if failed else 0


def walk_numbers(value):
    if isinstance(value, dict):
        for v in value.values():
            yield from walk_numbers(v)
    elif isinstance(value, list):
        for v in value:
            yield from walk_numbers(v)
    elif isinstance(value, (int, float)) and not isinstance(value, bool):
        yield value


if __name__ == "__main__":
    sys.exit(main())
