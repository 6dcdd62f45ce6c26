// SPDX-License-Identifier: GPL-2.0-or-later
#include "period_check.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "ppsbench/core/duration.hpp"
#include "ppsbench/core/error.hpp"
#include "ppsbench/stats/events.hpp"
#include "ppsbench/stats/quantile.hpp"
#include "rank_selection.hpp"

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
    out.reserve((count - 1) / stride);
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
            const double x =
                interval(previous, {pulses.timestamp_ns(i), sequences(i)}, kernel_sequences);
            if (x > 0) {
                out.push_back(x);
            }
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

// std::sort's order for positive finite doubles (the intervals: a positive int64 over a positive
// count), whose bit patterns sort as unsigned integers: a pass for each 11-bit digit in which
// the values differ (two or three for intervals of one period), linear where std::sort's
// comparisons cost n log n (65 536 intervals: a third of the period check). Equal doubles have
// equal bits, so the result is std::sort's.
void sort_positive(std::vector<double>& x) {
    constexpr unsigned bits = 11;
    constexpr std::uint64_t radix = std::uint64_t{1} << bits;
    std::vector<std::uint64_t> keys;
    keys.reserve(x.size());
    std::uint64_t some = 0;                   // bits set in some value
    std::uint64_t every = ~std::uint64_t{0};  // bits set in every value
    for (const double v : x) {
        const auto key = std::bit_cast<std::uint64_t>(v);
        keys.push_back(key);
        some |= key;
        every &= key;
    }
    std::vector<std::uint32_t> next(radix);
    // Each pass moves the values between `keys` and `x` (as their bits), stably by one digit.
    bool in_keys = true;
    for (unsigned shift = 0; shift < 64; shift += bits) {
        if ((((some ^ every) >> shift) & (radix - 1)) == 0) {
            continue;  // every value has the same digit here
        }
        const auto digit = [shift](std::uint64_t key) { return (key >> shift) & (radix - 1); };
        std::fill(next.begin(), next.end(), 0);
        if (in_keys) {
            for (const std::uint64_t key : keys) {
                ++next[digit(key)];
            }
        } else {
            for (const double v : x) {
                ++next[digit(std::bit_cast<std::uint64_t>(v))];
            }
        }
        std::uint32_t at = 0;
        for (std::uint32_t& count : next) {
            at += std::exchange(count, at);
        }
        if (in_keys) {
            for (const std::uint64_t key : keys) {
                x[next[digit(key)]++] = std::bit_cast<double>(key);
            }
        } else {
            for (const double v : x) {
                const auto key = std::bit_cast<std::uint64_t>(v);
                keys[next[digit(key)]++] = key;
            }
        }
        in_keys = !in_keys;
    }
    if (in_keys) {
        std::transform(keys.begin(), keys.end(), x.begin(),
                       [](std::uint64_t key) { return std::bit_cast<double>(key); });
    }
}

// median_in_place()'s value for ascending values, read off without a selection.
double median_of_sorted(std::span<const double> sorted) {
    const std::size_t n = sorted.size();
    return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2.0;
}

// median_in_place() of |v − c| over ascending values: the distances fall left of c and rise
// right of it, so merging the two runs from c outwards meets them in ascending order, and the
// merge stops at the middle.
double median_distance(std::span<const double> sorted, double c) {
    const std::size_t n = sorted.size();
    std::size_t left = static_cast<std::size_t>(std::lower_bound(sorted.begin(), sorted.end(), c) -
                                                sorted.begin());
    std::size_t right = left;
    double lower = 0;
    double middle = 0;
    for (std::size_t taken = 0; taken <= n / 2; ++taken) {
        const double dl = left > 0 ? std::abs(sorted[left - 1] - c) : 0;
        const double dr = right < n ? std::abs(sorted[right] - c) : 0;
        lower = middle;
        if (left > 0 && (right == n || dl <= dr)) {
            middle = dl;
            --left;
        } else {
            middle = dr;
            ++right;
        }
    }
    return n % 2 == 1 ? middle : (lower + middle) / 2.0;
}

// The most common value of `x` (sorted): the densest window of relative width `width`; among
// windows holding at least half as many, the smallest value wins, so that at 90 % loss without
// sequence numbers (P: 10 % of the intervals, 2 P: 9 %) the period is not taken for 2 P.
double densest(const std::vector<double>& x, double width) {
    // Walked twice, the windows' ends moving up with their starts: once for the most any holds,
    // once for the first that holds at least half of that.
    const auto walk = [&](auto stop) {
        std::size_t j = 0;
        for (std::size_t i = 0; i < x.size(); ++i) {
            j = std::max(j, i);
            while (j < x.size() && x[j] <= x[i] * (1 + width)) {
                ++j;
            }
            if (stop(i, j - i)) {
                return;
            }
        }
    };
    std::size_t most = 0;
    walk([&most](std::size_t, std::size_t count) {
        most = std::max(most, count);
        return false;
    });
    double mode = 0;
    walk([&](std::size_t i, std::size_t count) {
        if (2 * count < most) {
            return false;
        }
        mode = median_of_sorted(std::span<const double>(x).subspan(i, count));
        return true;
    });
    return mode;
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
    sort_positive(x);
    const double rough = densest(x, period_bound);
    // Then every interval within 5 % of it: the mode to the precision of a median. Those are
    // one stretch of the sorted intervals (|v − rough| falls, then rises, as v does), so their
    // median and their distances' median are read off it in order.
    const auto is_near = [rough](double v) { return std::abs(v - rough) <= 0.05 * rough; };
    const auto first = std::find_if(x.begin(), x.end(), is_near);
    const auto last = std::find_if_not(first, x.end(), is_near);
    const std::span<const double> near(first, last);
    finding.support = near.size();
    finding.mode_ns = near.empty() ? nan : median_of_sorted(near);
    const double spread =
        near.empty() ? nan : mad_to_sigma * median_distance(near, finding.mode_ns);
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
