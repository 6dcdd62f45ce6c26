// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include <memory>
#include <string>

#include "gpio_spec.hpp"
#include "level_reader.hpp"
#include "ppsbench/capture/source_factory.hpp"

namespace ppsbench::capture {

// Edge events from one GPIO line through libgpiod, one backend per API, chosen at configure
// time (CMakeLists.txt): gpio_source_v1.cpp for libgpiod 1.6 (Debian 12; uAPI v1: stamps on
// CLOCK_MONOTONIC, which has no top of the second, so reports use detrended figures, and no
// sequence numbers), gpio_source_v2.cpp for libgpiod 2 (Debian 13; uAPI v2: stamps on
// CLOCK_REALTIME like /dev/pps, and the kernel's per-line sequence numbers). Either way the
// kernel stamps each event in the hard-IRQ part of its handler.
class GpioSource final : public PulseSource {
  public:
    GpioSource(std::string spec, const GpioLineSpec& line, const SourceOptions& options);
    ~GpioSource() override;

    WaitResult wait(core::Duration timeout) override;
    std::size_t read(std::span<core::Pulse> out) override;
    const SourceInfo& info() const override { return info_; }

    struct Impl;  // the libgpiod handles and the event reader: defined by the backend

  private:
    SourceInfo info_;
    std::unique_ptr<Impl> impl_;
};

// A line's level, read as an input (poll:CHIP:LINE, the polled-edge reference): defined by the
// backend, as only it includes libgpiod. Throws core::InputError as GpioSource does.
std::unique_ptr<detail::LevelReader> open_gpio_level_reader(const std::string& spec,
                                                            const GpioLineSpec& line);

}  // namespace ppsbench::capture
