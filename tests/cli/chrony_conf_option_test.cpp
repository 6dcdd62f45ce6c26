// SPDX-License-Identifier: GPL-2.0-or-later
// `run --chrony-conf FILE`: the configuration chronyd was started with (its -f). One that cannot
// be read is refused before anything is captured, since it would silently give no refid and no
// offset; one without a refclock for the run is fine, and then the offset is not written.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>

#include "cli.hpp"

namespace ppsbench {
namespace {

using testing::contains;
using testing::run_ppsbench;
using testing::TempDir;

TEST(ChronyConfOption, AFileThatCannotBeReadIsRefusedAndNothingIsWritten) {
    TempDir dir;
    for (const auto& conf : {dir.file("absent.conf"), dir.path().string()}) {
        const auto out = dir.file("run.csv");
        const auto result = run_ppsbench({"run", "--source", "sim:threaded", "--count", "3",
                                          "--chrony", "on", "--chrony-conf", conf, "-o", out});
        EXPECT_EQ(result.exit_code, 2) << result.err;
        EXPECT_TRUE(contains(result.err, "--chrony-conf " + conf + ": not a readable file"))
            << result.err;
        EXPECT_EQ(std::count(result.err.begin(), result.err.end(), '\n'), 1) << result.err;
        EXPECT_FALSE(std::filesystem::exists(out));
    }
}

TEST(ChronyConfOption, NoRefclockForTheRunMeansNoOffsetSeries) {
    TempDir dir;
    const auto conf = dir.file("chrony.conf");
    std::ofstream(conf) << "refclock PPS /dev/pps3 offset 0.000100\n";
    const auto prom = dir.file("live.prom");
    // No chronyd behind this socket: the run goes on and says so; the offset is chrony.conf's.
    const auto result =
        run_ppsbench({"run", "--source", "sim:threaded", "--count", "5", "--chrony", "on",
                      "--chrony-socket", dir.file("no.sock"), "--chrony-conf", conf, "--prometheus",
                      prom, "-o", dir.file("run.csv"), "--quiet"});
    ASSERT_EQ(result.exit_code, 0) << result.err;
    const auto text = testing::read_text(prom);
    EXPECT_FALSE(contains(text, "ppsbench_live_chrony_refclock_offset_seconds")) << text;
    EXPECT_FALSE(contains(text, "ppsbench_live_chrony_pps_selected")) << text;
}

// strtod reads "nan" and "inf" as chronyd's sscanf does; neither is an offset to subtract.
TEST(ChronyConfOption, AnOffsetThatIsNotAFiniteNumberIsNotWritten) {
    TempDir dir;
    for (const char* offset : {"nan", "inf", "12us"}) {
        const auto conf = dir.file("chrony.conf");
        std::ofstream(conf) << "refclock SHM 0 refid GPS offset " << offset << "\n";
        const auto prom = dir.file("live.prom");
        const auto result = run_ppsbench(
            {"run", "--source", "sim:threaded", "--count", "5", "--chrony", "on", "--chrony-socket",
             dir.file("no.sock"), "--chrony-refid", "GPS", "--chrony-conf", conf, "--prometheus",
             prom, "-o", dir.file(std::string("run-") + offset + ".csv"), "--quiet"});
        ASSERT_EQ(result.exit_code, 0) << result.err;
        const auto text = testing::read_text(prom);
        EXPECT_FALSE(contains(text, "ppsbench_live_chrony_refclock_offset_seconds")) << offset;
    }
}

TEST(ChronyConfOption, TheRefidsRefclockGivesTheOffset) {
    TempDir dir;
    const auto conf = dir.file("chrony.conf");
    std::ofstream(conf) << "refclock PPS /dev/pps3 offset 0.000100\n"
                           "refclock SHM 0 refid GPS offset 0.000025 noselect\n";
    const auto prom = dir.file("live.prom");
    const auto result = run_ppsbench({"run", "--source", "sim:threaded", "--count", "5", "--chrony",
                                      "on", "--chrony-socket", dir.file("no.sock"),
                                      "--chrony-refid", "GPS", "--chrony-conf", conf,
                                      "--prometheus", prom, "-o", dir.file("run.csv"), "--quiet"});
    ASSERT_EQ(result.exit_code, 0) << result.err;
    const auto text = testing::read_text(prom);
    EXPECT_TRUE(contains(text, "ppsbench_live_chrony_refclock_offset_seconds{")) << text;
    EXPECT_TRUE(contains(text, "} 2.5e-05\n")) << text;
    EXPECT_FALSE(contains(text, "ppsbench_live_chrony_pps_selected")) << "chronyd never answered";
}

}  // namespace
}  // namespace ppsbench
