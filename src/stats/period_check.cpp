// SPDX-License-Identifier: GPL-2.0-or-later
#include "period_check.hpp"

#include <algorithm>
#include <cmath>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "ppsbench/core/duration.hpp"
#include "ppsbench/core/error.hpp"
#include "ppsbench/stats/events.hpp"
#include "ppsbench/stats/quantile.hpp"

namespace ppsbench::stats::detail {

namespace {

constexpr std::size_t max_intervals = 65536;  // evenly spread: enough to find a mode by

struct Point {
    std::int64_t t;
    std::uint64_t sequence;
};

// The interval from a to b, per kernel event when the numbers are evidence; 0 for none (a
// duplicate line, the same instant twice).
double interval(const Point& a, const Point& b, bool kernel_sequences) {
    const std::int64_t d = b.t - a.t;
    if (d <= 0) {
        return 0;
    }
    const auto events = kernel_sequences ? sequence_advance(a.sequence, b.sequence) : std::nullopt;
    return static_cast<double>(d) / static_cast<double>(events.value_or(1));
}

// Whether the pulses of `edge` are in time order, and how many there are. With the file
// order's list (a one-edge capture) only its pulses can be out of order: every other one comes
// a usual interval, more than zero, after the one before.
std::pair<bool, std::size_t> ordered_count(const core::PackedPulses& pulses, core::Edge edge,
                                           const UnusualIntervals* file_order) {
    if (file_order != nullptr) {
        return {std::none_of(file_order->at.begin(), file_order->at.end(),
                             [&](std::size_t i) {
                                 return pulses.timestamp_ns(i) < pulses.timestamp_ns(i - 1);
                             }),
                pulses.size()};
    }
    std::size_t count = 0;
    bool ordered = true;
    std::int64_t last = 0;
    // By index, not Pulse values: only the edge and the timestamp are read here.
    for (std::size_t i = 0; i < pulses.size(); ++i) {
        if (pulses.edge(i) != edge) {
            continue;
        }
        const std::int64_t t = pulses.timestamp_ns(i);
        ordered = ordered && (count == 0 || t >= last);
        last = t;
        ++count;
    }
    return {ordered, count};
}

// Up to max_intervals intervals of consecutive pulses of `edge`, in time order. The usual
// capture is in order and is read in place; a disordered one is copied and sorted.
std::vector<double> intervals_in_time_order(const core::PackedPulses& pulses, core::Edge edge,
                                            bool kernel_sequences,
                                            const UnusualIntervals* file_order) {
    const auto [ordered, count] = ordered_count(pulses, edge, file_order);
    std::vector<double> out;
    if (count < 2) {
        return out;
    }
    const std::size_t stride = std::max<std::size_t>(1, (count - 1) / max_intervals);
    out.reserve(std::min(count - 1, max_intervals + 1));
    auto take = [&](const Point& a, const Point& b, std::size_t i) {
        const double x = i % stride == 0 ? interval(a, b, kernel_sequences) : 0;
        if (x > 0) {
            out.push_back(x);
        }
    };
    if (ordered && file_order != nullptr) {
        // One edge: the pulses of the edge are the pulses, and only the sampled pairs are read.
        core::PackedPulses::SequenceCursor sequences = pulses.sequence_cursor();
        for (std::size_t i = stride; i < count; i += stride) {
            const Point previous{pulses.timestamp_ns(i - 1), sequences(i - 1)};
            take(previous, Point{pulses.timestamp_ns(i), sequences(i)}, i);
        }
        return out;
    }
    if (ordered) {
        Point previous{};
        std::size_t i = 0;
        core::PackedPulses::SequenceCursor sequences = pulses.sequence_cursor();
        for (std::size_t k = 0; k < pulses.size(); ++k) {
            if (pulses.edge(k) != edge) {
                continue;
            }
            const Point current{pulses.timestamp_ns(k), sequences(k)};
            if (i > 0) {
                take(previous, current, i);
            }
            previous = current;
            ++i;
        }
        return out;
    }
    std::vector<Point> points;
    points.reserve(count);
    for (const core::Pulse p : pulses) {
        if (p.edge == edge) {
            points.push_back({p.timestamp_ns, p.sequence});
        }
    }
    std::stable_sort(points.begin(), points.end(),
                     [](const Point& a, const Point& b) { return a.t < b.t; });
    for (std::size_t i = 1; i < points.size(); ++i) {
        take(points[i - 1], points[i], i);
    }
    return out;
}

// The most common value of `x` (sorted): the densest window of relative width `width`; among
// windows holding at least half as many, the smallest value wins, so that at 90 % loss without
// sequence numbers (P: 10 % of the intervals, 2 P: 9 %) the period is not taken for 2 P.
double densest(const std::vector<double>& x, double width) {
    std::vector<std::size_t> in_window(x.size());
    std::size_t most = 0;
    std::size_t j = 0;
    for (std::size_t i = 0; i < x.size(); ++i) {
        j = std::max(j, i);
        while (j < x.size() && x[j] <= x[i] * (1 + width)) {
            ++j;
        }
        in_window[i] = j - i;
        most = std::max(most, in_window[i]);
    }
    for (std::size_t i = 0; i < x.size(); ++i) {
        if (2 * in_window[i] >= most) {
            std::vector<double> window(x.begin() + static_cast<std::ptrdiff_t>(i),
                                       x.begin() + static_cast<std::ptrdiff_t>(i + in_window[i]));
            return median_in_place(window);
        }
    }
    return 0;
}

}  // namespace

PeriodFinding find_period(const core::PackedPulses& pulses, core::Edge edge, std::int64_t period_ns,
                          core::Cadence cadence, bool kernel_sequences,
                          const UnusualIntervals* file_order) {
    PeriodFinding finding;
    std::vector<double> x = intervals_in_time_order(pulses, edge, kernel_sequences, file_order);
    if (x.empty()) {
        return finding;
    }
    std::sort(x.begin(), x.end());
    const double rough = densest(x, period_bound);
    // Then every interval within 5 % of it: the mode to the precision of a median.
    std::vector<double> near;
    for (double v : x) {
        if (std::abs(v - rough) <= 0.05 * rough) {
            near.push_back(v);
        }
    }
    finding.support = near.size();
    finding.mode_ns = median_in_place(near);
    const double spread = robust_stddev_in_place(near, finding.mode_ns);
    const auto p = static_cast<double>(period_ns);
    if (cadence == core::Cadence::sampled) {
        finding.multiple = std::max<std::int64_t>(1, std::llround(finding.mode_ns / p));
    }
    const double expected = p * static_cast<double>(finding.multiple);
    finding.rate_error = finding.mode_ns / expected - 1;
    // The mode's own uncertainty: a period of 1 ms with 10 µs of jitter is 1 % a sample.
    const double uncertainty =
        3 * 1.2533 * spread / std::sqrt(static_cast<double>(finding.support)) / expected;
    // One interval is no bulk (two pulses, or one long gap): the rules for gaps and steps judge it.
    finding.consistent =
        finding.support < 2 || std::abs(finding.rate_error) <= period_bound + uncertainty;
    return finding;
}

PeriodFinding check_period(const core::PackedPulses& pulses, core::Edge edge,
                           const AnalysisOptions& options, const UnusualIntervals* file_order) {
    const PeriodFinding found = find_period(pulses, edge, options.period_ns, options.cadence,
                                            options.kernel_sequences, file_order);
    if (found.consistent) {
        return found;
    }
    const auto mode = core::format_duration_option(
        core::Duration(static_cast<std::int64_t>(std::llround(found.mode_ns))));
    const auto period = core::format_duration_option(core::Duration(options.period_ns));
    const bool sampled = options.cadence == core::Cadence::sampled;
    const std::string what = fmt::format(
        "{}: the {} pulses are {} apart (the most common interval in time order{}), which {} "
        "the {} of {} ({:+.0f} ppm{})",
        options.input, core::to_string(edge), mode,
        options.kernel_sequences ? ", per kernel event" : "",
        sampled ? "is no whole multiple of" : "contradicts",
        options.period_given ? "--period" : "recorded period", period, found.rate_error * 1e6,
        sampled ? "" : "; a clock is off by at most 1000 ppm");
    // Folding on a wrong period turns the pulses into clock steps and σ 0 (or offsets of
    // seconds): nothing computed from it could be right, so nothing is.
    throw core::InputError(
        options.period_given
            ? fmt::format("{}; use --period {} or leave --period out", what, mode)
            : fmt::format("{}; if the pulses are {} apart by design, analyse with --period {}",
                          what, mode, mode));
}

}  // namespace ppsbench::stats::detail
