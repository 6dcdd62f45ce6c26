// SPDX-License-Identifier: GPL-2.0-or-later
#include "ppsbench/import/ts2phc.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "line_capture.hpp"
#include "ppsbench/chrony/log_common.hpp"
#include "ppsbench/chrony/sample_pulses.hpp"
#include "ppsbench/core/error.hpp"
#include "ppsbench/core/text.hpp"
#include "ppsbench/store/import_meta.hpp"

namespace ppsbench::import {
namespace {

struct Ts2phcEdge {
    std::string clock;
    std::string_view time;
};

// The edge on a line, in either of ts2phc's shapes; nullopt for every other line.
std::optional<Ts2phcEdge> edge_on(const std::vector<std::string_view>& f) {
    for (std::size_t i = 0; i + 4 < f.size(); ++i) {
        // "IFACE extts index N at T corr C src S diff D"
        if (f[i + 1] == "extts" && f[i + 2] == "index" && f[i + 4] == "at" && i + 5 < f.size()) {
            return Ts2phcEdge{std::string(f[i]), f[i + 5]};
        }
        // "adding tstamp T to clock C"
        if (f[i] == "adding" && f[i + 1] == "tstamp" && f[i + 3] == "to" && f[i + 4] == "clock" &&
            i + 5 < f.size()) {
            return Ts2phcEdge{std::string(f[i + 5]), f[i + 2]};
        }
    }
    return std::nullopt;
}

bool is_ts2phc_line(std::string_view line) {
    return line.find("ts2phc") != std::string_view::npos;
}

}  // namespace

Ts2phcReader::Ts2phcReader(Ts2phcImportOptions options)
    : options_(std::move(options)), skipped_(options_.strict) {}

Ts2phcReader::~Ts2phcReader() = default;

void Ts2phcReader::read(std::istream& in, const std::string& name) {
    files_.push_back(name);
    std::string line;
    std::size_t n = 0;
    while (std::getline(in, line)) {
        ++n;
        ++lines_;
        const auto f = core::split_whitespace(line);
        if (f.empty()) {
            continue;
        }
        if (std::find(f.begin(), f.end(), "SKIP") != f.end()) {
            ++skip_lines_;  // the other edge, which ts2phc ignores
            continue;
        }
        const auto edge = edge_on(f);
        if (!edge) {
            if (!is_ts2phc_line(line)) {
                skipped_.add(
                    name, n,
                    fmt::format("'{}' is not a ts2phc line", chrony::detail::printable(line)));
            }
            continue;  // ts2phc's own chatter: offsets, servo, nmea
        }
        const auto time_ns = detail::parse_decimal_ns(edge->time);
        if (!time_ns || !chrony::detail::is_printable_word(edge->clock)) {
            skipped_.add(name, n,
                         fmt::format("the edge '{} at {}' is not a clock and a time like eth0 at "
                                     "1665570382.000000024",
                                     chrony::detail::printable(edge->clock),
                                     chrony::detail::printable(edge->time)));
            continue;
        }
        ++clocks_[edge->clock];
        edges_.push_back({edge->clock, *time_ns, std::nullopt, name, n});
    }
}

CaptureImport Ts2phcReader::finish() {
    const std::string name = chrony::detail::files_label(files_);
    if (edges_.empty()) {
        throw core::InputError(fmt::format(
            "{}: no ts2phc edges (lines '... extts index 0 at T ...' or 'adding tstamp T to "
            "clock C'); ts2phc prints them with -m and logging_level 7{}",
            name, skipped_.summary()));
    }
    std::string clock;
    try {
        clock = detail::chosen_source(clocks_, options_.clock, "clock", "--clock", name);
    } catch (const core::InputError& e) {
        throw core::InputError(e.what() + skipped_.summary());
    }
    CaptureImport result =
        detail::capture_from_edges(edges_, clock, core::Edge::assert_edge, skipped_);
    result.lines = lines_;
    result.problem_count = skipped_.count();
    result.problems = skipped_.take();
    result.notes.push_back(fmt::format(
        "the edges are {}'s own timestamps (TAI when ts2phc applies the UTC-TAI offset, 37 s "
        "ahead of UTC): the capture's clock is tai, not CLOCK_REALTIME",
        clock));
    if (clocks_.size() > 1) {
        result.notes.push_back(
            fmt::format("{} edges of other clocks skipped", edges_.size() - clocks_.at(clock)));
    }
    auto meta = store::import_run_meta("ts2phc", clock, files_, core::EdgeSelection::assert_only,
                                       result.pulses.front().timestamp_ns);
    meta.clock = core::ClockId::tai;
    meta.import = nlohmann::json{{"format", "ts2phc"},
                                 {"file", chrony::detail::files_json(files_)},
                                 {"clock", clock},
                                 {"lines", result.lines},
                                 {"pulses", result.pulses.size()},
                                 {"skip_lines", skip_lines_},
                                 {"skipped_lines", result.problem_count}};
    result.metadata = store::to_json(meta);
    return result;
}

CaptureImport import_ts2phc(std::istream& in, const std::string& name,
                            const Ts2phcImportOptions& options) {
    Ts2phcReader reader(options);
    reader.read(in, name);
    return reader.finish();
}

}  // namespace ppsbench::import
