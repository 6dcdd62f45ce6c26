// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

// Internal: the phase over a stretch of usual intervals (phase.cpp), two pulses an SSE2 step.
// Between two unusual intervals the unwrapped phase is v_j = t_j − base_j with base_j =
// base_{j−1} + P: a subtraction and a conversion a pulse, which SSE2 does two at a time.

#include <cstddef>
#include <cstdint>

namespace ppsbench::stats::detail {

// out[j] = double(t[j] − (base + (j + 1)·P)) for j < count, in wrapping arithmetic, and base
// moved on by count·P. usual_phase_block() converts two at a time with SSE2 where the machine
// has it, which is exact while |v_j| < 2^51 (the caller makes sure of it); else, and on other
// machines, it is usual_phase_block_scalar(). The same bits.
void usual_phase_block(const std::int64_t* t, std::size_t count, std::uint64_t& base,
                       std::uint64_t period_ns, double* out);
void usual_phase_block_scalar(const std::int64_t* t, std::size_t count, std::uint64_t& base,
                              std::uint64_t period_ns, double* out);

}  // namespace ppsbench::stats::detail
