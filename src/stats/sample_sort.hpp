// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

// Internal: the order statistics' samples (order_statistics.hpp), sorted by radix.
//
// Every summary (and visited_median()) sorts its sample of up to 131 072 values before its
// passes; std::sort took 4 ms a sample, 5 % of the CPU of a 2.6 M-pulse report (three
// summaries), mispredicting a comparison in two on values in random order. A
// least-significant-digit radix sort makes a few passes that do not branch on the values, and
// skips the digits every value shares (the sign and exponent of a series within a few
// decades). The order is std::sort's: ascending, equal values together. (−0 and +0, equal to
// std::sort in either order, come out −0 first; the series summarised hold neither NaN nor −0.)

#include <span>

namespace ppsbench::stats::detail {

void sort_sample(std::span<double> values);

}  // namespace ppsbench::stats::detail
