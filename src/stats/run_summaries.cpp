// SPDX-License-Identifier: GPL-2.0-or-later
#include <future>

#include "period_jitter.hpp"
#include "summaries.hpp"

namespace ppsbench::stats::detail {

namespace {

void record_outliers(RunStatistics& r, const Selection& selection, const Outliers& outliers) {
    r.outliers.center_ns = outliers.center;
    r.outliers.scale_ns = outliers.scale;
    r.outliers.threshold_ns = outliers.threshold;
    for (std::size_t i : outliers.indices) {
        r.outliers.pulses.push_back(selection.pulse(i));
    }
}

}  // namespace

// On a monotonic (or free-running) clock the headline is the residuals, whose outliers every
// series then leaves out; on a realtime clock it is the offsets.
void summarize_run(RunStatistics& r, Series& series, const Selection& selection,
                   const PulseIndex& index, const PhaseBuffer& phase_ns,
                   std::span<const std::size_t> step_positions, const AnalysisOptions& options) {
    const bool realtime = core::counts_true_seconds(options.clock) && !r.free_running;
    const PhaseView phase(phase_ns, index);
    r.fit = fit_phase(phase, options.detrend_degree);
    const ResidualView residuals(phase, r.fit);
    const HeadlineSummary headline =
        realtime ? summarize_headline(phase, options) : summarize_headline(residuals, options);
    record_outliers(r, selection, headline.outliers);
    r.histogram = headline.histogram;
    const std::span<const std::size_t> outliers = headline.outliers.indices;

    // The period jitter reads only the timestamps, the index, the steps and the outliers, so it
    // runs on a second thread while this one finishes the summaries of the phase buffer.
    auto jitter = std::async(std::launch::async, [&] {
        return period_jitter(selection, index, options.period_ns, step_positions, outliers,
                             options.keep_series);
    });
    if (realtime) {
        r.offset_ns = headline.summary;
        r.offset_ns_without_outliers = summarize_without(phase, outliers, headline.summary);
        r.detrended_ns = summarize_view(residuals);
        if (options.keep_series) {
            series.offset_ns = values_of(phase);
        }
    } else {
        r.detrended_ns = headline.summary;
    }
    if (options.keep_series) {
        series.detrended_ns = values_of(residuals);
    }
    r.detrended_ns_without_outliers = summarize_without(residuals, outliers, r.detrended_ns);
    PeriodJitter period_jitter = jitter.get();
    r.period_jitter_ns = period_jitter.all;
    r.period_jitter_ns_without_outliers = period_jitter.without_outliers;
    r.period_pairs_skipped_gaps = period_jitter.counts.skipped_gaps;
    r.period_pairs_skipped_steps = period_jitter.counts.skipped_excluded;
    series.period_jitter_ns = std::move(period_jitter.values);  // empty unless keep_series
}

}  // namespace ppsbench::stats::detail
