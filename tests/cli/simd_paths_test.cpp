// SPDX-License-Identifier: GPL-2.0-or-later
// The same report on either SIMD path (issue 36): `report --format json` of one binary with its
// AVX2 dispatch (where the CPU has it) and with PPSBENCH_SIMD=portable, the baseline kernels ARM
// runs, must be the same bytes. Every kernel with two forms runs here on captures that take
// both their stretch and their dense paths: missed pulses and outliers, more than the order
// statistics' 65 536-value sample, a detrended and a monotonic headline.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "cli.hpp"

namespace ppsbench {
namespace {

using testing::run_ppsbench;
using testing::run_program;
using testing::TempDir;

std::string simd_report_json(const std::vector<std::string>& args, bool portable) {
    // env -u: the native run must not inherit a PPSBENCH_SIMD from the caller.
    std::vector<std::string> argv = {"/usr/bin/env", "-u", "PPSBENCH_SIMD"};
    if (portable) {
        argv.emplace_back("PPSBENCH_SIMD=portable");
    }
    argv.insert(argv.end(), {PPSBENCH_BINARY, "report", "--format", "json"});
    argv.insert(argv.end(), args.begin(), args.end());
    const auto result = run_program(argv);
    EXPECT_EQ(result.exit_code, 0) << result.err;
    return result.out;
}

void expect_same_report(const std::vector<std::string>& args) {
    const std::string native = simd_report_json(args, false);
    const std::string portable = simd_report_json(args, true);
    ASSERT_FALSE(native.empty());
    EXPECT_TRUE(native == portable) << "the portable path's report differs:\n"
                                    << native << "\n---\n"
                                    << portable;
}

TEST(SimdPaths, ThePortablePathGivesTheSameReportToTheByte) {
    TempDir dir;
    const auto holes = dir.file("holes.csv");
    ASSERT_EQ(run_ppsbench({"run", "-q", "-s", "sim:threaded,missed=0.01,outliers=0.0005",
                            "--count", "120000", "-o", holes})
                  .exit_code,
              0);
    const auto dense = dir.file("dense.csv");
    ASSERT_EQ(run_ppsbench({"run", "-q", "-s", "sim:hardirq,step=3ms,step-at=20000", "--count",
                            "80000", "-o", dense})
                  .exit_code,
              0);
    expect_same_report({holes});
    expect_same_report({dense});
    expect_same_report({"--detrend", "2", holes});
}

}  // namespace
}  // namespace ppsbench
