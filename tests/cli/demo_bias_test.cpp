// SPDX-License-Identifier: GPL-2.0-or-later
// `ppsbench demo` ends with the bias row of one SIMULATED two-path run (issue 24 item 2): what
// jitter cannot show, a constant lateness, revealed by a reference. Its figures are those of a
// real two-path run of the same sources, seed and length, so the demo shows what `run` and
// `report` would.
#include <gtest/gtest.h>

#include <sstream>

#include "cli.hpp"

namespace ppsbench {
namespace {

using testing::contains;
using testing::run_ppsbench;
using testing::TempDir;

TEST(DemoBias, TheRowIsLabelledSimulated) {
    const auto demo = run_ppsbench({"demo", "--duration", "10m"});
    ASSERT_EQ(demo.exit_code, 0) << demo.err;
    for (const char* text :
         {"Bias: a SIMULATED two-path run, sim:threaded,late=12us against sim:reference",
          "PREEMPT_RT, 12 µs late (simulated)", "bias vs reference (mean)",
          "bias vs reference (median)", "bias σ", "late=12us adds a constant 12 µs"}) {
        EXPECT_TRUE(contains(demo.out, text)) << text << "\n" << demo.out;
    }
}

// The demo's bias run is `run --source sim:threaded,late=12us --source sim:reference` with the
// PREEMPT_RT configuration's seed (N + 1): report's figures of that run's first path appear,
// as printed, in the demo's row. Another --seed moves both alike.
TEST(DemoBias, ItsFiguresAreThoseOfATwoPathRun) {
    for (const auto& [demo_seed, run_seed] : {std::pair{"1", "2"}, std::pair{"7", "8"}}) {
        TempDir dir;
        const auto out = dir.file("bias.csv");
        const auto run =
            run_ppsbench({"run", "-q", "--source", "sim:threaded,late=12us", "--source",
                          "sim:reference", "--seed", run_seed, "--duration", "10m", "-o", out});
        ASSERT_EQ(run.exit_code, 0) << run.err;
        const auto report = run_ppsbench(
            {"report", "--metrics", "bias_mean,bias_median,bias_sigma", dir.file("bias-1.csv")});
        ASSERT_EQ(report.exit_code, 0) << report.err;
        const auto demo = run_ppsbench({"demo", "--duration", "10m", "--seed", demo_seed});
        ASSERT_EQ(demo.exit_code, 0) << demo.err;
        std::istringstream rows(report.out);
        int compared = 0;
        for (std::string line; std::getline(rows, line);) {
            if (!line.starts_with("sim:")) {
                continue;  // the header, the rule and the footnotes
            }
            std::istringstream words(line.substr(line.find(")") + 1));
            std::vector<std::string> figures;
            for (std::string number, unit; words >> number >> unit;) {
                figures.push_back(number + " " + unit);
            }
            ASSERT_EQ(figures.size(), 3U) << line;
            // The mean is the lateness, to within the 10 min's statistical error (σ 7 µs).
            EXPECT_TRUE(figures[0].ends_with(" µs")) << line;
            EXPECT_NEAR(std::stod(figures[0]), 12.0, 1.5) << line;
            for (const auto& figure : figures) {
                EXPECT_TRUE(contains(demo.out, figure)) << figure << "\n" << demo.out;
            }
            ++compared;
        }
        EXPECT_EQ(compared, 1) << report.out;
    }
}

}  // namespace
}  // namespace ppsbench
