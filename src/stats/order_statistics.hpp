// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

// Internal: exact summaries of a series that is *read*, never copied or reordered.
//
// A series here is a callable `visit(f)` that calls f(double) for every value in order; it may
// read a buffer, skip flagged values or compute each value on the fly. That lets analyze()
// summarise a series, the same series without its outliers and the period jitter (computed from
// the timestamps) with no per-series scratch copy: at 10 M pulses every copy is 80 MB.
//
// Order statistics come from one streaming pass per kind (x, |x| and |x − median|), each
// exact (rank_selection.hpp): two passes in all unless a bracket misses. The summaries that
// use them, fed in blocks, are in streamed_summary.hpp.

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <span>
#include <vector>

#include "ppsbench/stats/quantile.hpp"
#include "ppsbench/stats/summary.hpp"
#include "rank_selection.hpp"
#include "sample_sort.hpp"

namespace ppsbench::stats::detail {

// Every figure of Summary for a visited series of `n` values, plus the x-quantiles `extra_qs`
// (ascending, numpy-linear) for a histogram's range and bin width.
struct SummaryWithQuantiles {
    Summary summary;
    std::vector<double> extra;
};

inline constexpr std::size_t sample_size = 65536;

Summary finish_moments(std::size_t n, double lo, double hi, long double sum,
                       long double squared_deviations, long double squares);

// An even sample of a stream of unknown length: every stride-th value, the stride doubling
// (and every other value kept) whenever the sample reaches twice its target size.
class SampleCollector {
  public:
    void add(double v) {
        if (--countdown_ == 0) {
            values_.push_back(v);
            countdown_ = stride_;
            if (values_.size() == 2 * sample_size) {
                for (std::size_t i = 0; i < sample_size; ++i) {
                    values_[i] = values_[2 * i];
                }
                values_.resize(sample_size);
                // The last kept value is now the one before the dropped last one: the next
                // one is due after the old stride, as countdown_ already says.
                stride_ *= 2;
            }
        }
    }
    bool whole() const { return stride_ == 1; }
    std::vector<double> take() { return std::move(values_); }

  private:
    std::vector<double> values_;
    std::size_t stride_ = 1;
    std::size_t countdown_ = 1;
};

// Up to ~sample_size values of `values` at an even stride.
inline std::vector<double> strided_sample(std::span<const double> values) {
    const std::size_t stride = std::max<std::size_t>(1, values.size() / sample_size);
    std::vector<double> sample;
    sample.reserve(values.size() / stride + 1);
    for (std::size_t i = 0; i < values.size(); i += stride) {
        sample.push_back(values[i]);
    }
    return sample;
}

// The ranks each statistic needs, ascending and unique: the median's one or two, and both
// neighbours of an interpolated quantile.
std::vector<std::size_t> median_ranks(std::size_t n);
std::vector<std::size_t> quantile_ranks(std::size_t n, std::span<const double> qs);
// The median's ranks and the quantiles' together, for the one x selector.
std::vector<std::size_t> median_and_quantile_ranks(std::size_t n, std::span<const double> qs);

// numpy's median and linear quantile of n values from a selector that found their ranks.
double median_of(const RankSelector& selector, std::size_t n);
double quantile_of(const RankSelector& selector, std::size_t n, double q);

// The |x| quantiles of AbsPercentiles, in its order.
inline constexpr double abs_quantiles[] = {0.5, 0.9, 0.99, 0.999, 0.9999, 1.0};

// A missed bracket costs another pass with a wider window (rare; the last resort brackets
// everything, so this ends). `map` turns a series value into what the selector ranks.
template <typename Visit, typename Map>
void finish_selection(RankSelector& selector, Visit& visit, Map map) {
    while (selector.needs_pass() && !selector.end_pass()) {
        selector.begin_pass();
        visit([&](double v) { selector.add(map(v)); });
    }
}

// numpy's median of the n values map(v) of a visited series, which is read and not copied: the
// value median_in_place() gives on a copy of them. `sample`: some of the mapped values, in any
// order (it only steers the brackets).
template <typename Visit, typename Map>
double visited_median(Visit visit, std::size_t n, std::vector<double> sample, Map map) {
    if (n == 0) {
        return nan;
    }
    if (sample.empty()) {
        sample.push_back(0.0);
    }
    sort_sample(sample);
    RankSelector select(std::move(sample), false, n, median_ranks(n));
    select.begin_pass();
    visit([&](double v) { select.add(map(v)); });
    finish_selection(select, visit, map);
    return median_of(select, n);
}

}  // namespace ppsbench::stats::detail
