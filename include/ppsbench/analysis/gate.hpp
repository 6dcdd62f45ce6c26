#pragma once

#include <optional>
#include <string>
#include <vector>

#include "ppsbench/analysis/comparison.hpp"
#include "ppsbench/analysis/run_analysis.hpp"

namespace ppsbench::analysis {

struct GateLimits {
    std::optional<double> max_ratio;          // σ(current) / σ(baseline)
    std::optional<double> max_sigma_ns;       // absolute
    std::optional<double> max_p2p_ns;         // absolute
    std::optional<double> max_rms_offset_ns;  // chrony's RMS offset at the end of the run
    std::optional<std::uint64_t> max_missed;  // missed pulses
    // Bias against a hardware reference (analysis/bias.hpp): the median lateness, absolute,
    // and its growth over the baseline's (a kernel that made the PPS path later).
    std::optional<double> max_bias_ns;
    std::optional<double> max_bias_growth_ns;
    double confidence = 0.95;
    // Fewer pulses than this in either run is bad input, not a pass. 100 is the smallest count
    // at which the 95 % F-interval of σ(a)/σ(b) for two equal runs (×/÷ exp(1.96·√(2/(2·99))),
    // 0.82–1.22) is narrower than the customary 1.25 limit, and σ itself is known to ±14 %:
    // below that no limit can be judged (docs/compare-and-gate.md).
    std::uint64_t min_pulses = default_min_pulses;
    static constexpr std::uint64_t default_min_pulses = 100;
};

// One rule applied to the run, as numbers; the rendering layer words it (render/gate_text.hpp).
struct GateCheck {
    enum class Kind { sigma_ratio, absolute, missed, bias_growth };
    Kind kind = Kind::absolute;
    std::string what;  // absolute: "σ", "peak-to-peak", "chrony RMS offset"; ratio: the baseline
    double measured = 0;  // ns for absolute limits, pulses for missed, the ratio for sigma_ratio
    double limit = 0;
    bool failed = false;
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
// it. The relative limit fails only when the regression is statistically supported: when the
// lower bound of the σ ratio's conservative interval (the wider of the F-interval and the
// bootstrap) is above the limit. A noisy but unchanged kernel then passes, and a real 3×
// regression fails on an hour of pulses. A gate never passes on data it cannot judge: it throws
// core::InputError (exit 2, with the reason) when a run has fewer than `min_pulses` pulses,
// when a figure a limit needs is not a number (a baseline summary without σ, a σ of one
// pulse), or when the σ ratio has no confidence interval; the bias growth, like the ratio,
// fails only when the low end of its interval (current median's low bound minus the baseline
// median's high bound) is above the limit; core::UsageError when a limit needs
// data the runs do not have (no chrony samples for --max-rms-offset).
GateResult evaluate_gate(const RunAnalysis* baseline, const RunAnalysis& current,
                         const GateLimits& limits);

}  // namespace ppsbench::analysis
