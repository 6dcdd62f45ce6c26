// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "ppsbench/core/duration.hpp"
#include "ppsbench/core/pulse.hpp"
#include "ppsbench/stats/detrend.hpp"
#include "ppsbench/stats/events.hpp"
#include "ppsbench/stats/histogram.hpp"
#include "ppsbench/stats/stability.hpp"
#include "ppsbench/stats/summary.hpp"

namespace ppsbench::stats {

struct AnalysisOptions {
    std::int64_t period_ns = core::ns_per_second;  // nominal period P
    // CLOCK_REALTIME: the phase offset from the top of the period is the headline. On
    // CLOCK_MONOTONIC (GPIO v1 uAPI) the offset means nothing; the detrended residuals are the
    // headline and `offset_ns` stays empty.
    core::ClockId clock = core::ClockId::realtime;
    // How the pulses were recorded (core::Cadence): sampled pulses fold on P, their gaps are
    // not missed pulses, and their intervals may be any whole multiple of P.
    core::Cadence cadence = core::Cadence::every_edge;
    // Whether the sequence numbers are the kernel's: only then do they prove clock steps,
    // missed pulses and events never read (an importer's numbering proves nothing).
    bool kernel_sequences = true;
    // For the refusal of a period the pulses contradict: what names the pulses ("stock.csv")
    // and whether P came from --period (else it is the recorded period).
    std::string input = "the pulses";
    bool period_given = false;
    // Which edge to analyse; by default the assert edge, or the clear edge if there is none.
    std::optional<core::Edge> edge;
    int detrend_degree = 1;  // 1 or 2
    double outlier_k = 8.0;  // |x − median| > k · robust σ flags an outlier
    double step_k = 8.0;     // threshold for clock steps, in noise σ (see find_steps)
    bool remove_clock_steps = true;
    bool compute_histogram = true;
    HistogramOptions histogram;
    bool compute_stability = true;
    // Keep the per-pulse series in RunStatistics::series (for plots and bootstrap comparisons);
    // off by default because it is 8 bytes per pulse per series.
    bool keep_series = false;
};

// Where something happened: `pulse` indexes the span given to analyze().
// A time jump with contiguous sequence numbers is a step of any size (docs/methodology.md §4).
struct ClockStep {
    std::size_t pulse = 0;
    std::int64_t timestamp_ns = 0;  // as captured: the clock's reading after the step
    double size_ns = 0;             // later minus earlier level, drift allowed for
};

struct MissedPulseGap {
    std::size_t pulse = 0;  // the first pulse after the gap
    // As captured (any clock step before it not taken out).
    std::int64_t timestamp_ns = 0;
    std::uint64_t missed = 0;
    std::uint64_t missed_by_sequence = 0;
    std::uint64_t missed_by_time = 0;
};

struct OutlierReport {
    double center_ns = 0;     // median of the headline series
    double scale_ns = 0;      // its robust σ
    double threshold_ns = 0;  // outlier_k · scale
    std::vector<std::size_t> pulses;
};

struct Series {
    std::vector<std::size_t> pulse;   // index into the analysed span
    std::vector<std::int64_t> index;  // pulse index from the period (holes = missed pulses)
    std::vector<double> offset_ns;    // empty for monotonic clocks; clock steps removed
    std::vector<double> detrended_ns;
    std::vector<double> period_jitter_ns;
};

struct RunStatistics {
    core::ClockId clock = core::ClockId::realtime;
    core::Edge edge = core::Edge::assert_edge;
    std::int64_t period_ns = 0;
    double estimated_period_ns = 0;  // median interval: the clock's own idea of P
    // The most common interval in time order (per kernel event), checked against P before
    // anything else (0 with fewer than two pulses).
    double mode_interval_ns = 0;
    core::Cadence cadence = core::Cadence::every_edge;
    // Whether the sequence numbers were the kernel's (AnalysisOptions::kernel_sequences): only
    // then can the counts of unseen events and clock steps be judged (a gate refuses them).
    core::SequenceEvidence sequences = core::SequenceEvidence::kernel;
    // A realtime clock whose phase drifts by more than free_running_bound: not disciplined, so
    // the detrended residuals are the headline and `offset_ns` is empty, as on a monotonic one.
    bool free_running = false;
    // False when the run is too short to tell a drift of free_running_bound from its jitter
    // (under 3 pulses, or a drift threshold wider than 1 ppm): not free-running, yet not shown to
    // be disciplined either. True otherwise, and on clocks without a phase (monotonic).
    bool drift_judged = true;

    std::size_t pulses = 0;             // pulses analysed (selected edge, duplicates removed)
    std::size_t other_edge_pulses = 0;  // given but not analysed
    std::size_t duplicates = 0;         // within P/2 of the previous pulse; first one kept
    std::size_t out_of_order = 0;       // earlier than the pulse before them; sorted in

    std::uint64_t missed_pulses = 0;
    std::uint64_t missed_by_sequence = 0;
    std::uint64_t missed_by_time = 0;
    // Sequence numbers the kernel used up without a period slot to miss: glitches, contact
    // bounce or extra edges the reader never fetched. Not missed pulses.
    std::uint64_t unseen_events = 0;
    std::vector<MissedPulseGap> gaps;
    // Period slots from the first pulse to the last (the last pulse index), clock steps taken
    // out; absent when unknown (a saved summary). Every pulse and missed pulse has one.
    std::optional<std::int64_t> span_periods;
    OutlierReport outliers;
    std::vector<ClockStep> clock_steps;
    bool clock_steps_removed = false;

    std::optional<Summary> offset_ns;  // realtime only
    std::optional<Summary> offset_ns_without_outliers;
    Summary detrended_ns;
    Summary detrended_ns_without_outliers;
    PolynomialFit fit;  // of the phase against the pulse index
    Summary period_jitter_ns;
    Summary period_jitter_ns_without_outliers;
    std::size_t period_pairs_skipped_gaps = 0;
    std::size_t period_pairs_skipped_steps = 0;

    std::optional<Histogram> histogram;  // of the headline series
    std::optional<Stability> stability;  // of the phase series (s), tau0 = P
    std::optional<Series> series;        // if AnalysisOptions::keep_series

    std::vector<std::string> notes;  // things a reader should know (no I/O here: callers print)

    // The series people quote: offsets on a realtime clock, residuals on a monotonic one.
    const Summary& headline() const { return offset_ns ? *offset_ns : detrended_ns; }
    // The per-pulse values headline() summarises; null unless AnalysisOptions::keep_series.
    const std::vector<double>* headline_series() const {
        if (!series) {
            return nullptr;
        }
        return offset_ns ? &series->offset_ns : &series->detrended_ns;
    }
    const Summary& headline_without_outliers() const {
        return offset_ns_without_outliers ? *offset_ns_without_outliers
                                          : detrended_ns_without_outliers;
    }
};

// The rate error above which a realtime clock counts as free-running (1 ppm: a disciplined
// clock's average rate is well inside it; a free crystal is off by a few to 100 ppm).
inline constexpr double free_running_bound = 1e-6;

// Every statistic of one run. Pure: no I/O, deterministic, O(n) apart from selection steps.
// docs/methodology.md describes each measure and how gaps, duplicates, outliers and clock steps
// are handled. Throws core::UsageError for an impossible option (period <= 0, degree not 1/2)
// and core::InputError for a negative timestamp (the capture reader refuses those beyond
// core::max_timestamp_ns too) and for a period the bulk of the intervals contradicts (a whole
// multiple or fraction, or more than 1000 ppm off: docs/methodology.md §1), naming both.
RunStatistics analyze(std::span<const core::Pulse> pulses, const AnalysisOptions& options = {});

}  // namespace ppsbench::stats
