// SPDX-License-Identifier: GPL-2.0-or-later
// main: two runs labelled alike gave compare rows that could not be told apart; each now
// carries its file's name, in the table and in the JSON document alike.
#include <gtest/gtest.h>

#include "cli.hpp"

namespace ppsbench {
namespace {

using testing::contains;
using testing::run_ppsbench;
using testing::TempDir;

TEST(CompareLabels, RunsWithTheSameLabelAreToldApartByTheirFile) {
    TempDir dir;
    for (const auto* name : {"base.csv", "rt-1.csv", "rt-2.csv"}) {
        ASSERT_EQ(run_ppsbench({"run", "-q", "-s", "sim:threaded", "--count", "300", "--label",
                                "6.1 rt", "-o", dir.file(name)})
                      .exit_code,
                  0);
    }
    const std::vector<std::string> args{"compare", "--baseline", dir.file("base.csv"),
                                        dir.file("rt-1.csv"), dir.file("rt-2.csv")};
    const auto text = run_ppsbench(args);
    ASSERT_EQ(text.exit_code, 0) << text.err;
    for (const auto* row : {"6.1 rt (base.csv)", "6.1 rt (rt-1.csv)", "6.1 rt (rt-2.csv)"}) {
        EXPECT_TRUE(contains(text.out, row)) << row << "\n" << text.out;
    }
    auto json_args = args;
    json_args.insert(json_args.end(), {"--format", "json"});
    const auto json = run_ppsbench(json_args);
    ASSERT_EQ(json.exit_code, 0) << json.err;
    EXPECT_TRUE(contains(json.out, "\"6.1 rt (rt-2.csv)\"")) << json.out;
}

TEST(CompareLabels, DistinctLabelsAreLeftAsGiven) {
    TempDir dir;
    for (const auto* label : {"stock", "rt"}) {
        ASSERT_EQ(run_ppsbench({"run", "-q", "-s", "sim:threaded", "--count", "300", "--label",
                                label, "-o", dir.file(std::string(label) + ".csv")})
                      .exit_code,
                  0);
    }
    const auto text =
        run_ppsbench({"compare", "--baseline", dir.file("stock.csv"), dir.file("rt.csv")});
    ASSERT_EQ(text.exit_code, 0) << text.err;
    EXPECT_FALSE(contains(text.out, "(stock.csv)")) << text.out;
    EXPECT_FALSE(contains(text.out, "(rt.csv)")) << text.out;
}

}  // namespace
}  // namespace ppsbench
