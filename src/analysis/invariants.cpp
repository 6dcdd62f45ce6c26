// SPDX-License-Identifier: GPL-2.0-or-later
#include "ppsbench/analysis/invariants.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <utility>

#include "ppsbench/core/error.hpp"

namespace ppsbench::analysis {

namespace {

// Rounding allowance for comparing figures computed by different sums (a mean of equal values
// can land an ulp beyond them).
double slack(const stats::Summary& s) {
    return 1e-9 * std::max({1.0, std::abs(s.min), std::abs(s.max)});
}

bool known(double x) {
    return !std::isnan(x);
}

// a ≤ b, unless either is not held.
bool ordered(double a, double b, double allowance) {
    return !known(a) || !known(b) || a <= b + allowance;
}

class Checker {
  public:
    void fail(std::string name, std::string detail) {
        broken.push_back({std::move(name), std::move(detail)});
    }

    // One series' summary: held, ordered, σ within [0, p2p], σ inside its own interval. A
    // series "without outliers" need not hold its mean, minimum and maximum: a saved summary
    // keeps only its σ (docs/report-json.md), and what it holds is still checked.
    void summary(const char* series, const stats::Summary& s, bool held_whole = true) {
        if (s.count == 0) {
            return;
        }
        const double e = slack(s);
        if (held_whole && (!known(s.mean) || !known(s.min) || !known(s.max))) {
            fail("figures held",
                 fmt::format("{}: {} values without a mean, minimum or maximum", series, s.count));
            return;
        }
        if (!ordered(s.min, s.median, e) || !ordered(s.median, s.max, e) ||
            !ordered(s.min, s.mean, e) || !ordered(s.mean, s.max, e)) {
            fail("min ≤ median, mean ≤ max", fmt::format("{}: min {}, median {}, mean {}, max {}",
                                                         series, s.min, s.median, s.mean, s.max));
        }
        if (known(s.peak_to_peak) && std::abs(s.peak_to_peak - (s.max - s.min)) > e) {
            fail("p2p = max − min",
                 fmt::format("{}: p2p {}, max − min {}", series, s.peak_to_peak, s.max - s.min));
        }
        if (!ordered(0, s.stddev, 0) || !ordered(s.stddev, s.peak_to_peak, e) ||
            !ordered(0, s.robust_stddev, 0)) {
            fail("0 ≤ σ ≤ p2p", fmt::format("{}: σ {}, robust σ {}, p2p {}", series, s.stddev,
                                            s.robust_stddev, s.peak_to_peak));
        }
        if (!ordered(std::abs(s.mean), s.rms, e)) {
            fail("|mean| ≤ RMS", fmt::format("{}: mean {}, RMS {}", series, s.mean, s.rms));
        }
        percentiles(series, s);
        // The χ² interval of σ contains σ by construction: s·√((n−1)/χ²) with χ² either side
        // of n − 1.
        if (!ordered(s.stddev_ci95.lo, s.stddev, e) || !ordered(s.stddev, s.stddev_ci95.hi, e)) {
            fail("σ inside its 95 % interval",
                 fmt::format("{}: σ {}, interval {} … {}", series, s.stddev, s.stddev_ci95.lo,
                             s.stddev_ci95.hi));
        }
    }

    // |x| percentiles: ordered, and the largest is max(|min|, |max|).
    void percentiles(const char* series, const stats::Summary& s) {
        const stats::AbsPercentiles& p = s.abs_percentiles;
        const std::array<double, 6> values{p.p50, p.p90, p.p99, p.p99_9, p.p99_99, p.max};
        const double e = slack(s);
        for (std::size_t i = 1; i < values.size(); ++i) {
            if (!ordered(values[i - 1], values[i], e) || !ordered(0, values[i - 1], 0)) {
                fail("percentiles ordered",
                     fmt::format("{}: |x| p50 {}, p90 {}, p99 {}, p99.9 {}, p99.99 {}, max {}",
                                 series, p.p50, p.p90, p.p99, p.p99_9, p.p99_99, p.max));
                return;
            }
        }
        const double largest = std::max(std::abs(s.min), std::abs(s.max));
        if (known(p.max) && std::abs(p.max - largest) > e) {
            fail("max |x| = max(|min|, |max|)",
                 fmt::format("{}: max |x| {}, min {}, max {}", series, p.max, s.min, s.max));
        }
    }

    std::vector<BrokenInvariant> broken;
};

void check_window(Checker& c, const stats::RunStatistics& r) {
    // Every offset lies in (c − P/2, c + P/2] for the run's centre c: a window one period wide.
    if (r.offset_ns && r.offset_ns->count > 0 && r.period_ns > 0 &&
        !(r.offset_ns->peak_to_peak < static_cast<double>(r.period_ns))) {
        c.fail("offsets within (c − P/2, c + P/2]",
               fmt::format("offsets span {} ns (min {}, max {}), a window of P = {} ns holds "
                           "less",
                           r.offset_ns->peak_to_peak, r.offset_ns->min, r.offset_ns->max,
                           r.period_ns));
    }
}

void check_counts(Checker& c, const stats::RunStatistics& r) {
    if (r.missed_by_sequence + r.missed_by_time != r.missed_pulses) {
        c.fail("missed = by sequence + by time",
               fmt::format("missed {}, by sequence {}, by time {}", r.missed_pulses,
                           r.missed_by_sequence, r.missed_by_time));
    }
    if (r.cadence == core::Cadence::sampled && r.missed_pulses > 0) {
        c.fail("no missed pulses when sampled",
               fmt::format("{} missed pulses in a sampled run", r.missed_pulses));
    }
    if (r.outliers.pulses.size() > r.pulses || r.clock_steps.size() > r.pulses) {
        c.fail("counts within the pulses",
               fmt::format("{} pulses, {} outliers, {} clock steps", r.pulses,
                           r.outliers.pulses.size(), r.clock_steps.size()));
    }
    const stats::Summary& headline = r.headline();
    if (r.pulses > 0 && headline.count != 0 && headline.count != r.pulses) {
        c.fail("one offset per pulse",
               fmt::format("{} pulses, {} headline values", r.pulses, headline.count));
    }
    // The pulse index runs over every period slot from the first pulse to the last (clock
    // steps taken out): each pulse has its own slot, a missed pulse an empty one.
    if (r.span_periods && r.pulses > 0 &&
        r.pulses + r.missed_pulses > static_cast<std::uint64_t>(*r.span_periods) + 1) {
        c.fail("pulses + missed within the span",
               fmt::format("{} pulses + {} missed, but the pulses span {} periods", r.pulses,
                           r.missed_pulses, *r.span_periods));
    }
}

}  // namespace

std::vector<BrokenInvariant> broken_invariants(const stats::RunStatistics& r) {
    Checker c;
    check_window(c, r);
    if (r.offset_ns) {
        c.summary("offsets", *r.offset_ns);
    }
    if (r.offset_ns_without_outliers) {
        c.summary("offsets without outliers", *r.offset_ns_without_outliers, false);
    }
    c.summary("detrended residuals", r.detrended_ns);
    c.summary("detrended residuals without outliers", r.detrended_ns_without_outliers, false);
    c.summary("period jitter", r.period_jitter_ns);
    c.summary("period jitter without outliers", r.period_jitter_ns_without_outliers, false);
    check_counts(c, r);
    return std::move(c.broken);
}

void require_invariants(const RunAnalysis& run, const std::string& read_from) {
    const auto broken = broken_invariants(run.stats);
    if (broken.empty()) {
        return;
    }
    const bool summary = !run.meta.has_value();
    throw core::InputError(fmt::format(
        "{}: run '{}': its figures break the invariant '{}' ({}), so they are not printed, "
        "saved or gated; {}",
        read_from, run.label, broken.front().name, broken.front().detail,
        summary ? "the summary was edited or damaged: save it again with 'ppsbench report "
                  "--format json CAPTURE'"
                : "the capture is kept as it is; please report this with the file"));
}

}  // namespace ppsbench::analysis
