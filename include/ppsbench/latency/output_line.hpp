// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

namespace ppsbench::latency {

// A line ppsbench drives: the output end of the jumper wire. set() must be cheap and must not
// allocate, since the time just before it is the start of the measured path.
class OutputLine {
  public:
    virtual ~OutputLine() = default;
    OutputLine() = default;
    OutputLine(const OutputLine&) = delete;
    OutputLine& operator=(const OutputLine&) = delete;

    virtual void set(bool high) = 0;
    // Chip, line and label, for the capture file's metadata.
    virtual nlohmann::json details() const = 0;
};

// Where "--drive CHIP:LINE" points (a leading "gpio:" is accepted). Throws core::UsageError
// naming --drive and the expected form.
struct DriveSpec {
    std::string chip;
    std::string line;
};
DriveSpec parse_drive_spec(std::string_view text);

// Requests the line as an output through libgpiod, driven low first. Throws core::InputError
// for no such chip or line, a busy line (naming its consumer) or no permission.
std::unique_ptr<OutputLine> open_gpio_output(const DriveSpec& spec);

}  // namespace ppsbench::latency
