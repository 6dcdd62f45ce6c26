// SPDX-License-Identifier: GPL-2.0-or-later
// The phase buffer in whole nanoseconds (src/stats/phase_buffer.hpp): analyze() holds the phase
// as int32 where every value is a whole number within ±2^31, and each stage reads it converted
// to double. Each stage on such a buffer must give, to the bit, what it gives on the same values
// as doubles; a value the int32 cannot hold turns the buffer into doubles without changing any.
#include <gtest/gtest.h>

#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <random>
#include <stdexcept>
#include <vector>

#include "ppsbench/core/error.hpp"
#include "ppsbench/core/packed_pulses.hpp"
#include "ppsbench/core/pulse.hpp"
#include "ppsbench/stats/events.hpp"
// Internal: the buffer and the stages that read it.
#include "../../src/stats/all_within.hpp"
#include "../../src/stats/departures.hpp"
#include "../../src/stats/drift.hpp"
#include "../../src/stats/phase.hpp"
#include "../../src/stats/phase_buffer.hpp"
#include "../../src/stats/phase_view.hpp"
#include "../../src/stats/selection.hpp"
#include "../../src/stats/train_detail.hpp"
#include "random_capture.hpp"

namespace ppsbench::stats {
namespace {

using detail::PhaseBuffer;

std::vector<std::uint64_t> bits_of(const std::vector<double>& values) {
    std::vector<std::uint64_t> out;
    out.reserve(values.size());
    for (const double v : values) {
        out.push_back(std::bit_cast<std::uint64_t>(v));
    }
    return out;
}

// Jittered whole offsets around `centre`, now and then a spike or a level change.
std::vector<std::int32_t> whole_offsets(std::mt19937_64& rng, std::size_t n, double centre,
                                        double spread) {
    std::normal_distribution<double> noise(0, spread);
    std::vector<std::int32_t> v(n);
    double level = centre;
    for (std::int32_t& x : v) {
        const auto r = rng() % 500;
        level += r == 0 ? 40 * spread : r == 1 ? -60 * spread : 0;
        const double value = std::round(level + noise(rng) + (r == 2 ? 1000 * spread : 0.0));
        x = static_cast<std::int32_t>(std::clamp(value, -2147483648.0, 2147483647.0));
    }
    return v;
}

std::vector<double> as_doubles(const std::vector<std::int32_t>& v) {
    return {v.begin(), v.end()};
}

TEST(WholePhase, WholeValuesWithinInt32StayWholeAndReadBackExactly) {
    const std::vector<double> values{0, -1, 1, 2147483647.0, -2147483648.0, -0.0, 999'999'999};
    PhaseBuffer buffer(values.size());
    buffer.append(values.data(), values.size());
    EXPECT_TRUE(buffer.whole());
    EXPECT_EQ(buffer.size(), values.size());
    // −0.0 is the whole number 0; the stages never see the sign of a zero phase.
    std::vector<double> expected = values;
    expected[5] = 0.0;
    EXPECT_EQ(bits_of(buffer.to_doubles()), bits_of(expected));
}

TEST(WholePhase, AValueInt32CannotHoldTurnsTheBufferIntoDoublesKeepingEveryValue) {
    for (const double odd :
         {2147483648.0, -2147483649.0, 0.5, -1e300, std::numeric_limits<double>::quiet_NaN(),
          std::numeric_limits<double>::infinity()}) {
        // Before and after every block boundary of the conversion in place (512 values).
        for (const std::size_t before : {0UL, 1UL, 511UL, 512UL, 513UL, 1024UL, 5000UL}) {
            std::vector<double> values;
            for (std::size_t i = 0; i < before; ++i) {
                values.push_back(static_cast<double>(static_cast<std::int64_t>(i * 7919) - 20000));
            }
            values.push_back(odd);
            values.push_back(-3.0);
            PhaseBuffer buffer(values.size());
            for (const double v : values) {
                buffer.push_back(v);
            }
            EXPECT_FALSE(buffer.whole()) << odd;
            EXPECT_EQ(bits_of(buffer.to_doubles()), bits_of(values)) << odd << " after " << before;
        }
    }
}

TEST(WholePhase, MakingTheBufferFractionalInPlaceKeepsEveryValueAndItGrowsPastItsRoom) {
    std::mt19937_64 rng(21);
    for (const std::size_t n : {0UL, 1UL, 511UL, 512UL, 513UL, 1537UL, 100000UL}) {
        const auto whole = whole_offsets(rng, n, -1e6, 3000);
        PhaseBuffer buffer(n / 3);  // too small: append grows it
        buffer.append(as_doubles(whole).data(), n);
        ASSERT_TRUE(buffer.whole());
        const std::span<double> fractional = buffer.make_fractional();
        EXPECT_FALSE(buffer.whole());
        EXPECT_EQ(bits_of({fractional.begin(), fractional.end()}), bits_of(as_doubles(whole)));
    }
}

TEST(WholePhase, TheRangeTestOnWholeValuesAnswersAsOnTheirDoubles) {
    std::mt19937_64 rng(22);
    const double nan = std::numeric_limits<double>::quiet_NaN();
    for (int trial = 0; trial < 2000; ++trial) {
        const std::size_t n = rng() % 300;
        auto v = whole_offsets(rng, n, -300.0, 20.0);
        if (n > 0 && rng() % 4 == 0) {
            v[rng() % n] = rng() % 2 ? std::numeric_limits<std::int32_t>::min()
                                     : std::numeric_limits<std::int32_t>::max();
        }
        const double lo = rng() % 50 == 0 ? nan : -300.0 - static_cast<double>(rng() % 120) - 0.5;
        const double hi = -300.0 + static_cast<double>(rng() % 120);
        const std::size_t first = n > 0 ? rng() % n : 0;
        const std::span<const std::int32_t> part = std::span<const std::int32_t>(v).subspan(first);
        const std::vector<double> d = as_doubles(v);
        const std::span<const double> d_part = std::span<const double>(d).subspan(first);
        EXPECT_EQ(detail::all_within(std::span<const std::int32_t>(v), lo, hi),
                  detail::all_within(std::span<const double>(d), lo, hi));
        EXPECT_EQ(detail::all_within_scalar(std::span<const std::int32_t>(v), lo, hi),
                  detail::all_within(std::span<const double>(d), lo, hi));
        EXPECT_EQ(detail::all_within(part, lo, hi), detail::all_within(d_part, lo, hi));
    }
}

TEST(WholePhase, TheCandidateSearchOnWholeValuesFindsWhatItFindsOnTheirDoubles) {
    std::mt19937_64 rng(23);
    for (int trial = 0; trial < 2000; ++trial) {
        const std::size_t n = 2 + rng() % 200;
        const auto v = whole_offsets(rng, n, 1e5, 30.0);
        const std::vector<double> d = as_doubles(v);
        const double slope = static_cast<double>(static_cast<int>(rng() % 7) - 3) + 0.25;
        const double bound = static_cast<double>(rng() % 200);
        const std::size_t from = 1 + rng() % (n - 1);
        const std::size_t to = from + rng() % (n - from + 1);
        const std::size_t expected =
            detail::next_departure_scalar(std::span<const double>(d), from, to, slope, bound);
        EXPECT_EQ(detail::next_departure(std::span<const std::int32_t>(v), from, to, slope, bound),
                  expected);
        EXPECT_EQ(
            detail::next_departure_scalar(std::span<const std::int32_t>(v), from, to, slope, bound),
            expected);
    }
}

TEST(WholePhase, TheStepsFoundInWholeValuesAreThoseOfTheirDoublesWithTheSameSizes) {
    std::mt19937_64 rng(24);
    int with_steps = 0;
    for (int trial = 0; trial < 200; ++trial) {
        const std::size_t n = std::array<std::size_t, 5>{1, 11, 300, 3000, 70000}[rng() % 5];
        const auto v = whole_offsets(rng, n, std::array<double, 3>{0, -4e8, 1e9}[rng() % 3], 2000);
        std::vector<std::size_t> known;
        for (std::size_t i = 1; i < n; i += 1 + rng() % 5000) {
            if (rng() % 3 == 0) {
                known.push_back(i);
            }
        }
        const auto whole = find_steps(std::span<const std::int32_t>(v), 8.0, known);
        const auto doubles = find_steps(std::span<const double>(as_doubles(v)), 8.0, known);
        ASSERT_EQ(whole.size(), doubles.size()) << "trial " << trial;
        for (std::size_t s = 0; s < whole.size(); ++s) {
            EXPECT_EQ(whole[s].index, doubles[s].index);
            EXPECT_EQ(std::bit_cast<std::uint64_t>(whole[s].size_ns),
                      std::bit_cast<std::uint64_t>(doubles[s].size_ns))
                << "trial " << trial << ", step " << s;
        }
        with_steps += whole.empty() ? 0 : 1;
    }
    EXPECT_GT(with_steps, 50);  // the sizing ran, not only the search
}

TEST(WholePhase, TheDriftOfWholeValuesIsTheDriftOfTheirDoubles) {
    std::mt19937_64 rng(25);
    for (int trial = 0; trial < 200; ++trial) {
        const std::size_t n = std::array<std::size_t, 4>{10, 33, 5000, 40000}[rng() % 4];
        const double drift = std::array<double, 4>{0, 1e-9, 2e-6, 1e-4}[rng() % 4];
        std::normal_distribution<double> noise(0, 2000);
        std::vector<std::int32_t> v(n);
        std::vector<std::int64_t> t(n);
        for (std::size_t i = 0; i < n; ++i) {
            v[i] = static_cast<std::int32_t>(
                std::round(drift * 1e9 * static_cast<double>(i) + noise(rng)));
            t[i] = static_cast<std::int64_t>(i + (i > n / 2 ? 3 : 0)) * 1'000'000'000;
        }
        const detail::PulseIndex index(t, n, 1e9);
        const std::vector<double> d = as_doubles(v);
        EXPECT_EQ(std::bit_cast<std::uint64_t>(
                      detail::phase_drift(std::span<const std::int32_t>(v), index, 1'000'000'000)),
                  std::bit_cast<std::uint64_t>(
                      detail::phase_drift(std::span<const double>(d), index, 1'000'000'000)));
        for (const double limit : {1e-6, 1e-8}) {
            EXPECT_EQ(
                detail::drift_at_most(std::span<const std::int32_t>(v), index, 1'000'000'000,
                                      limit),
                detail::drift_at_most(std::span<const double>(d), index, 1'000'000'000, limit));
        }
    }
}

TEST(WholePhase, TheFoldOfAWholeBufferIsTheFoldOfItsDoubles) {
    std::mt19937_64 rng(26);
    for (int trial = 0; trial < 200; ++trial) {
        const std::int64_t period =
            std::array<std::int64_t, 3>{1'000'000'000, 1'000'000, 7}[rng() % 3];
        const std::int64_t centre = static_cast<std::int64_t>(rng() % 2001) - 1000;
        std::vector<double> values(rng() % 3000);
        for (double& x : values) {
            const auto r = rng() % 700;
            const auto within =
                static_cast<double>(static_cast<std::int64_t>(rng() % 4001) - 2000) *
                static_cast<double>(period / 10000 + 1);
            x = static_cast<double>(centre) +
                (r == 0 ? static_cast<double>(2 * period + 3) : within);
            x = std::clamp(x, -2147483648.0, 2147483647.0);
        }
        PhaseBuffer buffer(values.size());
        buffer.append(values.data(), values.size());
        ASSERT_TRUE(buffer.whole());
        std::vector<double> expected = values;
        detail::fold_into_window(std::span<double>(expected), centre, period);
        detail::fold_into_window(buffer, centre, period);
        EXPECT_EQ(bits_of(buffer.to_doubles()), bits_of(expected)) << "trial " << trial;
    }
}

// The phase stage on a free-running monotonic clock 100 ppm fast: t − t₀ − k·P passes 2^31 ns
// after some 21 500 pulses, and the buffer carries on in doubles with every value exact.
TEST(WholePhase, APhaseThatOutgrowsInt32CarriesOnInDoublesExactly) {
    for (const std::size_t n : {20'000UL, 30'000UL}) {
        std::vector<core::Pulse> pulses(n);
        for (std::size_t i = 0; i < n; ++i) {
            pulses[i].timestamp_ns = static_cast<std::int64_t>(i) * 1'000'100'000 + 17;
            pulses[i].sequence = i + 1;
        }
        const core::PackedPulses packed(pulses);
        const auto selection = detail::select_pulses(packed, core::Edge::assert_edge, 1'000'000'000,
                                                     false, true, nullptr);
        // Counted with the clock's own period, as analyze() does: k_i = i.
        const detail::PulseIndex index(detail::TimestampColumn{selection}, selection.size,
                                       1'000'100'000.0, selection.unusual);
        const auto phase =
            detail::phase_series(selection, index, core::ClockId::monotonic, 1'000'000'000, 0);
        EXPECT_EQ(phase.values_ns.whole(), n == 20'000);
        std::vector<double> expected;
        index.for_each([&](std::size_t i, std::int64_t k) {
            expected.push_back(
                static_cast<double>(pulses[i].timestamp_ns - 17 - k * 1'000'000'000));
        });
        EXPECT_EQ(bits_of(phase.values_ns.to_doubles()), bits_of(expected)) << n;
    }
}

std::vector<double> read_through_view(const detail::PhaseView& view) {
    std::vector<double> values;
    view.for_each([&](const double* v, std::size_t count, std::size_t, std::int64_t) {
        values.insert(values.end(), v, v + count);
    });
    return values;
}

// Spread onto the pulse grid in place, the buffer is the grid phase_grid() makes of the same
// capture, slot for slot with the same reference, and the summaries' view of it still gives
// every pulse's phase to the bit; it refuses only for the reasons it names.
TEST(WholePhase, SpreadOntoTheGridTheBufferIsPhaseGridsGridAndReadsAsBefore) {
    std::mt19937_64 rng(27);
    int spread = 0;
    for (int trial = 0; trial < 400; ++trial) {
        const test::CaptureShape shape = test::random_shape(rng);
        const auto pulses = test::random_capture(rng, shape);
        const core::PackedPulses packed(pulses);
        std::optional<detail::Selection> selected;
        try {
            selected = detail::select_pulses(packed, core::Edge::assert_edge, shape.period_ns,
                                             false, true, nullptr);
        } catch (const core::InputError&) {
            continue;  // a negative timestamp: refused
        }
        const detail::Selection& selection = *selected;
        if (selection.size == 0) {
            continue;
        }
        const detail::TimestampColumn t{selection};
        const detail::PulseIndex index(t, selection.size,
                                       detail::estimate_period(t, selection.size, shape.period_ns));
        for (const auto clock : {core::ClockId::realtime, core::ClockId::monotonic}) {
            SCOPED_TRACE(::testing::Message() << "trial " << trial << ", period " << shape.period_ns
                                              << ", slots " << shape.slots);
            auto phase = detail::phase_series(selection, index, clock, shape.period_ns, 0);
            const PhaseGrid grid = detail::phase_grid(phase.rule, selection, index, {});
            const bool whole = phase.values_ns.whole();
            const std::vector<double> before = phase.values_ns.to_doubles();
            const auto length = static_cast<std::size_t>(index.back()) + 1;
            const bool may = whole && index.strictly_rising() && length <= 2 * selection.size;
            if (!phase.values_ns.spread_onto_grid(index)) {
                EXPECT_FALSE(may && grid.whole()) << "refused a grid phase_grid() made whole";
                EXPECT_FALSE(phase.values_ns.on_grid());
                EXPECT_EQ(bits_of(phase.values_ns.to_doubles()), bits_of(before));
                continue;
            }
            ++spread;
            ASSERT_TRUE(may);
            // In slot order now: a stage that wants pulse order is a bug, said at once.
            EXPECT_THROW((void)phase.values_ns.to_doubles(), std::logic_error);
            EXPECT_TRUE(phase.values_ns.whole_ns().empty());
            ASSERT_TRUE(grid.whole());
            EXPECT_EQ(phase.values_ns.reference_ns(), grid.reference_ns);
            const auto slots = phase.values_ns.grid_ns();
            EXPECT_EQ(std::vector<std::int32_t>(slots.begin(), slots.end()), grid.ns);
            const detail::PhaseView view(phase.values_ns, index);
            EXPECT_EQ(bits_of(read_through_view(view)), bits_of(before));
            for (std::size_t i = 0; i < before.size(); i += 1 + before.size() / 7) {
                EXPECT_EQ(std::bit_cast<std::uint64_t>(view.at(i)),
                          std::bit_cast<std::uint64_t>(before[i]))
                    << "pulse " << i;
            }
        }
    }
    EXPECT_GT(spread, 200);
}

// A free-running clock 50 ppm fast with every 7th pulse missed: the phase reaches 1.5 s, past
// the grid's ±(2^30 − 1) ns from the first pulse, so the reference moves to the middle, as
// phase_grid() moves it. One 55 ppm slow, then fast, reaches −1.1 s and +1.1 s: whole in int32,
// but too wide for the grid's int32 kernels, so not spread (phase_grid() makes it seconds).
TEST(WholePhase, AGridPastTwoToTheThirtyIsCentredAsPhaseGridCentresIt) {
    for (const bool v_shape : {false, true}) {
        const std::size_t n = v_shape ? 60'000 : 30'000;
        const auto offset = [&](std::size_t k) -> std::int64_t {
            const auto x = static_cast<std::int64_t>(k);
            if (!v_shape) {
                return x * 50'000;
            }
            return x < 20'000 ? -x * 55'000 : -1'100'000'000 + (x - 20'000) * 55'000;
        };
        std::vector<core::Pulse> pulses;
        for (std::size_t k = 0; k < n; ++k) {
            if (k % 7 != 3) {
                pulses.push_back(
                    {k + 1,
                     static_cast<std::int64_t>(k) * 1'000'000'000 + offset(k) + 5'000'000'000,
                     {}});
            }
        }
        const core::PackedPulses packed(pulses);
        const auto selection = detail::select_pulses(packed, core::Edge::assert_edge, 1'000'000'000,
                                                     false, true, nullptr);
        const detail::PulseIndex index(detail::TimestampColumn{selection}, selection.size,
                                       v_shape ? 1e9 : 1'000'050'000.0);
        auto phase =
            detail::phase_series(selection, index, core::ClockId::monotonic, 1'000'000'000, 0);
        const PhaseGrid grid = detail::phase_grid(phase.rule, selection, index, {});
        ASSERT_TRUE(phase.values_ns.whole());
        const std::vector<double> before = phase.values_ns.to_doubles();
        ASSERT_EQ(phase.values_ns.spread_onto_grid(index), !v_shape);
        ASSERT_EQ(grid.whole(), !v_shape);
        if (!v_shape) {
            EXPECT_NE(grid.reference_ns, 0);  // centred
            EXPECT_EQ(phase.values_ns.reference_ns(), grid.reference_ns);
            const auto slots = phase.values_ns.grid_ns();
            EXPECT_EQ(std::vector<std::int32_t>(slots.begin(), slots.end()), grid.ns);
            EXPECT_EQ(bits_of(read_through_view(detail::PhaseView(phase.values_ns, index))),
                      bits_of(before));
        }
    }
}

}  // namespace
}  // namespace ppsbench::stats
