// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "ppsbench/core/clock.hpp"
#include "ppsbench/latency/latency_summary.hpp"
#include "ppsbench/latency/paired.hpp"
#include "ppsbench/store/capture_file.hpp"

namespace ppsbench::analysis {

// Reading the capture files of `ppsbench latency` and of a two-source run into latency's plain
// data; the figures themselves are latency's (describe, compare_paths).

// True for files written by `ppsbench latency` (meta "kind": "latency").
bool is_latency_file(const store::CaptureFile& file);

// Throws core::InputError naming the file when it is not a latency capture or lacks the
// drive_ns / wake_ns columns.
latency::LatencySummary summarize_latency(const store::CaptureFile& file);

// A path's pulses on `target`. A monotonic file goes to realtime through its per-pulse
// realtime_offset_ns column; throws core::InputError naming the file when it has none.
std::vector<latency::TimedPulse> on_time_base(const store::CaptureFile& file, core::ClockId target);

// How the realtime − monotonic offset moved over the file's run; nullopt without the column.
std::optional<latency::TimeBaseStats> time_base_stats(const store::CaptureFile& file);

// Two paths' report on their common clock (latency::common_clock), the period from path A's
// meta unless overridden.
latency::DualSummary summarize_dual(const store::CaptureFile& a, const store::CaptureFile& b,
                                    std::optional<std::int64_t> period_override_ns = std::nullopt);

}  // namespace ppsbench::analysis
