// SPDX-License-Identifier: GPL-2.0-or-later
// The shortcuts of analyze()'s timeline after the phase: the clock steps' candidates found two
// samples an SSE2 instruction, the fold into the window and the drift check that leave the
// usual run alone after a range test, and a capture with a second edge (the stages' general
// paths) against the same capture without it (their lists). Each path against the plain loop.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "ppsbench/analysis/statistics_json.hpp"
#include "ppsbench/core/error.hpp"
#include "ppsbench/stats/analyze.hpp"
#include "ppsbench/stats/events.hpp"
#include "ppsbench/stats/quantile.hpp"
#include "random_capture.hpp"
// Internal: the kernels themselves.
#include "../../src/stats/all_within.hpp"
#include "../../src/stats/departures.hpp"
#include "../../src/stats/drift.hpp"
#include "../../src/stats/phase.hpp"
#include "../../src/stats/train_detail.hpp"

namespace ppsbench::stats {
namespace {

constexpr double not_a_number = std::numeric_limits<double>::quiet_NaN();

// Integers near a centre, now and then a wild one, a NaN or an infinity.
std::vector<double> values_near(std::mt19937_64& rng, std::size_t n, double centre, double spread) {
    std::vector<double> v(n);
    std::normal_distribution<double> noise(0, spread);
    for (double& x : v) {
        x = centre + std::round(noise(rng));
        const auto odd = rng() % 4000;
        x = odd == 0 ? not_a_number : odd == 1 ? -INFINITY : odd == 2 ? centre + 1e6 * spread : x;
    }
    return v;
}

TEST(TimelineKernels, EveryPathOfTheRangeTestGivesThePlainAnswer) {
    std::mt19937_64 rng(11);
    for (int trial = 0; trial < 3000; ++trial) {
        const std::size_t n = rng() % 300;
        const auto v = values_near(rng, n, -300.0, 20.0);
        const double lo = -300.0 - static_cast<double>(rng() % 120);
        const double hi = -300.0 + static_cast<double>(rng() % 120);
        const bool plain =
            std::all_of(v.begin(), v.end(), [&](double x) { return lo <= x && x <= hi; });
        // Every start, so that the blocks of 64 begin anywhere.
        const std::size_t first = n > 0 ? rng() % n : 0;
        const std::span<const double> part = std::span<const double>(v).subspan(first);
        const bool plain_part =
            std::all_of(part.begin(), part.end(), [&](double x) { return lo <= x && x <= hi; });
        EXPECT_EQ(detail::all_within(v, lo, hi), plain);
        EXPECT_EQ(detail::all_within_scalar(v, lo, hi), plain);
        EXPECT_EQ(detail::all_within(part, lo, hi), plain_part);
    }
}

TEST(TimelineKernels, EveryPathOfTheCandidateSearchFindsTheFirstDeparture) {
    std::mt19937_64 rng(12);
    for (int trial = 0; trial < 3000; ++trial) {
        const std::size_t n = 2 + rng() % 200;
        auto v = values_near(rng, n, 1e5, 30.0);
        if (rng() % 3 == 0) {
            v[rng() % n] = -0.0;
        }
        const double slope = static_cast<double>(static_cast<int>(rng() % 7) - 3);
        const double bound = static_cast<double>(rng() % 200);
        const std::size_t from = 1 + rng() % (n - 1);
        const std::size_t to = from + rng() % (n - from + 1);
        std::size_t plain = to;
        for (std::size_t i = from; i < to; ++i) {
            if (std::abs(v[i] - v[i - 1] - slope) > bound) {
                plain = i;
                break;
            }
        }
        EXPECT_EQ(detail::next_departure(v, from, to, slope, bound), plain);
        EXPECT_EQ(detail::next_departure_scalar(v, from, to, slope, bound), plain);
    }
}

// The fold as a loop over every value, and find_steps()'s detection as a loop over every sample.
void fold_by_hand(std::vector<double>& v, std::int64_t centre, std::int64_t period_ns) {
    const auto p = static_cast<double>(period_ns);
    const auto c = static_cast<double>(centre);
    for (double& x : v) {
        const double periods = std::ceil((x - c) / p - 0.5);
        if (periods != 0) {
            x -= periods * p;
        }
    }
}

TEST(TimelineKernels, TheFoldIntoTheWindowIsTheFoldOfEveryValue) {
    std::mt19937_64 rng(13);
    for (int trial = 0; trial < 300; ++trial) {
        const std::int64_t period = std::array<std::int64_t, 5>{1'000'000'000, 7, 4, 1'000'000,
                                                                std::int64_t{1} << 41}[rng() % 5];
        const std::int64_t centre =
            static_cast<std::int64_t>(rng() % 2001) - 1000 + (rng() % 5 == 0 ? period / 2 : 0);
        // Offsets within the window, on its edges, and a period or more out.
        const std::size_t n = rng() % 10000;
        std::vector<double> v(n);
        for (double& x : v) {
            const auto edge =
                static_cast<double>(period / 2 - 1 + static_cast<std::int64_t>(rng() % 3));
            const auto r = rng() % 1000;
            x = static_cast<double>(centre) +
                (r == 0   ? 3.5 * static_cast<double>(period)
                 : r == 1 ? edge
                 : r == 2 ? -edge
                 : r == 3 ? not_a_number
                          : static_cast<double>(static_cast<std::int64_t>(rng() % 4001) - 2000) *
                                static_cast<double>(period) / 10000.0);
        }
        std::vector<double> expected = v;
        fold_by_hand(expected, centre, period);
        detail::fold_into_window(v, centre, period);
        ASSERT_EQ(v.size(), expected.size());
        for (std::size_t i = 0; i < n; ++i) {
            ASSERT_EQ(std::bit_cast<std::uint64_t>(v[i]), std::bit_cast<std::uint64_t>(expected[i]))
                << "trial " << trial << ", value " << i;
        }
    }
}

// drift_at_most() says yes only where phase_drift() is within the limit: offsets at rest, drifting
// slowly, fast, with outliers and steps, long and short.
TEST(TimelineKernels, TheDriftCheckShortcutNeverPassesADriftOverItsLimit) {
    std::mt19937_64 rng(14);
    int settled = 0;
    for (int trial = 0; trial < 400; ++trial) {
        const std::size_t n = std::array<std::size_t, 5>{10, 33, 300, 5000, 40000}[rng() % 5];
        const double drift = std::array<double, 5>{0, 1e-9, 3e-7, 2e-6, 1e-4}[rng() % 5];
        const double jitter = std::array<double, 3>{10, 2000, 1e6}[rng() % 3];
        std::normal_distribution<double> noise(0, jitter);
        std::vector<double> phase(n);
        std::vector<std::int64_t> t(n);
        for (std::size_t i = 0; i < n; ++i) {
            phase[i] = std::round(drift * 1e9 * static_cast<double>(i) + noise(rng));
            phase[i] += rng() % 500 == 0 ? 1e8 : 0;
            t[i] = static_cast<std::int64_t>(i) * 1'000'000'000 +
                   (rng() % 50 == 0 ? 1'000'000'000 : 0);
            if (i > 0 && t[i] <= t[i - 1]) {
                t[i] = t[i - 1] + 1'000'000'000;
            }
        }
        const detail::PulseIndex index(t, n, 1e9);
        const double exact = detail::phase_drift(phase, index, 1'000'000'000);
        for (const double limit : {1e-6, 1e-8, 0.125 / static_cast<double>(n)}) {
            if (detail::drift_at_most(phase, index, 1'000'000'000, limit)) {
                ++settled;
                EXPECT_LE(std::abs(exact), limit) << "trial " << trial << ", n " << n;
            }
        }
    }
    EXPECT_GT(settled, 100);  // the shortcut is taken, not only sound
}

std::vector<std::size_t> detected_by_hand(std::span<const double> phase, double k,
                                          std::span<const std::size_t> known) {
    constexpr std::size_t min_side = 5;
    constexpr std::size_t window = 16;
    const std::size_t n = phase.size();
    std::vector<std::size_t> steps;
    if (n < 2) {
        return steps;
    }
    std::vector<double> sample;
    const std::size_t count = n - 1;
    for (std::size_t i = 0; i < std::min<std::size_t>(count, 65536); ++i) {
        const std::size_t j = count <= 65536 ? i : i * count / 65536;
        sample.push_back(phase[j + 1] - phase[j]);
    }
    std::vector<double> copy = sample;
    const double slope = median_in_place(copy);
    copy = sample;
    double scale = robust_stddev_in_place(copy, slope);
    if (!(scale > 0.0)) {
        long double sum = 0;
        for (double v : sample) {
            sum += std::abs(v - slope);
        }
        scale = 1.2533 * static_cast<double>(sum / static_cast<long double>(sample.size()));
    }
    const double threshold = k * scale / std::sqrt(2.0);
    std::size_t segment_start = 0;
    std::size_t next_known = 0;
    for (std::size_t i = 1; i < n; ++i) {
        while (next_known < known.size() && known[next_known] < i) {
            ++next_known;
        }
        if (next_known < known.size() && known[next_known] == i) {
            steps.push_back(i);
            segment_start = i;
            continue;
        }
        if (i < min_side || i + min_side > n ||
            !(std::abs(phase[i] - phase[i - 1] - slope) > k * scale)) {
            continue;
        }
        const std::size_t first = std::max(segment_start, i >= window ? i - window : 0);
        const std::size_t last =
            std::min(next_known < known.size() ? known[next_known] : n, i + window);
        if (i - first < min_side || last - i < min_side) {
            continue;
        }
        std::vector<double> before(phase.begin() + static_cast<std::ptrdiff_t>(first),
                                   phase.begin() + static_cast<std::ptrdiff_t>(i));
        std::vector<double> after(phase.begin() + static_cast<std::ptrdiff_t>(i),
                                  phase.begin() + static_cast<std::ptrdiff_t>(last));
        const double drift = slope * static_cast<double>(after.size() + before.size()) / 2.0;
        const double size = median_in_place(after) - median_in_place(before) - drift;
        if (std::abs(size) > threshold && std::abs(size) > 0.0) {
            steps.push_back(i);
            segment_start = i;
        }
    }
    return steps;
}

TEST(TimelineKernels, TheStepsFoundBySkippingToCandidatesAreThoseOfEverySample) {
    std::mt19937_64 rng(15);
    for (int trial = 0; trial < 300; ++trial) {
        const std::size_t n = std::array<std::size_t, 6>{1, 4, 11, 200, 3000, 70000}[rng() % 6];
        std::normal_distribution<double> noise(0, 2000);
        std::vector<double> phase(n);
        double level = 0;
        std::vector<std::size_t> known;
        for (std::size_t i = 0; i < n; ++i) {
            const auto r = rng() % 400;
            level += r == 0 ? 50'000 : r == 1 ? -80'000 : 0;  // steps
            if (r == 2 && i > 0) {
                known.push_back(i);
            }
            phase[i] = std::round(level + noise(rng) + (r == 3 ? 1e6 : 0.0));  // and spikes
        }
        const auto found = find_steps(phase, 8.0, known);
        std::vector<std::size_t> at;
        for (const Step& s : found) {
            at.push_back(s.index);
        }
        EXPECT_EQ(at, detected_by_hand(phase, 8.0, known)) << "trial " << trial << ", n " << n;
    }
}

std::vector<std::uint64_t> bits(const std::vector<double>& v) {
    std::vector<std::uint64_t> out;
    for (const double x : v) {
        out.push_back(std::bit_cast<std::uint64_t>(x));
    }
    return out;
}

// A pulse of the other edge after the last one sends the period check, the selection and every
// stage after it down their general paths (no file-order list; the selection's list from its
// index): every figure, note and count but that pulse's must stay as the one-edge capture's.
TEST(TimelineKernels, AnotherEdgesPulseChangesNothingButItsOwnCount) {
    std::mt19937_64 rng(16);
    for (int trial = 0; trial < 150; ++trial) {
        test::CaptureShape shape = test::random_shape(rng);
        shape.both_edges = false;
        shape.slots = std::min<std::size_t>(shape.slots, 2000);
        auto pulses = test::random_capture(rng, shape);
        AnalysisOptions options;
        options.period_ns = shape.period_ns;
        options.clock = rng() % 4 == 0 ? core::ClockId::monotonic : core::ClockId::realtime;
        options.kernel_sequences = shape.numbers == test::Numbers::kernel && rng() % 4 != 0;
        options.cadence =
            shape.sampled_every > 1 ? core::Cadence::sampled : core::Cadence::every_edge;
        options.remove_clock_steps = rng() % 3 != 0;
        options.keep_series = true;
        const auto run = [&](const std::vector<core::Pulse>& p, std::string& error) {
            try {
                return analyze(p, options);
            } catch (const core::InputError& e) {
                error = e.what();
                return RunStatistics{};
            }
        };
        std::string one_error;
        std::string two_error;
        const RunStatistics one = run(pulses, one_error);
        pulses.push_back(
            {0, pulses.empty() ? 0 : pulses.back().timestamp_ns, core::Edge::clear_edge});
        const RunStatistics two = run(pulses, two_error);
        SCOPED_TRACE(::testing::Message() << "trial " << trial);
        ASSERT_EQ(one_error, two_error);
        if (!one_error.empty()) {
            continue;
        }
        EXPECT_EQ(two.other_edge_pulses, one.other_edge_pulses + 1);
        EXPECT_EQ(analysis::statistics_json(two).dump(), analysis::statistics_json(one).dump());
        EXPECT_EQ(two.notes, one.notes);
        EXPECT_EQ(std::bit_cast<std::uint64_t>(two.estimated_period_ns),
                  std::bit_cast<std::uint64_t>(one.estimated_period_ns));
        EXPECT_EQ(std::bit_cast<std::uint64_t>(two.mode_interval_ns),
                  std::bit_cast<std::uint64_t>(one.mode_interval_ns));
        EXPECT_EQ(two.span_periods, one.span_periods);
        ASSERT_EQ(two.gaps.size(), one.gaps.size());
        for (std::size_t g = 0; g < one.gaps.size(); ++g) {
            EXPECT_EQ(two.gaps[g].pulse, one.gaps[g].pulse);
            EXPECT_EQ(two.gaps[g].timestamp_ns, one.gaps[g].timestamp_ns);
            EXPECT_EQ(two.gaps[g].missed_by_sequence, one.gaps[g].missed_by_sequence);
            EXPECT_EQ(two.gaps[g].missed_by_time, one.gaps[g].missed_by_time);
        }
        EXPECT_EQ(two.outliers.pulses, one.outliers.pulses);
        ASSERT_TRUE(one.series && two.series);
        EXPECT_EQ(two.series->pulse, one.series->pulse);
        EXPECT_EQ(two.series->index, one.series->index);
        EXPECT_EQ(bits(two.series->offset_ns), bits(one.series->offset_ns));
        EXPECT_EQ(bits(two.series->detrended_ns), bits(one.series->detrended_ns));
    }
}

}  // namespace
}  // namespace ppsbench::stats
