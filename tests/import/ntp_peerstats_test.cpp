#include "ppsbench/import/ntp_peerstats.hpp"

#include <gtest/gtest.h>

#include <sstream>

#include "fixture.hpp"
#include "ppsbench/core/error.hpp"
#include "ppsbench/stats/offsets.hpp"

namespace ppsbench::import {
namespace {

using testing::fixture;

CaptureImport import_text(const std::string& text, PeerstatsImportOptions options = {}) {
    std::istringstream in(text);
    return import_ntp_peerstats(in, "peerstats", options);
}

TEST(NtpPeerstats, TheAtomPeersOffsetsBecomePulses) {
    const auto r = import_text(fixture("ntp-peerstats"));
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
        import_text(fixture("ntp-peerstats-no-pps"));
        FAIL() << "no error";
    } catch (const core::InputError& e) {
        EXPECT_EQ(std::string(e.what()),
                  "peerstats: no PPS peer (ntpd's ATOM driver or NTPsec's refclock pps, "
                  "127.127.22.u); peers in the file: 127.127.20.0 (5 lines), 192.0.2.10 (3 "
                  "lines); name the PPS peer with --peer ADDRESS");
    }
    const auto nmea =
        import_text(fixture("ntp-peerstats-no-pps"), {.peer = "192.0.2.10", .strict = false});
    EXPECT_EQ(nmea.pulses.size(), 3U);
    EXPECT_THROW(import_text(fixture("ntp-peerstats"), {.peer = "10.0.0.1", .strict = false}),
                 core::InputError);
}

}  // namespace
}  // namespace ppsbench::import
