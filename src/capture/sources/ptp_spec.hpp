// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace ppsbench::capture {

// Where "ptp:/dev/ptpN[,extts=K][,pin=P]" points: the PHC, its external-timestamp channel
// (0 by default) and, when given, the programmable pin to assign to that channel.
struct PtpSpec {
    std::string device;
    unsigned channel = 0;
    std::optional<unsigned> pin;
};
PtpSpec parse_ptp_spec(std::string_view rest);

}  // namespace ppsbench::capture
