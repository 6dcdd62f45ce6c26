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
    double confidence = 0.95;
};

// One rule applied to the run, as numbers; the rendering layer words it (render/gate_text.hpp).
struct GateCheck {
    enum class Kind { sigma_ratio, absolute, missed };
    Kind kind = Kind::absolute;
    std::string what;  // absolute: "σ", "peak-to-peak", "chrony RMS offset"; ratio: the baseline
    double measured = 0;  // ns for absolute limits, pulses for missed, the ratio for sigma_ratio
    double limit = 0;
    bool failed = false;
    // sigma_ratio only: the ratio with its intervals, and both σ.
    SigmaRatio ratio;
    double sigma_ns = 0;
    double baseline_sigma_ns = 0;
};

struct GateResult {
    std::vector<GateCheck> checks;
    bool failed() const;
};

// The rule (docs/compare-and-gate.md): an absolute limit fails when the measured value exceeds
// it. The relative limit fails only when the regression is statistically supported: when the
// lower bound of the σ ratio's conservative interval (the wider of the F-interval and the
// bootstrap) is above the limit. A noisy but unchanged kernel then passes, and a real 3×
// regression fails on an hour of pulses. Throws core::UsageError when a limit needs data the
// runs do not have (no chrony samples for --max-rms-offset).
GateResult evaluate_gate(const RunAnalysis* baseline, const RunAnalysis& current,
                         const GateLimits& limits);

}  // namespace ppsbench::analysis
