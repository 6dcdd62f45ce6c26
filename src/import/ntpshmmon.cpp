// SPDX-License-Identifier: GPL-2.0-or-later
#include "ppsbench/import/ntpshmmon.hpp"

#include <fmt/format.h>

#include <charconv>

#include "line_capture.hpp"
#include "ppsbench/chrony/log_common.hpp"
#include "ppsbench/chrony/sample_pulses.hpp"
#include "ppsbench/core/duration.hpp"
#include "ppsbench/core/error.hpp"
#include "ppsbench/core/text.hpp"
#include "ppsbench/store/import_meta.hpp"

namespace ppsbench::import {
namespace {

// gpsd puts each device's PPS in the segment after its time: NTP1, NTP3, ...
bool is_pps_unit(std::string_view unit) {
    return unit.size() > 3 && unit.starts_with("NTP") && ((unit.back() - '0') % 2) == 1;
}

std::map<std::string, std::size_t> pps_units(const std::map<std::string, std::size_t>& units) {
    std::map<std::string, std::size_t> out;
    for (const auto& [unit, n] : units) {
        if (is_pps_unit(unit)) {
            out.emplace(unit, n);
        }
    }
    return out;
}

}  // namespace

NtpshmmonReader::NtpshmmonReader(NtpshmmonImportOptions options)
    : options_(std::move(options)), skipped_(options_.strict) {}

NtpshmmonReader::~NtpshmmonReader() = default;

void NtpshmmonReader::read(std::istream& in, const std::string& name) {
    files_.push_back(name);
    std::string line;
    std::size_t n = 0;
    while (std::getline(in, line)) {
        ++n;
        ++lines_;
        const auto f = core::split_whitespace(line);
        if (f.empty() || f[0].starts_with("#") || line.starts_with("ntpshmmon")) {
            continue;  // comments, the version line
        }
        if (f[0] != "sample" || f.size() != 7) {
            skipped_.add(name, n,
                         fmt::format("has {} fields starting '{}', expected 'sample UNIT SEEN "
                                     "CLOCK REAL LEAP PREC'",
                                     f.size(), chrony::detail::printable(f[0])));
            continue;
        }
        read_sample(f, name, n);
    }
}

void NtpshmmonReader::read_sample(const std::vector<std::string_view>& f, const std::string& name,
                                  std::size_t n) {
    const auto clock = detail::parse_decimal_ns(f[3]);
    const auto real = detail::parse_decimal_ns(f[4]);
    if (!chrony::detail::is_printable_word(f[1]) || !clock || !real) {
        skipped_.add(name, n,
                     fmt::format("fields 2, 4, 5 are '{} {} {}', not a unit, a clock time and a "
                                 "real time like NTP1 1588265805.000223854 1588265805.000000000",
                                 chrony::detail::printable(f[1]), chrony::detail::printable(f[3]),
                                 chrony::detail::printable(f[4])));
        return;
    }
    const std::string unit(f[1]);
    ++units_[unit];
    // A PPS sample: Real on a whole second, Clock within half a second of it, and a precision
    // of a millisecond or finer (gpsd gives its PPS −20, about 1 µs; NMEA time −1).
    int precision = 0;
    const bool fine =
        std::from_chars(f[6].data(), f[6].data() + f[6].size(), precision).ec == std::errc{} &&
        precision <= -10;
    if (fine && *real % core::ns_per_second == 0 &&
        std::llabs(*clock - *real) < core::ns_per_second / 2) {
        ++pps_shaped_[unit];
    }
    if (!is_pps_unit(unit) && unit != options_.unit) {
        return;  // a time segment (NMEA, not a pulse); counted for the listing
    }
    if (*real % core::ns_per_second != 0 || std::llabs(*clock - *real) >= core::ns_per_second / 2) {
        skipped_.add(name, n,
                     fmt::format("{} is not a PPS sample: Real {} is not a whole second, or Clock "
                                 "is half a second or more from it",
                                 unit, chrony::detail::printable(f[4])));
        return;
    }
    edges_.push_back({unit, *clock, std::nullopt, name, n});
}

CaptureImport NtpshmmonReader::finish() {
    const std::string name = chrony::detail::files_label(files_);
    std::map<std::string, std::size_t> candidates = pps_units(units_);
    if (!options_.unit.empty() && units_.count(options_.unit) != 0) {
        candidates.emplace(options_.unit, units_.at(options_.unit));
    }
    std::string unit;
    try {
        if (!options_.unit.empty() && units_.count(options_.unit) == 0) {
            detail::chosen_source(units_, options_.unit, "unit", "--unit", name);
        }
        unit = detail::chosen_source(candidates, options_.unit, "PPS unit", "--unit", name);
    } catch (const core::InputError& e) {
        std::string all;
        for (const auto& [u, count] : units_) {
            all += fmt::format("{}{} ({} samples)", all.empty() ? "" : ", ", u, count);
        }
        std::string hint;
        for (const auto& [u, count] : pps_shaped_) {
            if (candidates.count(u) == 0 && count == units_.at(u)) {
                hint += fmt::format(
                    "; {} has the PPS shape (Real on whole seconds, Clock within half a second "
                    "of it, precision 2^-10 s or finer), as an old gpsd (ntpshmmon version 1) "
                    "wrote it: import it with --unit {}",
                    u, u);
            }
        }
        throw core::InputError(fmt::format("{}; segments in the file: {}{}{}", e.what(),
                                           all.empty() ? "none" : all, hint, skipped_.summary()));
    }
    CaptureImport result =
        detail::capture_from_edges(edges_, unit, core::Edge::assert_edge, skipped_);
    if (result.pulses.empty()) {
        throw core::InputError(
            fmt::format("{}: no usable samples of {}{}", name, unit, skipped_.summary()));
    }
    result.lines = lines_;
    result.problem_count = skipped_.count();
    result.problems = skipped_.take();
    std::size_t others = 0;
    for (const auto& [u, count] : units_) {
        others += u == unit ? 0 : count;
    }
    if (others > 0) {
        result.notes.push_back(fmt::format(
            "{} samples of other segments skipped (gpsd's time segments are not pulses)", others));
    }
    auto meta = store::import_run_meta("ntpshmmon", unit, files_, core::EdgeSelection::assert_only,
                                       result.pulses.front().timestamp_ns);
    // The SHM segment holds no event count: the numbers are made up from the seconds.
    meta.sequences = core::SequenceEvidence::synthetic;
    meta.import = nlohmann::json{{"format", "ntpshmmon"},
                                 {"file", chrony::detail::files_json(files_)},
                                 {"unit", unit},
                                 {"lines", result.lines},
                                 {"pulses", result.pulses.size()},
                                 {"skipped_lines", result.problem_count}};
    result.metadata = store::to_json(meta);
    return result;
}

CaptureImport import_ntpshmmon(std::istream& in, const std::string& name,
                               const NtpshmmonImportOptions& options) {
    NtpshmmonReader reader(options);
    reader.read(in, name);
    return reader.finish();
}

}  // namespace ppsbench::import
