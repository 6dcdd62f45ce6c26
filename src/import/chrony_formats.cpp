// SPDX-License-Identifier: GPL-2.0-or-later
// The table's readers of chrony's logs: refclocks.log and tracking.log through the chrony
// module's readers, statistics.log here (one row per source per update, as chronyd wrote it).
#include <fmt/format.h>

#include "ppsbench/chrony/log_common.hpp"
#include "ppsbench/chrony/sample_pulses.hpp"
#include "ppsbench/core/text.hpp"
#include "read_files.hpp"

namespace ppsbench::import::detail {
namespace {

chrony::RefclockOffset refclock_offset(const std::string& text) {
    if (text == "raw") {
        return chrony::RefclockOffset::raw;
    }
    if (text == "cooked") {
        return chrony::RefclockOffset::cooked;
    }
    throw core::UsageError(fmt::format("--offset '{}' is neither raw nor cooked", text));
}

std::vector<std::string> tracking_row(const chrony::TrackingLogEntry& e) {
    return {std::to_string(e.time_ns),   e.reference,
            std::to_string(e.stratum),   std::string(chrony::to_string(e.leap)),
            exact(e.offset_ns),          e.rms_offset_ns ? exact(*e.rms_offset_ns) : "",
            exact(e.frequency_ppm),      exact(e.frequency_error_ppm),
            exact(e.offset_sd_ns),       exact(e.root_delay_ns),
            exact(e.root_dispersion_ns), exact(e.max_error_ns),
            std::to_string(e.process)};
}

// chrony's statistics.log (chrony 4.x: 13 columns), one regression update of one source.
class StatisticsLogReader {
  public:
    // For read_files(): a problem of the file itself (trailing data after a .gz).
    chrony::SkippedLines& skipped() { return skipped_; }
    explicit StatisticsLogReader(bool strict) : skipped_(strict) {}

    void read(std::istream& in, const std::string& name) {
        files_.push_back(name);
        std::string line;
        std::size_t n = 0;
        while (std::getline(in, line)) {
            ++n;
            ++series_.lines;
            if (chrony::detail::is_banner(line)) {
                continue;
            }
            read_line(line, name, n);
        }
    }

    SeriesImport finish() {
        if (series_.rows.empty()) {
            throw core::InputError(fmt::format(
                "{}: no statistics.log lines (13 columns: date, time, source, std dev, ...); "
                "import chrony-statistics reads chrony's statistics.log ('log statistics'){}",
                chrony::detail::files_label(files_), skipped_.summary()));
        }
        series_.problem_count = skipped_.count();
        series_.problems = skipped_.take();
        return std::move(series_);
    }

  private:
    void read_line(const std::string& line, const std::string& name, std::size_t n) {
        const auto f = core::split_whitespace(line);
        if (f.size() != 13) {
            skipped_.add(name, n,
                         fmt::format("has {} fields, expected 13 (date, time, source, std dev, "
                                     "offset, offset sd, diff freq, skew, stress, Ns, Bs, Nr, "
                                     "asymmetry)",
                                     f.size()));
            return;
        }
        const auto time_ns = chrony::detail::parse_log_time(f[0], f[1]);
        if (!time_ns || !chrony::detail::is_printable_word(f[2])) {
            skipped_.add(
                name, n,
                fmt::format("fields 1-3 are '{} {} {}', not a UTC date and time from 1970 to "
                            "2116 and a source",
                            chrony::detail::printable(f[0]), chrony::detail::printable(f[1]),
                            chrony::detail::printable(f[2])));
            return;
        }
        // Seconds to ns, seconds per second to ppm, the rest as written.
        constexpr double scale[] = {1e9, 1e9, 1e9, 1e6, 1e6, 1, 1, 1, 1, 1};
        std::vector<std::string> row{std::to_string(*time_ns), std::string(f[2])};
        for (std::size_t i = 3; i < 13; ++i) {
            const auto value = chrony::detail::parse_double(f[i]);
            if (!value) {
                skipped_.add(name, n,
                             fmt::format("field {} is '{}', not a number", i + 1,
                                         chrony::detail::printable(f[i])));
                return;
            }
            row.push_back(exact(*value * scale[i - 3]));
        }
        series_.rows.push_back(std::move(row));
    }

    chrony::SkippedLines skipped_;
    std::vector<std::string> files_;
    SeriesImport series_ = with_columns({"time_ns", "source", "std_dev_ns", "offset_ns",
                                         "offset_sd_ns", "diff_freq_ppm", "skew_ppm", "stress",
                                         "samples", "start_index", "runs", "asymmetry"});
};

}  // namespace

Imported read_chrony_refclocks(const Files& files, const ImportOptions& options) {
    chrony::RefclocksLogReader reader({.refid = options.refid,
                                       .strict = options.strict,
                                       .offset = refclock_offset(options.offset)});
    read_files(files, FileKind::chrony_refclocks, reader);
    return reader.finish();
}

Imported read_chrony_tracking(const Files& files, const ImportOptions& options) {
    chrony::TrackingImportOptions o;
    o.strict = options.strict;
    if (options.logbanner > 0) {
        o.logbanner = static_cast<std::size_t>(options.logbanner);
    }
    chrony::TrackingLogReader reader(o);
    read_files(files, FileKind::chrony_tracking, reader);
    auto imported = reader.finish();
    if (imported.entries.empty()) {
        std::string why;
        for (std::size_t i = 0; i < imported.problems.size() && i < 3; ++i) {
            why += (i == 0 ? fmt::format("; {} lines were skipped, e.g. ", imported.problem_count)
                           : "; ") +
                   imported.problems[i].to_string();
        }
        throw core::InputError(
            fmt::format("{}: no tracking.log lines (14 columns: date, time, reference, ...); "
                        "import chrony-tracking reads chrony's tracking.log ('log tracking'){}",
                        chrony::detail::files_label(files), why));
    }
    SeriesImport series =
        with_columns({"time_ns", "reference", "stratum", "leap", "offset_ns", "rms_offset_ns",
                      "frequency_ppm", "skew_ppm", "offset_sd_ns", "root_delay_ns",
                      "root_dispersion_ns", "max_error_ns", "process"});
    for (const auto& e : imported.entries) {
        series.rows.push_back(tracking_row(e));
    }
    series.lines = imported.lines;
    series.problem_count = imported.problem_count;
    series.problems = std::move(imported.problems);
    series.notes = std::move(imported.notes);
    series.warnings = std::move(imported.warnings);
    for (const auto& r : imported.restarts) {
        series.notes.push_back(
            fmt::format("{}:{}: chronyd restarted ({}); the RMS offset starts afresh here, as "
                        "chronyd's does",
                        r.file, r.line, r.evidence));
    }
    return series;
}

Imported read_chrony_statistics(const Files& files, const ImportOptions& options) {
    StatisticsLogReader reader(options.strict);
    read_files(files, FileKind::chrony_statistics, reader);
    return reader.finish();
}

}  // namespace ppsbench::import::detail
