// SPDX-License-Identifier: GPL-2.0-or-later
// ntpd's and NTPsec's `loopstats`: one line per clock discipline update, ntpd's own view of its
// clock (the counterpart of chrony's tracking.log):
//
//   61016 2.878 0.000001853 -33.344 0.000003510 0.002074 3
//   MJD   s     offset (s)  freq    jitter (s)  wander  poll (log2 s)
#include <fmt/format.h>

#include <charconv>
#include <cmath>

#include "ppsbench/chrony/log_common.hpp"
#include "ppsbench/chrony/sample_pulses.hpp"
#include "ppsbench/core/duration.hpp"
#include "ppsbench/core/text.hpp"
#include "read_files.hpp"

namespace ppsbench::import::detail {
namespace {

constexpr std::int64_t unix_epoch_mjd = 40587;  // 1970-01-01

// "61016" "2.878" -> ns since the epoch (to the ms ntpd prints), or nullopt.
std::optional<std::int64_t> ntp_time_ns(std::string_view day, std::string_view seconds) {
    std::int64_t mjd = 0;
    const auto [end, ec] = std::from_chars(day.data(), day.data() + day.size(), mjd);
    const auto s = chrony::detail::parse_double(seconds);
    // 1970 .. 2116, the range every importer keeps (core::is_capture_time).
    if (ec != std::errc{} || end != day.data() + day.size() || mjd < unix_epoch_mjd ||
        mjd > unix_epoch_mjd + 106'000 || !s || *s < 0.0 || *s >= 86401.0) {
        return std::nullopt;
    }
    const std::int64_t ns =
        (mjd - unix_epoch_mjd) * 86400 * core::ns_per_second + std::llround(*s * 1e9);
    return core::is_capture_time(ns) ? std::optional(ns) : std::nullopt;
}

class LoopstatsReader {
  public:
    // For read_files(): a problem of the file itself (trailing data after a .gz).
    chrony::SkippedLines& skipped() { return skipped_; }
    explicit LoopstatsReader(bool strict) : skipped_(strict) {}

    void read(std::istream& in, const std::string& name) {
        files_.push_back(name);
        std::string line;
        std::size_t n = 0;
        while (std::getline(in, line)) {
            ++n;
            ++series_.lines;
            const auto f = core::split_whitespace(line);
            if (!f.empty()) {
                read_line(f, name, n);
            }
        }
    }

    SeriesImport finish() {
        if (series_.rows.empty()) {
            throw core::InputError(fmt::format(
                "{}: no loopstats lines (7 fields: MJD, seconds, offset, frequency, jitter, "
                "wander, poll); import ntp-loopstats reads ntpd's loopstats ('statistics "
                "loopstats'){}",
                chrony::detail::files_label(files_), skipped_.summary()));
        }
        series_.problem_count = skipped_.count();
        series_.problems = skipped_.take();
        return std::move(series_);
    }

  private:
    void read_line(const std::vector<std::string_view>& f, const std::string& name, std::size_t n) {
        if (f.size() != 7) {
            skipped_.add(name, n,
                         fmt::format("has {} fields, expected 7 (MJD, seconds, offset, "
                                     "frequency, jitter, wander, poll)",
                                     f.size()));
            return;
        }
        const auto time_ns = ntp_time_ns(f[0], f[1]);
        if (!time_ns) {
            skipped_.add(
                name, n,
                fmt::format("fields 1-2 are '{} {}', not a Modified Julian Day and "
                            "seconds past midnight like 61016 2.878",
                            chrony::detail::printable(f[0]), chrony::detail::printable(f[1])));
            return;
        }
        // Offset and jitter in s -> ns; frequency and wander in ppm; poll as log2 seconds.
        constexpr double scale[] = {1e9, 1, 1e9, 1, 1};
        std::vector<std::string> row{std::to_string(*time_ns)};
        for (std::size_t i = 2; i < 7; ++i) {
            const auto value = chrony::detail::parse_double(f[i]);
            if (!value) {
                skipped_.add(name, n,
                             fmt::format("field {} is '{}', not a number", i + 1,
                                         chrony::detail::printable(f[i])));
                return;
            }
            row.push_back(exact(*value * scale[i - 2]));
        }
        series_.rows.push_back(std::move(row));
    }

    chrony::SkippedLines skipped_;
    std::vector<std::string> files_;
    SeriesImport series_ = with_columns(
        {"time_ns", "offset_ns", "frequency_ppm", "jitter_ns", "wander_ppm", "poll_log2_s"});
};

}  // namespace

Imported read_ntp_loopstats(const Files& files, const ImportOptions& options) {
    LoopstatsReader reader(options.strict);
    read_files(files, FileKind::ntp_loopstats, reader);
    return reader.finish();
}

}  // namespace ppsbench::import::detail
