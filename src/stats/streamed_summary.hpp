// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

// Internal: summarize_series() (order_statistics.hpp) cut at its passes, so that one walk over
// a series that is costly to visit can feed several summaries. The period jitter is computed
// from the timestamps on every pass, with and without its outliers (period_jitter.cpp): one
// walk for both halves the walks. Each summary sees the values it is given in order, through
// the same operations as in summarize_series(), so it gives the same bits
// (tests/stats/streaming_exactness_test.cpp holds it to that).
//
// Use: begin_first(); first(values, count) for every block of the series, in order;
// end_first(visit); begin_second(); second(values, count) for every block; end_second(visit);
// summary(). `visit(f)` calls f(values, count) for the blocks of this summary's series alone,
// for the rare extra pass a missed bracket needs. The blocks may have any sizes: the kernels
// (summary_passes.hpp) keep the order of the sums.

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <optional>
#include <utility>
#include <vector>

#include "order_statistics.hpp"
#include "summary_passes.hpp"

namespace ppsbench::stats::detail {

class StreamedSummary {
  public:
    // `n` values; `sample`, `whole`: as summarize_series() takes them; `extra_qs`: x-quantiles
    // (ascending, numpy-linear) to find beside the summary, for a histogram.
    StreamedSummary(std::size_t n, std::vector<double> sample, bool whole,
                    std::span<const double> extra_qs = {})
        : n_(n), sample_(std::move(sample)), whole_(whole), extra_qs_(extra_qs) {
        if (n_ == 0) {
            return;
        }
        if (sample_.empty()) {
            whole_ = false;
            sample_.push_back(0.0);  // brackets nothing useful; the widening passes still find all
        }
        sort_sample(sample_);
        x_.emplace(sample_, whole_, n_, median_and_quantile_ranks(n_, extra_qs_));
        abs_.emplace(sorted_distances(sample_, 0.0), whole_, n_, quantile_ranks(n_, abs_quantiles));
    }

    void begin_first() {
        if (n_ > 0) {
            x_->begin_pass();
            abs_->begin_pass();
        }
    }
    void first(const double* v, std::size_t count) {
        if (count == 0) {
            return;
        }
        if (first_value_) {
            lo_ = hi_ = v[0];
            first_value_ = false;
        }
        first_pass_block({&sum_, &lo_, &hi_, x_->needs_pass() ? &*x_ : nullptr,
                          abs_->needs_pass() ? &*abs_ : nullptr},
                         v, count);
    }
    template <typename Visit>
    void end_first(Visit& visit) {
        if (n_ == 0) {
            return;
        }
        finish_block_selection(*x_, visit, false, 0.0);
        finish_block_selection(*abs_, visit, true, 0.0);
        total_ = sum_.total();
        mean_ = static_cast<double>(total_ / static_cast<long double>(n_));
        median_ = median_of(*x_, n_);
        mad_.emplace(sorted_distances(sample_, median_), whole_, n_, median_ranks(n_));
    }

    void begin_second() {
        if (n_ > 0) {
            mad_->begin_pass();
        }
    }
    void second(const double* v, std::size_t count) {
        if (count == 0) {
            return;
        }
        second_pass_block({&squared_deviations_, &squares_, mean_, median_,
                           mad_->needs_pass() ? &*mad_ : nullptr},
                          v, count);
    }
    template <typename Visit>
    void end_second(Visit& visit) {
        if (n_ > 0) {
            finish_block_selection(*mad_, visit, true, median_);
        }
    }

    Summary summary() {
        if (n_ == 0) {
            return finish_moments(0, 0, 0, 0, 0, 0);
        }
        Summary s =
            finish_moments(n_, lo_, hi_, total_, squared_deviations_.total(), squares_.total());
        s.median = median_;
        double abs_q[std::size(abs_quantiles)];
        for (std::size_t i = 0; i < std::size(abs_quantiles); ++i) {
            abs_q[i] = quantile_of(*abs_, n_, abs_quantiles[i]);
        }
        s.abs_percentiles = {abs_q[0], abs_q[1], abs_q[2], abs_q[3], abs_q[4], abs_q[5]};
        s.robust_stddev = mad_to_sigma * median_of(*mad_, n_);
        return s;
    }
    // The x-quantiles asked for at construction, in their order (NaN without values).
    std::vector<double> extra() const {
        std::vector<double> out(extra_qs_.size(), nan);
        for (std::size_t i = 0; n_ > 0 && i < extra_qs_.size(); ++i) {
            out[i] = quantile_of(*x_, n_, extra_qs_[i]);
        }
        return out;
    }
    double mean() const { return mean_; }      // after end_first()
    double median() const { return median_; }  // after end_first()

  private:
    std::size_t n_;
    std::vector<double> sample_;
    bool whole_;
    std::span<const double> extra_qs_;
    std::optional<RankSelector> x_;
    std::optional<RankSelector> abs_;
    std::optional<RankSelector> mad_;
    BlockedSum sum_;
    BlockedSum squared_deviations_;
    BlockedSum squares_;
    bool first_value_ = true;
    double lo_ = 0;
    double hi_ = 0;
    long double total_ = 0;
    double mean_ = 0;
    double median_ = 0;
};

// The moments of a series (count, mean, σ and its interval, min, max, peak-to-peak, RMS) by
// the operations of summarize_series(), so the same bits; the order statistics (median,
// robust σ, |x| percentiles) stay NaN, as RunningSummary leaves them. For the series without
// outliers, of which the report gives σ alone: their order statistics cost three selections
// each. Use: first(v) for every value; end_first(); second(v) for every value; summary().
class StreamedMoments {
  public:
    explicit StreamedMoments(std::size_t n) : n_(n) {}

    void first(const double* v, std::size_t count) {
        if (count == 0) {
            return;
        }
        if (first_value_) {
            lo_ = hi_ = v[0];
            first_value_ = false;
        }
        first_pass_block({&sum_, &lo_, &hi_, nullptr, nullptr}, v, count);
    }
    void end_first() {
        total_ = sum_.total();
        if (n_ > 0) {
            mean_ = static_cast<double>(total_ / static_cast<long double>(n_));
        }
    }
    void second(const double* v, std::size_t count) {
        if (count > 0) {
            second_pass_block({&squared_deviations_, &squares_, mean_, 0.0, nullptr}, v, count);
        }
    }
    Summary summary() {
        if (n_ == 0) {
            return finish_moments(0, 0, 0, 0, 0, 0);
        }
        return finish_moments(n_, lo_, hi_, total_, squared_deviations_.total(), squares_.total());
    }

  private:
    std::size_t n_;
    BlockedSum sum_;
    BlockedSum squared_deviations_;
    BlockedSum squares_;
    bool first_value_ = true;
    double lo_ = 0;
    double hi_ = 0;
    long double total_ = 0;
    double mean_ = 0;
};

// StreamedMoments over a series of `n` values visited in blocks: two passes.
template <typename Visit>
Summary summarize_moments(Visit visit, std::size_t n) {
    StreamedMoments moments(n);
    visit([&moments](const double* v, std::size_t count) { moments.first(v, count); });
    moments.end_first();
    visit([&moments](const double* v, std::size_t count) { moments.second(v, count); });
    return moments.summary();
}

// Every figure of Summary for a series of `n` values visited in blocks, plus the x-quantiles
// `extra_qs` (ascending, numpy-linear) for a histogram's range and bin width. `sample`: values
// of the series taken evenly (only steers the brackets: any sample gives the same, exact
// result); `whole`: it is every value of the series, so no pass needs to select.
template <typename Visit>
SummaryWithQuantiles summarize_series(Visit visit, std::size_t n, std::vector<double> sample,
                                      bool whole, std::span<const double> extra_qs = {}) {
    StreamedSummary summary(n, std::move(sample), whole, extra_qs);
    summary.begin_first();
    visit([&summary](const double* v, std::size_t count) { summary.first(v, count); });
    summary.end_first(visit);
    summary.begin_second();
    visit([&summary](const double* v, std::size_t count) { summary.second(v, count); });
    summary.end_second(visit);
    return {summary.summary(), summary.extra()};
}

// A series in a buffer: sampled by stride, read in slices.
inline SummaryWithQuantiles summarize_buffer(std::span<const double> values,
                                             std::span<const double> extra_qs = {}) {
    return summarize_series([values](auto&& f) { for_each_slice(values, f); }, values.size(),
                            strided_sample(values), values.size() <= sample_size, extra_qs);
}

// A full summary cut down to what StreamedMoments gives: the order statistics made NaN.
inline Summary moments_only(Summary s) {
    s.median = Summary::nan;
    s.robust_stddev = Summary::nan;
    s.abs_percentiles = AbsPercentiles{};
    return s;
}

}  // namespace ppsbench::stats::detail
