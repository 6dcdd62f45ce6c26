// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

namespace ppsbench::core {

// The smallest 1, 2 or 5 × 10^k (k any integer) not below `raw` (> 0 and finite): the round
// steps people read on an axis and in a histogram's bin edges. The one rule for plot ticks, the
// text histogram's bins and the latency histograms' bins.
double round_up_1_2_5(double raw);

}  // namespace ppsbench::core
