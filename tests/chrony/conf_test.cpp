// SPDX-License-Identifier: GPL-2.0-or-later
#include "ppsbench/chrony/conf.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "chronyd_fixture.hpp"

namespace ppsbench::chrony {
namespace {

TEST(ParseConfText, SkipsCommentsAndKeepsLineNumbers) {
    const auto directives = parse_conf_text(
        "# comment\n; also\n\nrefclock PPS /dev/pps0 lock NMEA\n  ! old\n% too\nconfdir "
        "/etc/chrony/conf.d\n",
        "chrony.conf");
    ASSERT_EQ(directives.size(), 2U);
    EXPECT_EQ(directives[0].line, 4);
    EXPECT_EQ(directives[0].file, "chrony.conf");
    EXPECT_EQ(directives[0].words,
              (std::vector<std::string>{"refclock", "PPS", "/dev/pps0", "lock", "NMEA"}));
    EXPECT_EQ(directives[1].line, 7);
}

TEST(RefclockRefid, ExplicitDefaultAndClearSuffix) {
    const std::string conf =
        "# refclock PPS /dev/pps9 refid NOPE\n"
        "refclock SHM 0 refid NMEA noselect\n"
        "refclock PPS /dev/pps0 lock NMEA refid GPS prefer\n"
        "refclock PPS /dev/pps1:clear poll 2\n"
        "refclock PPS /dev/pps2 refid ABCDEFG ! a comment refid XX\n";
    EXPECT_EQ(refclock_refid_in(conf, "/dev/pps0"), "GPS");
    EXPECT_EQ(refclock_refid_in(conf, "/dev/pps1"), "PPS2") << "chrony's default: index 2";
    EXPECT_EQ(refclock_refid_in(conf, "/dev/pps2"), "ABCD") << "refids are four characters";
    EXPECT_FALSE(refclock_refid_in(conf, "/dev/pps9"));
    EXPECT_FALSE(refclock_refid_in(conf, "/dev/pps"));
}

// The live monitor's refclock: by the refid a run names (any driver), else the PPS device's.
TEST(PpsRefclock, ByRefidFirstThenByDevice) {
    const auto directives = parse_conf_text(
        "refclock SOCK /run/chrony.sock refid PPS offset 0.000012\n"
        "refclock PPS /dev/pps0 offset -2.5e-6 refid\n"
        "refclock PPS /dev/pps1\n",
        "chrony.conf");
    const auto sock = find_pps_refclock(directives, "/dev/pps0", "PPS");
    ASSERT_TRUE(sock);
    EXPECT_EQ(sock->refclock.driver, "SOCK");
    EXPECT_EQ(sock->directive.line, 1);
    EXPECT_EQ(sock->refclock.number("offset"), 12e-6);
    const auto pps0 = find_pps_refclock(directives, "/dev/pps0", "");
    ASSERT_TRUE(pps0);
    EXPECT_EQ(pps0->refid, "PPS1") << "a refid option without a value leaves chrony's default";
    EXPECT_EQ(pps0->refclock.number("offset"), -2.5e-6);
    EXPECT_EQ(find_pps_refclock(directives, "/dev/pps1", "")->refid, "PPS2");
    EXPECT_FALSE(find_pps_refclock(directives, "/dev/pps1", "GPS")) << "no refclock named GPS";
    EXPECT_FALSE(find_pps_refclock(directives, "/dev/pps7", ""));
    EXPECT_EQ(named_refclocks(directives).size(), 3U);
}

TEST(RefclockRefid, FollowsConfdirAndInclude) {
    testing::TempDir dir;
    const auto d = dir.path();
    std::filesystem::create_directory(d / "conf.d");
    std::ofstream(d / "chrony.conf") << "confdir " << (d / "conf.d").string() << "\n"
                                     << "include " << (d / "extra-*.conf").string() << "\n";
    std::ofstream(d / "conf.d" / "10-gps.conf") << "refclock SHM 0 refid NMEA\n";
    std::ofstream(d / "conf.d" / "20-pps.conf") << "refclock PPS /dev/pps0 refid PPS\n";
    std::ofstream(d / "extra-1.conf") << "refclock PPS /dev/pps1\n";
    const auto conf = (d / "chrony.conf").string();
    EXPECT_EQ(find_refclock_refid(conf, "/dev/pps0"), "PPS");
    EXPECT_EQ(find_refclock_refid(conf, "/dev/pps1"), "PPS2");
    EXPECT_FALSE(find_refclock_refid((d / "missing.conf").string(), "/dev/pps0"));
}

TEST(ReadChronyConf, ConfdirTakesEachFileNameFromTheFirstDirectoryListed) {
    // chrony.conf(5): with several directories, a file name present in more than one is read
    // only from the first, so a fragment can be overridden; the files go in name order.
    testing::TempDir dir;
    const auto d = dir.path();
    std::filesystem::create_directory(d / "etc");
    std::filesystem::create_directory(d / "usr");
    std::ofstream(d / "chrony.conf")
        << "CONFDIR " << (d / "etc").string() << " " << (d / "usr").string() << "\n";
    std::ofstream(d / "etc" / "20-pps.conf") << "refclock PPS /dev/pps0 refid ETC\n";
    std::ofstream(d / "usr" / "20-pps.conf") << "refclock PPS /dev/pps0 refid USR\n";
    std::ofstream(d / "usr" / "10-shm.conf") << "refclock SHM 0\n";
    const auto conf = read_chrony_conf((d / "chrony.conf").string(), host_conf_files());
    ASSERT_EQ(conf.directives.size(), 2U);
    EXPECT_EQ(conf.directives[0].words[1], "SHM");
    EXPECT_EQ(conf.directives[1].text, "refclock PPS /dev/pps0 refid ETC");
    EXPECT_EQ(conf.directives[1].line, 1);
    EXPECT_EQ(refclock_refid(conf.directives, "/dev/pps0"), "ETC");
}

TEST(ReadChronyConf, StopsAnIncludeLoopAtChronydsNestingLimit) {
    testing::TempDir dir;
    const auto conf_path = (dir.path() / "chrony.conf").string();
    std::ofstream(conf_path) << "refclock SHM 0\ninclude " << conf_path << "\n";
    const auto conf = read_chrony_conf(conf_path, host_conf_files());
    EXPECT_EQ(conf.files.size(), 10U) << "chronyd's MAX_INCLUDE_LEVEL";
    EXPECT_EQ(conf.directives.size(), 10U);
}

// The doctor's edge checks read a refclock's options from here (issue 24, item 7).
TEST(ParseRefclock, SplitsDriverOptionsFlagsAndValues) {
    const auto directives = parse_conf_text(
        "refclock PHC /dev/ptp0:extpps:pin=1:clear width 0.2 poll 2 noselect refid PHC0\n"
        "refclock PPS /dev/pps0 lock NMEA\n"
        "server ntp.example.org iburst\n",
        "c");
    const auto phc = parse_refclock(directives[0]);
    ASSERT_TRUE(phc);
    EXPECT_EQ(phc->driver, "PHC");
    EXPECT_EQ(phc->parameter, "/dev/ptp0");
    EXPECT_EQ(phc->driver_options, (std::vector<std::string>{"extpps", "pin=1", "clear"}));
    EXPECT_TRUE(phc->has_driver_option("clear"));
    EXPECT_EQ(phc->number("width"), 0.2);
    EXPECT_EQ(phc->number("poll"), 2.0);
    EXPECT_EQ(phc->option("noselect"), "") << "a flag takes no value";
    EXPECT_EQ(phc->option("refid"), "PHC0") << "the word after a flag is the next option";
    const auto pps = parse_refclock(directives[1]);
    ASSERT_TRUE(pps);
    EXPECT_TRUE(pps->driver_options.empty());
    EXPECT_FALSE(pps->has_driver_option("clear"));
    EXPECT_FALSE(pps->option("width"));
    EXPECT_FALSE(parse_refclock(directives[2]));
}

TEST(ParseRefclock, AWidthThatIsNotANumberHasNoNumber) {
    const auto refclock =
        parse_refclock(parse_conf_text("refclock PHC /dev/ptp0:extpps width 0.1s\n", "c")[0]);
    ASSERT_TRUE(refclock);
    EXPECT_EQ(refclock->option("width"), "0.1s");
    EXPECT_FALSE(refclock->number("width"));
}

}  // namespace
}  // namespace ppsbench::chrony
