#include "ppsbench/stats/analyze.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <future>
#include <limits>
#include <numeric>
#include <string>

#include "detrend_detail.hpp"
#include "histogram_detail.hpp"
#include "order_statistics.hpp"
#include "ppsbench/core/error.hpp"
#include "ppsbench/stats/offsets.hpp"
#include "ppsbench/stats/period_jitter.hpp"
#include "ppsbench/stats/quantile.hpp"
#include "train_detail.hpp"

namespace ppsbench::stats {

namespace {

// The pulses of one edge in time order with duplicates dropped, plus where each came from. The
// pulses are read from the caller's Pulse array, directly in the usual capture (one edge, in
// order, no duplicates), else through an index: copying timestamps and sequence numbers out
// would cost 160 MB at 10 M pulses.
struct Selected {
    std::span<const core::Pulse> pulses;
    std::vector<std::size_t> source;  // unless `identity`: index into `pulses`
    bool identity = true;
    std::size_t size = 0;
    std::size_t other_edge = 0;
    std::size_t duplicates = 0;
    std::size_t out_of_order = 0;

    std::size_t pulse(std::size_t i) const { return identity ? i : source[i]; }
};

struct TimestampColumn {
    const Selected& s;
    std::int64_t operator[](std::size_t i) const { return s.pulses[s.pulse(i)].timestamp_ns; }
};

struct SequenceColumn {
    const Selected& s;
    std::uint64_t operator[](std::size_t i) const { return s.pulses[s.pulse(i)].sequence; }
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
    s.pulses = pulses;
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
    s.identity = identity;
    if (identity) {
        s.size = pulses.size();
        return s;
    }
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
        if (kept > 0 && pulses[s.source[i]].timestamp_ns - pulses[s.source[kept - 1]].timestamp_ns <
                            period_ns / 2) {
            ++s.duplicates;
            continue;
        }
        s.source[kept++] = s.source[i];
    }
    s.source.resize(kept);
    s.size = kept;
    return s;
}

struct JitterResult {
    Summary all;
    Summary without_outliers;
    detail::JitterCounts counts;
    std::vector<double> values;  // if keep_series
};

// Calls f(value) for every value of `values` except those at the (sorted) positions `drop`.
auto without(std::span<const double> values, std::span<const std::size_t> drop) {
    return [values, drop](auto&& f) {
        std::size_t next = 0;
        for (std::size_t i = 0; i < values.size(); ++i) {
            if (next < drop.size() && drop[next] == i) {
                ++next;
                continue;
            }
            f(values[i]);
        }
    };
}

auto all_of(std::span<const double> values) {
    return [values](auto&& f) {
        for (double v : values) {
            f(v);
        }
    };
}

// phase_offset_ns(t − c, P) for timestamps that arrive about a period apart, without the
// 64-bit division per pulse (tens of cycles; three passes over millions of pulses): the floor
// remainder of t − c is carried from the previous timestamp and corrected by whole periods. A
// jump of more than a few periods (a gap, the first pulse) takes the division. Same integers,
// so the same offsets to the bit.
class PhaseFolder {
  public:
    PhaseFolder(std::int64_t centre, std::int64_t period_ns)
        : c_(centre),
          p_(period_ns),
          near_(period_ns <= std::numeric_limits<std::int64_t>::max() / 8 ? 4 * period_ns : 0) {}

    [[gnu::always_inline]] std::int64_t operator()(std::int64_t timestamp) {
        std::int64_t d = 0;
        std::int64_t r = 0;
        if (have_ && !__builtin_sub_overflow(timestamp, last_, &d) && d > -near_ && d < near_) {
            r = r_ + d;  // |r| < 5P: no overflow (near_ is 0 for a huge period)
            while (r >= p_) {
                r -= p_;
            }
            while (r < 0) {
                r += p_;
            }
        } else {
            r = (timestamp - c_) % p_;
            if (r < 0) {
                r += p_;
            }
        }
        have_ = true;
        last_ = timestamp;
        r_ = r;
        // As phase_offset_ns: ties (exactly half a period) go positive.
        if (r > p_ / 2 || (r == p_ / 2 && p_ % 2 != 0)) {
            r -= p_;
        }
        return c_ + r;
    }

  private:
    std::int64_t c_;
    std::int64_t p_;
    std::int64_t near_;  // |t − last| below this takes the carry
    std::int64_t last_ = 0;
    std::int64_t r_ = 0;  // floor remainder of last_ − c_, in [0, P)
    bool have_ = false;
};

std::string format_ppm(double ratio) {
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, "%+.3f ppm", ratio * 1e6);
    return buffer;
}

}  // namespace

// Memory: besides the caller's pulses, analyze() keeps one buffer of 8 bytes per pulse (the
// phase, then the residuals, then the stability grid), the pulse index as runs, and no copy
// per summary (order_statistics.hpp reads each series in place). At 10 M pulses that is 80 MB
// plus MTIE's block buffers, against 240 MB for the Pulse array itself.
RunStatistics analyze(std::span<const core::Pulse> pulses, const AnalysisOptions& options) {
    if (options.period_ns <= 0) {
        throw core::UsageError("the period must be positive, not " +
                               std::to_string(options.period_ns) + " ns");
    }
    if (options.detrend_degree != 1 && options.detrend_degree != 2) {
        throw core::UsageError("detrend degree must be 1 or 2, not " +
                               std::to_string(options.detrend_degree));
    }
    const std::int64_t period_ns = options.period_ns;
    RunStatistics r;
    r.clock = options.clock;
    r.period_ns = period_ns;
    r.edge = choose_edge(pulses, options);

    Selected sel = select(pulses, r.edge, period_ns);
    const TimestampColumn t{sel};
    const std::size_t n = sel.size;
    r.pulses = n;
    r.other_edge_pulses = sel.other_edge;
    r.duplicates = sel.duplicates;
    r.out_of_order = sel.out_of_order;

    // Count pulses with the clock's own period, so a free-running clock's ppm error does not
    // turn into phantom missed pulses over a long run.
    r.estimated_period_ns = detail::estimate_period(t, n, period_ns);
    const double rate_error = r.estimated_period_ns / static_cast<double>(period_ns) - 1;
    if (options.clock == core::ClockId::realtime && std::abs(rate_error) > 1e-4) {
        r.notes.push_back("the median pulse interval differs from the period by " +
                          format_ppm(rate_error) + ": is --period right?");
    }
    const detail::PulseIndex k(t, n, r.estimated_period_ns);

    const MissedPulses missed =
        detail::find_missed(t, SequenceColumn{sel}, n, true, r.estimated_period_ns, period_ns);
    r.missed_pulses = missed.total;
    r.missed_by_sequence = missed.by_sequence;
    r.missed_by_time = missed.by_time;
    for (const Gap& g : missed.gaps) {
        r.gaps.push_back(
            {sel.pulse(g.index), t[g.index], g.missed, g.missed_by_sequence, g.missed_by_time});
    }

    // The phase series everything else is computed from. On a realtime clock: phase offsets
    // in the period-long window centred on the run's median offset, so that a source sitting
    // near ±P/2 is not torn in two (plain offsets would jump by P between samples); for a
    // source anywhere near the top of the period this equals t − P·round(t/P). On a
    // free-running clock: t_i − t_0 − k_i·P against the nominal grid, exact in int64.
    const bool realtime = options.clock == core::ClockId::realtime;
    const std::size_t length = n > 0 ? static_cast<std::size_t>(k.back()) + 1 : 0;
    std::vector<double> work;  // the one per-pulse buffer
    work.reserve(std::max(n, options.compute_stability ? length : 0));
    work.resize(n);
    std::int64_t centre = 0;
    if (realtime && n > 0) {
        // First centre on the first pulse, then on the median of those offsets: robust unless
        // the first pulse is itself half a period away from all the others.
        const std::int64_t first = phase_offset_ns(t[0], period_ns);
        PhaseFolder around(first, period_ns);
        for (std::size_t i = 0; i < n; ++i) {
            work[i] = static_cast<double>(around(t[i]));
        }
        std::vector<double> scratch = even_sample(work);
        const auto median = static_cast<std::int64_t>(std::llround(median_in_place(scratch)));
        centre = phase_offset_ns(median, period_ns);
    }
    std::vector<Step> steps;
    // f(i, k_i, phase_i), steps removed once they are known: the phase is recomputed from the
    // timestamps when it is needed again rather than kept in a second buffer.
    auto for_each_phase = [&](auto&& f) {
        const std::int64_t t0 = n > 0 ? t[0] : 0;
        const bool shifted = r.clock_steps_removed;
        double shift = 0;
        std::size_t next = 0;
        PhaseFolder around(centre, period_ns);
        k.for_each([&](std::size_t i, std::int64_t ki) {
            double v = realtime ? static_cast<double>(around(t[i]))
                                : static_cast<double>(t[i] - t0 - ki * period_ns);
            if (shifted) {
                while (next < steps.size() && steps[next].index == i) {
                    shift += steps[next].size_ns;
                    ++next;
                }
                v -= shift;
            }
            f(i, ki, v);
        });
    };
    for_each_phase([&](std::size_t i, std::int64_t, double v) { work[i] = v; });

    steps = find_steps(work, options.step_k);
    std::vector<std::size_t> step_positions;
    for (const Step& s : steps) {
        r.clock_steps.push_back({sel.pulse(s.index), t[s.index], s.size_ns});
        step_positions.push_back(s.index);
    }
    if (options.remove_clock_steps && !steps.empty()) {
        remove_steps(work, steps);
        r.clock_steps_removed = true;
    }

    Series series;
    if (options.keep_series) {
        series.pulse.resize(n);
        for (std::size_t i = 0; i < n; ++i) {
            series.pulse[i] = sel.pulse(i);
        }
    }

    // The headline series (offsets on a realtime clock, residuals otherwise) also yields the
    // outlier rule's centre and scale, the histogram's quantiles and its counts.
    const std::span<const double> hist_qs =
        options.compute_histogram ? std::span<const double>(detail::histogram_quantiles)
                                  : std::span<const double>{};
    Outliers outliers;
    auto headline = [&](const std::vector<double>& values) {
        auto s = detail::summarize_buffer(values, hist_qs);
        outliers =
            find_outliers(values, options.outlier_k, s.summary.median, s.summary.robust_stddev);
        r.outliers.center_ns = outliers.center;
        r.outliers.scale_ns = outliers.scale;
        r.outliers.threshold_ns = outliers.threshold;
        for (std::size_t i : outliers.indices) {
            r.outliers.pulses.push_back(sel.pulse(i));
        }
        if (options.compute_histogram) {
            r.histogram = detail::histogram_from_quantiles(s.extra, values.size(), s.summary.stddev,
                                                           all_of(values), options.histogram);
        }
        return s.summary;
    };
    auto without_outliers = [&](const std::vector<double>& values, const Summary& all) {
        if (outliers.indices.empty()) {
            return all;
        }
        const std::size_t kept = values.size() - outliers.indices.size();
        if (kept <= detail::sample_size) {
            return detail::summarize_series(without(values, outliers.indices), kept).summary;
        }
        // The full series' sample brackets the kept values' ranks just as well.
        return detail::summarize_series(without(values, outliers.indices), kept,
                                        detail::strided_sample(values), false)
            .summary;
    };

    // Period jitter straight from the timestamps: a pass to count and sample, then the
    // summary's passes. It needs only the timestamps, the index, the steps and the outliers,
    // so it runs on a second thread while this one works through the phase buffer.
    auto run_jitter = [&]() {
        auto visit = [&](std::span<const std::size_t> excluded) {
            return [&, excluded](auto&& f) {
                detail::for_each_period_jitter(t, n, k, period_ns, step_positions, excluded, f);
            };
        };
        auto summary = [&](std::span<const std::size_t> excluded, detail::JitterCounts& counts) {
            detail::SampleCollector sample;
            counts = detail::for_each_period_jitter(t, n, k, period_ns, step_positions, excluded,
                                                    [&sample](double v) { sample.add(v); });
            const bool whole = sample.whole();
            return detail::summarize_series(visit(excluded), counts.values, sample.take(), whole)
                .summary;
        };
        JitterResult result;
        result.all = summary({}, result.counts);
        if (options.keep_series) {
            result.values.reserve(result.counts.values);
            visit({})([&](double v) { result.values.push_back(v); });
        }
        if (!outliers.indices.empty()) {
            detail::JitterCounts clean;
            result.without_outliers = summary(outliers.indices, clean);
        } else {
            result.without_outliers = result.all;
        }
        return result;
    };
    std::future<JitterResult> jitter_future;
    auto start_jitter = [&] { jitter_future = std::async(std::launch::async, run_jitter); };

    if (realtime) {
        r.offset_ns = headline(work);
        start_jitter();
        r.offset_ns_without_outliers = without_outliers(work, *r.offset_ns);
        if (options.keep_series) {
            series.offset_ns = work;
        }
    }

    // Detrend: fit the phase against the pulse index, then turn the buffer into residuals.
    if (n > 0) {
        r.fit = detail::begin_fit(options.detrend_degree, k.min(), k.max());
        if (n <= static_cast<std::size_t>(options.detrend_degree)) {
            // Fewer points than coefficients: the fit passes through every point.
            r.fit.coefficients[0] = work[0];
            std::fill(work.begin(), work.end(), 0.0);
        } else {
            detail::solve(r.fit, detail::accumulate(r.fit, n, [&](auto&& f) {
                              k.for_each([&](std::size_t i, std::int64_t ki) { f(ki, work[i]); });
                          }));
            const detail::Model model(r.fit);
            k.for_each([&](std::size_t i, std::int64_t ki) { work[i] -= model(ki); });
        }
    }
    if (options.keep_series) {
        series.detrended_ns = work;
    }
    if (realtime) {
        r.detrended_ns = detail::summarize_buffer(work).summary;
    } else {
        r.detrended_ns = headline(work);
        start_jitter();
    }
    r.detrended_ns_without_outliers = without_outliers(work, r.detrended_ns);

    JitterResult jitter = jitter_future.valid() ? jitter_future.get() : run_jitter();
    r.period_jitter_ns = jitter.all;
    r.period_jitter_ns_without_outliers = jitter.without_outliers;
    r.period_pairs_skipped_gaps = jitter.counts.skipped_gaps;
    r.period_pairs_skipped_steps = jitter.counts.skipped_excluded;
    if (options.keep_series) {
        series.period_jitter_ns = std::move(jitter.values);
    }

    if (options.compute_stability && n > 0) {
        // Phase on the full pulse grid, in seconds; a missed pulse is a NaN hole that the
        // Allan-family estimators skip (stability.hpp).
        work.assign(length, std::numeric_limits<double>::quiet_NaN());
        for_each_phase([&](std::size_t, std::int64_t ki, double v) {
            work[static_cast<std::size_t>(ki)] = v * 1e-9;
        });
        r.stability = compute_stability(work, static_cast<double>(period_ns) * 1e-9);
    }
    if (options.keep_series) {
        series.index = k.dense();
        r.series = std::move(series);
    }
    return r;
}

}  // namespace ppsbench::stats
