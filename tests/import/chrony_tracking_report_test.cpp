// SPDX-License-Identifier: GPL-2.0-or-later
// A `chronyc tracking` report pasted beside tracking.log is cross-checked against the update it
// came from. The logs and reports here are written by chrony's own rules, replayed in this file
// (not by ppsbench's code): reference.c's REF_SetReference() (last_offset, the mean square
// avg2_offset) and write_log() (the line), client.c's process_cmd_tracking() (the report).
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cmath>
#include <ctime>
#include <random>
#include <sstream>

#include "cli.hpp"
#include "ppsbench/chrony/logs.hpp"
#include "ppsbench/core/error.hpp"

namespace ppsbench {
namespace {

using ppsbench::testing::contains;
using ppsbench::testing::run_ppsbench;
using ppsbench::testing::TempDir;

constexpr std::int64_t start_s = 1796677200;  // 2026-12-07 21:00:00 UTC

// chronyd's side of one process, as reference.c keeps it.
class Chronyd {
  public:
    // REF_Initialise() -> REF_SetUnsynchronised(): the start-up line.
    std::string start(std::int64_t t) const {
        return fmt::format(
            "{} 0.0.0.0          0      0.000 1000000.000  0.000e+00 ?  0  0.000e+00 "
            "-0.000e+00  1.000e+00  1.000e+00  1.500e+00\n",
            log_time(t));
    }
    // REF_SetReference(): last_offset, then avg2_offset "quickly on start", then 0.1 of the way
    // to each new square; write_log()'s line.
    std::string update(std::int64_t t, double offset) {
        last_ = offset;
        const double square = offset * offset;
        if (moving_) {
            avg2_ += 0.1 * (square - avg2_);
        } else {
            if (avg2_ > 0.0 && avg2_ < square) {
                moving_ = true;
            }
            avg2_ = square;
        }
        return fmt::format(
            "{} {:<15} {:2d} {:10.3f} {:10.3f} {:10.3e} {:1} {:2d} {:10.3e} {:10.3e} {:10.3e} "
            "{:10.3e} {:10.3e}\n",
            log_time(t), "PPS", 1, -0.005, 0.047, offset, 'N', 1, 4.3e-7, -2.1e-7, 1e-9, 5.3e-6,
            9.8e-6);
    }
    // client.c, process_cmd_tracking(): Ref time "%a %b %d %T %Y", Last offset "%+.9f",
    // RMS offset "%.9f" (sqrt(avg2_offset), REF_GetTrackingReport()).
    std::string report(std::int64_t ref_time, double rms_shift = 0.0) const {
        return report_text(ref_time, last_, std::sqrt(avg2_) + rms_shift);
    }
    double rms() const { return std::sqrt(avg2_); }

    static std::string log_time(std::int64_t t) { return strftime_utc(t, "%Y-%m-%d %H:%M:%S"); }
    static std::string report_text(std::int64_t ref_time, double last, double rms,
                                   const char* leap = "Normal") {
        return fmt::format(
            "Reference ID    : 50505300 (PPS)\n"
            "Stratum         : 1\n"
            "Ref time (UTC)  : {}\n"
            "System time     : 0.000000084 seconds fast of NTP time\n"
            "Last offset     : {:+.9f} seconds\n"
            "RMS offset      : {:.9f} seconds\n"
            "Frequency       : 0.005 ppm slow\n"
            "Residual freq   : -0.000 ppm\n"
            "Skew            : 0.047 ppm\n"
            "Root delay      : 0.000000001 seconds\n"
            "Root dispersion : 0.000008032 seconds\n"
            "Update interval : 4.0 seconds\n"
            "Leap status     : {}\n",
            strftime_utc(ref_time, "%a %b %d %T %Y"), last, rms, leap);
    }

  private:
    static std::string strftime_utc(std::int64_t t, const char* format) {
        const std::time_t time = static_cast<std::time_t>(t);
        std::tm tm{};
        gmtime_r(&time, &tm);
        char buf[64];
        std::strftime(buf, sizeof buf, format, &tm);
        return buf;
    }

    double avg2_ = 0.0;
    bool moving_ = false;
    double last_ = 0.0;
};

chrony::TrackingImport import(const std::string& text, bool strict = false) {
    std::istringstream in(text);
    chrony::TrackingImportOptions o;
    o.strict = strict;
    return chrony::import_tracking_log(in, "tracking.log", o);
}

std::string all_notes(const chrony::TrackingImport& r) {
    std::string s;
    for (const auto& n : r.notes) {
        s += n + "\n";
    }
    return s;
}

// A process from its start: `n` updates 4 s apart (the first 16 s after the start-up line),
// offsets Gaussian; the report pasted after update `k`, its Ref time `lag` s before the line.
struct SimulatedRun {
    std::string log;
    std::string report;
    std::string perturbed;  // the same report, its RMS offset moved by more than the tolerance
};

SimulatedRun simulate(std::uint32_t seed, int n, int k, std::int64_t lag, double sigma) {
    std::mt19937 rng(seed);
    std::normal_distribution<double> noise(0.0, sigma);
    Chronyd chronyd;
    SimulatedRun run;
    run.log = chronyd.start(start_s);
    for (int i = 0; i < n; ++i) {
        const std::int64_t t = start_s + 16 + 4 * i;
        run.log += chronyd.update(t, noise(rng));
        if (i == k) {
            // Beyond chronyc's 0.5 ns and the log's four digits (5e-4 of the RMS) both ways.
            const double shift = 1.0e-9 + 2.0 * 5e-4 * chronyd.rms() + 0.01e-9;
            run.report = chronyd.report(t - lag);
            run.perturbed = chronyd.report(t - lag, (seed % 2 == 0 ? 1.0 : -1.0) * shift);
        }
    }
    return run;
}

TEST(ChronycTrackingReport, ChronydsOwnFiguresAgreeAndAMovedRmsDoesNot) {
    std::mt19937 pick(40);
    int judged = 0;
    for (std::uint32_t seed = 1; seed <= 200; ++seed) {
        const int n = 2 + static_cast<int>(pick() % 60);
        const int k = static_cast<int>(pick() % static_cast<unsigned>(n));
        const std::int64_t lag = pick() % 5;  // within an update interval (4 s) + 1 s
        const double sigma = 20e-9 + 1e-9 * static_cast<double>(pick() % 300);
        const SimulatedRun run = simulate(seed, n, k, lag, sigma);
        SCOPED_TRACE(
            fmt::format("seed {}, {} updates, report after {}, lag {} s", seed, n, k, lag));

        const auto agree = import(run.log + run.report);
        EXPECT_TRUE(agree.warnings.empty()) << agree.warnings.front();
        EXPECT_EQ(agree.problem_count, 0U);
        const std::string notes = all_notes(agree);
        // A close call of the quick start is "not judged"; every other report agrees.
        EXPECT_TRUE(contains(notes, "cross-checked: its Last offset") ||
                    contains(notes, "whether chronyd's average had started moving"))
            << notes;

        const auto moved = import(run.log + run.perturbed);
        if (!contains(notes, "not judged")) {
            ++judged;
            ASSERT_EQ(moved.warnings.size(), 1U) << all_notes(moved);
            EXPECT_TRUE(contains(moved.warnings.front(), "ppsbench's RMS offset is not chronyd's"))
                << moved.warnings.front();
        }
    }
    EXPECT_GT(judged, 180) << "a close call of the quick start is rare";
}

// The fixture cases, each in a few lines of chronyd's own making.
std::string three_updates(Chronyd& chronyd) {
    std::string log = chronyd.start(start_s);
    log += chronyd.update(start_s + 16, -6.943e-08);
    log += chronyd.update(start_s + 20, -4.352e-07);
    log += chronyd.update(start_s + 24, -1.709e-07);
    return log;
}

TEST(ChronycTrackingReport, AgreementIsANoteNamingTheLine) {
    Chronyd chronyd;
    const std::string log = three_updates(chronyd);
    const auto r = import(log + chronyd.report(start_s + 22));
    ASSERT_TRUE(r.warnings.empty()) << r.warnings.front();
    EXPECT_TRUE(contains(all_notes(r),
                         "tracking.log:5: chronyc tracking (Ref time 2026-12-07T21:00:22Z): "
                         "cross-checked: its Last offset -0.000000171 s is the Offset of "
                         "tracking.log:4 (-1.709e-07 s), and its RMS offset 0.000000416 s"))
        << all_notes(r);
    EXPECT_EQ(r.entries.size(), 4U) << "the report's lines are no entries";
    EXPECT_EQ(r.problem_count, 0U) << "nor skipped lines";
}

TEST(ChronycTrackingReport, DisagreementIsAWarningAndStrictRefusesIt) {
    Chronyd chronyd;
    const std::string text =
        three_updates(chronyd) + Chronyd::report_text(start_s + 22, -1.709e-07, 400e-9);
    const auto r = import(text);
    ASSERT_EQ(r.warnings.size(), 1U);
    EXPECT_TRUE(contains(r.warnings.front(),
                         "RMS offset 0.000000400 s, recomputed from the log "
                         "416.389 ns"))
        << r.warnings.front();
    EXPECT_THROW(import(text, true), core::InputError);

    const auto other =
        import(three_updates(chronyd) + Chronyd::report_text(start_s + 22, -1.719e-07, 416e-9));
    ASSERT_EQ(other.warnings.size(), 1U);
    EXPECT_TRUE(contains(other.warnings.front(),
                         "its Last offset -0.000000172 s disagrees with the Offset of the update "
                         "it belongs to, tracking.log:4 (-1.709e-07 s)"))
        << other.warnings.front();

    TempDir dir;
    ppsbench::testing::write_text(dir.file("tracking.log"), text);
    const auto cli = run_ppsbench({"import", "chrony-tracking", dir.file("tracking.log")});
    EXPECT_EQ(cli.exit_code, 0) << cli.err;
    EXPECT_TRUE(contains(cli.err, "ppsbench: warning: ")) << cli.err;
    EXPECT_FALSE(contains(cli.out, "chronyc")) << "the CSV stays machine-only: " << cli.out;
    const auto strict =
        run_ppsbench({"import", "chrony-tracking", "--strict", dir.file("tracking.log")});
    EXPECT_EQ(strict.exit_code, 2) << strict.err;
    EXPECT_TRUE(contains(strict.err, "without --strict this is a warning")) << strict.err;
}

// A log that starts within a process (no start-up line): chronyd's average remembers its
// unseen start by 0.9 per update, so the RMS is judged only 407 moving updates in.
TEST(ChronycTrackingReport, TooFewUpdatesOfAnUnseenStartAreNotJudged) {
    Chronyd chronyd;
    std::string log;
    for (int i = 0; i < 415; ++i) {
        log += chronyd.update(start_s + 4 * i, (i % 2 == 0 ? 1.0 : -1.5) * 1e-7 * (1 + i % 7));
    }
    // Cut the start off: the 10 lines after the first 5 (moving since the second update).
    std::istringstream lines(log);
    std::string line;
    std::string cut;
    std::string tail;
    for (int i = 0; std::getline(lines, line); ++i) {
        if (i >= 5 && i < 15) {
            cut += line + "\n";
        }
        if (i >= 2) {
            tail += line + "\n";
        }
    }
    Chronyd replay;  // the report after update 14 of the whole process
    for (int i = 0; i <= 14; ++i) {
        replay.update(start_s + 4 * i, (i % 2 == 0 ? 1.0 : -1.5) * 1e-7 * (1 + i % 7));
    }
    const auto few = import(cut + replay.report(start_s + 4 * 14 - 2));
    EXPECT_TRUE(few.warnings.empty());
    EXPECT_TRUE(contains(all_notes(few),
                         "is not judged: the log starts within this chronyd "
                         "process (no start-up line)"))
        << all_notes(few);
    // The cut's average starts moving at its 4th update (2e-7 after 1.5e-7), 6 before the report.
    EXPECT_TRUE(contains(all_notes(few), "it has moved 6 updates here")) << all_notes(few);

    // 411 moving updates after the cut (its second update starts it): judged, and chronyd's
    // figure agrees.
    const auto many = import(tail + chronyd.report(start_s + 4 * 414 - 2));
    ASSERT_TRUE(many.warnings.empty()) << many.warnings.front();
    EXPECT_TRUE(contains(all_notes(many), "cross-checked")) << all_notes(many);
}

TEST(ChronycTrackingReport, ARefTimeWithNoUpdateIsANote) {
    Chronyd chronyd;
    const std::string log = three_updates(chronyd);
    const auto after = import(log + chronyd.report(start_s + 30));
    EXPECT_TRUE(after.warnings.empty());
    EXPECT_TRUE(contains(all_notes(after),
                         "could not be matched: no tracking.log update is at "
                         "or after its Ref time"))
        << all_notes(after);
    const auto before = import(log + chronyd.report(start_s - 3600));
    EXPECT_TRUE(contains(all_notes(before),
                         "could not be matched: the first tracking.log update "
                         "after its Ref time is 3616 s later"))
        << all_notes(before);
    const auto unsynchronised = import(log + Chronyd::report_text(0, 0.0, 0.0, "Not synchronised"));
    EXPECT_TRUE(contains(all_notes(unsynchronised),
                         "not cross-checked: chronyd was not "
                         "synchronised"))
        << all_notes(unsynchronised);
}

TEST(ChronycTrackingReport, HalfAReportIsASkippedLineNamingWhatIsMissing) {
    Chronyd chronyd;
    const std::string log = three_updates(chronyd);
    std::string half = chronyd.report(start_s + 22);
    half = half.substr(0, half.find("RMS offset"));
    const auto r = import(log + half);
    ASSERT_EQ(r.problem_count, 1U);
    EXPECT_EQ(r.problems.front().line, 5U);
    EXPECT_TRUE(contains(r.problems.front().message,
                         "a part of a `chronyc tracking` report (5 of its 13 lines): it lacks "
                         "'RMS offset', 'Frequency',"))
        << r.problems.front().message;
    EXPECT_TRUE(r.notes.empty() || !contains(all_notes(r), "cross-checked"));
    EXPECT_THROW(import(log + half, true), core::InputError);
}

}  // namespace
}  // namespace ppsbench
