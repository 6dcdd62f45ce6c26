// SPDX-License-Identifier: GPL-2.0-or-later
#include "ppsbench/chrony/sample_pulses.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <optional>

#include "ppsbench/chrony/log_common.hpp"
#include "ppsbench/core/duration.hpp"
#include "ppsbench/core/utc_time.hpp"

namespace ppsbench::chrony::detail {
namespace {

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

std::int64_t second_before_ns(std::int64_t t) {
    const std::int64_t s = core::ns_per_second;
    const std::int64_t q = t / s;
    return (t % s < 0 ? q - 1 : q) * s;
}

std::string utc_iso8601(std::int64_t ns) {
    return core::format_utc(ns, core::UtcPrecision::seconds);
}

// The order to read `source`'s samples in: as given, unless whole files came out of time order
// without overlapping (rotated logs named newest first), then oldest file first
// (file_ranks_by_time()). `reordered` names that order for the user.
std::vector<std::size_t> reading_order(std::span<const OffsetSample> samples,
                                       std::string_view source, std::span<const std::string> files,
                                       std::string& reordered) {
    std::vector<std::size_t> order(samples.size());
    for (std::size_t i = 0; i < order.size(); ++i) {
        order[i] = i;
    }
    std::vector<FileSpan> spans;
    for (const auto& s : samples) {
        if (s.source != source) {
            continue;
        }
        if (spans.empty() || spans.back().file != s.file) {
            spans.push_back({s.file, s.time_ns, s.time_ns});
        }
        spans.back().first_ns = std::min(spans.back().first_ns, s.time_ns);
        spans.back().last_ns = std::max(spans.back().last_ns, s.time_ns);
    }
    const auto rank = file_ranks_by_time(spans, files.size());
    if (!rank) {
        return order;
    }
    reordered = reordered_note(*rank, files);
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        return (*rank)[samples[a].file] < (*rank)[samples[b].file];
    });
    return order;
}

}  // namespace

SamplePulses pulses_from_samples(std::span<const OffsetSample> samples, std::string_view source,
                                 std::span<const std::string> files, std::string_view previous,
                                 SkippedLines& skipped, SampleSecond rule) {
    SamplePulses out;
    std::optional<std::int64_t> first_second;
    std::int64_t previous_second = 0;
    for (const std::size_t i : reading_order(samples, source, files, out.reordered)) {
        const auto& sample = samples[i];
        if (sample.source != source) {
            ++out.other_source_lines;
            continue;
        }
        const std::int64_t second = rule == SampleSecond::nearest
                                        ? nearest_second_ns(sample.time_ns)
                                        : second_before_ns(sample.time_ns);
        if (first_second && second <= previous_second) {
            skipped.add(files[sample.file], sample.line,
                        fmt::format("time {} is not after the previous {} ({})",
                                    utc_iso8601(second), previous, utc_iso8601(previous_second)));
            continue;
        }
        if (!core::is_capture_time(second - sample.offset_ns)) {
            // At the range's ends (1970-01-01 00:00:00 with a pulse before the second) the
            // pulse falls outside what a capture holds, though the line's time does not.
            skipped.add(files[sample.file], sample.line,
                        fmt::format("its pulse, {} minus its offset, falls outside the range a "
                                    "capture holds (from 1970 to 2116)",
                                    utc_iso8601(second)));
            continue;
        }
        if (!first_second) {
            first_second = second;
        }
        previous_second = second;
        out.pulses.push_back(
            {static_cast<std::uint64_t>((second - *first_second) / core::ns_per_second),
             second - sample.offset_ns, core::Edge::assert_edge});
    }
    return out;
}

std::string files_label(std::span<const std::string> files) {
    return files.size() == 1 ? files.front() : fmt::format("{} files", files.size());
}

nlohmann::json files_json(std::span<const std::string> files) {
    return files.size() == 1 ? nlohmann::json(files.front())
                             : nlohmann::json(std::vector<std::string>(files.begin(), files.end()));
}

}  // namespace ppsbench::chrony::detail
