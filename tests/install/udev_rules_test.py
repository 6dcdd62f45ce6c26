#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""The udev rule gives group ppsbench its devices, on plain Debian and on Raspberry Pi OS.

There is no udevd to run rules against a fake device here, so this applies the rule files the
way udev(7) says udevd does, for the devices ppsbench uses:
  - every rules file is read in the lexical order of its name, whatever its directory;
  - GROUP= and MODE= assignments replace earlier ones (":=" would make one final);
  - the node gets the group and mode the last assignment left, and only then do the RUN+=
    programs run, in order (here: setfacl, the only program the rule uses).
Raspberry Pi OS's 99-com.rules (the GPIO lines of it, tests/install/fixtures/99-com.rules)
sorts after 60-ppsbench.rules and gives gpiochip and gpiomem devices to group gpio: the
ppsbench group must keep its access through the ACL entry, and gpio must keep its own.

Usage: udev_rules_test.py RULES FIXTURE_99_COM
"""
import fnmatch
import os
import re
import sys

TOKEN = re.compile(r'([A-Z_]+)(\{[^}]*\})?\s*(==|!=|\+=|-=|:=|=)\s*"((?:[^"\\]|\\.)*)"')
DEVICES = [  # (node, SUBSYSTEM, KERNEL) as the kernel names them
    ("/dev/pps0", "pps", "pps0"),
    ("/dev/gpiochip0", "gpio", "gpiochip0"),
    ("/dev/gpiomem", "bcm2835-gpiomem", "gpiomem"),  # Raspberry Pi 1-4
    ("/dev/gpiomem0", "rpi-gpiomem", "gpiomem0"),  # Raspberry Pi 5
]


def read_rules(path):
    text = open(path, encoding="utf-8").read().replace("\\\n", "")
    rules = []
    for line in text.splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            rules.append(TOKEN.findall(line))
    return rules


def glob_match(pattern, value):
    return any(fnmatch.fnmatchcase(value, alternative) for alternative in pattern.split("|"))


def apply_rules(files, device):
    node, subsystem, kernel = device
    values = {"SUBSYSTEM": subsystem, "KERNEL": kernel, "ACTION": "add"}
    state = {"GROUP": "root", "MODE": "0600", "RUN": [], "final": set()}
    for path in sorted(files, key=os.path.basename):
        for rule in read_rules(path):
            matches = True
            for key, _, op, value in rule:
                if op in ("==", "!=") and key in values:
                    matches &= glob_match(value, values[key]) == (op == "==")
                elif op in ("==", "!=") and key != "PROGRAM":  # PROGRAM: taken as succeeding
                    raise SystemExit(f"{path}: match key {key} is not modelled")
            if not matches:
                continue
            for key, _, op, value in rule:
                if key in ("GROUP", "MODE") and op in ("=", ":=") and key not in state["final"]:
                    state[key] = value
                    if op == ":=":
                        state["final"].add(key)
                elif key == "RUN" and op in ("+=", "="):
                    state["RUN"] = (state["RUN"] if op == "+=" else []) + [value]
    acl = {}
    for program in state["RUN"]:
        words = program.replace("$devnode", node).split()
        if words[:2] != ["/usr/bin/setfacl", "-m"] or words[3] != node:
            raise SystemExit(f"RUN {program!r} is not modelled")
        kind, group, perms = words[2].split(":")
        assert kind == "g", words[2]
        acl[group] = perms
    return state["GROUP"], int(state["MODE"], 8), acl


def can_read_write(group, device_state):
    owner_group, mode, acl = device_state
    group_bits = (mode >> 3) & 0o7  # with an ACL, also its mask: setfacl -m keeps it rw
    if owner_group == group:
        return group_bits & 0o6 == 0o6
    return "r" in acl.get(group, "") and "w" in acl.get(group, "")


def main():
    rules, rpi_rules = sys.argv[1], sys.argv[2]
    failures = []

    def expect(condition, what):
        print(("ok: " if condition else "FAIL: ") + what)
        if not condition:
            failures.append(what)

    for device in DEVICES:
        plain = apply_rules([rules], device)
        expect(can_read_write("ppsbench", plain), f"Debian: ppsbench may use {device[0]} {plain}")
        rpi = apply_rules([rules, rpi_rules], device)
        expect(can_read_write("ppsbench", rpi), f"Raspberry Pi OS: ppsbench keeps {device[0]} {rpi}")
        if device[1] != "pps":
            expect(can_read_write("gpio", rpi), f"Raspberry Pi OS: gpio keeps {device[0]} {rpi}")

    # The test can fail: the same rules without their RUN+= lose gpiochip0 to 99-com.rules.
    without_acl = os.path.join(os.environ.get("TMPDIR", "/tmp"), f"60-no-acl-{os.getpid()}.rules")
    with open(without_acl, "w", encoding="utf-8") as out:
        out.write(re.sub(r',\s*RUN\+="[^"]*"', "", open(rules, encoding="utf-8").read()))
    try:
        old = apply_rules([without_acl, rpi_rules], DEVICES[1])
        expect(not can_read_write("ppsbench", old),
               f"control: a group-only rule loses /dev/gpiochip0 on Raspberry Pi OS {old}")
    finally:
        os.unlink(without_acl)

    if failures:
        print(f"{len(failures)} failure(s)")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
