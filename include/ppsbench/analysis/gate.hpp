// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "ppsbench/analysis/comparison.hpp"
#include "ppsbench/analysis/metrics.hpp"
#include "ppsbench/analysis/run_analysis.hpp"

namespace ppsbench::analysis {

// An absolute limit on any figure of the metric registry (docs/metrics.md). `--max p99=10us`,
// `--max missed=0` (--max-sigma 3us is sigma=3us) fail when the run's value exceeds the limit;
// on a signed figure (mean, median, min, max, the bias figures: is_signed()) --max bounds the
// magnitude, so `--max mean=1us` fails on a mean of −50 µs. `--min KEY=LIMIT` fails when the
// value is below the limit, signed as the figure is (`--min bias_median=-1us`).
struct MetricLimit {
    enum class Bound { upper, lower };
    Metric metric;
    double limit = 0;  // in the metric's own unit: ns for a time, pulses for a count
    std::string what;  // how the gate names it: the metric's title, or the shorthand's word
    Bound bound = Bound::upper;
};

// A figure that may be negative (Quantity::signed_time_ns): its --max bounds |value|.
bool is_signed(const Metric& metric);

// "KEY=LIMIT" (`--max p99=10us`): the metric by its --metrics key, the limit in its unit — a
// time needs one (3us), a count is digits, any other figure a plain number. Throws
// core::UsageError naming `option` and the metric otherwise: an unknown metric (with a
// did-you-mean), a limit that is not a number (NaN, inf), a time without a unit, or a negative
// limit where none can be met (any --max; a --min of a figure that cannot be negative).
MetricLimit parse_metric_limit(std::string_view text, std::string_view option,
                               MetricLimit::Bound bound = MetricLimit::Bound::upper);
// The same for a key and a limit given apart (--max-sigma 3us), named `what` in the verdict.
MetricLimit metric_limit(std::string_view key, std::string_view limit, std::string_view option,
                         std::string what = {},
                         MetricLimit::Bound bound = MetricLimit::Bound::upper);

struct GateLimits {
    std::optional<double> max_ratio;  // σ(current) / σ(baseline)
    std::vector<MetricLimit> maxima;  // --max and its shorthands, in this order, after the ratio
    std::vector<MetricLimit> minima;  // --min, after the maxima
    // The median bias against a hardware reference (analysis/bias.hpp) may grow over the
    // baseline's by this much (a kernel that made the PPS path later); judged like the ratio.
    std::optional<double> max_bias_growth_ns;
    double confidence = 0.95;
    // Fewer pulses than this in either run is bad input, not a pass; a bias figure needs as
    // many pairs of edges with its reference. 100 is the smallest count
    // at which the 95 % F-interval of σ(a)/σ(b) for two equal runs (×/÷ exp(1.96·√(2/(2·99))),
    // 0.82–1.22) is narrower than the customary 1.25 limit, and σ itself is known to ±14 %:
    // below that no limit can be judged (docs/compare-and-gate.md).
    std::uint64_t min_pulses = default_min_pulses;
    static constexpr std::uint64_t default_min_pulses = 100;
};

// One rule applied to the run, as numbers; the rendering layer words it (render/gate_text.hpp).
struct GateCheck {
    enum class Kind { sigma_ratio, absolute, bias_growth };
    Kind kind = Kind::absolute;
    std::string what;  // absolute: the limit's name ("σ", "missed pulses"); ratio: the baseline
    Quantity quantity = Quantity::time_ns;  // absolute: what measured and limit are
    // absolute: which side the limit bounds; `magnitude` is --max of a signed figure, where
    // `measured` is |value|.
    enum class Bound { upper, magnitude, lower };
    Bound bound = Bound::upper;
    double value = 0;     // absolute: the figure as the run has it, signed
    double measured = 0;  // absolute: what the limit is compared with; sigma_ratio: the ratio
    double limit = 0;
    bool failed = false;
    // What the verdict stands on, when the figure needs saying ("chrony synchronised at the end
    // and in 58 of 60 samples"); empty otherwise.
    std::string basis;
    // sigma_ratio only: the ratio with its intervals, and both σ.
    SigmaRatio ratio;
    double sigma_ns = 0;
    double baseline_sigma_ns = 0;
    // bias_growth only: the growth's conservative interval (current median's interval minus
    // the baseline median's), and both medians.
    stats::Interval growth_interval;
    double bias_median_ns = 0;
    double baseline_bias_median_ns = 0;
};

struct GateResult {
    std::vector<GateCheck> checks;
    bool failed() const;
};

// The rule (docs/compare-and-gate.md): an absolute limit fails when the measured value exceeds
// it (its magnitude, for a signed figure), or for --min is below it. The relative limit fails only
// when the regression is statistically supported: when the lower bound of the σ ratio's
// conservative interval (the wider of the F-interval and the bootstrap) is above the limit. A noisy
// but unchanged kernel then passes, and a real 3× regression fails on an hour of pulses. A gate
// never passes on data it cannot judge: it throws core::InputError (exit 2, with the reason) when a
// run has fewer than `min_pulses` pulses, when a figure a limit needs is not a number (a baseline
// summary without σ, a σ of one pulse, no chrony sample for an RMS offset limit), or when the σ
// ratio has no confidence interval; nor on a figure the run holds no evidence for
// (gate_evidence.hpp): chrony's figures when chrony was not synchronised at the end or for most of
// the run, a bias figure of fewer than `min_pulses` pairs, missed pulses of a sampled log, unseen
// events or clock steps of made-up sequence numbers, the median or RMS of centred residuals, a
// ratio or growth between runs of two cadences. The bias growth, like the ratio, fails only when
// the low end of its interval (the current median's low bound minus the baseline median's high
// bound) is above the limit; a run without a bias is a usage error for it.
GateResult evaluate_gate(const RunAnalysis* baseline, const RunAnalysis& current,
                         const GateLimits& limits);

}  // namespace ppsbench::analysis
