// SPDX-License-Identifier: GPL-2.0-or-later
#include "ppsbench/analysis/calibration.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <vector>

#include "ppsbench/stats/distributions.hpp"
#include "ppsbench/stats/quantile.hpp"
#include "ppsbench/stats/summary.hpp"

namespace ppsbench::analysis {

namespace {

// chrony's combine ratio for refclocks (refclock.c: "combine 60% of samples closest to the
// median").
constexpr double combine_ratio = 0.6;
// Two groups are "far apart" when their means differ by more than this many of their pooled
// spreads (Ashman's D). A uniform distribution split in two gives 3.46, a Gaussian 2.7.
constexpr double bimodal_separation = 4.0;
constexpr double bimodal_minor_share = 0.1;
// The quarters' constants differ "beyond noise" when their one-way ANOVA F statistic has a
// chance below this under one constant: the two-sided tail of 4 standard errors, the level the
// former halves test used.
constexpr double drift_chance = 6.3e-5;
constexpr std::size_t drift_parts = 4;

struct PollStats {
    double mean = 0;
    double variance = 0;  // n − 1; 0 for fewer than two
    std::size_t n = 0;
};

PollStats describe_polls(std::span<const double> polls) {
    PollStats s;
    s.n = polls.size();
    if (s.n == 0) {
        return s;
    }
    s.mean = std::accumulate(polls.begin(), polls.end(), 0.0) / static_cast<double>(s.n);
    if (s.n > 1) {
        double sum = 0;
        for (const double p : polls) {
            sum += (p - s.mean) * (p - s.mean);
        }
        s.variance = sum / static_cast<double>(s.n - 1);
    }
    return s;
}

// One filter output per poll: consecutive groups of `per_poll` edges, as chronyd would have
// collected them (a partial last group is left out, as chronyd would not have polled yet).
std::vector<double> poll_offsets(const std::vector<double>& late_ns, std::size_t per_poll) {
    std::vector<double> polls;
    std::vector<double> group;
    for (std::size_t start = 0; start + per_poll <= late_ns.size(); start += per_poll) {
        group.assign(late_ns.begin() + static_cast<std::ptrdiff_t>(start),
                     late_ns.begin() + static_cast<std::ptrdiff_t>(start + per_poll));
        polls.push_back(chrony_filtered_offset(group));
    }
    return polls;
}

// The smallest step between distinct lateness values: a PHC's tick, a timestamp's resolution.
// 0 when every value is the same.
double quantisation_step(const std::vector<double>& sorted) {
    double step = 0;
    for (std::size_t i = 1; i < sorted.size(); ++i) {
        const double gap = sorted[i] - sorted[i - 1];
        if (gap > 0 && (step == 0 || gap < step)) {
            step = gap;
        }
    }
    return step;
}

// The split of the sorted lateness into a low and a high group with the largest between-group
// variance (Otsu), each group at least a tenth: Ashman's D and the smaller share. Each group's
// variance is at least the quantisation noise q²/12 (Sheppard): values the timestamps cannot
// tell apart are one group's spread, not two groups, so two adjacent ticks give D = 3.46 (a
// uniform split in two), not ∞.
void measure_separation(std::vector<double> late_ns, Calibration& c) {
    std::sort(late_ns.begin(), late_ns.end());
    const std::size_t n = late_ns.size();
    c.quantisation_ns = quantisation_step(late_ns);
    const double floor_variance = c.quantisation_ns * c.quantisation_ns / 12.0;
    std::vector<double> sum(n + 1, 0.0);
    std::vector<double> squares(n + 1, 0.0);
    for (std::size_t i = 0; i < n; ++i) {
        // Centred on the median so the squares keep their precision.
        const double x = late_ns[i] - late_ns[n / 2];
        sum[i + 1] = sum[i] + x;
        squares[i + 1] = squares[i] + x * x;
    }
    const auto min_group = static_cast<std::size_t>(std::ceil(bimodal_minor_share * n));
    double best = -1;
    for (std::size_t k = std::max<std::size_t>(min_group, 2);
         k + std::max<std::size_t>(min_group, 2) <= n; ++k) {
        const double n1 = static_cast<double>(k);
        const double n2 = static_cast<double>(n - k);
        const double m1 = sum[k] / n1;
        const double m2 = (sum[n] - sum[k]) / n2;
        const double between = n1 * n2 * (m2 - m1) * (m2 - m1);
        if (between <= best) {
            continue;
        }
        best = between;
        const double v1 = std::max(floor_variance, squares[k] / n1 - m1 * m1);
        const double v2 = std::max(floor_variance, (squares[n] - squares[k]) / n2 - m2 * m2);
        const double spread = std::sqrt(v1 + v2);
        // One value throughout: no spread and no distance, one group.
        c.separation = spread > 0 ? std::sqrt(2.0) * (m2 - m1) / spread : 0.0;
        c.minor_share = std::min(n1, n2) / static_cast<double>(n);
    }
}

// The polls cut into consecutive quarters: each quarter's constant, and whether they differ
// beyond noise (one-way ANOVA). Halves alone miss a lateness that swings and comes back (a PCIe
// link state held for the middle of a run); four parts see it.
bool judge_drift(std::span<const double> polls, const CalibrationSettings& settings,
                 Calibration& c) {
    const std::size_t n = polls.size();
    // Two polls a part at least, so each part has a spread.
    const std::size_t parts = std::min(drift_parts, n / 2);
    c.quarters_ns.clear();
    if (parts < 2) {
        return false;
    }
    const double grand = describe_polls(polls).mean;
    double between = 0;
    double within = 0;
    double lowest = std::numeric_limits<double>::infinity();
    double highest = -lowest;
    for (std::size_t part = 0; part < parts; ++part) {
        const std::size_t from = part * n / parts;
        const PollStats s = describe_polls(polls.subspan(from, (part + 1) * n / parts - from));
        c.quarters_ns.push_back(s.mean);
        lowest = std::min(lowest, s.mean);
        highest = std::max(highest, s.mean);
        between += static_cast<double>(s.n) * (s.mean - grand) * (s.mean - grand);
        within += s.variance * static_cast<double>(s.n - 1);
    }
    if (highest - lowest <= settings.max_drift_ns) {
        return false;
    }
    const auto df_between = static_cast<double>(parts - 1);
    const auto df_within = static_cast<double>(n - parts);
    if (within <= 0) {
        return true;  // polls without noise that still differ by more than --max-drift
    }
    const double f = (between / df_between) / (within / df_within);
    return f > stats::f_quantile(1.0 - drift_chance, df_between, df_within);
}

}  // namespace

double chrony_filtered_offset(std::span<double> samples) {
    std::sort(samples.begin(), samples.end());
    const auto n = static_cast<std::ptrdiff_t>(samples.size());
    std::ptrdiff_t from = 0;
    if (n > 2) {
        from = static_cast<std::ptrdiff_t>(static_cast<double>(n) * (1.0 - combine_ratio) / 2.0);
        from = std::clamp<std::ptrdiff_t>(from, 1, (n - 1) / 2);
    }
    const auto kept =
        samples.subspan(static_cast<std::size_t>(from), static_cast<std::size_t>(n - 2 * from));
    return std::accumulate(kept.begin(), kept.end(), 0.0) / static_cast<double>(kept.size());
}

Calibration calibrate(const Lateness& lateness, const CalibrationSettings& settings) {
    Calibration c;
    c.reference = lateness.reference;
    c.pairs = lateness.late_ns.size();
    c.filter_samples = std::max<std::size_t>(settings.filter_samples, 1);
    c.reference_uncertainty_ns = lateness.reference_uncertainty_ns;
    if (c.pairs > 0) {
        c.mean_ns = stats::summarize(lateness.late_ns).mean;
        std::vector<double> sorted = lateness.late_ns;
        std::sort(sorted.begin(), sorted.end());
        c.median_ns = stats::quantile_sorted(sorted, 0.5);
    }
    const std::vector<double> polls = poll_offsets(lateness.late_ns, c.filter_samples);
    c.polls = polls.size();
    if (c.polls < std::max<std::size_t>(settings.min_polls, 2)) {
        c.refusal = CalibrationRefusal::too_few_pulses;
        return c;
    }
    const PollStats all = describe_polls(polls);
    c.constant_ns = all.mean;
    const double t =
        std::sqrt(stats::f_quantile(settings.confidence, 1.0, static_cast<double>(all.n - 1)));
    measure_separation(lateness.late_ns, c);
    // The mean of whole-tick values resolves no finer than half a tick when they do not dither
    // (a constant lateness has no spread, and its interval is the tick's).
    const double statistical = t * std::sqrt(all.variance / static_cast<double>(all.n));
    c.uncertainty_ns = std::max(statistical, c.quantisation_ns / 2) +
                       static_cast<double>(std::max<std::int64_t>(c.reference_uncertainty_ns, 0));

    const std::span<const double> span(polls);
    c.first_half_ns = describe_polls(span.first(c.polls / 2)).mean;
    c.second_half_ns = describe_polls(span.subspan(c.polls / 2)).mean;
    if (judge_drift(span, settings, c)) {
        c.refusal = CalibrationRefusal::drifting;
    } else if (c.separation > bimodal_separation && c.minor_share >= bimodal_minor_share) {
        c.refusal = CalibrationRefusal::bimodal;
    }
    return c;
}

}  // namespace ppsbench::analysis
