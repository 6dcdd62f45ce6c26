// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include "ppsbench/capture/pulse_source.hpp"
#include "ppsbench/capture/sim_model.hpp"
#include "ppsbench/capture/source_factory.hpp"
#include "ppsbench/core/random.hpp"

namespace ppsbench::capture {

// Deterministic synthetic pulses: the same model, seed and options give the same pulses on any
// machine. Without pacing it produces pulses as fast as they are read, starting at a fixed
// epoch (2026-01-01T00:00:00Z) so files are reproducible; with pacing it sleeps until each
// pulse's time on CLOCK_REALTIME and starts at the next whole period.
class SimSource final : public PulseSource {
  public:
    SimSource(std::string spec, SimModel model, const SourceOptions& options);

    WaitResult wait(core::Duration timeout) override;
    std::size_t read(std::span<core::Pulse> out) override;
    const SourceInfo& info() const override { return info_; }

  private:
    core::Pulse next_pulse();
    double latency_ns();

    SourceInfo info_;
    SimModel model_;
    core::Random random_;
    std::int64_t period_ns_;
    std::int64_t start_ns_;
    std::uint64_t edge_index_ = 0;  // counts edges the kernel saw (assert and clear interleaved)
    std::uint64_t assert_sequence_ = 0;
    std::uint64_t clear_sequence_ = 0;
    bool have_pending_ = false;
    core::Pulse pending_{};
};

}  // namespace ppsbench::capture
