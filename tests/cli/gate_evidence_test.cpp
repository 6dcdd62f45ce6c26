// SPDX-License-Identifier: GPL-2.0-or-later
// A gate judges only what the data supports (issue 39): chrony's figures when chrony was
// synchronised at the end and for most of the run, a bias figure of enough reference pairs,
// counts the capture holds evidence for, ratios between runs of one cadence, and no median or
// RMS of centred residuals. Each other case is exit 2 with one line naming the file, the figure
// and the fix, never "pass".
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <sstream>

#include "cli.hpp"

namespace ppsbench {
namespace {

using testing::contains;
using testing::read_text;
using testing::run_ppsbench;
using testing::TempDir;
using testing::write_text;

std::string capture(const TempDir& dir, const std::string& name,
                    const std::vector<std::string>& options) {
    std::vector<std::string> args{"run", "-q", "-o", dir.file(name)};
    args.insert(args.end(), options.begin(), options.end());
    const auto result = run_ppsbench(args);
    EXPECT_EQ(result.exit_code, 0) << result.err;
    return dir.file(name);
}

void expect_not_judged(const std::vector<std::string>& args, const std::string& reason) {
    const auto result = run_ppsbench(args);
    EXPECT_EQ(result.exit_code, 2) << result.out << result.err;
    EXPECT_TRUE(contains(result.err, reason)) << "wanted " << reason << "\ngot " << result.err;
    // One line for the refusal (warnings about the input may come before it).
    EXPECT_EQ(testing::count_of(result.err, "\n") - testing::count_of(result.err, "warning: "), 1U)
        << result.err;
    EXPECT_FALSE(contains(result.out, "PASS")) << result.out;
}

// One `# chrony` line as `run` writes it: synchronised with RMS offset `rms_ns`, or `status`.
std::string chrony_line(std::int64_t time_ns, const std::string& status, int rms_ns) {
    nlohmann::json tracking = nullptr;
    if (status == "ok") {
        tracking = {{"ref_id", "50505300"},
                    {"ref_name", "PPS"},
                    {"stratum", 1},
                    {"ref_time_ns", time_ns},
                    {"system_time_offset_ns", 10},
                    {"last_offset_ns", 20},
                    {"rms_offset_ns", rms_ns},
                    {"frequency_ppm", 1.5},
                    {"residual_frequency_ppm", 0.0},
                    {"skew_ppm", 0.01},
                    {"root_delay_ns", 0},
                    {"root_dispersion_ns", 1000},
                    {"update_interval_s", 16.0},
                    {"leap", "Normal"}};
    }
    const nlohmann::json sample = {{"v", 1},
                                   {"time_ns", time_ns},
                                   {"status", status},
                                   {"detail", status == "ok" ? "" : "chronyd stopped"},
                                   {"tracking", tracking},
                                   {"pps_pick", "none"},
                                   {"pps_source", nullptr},
                                   {"pps_stats", nullptr}};
    return "# chrony " + sample.dump() + "\n";
}

// A capture of 600 simulated pulses with chrony samples of these statuses, one a minute.
std::string capture_with_chrony(const TempDir& dir, const std::string& name,
                                const std::vector<std::string>& statuses) {
    const auto path = capture(dir, name, {"-s", "sim:hardirq", "--count", "600", "--seed", "3"});
    std::string text = read_text(path);
    std::string lines;
    for (std::size_t i = 0; i < statuses.size(); ++i) {
        lines +=
            chrony_line(1'767'225'600'000'000'000 + static_cast<std::int64_t>(i) * 60'000'000'000,
                        statuses[i], 300);
    }
    const auto at = text.find("sequence,");
    EXPECT_NE(at, std::string::npos);
    text.insert(at, lines);
    write_text(path, text);
    return path;
}

// chronyd died five minutes into the run: its RMS offset "at the end" is the one before it
// died. main passed `--max-rms-offset 1us` on it; the capture's own status says why not.
TEST(GateEvidence, ChronysFiguresNeedChronySynchronisedAtTheEnd) {
    TempDir dir;
    const std::vector<std::string> died{"ok", "ok", "ok", "ok", "ok", "chronyd-not-running"};
    const auto dead = capture_with_chrony(dir, "died.csv", died);
    expect_not_judged({"gate", dead, "--max-rms-offset", "1us"},
                      "died.csv: chrony was chronyd-not-running at the end of the run");
    expect_not_judged({"gate", dead, "--max", "rms_offset_mean=1us"}, "chronyd-not-running");
    // Its saved summary keeps the status, and so the refusal.
    const auto saved = run_ppsbench({"report", "--format", "json", dead});
    ASSERT_EQ(saved.exit_code, 0) << saved.err;
    write_text(dir.file("died.json"), saved.out);
    expect_not_judged({"gate", dir.file("died.json"), "--max-rms-offset", "1us"},
                      "chrony was chronyd-not-running at the end");

    // Synchronised in only 2 of 5 samples, though at the end.
    const auto mostly_lost = capture_with_chrony(
        dir, "lost.csv", {"ok", "not-synchronised", "not-synchronised", "not-synchronised", "ok"});
    expect_not_judged({"gate", mostly_lost, "--max-rms-offset", "1us"},
                      "synchronised in only 2 of its 5 samples");

    // Synchronised throughout: judged, and the verdict says what it stands on, in text and JUnit.
    const auto fine = capture_with_chrony(dir, "fine.csv", {"ok", "ok", "ok", "ok"});
    const auto pass =
        run_ppsbench({"gate", fine, "--max-rms-offset", "1us", "--junit", dir.file("junit.xml")});
    EXPECT_EQ(pass.exit_code, 0) << pass.err;
    EXPECT_TRUE(contains(pass.out, "(chrony synchronised at the end and in 4 of 4 samples)"))
        << pass.out;
    EXPECT_TRUE(contains(read_text(dir.file("junit.xml")),
                         "chrony synchronised at the end and in 4 of 4 samples"));
    EXPECT_EQ(run_ppsbench({"gate", fine, "--max-rms-offset", "200ns"}).exit_code, 1);
    // A limit on any other figure does not depend on chrony.
    EXPECT_EQ(run_ppsbench({"gate", dead, "--max-sigma", "10us"}).exit_code, 0);
}

std::string chrony_fixture(const std::string& name) {
    return std::string(PPSBENCH_SOURCE_DIR) + "/tests/import/fixtures/" + name;
}

// The refclocks.log lines of the chronyd of the tracking.log fixture (tests/import/fixtures),
// after its restart (01:27:09), as a capture.
std::string second_process_capture(const TempDir& dir) {
    std::istringstream in(read_text(chrony_fixture("chrony-refclocks-restart-fallbackdrift.log")));
    std::string text;
    std::string line;
    while (std::getline(in, line)) {
        if (line.starts_with("2026-") && line.substr(11, 8) > "01:27:09") {
            text += line + "\n";
        }
    }
    write_text(dir.file("rt.log"), text);
    EXPECT_EQ(
        run_ppsbench({"import", "chrony-refclocks", dir.file("rt.log"), "-o", dir.file("rt.csv")})
            .exit_code,
        0);
    return dir.file("rt.csv");
}

// tracking.log's lines (no banners), split at `split` (a time "01:28:00").
std::pair<std::string, std::string> tracking_halves(const std::string& split) {
    std::istringstream in(read_text(chrony_fixture("chrony-tracking-restart-fallbackdrift.log")));
    std::string older;
    std::string newer;
    std::string line;
    while (std::getline(in, line)) {
        if (line.starts_with("2026-")) {
            (line.substr(11, 8) < split ? older : newer) += line + "\n";
        }
    }
    return {older, newer};
}

// `--chrony-log tracking.log.1 tracking.log` or the other way round (ls order puts .1 first):
// the same verdict and figure either way, with a note when they were put in order. main used
// the newest-first files as given, and passed where the right order failed.
TEST(GateEvidence, ChronyLogFilesInEitherOrderGiveTheSameVerdict) {
    TempDir dir;
    const auto rt = second_process_capture(dir);
    const auto [older, newer] = tracking_halves("01:28:00");
    write_text(dir.file("tracking.log.1"), older);
    write_text(dir.file("tracking.log"), newer);
    const auto judged = [&](const std::vector<std::string>& logs, const std::string& limit) {
        std::vector<std::string> args{"gate", rt, "--min-pulses", "50", "--max-rms-offset", limit};
        for (const auto& log : logs) {
            args.insert(args.end(), {"--chrony-log", log});
        }
        return run_ppsbench(args);
    };
    const std::vector<std::string> oldest_first{dir.file("tracking.log.1"),
                                                dir.file("tracking.log")};
    const std::vector<std::string> newest_first{dir.file("tracking.log"),
                                                dir.file("tracking.log.1")};
    for (const char* limit : {"1us", "300ns", "100ns"}) {
        SCOPED_TRACE(limit);
        const auto in_order = judged(oldest_first, limit);
        const auto reversed = judged(newest_first, limit);
        EXPECT_EQ(in_order.exit_code, reversed.exit_code) << in_order.out << reversed.out;
        EXPECT_EQ(in_order.out, reversed.out);
        EXPECT_FALSE(contains(in_order.err, "read oldest first")) << in_order.err;
        EXPECT_TRUE(contains(
            reversed.err, "--chrony-log: read oldest first: " + dir.file("tracking.log.1") + ", " +
                              dir.file("tracking.log")))
            << reversed.err;
    }
    // `import chrony-tracking` orders them by the same rule: the same series either way.
    const auto import = [&](const std::vector<std::string>& logs, const std::string& out) {
        std::vector<std::string> args{"import", "chrony-tracking"};
        args.insert(args.end(), logs.begin(), logs.end());
        args.insert(args.end(), {"-o", dir.file(out)});
        return run_ppsbench(args);
    };
    ASSERT_EQ(import(oldest_first, "a.csv").exit_code, 0);
    const auto reversed = import(newest_first, "b.csv");
    ASSERT_EQ(reversed.exit_code, 0) << reversed.err;
    EXPECT_TRUE(contains(reversed.err, "read oldest first")) << reversed.err;
    // The series is plain CSV (docs/import.md): the same bytes either way.
    EXPECT_EQ(read_text(dir.file("a.csv")), read_text(dir.file("b.csv")));

    // A file given twice overlaps itself: its rows would run backwards, so it is refused.
    expect_not_judged({"gate", rt, "--min-pulses", "50", "--max-rms-offset", "1us", "--chrony-log",
                       dir.file("tracking.log"), "--chrony-log", dir.file("tracking.log.1"),
                       "--chrony-log", dir.file("tracking.log")},
                      "the files overlap");
}

// A tracking.log that turns to '?' lines before the capture ends: chronyd lost its reference.
TEST(GateEvidence, AChronyLogEndingUnsynchronisedIsRefused) {
    TempDir dir;
    const auto rt = second_process_capture(dir);
    std::istringstream in(read_text(chrony_fixture("chrony-tracking-restart-fallbackdrift.log")));
    std::string text;
    std::string line;
    while (std::getline(in, line)) {
        if (line.starts_with("2026-") && line.substr(11, 8) > "01:28:20") {
            // Columns 3 and 8: no reference, leap status '?'.
            std::istringstream words(line);
            std::vector<std::string> w;
            std::string word;
            while (words >> word) {
                w.push_back(word);
            }
            ASSERT_EQ(w.size(), 14U) << line;
            w[2] = "0.0.0.0";
            w[7] = "?";
            line.clear();
            for (const auto& x : w) {
                line += (line.empty() ? "" : " ") + x;
            }
        }
        text += line + "\n";
    }
    write_text(dir.file("lost.log"), text);
    expect_not_judged({"gate", rt, "--min-pulses", "50", "--max-rms-offset", "1us", "--chrony-log",
                       dir.file("lost.log")},
                      "rt.csv: chrony was not-synchronised at the end of the run");
}

}  // namespace
}  // namespace ppsbench
