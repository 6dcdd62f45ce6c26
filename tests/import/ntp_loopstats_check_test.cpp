// SPDX-License-Identifier: GPL-2.0-or-later
// `import ntp-peerstats --loopstats`: the peer's offsets against ntpd's loopstats of the same
// updates. The logs are written here by ntpd's own printf rules (ntpd/ntp_util.c
// record_peer_stats "%lu %s %s %x %.9f %.9f %.9f %.9f" and record_loop_stats
// "%lu %s %.9f %.3f %.9f %.6f %d", the time of day by ulfptoa(&now, 3)), not copied from logs.
#include "ppsbench/import/ntp_loopstats_check.hpp"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <random>
#include <sstream>

#include "cli.hpp"
#include "fixture.hpp"
#include "ppsbench/core/error.hpp"
#include "ppsbench/import/ntp_peerstats.hpp"

namespace ppsbench::import {
namespace {

using ppsbench::testing::contains;
using ppsbench::testing::TempDir;
using testing::fixture;
using testing::fixture_path;

constexpr int mjd = 60000;
constexpr std::string_view atom = "127.127.22.0";

std::string day_seconds(std::int64_t ms) {
    return fmt::format("{}.{:03}", ms / 1000, ms % 1000);
}

// One simulated ntpd: the ATOM peer's updates every 16 s at a random millisecond, a network
// server's between them, and the loopstats line each ATOM update writes in the same
// millisecond or the next (ntp_proto.c clock_filter -> clock_select -> clock_update ->
// ntp_loopfilter.c local_clock).
struct Simulated {
    std::string peerstats;
    std::string loopstats;
    std::vector<std::string> loop_lines;  // as written, to perturb one
    std::size_t pps_peer_updates = 0;     // ATOM updates whose status said pps.peer
};

Simulated simulate(std::mt19937_64& rng, bool kernel) {
    std::uniform_int_distribution<std::int64_t> ms_of_second(0, 998);
    std::uniform_int_distribution<int> delay_ms(0, 1);
    std::normal_distribution<double> offset_s(0.0, 2e-6);
    const int updates = std::uniform_int_distribution<int>(8, 40)(rng);
    Simulated s;
    for (int i = 0; i < updates; ++i) {
        const std::int64_t t = (3600 + 16 * i) * 1000 + ms_of_second(rng);
        const double offset = offset_s(rng);
        // ctlpeerstatus: configured, reachable, select 7 (pps.peer) once ntpd selected it;
        // 0 at the first update, before any clock_select.
        const unsigned status = i == 0 ? 0x9014 : 0x9714;
        s.pps_peer_updates += i == 0 ? 0 : 1;
        s.peerstats += fmt::format("{} {} {} {:x} {:.9f} {:.9f} {:.9f} {:.9f}\n", mjd,
                                   day_seconds(t), atom, status, offset, 0.0, 9.54e-7, 1.1e-7);
        // The offset local_clock logs: the same double, or with the kernel discipline what
        // ntp_adjtime hands back for (int32)(offset * 1e9 ± .5) ns, which Linux may floor by
        // one nanosecond.
        double logged = offset;
        if (kernel) {
            const auto ns = static_cast<std::int64_t>(offset * 1e9 + (offset < 0 ? -0.5 : 0.5));
            logged = static_cast<double>(ns - (ns > 0 ? delay_ms(rng) : 0)) / 1e9;
        }
        const std::string loop_line =
            fmt::format("{} {} {:.9f} {:.3f} {:.9f} {:.6f} {}", mjd, day_seconds(t + delay_ms(rng)),
                        logged, -12.345, 9.54e-7, 1.23e-4, 4);
        s.loop_lines.push_back(loop_line);
        // A network server polled between two PPS updates: never the PPS peer (select 4,
        // candidate), never writing a loopstats line of its own.
        const std::int64_t server_t = t + 5000 + ms_of_second(rng);
        s.peerstats += fmt::format(
            "{} {} 192.0.2.10 9424 {:.9f} 0.012300000 0.000480000 "
            "0.000210000\n",
            mjd, day_seconds(server_t), 3e-4 + offset_s(rng));
    }
    for (const auto& line : s.loop_lines) {
        s.loopstats += line + "\n";
    }
    return s;
}

std::string write(const TempDir& dir, const std::string& name, const std::string& text) {
    const auto path = dir.file(name);
    std::ofstream(path, std::ios::binary) << text;
    return path;
}

CaptureImport import_with_loopstats(const std::string& peerstats, const std::string& loopstats,
                                    bool strict = false, const std::string& peer = {}) {
    std::istringstream in(peerstats);
    return import_ntp_peerstats(in, "peerstats",
                                {.peer = peer, .loopstats = {loopstats}, .strict = strict});
}

std::string joined(const std::vector<std::string>& lines) {
    std::string out;
    for (const auto& line : lines) {
        out += line + "\n";
    }
    return out;
}

// Property: whatever the offsets, the milliseconds and the discipline (user space or the
// kernel's nanosecond round trip), the loopstats ntpd writes agree at every update where the
// peer was the PPS peer.
TEST(NtpLoopstatsCheck, NtpdsOwnLogsAlwaysAgree) {
    std::mt19937_64 rng(40);
    TempDir dir;
    for (int trial = 0; trial < 200; ++trial) {
        const bool kernel = trial % 2 == 1;
        const Simulated s = simulate(rng, kernel);
        const auto r = import_with_loopstats(s.peerstats, write(dir, "loopstats", s.loopstats));
        SCOPED_TRACE(s.peerstats + s.loopstats);
        EXPECT_TRUE(r.warnings.empty()) << joined(r.warnings);
        const auto& check = r.metadata["import"]["loopstats"];
        EXPECT_EQ(check["judged_lines"], s.pps_peer_updates);
        EXPECT_EQ(check["agreeing_lines"], s.pps_peer_updates);
        EXPECT_EQ(check["matched_lines"], s.loop_lines.size());  // the first: not pps.peer yet
        EXPECT_TRUE(contains(joined(r.notes), fmt::format("cross-checked with ntpd's loopstats: "
                                                          "at all {} updates",
                                                          s.pps_peer_updates)))
            << joined(r.notes);
    }
}

// Property: one loopstats offset moved by more than the nanosecond ntpd prints is named, with
// both figures and both lines; --strict refuses the import.
TEST(NtpLoopstatsCheck, OneOffsetMovedBeyondThePrintedPrecisionIsADisagreement) {
    std::mt19937_64 rng(41);
    TempDir dir;
    for (int trial = 0; trial < 100; ++trial) {
        Simulated s = simulate(rng, trial % 2 == 1);
        // Not the first line (not judged), so that it is judged; 2 ns to 50 µs either way.
        const std::size_t k =
            std::uniform_int_distribution<std::size_t>(1, s.loop_lines.size() - 1)(rng);
        std::istringstream fields(s.loop_lines[k]);
        std::string day;
        std::string seconds;
        double offset = 0;
        fields >> day >> seconds >> offset;
        const std::int64_t shift =
            std::uniform_int_distribution<std::int64_t>(2, 50'000)(rng) * (trial % 3 == 0 ? -1 : 1);
        const std::int64_t moved_ns = std::llround(offset * 1e9) + shift;
        s.loop_lines[k] = fmt::format("{} {} {:.9f} -12.345 0.000000954 0.000123 4", day, seconds,
                                      static_cast<double>(moved_ns) / 1e9);
        const auto path = write(dir, "loopstats", joined(s.loop_lines));
        SCOPED_TRACE(s.loop_lines[k]);
        const auto r = import_with_loopstats(s.peerstats, path);
        ASSERT_FALSE(r.warnings.empty());
        EXPECT_TRUE(contains(r.warnings.front(), fmt::format("{}:{}: ", path, k + 1)))
            << r.warnings.front();
        EXPECT_TRUE(contains(r.warnings.front(),
                             fmt::format("{:.9f} s", static_cast<double>(moved_ns) / 1e9)))
            << r.warnings.front();
        EXPECT_EQ(r.metadata["import"]["loopstats"]["agreeing_lines"], s.pps_peer_updates - 1);
        EXPECT_THROW(import_with_loopstats(s.peerstats, path, true), core::InputError);
    }
}

// The hand-written pair: the ATOM peer's five updates, all as pps.peer, one logged
// by the kernel a nanosecond lower (0.000001000 -> 0.000000999).
TEST(NtpLoopstatsCheck, TheHandWrittenPairAgreesAtAllFiveUpdates) {
    const auto r = import_with_loopstats(fixture("ntp-peerstats"), fixture_path("ntp-loopstats"));
    EXPECT_TRUE(r.warnings.empty());
    const auto& check = r.metadata["import"]["loopstats"];
    EXPECT_EQ(check["lines"], 5);
    EXPECT_EQ(check["judged_lines"], 5);
    EXPECT_EQ(check["agreeing_lines"], 5);
    EXPECT_EQ(check["jitter_median_ns"], 995);
    EXPECT_TRUE(contains(joined(r.notes), "median 995 ns")) << joined(r.notes);
}

// Real logs of a pfSense GPS server: its NMEA+PPS refclock is pps.peer (status 971b) and each
// loopstats line follows in the next millisecond, but with another offset (0.000002516 against
// 0.000001853 at the first): the kernel disciplines from PPS there and local_clock logs the
// kernel's offset. Not a contradiction: a note says the offsets were not comparable.
TEST(NtpLoopstatsCheck, KernelPpsOffsetsAreNotCalledADisagreement) {
    const auto r =
        import_with_loopstats(fixture("ntp-peerstats-pfsense"),
                              fixture_path("ntp-loopstats-pfsense"), true, "127.127.20.0");
    EXPECT_TRUE(r.warnings.empty());
    const auto& check = r.metadata["import"]["loopstats"];
    EXPECT_GT(check["judged_lines"].get<int>(), 30);
    EXPECT_EQ(check["agreeing_lines"], 0);
    EXPECT_TRUE(contains(joined(r.notes), "not cross-checked with ntpd's loopstats: at all"))
        << joined(r.notes);
    EXPECT_TRUE(contains(joined(r.notes), "kernel")) << joined(r.notes);
}

TEST(NtpLoopstatsCheck, LoopstatsOfAnotherTimeAreNotCrossChecked) {
    TempDir dir;
    std::string other_day = fixture("ntp-loopstats");
    for (std::size_t at = 0; (at = other_day.find("60000 ", at)) != std::string::npos;) {
        other_day.replace(at, 5, "60001");
    }
    const auto r =
        import_with_loopstats(fixture("ntp-peerstats"), write(dir, "loopstats", other_day), true);
    EXPECT_TRUE(r.warnings.empty());
    EXPECT_EQ(r.metadata["import"]["loopstats"]["judged_lines"], 0);
    EXPECT_TRUE(contains(joined(r.notes),
                         "not cross-checked with ntpd's loopstats: the loopstats (60001 3600.125 "
                         "to 60001 3664.125) and peer 127.127.22.0's lines (60000 3600.125 to "
                         "60000 3664.125) are of different times"))
        << joined(r.notes);
}

TEST(NtpLoopstatsCheck, APeerThatWasNotThePpsPeerIsNotJudged) {
    // The NMEA refclock's updates, at the loopstats lines' times but as a mere candidate.
    const std::string nmea =
        "60000 3600.125 127.127.20.0 9414 0.000000500 0 0 0\n"
        "60000 3616.126 127.127.20.0 9414 0.000000600 0 0 0\n";
    const auto r = import_with_loopstats(nmea, fixture_path("ntp-loopstats"), true, "127.127.20.0");
    EXPECT_EQ(r.metadata["import"]["loopstats"]["matched_lines"], 2);
    EXPECT_EQ(r.metadata["import"]["loopstats"]["judged_lines"], 0);
    EXPECT_TRUE(contains(joined(r.notes), "did not say pps.peer")) << joined(r.notes);
}

// A damaged loopstats line is skipped and named in the note; --strict stops at it.
TEST(NtpLoopstatsCheck, ADamagedLoopstatsLineIsNamedAndStrictStopsAtIt) {
    TempDir dir;
    const auto path =
        write(dir, "loopstats", fixture("ntp-loopstats") + "60000 3680.125 0.0000001\n");
    const auto r = import_with_loopstats(fixture("ntp-peerstats"), path);
    EXPECT_EQ(r.metadata["import"]["loopstats"]["skipped_lines"], 1);
    EXPECT_EQ(r.metadata["import"]["loopstats"]["agreeing_lines"], 5);
    EXPECT_TRUE(
        contains(joined(r.notes), "within 1 ns; 1 loopstats line skipped, first " + path +
                                      ":6: has 3 fields, expected ntpd's 7 loopstats fields"))
        << joined(r.notes);
    try {
        import_with_loopstats(fixture("ntp-peerstats"), path, true);
        FAIL() << "no error";
    } catch (const core::InputError& e) {
        EXPECT_TRUE(contains(e.what(), path + ":6: has 3 fields")) << e.what();
    }
}

TEST(NtpLoopstatsCheck, AFileThatIsNotLoopstatsIsRefusedByName) {
    const auto peerstats = fixture_path("ntp-peerstats");
    try {
        import_with_loopstats(fixture("ntp-peerstats"), peerstats);
        FAIL() << "no error";
    } catch (const core::InputError& e) {
        EXPECT_EQ(std::string(e.what()),
                  peerstats +
                      ": given to --loopstats, but this is ntpd/NTPsec peerstats; --loopstats "
                      "takes ntpd's loopstats ('statistics loopstats' in ntp.conf)");
    }
    TempDir dir;
    const auto notes = write(dir, "notes.txt", "PPS looks fine today\n");
    try {
        import_with_loopstats(fixture("ntp-peerstats"), notes);
        FAIL() << "no error";
    } catch (const core::InputError& e) {
        EXPECT_TRUE(contains(e.what(), notes + ": no loopstats lines")) << e.what();
    }
}

}  // namespace
}  // namespace ppsbench::import
