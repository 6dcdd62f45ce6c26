# SPDX-License-Identifier: GPL-2.0-or-later
"""Per-stage and end-to-end costs of `ppsbench report --format json` (issue 26).

For each pulse count N (default 1e5 1e6 1e7) this writes a simulated capture once
(sim:threaded,missed=0.001,outliers=0.0005, as bench/report_bench), then prints

  * `report --format json` on the file: wall seconds, peak RSS (MB and bytes a pulse), and,
    with --callgrind (only for N <= --callgrind-max), instructions a pulse;
  * bench/report_stages on the file: each stage's wall time and resident high-water mark,
    and, under callgrind, its instructions a pulse.

Instruction counts come from valgrind's callgrind (hardware counters are not available on the
project's virtual machines); they are stable on a loaded machine where wall time is not.

Usage: python3 bench/stage_costs.py [--build build] [--dir /tmp/ppsbench-stage-costs]
                                    [--callgrind] [--callgrind-max 1000000] [N ...]
"""

import argparse
import glob
import os
import re
import resource
import subprocess
import sys
import tempfile
import time

SIM = "sim:threaded,missed=0.001,outliers=0.0005"


def capture(build, directory, n):
    path = os.path.join(directory, f"sim-{n}.csv")
    if not os.path.exists(path):
        partial = path + ".partial"
        subprocess.run([os.path.join(build, "ppsbench"), "run", "-s", SIM, "--count", str(n),
                        "-o", partial, "--force"], check=True, capture_output=True, timeout=3600)
        os.replace(partial, path)
    return path


def timed_child(cmd):
    """Wall seconds and peak RSS bytes of one child process."""
    start = time.monotonic()
    pid = os.fork()
    if pid == 0:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, 1)
        os.execvp(cmd[0], cmd)
    _, status, usage = os.wait4(pid, 0)
    wall = time.monotonic() - start
    if os.waitstatus_to_exitcode(status) not in (0, 1):
        sys.exit(f"stage_costs: {' '.join(cmd)} failed ({status})")
    return wall, usage.ru_maxrss * 1024, usage.ru_utime + usage.ru_stime


def callgrind_dumps(cmd):
    """[(dump description, instructions)] of a program run under callgrind, in dump order."""
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "cg.out")
        subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", *cmd],
                       check=True, capture_output=True, timeout=7200)
        dumps = []
        for path in sorted(glob.glob(out + "*"), key=dump_number):
            text = open(path, encoding="utf-8", errors="replace").read()
            trigger = re.search(r"^desc: Trigger: (.*)$", text, re.M)
            total = re.search(r"^(?:summary|totals): (\d+)", text, re.M)
            dumps.append((trigger.group(1) if trigger else "", int(total.group(1)) if total else 0))
        return dumps


def dump_number(path):
    match = re.search(r"\.(\d+)$", path)
    return int(match.group(1)) if match else 10**9  # the final dump (program end) last


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build", default="build")
    parser.add_argument("--dir", default="/tmp/ppsbench-stage-costs")
    parser.add_argument("--callgrind", action="store_true")
    parser.add_argument("--callgrind-max", type=int, default=1_000_000)
    parser.add_argument("counts", nargs="*", type=float, default=[1e5, 1e6, 1e7])
    args = parser.parse_args()
    os.makedirs(args.dir, exist_ok=True)
    ppsbench = os.path.join(args.build, "ppsbench")
    stages = os.path.join(args.build, "bench", "report_stages")
    print(f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} CPUs")
    for n in (int(c) for c in args.counts):
        path = capture(args.build, args.dir, n)
        report = [ppsbench, "report", path, "--format", "json"]
        wall, rss, cpu = timed_child(report)
        line = (f"N={n:>10}  report --format json: {wall:7.3f} s wall {cpu:7.3f} s CPU  "
                f"peak RSS {rss / 1e6:7.1f} MB = {rss / n:6.1f} B/pulse")
        if args.callgrind and n <= args.callgrind_max:
            total = sum(count for _, count in callgrind_dumps(report))
            line += f"  {total / n:7.0f} instructions/pulse"
        print(line, flush=True)
        result = subprocess.run([stages, path], check=True, capture_output=True, text=True,
                                timeout=3600)
        print("  " + result.stdout.strip().replace("\n", "\n  "), flush=True)
        if args.callgrind and n <= args.callgrind_max:
            for trigger, count in callgrind_dumps([stages, path]):
                name = trigger.split(":")[-1].strip()
                if trigger.startswith("Client Request"):
                    print(f"  instructions {name:<9} {count / n:8.0f} a pulse", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
