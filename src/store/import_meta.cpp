// SPDX-License-Identifier: GPL-2.0-or-later
#include "ppsbench/store/import_meta.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace ppsbench::store {

RunMeta import_run_meta(std::string_view format, std::string label,
                        const std::vector<std::string>& files, core::EdgeSelection edges,
                        std::int64_t start_ns) {
    RunMeta meta;
    meta.label = std::move(label);
    meta.source = fmt::format("{}:{}", format, fmt::join(files, ","));
    meta.source_kind = std::string(format);
    meta.simulated = false;
    meta.edges = edges;
    meta.period = std::chrono::seconds{1};
    meta.clock = core::ClockId::realtime;
    meta.start_realtime_ns = start_ns;
    meta.start_time_precision = core::UtcPrecision::seconds;
    return meta;
}

}  // namespace ppsbench::store
