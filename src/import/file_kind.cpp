// SPDX-License-Identifier: GPL-2.0-or-later
#include "ppsbench/import/file_kind.hpp"

#include <fmt/format.h>

#include <cctype>
#include <map>
#include <vector>

#include "ppsbench/core/error.hpp"
#include "ppsbench/import/formats.hpp"

namespace ppsbench::import {
namespace {

std::vector<std::string_view> words(std::string_view line) {
    std::vector<std::string_view> out;
    std::size_t i = 0;
    while (i < line.size() && out.size() < 32) {
        while (i < line.size() && (line[i] == ' ' || line[i] == '\t' || line[i] == '\r')) {
            ++i;
        }
        const auto start = i;
        while (i < line.size() && line[i] != ' ' && line[i] != '\t' && line[i] != '\r') {
            ++i;
        }
        if (i > start) {
            out.push_back(line.substr(start, i - start));
        }
    }
    return out;
}

bool all_of(std::string_view s, auto predicate) {
    if (s.empty()) {
        return false;
    }
    for (const char c : s) {
        if (!predicate(static_cast<unsigned char>(c))) {
            return false;
        }
    }
    return true;
}

bool is_digits(std::string_view s) {
    return all_of(s, [](unsigned char c) { return std::isdigit(c) != 0; });
}

// chrony's "2016-08-10" date field.
bool is_date(std::string_view s) {
    return s.size() == 10 && s[4] == '-' && s[7] == '-' && is_digits(s.substr(0, 4)) &&
           is_digits(s.substr(5, 2)) && is_digits(s.substr(8, 2));
}

bool is_time(std::string_view s) {
    return s.size() >= 8 && s[2] == ':' && s[5] == ':' && is_digits(s.substr(0, 2));
}

bool is_number(std::string_view s) {
    return all_of(s, [](unsigned char c) {
        return std::isdigit(c) != 0 || c == '.' || c == '-' || c == '+' || c == 'e' || c == 'E';
    });
}

bool is_leap(std::string_view s) {
    return s == "N" || s == "+" || s == "-" || s == "?";
}

// A chrony banner's column header names the log.
FileKind banner_kind(std::string_view line) {
    if (line.find("Date (UTC) Time") == std::string_view::npos) {
        return FileKind::unknown;
    }
    if (line.find("Freq ppm") != std::string_view::npos) {
        return FileKind::chrony_tracking;
    }
    if (line.find("Refid") != std::string_view::npos && line.find("DP") != std::string_view::npos) {
        return FileKind::chrony_refclocks;
    }
    if (line.find("Std dev'n") != std::string_view::npos) {
        return FileKind::chrony_statistics;
    }
    if (line.find("Peer del") != std::string_view::npos ||
        line.find("Score") != std::string_view::npos) {
        return FileKind::chrony_measurements;
    }
    if (line.find("RTC") != std::string_view::npos) {
        return FileKind::chrony_rtc;
    }
    if (line.find("Temp") != std::string_view::npos) {
        return FileKind::chrony_tempcomp;
    }
    return FileKind::unknown;
}

// NTP's statistics files start with the Modified Julian Day and the seconds past midnight.
bool starts_like_ntp_stats(const std::vector<std::string_view>& f) {
    return f.size() >= 3 && f[0].size() == 5 && is_digits(f[0]) && is_number(f[1]) &&
           f[1].find('.') != std::string_view::npos;
}

bool contains(std::string_view line, std::string_view part) {
    return line.find(part) != std::string_view::npos;
}

// The programs that print one event or sample per line, by their own words.
FileKind program_kind(std::string_view line, const std::vector<std::string_view>& f) {
    if ((line.starts_with("timestamp: ") && contains(line, ", sequence: ") &&
         contains(line, ", offset:")) ||
        line.starts_with("Total number of PPS signals:")) {
        return FileKind::ppswatch;
    }
    if (contains(line, "ts2phc[") || contains(line, "ts2phc: ")) {
        return FileKind::ts2phc;
    }
    if (contains(line, "phc2sys[") || contains(line, "phc2sys: ") ||
        (line.starts_with("CLOCK_") &&
         (contains(line, " phc offset ") || contains(line, " sys offset ") ||
          contains(line, " pps offset ")))) {
        return FileKind::phc2sys;
    }
    if (line.starts_with("ntpshmmon version") ||
        (f.size() >= 2 && f[0] == "sample" && f[1].starts_with("NTP"))) {
        return FileKind::ntpshmmon;
    }
    return FileKind::unknown;
}

FileKind line_kind(std::string_view line, const std::vector<std::string_view>& f) {
    if (const auto program = program_kind(line, f); program != FileKind::unknown) {
        return program;
    }
    if (line.starts_with("source ") && line.find(" - assert ") != std::string_view::npos) {
        return FileKind::ppstest;
    }
    if (line.starts_with("trying PPS source") || line.starts_with("found PPS source") ||
        line.starts_with("ok, found ")) {
        return FileKind::ppstest;
    }
    if (line.starts_with("# meta {") || line == "sequence,edge,timestamp_ns") {
        return FileKind::ppsbench_capture;
    }
    if (f.size() >= 2 && is_date(f[0]) && is_time(f[1])) {
        const bool fraction = f[1].find('.') != std::string_view::npos;
        if (f.size() == 9 && fraction && is_leap(f[4])) {
            return FileKind::chrony_refclocks;
        }
        if (f.size() == 14 && is_leap(f[7])) {
            return FileKind::chrony_tracking;
        }
        if (f.size() == 13) {
            return FileKind::chrony_statistics;
        }
        if (f.size() >= 18 && is_leap(f[3])) {
            return FileKind::chrony_measurements;
        }
        if (f.size() == 8) {
            return FileKind::chrony_rtc;
        }
        if (f.size() == 4) {
            return FileKind::chrony_tempcomp;
        }
        return FileKind::unknown;
    }
    if (starts_like_ntp_stats(f)) {
        if (f.size() == 8 && is_number(f[4])) {
            return FileKind::ntp_peerstats;
        }
        if (f.size() == 7 && is_number(f[2])) {
            return FileKind::ntp_loopstats;
        }
        return FileKind::ntp_clockstats;
    }
    return FileKind::unknown;
}

}  // namespace

FileKind identify(std::string_view head) {
    const auto first = head.find_first_not_of(" \t\r\n");
    if (first == std::string_view::npos) {
        return FileKind::empty;
    }
    if (head.starts_with("# ppsbench capture")) {
        return FileKind::ppsbench_capture;
    }
    if (head[first] == '{') {
        return FileKind::ppsbench_report_json;
    }
    // A head cut mid-line: the torn last line does not vote.
    if (const auto newline = head.rfind('\n'); newline != std::string_view::npos) {
        head = head.substr(0, newline + 1);
    }
    // Keyed by kind, so that a kind appended to the enum cannot overrun a count of kinds.
    std::map<FileKind, std::size_t> votes;
    std::size_t lines = 0;
    while (!head.empty() && lines < 200) {
        const auto end = head.find('\n');
        const auto line = head.substr(0, end);
        head.remove_prefix(end == std::string_view::npos ? head.size() : end + 1);
        const auto f = words(line);
        if (f.empty()) {
            continue;
        }
        ++lines;
        if (const auto banner = banner_kind(line); banner != FileKind::unknown) {
            return banner;  // chrony names its own log
        }
        ++votes[line_kind(line.substr(line.find_first_not_of(" \t")), f)];
    }
    if (lines == 0) {
        return FileKind::empty;
    }
    // Most votes wins; any recognised kind beats unknown; a tie goes to the earlier enumerator.
    FileKind best = FileKind::unknown;
    std::size_t best_votes = 0;
    for (const auto& [kind, n] : votes) {
        if (kind == FileKind::unknown) {
            continue;
        }
        if (n > best_votes) {
            best = kind;
            best_votes = n;
        }
    }
    return best;
}

std::string_view describe(FileKind kind) {
    switch (kind) {
        case FileKind::unknown:
            return "not a format ppsbench knows";
        case FileKind::empty:
            return "empty";
        case FileKind::chrony_tracking:
            return "chrony's tracking.log";
        case FileKind::chrony_refclocks:
            return "chrony's refclocks.log";
        case FileKind::chrony_statistics:
            return "chrony's statistics.log";
        case FileKind::chrony_measurements:
            return "chrony's measurements.log";
        case FileKind::chrony_rtc:
            return "chrony's rtc.log";
        case FileKind::chrony_tempcomp:
            return "chrony's tempcomp.log";
        case FileKind::ppstest:
            return "ppstest output";
        case FileKind::ntp_peerstats:
            return "ntpd/NTPsec peerstats";
        case FileKind::ntp_loopstats:
            return "ntpd/NTPsec loopstats";
        case FileKind::ntp_clockstats:
            return "ntpd/NTPsec clockstats";
        case FileKind::ppsbench_capture:
            return "a ppsbench capture file";
        case FileKind::ppsbench_report_json:
            return "JSON (a ppsbench summary?)";
        case FileKind::ppswatch:
            return "ppswatch output";
        case FileKind::ts2phc:
            return "linuxptp's ts2phc log";
        case FileKind::phc2sys:
            return "linuxptp's phc2sys log";
        case FileKind::ntpshmmon:
            return "gpsd's ntpshmmon output";
    }
    return "unknown";
}

std::string_view import_format(FileKind kind) {
    const ImportFormat* format = format_reading(kind);
    return format == nullptr ? std::string_view{} : format->name;
}

void require_kind(std::string_view head, FileKind expected, const std::string& name) {
    const FileKind found = identify(head);
    if (found == expected || found == FileKind::unknown) {
        return;
    }
    if (found == FileKind::empty) {
        return;  // an empty rotated log is normal; an import with no data at all fails later
    }
    const auto format = import_format(expected);
    std::string hint;
    if (expected == FileKind::ntp_peerstats && found == FileKind::ntp_loopstats) {
        // Given beside the peerstats, it is most likely meant for the cross-check.
        hint =
            "; give it with --loopstats to check the peerstats against it, or use 'ppsbench "
            "import ntp-loopstats' for its CSV";
    } else if (const auto other = import_format(found); !other.empty()) {
        hint = fmt::format("; use 'ppsbench import {}' for it", other);
    } else if (found == FileKind::ppsbench_capture || found == FileKind::ppsbench_report_json) {
        hint = "; 'ppsbench report' reads it directly";
    }
    throw core::InputError(fmt::format("{}: this is {}; import {} reads {}{}", name,
                                       describe(found), format, describe(expected), hint));
}

}  // namespace ppsbench::import
