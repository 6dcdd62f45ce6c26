// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include <string>
#include <vector>

#include "phc_device.hpp"

namespace ppsbench::capture {

// Which pin functions the source changed, to put them back (RAII): assigning a pin to a
// channel makes the kernel take that channel's function from whatever pin had it, so every
// pin's function is noted before and each one that differs afterwards is restored.
class PinFunctions {
  public:
    PinFunctions(PhcDevice& device, unsigned pins, const std::string& what);
    ~PinFunctions();
    PinFunctions(const PinFunctions&) = delete;
    PinFunctions& operator=(const PinFunctions&) = delete;
    const ptp_pin_desc& before(unsigned pin) const { return before_.at(pin); }

  private:
    PhcDevice& device_;
    std::vector<ptp_pin_desc> before_;
};

}  // namespace ppsbench::capture
