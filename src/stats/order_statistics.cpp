// SPDX-License-Identifier: GPL-2.0-or-later
#include "order_statistics.hpp"

#include "ppsbench/stats/confidence.hpp"

#include <cstdint>

#include "ppsbench/core/simd_target.hpp"

#if PPSBENCH_HAVE_SSE2
#include <emmintrin.h>
#endif

namespace ppsbench::stats::detail {

RankSelector::RankSelector(std::vector<double> sample, bool whole, std::size_t n,
                           std::vector<std::size_t> ranks)
    : sample_(std::move(sample)), n_(n), pending_(std::move(ranks)) {
    if (whole) {
        // The sample is every value: sorted, it answers every rank.
        for (std::size_t r : pending_) {
            found_.emplace_back(r, sample_[r]);
        }
        pending_.clear();
        done_ = true;
        return;
    }
    plan();
}

void RankSelector::plan() {
    windows_.clear();
    const auto s = static_cast<double>(sample_.size());
    for (std::size_t r : pending_) {
        // The sample position of rank r = q·n has a binomial spread of √(s·q·(1 − q)): ±(5 of
        // those + 24) brackets it all but always, and each widening multiplies the margin by 8.
        // A window holds a few per cent of the values near the median and far fewer in the
        // tails (p99.9 …), and every value inside one costs a look.
        const double q = (static_cast<double>(r) + 0.5) / static_cast<double>(n_);
        const double margin = widen_ * (5.0 * std::sqrt(s * q * (1.0 - q)) + 24.0);
        const double p = q * s;
        const double lo_index = std::floor(p - margin);
        const double hi_index = std::ceil(p + margin);
        Window w;
        w.lo = lo_index < 0.0 ? -INFINITY : sample_[static_cast<std::size_t>(lo_index)];
        w.hi = hi_index >= s ? INFINITY : sample_[static_cast<std::size_t>(hi_index)];
        w.ranks.push_back(r);
        w.first_index = std::max(lo_index, 0.0);
        w.last_index = std::min(hi_index, s);
        if (!windows_.empty() && w.lo <= windows_.back().hi) {
            Window& last = windows_.back();
            last.hi = std::max(last.hi, w.hi);
            last.ranks.push_back(r);
            last.first_index = std::min(last.first_index, w.first_index);
            last.last_index = std::max(last.last_index, w.last_index);
        } else {
            windows_.push_back(std::move(w));
        }
    }
    for (Window& w : windows_) {
        // The share of the sample inside the window, of the whole series, and some more: room
        // made at once rather than doubled (and copied) as the values come. Never more than a
        // pass can gather (a window over everything: n).
        const double share = (w.last_index - w.first_index) / s * 1.125;
        const double expected = std::min(share, 1.0) * static_cast<double>(n_);
        w.expected = std::min(static_cast<std::size_t>(expected) + 256, n_ + lane_count);
    }
    below_.assign(windows_.size(), 0);
    equal_.assign(windows_.size(), 0);
}

void RankSelector::flush() {
    const std::size_t count = batched_;
    batched_ = 0;
    for (std::size_t j = 0; j < windows_.size(); ++j) {
        Window& w = windows_[j];
        const double lo = w.lo;
        const double hi = w.hi;
        std::size_t below = 0;
        if (lo == hi) {
            std::size_t inside = 0;
            for (std::size_t i = 0; i < count; ++i) {
                below += static_cast<std::size_t>(batch_[i] < lo);
                inside += static_cast<std::size_t>(batch_[i] == lo);
            }
            below_[j] += below;
            equal_[j] += inside;
            continue;
        }
        // Few values fall inside a window (a few percent): count those below it and flag those
        // inside two at a time, and append only the flagged ones.
        std::size_t i = 0;
#if PPSBENCH_HAVE_SSE2
        const __m128d lo2 = _mm_set1_pd(lo);
        const __m128d hi2 = _mm_set1_pd(hi);
        __m128i below2 = _mm_setzero_si128();
        for (; i + 2 <= count; i += 2) {
            const __m128d v = _mm_loadu_pd(batch_ + i);
            // Ordered comparisons, false for NaN, as the scalar ones below.
            below2 = _mm_sub_epi64(below2, _mm_castpd_si128(_mm_cmplt_pd(v, lo2)));
            const int in = _mm_movemask_pd(_mm_and_pd(_mm_cmple_pd(lo2, v), _mm_cmple_pd(v, hi2)));
            if (in != 0) [[unlikely]] {
                if ((in & 1) != 0) {
                    w.values.push_back(batch_[i]);
                }
                if ((in & 2) != 0) {
                    w.values.push_back(batch_[i + 1]);
                }
            }
        }
        std::uint64_t lanes[2];
        _mm_storeu_si128(reinterpret_cast<__m128i*>(lanes), below2);
        below += static_cast<std::size_t>(lanes[0] + lanes[1]);
#endif
        for (; i < count; ++i) {
            const double v = batch_[i];
            below += static_cast<std::size_t>(v < lo);
            if (v >= lo && v <= hi) {
                w.values.push_back(v);
            }
        }
        below_[j] += below;
    }
}

void RankSelector::begin_pass() {
    for (Window& w : windows_) {
        w.values.clear();
        if (w.lo < w.hi) {
            w.values.reserve_more(w.expected);
        }
    }
    std::fill(below_.begin(), below_.end(), std::size_t{0});
    std::fill(equal_.begin(), equal_.end(), std::size_t{0});
    batched_ = 0;
}

bool RankSelector::end_pass() {
    flush();
    std::vector<std::size_t> missed;
    for (std::size_t j = 0; j < windows_.size(); ++j) {
        Window& w = windows_[j];
        const std::size_t below = below_[j];
        const std::size_t inside = w.lo == w.hi ? equal_[j] : w.values.size();
        std::size_t placed = 0;  // values[0, placed) are final (ranks ascend)
        for (std::size_t r : w.ranks) {
            if (r < below || r >= below + inside) {
                missed.push_back(r);
                continue;
            }
            if (w.lo == w.hi) {
                found_.emplace_back(r, w.lo);
                continue;
            }
            const std::size_t local = r - below;
            if (local >= placed) {
                double* first = w.values.begin() + placed;
                double* target = w.values.begin() + local;
                std::nth_element(first, target, w.values.end());
                placed = local + 1;
            }
            found_.emplace_back(r, w.values[local]);
        }
        w.values.release();
    }
    pending_ = std::move(missed);
    if (pending_.empty()) {
        windows_.clear();
        done_ = true;
        return true;
    }
    widen_ *= 8;
    plan();
    return false;
}

double RankSelector::value(std::size_t rank) const {
    for (const auto& [r, v] : found_) {
        if (r == rank) {
            return v;
        }
    }
    return nan;
}

std::vector<double> sorted_distances(std::span<const double> sorted, double c) {
    // Left of c the distances fall as x rises, right of c they rise: two sorted runs.
    const auto split = static_cast<std::size_t>(std::lower_bound(sorted.begin(), sorted.end(), c) -
                                                sorted.begin());
    std::vector<double> out;
    out.reserve(sorted.size());
    std::size_t left = split;  // next left candidate is sorted[left - 1]
    std::size_t right = split;
    while (left > 0 || right < sorted.size()) {
        const double dl = left > 0 ? std::abs(sorted[left - 1] - c) : INFINITY;
        const double dr = right < sorted.size() ? std::abs(sorted[right] - c) : INFINITY;
        if (left > 0 && (dl <= dr || right == sorted.size())) {
            out.push_back(dl);
            --left;
        } else {
            out.push_back(dr);
            ++right;
        }
    }
    return out;
}

Summary finish_moments(std::size_t n, double lo, double hi, long double sum,
                       long double squared_deviations, long double squares) {
    Summary s;
    if (n == 0) {
        s.mean = s.stddev = s.min = s.max = s.peak_to_peak = s.rms = nan;
        return s;
    }
    const auto count = static_cast<long double>(n);
    const long double mean = sum / count;
    s.count = n;
    s.mean = static_cast<double>(mean);
    s.stddev = n > 1 ? static_cast<double>(std::sqrt(squared_deviations / (count - 1))) : nan;
    s.min = lo;
    s.max = hi;
    s.peak_to_peak = hi - lo;
    s.rms = static_cast<double>(std::sqrt(squares / count));
    s.stddev_ci95 = stddev_interval(s.stddev, n, 0.95);
    return s;
}

std::vector<std::size_t> median_ranks(std::size_t n) {
    return n % 2 == 1 ? std::vector<std::size_t>{n / 2}
                      : std::vector<std::size_t>{n / 2 - 1, n / 2};
}

std::vector<std::size_t> quantile_ranks(std::size_t n, std::span<const double> qs) {
    std::vector<std::size_t> ranks;
    for (double q : qs) {
        const Position p = position(n, q);
        ranks.push_back(p.below);
        if (p.fraction > 0.0) {
            ranks.push_back(p.below + 1);
        }
    }
    std::sort(ranks.begin(), ranks.end());
    ranks.erase(std::unique(ranks.begin(), ranks.end()), ranks.end());
    return ranks;
}

std::vector<std::size_t> median_and_quantile_ranks(std::size_t n, std::span<const double> qs) {
    std::vector<std::size_t> ranks = median_ranks(n);
    for (std::size_t r : quantile_ranks(n, qs)) {
        ranks.push_back(r);
    }
    std::sort(ranks.begin(), ranks.end());
    ranks.erase(std::unique(ranks.begin(), ranks.end()), ranks.end());
    return ranks;
}

double median_of(const RankSelector& selector, std::size_t n) {
    const double upper = selector.value(n / 2);
    return n % 2 == 1 ? upper : (selector.value(n / 2 - 1) + upper) / 2.0;
}

double quantile_of(const RankSelector& selector, std::size_t n, double q) {
    const Position p = position(n, q);
    return p.fraction > 0.0 ? lerp(selector.value(p.below), selector.value(p.below + 1), p.fraction)
                            : selector.value(p.below);
}

}  // namespace ppsbench::stats::detail
