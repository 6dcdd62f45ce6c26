#include "ppsbench/chrony/sample_pulses.hpp"

#include <fmt/format.h>

#include <optional>

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

std::string utc_iso8601(std::int64_t ns) {
    return core::format_utc(ns, core::UtcPrecision::seconds);
}

}  // namespace

SamplePulses pulses_from_samples(std::span<const OffsetSample> samples, std::string_view source,
                                 std::span<const std::string> files, std::string_view previous,
                                 SkippedLines& skipped) {
    SamplePulses out;
    std::optional<std::int64_t> first_second;
    std::int64_t previous_second = 0;
    for (const auto& sample : samples) {
        if (sample.source != source) {
            ++out.other_source_lines;
            continue;
        }
        const std::int64_t second = nearest_second_ns(sample.time_ns);
        if (first_second && second <= previous_second) {
            skipped.add(files[sample.file], sample.line,
                        fmt::format("time {} is not after the previous {} ({})",
                                    utc_iso8601(second), previous, utc_iso8601(previous_second)));
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
