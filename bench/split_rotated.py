# SPDX-License-Identifier: GPL-2.0-or-later
"""Cuts a capture file into the parts `ppsbench run --rotate D` would have written of it.

`run --rotate` starts a new file at each wall-clock seam, so a simulation at its fast pace (a
year of 1 Hz pulses in seconds) writes one file. Issue 26's year case is `report --join` over a
monitor's daily files; this makes them from one simulated capture: a part per seam interval of
the pulses' timestamps (multiples of D since the epoch, as run's seams), each with the capture's
`# meta` plus the part's "rotation" (run id, index, interval, previous file) and start time,
its pulse lines as they were, and the end record run writes at a seam ("rotated", the run's
pulses so far, the file's, the next file); the last part keeps the capture's own end record
with the file's count and the number of files. Notes between pulse lines stay in their part.

Usage: python3 bench/split_rotated.py CAPTURE OUT_PATTERN [--interval-s 86400]
       (OUT_PATTERN with one {} for the part's number, e.g. /work/bigdata/year/day-{:03}.csv)
Extra columns are kept; notes before the first pulse go to the first part.
"""

import argparse
import datetime
import hashlib
import json


def dumps(value):
    # The writer's JSON: keys sorted (nlohmann's std::map), no spaces, UTF-8 as is.
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def utc(ns):
    seconds, rest = divmod(ns, 1_000_000_000)
    stamp = datetime.datetime.fromtimestamp(seconds, datetime.timezone.utc)
    return stamp.strftime("%Y-%m-%dT%H:%M:%S") + f".{rest:09d}Z"


class Parts:
    def __init__(self, pattern, meta, interval_ns, columns):
        self.pattern = pattern
        self.columns = columns
        self.meta = meta
        self.interval_ns = interval_ns
        self.run_id = hashlib.md5(dumps(meta).encode()).hexdigest()
        self.index = -1
        self.out = None
        self.path = None
        self.in_file = 0
        self.total = 0

    def start(self, seam_ns):
        meta = dict(self.meta)
        rotation = {"index": self.index + 1, "interval_ns": self.interval_ns, "run_id": self.run_id}
        if self.out is not None:
            rotation["previous_file"] = self.path
            meta["start_realtime_ns"] = seam_ns
            meta["start_time"] = utc(seam_ns)
        meta["rotation"] = rotation
        path = self.pattern.format(self.index + 1)
        if self.out is not None:
            end = {"end_time": utc(seam_ns), "next_file": path, "pulses": self.total,
                   "pulses_in_file": self.in_file, "stop_reason": "rotated"}
            self.out.write(f"# end {dumps(end)}\n")
            self.out.close()
        self.index += 1
        self.path = path
        self.in_file = 0
        self.out = open(path, "w", encoding="utf-8")
        self.out.write(f"# ppsbench capture 1\n# meta {dumps(meta)}\n{self.columns}\n")

    def finish(self, end):
        if end is not None:
            end = dict(end)
            end["pulses_in_file"] = self.in_file
            end["files"] = self.index + 1
            self.out.write(f"# end {dumps(end)}\n")
        self.out.close()


HEADER = "sequence,edge,timestamp_ns"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("capture")
    parser.add_argument("pattern")
    parser.add_argument("--interval-s", type=int, default=86400)
    args = parser.parse_args()
    interval_ns = args.interval_s * 1_000_000_000
    with open(args.capture, encoding="utf-8") as capture:
        if capture.readline().rstrip("\n") != "# ppsbench capture 1":
            raise SystemExit(f"{args.capture}: not a ppsbench capture file")
        meta_line = capture.readline()
        if not meta_line.startswith("# meta "):
            raise SystemExit(f"{args.capture}: no '# meta' line second")
        columns = capture.readline().rstrip("\n")
        if not columns.startswith(HEADER):
            raise SystemExit(f"{args.capture}: no column header third")
        parts = Parts(args.pattern, json.loads(meta_line[7:]), interval_ns, columns)
        seam = None
        end = None
        early = []  # notes before the first pulse: the first part's
        for line in capture:
            if line.startswith("# end "):
                end = json.loads(line[6:])
                continue
            if line.startswith("#"):
                if parts.out is None:
                    early.append(line)
                else:
                    parts.out.write(line)
                continue
            stamp = int(line.split(",")[2])
            if seam is None or stamp >= seam:
                next_seam = (stamp // interval_ns + 1) * interval_ns
                parts.start(next_seam - interval_ns if seam is not None else None)
                parts.out.writelines(early)
                early = []
                seam = next_seam
            parts.out.write(line)
            parts.in_file += 1
            parts.total += 1
        parts.finish(end)
    print(f"{parts.index + 1} parts, {parts.total} pulses")


if __name__ == "__main__":
    main()
