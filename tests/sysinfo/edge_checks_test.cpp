// SPDX-License-Identifier: GPL-2.0-or-later
// Which edge chrony takes (issue 24, item 7): the i226 both-edge confusion left clocks
// 200-500 ms late. Each rule fires on one fixture and stays quiet on its neighbour.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "fixtures.hpp"
#include "ppsbench/sysinfo/diagnose.hpp"
#include "ppsbench/sysinfo/fingerprint.hpp"

namespace ppsbench::sysinfo {
namespace {

using testing::FixtureCopy;
using ::testing::HasSubstr;

std::vector<Verdict> edge_verdicts(const std::filesystem::path& root) {
    FingerprintOptions options;
    options.sysroot = root;
    options.pulse_wait = std::chrono::milliseconds(0);
    options.run_command = [](const std::vector<std::string>&) { return std::nullopt; };
    std::vector<Verdict> edges;
    for (auto& verdict : diagnose(read_fingerprint(options))) {
        if (verdict.check == "chrony-refclock-edge") {
            edges.push_back(std::move(verdict));
        }
    }
    return edges;
}

// rpi-stock: pps-gpio capturing assert only (mode 0x1151), chrony on its assert edge.
TEST(RefclockEdge, AssertRefclockOnAnAssertOnlyDeviceSaysNothing) {
    EXPECT_TRUE(edge_verdicts(testing::fixture("rpi-stock")).empty());
}

TEST(RefclockEdge, ClearOnADeviceThatCapturesOnlyAssertFails) {
    FixtureCopy tree("rpi-stock");
    tree.write("/etc/chrony/conf.d/gps.conf",
               "refclock SHM 0 refid NMEA noselect\nrefclock PPS /dev/pps0:clear lock NMEA\n");
    const auto edges = edge_verdicts(tree.root());
    ASSERT_EQ(edges.size(), 1U);
    EXPECT_EQ(edges[0].severity, Severity::fail);
    EXPECT_THAT(edges[0].message, HasSubstr("does not capture (mode 0x1151)"));
    EXPECT_THAT(edges[0].fix, HasSubstr("assert_falling_edge"));
}

// x86-threadirqs: pps-ldisc captures both edges; assert at .000004711, clear 100 ms later.
TEST(RefclockEdge, BothEdgesSeenAndChronyOnTheOneOnTheSecondIsOk) {
    const auto edges = edge_verdicts(testing::fixture("x86-threadirqs"));
    ASSERT_EQ(edges.size(), 1U);
    EXPECT_EQ(edges[0].severity, Severity::ok);
    EXPECT_THAT(edges[0].message, HasSubstr("100.0 ms after the assert edge (the pulse width)"));
    EXPECT_THAT(edges[0].message, HasSubstr("does not prove"));
}

TEST(RefclockEdge, ChronyOnTheEdgeThatIsNotOnTheSecondFails) {
    FixtureCopy tree("x86-threadirqs");
    tree.write("/etc/chrony/chrony.conf", "refclock PPS /dev/pps0:clear refid PPS\n");
    const auto edges = edge_verdicts(tree.root());
    ASSERT_EQ(edges.size(), 1U);
    EXPECT_EQ(edges[0].severity, Severity::fail);
    EXPECT_THAT(edges[0].message, HasSubstr("takes the clear (falling) edge of /dev/pps0, which "
                                            "is 100.0 ms off the second"));
    EXPECT_THAT(edges[0].fix, HasSubstr("Remove `:clear`"));
}

TEST(RefclockEdge, AnInvertedPulseWithChronyOnAssertFailsWithTheClearFix) {
    // A receiver whose pulse falls on the second: assert (rising) 100 ms before it.
    FixtureCopy tree("x86-threadirqs");
    tree.write("/sys/class/pps/pps0/assert", "1700086399.900003100#86400\n");
    tree.write("/sys/class/pps/pps0/clear", "1700086400.000004202#86400\n");
    const auto edges = edge_verdicts(tree.root());
    ASSERT_EQ(edges.size(), 1U);
    EXPECT_EQ(edges[0].severity, Severity::fail);
    EXPECT_THAT(edges[0].message, HasSubstr("-100.0 ms off the second"));
    EXPECT_THAT(edges[0].fix, HasSubstr("Add `:clear`"));
}

TEST(RefclockEdge, ClearWithoutEvidenceWarns) {
    FixtureCopy tree("no-pps");
    tree.write("/etc/chrony/chrony.conf", "refclock PPS /dev/pps1:clear refid GPS2\n");
    const auto edges = edge_verdicts(tree.root());
    ASSERT_EQ(edges.size(), 1U);
    EXPECT_EQ(edges[0].severity, Severity::warn);
    EXPECT_THAT(edges[0].message, HasSubstr("takes the clear (falling) edge"));
    EXPECT_THAT(edges[0].fix, HasSubstr("ppsbench run --edge both"));
}

struct PhcCase {
    const char* line;
    Severity severity;
    const char* says;
};

TEST(RefclockEdge, PhcExternalPulseNeedsAWidthInsideThePeriod) {
    const PhcCase cases[] = {
        {"refclock PHC /dev/ptp0:extpps:pin=0 poll 2", Severity::warn, "without `width`"},
        {"refclock PHC /dev/ptp0:extpps width 0.1", Severity::ok, "more than 50.0 ms from"},
        {"refclock PHC /dev/ptp0:extpps:clear width 0.8", Severity::ok, "takes the clear edge"},
        {"refclock PHC /dev/ptp0:extpps width 1.5", Severity::fail, "drops every pulse"},
        {"refclock PHC /dev/ptp0:extpps width 0.5 rate 2 dpoll -2", Severity::fail,
         "500.0 ms period"},
        {"refclock PHC /dev/ptp0:extpps width 100ms", Severity::fail, "`width 100ms`"},
        {"refclock PHC /dev/ptp0 poll 0 dpoll -2 offset -37", Severity::ok, ""},
    };
    for (const auto& c : cases) {
        FixtureCopy tree("no-pps");
        tree.write("/etc/chrony/chrony.conf", std::string(c.line) + "\n");
        const auto edges = edge_verdicts(tree.root());
        if (std::string_view(c.says).empty()) {
            EXPECT_TRUE(edges.empty()) << c.line << ": a PHC read as a clock has no edge";
            continue;
        }
        ASSERT_EQ(edges.size(), 1U) << c.line;
        EXPECT_EQ(edges[0].severity, c.severity) << c.line << ": " << edges[0].message;
        EXPECT_THAT(edges[0].message, HasSubstr(c.says)) << c.line;
    }
}

}  // namespace
}  // namespace ppsbench::sysinfo
