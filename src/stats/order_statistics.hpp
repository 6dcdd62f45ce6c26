#pragma once

// Internal: exact summaries of a series that is *read*, never copied or reordered.
//
// A series here is a callable `visit(f)` that calls f(double) for every value in order; it may
// read a buffer, skip flagged values or compute each value on the fly. That lets analyze()
// summarise a series, the same series without its outliers and the period jitter (computed from
// the timestamps) with no per-series scratch copy: at 10 M pulses every copy is 80 MB.
//
// Order statistics come from one streaming pass per kind (x, |x| and |x − median|) in the
// manner of Floyd & Rivest's selection: an even sample of ~65 k values brackets each wanted
// rank in a narrow value window; the pass counts the values below each window and gathers the
// few inside it; a selection among those gives the exact order statistic. If a bracket misses
// (a sample can be unlucky) the window is widened and the pass repeated, up to the whole range,
// so the result is always exact, and identical to a selection over a sorted copy.

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <span>
#include <vector>

#include "ppsbench/stats/quantile.hpp"
#include "ppsbench/stats/summary.hpp"

namespace ppsbench::stats::detail {

inline constexpr double nan = std::numeric_limits<double>::quiet_NaN();

// numpy's _lerp: a + (b − a)·t, but computed from b when t ≥ 0.5 so that t = 1 gives exactly b.
inline double lerp(double a, double b, double t) {
    const double diff = b - a;
    return t >= 0.5 ? b - diff * (1.0 - t) : a + diff * t;
}

// numpy's "linear" quantile position h = q·(n − 1), split into floor and fraction.
struct Position {
    std::size_t below;  // floor(h)
    double fraction;    // h − floor(h)
};

inline Position position(std::size_t n, double q) {
    const double h = q * static_cast<double>(n - 1);
    const double below = std::floor(h);
    auto index = static_cast<std::size_t>(below);
    if (index >= n - 1) {
        return {n - 1, 0.0};
    }
    return {index, h - below};
}

// Σ term over a stream, in the exact order of summary.cpp's blocked_sum: blocks of 1024 values
// summed in four double lanes (whole groups of four; a short last group into lane 0), the
// block sums added in long double. Same order, same roundings, same bits.
class BlockedSum {
  public:
    [[gnu::always_inline]] void add(double term) {
        group_[grouped_++] = term;
        if (grouped_ == 4) {
            lanes_[0] += group_[0];
            lanes_[1] += group_[1];
            lanes_[2] += group_[2];
            lanes_[3] += group_[3];
            grouped_ = 0;
        }
        if (++in_block_ == block) {
            flush();
        }
    }
    long double total() {
        if (in_block_ > 0) {
            flush();
        }
        return total_;
    }

  private:
    static constexpr std::size_t block = 1024;
    void flush() {
        for (std::size_t i = 0; i < grouped_; ++i) {
            lanes_[0] += group_[i];
        }
        total_ += (static_cast<long double>(lanes_[0]) + lanes_[1]) + (lanes_[2] + lanes_[3]);
        lanes_[0] = lanes_[1] = lanes_[2] = lanes_[3] = 0;
        grouped_ = 0;
        in_block_ = 0;
    }
    long double total_ = 0;
    double lanes_[4] = {0, 0, 0, 0};
    double group_[4] = {0, 0, 0, 0};
    std::size_t grouped_ = 0;
    std::size_t in_block_ = 0;
};

// Exact order statistics (ranks) of n streamed values; see the header comment.
class RankSelector {
  public:
    // `sample`: values taken at an even stride, ascending; `whole` says it is every value, in
    // which case the answers come straight from it and no pass is needed.
    RankSelector(std::vector<double> sample, bool whole, std::size_t n,
                 std::vector<std::size_t> ranks);

    bool needs_pass() const { return !done_; }
    void begin_pass();
    // Values are buffered and handled a batch at a time, window by window: counting the values
    // below a window is then a branch-free loop the compiler vectorises, and only the few
    // values inside a window take a branch. (Per value, a search through the windows
    // mispredicts on random data and costs several times more.)
    [[gnu::always_inline]] void add(double v) {
        batch_[batched_++] = v;
        if (batched_ == batch_size) {
            flush();
        }
    }
    // Resolves the ranks the pass bracketed; false if some need another (wider) pass.
    bool end_pass();
    double value(std::size_t rank) const;

  private:
    struct Window {
        double lo;
        double hi;
        std::vector<std::size_t> ranks;
        std::vector<double> values;  // gathered when lo < hi
    };
    static constexpr std::size_t batch_size = 256;
    void flush();
    void plan();

    std::vector<double> sample_;  // sorted
    std::size_t n_;
    std::vector<std::size_t> pending_;  // ranks still to find, ascending
    std::vector<std::pair<std::size_t, double>> found_;
    std::vector<Window> windows_;
    std::vector<std::size_t> below_;  // per window: values < lo seen this pass
    std::vector<std::size_t> equal_;  // per window with lo == hi: values equal to it
    double batch_[batch_size] = {};
    std::size_t batched_ = 0;
    double widen_ = 1;
    bool done_ = false;
};

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

// |x − c| of ascending values, ascending, by merging the two monotone halves: no sort.
std::vector<double> sorted_distances(std::span<const double> sorted, double c);

// Every figure of Summary for a visited series of `n` values, plus the x-quantiles `extra_qs`
// (ascending, numpy-linear) for a histogram's range and bin width. `sample`: values of the
// series taken evenly (only steers the brackets: any sample gives the same, exact result);
// `whole`: it is every value of the series, so no pass needs to select.
template <typename Visit>
SummaryWithQuantiles summarize_series(Visit visit, std::size_t n, std::vector<double> sample,
                                      bool whole, std::span<const double> extra_qs = {}) {
    SummaryWithQuantiles out;
    out.extra.assign(extra_qs.size(), nan);
    if (n == 0) {
        out.summary = finish_moments(0, 0, 0, 0, 0, 0);
        return out;
    }
    if (sample.empty()) {
        whole = false;
        sample.push_back(0.0);  // brackets nothing useful; the widening passes still find all
    }
    std::sort(sample.begin(), sample.end());

    // The ranks each statistic needs (lerp pairs for interpolated quantiles).
    auto median_ranks = [n] {
        return n % 2 == 1 ? std::vector<std::size_t>{n / 2}
                          : std::vector<std::size_t>{n / 2 - 1, n / 2};
    };
    auto quantile_ranks = [n](std::span<const double> qs) {
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
    };
    static constexpr double abs_qs[] = {0.5, 0.9, 0.99, 0.999, 0.9999, 1.0};
    std::vector<std::size_t> x_ranks = median_ranks();
    for (std::size_t r : quantile_ranks(extra_qs)) {
        x_ranks.push_back(r);
    }
    std::sort(x_ranks.begin(), x_ranks.end());
    x_ranks.erase(std::unique(x_ranks.begin(), x_ranks.end()), x_ranks.end());
    RankSelector x_select(sample, whole, n, x_ranks);
    RankSelector abs_select(sorted_distances(sample, 0.0), whole, n, quantile_ranks(abs_qs));

    // Pass 1: the mean, the extremes, and the x and |x| order statistics.
    BlockedSum sum;
    double lo = 0;
    double hi = 0;
    bool first = true;
    x_select.begin_pass();
    abs_select.begin_pass();
    visit([&](double v) {
        if (first) {
            lo = hi = v;
            first = false;
        }
        lo = std::min(lo, v);
        hi = std::max(hi, v);
        sum.add(v);
        if (x_select.needs_pass()) {
            x_select.add(v);
        }
        if (abs_select.needs_pass()) {
            abs_select.add(std::abs(v));
        }
    });
    // A missed bracket costs another pass with a wider window (rare; the last resort brackets
    // everything, so this ends).
    while (x_select.needs_pass() && !x_select.end_pass()) {
        x_select.begin_pass();
        visit([&](double v) { x_select.add(v); });
    }
    while (abs_select.needs_pass() && !abs_select.end_pass()) {
        abs_select.begin_pass();
        visit([&](double v) { abs_select.add(std::abs(v)); });
    }
    const long double total = sum.total();
    const auto mean_d = static_cast<double>(total / static_cast<long double>(n));
    auto median_of = [n](const RankSelector& selector) {
        const double upper = selector.value(n / 2);
        return n % 2 == 1 ? upper : (selector.value(n / 2 - 1) + upper) / 2.0;
    };
    const double median = median_of(x_select);

    // Pass 2: deviations from the mean, and the median absolute deviation.
    RankSelector mad_select(sorted_distances(sample, median), whole, n, median_ranks());
    BlockedSum squared_deviations;
    BlockedSum squares;
    mad_select.begin_pass();
    visit([&](double v) {
        squared_deviations.add((v - mean_d) * (v - mean_d));
        squares.add(v * v);
        if (mad_select.needs_pass()) {
            mad_select.add(std::abs(v - median));
        }
    });
    while (mad_select.needs_pass() && !mad_select.end_pass()) {
        mad_select.begin_pass();
        visit([&](double v) { mad_select.add(std::abs(v - median)); });
    }

    Summary& s = out.summary;
    s = finish_moments(n, lo, hi, total, squared_deviations.total(), squares.total());
    s.median = median;
    auto quantile = [n](const RankSelector& selector, double q) {
        const Position p = position(n, q);
        return p.fraction > 0.0
                   ? lerp(selector.value(p.below), selector.value(p.below + 1), p.fraction)
                   : selector.value(p.below);
    };
    s.abs_percentiles = {quantile(abs_select, abs_qs[0]), quantile(abs_select, abs_qs[1]),
                         quantile(abs_select, abs_qs[2]), quantile(abs_select, abs_qs[3]),
                         quantile(abs_select, abs_qs[4]), quantile(abs_select, abs_qs[5])};
    for (std::size_t i = 0; i < extra_qs.size(); ++i) {
        out.extra[i] = quantile(x_select, extra_qs[i]);
    }
    s.robust_stddev = mad_to_sigma * median_of(mad_select);
    return out;
}

// The same where no sample is at hand: a first pass takes one.
template <typename Visit>
SummaryWithQuantiles summarize_series(Visit visit, std::size_t n,
                                      std::span<const double> extra_qs = {}) {
    SampleCollector collector;
    visit([&collector](double v) { collector.add(v); });
    const bool whole = collector.whole();
    return summarize_series(visit, n, collector.take(), whole, extra_qs);
}

// A series in a buffer: sampled by stride, no extra pass.
inline SummaryWithQuantiles summarize_buffer(std::span<const double> values,
                                             std::span<const double> extra_qs = {}) {
    return summarize_series(
        [values](auto&& f) {
            for (double v : values) {
                f(v);
            }
        },
        values.size(), strided_sample(values), values.size() <= sample_size, extra_qs);
}

}  // namespace ppsbench::stats::detail
