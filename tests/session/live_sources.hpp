// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include "ppsbench/capture/pulse_source.hpp"

namespace ppsbench::session {

// A PPS device's path, with the fields LiveMetrics reads (spec, kind, device), for its tests.
inline capture::SourceInfo pps_source() {
    capture::SourceInfo info;
    info.spec = "pps:/dev/pps0";
    info.kind = "pps";
    info.pps_device = "/dev/pps0";
    return info;
}

}  // namespace ppsbench::session
