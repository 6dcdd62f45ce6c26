// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

// Internal: find_steps()'s candidates, looked for two samples an SSE2 instruction. Nearly every
// difference of the phase is jitter, no candidate; the search runs on to the few that are.

#include <cstddef>
#include <cstdint>
#include <span>

namespace ppsbench::stats::detail {

// The first i in [from, to) (from >= 1) whose difference from the sample before departs from
// `slope` by more than `bound`: |phase[i] − phase[i − 1] − slope| > bound, computed in that
// order (a NaN departs from nothing); `to` if none does. next_departure() takes SSE2 where the
// machine has it, else it is next_departure_scalar(); the answers are the same.
std::size_t next_departure(std::span<const double> phase, std::size_t from, std::size_t to,
                           double slope, double bound);
std::size_t next_departure_scalar(std::span<const double> phase, std::size_t from, std::size_t to,
                                  double slope, double bound);
// The same on whole nanoseconds (PhaseBuffer), each sample converted to double first.
std::size_t next_departure(std::span<const std::int32_t> phase, std::size_t from, std::size_t to,
                           double slope, double bound);
std::size_t next_departure_scalar(std::span<const std::int32_t> phase, std::size_t from,
                                  std::size_t to, double slope, double bound);

}  // namespace ppsbench::stats::detail
