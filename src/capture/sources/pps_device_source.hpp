// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include <array>
#include <ctime>
#include <string>

#include "ppsbench/capture/pulse_source.hpp"
#include "ppsbench/capture/source_factory.hpp"
#include "ppsbench/core/unique_fd.hpp"

namespace ppsbench::capture {

// An RFC 2783 PPS device (/dev/ppsN) through <sys/timepps.h>. The kernel takes the timestamp
// (CLOCK_REALTIME) in its interrupt path; this source adds nothing to it. time_pps_fetch()
// returns the latest assert and clear events with their sequence numbers; a sequence that moved
// by more than one means the kernel saw edges this process did not read (missed pulses).
class PpsDeviceSource final : public PulseSource {
  public:
    PpsDeviceSource(std::string spec, std::string device, const SourceOptions& options);
    ~PpsDeviceSource() override;

    WaitResult wait(core::Duration timeout) override;
    std::size_t read(std::span<core::Pulse> out) override;
    const SourceInfo& info() const override { return info_; }

  private:
    // One PPS_FETCH with this limit (zero: no wait, the current state); queues new edges.
    WaitResult fetch(const timespec& limit);
    // The device node no longer names the device this source has open (removed or replaced).
    bool vanished() const;

    SourceInfo info_;
    std::string device_;
    core::UniqueFd fd_;
    std::uint64_t last_assert_ = 0;
    std::uint64_t last_clear_ = 0;
    std::int64_t opened_ns_ = 0;  // CLOCK_REALTIME when the device was opened
    std::array<core::Pulse, 2> ready_{};
    std::size_t ready_count_ = 0;
};

}  // namespace ppsbench::capture
