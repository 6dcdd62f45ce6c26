// SPDX-License-Identifier: GPL-2.0-or-later
#include "line_capture.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>

#include "ppsbench/core/duration.hpp"
#include "ppsbench/core/error.hpp"
#include "ppsbench/core/utc_time.hpp"

namespace ppsbench::import::detail {
namespace {

std::int64_t nearest_second_index(std::int64_t t) {
    return (t + core::ns_per_second / 2) / core::ns_per_second;
}

}  // namespace

std::optional<std::int64_t> parse_decimal_ns(std::string_view text) {
    const auto point = text.find('.');
    const auto whole = text.substr(0, point);
    std::int64_t seconds = 0;
    const auto [end, ec] = std::from_chars(whole.data(), whole.data() + whole.size(), seconds);
    if (whole.empty() || ec != std::errc{} || end != whole.data() + whole.size() || seconds < 0 ||
        seconds > core::max_timestamp_ns / core::ns_per_second) {
        return std::nullopt;
    }
    std::int64_t fraction = 0;
    if (point != std::string_view::npos) {
        const auto digits = text.substr(point + 1);
        if (digits.empty() || digits.size() > 9) {
            return std::nullopt;
        }
        for (const char c : digits) {
            if (c < '0' || c > '9') {
                return std::nullopt;
            }
            fraction = fraction * 10 + (c - '0');
        }
        for (std::size_t i = digits.size(); i < 9; ++i) {
            fraction *= 10;
        }
    }
    const std::int64_t ns = seconds * core::ns_per_second + fraction;
    return ns <= core::max_timestamp_ns ? std::optional(ns) : std::nullopt;
}

std::string chosen_source(const std::map<std::string, std::size_t>& counts,
                          const std::string& wanted, std::string_view what, std::string_view option,
                          const std::string& name) {
    std::string listed;
    for (const auto& [source, n] : counts) {
        listed += fmt::format("{}{} ({} edges)", listed.empty() ? "" : ", ", source, n);
    }
    if (!wanted.empty()) {
        if (counts.count(wanted) == 0) {
            throw core::InputError(fmt::format("{}: no edges of {} {}; {}s in the file: {}", name,
                                               what, wanted, what,
                                               listed.empty() ? "none" : listed));
        }
        return wanted;
    }
    if (counts.size() != 1) {
        throw core::InputError(
            counts.empty() ? fmt::format("{}: no edges", name)
                           : fmt::format("{}: edges of several {}s: {}; pick one with {} NAME",
                                         name, what, listed, option));
    }
    return counts.begin()->first;
}

CaptureImport capture_from_edges(const std::vector<LoggedEdge>& edges, const std::string& source,
                                 core::Edge edge, chrony::SkippedLines& skipped) {
    std::vector<const LoggedEdge*> mine;
    for (const auto& e : edges) {
        if (e.source == source) {
            mine.push_back(&e);
        }
    }
    std::stable_sort(mine.begin(), mine.end(), [](const auto* a, const auto* b) {
        return a->timestamp_ns < b->timestamp_ns;
    });
    CaptureImport result;
    std::int64_t first = 0;
    std::int64_t previous = 0;
    for (const auto* e : mine) {
        const std::int64_t second = nearest_second_index(e->timestamp_ns);
        if (!result.pulses.empty() && second <= previous) {
            skipped.add(
                e->file, e->line,
                fmt::format(
                    "an edge at {} is not in a later second than the previous "
                    "one ({})",
                    core::format_utc(e->timestamp_ns, core::UtcPrecision::nanoseconds),
                    core::format_utc(previous * core::ns_per_second, core::UtcPrecision::seconds)));
            continue;
        }
        if (result.pulses.empty()) {
            first = second;
        }
        previous = second;
        const auto sequence = e->sequence.value_or(static_cast<std::uint64_t>(second - first));
        result.pulses.push_back({sequence, e->timestamp_ns, edge});
    }
    result.gaps = count_gaps(result.pulses, core::ns_per_second);
    return result;
}

}  // namespace ppsbench::import::detail
