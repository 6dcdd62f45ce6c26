// SPDX-License-Identifier: GPL-2.0-or-later
#include "value_scans.hpp"

#include <cmath>

#include "lanes.hpp"

namespace ppsbench::stats::detail {

namespace {

template <typename Form>
[[gnu::always_inline]] inline void beyond_body(std::span<const double> values, std::size_t first,
                                               double centre, double threshold,
                                               std::vector<std::size_t>& out) {
    const double* v = values.data();
    const std::size_t n = values.size();
    const Lanes c = splat(centre);
    const Lanes t = splat(threshold);
    std::size_t i = 0;
    // Outliers are rare: sixteen values a test, and a scalar look where one is.
    for (; i + 4 * lane_count <= n; i += 4 * lane_count) {
        const LaneMask far = lanes_less<Form>(t, lanes_abs(load_lanes(v + i) - c)) |
                             lanes_less<Form>(t, lanes_abs(load_lanes(v + i + 4) - c)) |
                             lanes_less<Form>(t, lanes_abs(load_lanes(v + i + 8) - c)) |
                             lanes_less<Form>(t, lanes_abs(load_lanes(v + i + 12) - c));
        if (any_lane<Form>(far)) [[unlikely]] {
            for (std::size_t j = i; j < i + 4 * lane_count; ++j) {
                if (std::abs(v[j] - centre) > threshold) {
                    out.push_back(first + j);
                }
            }
        }
    }
    for (; i < n; ++i) {
        if (std::abs(v[i] - centre) > threshold) {
            out.push_back(first + i);
        }
    }
}

// The bin of one value, from its position (v − lower) / width: the scalar rule of
// histogram_from_quantiles(), where floor(p) < 0 ⟺ p < 0 and floor(p) ≥ bins ⟺ p ≥ bins.
[[gnu::always_inline]] inline void count_position(double position, double bins, BinCounts& out) {
    if (position < 0.0) {
        ++out.underflow;
    } else if (position >= bins) {
        ++out.overflow;
    } else if (position >= 0.0) {  // not NaN
        ++out.counts[static_cast<std::size_t>(position)];
    }
}

[[gnu::always_inline]] inline void bins_body(std::span<const double> values, double lower,
                                             double width, BinCounts& out) {
    const double* v = values.data();
    const std::size_t n = values.size();
    const auto bins = static_cast<double>(out.counts.size());
    const Lanes lo = splat(lower);
    const Lanes w = splat(width);
    std::size_t i = 0;
    for (; i + lane_count <= n; i += lane_count) {
        const Lanes position = (load_lanes(v + i) - lo) / w;
        for (std::size_t k = 0; k < lane_count; ++k) {
            count_position(position[k], bins, out);
        }
    }
    for (; i < n; ++i) {
        count_position((v[i] - lower) / width, bins, out);
    }
}

PPSBENCH_AVX2_TARGET void beyond_avx2(std::span<const double> values, std::size_t first,
                                      double centre, double threshold,
                                      std::vector<std::size_t>& out) {
    beyond_body<Avx2Form>(values, first, centre, threshold, out);
}
void beyond_baseline(std::span<const double> values, std::size_t first, double centre,
                     double threshold, std::vector<std::size_t>& out) {
    beyond_body<BaselineForm>(values, first, centre, threshold, out);
}
PPSBENCH_AVX2_TARGET void bins_avx2(std::span<const double> values, double lower, double width,
                                    BinCounts& out) {
    bins_body(values, lower, width, out);
}
void bins_baseline(std::span<const double> values, double lower, double width, BinCounts& out) {
    bins_body(values, lower, width, out);
}

}  // namespace

void indices_beyond(std::span<const double> values, std::size_t first, double centre,
                    double threshold, std::vector<std::size_t>& out) {
    (lanes_avx2() ? beyond_avx2 : beyond_baseline)(values, first, centre, threshold, out);
}

void count_bins(std::span<const double> values, double lower, double width, BinCounts& bins) {
    (lanes_avx2() ? bins_avx2 : bins_baseline)(values, lower, width, bins);
}

}  // namespace ppsbench::stats::detail
