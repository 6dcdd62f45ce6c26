#include "ppsbench/chrony/conf.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "chronyd_fixture.hpp"

namespace ppsbench::chrony {
namespace {

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

}  // namespace
}  // namespace ppsbench::chrony
