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
// The halves differ "beyond noise" at this many standard errors of their difference.
constexpr double drift_standard_errors = 4.0;

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

// The split of the sorted lateness into a low and a high group with the largest between-group
// variance (Otsu), each group at least a tenth: Ashman's D and the smaller share.
void measure_separation(std::vector<double> late_ns, Calibration& c) {
    std::sort(late_ns.begin(), late_ns.end());
    const std::size_t n = late_ns.size();
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
        const double v1 = std::max(0.0, squares[k] / n1 - m1 * m1);
        const double v2 = std::max(0.0, (squares[n] - squares[k]) / n2 - m2 * m2);
        const double spread = std::sqrt(v1 + v2);
        c.separation = spread > 0 ? std::sqrt(2.0) * (m2 - m1) / spread
                                  : std::numeric_limits<double>::infinity();
        c.minor_share = std::min(n1, n2) / static_cast<double>(n);
    }
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
    c.uncertainty_ns = t * std::sqrt(all.variance / static_cast<double>(all.n)) +
                       static_cast<double>(std::max<std::int64_t>(c.reference_uncertainty_ns, 0));

    const std::span<const double> span(polls);
    const PollStats first = describe_polls(span.first(c.polls / 2));
    const PollStats second = describe_polls(span.subspan(c.polls / 2));
    c.first_half_ns = first.mean;
    c.second_half_ns = second.mean;
    const double difference = std::abs(second.mean - first.mean);
    const double standard_error = std::sqrt(first.variance / static_cast<double>(first.n) +
                                            second.variance / static_cast<double>(second.n));
    measure_separation(lateness.late_ns, c);
    if (difference > settings.max_drift_ns && difference > drift_standard_errors * standard_error) {
        c.refusal = CalibrationRefusal::drifting;
    } else if (c.separation > bimodal_separation && c.minor_share >= bimodal_minor_share) {
        c.refusal = CalibrationRefusal::bimodal;
    }
    return c;
}

}  // namespace ppsbench::analysis
