// SPDX-License-Identifier: GPL-2.0-or-later
// chronyd's RMS offset recurrence (reference.c, REF_SetReference()), replayed on logged offsets.
#include <cmath>

#include "ppsbench/chrony/logs.hpp"

namespace ppsbench::chrony {

void RmsOffsetTracker::add(double offset) {
    // reference.c: "quickly on start" the mean square is replaced by each new square until one
    // is larger than the running value; from then on it is an exponential moving average.
    const double square = offset * offset;
    if (moving_) {
        mean_square_ += 0.1 * (square - mean_square_);
        ++moving_updates_;
    } else {
        if (mean_square_ > 0.0) {
            // tracking.log's %10.3e offsets are within a factor 1 +- 5e-4 of chronyd's, so
            // squares within (1.0005 / 0.9995)^2 of each other may compare either way there.
            constexpr double rounding = 1.0005 / 0.9995;
            const double ratio = square / mean_square_;
            close_call_ =
                close_call_ || (ratio * rounding * rounding > 1.0 && ratio < rounding * rounding);
            moving_ = mean_square_ < square;
        }
        mean_square_ = square;
    }
}

double RmsOffsetTracker::rms() const {
    return std::sqrt(mean_square_);
}

}  // namespace ppsbench::chrony
