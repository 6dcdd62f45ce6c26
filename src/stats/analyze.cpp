#include "ppsbench/stats/analyze.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <numeric>
#include <string>

#include "ppsbench/core/error.hpp"
#include "ppsbench/stats/offsets.hpp"
#include "ppsbench/stats/period_jitter.hpp"
#include "ppsbench/stats/quantile.hpp"

namespace ppsbench::stats {

namespace {

// The pulses of one edge in time order with duplicates dropped, plus where each came from.
struct Selected {
    std::vector<std::int64_t> timestamps;
    std::vector<std::uint64_t> sequences;
    std::vector<std::size_t> source;  // empty: identity
    std::size_t other_edge = 0;
    std::size_t duplicates = 0;
    std::size_t out_of_order = 0;

    std::size_t pulse(std::size_t i) const { return source.empty() ? i : source[i]; }
};

core::Edge choose_edge(std::span<const core::Pulse> pulses, const AnalysisOptions& options) {
    if (options.edge) {
        return *options.edge;
    }
    const bool any_assert = std::any_of(pulses.begin(), pulses.end(), [](const core::Pulse& p) {
        return p.edge == core::Edge::assert_edge;
    });
    return any_assert || pulses.empty() ? core::Edge::assert_edge : core::Edge::clear_edge;
}

Selected select(std::span<const core::Pulse> pulses, core::Edge edge, std::int64_t period_ns) {
    Selected s;
    // Fast path (the usual capture: one edge, in order, no duplicates) keeps `source` empty;
    // anything else builds the index map once.
    bool identity = true;
    std::int64_t previous = 0;
    for (std::size_t i = 0; i < pulses.size(); ++i) {
        if (pulses[i].edge != edge) {
            ++s.other_edge;
            identity = false;
            continue;
        }
        if (i > 0 && identity && pulses[i].timestamp_ns - previous < period_ns / 2) {
            identity = false;  // out of order or a duplicate
        }
        previous = pulses[i].timestamp_ns;
    }
    if (!identity) {
        s.source.reserve(pulses.size() - s.other_edge);
        bool have_previous = false;
        for (std::size_t i = 0; i < pulses.size(); ++i) {
            if (pulses[i].edge != edge) {
                continue;
            }
            if (have_previous && pulses[i].timestamp_ns < previous) {
                ++s.out_of_order;
            }
            previous = pulses[i].timestamp_ns;
            have_previous = true;
            s.source.push_back(i);
        }
        if (s.out_of_order > 0) {
            std::stable_sort(s.source.begin(), s.source.end(), [&](std::size_t a, std::size_t b) {
                return pulses[a].timestamp_ns < pulses[b].timestamp_ns;
            });
        }
        // A second pulse within half a period of the one before is not another pulse of the
        // train: an exact duplicate (a replayed line) or a glitch. Keep the first.
        std::size_t kept = 0;
        for (std::size_t i = 0; i < s.source.size(); ++i) {
            if (kept > 0 &&
                pulses[s.source[i]].timestamp_ns - pulses[s.source[kept - 1]].timestamp_ns <
                    period_ns / 2) {
                ++s.duplicates;
                continue;
            }
            s.source[kept++] = s.source[i];
        }
        s.source.resize(kept);
    }
    const std::size_t n = s.source.empty() && identity ? pulses.size() : s.source.size();
    s.timestamps.resize(n);
    s.sequences.resize(n);
    for (std::size_t i = 0; i < n; ++i) {
        const core::Pulse& p = pulses[s.pulse(i)];
        s.timestamps[i] = p.timestamp_ns;
        s.sequences[i] = p.sequence;
    }
    return s;
}

// Phase offsets in the period-long window centred on the run's median offset, so that a
// source sitting near ±P/2 is not torn in two (plain offsets would jump by P between samples).
// For a source anywhere near the top of the period this equals t − P·round(t/P).
std::vector<double> centred_offsets(std::span<const std::int64_t> t, std::int64_t period_ns) {
    std::vector<double> offsets(t.size());
    if (t.empty()) {
        return offsets;
    }
    auto around = [period_ns](std::int64_t timestamp, std::int64_t centre) {
        return centre + phase_offset_ns(timestamp - centre, period_ns);
    };
    // First centre on the first pulse, then on the median of those offsets: robust unless the
    // first pulse is itself half a period away from all the others.
    const std::int64_t first = phase_offset_ns(t[0], period_ns);
    for (std::size_t i = 0; i < t.size(); ++i) {
        offsets[i] = static_cast<double>(around(t[i], first));
    }
    std::vector<double> scratch = even_sample(offsets);
    const auto centre = static_cast<std::int64_t>(std::llround(median_in_place(scratch)));
    const std::int64_t plain_centre = phase_offset_ns(centre, period_ns);
    for (std::size_t i = 0; i < t.size(); ++i) {
        offsets[i] = static_cast<double>(around(t[i], plain_centre));
    }
    return offsets;
}

// Phase of a free-running clock against the nominal grid: t_i − t_0 − k_i·P, exact in int64.
std::vector<double> grid_phase(std::span<const std::int64_t> t, std::span<const std::int64_t> k,
                               std::int64_t period_ns) {
    std::vector<double> phase(t.size());
    for (std::size_t i = 0; i < t.size(); ++i) {
        phase[i] = static_cast<double>(t[i] - t[0] - k[i] * period_ns);
    }
    return phase;
}

std::vector<double> without(std::span<const double> values, std::span<const std::size_t> drop) {
    std::vector<double> kept;
    kept.reserve(values.size() - std::min(values.size(), drop.size()));
    std::size_t next = 0;
    for (std::size_t i = 0; i < values.size(); ++i) {
        if (next < drop.size() && drop[next] == i) {
            ++next;
            continue;
        }
        kept.push_back(values[i]);
    }
    return kept;
}

std::string format_ppm(double ratio) {
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, "%+.3f ppm", ratio * 1e6);
    return buffer;
}

}  // namespace

RunStatistics analyze(std::span<const core::Pulse> pulses, const AnalysisOptions& options) {
    if (options.period_ns <= 0) {
        throw core::UsageError("the period must be positive, not " +
                               std::to_string(options.period_ns) + " ns");
    }
    if (options.detrend_degree != 1 && options.detrend_degree != 2) {
        throw core::UsageError("detrend degree must be 1 or 2, not " +
                               std::to_string(options.detrend_degree));
    }
    RunStatistics r;
    r.clock = options.clock;
    r.period_ns = options.period_ns;
    r.edge = choose_edge(pulses, options);

    Selected sel = select(pulses, r.edge, options.period_ns);
    const std::vector<std::int64_t>& t = sel.timestamps;
    const std::size_t n = t.size();
    r.pulses = n;
    r.other_edge_pulses = sel.other_edge;
    r.duplicates = sel.duplicates;
    r.out_of_order = sel.out_of_order;

    // Count pulses with the clock's own period, so a free-running clock's ppm error does not
    // turn into phantom missed pulses over a long run.
    r.estimated_period_ns = estimate_period_ns(t, options.period_ns);
    const double rate_error = r.estimated_period_ns / static_cast<double>(options.period_ns) - 1;
    if (options.clock == core::ClockId::realtime && std::abs(rate_error) > 1e-4) {
        r.notes.push_back("the median pulse interval differs from the period by " +
                          format_ppm(rate_error) + ": is --period right?");
    }
    std::vector<std::int64_t> k = pulse_indices(t, r.estimated_period_ns);

    const MissedPulses missed =
        find_missed_pulses(t, sel.sequences, r.estimated_period_ns, options.period_ns);
    sel.sequences = {};
    r.missed_pulses = missed.total;
    r.missed_by_sequence = missed.by_sequence;
    r.missed_by_time = missed.by_time;
    for (const Gap& g : missed.gaps) {
        r.gaps.push_back(
            {sel.pulse(g.index), t[g.index], g.missed, g.missed_by_sequence, g.missed_by_time});
    }

    // The phase series everything else is computed from.
    const bool realtime = options.clock == core::ClockId::realtime;
    std::vector<double> phase =
        realtime ? centred_offsets(t, options.period_ns) : grid_phase(t, k, options.period_ns);

    const std::vector<Step> steps = find_steps(phase, options.step_k);
    std::vector<std::size_t> step_positions;
    for (const Step& s : steps) {
        r.clock_steps.push_back({sel.pulse(s.index), t[s.index], s.size_ns});
        step_positions.push_back(s.index);
    }
    if (options.remove_clock_steps && !steps.empty()) {
        remove_steps(phase, steps);
        r.clock_steps_removed = true;
    }

    if (realtime) {
        r.offset_ns = summarize(phase);
    }
    Detrended detrended = n > 0 ? detrend(k, phase, options.detrend_degree) : Detrended{};
    r.fit = detrended.fit;
    std::vector<double>& residuals = detrended.residuals_ns;
    const std::vector<double>& headline_series = realtime ? phase : residuals;

    if (!realtime) {
        r.detrended_ns = summarize(residuals);
    }
    const Summary& head = realtime ? *r.offset_ns : r.detrended_ns;
    const Outliers outliers =
        find_outliers(headline_series, options.outlier_k, head.median, head.robust_stddev);
    r.outliers.center_ns = outliers.center;
    r.outliers.scale_ns = outliers.scale;
    r.outliers.threshold_ns = outliers.threshold;
    for (std::size_t i : outliers.indices) {
        r.outliers.pulses.push_back(sel.pulse(i));
    }
    if (options.compute_histogram) {
        r.histogram = make_histogram(headline_series, options.histogram);
    }
    const bool any_outliers = !outliers.indices.empty();
    if (realtime && any_outliers) {
        auto kept = without(phase, outliers.indices);
        r.offset_ns_without_outliers = summarize_in_place(kept);
    } else if (realtime) {
        r.offset_ns_without_outliers = r.offset_ns;
    }

    Series series;
    if (options.keep_series) {
        series.pulse.resize(n);
        for (std::size_t i = 0; i < n; ++i) {
            series.pulse[i] = sel.pulse(i);
        }
        series.detrended_ns = residuals;
        if (realtime) {
            series.offset_ns = phase;
        }
    }
    if (any_outliers) {
        auto kept = without(residuals, outliers.indices);
        r.detrended_ns_without_outliers = summarize_in_place(kept);
    }
    if (realtime) {
        r.detrended_ns = summarize_in_place(residuals);  // last use: reorder in place
    }
    if (!any_outliers) {
        r.detrended_ns_without_outliers = r.detrended_ns;
    }
    residuals = {};

    PeriodJitter jitter = period_jitter(t, k, options.period_ns, step_positions);
    r.period_pairs_skipped_gaps = jitter.skipped_gaps;
    r.period_pairs_skipped_steps = jitter.skipped_excluded;
    if (options.keep_series) {
        series.period_jitter_ns = jitter.values_ns;
    }
    r.period_jitter_ns = summarize_in_place(jitter.values_ns);
    if (any_outliers) {
        PeriodJitter clean =
            period_jitter(t, k, options.period_ns, step_positions, outliers.indices);
        r.period_jitter_ns_without_outliers = summarize_in_place(clean.values_ns);
    } else {
        r.period_jitter_ns_without_outliers = r.period_jitter_ns;
    }
    jitter = {};
    sel.timestamps = {};

    if (options.compute_stability && n > 0) {
        // Phase on the full pulse grid, in seconds; a missed pulse is a NaN hole that the
        // Allan-family estimators skip (stability.hpp).
        const std::size_t length = static_cast<std::size_t>(k.back()) + 1;
        std::vector<double> grid(length, std::numeric_limits<double>::quiet_NaN());
        for (std::size_t i = 0; i < n; ++i) {
            grid[static_cast<std::size_t>(k[i])] = phase[i] * 1e-9;
        }
        if (!options.keep_series) {
            phase = {};
            k = {};
        }
        r.stability = compute_stability(grid, static_cast<double>(options.period_ns) * 1e-9);
    }
    if (options.keep_series) {
        series.index = std::move(k);
        r.series = std::move(series);
    }
    return r;
}

}  // namespace ppsbench::stats
