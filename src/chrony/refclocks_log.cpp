#include <fmt/format.h>
#include <cmath>
#include <fstream>
#include <map>

#include "chrony/log_common.hpp"
#include "ppsbench/chrony/logs.hpp"
#include "ppsbench/core/duration.hpp"
#include "ppsbench/core/error.hpp"
#include "ppsbench/core/text.hpp"
#include "ppsbench/core/utc_time.hpp"
#include "ppsbench/store/run_record.hpp"

namespace ppsbench::chrony {
namespace {

constexpr std::string_view columns =
    "date, time, refid, DP, L, P, raw offset, cooked offset, dispersion";

struct PpsRecord {
    std::size_t line = 0;
    std::string refid;
    std::int64_t time_ns = 0;
    std::int64_t offset_ns = 0;
};

std::int64_t nearest_second_ns(std::int64_t t) {
    const std::int64_t s = core::ns_per_second;
    std::int64_t q = t / s;
    std::int64_t r = t % s;
    if (r < 0) {
        r += s;
        --q;
    }
    return (r >= s / 2 ? q + 1 : q) * s;
}

std::string utc_iso8601(std::int64_t ns) {
    return core::format_utc(ns, core::UtcPrecision::seconds);
}

std::string list_refids(const std::map<std::string, std::size_t>& counts) {
    std::string out;
    for (const auto& [refid, n] : counts) {
        out += fmt::format("{}{} ({} samples)", out.empty() ? "" : ", ", refid, n);
    }
    return out.empty() ? "none" : out;
}

}  // namespace

RefclocksImport import_refclocks_log(std::istream& in, const std::string& name,
                                     const RefclocksImportOptions& options) {
    RefclocksImport result;
    detail::ProblemLog problems(name, options.strict);
    std::vector<PpsRecord> records;
    std::map<std::string, std::size_t> pps_counts;

    std::string line;
    while (std::getline(in, line)) {
        ++result.lines;
        const std::size_t n = result.lines;
        if (detail::is_banner(line)) {
            continue;
        }
        const auto f = core::split_whitespace(line);
        if (f.size() != 9) {
            problems.add(n, fmt::format("has {} fields, expected 9 ({})", f.size(), columns));
            continue;
        }
        const auto time_ns = detail::parse_log_time(f[0], f[1]);
        if (!time_ns) {
            problems.add(n, fmt::format("fields 1-2 (date and time) are '{} {}', not a UTC "
                                        "date and time like 2009-11-30 14:33:27.000000",
                                        f[0], f[1]));
            continue;
        }
        if (f[3] == "-") {
            ++result.filtered_lines;  // one filtered sample per poll, not a pulse
            continue;
        }
        if (f[4] != "N" && f[4] != "+" && f[4] != "-" && f[4] != "?") {
            problems.add(n, fmt::format("field 5 (leap) is '{}', not N, +, - or ?", f[4]));
            continue;
        }
        if (f[5] != "0" && f[5] != "1") {
            problems.add(n, fmt::format("field 6 (PPS flag) is '{}', not 0 or 1", f[5]));
            continue;
        }
        const std::size_t column = options.offset == RefclockOffset::raw ? 6 : 7;
        const auto offset = detail::parse_double(f[column]);
        if (!offset) {
            problems.add(n, fmt::format("field {} ({} offset) is '{}', not a number", column + 1,
                                        column == 6 ? "raw" : "cooked", f[column]));
            continue;
        }
        if (f[5] == "0") {
            ++result.non_pps_lines;
            continue;
        }
        if (std::fabs(*offset) >= 0.5) {
            problems.add(n, fmt::format("field {} ({} offset) is {}, not within half a second "
                                        "of the top of the second",
                                        column + 1, column == 6 ? "raw" : "cooked", f[column]));
            continue;
        }
        PpsRecord record{n, std::string(f[2]), *time_ns, std::llround(*offset * 1e9)};
        ++pps_counts[record.refid];
        records.push_back(std::move(record));
    }

    if (!options.refid.empty()) {
        result.refid = options.refid;
        if (pps_counts.count(options.refid) == 0) {
            throw core::InputError(
                fmt::format("{}: no PPS samples for refid {}; refids with PPS samples: {}", name,
                            options.refid, list_refids(pps_counts)));
        }
    } else if (pps_counts.size() == 1) {
        result.refid = pps_counts.begin()->first;
    } else if (pps_counts.empty()) {
        throw core::InputError(fmt::format(
            "{}: no PPS samples (lines with P = 1); is this chrony's refclocks.log ('log "
            "refclocks') of a PPS refclock?",
            name));
    } else {
        throw core::InputError(
            fmt::format("{}: samples from several refclocks: {}; pick one "
                        "with --refid",
                        name, list_refids(pps_counts)));
    }

    std::optional<std::int64_t> first_second;
    std::int64_t previous_second = 0;
    for (const auto& r : records) {
        if (r.refid != result.refid) {
            ++result.other_refid_lines;
            continue;
        }
        const std::int64_t second = nearest_second_ns(r.time_ns);
        if (first_second && second <= previous_second) {
            problems.add(r.line, fmt::format("time {} is not after the previous pulse's ({})",
                                             utc_iso8601(second), utc_iso8601(previous_second)));
            continue;
        }
        if (!first_second) {
            first_second = second;
        }
        previous_second = second;
        core::Pulse pulse;
        pulse.sequence = static_cast<std::uint64_t>((second - *first_second) / core::ns_per_second);
        // chrony's offset is "local clock error", positive when the clock is slow: the pulse was
        // stamped that much before the top of the second.
        pulse.timestamp_ns = second - r.offset_ns;
        pulse.edge = core::Edge::assert_edge;
        result.pulses.push_back(pulse);
    }
    result.problem_count = problems.count();
    result.problems = problems.take();

    store::RunMeta meta;
    meta.label = result.refid;
    meta.source = fmt::format("chrony-refclocks:{}", name);
    meta.source_kind = "chrony-refclocks";
    meta.simulated = false;
    meta.edges = core::EdgeSelection::assert_only;
    meta.period = std::chrono::seconds{1};
    meta.clock = core::ClockId::realtime;
    meta.start_realtime_ns = result.pulses.empty() ? 0 : result.pulses.front().timestamp_ns;
    meta.start_time_precision = core::UtcPrecision::seconds;
    meta.import =
        nlohmann::json{{"format", "chrony-refclocks"},
                       {"file", name},
                       {"refid", result.refid},
                       {"offset_column", options.offset == RefclockOffset::raw ? "raw" : "cooked"},
                       {"lines", result.lines},
                       {"pulses", result.pulses.size()},
                       {"filtered_lines", result.filtered_lines},
                       {"non_pps_lines", result.non_pps_lines},
                       {"other_refid_lines", result.other_refid_lines},
                       {"skipped_lines", result.problem_count}};
    result.metadata = store::to_json(meta);
    return result;
}

RefclocksImport import_refclocks_log(const std::string& path,
                                     const RefclocksImportOptions& options) {
    std::ifstream in = detail::open_log(path, "refclocks.log");
    return import_refclocks_log(in, path, options);
}

}  // namespace ppsbench::chrony
