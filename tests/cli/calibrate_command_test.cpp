// SPDX-License-Identifier: GPL-2.0-or-later
// End to end, on simulated paths: a constant lateness (late=D) revealed by sim:reference as
// bias, turned by `calibrate` into chrony's offset and ntpd's time1, refused when it cannot be
// one constant, and gated two-sided.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "capture_copy.hpp"
#include "cli.hpp"

namespace ppsbench {
namespace {

using testing::contains;
using testing::run_ppsbench;
using testing::TempDir;

// A two-source run: path 1 the simulated kernel, path 2 the reference. Returns path 1's file.
std::string two_source_capture(const TempDir& dir, const std::string& name, const std::string& path,
                               const std::string& count = "3600") {
    const auto out = dir.file(name + ".csv");
    const auto run = run_ppsbench(
        {"run", "--source", path, "--source", "sim:reference", "--count", count, "-o", out});
    EXPECT_EQ(run.exit_code, 0) << run.err;
    return dir.file(name + "-1.csv");
}

nlohmann::json calibrate_json(const std::vector<std::string>& files, int expected_exit = 0) {
    std::vector<std::string> args{"calibrate", "--format", "json"};
    args.insert(args.end(), files.begin(), files.end());
    const auto result = run_ppsbench(args);
    EXPECT_EQ(result.exit_code, expected_exit) << result.err;
    return nlohmann::json::parse(result.out);
}

TEST(SimulatedBias, TheReferenceRevealsAConstantLatenessAsBiasLabelledSimulated) {
    TempDir dir;
    const auto late = two_source_capture(dir, "late", "sim:hardirq,late=12us");
    const auto report =
        run_ppsbench({"report", late, "--format", "csv", "--metrics", "bias_mean,bias_median"});
    ASSERT_EQ(report.exit_code, 0) << report.err;
    EXPECT_TRUE(contains(report.out, ",true,")) << "the simulated column: " << report.out;
    const auto text = run_ppsbench({"report", late});
    EXPECT_TRUE(contains(text.out, "SIMULATED")) << text.out;
    EXPECT_TRUE(contains(text.out, "against the reference sim:reference over 3600 paired edges"))
        << text.out;
    // The mean of an hour of hard-IRQ noise (σ 2.1 µs) is within 0.2 µs of the constant.
    const auto json = run_ppsbench({"report", late, "--format", "json"});
    const auto bias = nlohmann::json::parse(json.out)["runs"][0]["bias"];
    EXPECT_NEAR(bias["mean_ns"].get<double>(), 12'000, 200) << bias.dump();
    EXPECT_NEAR(bias["median_ns"].get<double>(), 12'000, 300);
    EXPECT_FALSE(bias.contains("polled")) << "a sim reference polls nothing";
}

TEST(Calibrate, GivesChronysOffsetAndNtpdsTime1WithTheSignThatCompensates) {
    TempDir dir;
    const auto late = two_source_capture(dir, "late", "sim:hardirq,late=12us");
    const auto text = run_ppsbench({"calibrate", late});
    ASSERT_EQ(text.exit_code, 0) << text.err;
    EXPECT_TRUE(contains(text.out, "chrony.conf:  refclock PPS /dev/pps0 offset 0.0000120"))
        << text.out;
    EXPECT_TRUE(contains(text.out, "ntp.conf:     fudge 127.127.22.0 time1 0.0000120")) << text.out;
    EXPECT_TRUE(contains(text.out, "SIMULATED")) << text.out;
    const auto j = calibrate_json({late});
    EXPECT_EQ(j["schema"], "ppsbench.calibration/1");
    EXPECT_TRUE(j["refusal"].is_null());
    EXPECT_LE(std::abs(j["constant_ns"].get<double>() - 12'000), j["uncertainty_ns"].get<double>());
    EXPECT_EQ(j["polls"], 225);
    // A path that is early needs a negative offset.
    const auto early = two_source_capture(dir, "early", "sim:hardirq,late=-5us");
    const auto e = calibrate_json({early});
    EXPECT_LE(std::abs(e["constant_ns"].get<double>() + 5'000), e["uncertainty_ns"].get<double>());
    EXPECT_EQ(e["chrony_offset_s"].get<std::string>().substr(0, 8), "-0.00000") << e.dump();
}

TEST(Calibrate, OnAThreadedPathIsChronysEstimateNeitherMeanNorMedian) {
    TempDir dir;
    const auto threaded = two_source_capture(dir, "rt", "sim:threaded,late=12us");
    const auto j = calibrate_json({threaded});
    const double constant = j["constant_ns"].get<double>();
    // The model's mean is the constant (its wake-up delay is centred); the filter's trimmed
    // polls sit below it, on the bulk of the skewed distribution.
    EXPECT_NEAR(j["mean_ns"].get<double>(), 12'000, 400) << j.dump();
    EXPECT_LT(constant, j["mean_ns"].get<double>() - 300) << j.dump();
}

TEST(Calibrate, RefusesWhatOneConstantCannotDescribe) {
    TempDir dir;
    const auto short_run = two_source_capture(dir, "short", "sim:hardirq,late=12us", "100");
    const auto few = calibrate_json({short_run}, 1);
    EXPECT_EQ(few["refusal"], "too_few_pulses");
    EXPECT_FALSE(few.contains("constant_ns"));
    const auto words = run_ppsbench({"calibrate", short_run});
    EXPECT_EQ(words.exit_code, 1);
    EXPECT_TRUE(contains(words.out, "no constant: only 100 paired edges")) << words.out;
    // A step of the lateness half-way: drifting.
    const auto stepped =
        two_source_capture(dir, "step", "sim:hardirq,late=6us,step=5us,step-at=1800");
    EXPECT_EQ(calibrate_json({stepped}, 1)["refusal"], "drifting");
}

TEST(Calibrate, AFileWithoutAReferenceIsBadInput) {
    TempDir dir;
    const auto single = dir.file("single.csv");
    ASSERT_EQ(
        run_ppsbench({"run", "--source", "sim:hardirq", "--count", "200", "-o", single}).exit_code,
        0);
    const auto alone = run_ppsbench({"calibrate", single});
    EXPECT_EQ(alone.exit_code, 2);
    EXPECT_TRUE(contains(alone.err, "has no reference")) << alone.err;
    // The reference's own file names the other path.
    const auto late = two_source_capture(dir, "late", "sim:hardirq,late=12us", "200");
    const auto reference = run_ppsbench({"calibrate", dir.file("late-2.csv")});
    EXPECT_EQ(reference.exit_code, 2);
    EXPECT_TRUE(contains(reference.err, "was not measured against a reference")) << reference.err;
    EXPECT_EQ(run_ppsbench({"calibrate"}).exit_code, 2);
    EXPECT_EQ(run_ppsbench({"calibrate", late, "--filter", "0"}).exit_code, 2);
    EXPECT_EQ(run_ppsbench({"calibrate", late, "--edge", "both"}).exit_code, 2);
    // No paired edge because the file holds none of that edge: its own cause, not "capture
    // more" (the other two causes: tests/cli/reference_file_test.cpp and the lab's poll check).
    const auto clear = run_ppsbench({"calibrate", late, "--edge", "clear"});
    EXPECT_EQ(clear.exit_code, 2);
    EXPECT_TRUE(contains(clear.err, "no clear edges to calibrate (its run captured assert)"))
        << clear.err;
    EXPECT_EQ(run_ppsbench({"calibrate", dir.file("absent.csv")}).exit_code, 2);
}

// A copy of a two-source run's pair of files as another session `shift_ns` later, named
// NAME-1.csv / NAME-2.csv, the path's file pointing at its own reference. Returns the path's.
std::string later_session(const TempDir& dir, const std::string& from, const std::string& name,
                          std::int64_t shift_ns) {
    const std::vector<std::pair<std::string, std::string>> peers{
        {from + "-1.csv", name + "-1.csv"}, {from + "-2.csv", name + "-2.csv"}};
    for (const char* part : {"-1.csv", "-2.csv"}) {
        testing::shifted_capture_copy(dir.file(from + part), dir.file(name + part), shift_ns,
                                      peers);
    }
    return dir.file(name + "-1.csv");
}

// Several files are one path's sessions or parts: each edge counts once, or the interval
// shrinks as if repeated edges were new ones.
TEST(Calibrate, CountsEachEdgeOnceAndOnePathAtATime) {
    TempDir dir;
    const auto late = two_source_capture(dir, "late", "sim:hardirq,late=12us", "640");
    const auto once = calibrate_json({late});
    // Metamorphic: the same session an hour later doubles the pairs and keeps the constant.
    const auto hour_later = later_session(dir, "late", "later", 3'600'000'000'000);
    const auto both = calibrate_json({late, hour_later});
    EXPECT_EQ(both["pairs"], 2 * once["pairs"].get<int>());
    EXPECT_NEAR(both["constant_ns"].get<double>(), once["constant_ns"].get<double>(), 1e-6)
        << "the same lateness twice over has the same polls' mean";

    // The same file under other names: twice, a symlink, a hard link, relative.
    std::filesystem::create_symlink(late, dir.file("link.csv"));
    std::filesystem::create_hard_link(late, dir.file("hard.csv"));
    const auto relative = std::filesystem::relative(late, std::filesystem::current_path()).string();
    for (const auto& again : {late, dir.file("link.csv"), dir.file("hard.csv"), relative}) {
        const auto twice = run_ppsbench({"calibrate", late, again});
        EXPECT_EQ(twice.exit_code, 2) << again;
        EXPECT_TRUE(contains(twice.err, "the same file as " + late + ", given twice")) << twice.err;
        EXPECT_EQ(std::count(twice.err.begin(), twice.err.end(), '\n'), 1) << twice.err;
    }
    // A copy under another name claims the same edges: overlapping spans.
    const auto copy = later_session(dir, "late", "copy", 0);
    const auto copied = run_ppsbench({"calibrate", late, copy});
    EXPECT_EQ(copied.exit_code, 2);
    EXPECT_TRUE(contains(copied.err, "overlap those of " + late)) << copied.err;
    // Another path's file (a threaded one, against the same reference) is another constant.
    two_source_capture(dir, "rt", "sim:threaded,late=12us", "640");
    const auto hour_after = later_session(dir, "rt", "rtlater", 3'600'000'000'000);
    const auto mixed = run_ppsbench({"calibrate", late, hour_after});
    EXPECT_EQ(mixed.exit_code, 2);
    EXPECT_TRUE(contains(mixed.err, "calibrate each path's files separately")) << mixed.err;
}

// Metamorphic: the order of the files on the command line is not the order of time. The
// drift test splits the polls into quarters of time, so `calibrate B A` (B an hour after A,
// another seed) must give what `calibrate A B` gives, to the last field.
TEST(Calibrate, TheFilesOrderIsTheirTimesNotTheCommandLines) {
    TempDir dir;
    const auto capture = [&](const std::string& name, const std::string& seed) {
        const auto run =
            run_ppsbench({"run", "--source", "sim:threaded,late=12us", "--source", "sim:reference",
                          "--count", "640", "--seed", seed, "-o", dir.file(name + ".csv")});
        EXPECT_EQ(run.exit_code, 0) << run.err;
        return dir.file(name + "-1.csv");
    };
    const auto first = capture("first", "11");
    capture("second", "12");
    const auto hour_later = later_session(dir, "second", "later", 3'600'000'000'000);
    const auto in_order = calibrate_json({first, hour_later});
    const auto reversed = calibrate_json({hour_later, first});
    EXPECT_EQ(in_order.dump(1), reversed.dump(1));
    ASSERT_TRUE(in_order.contains("inputs")) << in_order.dump(1);
    EXPECT_EQ(in_order["inputs"][0], first) << "listed in time order";
}

TEST(Calibrate, HelpNamesItsOptionsAndTheSign) {
    const auto help = run_ppsbench({"calibrate", "--help"});
    EXPECT_EQ(help.exit_code, 0);
    for (const char* word : {"--format", "--edge", "--filter", "--max-drift", "offset", "time1",
                             "sim:reference", "cpu_dma_latency"}) {
        EXPECT_TRUE(contains(help.out, word)) << word;
    }
    EXPECT_TRUE(contains(run_ppsbench({"--help"}).out, "calibrate"));
}

TEST(BiasGate, FailsWhenTheBiasMovesEitherWay) {
    TempDir dir;
    const auto at12 = two_source_capture(dir, "a", "sim:hardirq,late=12us");
    const auto at4 = two_source_capture(dir, "b", "sim:hardirq,late=4us");
    const auto down = run_ppsbench({"gate", "--baseline", at12, at4, "--max-bias-growth", "2us"});
    EXPECT_EQ(down.exit_code, 1) << down.out << down.err;
    EXPECT_TRUE(contains(down.out, "the upper bound is below")) << down.out;
    const auto up = run_ppsbench({"gate", "--baseline", at4, at12, "--max-bias-growth", "2us"});
    EXPECT_EQ(up.exit_code, 1) << up.out;
    const auto again = two_source_capture(dir, "c", "sim:hardirq,late=4us");
    EXPECT_EQ(
        run_ppsbench({"gate", "--baseline", at4, again, "--max-bias-growth", "2us"}).exit_code, 0);
}

// doctor --bias: the configured offset against the measured one, on a copy of the stock Pi
// fixture (tests/sysinfo/fixtures/rpi-stock), whose PPS refclock line gives no offset.
TEST(DoctorBias, SaysWhetherTheConfiguredOffsetMatchesAndWhichLineToChange) {
    TempDir dir;
    const auto late = two_source_capture(dir, "late", "sim:hardirq,late=12us");
    const auto root = dir.file("root");
    std::filesystem::copy(std::string(PPSBENCH_SOURCE_DIR) + "/tests/sysinfo/fixtures/rpi-stock",
                          root, std::filesystem::copy_options::recursive);
    const auto doctor = [&] {
        return run_ppsbench({"doctor", "--pulse-wait", "0", "--sysroot", root, "--bias", late});
    };
    const auto none = doctor();
    EXPECT_EQ(none.exit_code, 0) << none.out << none.err;
    EXPECT_TRUE(contains(none.out, "gps.conf:3: offset 0 ns (none given) is -12.0 µs off"))
        << none.out;
    EXPECT_TRUE(contains(none.out,
                         "refclock PPS /dev/pps0 refid PPS lock NMEA poll 3 offset "
                         "0.0000"))
        << none.out;
    EXPECT_TRUE(contains(none.out, "system clock's phase at the reference edges: median 0 ns"))
        << "sim:reference's edges are on the second: " << none.out;

    const auto constant = calibrate_json({late})["chrony_offset_s"].get<std::string>();
    testing::write_text(root + "/etc/chrony/conf.d/gps.conf",
                        "refclock SHM 0 refid NMEA offset 0.200 precision 1e-3 poll 3 noselect\n"
                        "refclock PPS /dev/pps0 refid PPS lock NMEA poll 3 offset " +
                            constant + "\n");
    std::filesystem::create_directories(root + "/etc/ntpsec");
    testing::write_text(root + "/etc/ntpsec/ntp.conf",
                        "server 127.127.22.0 minpoll 4\nfudge 127.127.22.0 time1 0.000020 # old\n");
    const auto set = doctor();
    EXPECT_TRUE(contains(set.out, "[ ok ] ")) << set.out;
    EXPECT_TRUE(contains(set.out, "/etc/ntpsec/ntp.conf:2: time1 +20.0 µs is")) << set.out;
    EXPECT_TRUE(contains(set.out, "fudge 127.127.22.0 time1 " + constant)) << set.out;

    const auto json = run_ppsbench(
        {"doctor", "--pulse-wait", "0", "--sysroot", root, "--bias", late, "--format", "json"});
    const auto check = nlohmann::json::parse(json.out)["bias_check"];
    EXPECT_EQ(check["estimator"], "chrony-filter");
    ASSERT_EQ(check["lines"].size(), 2U) << check.dump();
    EXPECT_TRUE(check["lines"][0]["matches"].get<bool>());
    EXPECT_FALSE(check["lines"][1]["matches"].get<bool>());

    const auto no_bias = run_ppsbench(
        {"doctor", "--pulse-wait", "0", "--sysroot", root, "--bias", dir.file("late-2.csv")});
    EXPECT_EQ(no_bias.exit_code, 2);
    EXPECT_TRUE(contains(no_bias.err, "--bias")) << no_bias.err;
}

}  // namespace
}  // namespace ppsbench
