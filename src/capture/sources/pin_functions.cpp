// SPDX-License-Identifier: GPL-2.0-or-later
#include "pin_functions.hpp"

#include <fmt/format.h>

#include "ppsbench/core/error.hpp"

namespace ppsbench::capture {

PinFunctions::PinFunctions(PhcDevice& device, unsigned pins, const std::string& what)
    : device_(device), before_(pins) {
    for (unsigned i = 0; i < pins; ++i) {
        before_[i].index = i;
        if (const int err = device_.pin_function(before_[i]); err != 0) {
            throw core::InputError(fmt::format("{}: cannot read the function of pin {}: {}", what,
                                               i, core::errno_message(err)));
        }
    }
}

PinFunctions::~PinFunctions() {
    // Restore in index order; nothing can be reported from a destructor, so a pin the driver
    // refuses to put back stays as it is (docs/latency.md says how to check with doctor).
    for (const auto& old : before_) {
        ptp_pin_desc now{};
        now.index = old.index;
        if (device_.pin_function(now) == 0 && (now.func != old.func || now.chan != old.chan)) {
            device_.set_pin_function(old);
        }
    }
}

}  // namespace ppsbench::capture
