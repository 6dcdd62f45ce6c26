// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

// Internal: find_steps() on a run whose pulses carry period numbers, for analyze().

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "ppsbench/stats/events.hpp"
#include "train_detail.hpp"

namespace ppsbench::stats::detail {

// find_steps() with its default windows, the drift between two windows counted in periods
// (index.at(j)) rather than samples: across a missed pulse a drifting clock's phase moves by
// the drift of two periods, which a count by samples would call a step of one period's drift.
std::vector<Step> find_numbered_steps(std::span<const double> phase_ns, double k,
                                      std::span<const std::size_t> known, const PulseIndex& index);
std::vector<Step> find_numbered_steps(std::span<const std::int32_t> phase_ns, double k,
                                      std::span<const std::size_t> known, const PulseIndex& index);

}  // namespace ppsbench::stats::detail
