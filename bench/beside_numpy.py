#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""`ppsbench report --format json` beside numpy's load and basic statistics, in one run (issue 26).

Issue 26 asks that ppsbench, computing every figure of its report (Allan family, MTIE,
intervals, order statistics), take at most a quarter of the time numpy takes merely to load the
same capture and compute mean, σ, peak-to-peak and four percentiles of |offset|. Both are timed
here on the same file, alternating, several times, so machine load hits both alike:

  numpy   np.loadtxt(FILE, delimiter=",", comments="#", skiprows=3, usecols=(2,),
          dtype=np.int64); offsets o = t − P·round(t/P) as float64; o.mean(), o.std(ddof=1),
          np.ptp(o), np.percentile(|o|, [50, 90, 99, 99.9])
  ppsbench  build/ppsbench report FILE --format json  (output discarded)

Prints each run's wall seconds, the medians and their ratio. numpy is Debian's python3-numpy
(/usr/bin/python3: a pyenv python on PATH may lack it); its version is printed.

Usage: /usr/bin/python3 bench/beside_numpy.py [--ppsbench build/ppsbench] [--runs 3] FILE...
"""

import argparse
import statistics
import subprocess
import sys
import threading
import time

NUMPY_SNIPPET = r"""
import sys, numpy as np
t = np.loadtxt(sys.argv[1], delimiter=",", comments="#", skiprows=3, usecols=(2,),
               dtype=np.int64)
P = int(sys.argv[2])
o = (t - P * np.round(t / P).astype(np.int64)).astype(np.float64)
figures = (o.mean(), o.std(ddof=1), np.ptp(o), np.percentile(np.abs(o), [50, 90, 99, 99.9]))
print(len(t), figures[0], figures[1])
"""


def timed(cmd):
    """Wall seconds of `cmd`, to the millisecond.

    Not subprocess.run(timeout=...): with a timeout, Popen.wait() polls with sleeps growing to
    50 ms, so every time came out rounded up to the next poll (0.127 s read as 0.17), which
    inflated the ratio most on the shortest runs. Here the wait blocks in waitpid(), and a
    timer kills a run that hangs.
    """
    start = time.monotonic()
    process = subprocess.Popen(cmd, stdout=subprocess.DEVNULL)
    killer = threading.Timer(3600, process.kill)
    killer.start()
    try:
        code = process.wait()
    finally:
        killer.cancel()
    elapsed = time.monotonic() - start
    if code != 0:
        raise subprocess.CalledProcessError(code, cmd)
    return elapsed


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ppsbench", default="build/ppsbench")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--period-ns", type=int, default=1_000_000_000)
    parser.add_argument("files", nargs="+")
    args = parser.parse_args()
    version = subprocess.run(["/usr/bin/python3", "-c", "import numpy; print(numpy.__version__)"],
                             capture_output=True, text=True, check=True).stdout.strip()
    print(f"numpy {version} (/usr/bin/python3); {args.runs} alternating runs each")
    for path in args.files:
        ours, theirs = [], []
        for _ in range(args.runs):
            ours.append(timed([args.ppsbench, "report", path, "--format", "json"]))
            theirs.append(timed(["/usr/bin/python3", "-c", NUMPY_SNIPPET, path,
                                 str(args.period_ns)]))
        a, b = statistics.median(ours), statistics.median(theirs)
        print(f"{path}: ppsbench {' '.join(f'{x:.3f}' for x in ours)} s (median {a:.3f}); "
              f"numpy {' '.join(f'{x:.3f}' for x in theirs)} s (median {b:.3f}); "
              f"ratio {a / b:.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
