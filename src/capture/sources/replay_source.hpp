// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include "ppsbench/capture/pulse_source.hpp"
#include "ppsbench/capture/source_factory.hpp"
#include "ppsbench/store/capture_file.hpp"

namespace ppsbench::capture {

// Plays a capture file back as a source: the same pulses, in the same order, with the recorded
// clock, period and simulated flag (a replayed simulation is still a simulation).
class ReplaySource final : public PulseSource {
  public:
    ReplaySource(std::string spec, const std::string& path, const SourceOptions& options);

    WaitResult wait(core::Duration timeout) override;
    std::size_t read(std::span<core::Pulse> out) override;
    const SourceInfo& info() const override { return info_; }

  private:
    SourceInfo info_;
    store::CaptureFile file_;
    std::size_t next_ = 0;
    std::int64_t first_ns_ = 0;         // first pulse's timestamp
    std::int64_t started_mono_ns_ = 0;  // when pacing began
};

}  // namespace ppsbench::capture
