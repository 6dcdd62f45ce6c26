// SPDX-License-Identifier: GPL-2.0-or-later
// The summaries and MTIE read their series in streaming passes (order_statistics.hpp,
// stability.cpp) instead of selecting over a copy. These tests pin them to the plain
// definitions - sort a copy, a sliding-window scan - past the sizes where the streaming paths
// take over (65 536 samples for the summaries, 8193-sample windows for MTIE), on the inputs
// that break bracketing schemes: ties, atoms, heavy tails, sorted runs, gaps.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <deque>
#include <random>
#include <vector>

#include "ppsbench/stats/histogram.hpp"
#include "ppsbench/stats/quantile.hpp"
#include "ppsbench/stats/stability.hpp"
#include "ppsbench/stats/summary.hpp"
// Internal: the in-place median analyze()'s drift check uses, and the pulse index it walks.
#include "../../src/stats/order_statistics.hpp"
#include "../../src/stats/train_detail.hpp"

namespace {

using namespace ppsbench::stats;

double median_of_sorted(const std::vector<double>& s) {
    const std::size_t n = s.size();
    return n % 2 == 1 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2.0;
}

std::vector<double> series(std::size_t n, int kind, std::mt19937_64& rng) {
    std::normal_distribution<double> normal(-300.0, 20.0);
    std::vector<double> v(n);
    for (std::size_t i = 0; i < n; ++i) {
        switch (kind) {
            case 0:
                v[i] = normal(rng);
                break;
            case 1:
                v[i] = 5.0;
                break;  // all equal
            case 2:
                v[i] = rng() % 3 == 0 ? 1.0 : -2.0;
                break;  // two atoms
            case 3:     // ties and wild values
                v[i] = std::round(normal(rng)) + (rng() % 1000 == 0 ? 1e6 : 0.0);
                break;
            case 4:
                v[i] = i < n / 2 ? 0.0 : normal(rng);
                break;  // half one value
            default:
                v[i] = static_cast<double>(n - i);
                break;  // descending
        }
    }
    return v;
}

TEST(StreamingExactness, SummaryOrderStatisticsEqualThoseOfASortedCopy) {
    std::mt19937_64 rng(11);
    for (std::size_t n : {65535UL, 65537UL, 131073UL, 200001UL}) {
        for (int kind = 0; kind < 6; ++kind) {
            const auto v = series(n, kind, rng);
            const Summary s = summarize(v);
            std::vector<double> sorted(v);
            std::sort(sorted.begin(), sorted.end());
            const double median = median_of_sorted(sorted);
            std::vector<double> distance(n);
            std::vector<double> magnitude(n);
            for (std::size_t i = 0; i < n; ++i) {
                distance[i] = std::abs(v[i] - median);
                magnitude[i] = std::abs(v[i]);
            }
            std::sort(distance.begin(), distance.end());
            std::sort(magnitude.begin(), magnitude.end());
            SCOPED_TRACE(::testing::Message() << "n = " << n << ", kind " << kind);
            EXPECT_EQ(s.median, median);
            EXPECT_EQ(s.robust_stddev, mad_to_sigma * median_of_sorted(distance));
            EXPECT_EQ(s.min, sorted.front());
            EXPECT_EQ(s.max, sorted.back());
            EXPECT_EQ(s.abs_percentiles.p50, quantile_sorted(magnitude, 0.5));
            EXPECT_EQ(s.abs_percentiles.p90, quantile_sorted(magnitude, 0.9));
            EXPECT_EQ(s.abs_percentiles.p99, quantile_sorted(magnitude, 0.99));
            EXPECT_EQ(s.abs_percentiles.p99_9, quantile_sorted(magnitude, 0.999));
            EXPECT_EQ(s.abs_percentiles.p99_99, quantile_sorted(magnitude, 0.9999));
            EXPECT_EQ(s.abs_percentiles.max, magnitude.back());
            EXPECT_EQ(make_histogram(v).total(), n);
        }
    }
}

// max − min over every window of `width` samples present, by monotonic deques (an independent
// O(N) method); −1 when no window holds a sample.
double sliding_mtie(const std::vector<double>& x, std::size_t width) {
    std::deque<std::size_t> highs;
    std::deque<std::size_t> lows;
    double best = -1.0;
    for (std::size_t i = 0; i < x.size(); ++i) {
        if (!std::isnan(x[i])) {
            while (!highs.empty() && x[highs.back()] <= x[i]) {
                highs.pop_back();
            }
            highs.push_back(i);
            while (!lows.empty() && x[lows.back()] >= x[i]) {
                lows.pop_back();
            }
            lows.push_back(i);
        }
        if (i + 1 < width) {
            continue;
        }
        const std::size_t start = i + 1 - width;
        while (!highs.empty() && highs.front() < start) {
            highs.pop_front();
        }
        while (!lows.empty() && lows.front() < start) {
            lows.pop_front();
        }
        if (!highs.empty()) {
            best = std::max(best, x[highs.front()] - x[lows.front()]);
        }
    }
    return best;
}

TEST(StreamingExactness, MtieEqualsASlidingWindowScanWithGaps) {
    std::mt19937_64 rng(3);
    std::uniform_real_distribution<double> uniform(-1.0, 1.0);
    for (int trial = 0; trial < 12; ++trial) {
        const std::size_t n = 1 + rng() % 40000;
        const double missing = trial % 3 == 0 ? 0.0 : (trial % 3 == 1 ? 0.01 : 0.6);
        std::vector<double> x(n);
        for (double& v : x) {
            v = (uniform(rng) + 1.0) / 2.0 < missing ? NAN : uniform(rng) * 1e-9;
        }
        const std::vector<std::size_t> factors = {0,    1,    2,     3,     7,     1024, 8191, 8192,
                                                  8193, 8194, 12000, 19999, n - 1, n,    n + 1};
        const auto got = mtie(x, factors);
        for (std::size_t k = 0; k < factors.size(); ++k) {
            const std::size_t width = factors[k] + 1;
            const double best = factors[k] != 0 && width <= n ? sliding_mtie(x, width) : -1.0;
            SCOPED_TRACE(::testing::Message() << "n = " << n << ", m = " << factors[k]);
            if (best >= 0.0) {
                EXPECT_EQ(got[k], best);
            } else {
                EXPECT_TRUE(std::isnan(got[k]));
            }
        }
    }
}

// Windows longer than 65 536 samples are cut into segments whose suffix extremes start from
// those of the segments after them, so that no buffer holds a whole window: the figure must be
// the sliding scan's at one segment, just over it, at several of unequal length,
// and with the windows that start in the last segments cut off by the end of the series.
TEST(StreamingExactness, MtieOfWindowsSpanningSeveralSegmentsEqualsASlidingWindowScan) {
    std::mt19937_64 rng(17);
    std::uniform_real_distribution<double> uniform(-1.0, 1.0);
    for (int trial = 0; trial < 4; ++trial) {
        const std::size_t n = 300000 + rng() % 150000;
        const double missing = trial == 0 ? 0.0 : (trial == 1 ? 0.01 : 0.5);
        std::vector<double> x(n);
        for (double& v : x) {
            // A random walk with holes (its extremes sit anywhere in a window), or noise.
            const double step = uniform(rng) * 1e-9;
            v = (uniform(rng) + 1.0) / 2.0 < missing ? NAN : step;
        }
        double walk = 0;
        for (double& v : x) {
            if (!std::isnan(v) && trial != 3) {  // the last trial: white noise
                walk += v;
                v = walk;
            }
        }
        const std::vector<std::size_t> factors = {65535,     65536,     65537,  131071,
                                                  131072,    160000,    196608, n / 3,
                                                  n / 2 - 1, n / 2 + 7, n - 2};
        const auto got = mtie(x, factors);
        for (std::size_t k = 0; k < factors.size(); ++k) {
            SCOPED_TRACE(::testing::Message() << "n = " << n << ", m = " << factors[k]);
            EXPECT_EQ(got[k], sliding_mtie(x, factors[k] + 1));
        }
    }
}

// analyze()'s drift check takes the medians of the phase's first and last quarters, of their
// pulse numbers and of the distances from a median without copying any of them: the value must
// be the one median_in_place() gives on a copy, to the bit, on every kind of series and on both
// sides of the sample size.
TEST(StreamingExactness, AVisitedMedianIsTheMedianOfACopy) {
    std::mt19937_64 rng(23);
    for (std::size_t n : {1UL, 2UL, 9UL, 1000UL, 65537UL, 200000UL}) {
        for (int kind = 0; kind < 6; ++kind) {
            const auto v = series(n, kind, rng);
            const auto visit = [&v](auto f) {
                for (double x : v) {
                    f(x);
                }
            };
            SCOPED_TRACE(::testing::Message() << "n = " << n << ", kind " << kind);
            std::vector<double> copy(v);
            const double median = median_in_place(copy);
            // A sample of every 97th value, an unsorted one, or none: only the passes differ.
            std::vector<double> sample;
            for (std::size_t i = 0; i < n; i += 97) {
                sample.push_back(v[n - 1 - i]);
            }
            const auto same = [](double x) { return x; };
            EXPECT_EQ(detail::visited_median(visit, n, sample, same), median);
            EXPECT_EQ(detail::visited_median(visit, n, {}, same), median);
            const auto distance = [median](double x) { return std::abs(x - median); };
            std::vector<double> distance_sample(sample);
            for (double& x : distance_sample) {
                x = distance(x);
            }
            copy = v;
            EXPECT_EQ(mad_to_sigma * detail::visited_median(visit, n, distance_sample, distance),
                      robust_stddev_in_place(copy, median));
        }
    }
}

// The drift check reads the pulse numbers of a quarter of the pulses only: the walk over a range,
// the number of one pulse and whether a range is in order must agree with the whole walk, across
// gaps and steps back of the index.
TEST(StreamingExactness, APulseIndexWalkedOverARangeIsThatPartOfTheWholeWalk) {
    std::mt19937_64 rng(5);
    for (int trial = 0; trial < 40; ++trial) {
        const std::size_t n = 1 + rng() % 300;
        std::vector<std::int64_t> t{1'000'000'000};
        for (std::size_t i = 1; i < n; ++i) {
            const int kind = static_cast<int>(rng() % 10);
            const std::int64_t d = kind == 0   ? 3'000'000'000   // two missed
                                   : kind == 1 ? -5'000'000'000  // stepped back
                                               : 1'000'000'000;
            t.push_back(t.back() + d);
        }
        const detail::PulseIndex index(t, n, 1e9);
        std::vector<std::pair<std::size_t, std::int64_t>> whole;
        index.for_each([&](std::size_t i, std::int64_t k) {
            whole.emplace_back(i, k);
            EXPECT_EQ(index.at(i), k);
        });
        for (int range = 0; range < 20; ++range) {
            const std::size_t first = rng() % (n + 2);
            const std::size_t last = first + rng() % (n + 2);
            std::vector<std::pair<std::size_t, std::int64_t>> part;
            index.for_each_between(first, last,
                                   [&](std::size_t i, std::int64_t k) { part.emplace_back(i, k); });
            std::vector<std::pair<std::size_t, std::int64_t>> expected;
            for (const auto& e : whole) {
                if (e.first >= first && e.first < last) {
                    expected.push_back(e);
                }
            }
            EXPECT_EQ(part, expected) << "n " << n << ", [" << first << ", " << last << ")";
            bool ascending = true;
            for (std::size_t j = 1; j < expected.size(); ++j) {
                ascending = ascending && expected[j].second >= expected[j - 1].second;
            }
            EXPECT_EQ(index.ascending_between(first, last), ascending)
                << "n " << n << ", [" << first << ", " << last << ")";
        }
    }
}

}  // namespace
