#include <fmt/format.h>
#include <array>
#include <cmath>
#include <fstream>

#include "chrony/log_common.hpp"
#include "ppsbench/chrony/logs.hpp"
#include "ppsbench/core/error.hpp"
#include "ppsbench/core/text.hpp"

namespace ppsbench::chrony {
namespace {

// chrony 4.x tracking.log columns (chrony.conf(5), `log tracking`).
constexpr std::array<std::string_view, 14> names = {
    "date",       "time",       "reference",  "stratum",          "frequency",
    "freq error", "offset",     "leap",       "combined sources", "offset sd",
    "rem. corr.", "root delay", "root disp.", "max. error"};

std::optional<LeapStatus> leap_from_symbol(std::string_view text) {
    if (text == "N") {
        return LeapStatus::normal;
    }
    if (text == "+") {
        return LeapStatus::insert_second;
    }
    if (text == "-") {
        return LeapStatus::delete_second;
    }
    if (text == "?") {
        return LeapStatus::not_synchronised;
    }
    return std::nullopt;
}

}  // namespace

void RmsOffsetTracker::add(double offset) {
    // reference.c: "quickly on start" the mean square is replaced by each new square until one
    // is larger than the running value; from then on it is an exponential moving average.
    const double square = offset * offset;
    if (moving_) {
        mean_square_ += 0.1 * (square - mean_square_);
    } else {
        if (mean_square_ > 0.0 && mean_square_ < square) {
            moving_ = true;
        }
        mean_square_ = square;
    }
}

double RmsOffsetTracker::rms() const {
    return std::sqrt(mean_square_);
}

TrackingImport import_tracking_log(std::istream& in, const std::string& name,
                                   const TrackingImportOptions& options) {
    TrackingImport result;
    detail::ProblemLog problems(name, options.strict);
    RmsOffsetTracker rms;
    bool any_update = false;

    std::string line;
    while (std::getline(in, line)) {
        ++result.lines;
        const std::size_t n = result.lines;
        if (detail::is_banner(line)) {
            continue;
        }
        const auto f = core::split_whitespace(line);
        if (f.size() != names.size()) {
            problems.add(n, fmt::format("has {} fields, expected {} (chrony 4.x tracking.log)",
                                        f.size(), names.size()));
            continue;
        }
        TrackingLogEntry e;
        const auto time_ns = detail::parse_log_time(f[0], f[1]);
        if (!time_ns) {
            problems.add(n, fmt::format("fields 1-2 (date and time) are '{} {}', not a UTC date "
                                        "and time like 2017-08-22 13:22:36",
                                        f[0], f[1]));
            continue;
        }
        e.time_ns = *time_ns;
        e.reference = std::string(f[2]);
        const auto leap = leap_from_symbol(f[7]);
        if (!leap) {
            problems.add(n, fmt::format("field 8 (leap) is '{}', not N, +, - or ?", f[7]));
            continue;
        }
        e.leap = *leap;

        std::array<double, 14> v{};
        bool ok = true;
        for (std::size_t i : {3U, 4U, 5U, 6U, 8U, 9U, 10U, 11U, 12U, 13U}) {
            const auto value = detail::parse_double(f[i]);
            if (!value) {
                problems.add(
                    n, fmt::format("field {} ({}) is '{}', not a number", i + 1, names[i], f[i]));
                ok = false;
                break;
            }
            v[i] = *value;
        }
        if (!ok) {
            continue;
        }
        e.stratum = static_cast<int>(v[3]);
        e.frequency_ppm = v[4];
        e.frequency_error_ppm = v[5];
        e.offset_ns = v[6] * 1e9;
        e.combined_sources = static_cast<int>(v[8]);
        e.offset_sd_ns = v[9] * 1e9;
        e.remaining_correction_ns = v[10] * 1e9;
        e.root_delay_ns = v[11] * 1e9;
        e.root_dispersion_ns = v[12] * 1e9;
        e.max_error_ns = v[13] * 1e9;
        // Lines with leap '?' come from chronyd losing (or not yet having) a reference: they
        // log a zero offset and do not enter chronyd's RMS average.
        if (e.leap != LeapStatus::not_synchronised) {
            rms.add(v[6]);
            any_update = true;
        }
        if (any_update) {
            e.rms_offset_ns = rms.rms() * 1e9;
        }
        result.entries.push_back(std::move(e));
    }
    result.problem_count = problems.count();
    result.problems = problems.take();
    return result;
}

TrackingImport import_tracking_log(const std::string& path, const TrackingImportOptions& options) {
    std::ifstream in = detail::open_log(path, "tracking.log");
    return import_tracking_log(in, path, options);
}

}  // namespace ppsbench::chrony
