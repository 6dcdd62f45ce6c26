// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

// Internal: what the gpio: and poll:CHIP:LINE sources share whichever libgpiod backend is built
// (gpio_source_v1.cpp for libgpiod 1.6, gpio_source_v2.cpp for 2.x): the spec, the --bias
// values, and the one wording of each setup error, so both releases tell a user the same thing.

#include <string>
#include <string_view>

namespace ppsbench::capture {

// Where "gpio:CHIP:LINE" points: a chip by name (gpiochip0), path (/dev/gpiochip0), number (0)
// or label, and a line by offset (17) or name (GPIO17).
struct GpioLineSpec {
    std::string chip;
    std::string line;
};
GpioLineSpec parse_gpio_spec(std::string_view rest);

// --bias, checked before any chip is opened. Throws core::UsageError naming the values.
enum class GpioBias { as_is, pull_up, pull_down, disable };
GpioBias parse_gpio_bias(const std::string& bias, const std::string& spec);

// One line each, naming the thing and the fix. `who` names what was asked for: "gpio:CHIP" for
// a gpio: source, the spec for poll:.
std::string gpio_chip_error(const std::string& who, int err);
std::string gpio_no_line_error(const std::string& spec, const std::string& chip,
                               const std::string& line, std::size_t lines);
std::string gpio_busy_error(const std::string& spec, std::string_view consumer);
// The request itself refused (`what`: "edge events", "the line as an input").
std::string gpio_request_error(const std::string& spec, std::string_view what, int err);

}  // namespace ppsbench::capture
