// SPDX-License-Identifier: GPL-2.0-or-later
// The table of `ppsbench import` formats (include/ppsbench/import/formats.hpp): one row each.
// Adding a format: docs/architecture.md, "Adding an import format".
#include "ppsbench/import/formats.hpp"

#include <algorithm>
#include <array>

#include "ppsbench/import/ntp_peerstats.hpp"
#include "ppsbench/import/ntpshmmon.hpp"
#include "ppsbench/import/ppstest.hpp"
#include "ppsbench/import/ppswatch.hpp"
#include "ppsbench/import/ts2phc.hpp"
#include "read_files.hpp"

namespace ppsbench::import {
namespace detail {

Imported read_ppstest(const Files& files, const ImportOptions& options) {
    PpstestReader reader({.strict = options.strict});
    read_files(files, FileKind::ppstest, reader);
    return reader.finish();
}

Imported read_ppswatch(const Files& files, const ImportOptions& options) {
    PpswatchReader reader({.edge = options.edge, .strict = options.strict});
    read_files(files, FileKind::ppswatch, reader);
    return reader.finish();
}

Imported read_ntp_peerstats(const Files& files, const ImportOptions& options) {
    const auto stdin_count = std::count(files.begin(), files.end(), "-") +
                             std::count(options.loopstats.begin(), options.loopstats.end(), "-");
    if (stdin_count > 1) {
        throw core::UsageError(
            "'-' (standard input) can be named only once, among the "
            "peerstats and --loopstats files");
    }
    PeerstatsReader reader(
        {.peer = options.peer, .loopstats = options.loopstats, .strict = options.strict});
    read_files(files, FileKind::ntp_peerstats, reader);
    return reader.finish();
}

Imported read_ts2phc(const Files& files, const ImportOptions& options) {
    Ts2phcReader reader({.clock = options.clock, .strict = options.strict});
    read_files(files, FileKind::ts2phc, reader);
    return reader.finish();
}

Imported read_ntpshmmon(const Files& files, const ImportOptions& options) {
    NtpshmmonReader reader({.unit = options.unit, .strict = options.strict});
    read_files(files, FileKind::ntpshmmon, reader);
    return reader.finish();
}

}  // namespace detail

namespace {

using namespace std::string_view_literals;

constexpr std::array refclocks_options{"refid"sv, "offset"sv};
constexpr std::array tracking_options{"logbanner"sv};
constexpr std::array peerstats_options{"peer"sv, "loopstats"sv};
constexpr std::array ppswatch_options{"edge"sv};
constexpr std::array ts2phc_options{"clock"sv};
constexpr std::array ntpshmmon_options{"unit"sv};

// clang-format off
const std::array formats{
    ImportFormat{"chrony-refclocks", "chrony's refclocks.log",
                 ImportOutput::capture, "a capture file (one pulse per PPS sample)", "LOG... [--refid PPS] -o FILE",
                 FileKind::chrony_refclocks, refclocks_options, detail::read_chrony_refclocks},
    ImportFormat{"chrony-tracking", "chrony's tracking.log",
                 ImportOutput::csv, "CSV: chronyd's clock updates, its RMS offset rebuilt per process (cross-checked against a pasted chronyc tracking report)",
                 "LOG... [-o FILE.csv]", FileKind::chrony_tracking, tracking_options,
                 detail::read_chrony_tracking},
    ImportFormat{"chrony-statistics", "chrony's statistics.log",
                 ImportOutput::csv, "CSV: each source's regression (std dev, offset, skew) at each update",
                 "LOG... [-o FILE.csv]", FileKind::chrony_statistics, {},
                 detail::read_chrony_statistics},
    ImportFormat{"ppstest", "the output of pps-tools' ppstest /dev/ppsN",
                 ImportOutput::capture, "a capture file (each PPS event once)", "OUTPUT... -o FILE", FileKind::ppstest,
                 {}, detail::read_ppstest},
    ImportFormat{"ppswatch", "the output of pps-tools' ppswatch /dev/ppsN",
                 ImportOutput::capture, "a capture file (one pulse per event), ppswatch's own figures beside ours",
                 "OUTPUT... [--edge assert] -o FILE", FileKind::ppswatch, ppswatch_options,
                 detail::read_ppswatch},
    ImportFormat{"ntp-peerstats", "ntpd's or NTPsec's peerstats",
                 ImportOutput::capture, "a capture file (one pulse per poll of the PPS peer)",
                 "PEERSTATS... [--peer ADDR] -o FILE", FileKind::ntp_peerstats, peerstats_options,
                 detail::read_ntp_peerstats},
    ImportFormat{"ntp-loopstats", "ntpd's or NTPsec's loopstats",
                 ImportOutput::csv, "CSV: ntpd's clock discipline at each update (offset, frequency, jitter)",
                 "LOOPSTATS... [-o FILE.csv]", FileKind::ntp_loopstats, {},
                 detail::read_ntp_loopstats},
    ImportFormat{"ts2phc", "linuxptp's ts2phc log (-m, logging_level 7, or syslog)",
                 ImportOutput::capture, "a capture file of the PPS edges on the PHC (clock: TAI), cross-checked against ts2phc's servo offsets",
                 "LOG... [--clock eth0] -o FILE", FileKind::ts2phc, ts2phc_options,
                 detail::read_ts2phc},
    ImportFormat{"phc2sys", "linuxptp's phc2sys log (-m, or syslog)",
                 ImportOutput::csv, "CSV: the offset, servo state, frequency, delay and source (phc, sys, pps) of each update",
                 "LOG... [-o FILE.csv]", FileKind::phc2sys, {}, detail::read_phc2sys},
    ImportFormat{"ntpshmmon", "the output of gpsd's ntpshmmon",
                 ImportOutput::capture, "a capture file (one pulse per sample of the PPS segment)",
                 "OUTPUT... [--unit NTP1] -o FILE", FileKind::ntpshmmon, ntpshmmon_options,
                 detail::read_ntpshmmon},
};
// clang-format on

}  // namespace

std::span<const ImportFormat> import_formats() {
    return formats;
}

const ImportFormat* find_import_format(std::string_view name) {
    const auto it =
        std::find_if(formats.begin(), formats.end(), [&](const auto& f) { return f.name == name; });
    return it == formats.end() ? nullptr : &*it;
}

const ImportFormat* format_reading(FileKind kind) {
    const auto it =
        std::find_if(formats.begin(), formats.end(), [&](const auto& f) { return f.kind == kind; });
    return it == formats.end() ? nullptr : &*it;
}

std::vector<std::string_view> format_options() {
    std::vector<std::string_view> out;
    for (const auto& f : formats) {
        for (const auto option : f.options) {
            if (std::find(out.begin(), out.end(), option) == out.end()) {
                out.push_back(option);
            }
        }
    }
    return out;
}

std::string formats_taking(std::string_view option) {
    std::string out;
    for (const auto& f : formats) {
        if (std::find(f.options.begin(), f.options.end(), option) != f.options.end()) {
            out += (out.empty() ? "" : ", ") + std::string(f.name);
        }
    }
    return out;
}

}  // namespace ppsbench::import
