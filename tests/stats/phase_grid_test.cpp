// SPDX-License-Identifier: GPL-2.0-or-later
// phase_grid() (src/stats/phase_grid.cpp) against the phase rule it shortcuts: every slot of a
// whole-nanosecond grid is the rule's phase to the nanosecond (or a hole where no pulse is), and
// a grid in seconds is the rule's phase times 1e-9 to the bit, on realtime and free-running
// clocks, with missed pulses, clock steps (kept, removed, of exactly half a period), odd
// periods, out-of-order pulses and phases too wide for int32.

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <optional>
#include <random>
#include <utility>
#include <vector>

#include "../../src/stats/phase.hpp"
#include "pulse_train.hpp"

namespace ppsbench::stats {
namespace {

struct GridCase {
    explicit GridCase(std::vector<core::Pulse> p, core::ClockId c = core::ClockId::realtime)
        : pulses(std::move(p)), clock(c) {}
    std::vector<core::Pulse> pulses;
    core::ClockId clock;
    std::int64_t period_ns = 1'000'000'000;
    std::vector<Step> removed;  // by selected pulse
    bool find_jumps = false;    // the selection takes out time jumps (timestamps read corrected)
};

void expect_grid(const PhaseGrid& grid, const detail::PhaseRule& rule,
                 const detail::Selection& selection, const detail::PulseIndex& index,
                 std::span<const Step> removed, bool whole);

// Builds the selection, index and rule as analyze() does, and compares on each path.
void expect_grid_follows_rule(const GridCase& c, bool whole) {
    const core::PackedPulses packed(c.pulses);
    const auto selection =
        detail::select_pulses(packed, core::Edge::assert_edge, c.period_ns, c.find_jumps, true);
    const detail::PulseIndex index(detail::TimestampColumn{selection}, selection.size,
                                   static_cast<double>(c.period_ns));
    const detail::PhaseRule rule =
        detail::phase_series(selection, index, c.clock, c.period_ns, 0).rule;
    for (const detail::LanePath lanes : {detail::LanePath::base, detail::LanePath::avx2}) {
        if (detail::lanes_available(lanes)) {
            SCOPED_TRACE(lanes == detail::LanePath::avx2 ? "avx2" : "base");
            expect_grid(detail::phase_grid(rule, selection, index, c.removed, lanes), rule,
                        selection, index, c.removed, whole);
        }
    }
}

void expect_grid(const PhaseGrid& grid, const detail::PhaseRule& rule,
                 const detail::Selection& selection, const detail::PulseIndex& index,
                 std::span<const Step> removed, bool whole) {
    std::vector<std::optional<double>> expected(static_cast<std::size_t>(index.back()) + 1);
    rule.for_each(selection, index, removed, [&](std::size_t, std::int64_t k, double v) {
        expected[static_cast<std::size_t>(k)] = v;
    });
    ASSERT_EQ(grid.whole(), whole);
    ASSERT_EQ(grid.size(), expected.size());
    for (std::size_t k = 0; k < expected.size(); ++k) {
        if (!whole) {
            const double want = expected[k] ? *expected[k] * 1e-9 : std::nan("");
            ASSERT_EQ(std::bit_cast<std::uint64_t>(grid.seconds[k]),
                      std::bit_cast<std::uint64_t>(want))
                << "slot " << k;
        } else if (!expected[k]) {
            ASSERT_EQ(grid.ns[k], PhaseGrid::hole) << "slot " << k;
        } else {
            ASSERT_LE(std::abs(grid.ns[k]), (1 << 30) - 1) << "slot " << k;
            ASSERT_EQ(static_cast<double>(grid.reference_ns + grid.ns[k]), *expected[k])
                << "slot " << k;
        }
    }
}

// t_k = start + k·P + offset + jitter (+ drift·k), with the pulses in `missing` left out.
std::vector<core::Pulse> train(std::size_t n, std::int64_t period, double offset_ns,
                               double drift_ns, std::uint64_t seed,
                               const std::vector<std::size_t>& missing = {}) {
    std::mt19937_64 rng(seed);
    std::normal_distribution<double> jitter(0.0, 3000.0);
    std::vector<double> offsets(n);
    for (std::size_t k = 0; k < n; ++k) {
        offsets[k] = offset_ns + drift_ns * static_cast<double>(k) + jitter(rng);
    }
    auto pulses = test::pulse_train(n, 1'767'225'600'000'000'000, period,
                                    [&](std::size_t k) { return offsets[k]; });
    for (auto it = missing.rbegin(); it != missing.rend(); ++it) {
        pulses.erase(pulses.begin() + static_cast<std::ptrdiff_t>(*it));
    }
    return pulses;
}

TEST(PhaseGrid, RealtimeWithMissedPulsesIsWholeNanoseconds) {
    // Gaps inside and across the builder's batches (256 pulses) and past its buffer (512 slots).
    std::vector<std::size_t> missing = {3, 255, 256, 257, 600};
    for (std::size_t k = 1000; k < 1700; ++k) {
        missing.push_back(k);
    }
    expect_grid_follows_rule(GridCase(train(5000, 1'000'000'000, 300e6, 0, 1, missing)), true);
    // near −P/2
    expect_grid_follows_rule(GridCase(train(5000, 1'000'000'000, -499'990'000, 0, 2)), true);
}

TEST(PhaseGrid, OddPeriodsAndStepsOfHalfAPeriod) {
    GridCase odd(train(3000, 999'999'937, 1e5, 0, 3));
    odd.period_ns = 999'999'937;
    expect_grid_follows_rule(odd, true);
    // A step of exactly P/2 (the interval is 1.5 P: its index rounds up, the phase folds to
    // +P/2), one of 0.6 P and one back of 0.3 P, all kept.
    GridCase steps(train(3000, 1'000'000'000, 0, 0, 4));
    auto& p = steps.pulses;
    const std::int64_t half = p[699].timestamp_ns + 1'500'000'000 - p[700].timestamp_ns;
    for (std::size_t k = 0; k < p.size(); ++k) {
        p[k].timestamp_ns +=
            (k >= 700 ? half : 0) + (k >= 1500 ? 600'000'000 : 0) - (k >= 2200 ? 300'000'000 : 0);
    }
    expect_grid_follows_rule(steps, true);
    steps.find_jumps = true;  // the same steps, taken out by the selection
    expect_grid_follows_rule(steps, true);
}

TEST(PhaseGrid, RemovedStepsKeepTheGridWholeUnlessFractional) {
    GridCase c(train(2000, 1'000'000'000, 0, 0, 5));
    for (std::size_t k = 800; k < c.pulses.size(); ++k) {
        c.pulses[k].timestamp_ns += 3'000'000;
    }
    c.removed = {{0, 250.0}, {256, -17.0}, {800, 3'000'000.0}};
    expect_grid_follows_rule(c, true);
    c.removed[1].size_ns = -17.5;
    expect_grid_follows_rule(c, false);
}

TEST(PhaseGrid, FreeRunningClocksAreWholeUntilTheySpanTwoSeconds) {
    // 5 ppm over 300 000 pulses: 1.5 s, centred on the reference; 20 ppm: 6 s, in seconds.
    const auto monotonic = core::ClockId::monotonic;
    expect_grid_follows_rule(GridCase(train(300'000, 1'000'000'000, 0, 5000, 6), monotonic), true);
    expect_grid_follows_rule(GridCase(train(300'000, 1'000'000'000, 0, 20000, 7), monotonic),
                             false);
    // A realtime clock running free the same way: unwrapped, the phase drifts past ±P/2.
    expect_grid_follows_rule(GridCase(train(200'000, 1'000'000'000, 0, 5000, 8)), true);
}

TEST(PhaseGrid, OutOfOrderPulsesReadThroughTheSelection) {
    GridCase c(train(3000, 1'000'000'000, 2e6, 0, 9));
    std::swap(c.pulses[10], c.pulses[11]);
    std::swap(c.pulses[2000], c.pulses[2001]);
    expect_grid_follows_rule(c, true);
}

}  // namespace
}  // namespace ppsbench::stats
