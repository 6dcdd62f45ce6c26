// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include <limits>

namespace ppsbench::stats {

// A two-sided confidence interval. NaN bounds mean "not enough data to say".
struct Interval {
    double lo = std::numeric_limits<double>::quiet_NaN();
    double hi = std::numeric_limits<double>::quiet_NaN();

    bool contains(double value) const { return lo <= value && value <= hi; }
    friend bool operator==(const Interval&, const Interval&) = default;
};

}  // namespace ppsbench::stats
