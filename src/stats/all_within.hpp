// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

// Internal: whether every value of a series lies in a range, two values an SSE2 instruction.
// The fold into the window and the drift check ask it first, over the whole phase buffer, and
// run their per-value arithmetic only where it says no.

#include <cstdint>
#include <span>

namespace ppsbench::stats::detail {

// True when lo <= v <= hi for every v (a NaN is outside every range). all_within() takes SSE2
// where the machine has it (x86-64 always), else it is all_within_scalar(); the answers are
// the same.
bool all_within(std::span<const double> values, double lo, double hi);
bool all_within_scalar(std::span<const double> values, double lo, double hi);
// The same for whole nanoseconds (PhaseBuffer), each value compared as the double it equals.
bool all_within(std::span<const std::int32_t> values, double lo, double hi);
bool all_within_scalar(std::span<const std::int32_t> values, double lo, double hi);

}  // namespace ppsbench::stats::detail
