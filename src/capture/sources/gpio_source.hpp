// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include <memory>
#include <string>

#include "gpio_event_reader.hpp"
#include "level_reader.hpp"
#include "ppsbench/capture/source_factory.hpp"

namespace ppsbench::capture {

// Where "gpio:CHIP:LINE" points: a chip by name (gpiochip0), path (/dev/gpiochip0) or label,
// and a line by offset (17) or name (GPIO17).
struct GpioLineSpec {
    std::string chip;
    std::string line;
};
GpioLineSpec parse_gpio_spec(std::string_view rest);

// Edge events from one GPIO line through libgpiod (Debian 12: libgpiod 1.6, uAPI v1). The
// kernel timestamps each event in the hard-IRQ part of its handler, on CLOCK_MONOTONIC (since
// Linux 5.7), which has no top of the second: reports use detrended figures for these runs.
class GpioSource final : public PulseSource {
  public:
    GpioSource(std::string spec, const GpioLineSpec& line, const SourceOptions& options);
    ~GpioSource() override;

    WaitResult wait(core::Duration timeout) override;
    std::size_t read(std::span<core::Pulse> out) override;
    const SourceInfo& info() const override { return info_; }

    struct Line;  // the libgpiod handles: only this source's .cpp includes <gpiod.hpp>

  private:
    SourceInfo info_;
    std::unique_ptr<Line> line_;
    std::unique_ptr<GpioEventReader> reader_;
};

// A line's level, read as an input (poll:CHIP:LINE, the polled-edge reference): here because
// only this file includes <gpiod.hpp>. Throws core::InputError as GpioSource does.
std::unique_ptr<detail::LevelReader> open_gpio_level_reader(const std::string& spec,
                                                            const GpioLineSpec& line);

}  // namespace ppsbench::capture
