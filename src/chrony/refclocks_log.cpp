// SPDX-License-Identifier: GPL-2.0-or-later
#include <fmt/format.h>
#include <cmath>
#include <fstream>
#include <map>

#include "ppsbench/chrony/log_common.hpp"
#include "ppsbench/chrony/logs.hpp"
#include "ppsbench/chrony/sample_pulses.hpp"
#include "ppsbench/core/error.hpp"
#include "ppsbench/core/text.hpp"
#include "ppsbench/store/import_meta.hpp"

namespace ppsbench::chrony {
namespace {

constexpr std::string_view columns =
    "date, time, refid, DP, L, P, raw offset, cooked offset, dispersion";

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

// The refclock to import: the one asked for, which must have PPS samples, else the log's only
// PPS refclock. `name` names the files in the error, which lists what there is to choose from.
template <typename Counts>
std::string chosen_refid(const Counts& refids, const std::string& wanted, const std::string& name) {
    if (!wanted.empty()) {
        const auto it = refids.find(wanted);
        if (it == refids.end() || it->second.pps == 0) {
            throw core::InputError(
                fmt::format("{}: no PPS samples for refid {}; refclocks in the log: {}", name,
                            wanted, list_all_refids(refids)));
        }
        return wanted;
    }
    std::vector<std::string> pps;
    for (const auto& [refid, n] : refids) {
        if (n.pps > 0) {
            pps.push_back(refid);
        }
    }
    if (pps.empty()) {
        throw core::InputError(fmt::format(
            "{}: no PPS samples (lines with P = 1); refclocks in the log: {}; import "
            "chrony-refclocks reads the log of a PPS refclock ('refclock PPS' with 'log "
            "refclocks' in chrony.conf)",
            name, list_all_refids(refids)));
    }
    if (pps.size() > 1) {
        throw core::InputError(
            fmt::format("{}: samples from several PPS refclocks: {}; pick one with --refid", name,
                        list_pps_refids(refids)));
    }
    return pps.front();
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
                                     "date and time like 2009-11-30 14:33:27.000000 from "
                                     "1970 to 2116",
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
        samples_.push_back({file, n, std::string(f[2]), *time_ns, std::llround(*offset * 1e9)});
    }
}

RefclocksImport RefclocksLogReader::finish() {
    RefclocksImport result = std::move(result_);
    const std::string name =
        files_.empty() ? std::string("(no file)") : detail::files_label(files_);
    try {
        result.refid = chosen_refid(refids_, options_.refid, name);
    } catch (const core::InputError& e) {
        throw core::InputError(e.what() + skipped_.summary());  // say why lines did not count
    }
    auto train = detail::pulses_from_samples(samples_, result.refid, files_, "pulse's", skipped_);
    result.pulses = std::move(train.pulses);
    if (!train.reordered.empty()) {
        result.notes.push_back(train.reordered + " (the files were given out of time order)");
    }
    result.other_refid_lines = train.other_source_lines;
    result.problem_count = skipped_.count();
    result.problems = skipped_.take();

    auto meta = store::import_run_meta(
        "chrony-refclocks", result.refid, files_, core::EdgeSelection::assert_only,
        result.pulses.empty() ? 0 : result.pulses.front().timestamp_ns);
    // chrony logs each PPS sample it took (every edge, less those it dropped) and the pulses are
    // numbered by their seconds here, not by the kernel.
    meta.cadence = core::Cadence::every_edge_with_losses;
    meta.sequences = core::SequenceEvidence::synthetic;
    meta.import =
        nlohmann::json{{"format", "chrony-refclocks"},
                       {"file", detail::files_json(files_)},
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
