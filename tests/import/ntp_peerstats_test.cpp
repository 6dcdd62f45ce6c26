// SPDX-License-Identifier: GPL-2.0-or-later
#include "ppsbench/import/ntp_peerstats.hpp"

#include <gtest/gtest.h>

#include <sstream>

#include "fixture.hpp"
#include "ppsbench/core/error.hpp"
#include "ppsbench/stats/offsets.hpp"

namespace ppsbench::import {
namespace {

using testing::fixture;

CaptureImport import_peerstats_text(const std::string& text, PeerstatsImportOptions options = {}) {
    std::istringstream in(text);
    return import_ntp_peerstats(in, "peerstats", options);
}

TEST(NtpPeerstats, TheAtomPeersOffsetsBecomePulses) {
    const auto r = import_peerstats_text(fixture("ntp-peerstats"));
    ASSERT_EQ(r.pulses.size(), 5U);
    EXPECT_EQ(r.metadata["label"], "127.127.22.0");
    EXPECT_EQ(r.metadata["import"]["poll_interval_s"], 16);
    EXPECT_EQ(r.metadata["import"]["other_peer_lines"], 8);
    // MJD 60000 is 2023-02-25; 3600.125 s rounds to 01:00:00.
    constexpr std::int64_t s0 = (60000LL - 40587) * 86400 + 3600;
    EXPECT_EQ(r.pulses[0].timestamp_ns, s0 * 1'000'000'000 + 123);
    EXPECT_EQ(r.pulses[1].sequence, 16U);
    // The report's phase offset is ntpd's offset, negated as for chrony (docs/import.md).
    const std::int64_t expected[] = {123, -456, 789, -1000, -1};
    for (std::size_t i = 0; i < 5; ++i) {
        EXPECT_EQ(stats::phase_offset_ns(r.pulses[i].timestamp_ns, 1'000'000'000), expected[i]);
    }
    EXPECT_EQ(r.problem_count, 0U);
}

TEST(NtpPeerstats, WithoutAPpsPeerTheRefusalListsThePeers) {
    try {
        import_peerstats_text(fixture("ntp-peerstats-no-pps"));
        FAIL() << "no error";
    } catch (const core::InputError& e) {
        EXPECT_EQ(
            std::string(e.what()),
            "peerstats: no PPS peer (ntpd's ATOM driver or NTPsec's refclock pps, "
            "127.127.22.u or PPS(u)); peers in the file: 127.127.20.0 (5 lines), 192.0.2.10 (3 "
            "lines); name the PPS peer with --peer ADDRESS");
    }
    const auto nmea = import_peerstats_text(fixture("ntp-peerstats-no-pps"),
                                            {.peer = "192.0.2.10", .strict = false});
    EXPECT_EQ(nmea.pulses.size(), 3U);
    EXPECT_THROW(
        import_peerstats_text(fixture("ntp-peerstats"), {.peer = "10.0.0.1", .strict = false}),
        core::InputError);
}

// A pfSense GPS server's peerstats (its NMEA+PPS refclock, polled every 8 s): ntpd logs the
// poll's offset after the edge, at xx:02.877, so the pulse is at the whole second before the
// line's time, 00:00:01.999997484, not a second later.
TEST(NtpPeerstats, ALineLabelsTheEdgeAtTheWholeSecondBeforeIt) {
    const auto r =
        import_peerstats_text(fixture("ntp-peerstats-pfsense"), {.peer = "127.127.20.0"});
    ASSERT_EQ(r.pulses.size(), 41U);
    constexpr std::int64_t day = (61016LL - 40587) * 86400;
    EXPECT_EQ(r.pulses[0].timestamp_ns, (day + 2) * 1'000'000'000 - 2516);
    EXPECT_EQ(r.pulses[1].timestamp_ns, (day + 10) * 1'000'000'000 - 1289);
    EXPECT_EQ(r.pulses[1].sequence, 8U);
    EXPECT_EQ(r.metadata["import"]["poll_interval_s"], 8);
    EXPECT_EQ(r.metadata["import"]["other_peer_lines"], 2);
}

// NTPsec builds without the classic addresses label the PPS refclock PPS(0): picked as the PPS
// peer without --peer. (Hand-written: the layout of NTPsec's record_peer_stats with that label.)
TEST(NtpPeerstats, NtpsecsPpsLabelIsThePpsPeer) {
    const auto r = import_peerstats_text(
        "60000 3600.125 PPS(0) 9714 -0.000000123 0.000000000 0.000000954 0.000000110\n"
        "60000 3601.125 NMEA(0) 9414 0.123456789 0.000000000 0.000946000 0.002100000\n"
        "60000 3616.125 PPS(0) 9714 0.000000456 0.000000000 0.000000954 0.000000110\n");
    ASSERT_EQ(r.pulses.size(), 2U);
    EXPECT_EQ(r.metadata["label"], "PPS(0)");
}

}  // namespace
}  // namespace ppsbench::import
