#pragma once

#include <cstddef>
#include <span>
#include <vector>

namespace ppsbench::stats {

// Things that happen to a pulse train besides jitter. Each finder reports positions (indices
// into the series it was given) and leaves the decision of what to do to the caller; analyze()
// documents its choices in docs/methodology.md.

// Robust outlier rule: x is an outlier when |x − median| > k · s, where s is the MAD-based
// robust σ (1.4826 · MAD); when more than half the values are identical (MAD = 0, e.g. coarse
// timestamps) s falls back to 1.2533 · mean |x − median|, the mean absolute deviation's σ
// equivalent. A handful of wild values cannot move the median or the MAD, so they cannot hide
// themselves, unlike a rule based on mean and σ.
struct Outliers {
    double center = 0;     // median
    double scale = 0;      // s
    double threshold = 0;  // k · s
    std::vector<std::size_t> indices;
};

// The centre and robust σ come from the series' summary (summarize()): one pass, no copy. A
// zero `robust_stddev` triggers the fallback above.
Outliers find_outliers(std::span<const double> values, double k, double median,
                       double robust_stddev);

// A persistent jump in a phase series (e.g. the clock being stepped): the median of the
// `window` samples from `index` on differs from the median of the `window` samples before it by
// `size_ns` after allowing for the series' drift.
struct Step {
    std::size_t index = 0;
    double size_ns = 0;
};

// Candidates are samples whose difference from the previous one departs from the median
// difference by more than k robust σ of the differences; a candidate is a step only if the
// medians of the windows on either side (at least 5 samples each, never reaching across the
// previous step) also differ by more than k noise σ. A lone spike moves one difference pair
// but neither median, so it is an outlier, not a step.
std::vector<Step> find_steps(std::span<const double> phase_ns, double k, std::size_t window = 16);

// Subtracts each step from every sample from its index on, so the series continues at the
// level of its first segment: one step then costs one sample pair instead of a bimodal series.
void remove_steps(std::span<double> phase_ns, std::span<const Step> steps);

}  // namespace ppsbench::stats
