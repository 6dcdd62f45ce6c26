// SPDX-License-Identifier: GPL-2.0-or-later
// The capture-like formats read from real excerpts (tests/import/fixtures/README.md): where the
// program printed its own figures for the same pulses, ppsbench's agree with them.
#include <gtest/gtest.h>

#include <cmath>
#include <sstream>

#include "fixture.hpp"
#include "ppsbench/core/error.hpp"
#include "ppsbench/import/ntpshmmon.hpp"
#include "ppsbench/import/ppswatch.hpp"
#include "ppsbench/import/ts2phc.hpp"
#include "ppsbench/stats/offsets.hpp"

namespace ppsbench::import {
namespace {

using testing::fixture;

constexpr std::int64_t s = 1'000'000'000;

std::vector<std::int64_t> phases(const CaptureImport& r) {
    std::vector<std::int64_t> out;
    for (const auto& p : r.pulses) {
        out.push_back(stats::phase_offset_ns(p.timestamp_ns, s));
    }
    return out;
}

TEST(Ppswatch, EachLineIsThePulseAtItsSecondPlusItsOffset) {
    std::istringstream in(fixture("ppswatch-friendlywrt.txt"));
    const auto r = import_ppswatch(in, "ppswatch.txt", {});
    ASSERT_EQ(r.pulses.size(), 26U);
    EXPECT_EQ(r.pulses.front().timestamp_ns, 1664427237 * s - 5414);
    EXPECT_EQ(r.pulses.front().sequence, 163286U);
    EXPECT_EQ(r.pulses.back().timestamp_ns, 1664427262 * s + 3842);
    // The pasted command line was `ppswatch -a`: the assert edge.
    EXPECT_EQ(r.pulses.front().edge, core::Edge::assert_edge);
    EXPECT_EQ(r.metadata["label"], "/dev/pps1");
    EXPECT_EQ(r.problem_count, 0U) << "prompt, chatter and closing figures are ppswatch's own";
    EXPECT_EQ(r.gaps.missed_pulses, 0U);
}

// ppswatch printed "Mean value: -189.423" and "Standard deviation: 3460.59" for these 26
// pulses; its SD divides by n, the report's σ by n - 1.
TEST(Ppswatch, ItsOwnFiguresAgreeWithOursByTheirDefinition) {
    std::istringstream in(fixture("ppswatch-friendlywrt.txt"));
    const auto r = import_ppswatch(in, "ppswatch.txt", {});
    const auto figures = r.metadata["import"]["ppswatch_figures"];
    EXPECT_EQ(figures["pulses"], 26);
    double mean = 0;
    for (const auto p : phases(r)) {
        mean += static_cast<double>(p) / 26.0;
    }
    double sum = 0;
    for (const auto p : phases(r)) {
        sum += (static_cast<double>(p) - mean) * (static_cast<double>(p) - mean);
    }
    EXPECT_NEAR(mean, figures["mean_ns"].get<double>(), 0.0005);  // printed with %g: 6 digits
    EXPECT_NEAR(std::sqrt(sum / 26), figures["sd_ns_dividing_by_n"].get<double>(), 0.005);
    EXPECT_NEAR(std::sqrt(sum / 25), 3460.59 * std::sqrt(26.0 / 25.0), 0.01);
    ASSERT_FALSE(r.notes.empty());
    EXPECT_NE(r.notes.front().find("SD 3460.59 ns (it divides by n)"), std::string::npos)
        << r.notes.front();
    EXPECT_NE(r.notes.front().find("3529.13 ns dividing by n - 1"), std::string::npos)
        << r.notes.front();
}

TEST(Ppswatch, WithoutTheCommandLineTheEdgeIsPpswatchsDefaultAndSaidSo) {
    std::istringstream in("timestamp: 1664427237, sequence: 1, offset:  -5414\n");
    const auto r = import_ppswatch(in, "p", {});
    EXPECT_EQ(r.pulses.front().edge, core::Edge::clear_edge);
    EXPECT_NE(r.notes.back().find("pass --edge assert"), std::string::npos);
    std::istringstream again("timestamp: 1664427237, sequence: 1, offset:  -5414\n");
    EXPECT_EQ(import_ppswatch(again, "p", {.edge = "assert"}).pulses.front().edge,
              core::Edge::assert_edge);
}

// The old shape ("extts index 0 at T ... diff D"): ts2phc's own diff is the edge's offset from
// its second on the PHC, which is the report's phase.
TEST(Ts2phc, TheExttsShapesDiffIsThePhase) {
    std::istringstream in(fixture("ts2phc-extts-cm4.log"));
    const auto r = import_ts2phc(in, "ts2phc.log", {});
    EXPECT_EQ(phases(r), (std::vector<std::int64_t>{24, -13, -18}));
    EXPECT_EQ(r.pulses.front().timestamp_ns, 1665570382 * s + 24);
    EXPECT_EQ(r.metadata["label"], "eth0");
    EXPECT_EQ(r.problem_count, 0U) << "offsets, linreg lines: ts2phc's own chatter";
    // PHC time on TAI: never taken for CLOCK_REALTIME.
    EXPECT_EQ(r.metadata["clock"], "tai");
}

// The new shape ("adding tstamp T to clock C"): the servo's "offset" line that follows each
// edge is that edge's offset from its second; SKIP lines (the other edge) are not pulses.
TEST(Ts2phc, TheTstampShapesServoOffsetIsThePhase) {
    std::istringstream in(fixture("ts2phc-tstamp-i210.log"));
    const auto r = import_ts2phc(in, "ts2phc.log", {});
    EXPECT_EQ(phases(r), (std::vector<std::int64_t>{-2410, -2486, -2495, -2, 741}));
    EXPECT_EQ(r.metadata["import"]["skip_lines"], 5);
    EXPECT_EQ(r.metadata["label"], "/dev/ptp0");
}

TEST(Ts2phc, SeveralClocksAreListedUntilOneIsChosen) {
    std::istringstream in(fixture("ts2phc-tstamp-sja1105.log"));
    try {
        import_ts2phc(in, "ts2phc.log", {});
        FAIL() << "no error";
    } catch (const core::InputError& e) {
        EXPECT_EQ(std::string(e.what()),
                  "ts2phc.log: edges of several clocks: /dev/ptp1 (4 edges), /dev/ptp3 (4 "
                  "edges); pick one with --clock NAME");
    }
    std::istringstream again(fixture("ts2phc-tstamp-sja1105.log"));
    const auto r = import_ts2phc(again, "ts2phc.log", {.clock = "/dev/ptp3", .strict = false});
    // The sink PHC, not yet locked, ~50 ms before the source's whole seconds.
    EXPECT_EQ(phases(r), (std::vector<std::int64_t>{-50105760, -50115624, -50125296, -50134624}));
    EXPECT_EQ(r.pulses.back().sequence, 3U);
}

// gpsd's PPS segment (here NTP3, gpsd not running as root): Clock is the local stamp of the
// true second Real.
TEST(Ntpshmmon, ThePpsSegmentsClockStampsArePulses) {
    std::istringstream in(fixture("ntpshmmon-manual.txt"));
    const auto r = import_ntpshmmon(in, "ntpshmmon.txt", {});
    ASSERT_EQ(r.pulses.size(), 4U);
    EXPECT_EQ(r.pulses.front().timestamp_ns, 1424926255 * s + 995430821);
    EXPECT_EQ(phases(r), (std::vector<std::int64_t>{-4569179, -4577272, -4589768, -4593524}));
    EXPECT_EQ(r.metadata["label"], "NTP3");
    EXPECT_NE(r.notes.back().find("3 samples of other segments"), std::string::npos);
    std::istringstream again(fixture("ntpshmmon-manual.txt"));
    EXPECT_THROW(import_ntpshmmon(again, "n", {.unit = "NTP1", .strict = false}), core::InputError);
}

}  // namespace
}  // namespace ppsbench::import
