// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once

// Internal: summarize_series() (order_statistics.hpp) cut at its passes, so that one walk over
// a series that is costly to visit can feed several summaries. The period jitter is computed
// from the timestamps on every pass, with and without its outliers (period_jitter.cpp): one
// walk for both halves the walks. Each summary sees the values it is given in order, through
// the same operations as in summarize_series(), so it gives the same bits
// (tests/stats/streaming_exactness_test.cpp holds it to that).
//
// Use: begin_first(); first(v) for every value; end_first(visit); begin_second(); second(v)
// for every value; end_second(visit); summary(). `visit` walks this summary's series alone,
// for the rare extra pass a missed bracket needs.

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <optional>
#include <utility>
#include <vector>

#include "order_statistics.hpp"

namespace ppsbench::stats::detail {

class StreamedSummary {
  public:
    // `n` values; `sample`, `whole`: as summarize_series() takes them.
    StreamedSummary(std::size_t n, std::vector<double> sample, bool whole)
        : n_(n), sample_(std::move(sample)), whole_(whole) {
        if (n_ == 0) {
            return;
        }
        if (sample_.empty()) {
            whole_ = false;
            sample_.push_back(0.0);  // brackets nothing useful; the widening passes still find all
        }
        std::sort(sample_.begin(), sample_.end());
        x_.emplace(sample_, whole_, n_, median_and_quantile_ranks(n_, {}));
        abs_.emplace(sorted_distances(sample_, 0.0), whole_, n_, quantile_ranks(n_, abs_quantiles));
    }

    void begin_first() {
        if (n_ > 0) {
            x_->begin_pass();
            abs_->begin_pass();
        }
    }
    [[gnu::always_inline]] void first(double v) {
        if (first_value_) {
            lo_ = hi_ = v;
            first_value_ = false;
        }
        lo_ = std::min(lo_, v);
        hi_ = std::max(hi_, v);
        sum_.add(v);
        if (x_->needs_pass()) {
            x_->add(v);
        }
        if (abs_->needs_pass()) {
            abs_->add(std::abs(v));
        }
    }
    template <typename Visit>
    void end_first(Visit& visit) {
        if (n_ == 0) {
            return;
        }
        finish_selection(*x_, visit, [](double v) { return v; });
        finish_selection(*abs_, visit, [](double v) { return std::abs(v); });
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
    [[gnu::always_inline]] void second(double v) {
        squared_deviations_.add((v - mean_) * (v - mean_));
        squares_.add(v * v);
        if (mad_->needs_pass()) {
            mad_->add(std::abs(v - median_));
        }
    }
    template <typename Visit>
    void end_second(Visit& visit) {
        if (n_ > 0) {
            const double median = median_;
            finish_selection(*mad_, visit, [median](double v) { return std::abs(v - median); });
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

  private:
    std::size_t n_;
    std::vector<double> sample_;
    bool whole_;
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

    [[gnu::always_inline]] void first(double v) {
        if (first_value_) {
            lo_ = hi_ = v;
            first_value_ = false;
        }
        lo_ = std::min(lo_, v);
        hi_ = std::max(hi_, v);
        sum_.add(v);
    }
    void end_first() {
        total_ = sum_.total();
        if (n_ > 0) {
            mean_ = static_cast<double>(total_ / static_cast<long double>(n_));
        }
    }
    [[gnu::always_inline]] void second(double v) {
        squared_deviations_.add((v - mean_) * (v - mean_));
        squares_.add(v * v);
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

// StreamedMoments over a visited series of `n` values: two passes.
template <typename Visit>
Summary summarize_moments(Visit visit, std::size_t n) {
    StreamedMoments moments(n);
    visit([&moments](double v) { moments.first(v); });
    moments.end_first();
    visit([&moments](double v) { moments.second(v); });
    return moments.summary();
}

// A full summary cut down to what StreamedMoments gives: the order statistics made NaN.
inline Summary moments_only(Summary s) {
    s.median = Summary::nan;
    s.robust_stddev = Summary::nan;
    s.abs_percentiles = AbsPercentiles{};
    return s;
}

}  // namespace ppsbench::stats::detail
