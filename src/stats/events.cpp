// SPDX-License-Identifier: GPL-2.0-or-later
#include "ppsbench/stats/events.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "departures.hpp"
#include "numbered_steps.hpp"
#include "ppsbench/stats/quantile.hpp"
#include "value_scans.hpp"

namespace ppsbench::stats {

namespace {

// Robust σ with the mean-absolute-deviation fallback described in events.hpp.
double robust_scale(std::span<const double> values, double center) {
    std::vector<double> scratch(values.begin(), values.end());
    const double s = robust_stddev_in_place(scratch, center);
    if (s > 0.0) {
        return s;
    }
    long double sum = 0;
    for (double v : values) {
        sum += std::abs(v - center);
    }
    return 1.2533 * static_cast<double>(sum / static_cast<long double>(values.size()));
}

double median_of(std::span<const double> values) {
    std::vector<double> scratch(values.begin(), values.end());
    return median_in_place(scratch);
}

}  // namespace

Outliers find_outliers(std::span<const double> values, double k, double median,
                       double robust_stddev) {
    Outliers result;
    if (values.empty()) {
        return result;
    }
    result.center = median;
    result.scale = robust_stddev > 0.0 ? robust_stddev : robust_scale(values, median);
    result.threshold = k * result.scale;
    detail::indices_beyond(values, 0, result.center, result.threshold, result.indices);
    return result;
}

namespace {

// Level of each side and their common slope over [lo, hi), the step at `at`: y = level_before
// + b·x before it and level_after + b·x from it on (x relative to `at`). Samples flagged in
// `skip` are left out.
struct TwoLevelFit {
    double before = 0;
    double after = 0;
    double slope = 0;
    bool valid = false;
};

TwoLevelFit fit_two_levels(std::span<const double> y, std::size_t lo, std::size_t at,
                           std::size_t hi, const std::vector<bool>& skip) {
    struct Side {
        long double n = 0, sx = 0, sy = 0, sxx = 0, sxy = 0;
        void add(long double x, long double v) {
            n += 1;
            sx += x;
            sy += v;
            sxx += x * x;
            sxy += x * v;
        }
        long double cxx() const { return n > 0 ? sxx - sx * sx / n : 0; }
        long double cxy() const { return n > 0 ? sxy - sx * sy / n : 0; }
    };
    Side before;
    Side after;
    // Relative to the sample before the step: the phase can sit far from zero (a free-running
    // clock's t − t₀ − k·P), and only differences matter.
    const long double origin = y[at - 1];
    for (std::size_t j = lo; j < hi; ++j) {
        if (skip[j - lo]) {
            continue;
        }
        const auto x = static_cast<long double>(j) - static_cast<long double>(at);
        (j < at ? before : after).add(x, static_cast<long double>(y[j]) - origin);
    }
    TwoLevelFit fit;
    if (before.n == 0 || after.n == 0) {
        return fit;
    }
    const long double sxx = before.cxx() + after.cxx();
    const long double b = sxx > 0 ? (before.cxy() + after.cxy()) / sxx : 0;
    fit.slope = static_cast<double>(b);
    fit.before = static_cast<double>((before.sy - b * before.sx) / before.n + origin);
    fit.after = static_cast<double>((after.sy - b * after.sx) / after.n + origin);
    fit.valid = true;
    return fit;
}

// The step's size from every sample between its neighbours (at most `reach` each side): the
// fit above, then once more without the samples 5 robust σ from it, so that an outlier near
// the step cannot move it.
double estimate_step(std::span<const double> y, std::size_t lo, std::size_t at, std::size_t hi) {
    std::vector<bool> skip(hi - lo, false);
    TwoLevelFit fit = fit_two_levels(y, lo, at, hi, skip);
    if (!fit.valid) {
        return 0;
    }
    std::vector<double> residuals(hi - lo);
    auto residual = [&](std::size_t j) {
        const double x = static_cast<double>(j) - static_cast<double>(at);
        return y[j] - ((j < at ? fit.before : fit.after) + fit.slope * x);
    };
    for (std::size_t j = lo; j < hi; ++j) {
        residuals[j - lo] = residual(j);
    }
    const double scale = robust_stddev_in_place(residuals, 0.0);
    if (scale > 0) {
        bool any = false;
        for (std::size_t j = lo; j < hi; ++j) {
            skip[j - lo] = std::abs(residual(j)) > 5 * scale;
            any = any || skip[j - lo];
        }
        if (any) {
            const TwoLevelFit refit = fit_two_levels(y, lo, at, hi, skip);
            if (refit.valid) {
                fit = refit;
            }
        }
    }
    return fit.after - fit.before;
}

// The differences phase[j + 1] − phase[j], from an even sample of them (the values
// even_sample() would pick), computed where needed rather than stored (80 MB at 10 M pulses):
// auxiliary estimates, so exactness over millions of values buys nothing. Each spans the
// periods between its two pulses (`number(j)`: pulse j's period number), one but at a missed
// pulse (or every one of a decimated run): the drift per period is the median of the
// differences over their periods, and the noise is their scatter about that drift times their
// periods (divided by the periods it would shrink with them).
struct DifferenceScale {
    double per_sample;  // the median difference, which a candidate departs from
    double per_period;  // the clock's drift per period
    double scale;       // robust σ of the differences about the drift
};

template <typename T, typename Number>
DifferenceScale difference_scale(std::span<const T> phase_ns, const Number& number) {
    constexpr std::size_t max_sample = 65536;
    const std::size_t diff_count = phase_ns.size() - 1;
    const std::size_t count = std::min(diff_count, max_sample);
    std::vector<double> diffs;
    std::vector<double> periods;
    diffs.reserve(count);
    periods.reserve(count);
    for (std::size_t i = 0; i < count; ++i) {
        const std::size_t j = diff_count <= max_sample ? i : i * diff_count / max_sample;
        diffs.push_back(static_cast<double>(phase_ns[j + 1]) - static_cast<double>(phase_ns[j]));
        periods.push_back(std::max(1.0, number(j + 1) - number(j)));
    }
    DifferenceScale s{};
    s.per_sample = median_of(diffs);
    std::vector<double> rates(count);
    for (std::size_t i = 0; i < count; ++i) {
        rates[i] = periods[i] > 1 ? diffs[i] / periods[i] : diffs[i];
    }
    s.per_period = median_of(rates);
    // About the drift: with every difference one period long, diffs[i] − per_period exactly,
    // as robust_scale(diffs, per_sample) reads it.
    for (std::size_t i = 0; i < count; ++i) {
        rates[i] = diffs[i] - (periods[i] > 1 ? s.per_period * periods[i] : s.per_period);
    }
    s.scale = robust_scale(rates, 0.0);
    return s;
}

constexpr std::size_t min_side = 5;  // samples on either side of a step, at least

// Nothing happens at a sample that is neither a known step nor a candidate (whose difference
// departs from the slope, with min_side samples on either side): the first at or after i that
// is one or the other (`known_at`: the next known step, or n).
template <typename T>
std::size_t next_to_judge(std::span<const T> phase_ns, std::size_t i, std::size_t known_at,
                          double slope, double departure) {
    if (i >= known_at) {
        return i;
    }
    const std::size_t n = phase_ns.size();
    const std::size_t to = n >= min_side ? std::min(known_at, n - min_side + 1) : 0;
    const std::size_t from = std::max(i, min_side);
    const std::size_t candidate =
        from < to ? detail::next_departure(phase_ns, from, to, slope, departure) : to;
    return candidate < to ? candidate : known_at;
}

// estimate_step() on whole nanoseconds: on a copy of [lo, hi) as doubles, the positions
// relative to it (the fit uses only their differences, so the same bits).
double estimate_step(std::span<const std::int32_t> y, std::size_t lo, std::size_t at,
                     std::size_t hi) {
    const std::vector<double> around(y.begin() + static_cast<std::ptrdiff_t>(lo),
                                     y.begin() + static_cast<std::ptrdiff_t>(hi));
    return estimate_step(around, 0, at - lo, hi - lo);
}

// The period number of the middle of samples [lo, hi): with no pulse missed between them,
// (lo + hi − 1)/2 as a position.
template <typename Number>
double middle_number(const Number& number, std::size_t lo, std::size_t hi) {
    const std::size_t m = hi - lo;
    return (number(lo + (m - 1) / 2) + number(lo + m / 2)) / 2.0;
}

template <typename T, typename Number>
std::vector<Step> steps_in(std::span<const T> phase_ns, double k,
                           std::span<const std::size_t> known, std::size_t window,
                           std::size_t size_window, const Number& number) {
    std::vector<Step> steps;
    const std::size_t n = phase_ns.size();
    if (n < 2) {
        return steps;
    }
    const auto [per_sample, slope, diff_scale] = difference_scale(phase_ns, number);
    // White phase noise of σ gives differences of σ·√2.
    const double noise = diff_scale / std::sqrt(2.0);
    const double threshold = k * noise;

    // Detection: the known steps, and the candidates the medians confirm between them.
    std::size_t segment_start = 0;
    std::size_t next_known = 0;
    std::vector<double> before;
    std::vector<double> after;
    const double departure = k * diff_scale;
    for (std::size_t i = 1; i < n; ++i) {
        while (next_known < known.size() && known[next_known] < i) {
            ++next_known;
        }
        const std::size_t known_at = next_known < known.size() ? known[next_known] : n;
        i = next_to_judge(phase_ns, i, known_at, per_sample, departure);
        if (i >= n) {
            break;
        }
        if (i == known_at) {
            steps.push_back({i, 0.0});
            segment_start = i;
            continue;
        }
        const std::size_t first = std::max(segment_start, i >= window ? i - window : 0);
        const std::size_t limit = next_known < known.size() ? known[next_known] : n;
        const std::size_t last = std::min(limit, i + window);
        if (i - first < min_side || last - i < min_side) {
            continue;
        }
        before.assign(phase_ns.begin() + static_cast<std::ptrdiff_t>(first),
                      phase_ns.begin() + static_cast<std::ptrdiff_t>(i));
        after.assign(phase_ns.begin() + static_cast<std::ptrdiff_t>(i),
                     phase_ns.begin() + static_cast<std::ptrdiff_t>(last));
        // The two medians sit at the windows' centres, (|after| + |before|)/2 samples apart, and
        // as many periods unless pulses are missed between them: a drifting clock gains a
        // period's drift more at each, which is no step (−9.2 µs at −9.3 ppm, counted by samples).
        const double drift =
            slope * (middle_number(number, i, last) - middle_number(number, first, i));
        const double size = median_in_place(after) - median_in_place(before) - drift;
        if (std::abs(size) > threshold && std::abs(size) > 0.0) {
            steps.push_back({i, size});
            segment_start = i;
        }
    }
    // Sizing: every sample between the neighbouring steps.
    for (std::size_t s = 0; s < steps.size(); ++s) {
        const std::size_t at = steps[s].index;
        const std::size_t previous = s > 0 ? steps[s - 1].index : 0;
        const std::size_t next = s + 1 < steps.size() ? steps[s + 1].index : n;
        const std::size_t lo = std::max(previous, at > size_window ? at - size_window : 0);
        const std::size_t hi = std::min(next, at + size_window);
        steps[s].size_ns = estimate_step(phase_ns, lo, at, hi);
    }
    return steps;
}

}  // namespace

namespace {
const auto by_position = [](std::size_t j) { return static_cast<double>(j); };
}  // namespace

std::vector<Step> find_steps(std::span<const double> phase_ns, double k,
                             std::span<const std::size_t> known, std::size_t window,
                             std::size_t size_window) {
    return steps_in(phase_ns, k, known, window, size_window, by_position);
}

std::vector<Step> find_steps(std::span<const std::int32_t> phase_ns, double k,
                             std::span<const std::size_t> known, std::size_t window,
                             std::size_t size_window) {
    return steps_in(phase_ns, k, known, window, size_window, by_position);
}

std::vector<Step> detail::find_numbered_steps(std::span<const double> phase_ns, double k,
                                              std::span<const std::size_t> known,
                                              const PulseIndex& index) {
    const auto number = [&index](std::size_t j) { return static_cast<double>(index.at(j)); };
    return steps_in(phase_ns, k, known, 16, 512, number);
}

std::vector<Step> detail::find_numbered_steps(std::span<const std::int32_t> phase_ns, double k,
                                              std::span<const std::size_t> known,
                                              const PulseIndex& index) {
    const auto number = [&index](std::size_t j) { return static_cast<double>(index.at(j)); };
    return steps_in(phase_ns, k, known, 16, 512, number);
}

IntervalVerdict detail::classify_unusual_interval(const IntervalEvidence& evidence,
                                                  const IntervalRule& rule) {
    IntervalVerdict verdict;
    const std::int64_t p = rule.nominal_period_ns;
    const auto nominal = static_cast<double>(p);
    const auto interval = static_cast<double>(evidence.interval_ns);
    if (rule.clock_can_step && evidence.events) {
        const std::uint64_t events = *evidence.events;
        // Longer than the kernel's events can account for: the clock jumped forward by the
        // rest. Every counted event fell in an empty slot (missed), none went unseen.
        if (interval > (static_cast<double>(events) + 0.5) * nominal) {
            verdict.step = true;
            // events·P < interval < 2^63 here, so neither the product nor the difference
            // overflows.
            verdict.step_ns = evidence.interval_ns - static_cast<std::int64_t>(events) * p;
            verdict.missed = verdict.missed_by_sequence = events - 1;
            return verdict;
        }
        // More than a quarter period off with contiguous numbers: the clock jumped by
        // Δt − P, of any size, ±P/2 included. Forward (up to (1 + ½)·P, above):
        if (events == 1 && interval > (1 + step_reach) * nominal) {
            verdict.step = true;
            verdict.step_ns = evidence.interval_ns - p;
            return verdict;
        }
        // Backward: a step if the next pulse follows this one's rhythm, else this pulse is a
        // glitch (the caller's duplicate) and the next one follows the old rhythm.
        if (events == 1 && interval < (1 - step_reach) * nominal && evidence.next_interval_ns) {
            const auto next = static_cast<double>(*evidence.next_interval_ns);
            if (std::abs(next - nominal) < std::abs(next + interval - nominal) &&
                !__builtin_sub_overflow(evidence.interval_ns, p, &verdict.step_ns)) {
                verdict.step = true;
                return verdict;
            }
            verdict.step_ns = 0;
            verdict.glitch = true;
        }
    }
    std::uint64_t slots = 0;
    if (interval > 1.5 * nominal) {
        const auto periods = std::llround(interval / rule.period_ns);
        slots = static_cast<std::uint64_t>(std::max<long long>(periods - 1, 1));
    }
    if (!evidence.events) {
        verdict.missed = verdict.missed_by_time = slots;
        return verdict;
    }
    const std::uint64_t skipped = *evidence.events - 1;
    verdict.missed_by_sequence = std::min(slots, skipped);
    verdict.unseen = skipped - verdict.missed_by_sequence;
    // A clock that cannot step (or a counter that is ours, not the kernel's) leaves time as the
    // evidence for slots the sequence does not cover.
    verdict.missed_by_time = rule.clock_can_step ? 0 : slots - verdict.missed_by_sequence;
    verdict.missed = verdict.missed_by_sequence + verdict.missed_by_time;
    return verdict;
}

void remove_steps(std::span<double> phase_ns, std::span<const Step> steps) {
    double shift = 0;
    std::size_t next = 0;
    for (std::size_t i = 0; i < phase_ns.size(); ++i) {
        while (next < steps.size() && steps[next].index == i) {
            shift += steps[next].size_ns;
            ++next;
        }
        phase_ns[i] -= shift;
    }
}

}  // namespace ppsbench::stats
