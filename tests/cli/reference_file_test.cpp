// SPDX-License-Identifier: GPL-2.0-or-later
// A two-path run's reference is an input like the path's own file: found beside the path's file
// only, proven to be that run's, never replaced by an output, and found for rotated parts too.
// The built binary on simulated paths (sim:reference is the reference).
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "capture_copy.hpp"
#include "cli.hpp"

namespace ppsbench {
namespace {

using testing::contains;
using testing::read_text;
using testing::run_ppsbench;
using testing::TempDir;

// `run -o DIR/NAME.csv` with a path `late` behind sim:reference; returns the path's file.
std::string two_path_run(const TempDir& dir, const std::string& name, const std::string& late,
                         const std::string& count = "640") {
    const auto run =
        run_ppsbench({"run", "--source", "sim:hardirq,late=" + late, "--source", "sim:reference",
                      "--count", count, "-o", dir.file(name + ".csv")});
    EXPECT_EQ(run.exit_code, 0) << run.err;
    return dir.file(name + "-1.csv");
}

double calibrated_constant(const std::vector<std::string>& args) {
    std::vector<std::string> all{"calibrate", "--format", "json"};
    all.insert(all.end(), args.begin(), args.end());
    const auto result = run_ppsbench(all);
    EXPECT_EQ(result.exit_code, 0) << result.err;
    const auto json = nlohmann::json::parse(result.out, nullptr, false);
    return json.is_object() && json.contains("constant_ns") ? json["constant_ns"].get<double>()
                                                            : std::nan("");
}

// Per-host folders of `-o cal.csv` runs: the reference is the one beside the file given, never
// the current directory's file of the same name.
TEST(ReferenceFile, IsFoundBesideThePathsFileNotInTheCurrentDirectory) {
    TempDir a;
    TempDir b;
    const auto twelve = two_path_run(a, "cal", "12us");
    two_path_run(b, "cal", "54us");
    const auto previous = std::filesystem::current_path();
    std::filesystem::current_path(b.path());
    const auto relative = std::filesystem::relative(twelve).string();
    const double constant = calibrated_constant({relative});
    std::filesystem::current_path(previous);
    EXPECT_NEAR(constant, 12'000, 1'000) << "a's path against a's reference, from b's folder";
}

TEST(ReferenceFile, AnotherRunsFileOfTheSameNameIsRefusedNamingBoth) {
    TempDir dir;
    const auto path = two_path_run(dir, "x", "12us");
    two_path_run(dir, "y", "12us");
    two_path_run(dir, "z", "30us");
    // y's reference in place of x's: the same sources, but another run.
    std::filesystem::copy_file(dir.file("y-2.csv"), dir.file("x-2.csv"),
                               std::filesystem::copy_options::overwrite_existing);
    const auto refused = run_ppsbench({"calibrate", path});
    EXPECT_EQ(refused.exit_code, 2) << refused.out;
    EXPECT_TRUE(contains(refused.err, path + ": " + dir.file("x-2.csv") +
                                          " beside it is not its reference (it is of run "))
        << refused.err;
    // report keeps the path's own figures and says why there is no bias.
    const auto report = run_ppsbench({"report", path});
    EXPECT_EQ(report.exit_code, 0) << report.err;
    EXPECT_TRUE(contains(report.err, "its bias is not reported")) << report.err;
    // z's measured another path.
    std::filesystem::copy_file(dir.file("z-2.csv"), dir.file("x-2.csv"),
                               std::filesystem::copy_options::overwrite_existing);
    EXPECT_TRUE(contains(run_ppsbench({"calibrate", path}).err,
                         "its other path was sim:hardirq,late=30us, not sim:hardirq,late=12us"));
    // The path's own file in the reference's place points nowhere back.
    std::filesystem::copy_file(path, dir.file("x-2.csv"),
                               std::filesystem::copy_options::overwrite_existing);
    EXPECT_TRUE(contains(run_ppsbench({"calibrate", path}).err, "it is path A too"));
}

// The same run's reference, but of an hour later (a file of the same run name from another
// session): pairing would find nothing and blame the count.
TEST(ReferenceFile, AReferenceSharingNoTimeWithThePathIsRefused) {
    TempDir dir;
    const auto path = two_path_run(dir, "s", "12us");
    testing::shifted_capture_copy(dir.file("s-2.csv"), dir.file("later.csv"), 3'600'000'000'000);
    std::filesystem::rename(dir.file("later.csv"), dir.file("s-2.csv"));
    const auto refused = run_ppsbench({"calibrate", path});
    EXPECT_EQ(refused.exit_code, 2);
    EXPECT_TRUE(contains(refused.err, "share no time with its reference " + dir.file("s-2.csv")))
        << refused.err;
}

// The reference is read for the bias, so it is in the command's file plan: no --html,
// --prometheus or --junit may replace it, --force or not.
TEST(ReferenceFile, NoOutputMayReplaceIt) {
    TempDir dir;
    const auto path = two_path_run(dir, "cal", "12us");
    const auto reference = dir.file("cal-2.csv");
    const auto before = read_text(reference);
    for (const auto& args : std::vector<std::vector<std::string>>{
             {"report", path, "--html", reference, "--force"},
             {"report", path, "--prometheus", reference, "--force"},
             {"gate", path, "--max-p2p", "1ms", "--junit", reference}}) {
        const auto result = run_ppsbench(args);
        EXPECT_EQ(result.exit_code, 2) << args[0] << " " << args[2] << ": " << result.out;
        EXPECT_TRUE(contains(result.err, "the reference of " + path)) << result.err;
    }
    EXPECT_EQ(read_text(reference), before);
    EXPECT_FALSE(std::isnan(calibrated_constant({path}))) << "calibrate still runs";
}

// A rotated two-path run: each path-1 part's peer_file is the reference's pattern; its part is
// the reference's file with the same run id and number.
TEST(ReferenceFile, ARotatedPartFindsItsReferencePart) {
    TempDir dir;
    const auto run =
        run_ppsbench({"run", "--source", "sim:hardirq,late=12us", "--source", "sim:reference",
                      "--pace", "realtime", "--period", "50ms", "--duration", "3.5s", "--rotate",
                      "1s", "-o", dir.file("r-%Y%m%dT%H%M%S.csv"), "--quiet"});
    ASSERT_EQ(run.exit_code, 0) << run.err;
    std::vector<std::string> parts;
    for (const auto& entry : std::filesystem::directory_iterator(dir.path())) {
        if (entry.path().string().ends_with("-1.csv")) {
            parts.push_back(entry.path().string());
        }
    }
    std::sort(parts.begin(), parts.end());
    ASSERT_GE(parts.size(), 3U);
    for (const auto& part : parts) {
        const auto report = run_ppsbench({"report", part, "--format", "json"});
        ASSERT_EQ(report.exit_code, 0) << report.err;
        const auto bias = nlohmann::json::parse(report.out)["runs"][0]["bias"];
        ASSERT_TRUE(bias.is_object()) << part << ": " << report.err;
        if (part == parts.back() && bias["pairs"] == 0) {
            // Path A opened a last part for a pulse past a seam the run ended before path B
            // met: its partner is B's last part, with nothing to pair.
            continue;
        }
        EXPECT_EQ(bias["reference"], "sim:reference");
        // The simulated noise is bounded (two uniforms of ±2588 ns): any mean is within 5176.
        EXPECT_NEAR(bias["mean_ns"].get<double>(), 12'000, 5'176) << part;
    }
    // Joined, the parts have no one reference file: no bias rather than the first part's.
    std::vector<std::string> join{"report", "--format", "json", "--join"};
    join.insert(join.end(), parts.begin(), parts.end());
    const auto joined = run_ppsbench(join);
    ASSERT_EQ(joined.exit_code, 0) << joined.err;
    EXPECT_FALSE(nlohmann::json::parse(joined.out)["runs"][0]["bias"].is_object()) << joined.out;
    EXPECT_TRUE(contains(joined.err, "the bias of joined parts is not computed yet")) << joined.err;
    std::vector<std::string> args{"--filter", "4"};
    args.insert(args.end(), parts.begin(), parts.end());
    EXPECT_NEAR(calibrated_constant(args), 12'000, 1'500);
    // Without its reference parts beside it, a part says what it looked for.
    TempDir elsewhere;
    const auto moved = elsewhere.file("part.csv");
    std::filesystem::copy_file(parts.front(), moved);
    const auto alone = run_ppsbench({"calibrate", moved});
    EXPECT_EQ(alone.exit_code, 2);
    EXPECT_TRUE(contains(alone.err, "is not beside it in " + elsewhere.path().string()))
        << alone.err;
}

}  // namespace
}  // namespace ppsbench
