// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include <cstdint>
#include <optional>

#include "ppsbench/capture/pulse_source.hpp"
#include "ppsbench/stats/offsets.hpp"

namespace ppsbench::session {

// The figure a live view shows for each pulse, so the status line and the live Prometheus
// metrics show the same number: the phase offset from the top of the period on a realtime
// clock; on a monotonic clock, which has no top of the second, the period jitter (interval − P),
// which the first pulse does not have. Constant memory, no allocation: it runs on the capture
// thread.
class LiveFigure {
  public:
    explicit LiveFigure(const capture::SourceInfo& source)
        : period_ns_(source.period.count()), has_phase_(source.clock == core::ClockId::realtime) {}

    std::optional<double> next(std::int64_t timestamp_ns) {
        std::optional<double> value;
        if (has_phase_) {
            value = static_cast<double>(stats::phase_offset_ns(timestamp_ns, period_ns_));
        } else if (previous_timestamp_) {
            value = static_cast<double>(timestamp_ns - *previous_timestamp_ - period_ns_);
        }
        previous_timestamp_ = timestamp_ns;
        return value;
    }

    bool has_phase() const { return has_phase_; }
    std::int64_t period_ns() const { return period_ns_; }

  private:
    std::int64_t period_ns_;
    bool has_phase_;
    std::optional<std::int64_t> previous_timestamp_;
};

}  // namespace ppsbench::session
