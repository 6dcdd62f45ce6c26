#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace ppsbench::stats {

struct PeriodJitter {
    std::vector<double> values_ns;  // (t_k − t_{k−1}) − P for each usable pair, in time order
    std::size_t skipped_gaps = 0;   // pairs not one period apart (a missed pulse between them)
    std::size_t skipped_excluded = 0;  // pairs touching an excluded pulse or straddling a step
};

// Period jitter over consecutive pulses: (t_k − t_{k−1}) − P, in exact integer ns. A pair is
// used only if the pulse indices differ by exactly one: across a missed pulse the interval is
// two periods and says nothing about one. Pairs ending at a pulse in `breaks` (sorted: clock
// steps) or touching a pulse in `excluded` (sorted: outliers) are skipped and counted.
PeriodJitter period_jitter(std::span<const std::int64_t> timestamps_ns,
                           std::span<const std::int64_t> index, std::int64_t period_ns,
                           std::span<const std::size_t> breaks = {},
                           std::span<const std::size_t> excluded = {});

}  // namespace ppsbench::stats
