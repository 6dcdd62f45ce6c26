// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

// Internal: analyze()'s summaries stage. The offsets, the residuals and the period jitter are
// each summarised with every value and, as moments only, without the outliers the headline
// series' robust centre and scale single out. The offsets and residuals are read a block at a
// time from the phase buffer (phase_view.hpp: the residuals are computed as they are read),
// the period jitter from the timestamps on the second thread (period_jitter.hpp).

#include <cstddef>
#include <optional>
#include <span>
#include <vector>

#include "phase_view.hpp"
#include "ppsbench/stats/analyze.hpp"
#include "ppsbench/stats/events.hpp"
#include "ppsbench/stats/histogram.hpp"
#include "ppsbench/stats/summary.hpp"
#include "selection.hpp"

namespace ppsbench::stats::detail {

// The headline series (offsets on a realtime clock, residuals otherwise) also yields the
// outlier rule's centre and scale and, if asked for, the histogram, from the same passes.
struct HeadlineSummary {
    Summary summary;
    Outliers outliers;
    std::optional<Histogram> histogram;  // if options.compute_histogram
};

HeadlineSummary summarize_headline(const PhaseView& values, const AnalysisOptions& options);
HeadlineSummary summarize_headline(const ResidualView& values, const AnalysisOptions& options);

// Every figure of Summary of a series (the residuals of a realtime run, beside its offsets).
Summary summarize_view(const ResidualView& values);

// The moments of a series without the values at the (ascending) positions `outliers` (count,
// mean, σ and its interval, min, max, peak-to-peak, RMS; `all`'s when there are none): the
// order statistics stay NaN, as in a saved summary, which keeps only σ of these series. Each
// would cost three selections over the series, for figures no output shows.
Summary summarize_without(const PhaseView& values, std::span<const std::size_t> outliers,
                          const Summary& all);
Summary summarize_without(const ResidualView& values, std::span<const std::size_t> outliers,
                          const Summary& all);

// Every value of a view (PhaseView, ResidualView), in pulse order: the series a plot keeps, or
// the copy a fallback sorts.
template <typename View>
std::vector<double> values_of(const View& view) {
    std::vector<double> values;
    values.reserve(view.size());
    view.for_each([&values](const double* v, std::size_t count, std::size_t, std::int64_t) {
        values.insert(values.end(), v, v + count);
    });
    return values;
}

// The summaries stage: fills r's offset, residual and period-jitter summaries, the outliers
// and the fit, and `series` if options.keep_series. `phase_ns`: the phase buffer, steps removed
// and folded; `step_positions`: where the clock steps are (the period jitter skips them).
void summarize_run(RunStatistics& r, Series& series, const Selection& selection,
                   const PulseIndex& index, const PhaseBuffer& phase_ns,
                   std::span<const std::size_t> step_positions, const AnalysisOptions& options);

}  // namespace ppsbench::stats::detail
