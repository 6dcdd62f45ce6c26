// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

// Internal: analyze()'s period jitter stage, (t_k − t_{k−1}) − P in exact integer ns straight
// from the timestamps (for_each_period_jitter in train_detail.hpp gives the pair rules). It
// reads only the selection, the pulse index, the clock steps and the outliers, never the phase
// buffer, which is what lets analyze() run it on a second thread.

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "ppsbench/stats/summary.hpp"
#include "selection.hpp"
#include "train_detail.hpp"

namespace ppsbench::stats::detail {

struct PeriodJitter {
    Summary all;
    Summary without_outliers;    // its moments only (StreamedMoments): the report gives σ
    JitterCounts counts;         // of `all`
    std::vector<double> values;  // if keep_series, in time order
};

// `steps` and `outliers`: selected-pulse positions, ascending. A pair ending at a step is
// skipped in both summaries; a pair touching an outlier only in `without_outliers`.
PeriodJitter period_jitter(const Selection& selection, const PulseIndex& index,
                           std::int64_t period_ns, std::span<const std::size_t> steps,
                           std::span<const std::size_t> outliers, bool keep_series);

}  // namespace ppsbench::stats::detail
