// SPDX-License-Identifier: GPL-2.0-or-later
#include "ppsbench/stats/analyze.hpp"
#include "ppsbench/stats/analyze_packed.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <future>
#include <optional>
#include <string>
#include <utility>

#include "detrend_detail.hpp"
#include "drift.hpp"
#include "numbered_steps.hpp"
#include "period_check.hpp"
#include "phase.hpp"
#include "ppsbench/core/duration.hpp"
#include "ppsbench/core/error.hpp"
#include "ppsbench/stats/quantile.hpp"
#include "selection.hpp"
#include "summaries.hpp"
#include "train_detail.hpp"
#include "whole_kernels.hpp"

// analyze() runs the stages of one run's statistics in order, each in its own file, and passes
// each stage's result on explicitly:
//   rhythm        (unusual_intervals.cpp) the few intervals not one period with the next
//                 sequence number: the stages up to the phase walk the stretches between them
//   period check  (period_check.cpp)   the mode of the intervals against P: refused if wrong
//   selection     (selection.cpp)      which pulses: one edge, time order, no duplicates
//   timeline      (train_detail.hpp)   the clock's own period, pulse index, missed pulses
//   phase         (phase.cpp)          the phase series and the rule that recomputes it
//   drift         (drift.cpp)          a realtime clock running free: residuals as headline
//   clock steps   (events.cpp)         found in the phase, removed from it
//   summaries     (summaries.cpp)      headline summary, outliers, histogram; detrended
//                 (detrend_detail.hpp)   residuals; every series without its outliers
//   period jitter (period_jitter.cpp)  from the timestamps, on a second thread
//   stability     (phase_buffer.cpp, phase_grid.cpp, stability.cpp)  Allan family on the
//                 phase grid: beside the summaries on another thread where the phase buffer
//                 holds the grid's values, else after them
//
// Memory: besides the caller's pulses, the phase buffer (phase_buffer.hpp: 4 bytes a pulse in
// whole nanoseconds, the usual case, else 8), read in place by every stage up to the
// summaries; spread onto the stability grid in place where it holds the grid's values, else
// freed before the grid (4 bytes a period slot, or 8) is made. The pulse index as runs, the
// unusual intervals as a list (at most one in 16 pulses, else none), and no copy per summary
// (order_statistics.hpp reads each series in place). At 10 M pulses that is 40 MB plus MTIE's
// block buffers, beside 80 MB of packed timestamps.

namespace ppsbench::stats {

namespace {

void check(const AnalysisOptions& options) {
    if (options.period_ns <= 0) {
        throw core::UsageError("the period must be positive, not " +
                               std::to_string(options.period_ns) + " ns");
    }
    if (options.detrend_degree != 1 && options.detrend_degree != 2) {
        throw core::UsageError("detrend degree must be 1 or 2, not " +
                               std::to_string(options.detrend_degree));
    }
}

std::string format_ppm(double ratio) {
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, "%+.3f ppm", ratio * 1e6);
    return buffer;
}

// The period check, then the selection. A capture of the one edge analysed (the usual one) is
// scanned once for where it leaves its rhythm, and both read only those pulses; the scan's list
// goes when they are done (the selection keeps its own).
detail::Selection check_and_select(RunStatistics& r, const core::PackedPulses& pulses,
                                   const AnalysisOptions& options) {
    std::optional<detail::UnusualIntervals> file_order;
    if (pulses.one_edge() && !pulses.empty() && pulses.edge(0) == r.edge) {
        file_order = detail::scan_file_order(pulses, options.period_ns, options.kernel_sequences);
    }
    const detail::UnusualIntervals* listed =
        file_order && file_order->listed ? &*file_order : nullptr;
    r.mode_interval_ns = detail::check_period(pulses, r.edge, options, listed).mode_ns;
    return detail::select_pulses(
        pulses, r.edge, options.period_ns,
        core::counts_true_seconds(options.clock) && options.kernel_sequences,
        options.kernel_sequences, listed);
}

void record_selection(RunStatistics& r, const detail::Selection& selection) {
    r.pulses = selection.size;
    r.other_edge_pulses = selection.other_edge;
    r.duplicates = selection.duplicates;
    r.out_of_order = selection.out_of_order;
}

void record_missed(RunStatistics& r, const detail::Selection& selection,
                   const detail::MissedPulses& missed) {
    r.missed_pulses = missed.total;
    r.missed_by_sequence = missed.by_sequence;
    r.missed_by_time = missed.by_time;
    r.unseen_events = missed.unseen;
    if (missed.unseen > 0) {
        r.notes.push_back(std::to_string(missed.unseen) +
                          " sequence numbers skipped without an empty period slot: kernel events "
                          "never read (glitches, contact bounce), not missed pulses");
    }
    for (const detail::Gap& g : missed.gaps) {
        const std::size_t pulse = selection.pulse(g.index);
        r.gaps.push_back({pulse, selection.pulses->timestamp_ns(pulse), g.missed,
                          g.missed_by_sequence, g.missed_by_time});
    }
}

// Timeline: count pulses with the clock's own period, so a free-running clock's ppm error does
// not turn into phantom missed pulses over a long run; then the pulse index and the gaps in it.
// Sampled pulses (one per poll) have gaps by design: none of them is a missed pulse.
detail::PulseIndex count_pulses(RunStatistics& r, const detail::Selection& selection,
                                const AnalysisOptions& options) {
    const std::size_t n = selection.size;
    detail::PulseIndex index;
    detail::with_timestamps(selection, [&](const auto& t) {
        r.estimated_period_ns = detail::estimate_period(t, n, options.period_ns);
        index = detail::PulseIndex(t, n, r.estimated_period_ns, selection.unusual);
        if (options.cadence == core::Cadence::sampled) {
            return;
        }
        record_missed(
            r, selection,
            detail::find_missed(t, detail::SequenceColumn{selection}, n, options.kernel_sequences,
                                r.estimated_period_ns, options.period_ns,
                                core::counts_true_seconds(options.clock), selection.unusual));
    });
    if (options.cadence == core::Cadence::sampled && n > 1) {
        r.notes.push_back("sampled cadence (one sample per poll, most often " +
                          core::format_duration_option(core::Duration(
                              static_cast<std::int64_t>(std::llround(r.mode_interval_ns)))) +
                          " apart): the periods between samples are not missed pulses");
    }
    return index;
}

// A realtime clock that drifts is not disciplined (or the period is a little off): its offsets
// from the top of the period grow without bound, so the residuals become the headline. Judged on
// every run of 3 pulses or more (drift.hpp); where the run is too short to tell a drift of
// free_running_bound from its jitter, the note and `drift_judged` say so rather than let a ramp
// pass for jitter unremarked.
void check_free_running(RunStatistics& r, const detail::PhaseBuffer& phase,
                        const detail::PulseIndex& index, const AnalysisOptions& options) {
    if (!core::counts_true_seconds(options.clock) || phase.empty()) {
        return;
    }
    const std::size_t n = phase.size();
    if (n < detail::fewest_to_judge) {
        r.drift_judged = false;
        r.notes.push_back("drift not judged: " + std::to_string(n) +
                          (n == 1 ? " pulse" : " pulses") +
                          " always lie on a line, so whether the clock runs free is not known "
                          "(it takes 3 pulses at least)");
        return;
    }
    // Under the bound, yet drifting a quarter period over the run (0.5 ppm for six days) would
    // carry the offsets out of their window as well.
    const double span = static_cast<double>(index.back());
    // The usual run settles this from the extremes of its quarters, without their medians.
    const bool settled = phase.visit([&](auto phase_ns) {
        return detail::drift_at_most(phase_ns, index, options.period_ns,
                                     std::min(free_running_bound, 0.125 / span));
    });
    if (settled) {
        return;
    }
    const auto judged = phase.visit(
        [&](auto phase_ns) { return detail::judge_drift(phase_ns, index, options.period_ns); });
    const double drift =
        judged.judged && std::abs(judged.slope) > judged.smallest_detectable ? judged.slope : 0;
    if (std::abs(drift) <= free_running_bound && std::abs(drift) * span < 0.25) {
        if (!judged.judged) {
            r.drift_judged = false;
            r.notes.push_back(
                "drift not judged: the pulses span no period between their first "
                "and last quarters");
        } else if (judged.smallest_detectable > free_running_bound) {
            r.drift_judged = false;
            char bound[64];
            std::snprintf(bound, sizeof bound, "%.3f ppm", judged.smallest_detectable * 1e6);
            r.notes.push_back("drift not judged below " + std::string(bound) + ": on " +
                              std::to_string(n) +
                              " pulses a slower drift is lost in the jitter, so the "
                              "offsets may still hold a ramp (a longer run settles it)");
        }
        return;
    }
    r.free_running = true;
    r.notes.push_back("the phase drifts by " + format_ppm(drift) +
                      ": the clock runs free (or the period is slightly off), so the headline is "
                      "the detrended residuals, as on a monotonic clock; offsets are left out");
}

struct ClockSteps {
    std::vector<Step> found;
    std::vector<std::size_t> positions;  // selected-pulse index of each
    bool removed = false;

    // What a phase recomputed from the timestamps must subtract to match the phase series.
    std::span<const Step> removed_steps() const {
        return removed ? std::span<const Step>(found) : std::span<const Step>{};
    }
};

// Where the selection's time jumps sit among the selected pulses, with their sizes.
std::vector<std::pair<std::size_t, std::int64_t>> known_jumps(const detail::Selection& selection) {
    std::vector<std::pair<std::size_t, std::int64_t>> known;
    if (selection.jump_at.empty()) {
        return known;
    }
    for (std::size_t i = 0; i < selection.size; ++i) {
        const std::size_t p = selection.pulse(i);
        const auto at = std::lower_bound(selection.jump_at.begin(), selection.jump_at.end(), p);
        if (at != selection.jump_at.end() && *at == p) {
            known.emplace_back(
                i, selection.jump_ns[static_cast<std::size_t>(at - selection.jump_at.begin())]);
        }
    }
    std::sort(known.begin(), known.end());
    return known;
}

// Clock steps: the time jumps the sequence numbers prove (already out of the timestamps; the
// phase shows what is left of them) and the steps found in the phase; removed by default.
ClockSteps clock_steps(RunStatistics& r, const detail::Selection& selection,
                       detail::PhaseBuffer& phase, const detail::PulseIndex& index,
                       const AnalysisOptions& options) {
    ClockSteps steps;
    const auto jumps = known_jumps(selection);
    std::vector<std::size_t> known;
    for (const auto& [i, size] : jumps) {
        known.push_back(i);
    }
    steps.found = phase.visit([&](auto phase_ns) {
        return detail::find_numbered_steps(phase_ns, options.step_k, known, index);
    });
    std::size_t next_jump = 0;
    for (const Step& s : steps.found) {
        double size = s.size_ns;
        while (next_jump < jumps.size() && jumps[next_jump].first < s.index) {
            ++next_jump;
        }
        if (next_jump < jumps.size() && jumps[next_jump].first == s.index) {
            size += static_cast<double>(jumps[next_jump].second);
        }
        const std::size_t pulse = selection.pulse(s.index);
        r.clock_steps.push_back({pulse, selection.pulses->timestamp_ns(pulse), size});
        steps.positions.push_back(s.index);
    }
    if (options.remove_clock_steps && !steps.found.empty()) {
        remove_steps(phase.make_fractional(), steps.found);
        steps.removed = true;
    }
    r.clock_steps_removed = steps.removed;
    return steps;
}

// Why the stability figures are left out. ADEV, MDEV, TDEV and MTIE are defined on one phase
// sample per period (tau0 = P): a sampled log (ntpd's peerstats, one filtered sample per poll)
// holds one in every poll/P slots by design, which is neither a clock step nor a gap.
std::string stability_left_out(std::size_t grid_length, std::size_t pulses, core::Cadence cadence) {
    const std::string counts = "the pulses span " + std::to_string(grid_length) +
                               " periods but there are only " + std::to_string(pulses);
    if (cadence == core::Cadence::sampled) {
        return counts +
               " samples: stability figures (ADEV, MDEV, TDEV, MTIE) need one sample per "
               "period and a sampled log holds one per poll, so they are left out (the offset "
               "figures are not affected)";
    }
    return counts + " pulses (a clock step or a huge gap): stability figures left out";
}

}  // namespace

RunStatistics analyze(std::span<const core::Pulse> pulses, const AnalysisOptions& options) {
    return analyze_packed(core::PackedPulses(pulses), options);
}

RunStatistics analyze_packed(const core::PackedPulses& pulses, const AnalysisOptions& options) {
    check(options);
    RunStatistics r;
    r.clock = options.clock;
    r.period_ns = options.period_ns;
    r.cadence = options.cadence;
    r.sequences = options.kernel_sequences ? core::SequenceEvidence::kernel
                                           : core::SequenceEvidence::synthetic;
    r.edge = detail::choose_edge(pulses, options.edge);
    const detail::Selection selection = check_and_select(r, pulses, options);
    record_selection(r, selection);
    const std::size_t n = selection.size;
    const detail::PulseIndex index = count_pulses(r, selection, options);
    if (n > 0) {
        r.span_periods = index.back();
    }

    const std::size_t grid_length = n > 0 ? static_cast<std::size_t>(index.back()) + 1 : 0;
    // The stability grid has a slot per period from the first pulse to the last: a clock step
    // of a year in a 100-pulse capture would need 31 M slots (a timestamp of 2^63 − 1, 74 GB).
    // A grid of more than 4 slots per pulse is mostly holes, and Allan deviations over it say
    // nothing: leave them out, with a note, so memory stays proportional to the pulses.
    const bool grid_fits = grid_length <= 4 * n + 1024;
    const bool stability = options.compute_stability && grid_fits;
    if (options.compute_stability && !grid_fits) {
        r.notes.push_back(stability_left_out(grid_length, n, options.cadence));
    }
    detail::PhaseSeries phase =
        detail::phase_series(selection, index, options.clock, options.period_ns, 0);
    const ClockSteps steps = clock_steps(r, selection, phase.values_ns, index, options);
    // The drift is measured on the unwrapped phase: folded first, a clock (or a --period) some
    // 100 ppm off over a long run wraps through whole periods, a sawtooth whose quarter medians
    // hide the drift (--period 1.0009s on 3000 pulses gave σ 295 ms and no note). A free-running
    // run's headline is its residuals, which need that unwrapped phase too.
    check_free_running(r, phase.values_ns, index, options);
    if (phase.rule.realtime && !steps.removed && !r.free_running) {
        detail::fold_into_window(phase.values_ns, phase.rule.centre, options.period_ns);
    }

    Series series;
    if (options.keep_series) {
        series.pulse.resize(n);
        for (std::size_t i = 0; i < n; ++i) {
            series.pulse[i] = selection.pulse(i);
        }
    }
    const double tau0_s = static_cast<double>(options.period_ns) * 1e-9;
    // Stability beside the summaries where the phase buffer holds the grid's values (whole, no
    // step removed, nothing folded): spread onto the grid in place, the summaries read it there
    // while the Allan family runs on a second thread, with no buffer of its own. It would
    // otherwise wait for the summaries, the most of a second core idle (period jitter is done
    // first): 0.1 s of 0.55 at 10 M pulses.
    std::future<Stability> beside;
    if (stability && n > 0 && !steps.removed && phase.values_ns.spread_onto_grid(index)) {
        beside = std::async(std::launch::async, [&phase, tau0_s] {
            return detail::whole_grid_stability(phase.values_ns.grid_ns(),
                                                phase.values_ns.reference_ns(), tau0_s,
                                                StabilityThreads::one);
        });
    }
    detail::summarize_run(r, series, selection, index, phase.values_ns, steps.positions, options);

    // Otherwise stability on its own phase grid (whole nanoseconds where exact), recomputed from
    // the timestamps with the same steps removed; the phase buffer goes first, so the two are
    // not held at once.
    if (beside.valid()) {
        r.stability = beside.get();
    } else if (stability && n > 0) {
        phase.values_ns.release();
        r.stability = compute_stability(
            detail::phase_grid(phase.rule, selection, index, steps.removed_steps()), tau0_s);
    }
    if (options.keep_series) {
        series.index = index.dense();
        r.series = std::move(series);
    }
    return r;
}

}  // namespace ppsbench::stats
