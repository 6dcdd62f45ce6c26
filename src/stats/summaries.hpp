// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

// Internal: analyze()'s summaries stage. Every series of a run is summarised in place (no
// copy: order_statistics.hpp reads it), once with every value and once without the outliers
// that the headline series' robust centre and scale single out.

#include <cstddef>
#include <optional>
#include <span>

#include "ppsbench/stats/analyze.hpp"
#include "ppsbench/stats/events.hpp"
#include "ppsbench/stats/histogram.hpp"
#include "ppsbench/stats/summary.hpp"

namespace ppsbench::stats::detail {

// The headline series (offsets on a realtime clock, residuals otherwise) also yields the
// outlier rule's centre and scale and the histogram's quantiles, from the same passes.
struct HeadlineSummary {
    Summary summary;
    Outliers outliers;
    std::optional<Histogram> histogram;  // if options.compute_histogram
};

HeadlineSummary summarize_headline(std::span<const double> values, const AnalysisOptions& options);

// The moments of `values` without those at the (ascending) positions `outliers` (count, mean,
// σ and its interval, min, max, peak-to-peak, RMS; `all`'s when there are none): the order
// statistics stay NaN, as in a saved summary, which keeps only σ of these series. Each would
// cost three selections over the series, for figures no output shows.
Summary summarize_without(std::span<const double> values, std::span<const std::size_t> outliers,
                          const Summary& all);

}  // namespace ppsbench::stats::detail
