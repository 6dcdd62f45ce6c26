// SPDX-License-Identifier: GPL-2.0-or-later
// The name a run gets without -o: unique however fast runs follow each other, and in the order
// they started when listed (the nightly unit picks files by `ls` order).
#include "ppsbench/session/default_name.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include "cli.hpp"
#include "ppsbench/core/error.hpp"
#include "ppsbench/store/capture_reader.hpp"

namespace ppsbench::session {
namespace {

// Runs the test with the temp dir as the current directory, where default names go.
class InTempDir : public ::testing::Test {
  protected:
    void SetUp() override {
        previous_ = std::filesystem::current_path();
        std::filesystem::current_path(dir_.path());
    }
    void TearDown() override { std::filesystem::current_path(previous_); }
    testing::TempDir dir_;
    std::filesystem::path previous_;
};

using DefaultName = InTempDir;

// Many claims inside one millisecond: each must step on to a free name, never share one.
TEST_F(DefaultName, ClaimsInTheSameMillisecondGetDistinctNamesInClaimOrder) {
    std::vector<std::string> names;
    for (int i = 0; i < 20; ++i) {
        names.push_back(claim_default_output("ppsbench-"));
    }
    EXPECT_EQ(std::set<std::string>(names.begin(), names.end()).size(), names.size());
    EXPECT_TRUE(std::is_sorted(names.begin(), names.end())) << "a later claim sorts later";
    for (const auto& name : names) {
        EXPECT_TRUE(std::regex_match(name, std::regex(R"(ppsbench-\d{8}T\d{6}\.\d{3}Z\.csv)")))
            << name;
        EXPECT_TRUE(std::filesystem::exists(name)) << "claimed by creating it";
    }
}

// A two-path run's pair: both files of one millisecond, distinct from every other pair.
TEST_F(DefaultName, PairsClaimedTogetherShareTheirTimeAndNeverEachOther) {
    std::set<std::string> names;
    for (int i = 0; i < 10; ++i) {
        const auto pair = claim_default_output_pair("ppsbench-");
        EXPECT_TRUE(std::regex_match(pair[0], std::regex(R"(ppsbench-\d{8}T\d{6}\.\d{3}Z-1\.csv)")))
            << pair[0];
        EXPECT_EQ(pair[0].substr(0, pair[0].size() - 6), pair[1].substr(0, pair[1].size() - 6));
        EXPECT_TRUE(std::filesystem::exists(pair[0]) && std::filesystem::exists(pair[1]));
        names.insert(pair.begin(), pair.end());
    }
    EXPECT_EQ(names.size(), 20U);
}

// Half a pair held by another run (its -2 file): that time is not taken, and the half this
// claim made on the way is let go.
TEST_F(DefaultName, APairHalfHeldByAnotherRunIsLetGo) {
    const auto held = claim_default_output_pair("ppsbench-");
    std::filesystem::remove(held[0]);
    testing::write_text(held[1], "another run's capture");
    const auto next = claim_default_output_pair("ppsbench-");
    EXPECT_NE(next[0], held[0]);
    EXPECT_NE(next[1], held[1]);
    EXPECT_FALSE(std::filesystem::exists(held[0])) << "the free half is not kept";
    EXPECT_EQ(testing::read_text(held[1]), "another run's capture");
}

TEST_F(DefaultName, ANameAnotherRunHoldsIsNeverTaken) {
    const std::string first = claim_default_output("ppsbench-latency-");
    testing::write_text(first, "another run's capture");
    const std::string second = claim_default_output("ppsbench-latency-");
    EXPECT_NE(second, first);
    EXPECT_GT(second, first);
    EXPECT_EQ(testing::read_text(first), "another run's capture");
}

// As root (CI's containers), the same through the binary run as nobody in a root-owned folder.
TEST_F(DefaultName, AnUnwritableDirectoryIsOneLineNamingTheFixEvenForARun) {
    if (::geteuid() != 0 || !std::filesystem::exists("/usr/bin/setpriv")) {
        GTEST_SKIP() << "needs root and setpriv to become nobody";
    }
    std::filesystem::permissions(
        dir_.path(), std::filesystem::perms::owner_all | std::filesystem::perms::group_read |
                         std::filesystem::perms::group_exec | std::filesystem::perms::others_read |
                         std::filesystem::perms::others_exec);
    const auto result = testing::run_program(
        {"/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", "/bin/sh", "-c",
         "cd '" + dir_.path().string() + "' && exec '" + PPSBENCH_BINARY +
             "' run -s sim:hardirq --count 5"});
    EXPECT_EQ(result.exit_code, 2) << result.err;
    EXPECT_TRUE(testing::contains(result.err,
                                  "cannot create the default output in the current "
                                  "directory"))
        << result.err;
    EXPECT_TRUE(testing::contains(result.err, "give -o FILE in a writable directory"))
        << result.err;
    EXPECT_TRUE(std::filesystem::is_empty(dir_.path()));
}

TEST_F(DefaultName, AnUnwritableDirectoryIsOneLineNamingTheFix) {
    if (::geteuid() == 0) {
        GTEST_SKIP() << "root writes anywhere (the test above covers root)";
    }
    std::filesystem::permissions(
        dir_.path(), std::filesystem::perms::owner_read | std::filesystem::perms::owner_exec);
    try {
        claim_default_output("ppsbench-");
        ADD_FAILURE() << "no error";
    } catch (const core::InputError& e) {
        EXPECT_TRUE(testing::contains(e.what(), "give -o FILE in a writable directory"))
            << e.what();
    }
    std::filesystem::permissions(dir_.path(), std::filesystem::perms::owner_all);
}

std::vector<std::string> files_in(const std::filesystem::path& dir) {
    std::vector<std::string> files;
    for (const auto& entry : std::filesystem::directory_iterator(dir)) {
        files.push_back(entry.path().string());
    }
    std::sort(files.begin(), files.end());  // as `ls` lists them
    return files;
}

// The real binary: runs started together, each without -o, all succeed with their own file.
TEST_F(DefaultName, RunsStartedTogetherEachKeepTheirOwnCapture) {
    const std::string run = "'" + std::string(PPSBENCH_BINARY) + "' run -s sim:hardirq --count 50";
    const auto result =
        testing::run_program({"/bin/sh", "-c",
                              "cd '" + dir_.path().string() + "' && { " + run + " & a=$!; " + run +
                                  " & b=$!; " + run + " & c=$!; wait $a && wait $b && wait $c; }"});
    EXPECT_EQ(result.exit_code, 0) << result.err;
    const auto files = files_in(dir_.path());
    ASSERT_EQ(files.size(), 3U) << result.err;
    for (const auto& file : files) {
        const auto capture = store::read_capture_file(file);
        EXPECT_EQ(capture.pulses.size(), 50U) << file;
        EXPECT_NE(capture.end_record(), nullptr) << file;
    }
}

TEST_F(DefaultName, RunsOneAfterAnotherListInTheOrderTheyStarted) {
    for (int i = 0; i < 4; ++i) {
        const auto result =
            testing::run_program({"/bin/sh", "-c",
                                  "cd '" + dir_.path().string() + "' && exec '" + PPSBENCH_BINARY +
                                      "' run -s sim:hardirq --count 5"});
        ASSERT_EQ(result.exit_code, 0) << result.err;
    }
    const auto files = files_in(dir_.path());
    ASSERT_EQ(files.size(), 4U);
    for (std::size_t i = 1; i < files.size(); ++i) {
        EXPECT_LT(store::read_capture_file(files[i - 1]).run_meta.start_realtime_ns,
                  store::read_capture_file(files[i]).run_meta.start_realtime_ns)
            << files[i - 1] << " lists before " << files[i];
    }
}

}  // namespace
}  // namespace ppsbench::session
