#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Exact MDEV of a capture's phase, with Python integers and fractions: an oracle for the
exactness guard (bench/report_golden.py) when a speed change moves an MDEV figure and one must
tell which of the two values is right.

The phase follows ppsbench's rule for the usual capture (one edge, a realtime clock, no clock
step removed): each pulse's phase is the previous one plus its interval folded into
(-P/2, P/2]; its slot on the grid advances by the interval over P, rounded. MDEV does not change
with a constant added to the phase, so it starts at 0. Each candidate value is given with its
relative error against the exact figure.

Usage: python3 bench/mdev_exact.py CAPTURE.csv PERIOD_NS M1,M2,... [V1,V2,... ...]
  (one list of candidate values per build, one value per factor)
"""

import sys
from fractions import Fraction


def phase_grid(path, period):
    t = []
    with open(path) as f:
        for line in f:
            parts = line.strip().split(',')
            if line.startswith('#') or len(parts) < 3 or parts[1] != 'assert':
                continue
            t.append(int(parts[2]))
    t.sort()
    grid = {0: 0}
    k = v = 0
    for a, b in zip(t, t[1:]):
        d = b - a
        k += (2 * d + period) // (2 * period)  # round half up: intervals are positive
        w = d % period
        v += w - period if 2 * w > period else w
        grid[k] = v
    return [grid.get(i) for i in range(k + 1)]


def mdev_squared(x, m, tau0):
    """Mod sigma^2 at tau = m tau0, exactly: Fraction, or None without a complete term."""
    n = len(x)
    holes = [0]
    for e in x:
        holes.append(holes[-1] + (e is None))
    total = terms = 0
    inner = previous = None
    for j in range(n - 3 * m + 1):
        if holes[j + 3 * m] != holes[j]:
            continue
        if previous == j - 1:
            i = j - 1
            inner += x[i + 3 * m] - 3 * x[i + 2 * m] + 3 * x[i + m] - x[i]
        else:
            inner = sum(x[i + 2 * m] - 2 * x[i + m] + x[i] for i in range(j, j + m))
        previous = j
        total += inner * inner
        terms += 1
    if terms == 0:
        return None, 0
    tau = m * tau0
    return Fraction(total, 10**18) / terms / (2 * m * m * tau * tau), terms


def main():
    path, period = sys.argv[1], int(sys.argv[2])
    factors = [int(a) for a in sys.argv[3].split(',')]
    candidates = [[float(v) for v in c.split(',')] for c in sys.argv[4:]]
    x = phase_grid(path, period)
    print(f'{len(x)} samples, {sum(e is None for e in x)} missing')
    for i, m in enumerate(factors):
        exact, terms = mdev_squared(x, m, Fraction(period, 10**9))
        line = [f'm={m} terms={terms}']
        for c in candidates:
            if exact is None:
                line.append(f'{c[i]!r}: (no term)')
                continue
            f = Fraction(c[i])
            line.append(f'{c[i]!r}: {float((f * f - exact) / exact) / 2:+.3e}')
        print('  '.join(line))


if __name__ == '__main__':
    main()
