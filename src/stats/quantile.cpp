// SPDX-License-Identifier: GPL-2.0-or-later
#include "ppsbench/stats/quantile.hpp"

#include "quantile_in_place.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "order_statistics.hpp"

namespace ppsbench::stats {

namespace {

using detail::lerp;
using detail::nan;
using detail::Position;
using detail::position;

}  // namespace

double quantile_sorted(std::span<const double> sorted, double q) {
    if (sorted.empty()) {
        return nan;
    }
    const Position p = position(sorted.size(), q);
    if (p.fraction > 0.0) {
        return lerp(sorted[p.below], sorted[p.below + 1], p.fraction);
    }
    return sorted[p.below];
}

double median_in_place(std::span<double> values) {
    const std::size_t n = values.size();
    if (n == 0) {
        return nan;
    }
    auto middle = values.begin() + static_cast<std::ptrdiff_t>(n / 2);
    std::nth_element(values.begin(), middle, values.end());
    if (n % 2 == 1) {
        return *middle;
    }
    // numpy.median averages the two middle values (rather than interpolating): the same value up
    // to the last bit, and the last bit is what an exact comparison with numpy sees.
    const double lower = *std::max_element(values.begin(), middle);
    return (lower + *middle) / 2.0;
}

std::vector<double> even_sample(std::span<const double> values, std::size_t max_count) {
    const std::size_t n = values.size();
    if (n <= max_count || max_count == 0) {
        return {values.begin(), values.end()};
    }
    std::vector<double> sample;
    sample.reserve(max_count);
    for (std::size_t i = 0; i < max_count; ++i) {
        sample.push_back(values[i * n / max_count]);
    }
    return sample;
}

double robust_stddev_in_place(std::span<double> values, double median) {
    if (values.empty()) {
        return nan;
    }
    for (double& v : values) {
        v = std::abs(v - median);
    }
    return mad_to_sigma * median_in_place(values);
}

std::vector<double> quantiles_in_place(std::span<double> values, std::span<const double> qs) {
    std::vector<double> result(qs.size(), nan);
    const std::size_t n = values.size();
    if (n == 0) {
        return result;
    }
    // Place the needed order statistics one after another: after placing rank r, everything to
    // its right is >= it, so the next (higher) rank only needs a selection in the tail. The
    // total cost is a few linear passes, not a sort.
    std::size_t placed = 0;  // ranks [0, placed) are final
    auto place = [&](std::size_t rank) {
        if (rank < placed) {
            return;
        }
        auto first = values.begin() + static_cast<std::ptrdiff_t>(placed);
        auto target = values.begin() + static_cast<std::ptrdiff_t>(rank);
        if (rank == placed) {
            std::iter_swap(first, std::min_element(first, values.end()));
        } else {
            std::nth_element(first, target, values.end());
        }
        placed = rank + 1;
    };
    for (std::size_t i = 0; i < qs.size(); ++i) {
        const Position p = position(n, qs[i]);
        place(p.below);
        if (p.fraction > 0.0) {
            place(p.below + 1);
            result[i] = lerp(values[p.below], values[p.below + 1], p.fraction);
        } else {
            result[i] = values[p.below];
        }
    }
    return result;
}

double quantile_in_place(std::span<double> values, double q) {
    const double qs[] = {q};
    return quantiles_in_place(values, qs)[0];
}

}  // namespace ppsbench::stats
