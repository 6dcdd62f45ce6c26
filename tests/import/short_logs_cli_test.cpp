// SPDX-License-Identifier: GPL-2.0-or-later
// Short and unusual logs read as their program meant them (issue 40), through the built binary:
// a ppstest paste of 7 pulses whose clock runs 5 ppm off, phc2sys's PPS mode, and the evidence
// each import claims for its pulse numbers. The fixtures are written from the programs' source
// (tests/import/fixtures/README.md), not copied from anyone's logs.
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <ctime>
#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli.hpp"
#include "fixture.hpp"
#include "ppsbench/core/pulse.hpp"
#include "ppsbench/store/capture_reader.hpp"

namespace ppsbench {
namespace {

using import::testing::fixture_path;
using ppsbench::testing::contains;
using ppsbench::testing::run_ppsbench;
using ppsbench::testing::TempDir;

nlohmann::json first_run(const std::string& capture) {
    const auto report = run_ppsbench({"report", capture, "--format", "json"});
    EXPECT_EQ(report.exit_code, 0) << report.err;
    return nlohmann::json::parse(report.out).at("runs").at(0);
}

// 7 pulses, +5 ppm, σ 733 ns about the ramp: main called the ramp jitter (σ 10.8 µs on the
// Pi 5 + i226 this stands for). The report now says the clock runs free and gives the
// residuals.
TEST(ShortLogsCli, ASevenPulseRampIsReportedAsAFreeRunningClock) {
    TempDir dir;
    const auto out = dir.file("ramp.csv");
    const auto r =
        run_ppsbench({"import", "ppstest", fixture_path("ppstest-ramp-7.txt"), "-o", out});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const auto run = first_run(out);
    EXPECT_TRUE(run.at("free_running").get<bool>()) << run.dump();
    EXPECT_TRUE(run.at("drift_judged").get<bool>());
    EXPECT_TRUE(run.at("offset_ns").is_null());
    EXPECT_LT(run.at("detrended_ns").at("stddev").get<double>(), 1000.0);
    EXPECT_TRUE(run.at("clock_steps").empty());
}

// Two pulses cannot show a drift: the report says so rather than passing them as disciplined.
TEST(ShortLogsCli, TwoPulsesAreReportedAsTooShortToJudgeTheDrift) {
    TempDir dir;
    ppsbench::testing::write_text(
        dir.file("two.txt"),
        "source 0 - assert 1767225600.000000310, sequence: 1 - clear  0.000000000, sequence: 0\n"
        "source 0 - assert 1767225601.000004180, sequence: 2 - clear  0.000000000, sequence: 0\n");
    const auto out = dir.file("two.csv");
    ASSERT_EQ(run_ppsbench({"import", "ppstest", dir.file("two.txt"), "-o", out}).exit_code, 0);
    EXPECT_FALSE(first_run(out).at("drift_judged").get<bool>());
    const auto text = run_ppsbench({"report", out});
    EXPECT_TRUE(contains(text.out + text.err, "drift not judged")) << text.out << text.err;
}

// phc2sys -d /dev/pps0 -s /dev/ptp0: "CLOCK_REALTIME pps offset N sS freq F", no delay. Main
// said "no phc2sys updates"; the CSV now keeps what each offset is of.
TEST(ShortLogsCli, Phc2sysPpsModeIsImportedWithItsSource) {
    const auto r = run_ppsbench({"import", "phc2sys", fixture_path("phc2sys-pps.log")});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_TRUE(contains(r.out, "uptime_s,clock,offset_ns,servo_state,freq_ppb,delay_ns,source\n"))
        << r.out;
    EXPECT_TRUE(contains(r.out, "52.007,CLOCK_REALTIME,-4,2,-2,,pps\n")) << r.out;
    EXPECT_TRUE(contains(r.out, "55.007,CLOCK_REALTIME,3,2,3,,pps\n")) << r.out;
    const auto phc = run_ppsbench({"import", "phc2sys", fixture_path("phc2sys-k3.log")});
    ASSERT_EQ(phc.exit_code, 0) << phc.err;
    EXPECT_TRUE(contains(phc.out, ",phc\n")) << phc.out;
}

// A log of phc2sys's summaries only is refused, naming how many of its lines were phc2sys's and
// the first of them, as every other importer names what it skipped.
TEST(ShortLogsCli, APhc2sysRefusalNamesTheLinesItHeld) {
    TempDir dir;
    const auto log = dir.file("summary.log");
    ppsbench::testing::write_text(
        log,
        "phc2sys[56.007]: CLOCK_REALTIME rms    7 max   12 freq     +3 +/-   5\n"
        "phc2sys[57.007]: CLOCK_REALTIME rms    6 max   11 freq     +2 +/-   4\n");
    const auto r = run_ppsbench({"import", "phc2sys", log});
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_TRUE(contains(r.err, "2 phc2sys lines held no update, the first " + log + ":1: "))
        << r.err;
}

// ts2phc and ntpshmmon log no event numbers: the importer makes them up from the seconds, and
// the capture says so (main wrote "kernel", which would let them prove clock steps).
TEST(ShortLogsCli, ImportedNumbersAreLabelledSynthetic) {
    const std::vector<std::vector<std::string>> imports = {
        {"ts2phc", fixture_path("ts2phc-tstamp-i210.log")},
        {"ntpshmmon", fixture_path("ntpshmmon-manual.txt")},
        {"ppstest", fixture_path("ppstest-ramp-7.txt")}};
    for (const auto& args : imports) {
        TempDir dir;
        const auto out = dir.file("c.csv");
        auto command = std::vector<std::string>{"import", args[0], args[1], "-o", out};
        const auto r = run_ppsbench(command);
        ASSERT_EQ(r.exit_code, 0) << args[0] << ": " << r.err;
        const auto expected = args[0] == "ppstest" ? core::SequenceEvidence::kernel
                                                   : core::SequenceEvidence::synthetic;
        EXPECT_EQ(store::read_capture_file(out).run_meta.sequences, expected) << args[0];
    }
}

// ts2phc's extts shape with ts2phc.extts_correction -450: the edge is the corrected stamp (main
// gave −440 ns where ts2phc's phase is −890 ns), and the edge ts2phc ignored ("ignoring invalid
// master time stamp", its source 8 s off) is skipped, counted, and refused under --strict.
TEST(ShortLogsCli, Ts2phcEdgesAreCorrectedAndTheIgnoredOneSkipped) {
    TempDir dir;
    const auto out = dir.file("corr.csv");
    const auto log = fixture_path("ts2phc-extts-corr-ignored.log");
    const auto r = run_ppsbench({"import", "ts2phc", log, "-o", out});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_TRUE(contains(r.out, "5 pulses")) << r.out;
    EXPECT_TRUE(contains(r.err, "extts_correction (-450 ns")) << r.err;
    EXPECT_TRUE(contains(r.err, "1 edge of /dev/ptp0 skipped that ts2phc itself ignored")) << r.err;
    EXPECT_TRUE(contains(r.err, "first at " + log + ":8")) << r.err;
    EXPECT_TRUE(contains(r.err, "cross-checked: all 5 of ts2phc's servo offsets")) << r.err;
    EXPECT_EQ(first_run(out).at("offset_ns").at("mean").get<double>(),
              (-890 - 902 - 881 - 888 - 894) / 5.0);
    const auto strict =
        run_ppsbench({"import", "ts2phc", log, "-o", dir.file("strict.csv"), "--strict"});
    EXPECT_EQ(strict.exit_code, 2);
    EXPECT_TRUE(contains(strict.err, log + ":8: ts2phc ignored the edge of " + log + ":7"))
        << strict.err;
}

// 12 edges of a sink whose PHC reads 1970 and whose stamps sit 50 ms before the second, while
// ts2phc's servo reports a few hundred ns: the import says the two disagree (refused with
// --strict) and that the PHC was never set; the source clock, whose stamps are ts2phc's own
// whole seconds (σ 0), is refused.
TEST(ShortLogsCli, Ts2phcPhasesThatContradictItsServoAreReported) {
    TempDir dir;
    const auto log = fixture_path("ts2phc-sja1105-servo-disagrees.log");
    const auto out = dir.file("sink.csv");
    const auto r = run_ppsbench({"import", "ts2phc", log, "--clock", "/dev/ptp3", "-o", out});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_TRUE(contains(r.err,
                         "12 of 12 edges of /dev/ptp3 disagree with ts2phc's own servo "
                         "offset by more than 1 µs (first " +
                             log +
                             ":3: the edge's phase is -50105760 ns, the servo's "
                             "offset 640 ns)"))
        << r.err;
    EXPECT_TRUE(contains(r.err, "PHC not set: /dev/ptp3 reads 21.950 s since 1970")) << r.err;
    // The stamps drift −9.3 ppm: 12 edges are enough to say so.
    const auto run = first_run(out);
    EXPECT_TRUE(run.at("free_running").get<bool>()) << run.dump();
    EXPECT_TRUE(run.at("clock_steps").empty());

    const auto strict = run_ppsbench(
        {"import", "ts2phc", log, "--clock", "/dev/ptp3", "-o", dir.file("s.csv"), "--strict"});
    EXPECT_EQ(strict.exit_code, 2);
    EXPECT_TRUE(contains(strict.err, "without --strict this is a warning")) << strict.err;

    const auto source =
        run_ppsbench({"import", "ts2phc", log, "--clock", "/dev/ptp1", "-o", dir.file("p.csv")});
    EXPECT_EQ(source.exit_code, 2);
    EXPECT_TRUE(contains(source.err,
                         "/dev/ptp1 has no servo offset lines while /dev/ptp3 has: it "
                         "is ts2phc's PPS source"))
        << source.err;
}

// Where ts2phc's servo and the import agree (a real i210 log), the import says it checked.
TEST(ShortLogsCli, Ts2phcPhasesThatAgreeWithItsServoSaySo) {
    TempDir dir;
    const auto r = run_ppsbench(
        {"import", "ts2phc", fixture_path("ts2phc-tstamp-i210.log"), "-o", dir.file("i210.csv")});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_TRUE(contains(r.err,
                         "cross-checked: all 5 of ts2phc's servo offsets of /dev/ptp0 "
                         "agree with the imported phases within 1 µs"))
        << r.err;
}

// An old gpsd (ntpshmmon version 1) put its PPS in NTP2, an even segment where gpsd now puts
// time: the refusal names the segment that has the PPS shape and the option that imports it.
TEST(ShortLogsCli, NtpshmmonNamesTheSegmentShapedLikeAPps) {
    TempDir dir;
    const auto file = fixture_path("ntpshmmon-v1-ntp2.txt");
    const auto r = run_ppsbench({"import", "ntpshmmon", file, "-o", dir.file("a.csv")});
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_TRUE(contains(r.err, "NTP2 has the PPS shape")) << r.err;
    EXPECT_TRUE(contains(r.err, "import it with --unit NTP2")) << r.err;
    EXPECT_FALSE(contains(r.err, "NTP0 has the PPS shape")) << r.err;
    const auto ok =
        run_ppsbench({"import", "ntpshmmon", file, "--unit", "NTP2", "-o", dir.file("b.csv")});
    ASSERT_EQ(ok.exit_code, 0) << ok.err;
    EXPECT_TRUE(contains(ok.out, "3 pulses")) << ok.out;
}

// A peerstats import is sampled: the seconds between polls are not missed pulses, so the import
// counts none, as report does (main's import counted every second between lines), and the
// spacing is called a poll interval only when it is one (2^n s).
TEST(ShortLogsCli, PeerstatsCountsNoMissedPulsesAndNamesItsPoll) {
    TempDir dir;
    const auto r = run_ppsbench({"import", "ntp-peerstats", fixture_path("ntp-peerstats-pfsense"),
                                 "--peer", "127.127.20.0", "-o", dir.file("p.csv")});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_TRUE(contains(r.out, ", 0 missed pulses,")) << r.out;
    EXPECT_TRUE(contains(r.err, "every 8 s (its poll interval)")) << r.err;
    EXPECT_TRUE(contains(r.err, "the report counts no missed pulses")) << r.err;
}

// One range for every reader and writer: a log that runs past 2116-02-20 23:53:38 UTC (2^62 ns,
// the last time a capture file holds) is imported up to it; the lines after it are skipped,
// naming the range; and report reads what the import wrote. main accepted chrony's and ntpd's
// dates up to 2261, wrote them, and report then called its own import damaged.
TEST(ShortLogsCli, AnImportNeverWritesACaptureThatReportCallsDamaged) {
    constexpr std::int64_t last = core::max_timestamp_ns / core::ns_per_second;  // a whole second
    const auto utc = [](std::int64_t seconds, const char* format) {
        const std::time_t t = static_cast<std::time_t>(seconds);
        std::tm tm{};
        gmtime_r(&t, &tm);
        char text[64];
        std::strftime(text, sizeof text, format, &tm);
        return std::string(text);
    };
    struct Format {
        std::string name;
        std::function<std::string(std::int64_t seconds, int n)> line;
    };
    const std::vector<Format> formats = {
        {"chrony-refclocks",
         [&](std::int64_t s, int) {
             return utc(s, "%Y-%m-%d %H:%M:%S") + ".000000 PPS 0 N 1 1.0e-07 1.0e-07 1.0e-06";
         }},
        {"ppstest",
         [](std::int64_t s, int n) {
             return fmt::format(
                 "source 0 - assert {}.000000100, sequence: {} - clear  "
                 "0.000000000, sequence: 0",
                 s, n);
         }},
        {"ppswatch",
         [](std::int64_t s, int n) {
             return fmt::format("timestamp: {}, sequence: {}, offset:   -100", s, n);
         }},
        {"ntp-peerstats",
         [](std::int64_t s, int) {
             return fmt::format(
                 "{} {}.002 127.127.22.0 9714 0.000000100 0.000000000 "
                 "0.000000954 0.000000110",
                 40587 + s / 86400, s % 86400);
         }},
    };
    TempDir dir;
    for (const auto& format : formats) {
        SCOPED_TRACE(format.name);
        std::string log = format.name == "ppstest" ? "trying PPS source \"/dev/pps0\"\n" : "";
        int n = 1;
        for (std::int64_t s = last - 4; s <= last + 3; ++s) {
            log += format.line(s, n++) + "\n";
        }
        ppsbench::testing::write_text(dir.file(format.name + ".log"), log);
        const auto out = dir.file(format.name + ".csv");
        const auto r =
            run_ppsbench({"import", format.name, dir.file(format.name + ".log"), "-o", out});
        ASSERT_EQ(r.exit_code, 0) << r.err;
        EXPECT_TRUE(contains(r.err, "from 1970 to 2116")) << r.err;
        const auto pulses = store::read_capture_file(out).pulses;
        EXPECT_EQ(pulses.size(), 5U);
        for (const auto& p : pulses) {
            EXPECT_TRUE(core::is_capture_time(p.timestamp_ns)) << p.timestamp_ns;
        }
        const auto report = run_ppsbench({"report", out, "--format", "json"});
        EXPECT_EQ(report.exit_code, 0) << report.err;
    }
}

// The range's other end: a pulse before the first second of 1970 (chrony logs the sample at
// 00:00:00 with the pulse 490 ns early) is outside what a capture holds, though the line's time
// is not. It is skipped naming the range, and the file report reads is written without it.
TEST(ShortLogsCli, APulseBeforeNineteenSeventyIsSkippedNotWritten) {
    TempDir dir;
    std::string log;
    for (int s = 0; s < 6; ++s) {
        log += fmt::format("1970-01-01 00:00:0{}.000000 PPS 0 N 1 4.9e-07 4.9e-07 1.0e-06\n", s);
    }
    ppsbench::testing::write_text(dir.file("refclocks.log"), log);
    const auto out = dir.file("early.csv");
    const auto r =
        run_ppsbench({"import", "chrony-refclocks", dir.file("refclocks.log"), "-o", out});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_TRUE(contains(r.err,
                         "refclocks.log:1: its pulse, 1970-01-01T00:00:00Z minus its "
                         "offset, falls outside the range a capture holds"))
        << r.err;
    const auto pulses = store::read_capture_file(out).pulses;
    ASSERT_EQ(pulses.size(), 5U);
    EXPECT_EQ(pulses.front().timestamp_ns, core::ns_per_second - 490);
    EXPECT_EQ(run_ppsbench({"report", out, "--format", "json"}).exit_code, 0);
}

}  // namespace
}  // namespace ppsbench
