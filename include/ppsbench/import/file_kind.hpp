// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

// What a file looks like, from its first lines, so that each importer takes its own file and
// refuses another with a message naming what it was given ("this is chrony's statistics.log;
// import chrony-tracking reads tracking.log").

#include <cstdint>
#include <string>
#include <string_view>

namespace ppsbench::import {

enum class FileKind : std::uint8_t {
    unknown,
    empty,  // no line with content
    chrony_tracking,
    chrony_refclocks,
    chrony_statistics,
    chrony_measurements,
    chrony_rtc,
    chrony_tempcomp,
    ppstest,
    ntp_peerstats,
    ntp_loopstats,
    ntp_clockstats,
    ppsbench_capture,
    ppsbench_report_json,
    ppswatch,   // pps-tools' ppswatch: "timestamp: T, sequence: N, offset: NS"
    ts2phc,     // linuxptp's ts2phc log: "extts index 0 at T" or "adding tstamp T to clock C"
    phc2sys,    // linuxptp's phc2sys log: "CLOCK_REALTIME phc offset N s2 freq F delay D"
    ntpshmmon,  // gpsd's ntpshmmon: "sample NTP1 SEEN CLOCK REAL LEAP PREC"
};

// Votes over the first lines of `head` (at most 200 lines with content; a torn last line is
// ignored). Banners decide for chrony's logs; otherwise each line's shape votes and the most
// votes win. Any bytes are accepted.
FileKind identify(std::string_view head);

// "chrony's statistics.log", "ppstest output", ...
std::string_view describe(FileKind kind);

// The `ppsbench import` format that reads this kind, or "" when none does (from the table of
// formats, import/formats.hpp).
std::string_view import_format(FileKind kind);

// Throws core::InputError unless `head` looks like `expected` (or is empty, or nothing
// recognisable: left to the parser's line-by-line messages): "NAME: this is chrony's
// statistics.log; import chrony-tracking reads chrony's tracking.log".
void require_kind(std::string_view head, FileKind expected, const std::string& name);

}  // namespace ppsbench::import
