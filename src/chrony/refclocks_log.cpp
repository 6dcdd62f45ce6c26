#include <fmt/format.h>
#include <fmt/ranges.h>
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

template <typename Counts>
std::string list_pps_refids(const Counts& counts) {
    std::string out;
    for (const auto& [refid, n] : counts) {
        if (n.pps > 0) {
            out += fmt::format("{}{} ({} samples)", out.empty() ? "" : ", ", refid, n.pps);
        }
    }
    return out.empty() ? "none" : out;
}

// Every refclock in the files, PPS or not: what the user has to choose from.
template <typename Counts>
std::string list_all_refids(const Counts& counts) {
    std::string out;
    for (const auto& [refid, n] : counts) {
        out += fmt::format("{}{} ({} samples, {})", out.empty() ? "" : ", ", refid, n.samples,
                           n.pps == 0           ? "not PPS: P = 0"
                           : n.pps == n.samples ? "PPS"
                                                : fmt::format("{} with P = 1", n.pps));
    }
    return out.empty() ? "none" : out;
}

}  // namespace

RefclocksLogReader::RefclocksLogReader(RefclocksImportOptions options)
    : options_(options), skipped_(options.strict) {}

void RefclocksLogReader::read(std::istream& in, const std::string& name) {
    const std::size_t file = files_.size();
    files_.push_back(name);
    std::string line;
    std::size_t n = 0;
    while (std::getline(in, line)) {
        ++n;
        ++result_.lines;
        if (detail::is_banner(line)) {
            continue;
        }
        const auto f = core::split_whitespace(line);
        if (f.size() != 9) {
            skipped_.add(name, n, fmt::format("has {} fields, expected 9 ({})", f.size(), columns));
            continue;
        }
        const auto time_ns = detail::parse_log_time(f[0], f[1]);
        if (!time_ns) {
            skipped_.add(name, n,
                         fmt::format("fields 1-2 (date and time) are '{} {}', not a UTC "
                                     "date and time like 2009-11-30 14:33:27.000000",
                                     detail::printable(f[0]), detail::printable(f[1])));
            continue;
        }
        if (!detail::is_printable_word(f[2]) || f[2].size() > 16) {
            skipped_.add(name, n,
                         fmt::format("field 3 (refid) is '{}', not a refclock's refid",
                                     detail::printable(f[2])));
            continue;
        }
        if (f[3] == "-") {
            ++result_.filtered_lines;  // one filtered sample per poll, not a pulse
            continue;
        }
        if (f[4] != "N" && f[4] != "+" && f[4] != "-" && f[4] != "?") {
            skipped_.add(
                name, n,
                fmt::format("field 5 (leap) is '{}', not N, +, - or ?", detail::printable(f[4])));
            continue;
        }
        if (f[5] != "0" && f[5] != "1") {
            skipped_.add(
                name, n,
                fmt::format("field 6 (PPS flag) is '{}', not 0 or 1", detail::printable(f[5])));
            continue;
        }
        const std::size_t column = options_.offset == RefclockOffset::raw ? 6 : 7;
        const auto offset = detail::parse_double(f[column]);
        if (!offset) {
            skipped_.add(name, n,
                         fmt::format("field {} ({} offset) is '{}', not a number", column + 1,
                                     column == 6 ? "raw" : "cooked", detail::printable(f[column])));
            continue;
        }
        auto& count = refids_[std::string(f[2])];
        ++count.samples;
        if (f[5] == "0") {
            ++result_.non_pps_lines;
            continue;
        }
        if (std::fabs(*offset) >= 0.5) {
            skipped_.add(name, n,
                         fmt::format("field {} ({} offset) is {}, not within half a second "
                                     "of the top of the second",
                                     column + 1, column == 6 ? "raw" : "cooked",
                                     detail::printable(f[column])));
            continue;
        }
        ++count.pps;
        records_.push_back({file, n, std::string(f[2]), *time_ns, std::llround(*offset * 1e9)});
    }
}

RefclocksImport RefclocksLogReader::finish() {
    RefclocksImport result = std::move(result_);
    const std::string name = files_.size() == 1 ? files_.front()
                             : files_.empty()   ? std::string("(no file)")
                                                : fmt::format("{} files", files_.size());
    std::size_t pps_refids = 0;
    for (const auto& [refid, n] : refids_) {
        pps_refids += n.pps > 0 ? 1 : 0;
    }
    if (!options_.refid.empty()) {
        result.refid = options_.refid;
        const auto it = refids_.find(options_.refid);
        if (it == refids_.end() || it->second.pps == 0) {
            throw core::InputError(
                fmt::format("{}: no PPS samples for refid {}; refclocks in the log: {}", name,
                            options_.refid, list_all_refids(refids_)));
        }
    } else if (pps_refids == 1) {
        for (const auto& [refid, n] : refids_) {
            if (n.pps > 0) {
                result.refid = refid;
            }
        }
    } else if (pps_refids == 0) {
        throw core::InputError(fmt::format(
            "{}: no PPS samples (lines with P = 1); refclocks in the log: {}; import "
            "chrony-refclocks reads the log of a PPS refclock ('refclock PPS' with 'log "
            "refclocks' in chrony.conf)",
            name, list_all_refids(refids_)));
    } else {
        throw core::InputError(
            fmt::format("{}: samples from several PPS refclocks: {}; pick one "
                        "with --refid",
                        name, list_pps_refids(refids_)));
    }

    std::optional<std::int64_t> first_second;
    std::int64_t previous_second = 0;
    for (const auto& r : records_) {
        if (r.refid != result.refid) {
            ++result.other_refid_lines;
            continue;
        }
        const std::int64_t second = nearest_second_ns(r.time_ns);
        if (first_second && second <= previous_second) {
            skipped_.add(files_[r.file], r.line,
                         fmt::format("time {} is not after the previous pulse's ({})",
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
    result.problem_count = skipped_.count();
    result.problems = skipped_.take();

    store::RunMeta meta;
    meta.label = result.refid;
    meta.source = fmt::format("chrony-refclocks:{}", fmt::join(files_, ","));
    meta.source_kind = "chrony-refclocks";
    meta.simulated = false;
    meta.edges = core::EdgeSelection::assert_only;
    meta.period = std::chrono::seconds{1};
    meta.clock = core::ClockId::realtime;
    meta.start_realtime_ns = result.pulses.empty() ? 0 : result.pulses.front().timestamp_ns;
    meta.start_time_precision = core::UtcPrecision::seconds;
    meta.import =
        nlohmann::json{{"format", "chrony-refclocks"},
                       {"file", files_.size() == 1 ? nlohmann::json(name) : nlohmann::json(files_)},
                       {"refid", result.refid},
                       {"offset_column", options_.offset == RefclockOffset::raw ? "raw" : "cooked"},
                       {"lines", result.lines},
                       {"pulses", result.pulses.size()},
                       {"filtered_lines", result.filtered_lines},
                       {"non_pps_lines", result.non_pps_lines},
                       {"other_refid_lines", result.other_refid_lines},
                       {"skipped_lines", result.problem_count}};
    result.metadata = store::to_json(meta);
    return result;
}

RefclocksImport import_refclocks_log(std::istream& in, const std::string& name,
                                     const RefclocksImportOptions& options) {
    RefclocksLogReader reader(options);
    reader.read(in, name);
    return reader.finish();
}

RefclocksImport import_refclocks_log(const std::string& path,
                                     const RefclocksImportOptions& options) {
    std::ifstream in = detail::open_log(path, "refclocks.log");
    return import_refclocks_log(in, path, options);
}

}  // namespace ppsbench::chrony
