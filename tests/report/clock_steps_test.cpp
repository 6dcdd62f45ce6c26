// SPDX-License-Identifier: GPL-2.0-or-later
// The "Outliers and clock steps" row: a few steps are listed, many are summarised so the cell
// stays one readable line (issue 27: 4 999 steps made it thousands of characters long).
#include <gtest/gtest.h>

#include "render/event_tables.hpp"

namespace ppsbench {
namespace {

stats::RunStatistics with_steps(std::size_t count) {
    stats::RunStatistics stats;
    for (std::size_t i = 0; i < count; ++i) {
        // Alternating ±1 µs, one of +3 ms in the middle: the largest is found by magnitude.
        const double size = i == count / 2 ? 3e6 : (i % 2 == 0 ? 1000.0 : -1000.0);
        stats.clock_steps.push_back({2 + 2 * i, 0, size});
    }
    return stats;
}

TEST(ClockSteps, NoneSaysNone) {
    EXPECT_EQ(render::clock_steps_text(with_steps(0)), "none");
}

TEST(ClockSteps, AFewAreListedWithSizeAndPulse) {
    EXPECT_EQ(render::clock_steps_text(with_steps(3)),
              "+1000 ns at pulse 2; +3000 µs at pulse 4; +1000 ns at pulse 6");
}

TEST(ClockSteps, ManyAreSummarisedByCountLargestAndSpan) {
    const auto text = render::clock_steps_text(with_steps(4999));
    EXPECT_EQ(text, "4 999 steps, largest +3000 µs at pulse 5000; from pulse 2 to 9998");
}

// The summary's length does not grow with the count: a million steps are one short line.
TEST(ClockSteps, TheSummaryStaysShortWhateverTheCount) {
    for (std::size_t count : {6U, 60U, 6000U, 600000U}) {
        EXPECT_LT(render::clock_steps_text(with_steps(count)).size(), 80U) << count;
    }
}

}  // namespace
}  // namespace ppsbench
