// SPDX-License-Identifier: GPL-2.0-or-later
// Which file of a two-path run gets chronyd's notes: the path whose device is chrony's refclock,
// and both when that cannot be told (session/run_parts.hpp).
#include <gtest/gtest.h>

#include <array>
#include <string>
#include <vector>

#include "cli.hpp"
#include "session/run_parts.hpp"

namespace ppsbench::session {
namespace {

using Paths = std::vector<std::size_t>;

class ChronyNotePaths : public ::testing::Test {
  protected:
    void SetUp() override {
        testing::write_text(conf_,
                            "refclock SHM 0 refid NMEA noselect\n"
                            "refclock PPS /dev/pps0 lock NMEA refid PPS prefer\n"
                            "refclock PPS /dev/pps1 refid REF noselect\n");
        options_.chrony_sampler.chrony_conf = conf_;
    }
    Paths note_paths(const std::string& a_device, const std::string& b_device) {
        a_.pps_device = a_device;
        b_.pps_device = b_device;
        return chrony_note_paths(options_, {&a_, &b_});
    }
    testing::TempDir dir_;
    std::string conf_ = dir_.file("chrony.conf");
    RunOptions options_;
    capture::SourceInfo a_;
    capture::SourceInfo b_;
};

TEST_F(ChronyNotePaths, ThePathWhoseDeviceIsARefclockGetsThem) {
    EXPECT_EQ(note_paths("/dev/pps0", "/dev/pps7"), (Paths{0}));
    EXPECT_EQ(note_paths("", "/dev/pps0"), (Paths{1})) << "a GPIO or sim path has no device";
}

TEST_F(ChronyNotePaths, BothFilesWhenNeitherOrBothPathsAreRefclocks) {
    EXPECT_EQ(note_paths("", ""), (Paths{0, 1})) << "two simulations";
    EXPECT_EQ(note_paths("/dev/pps7", "/dev/pps8"), (Paths{0, 1}));
    EXPECT_EQ(note_paths("/dev/pps0", "/dev/pps1"), (Paths{0, 1}));
}

TEST_F(ChronyNotePaths, AGivenRefidPicksTheRefclockWithThatRefid) {
    options_.chrony_sampler.refid = "REF";
    EXPECT_EQ(note_paths("/dev/pps0", "/dev/pps1"), (Paths{1}));
    options_.chrony_sampler.refid = "GPS";  // no refclock has it: which path is unknown
    EXPECT_EQ(note_paths("/dev/pps0", "/dev/pps1"), (Paths{0, 1}));
}

TEST_F(ChronyNotePaths, NoReadableChronyConfMeansBoth) {
    options_.chrony_sampler.chrony_conf = dir_.file("absent.conf");
    EXPECT_EQ(note_paths("/dev/pps0", "/dev/pps7"), (Paths{0, 1}));
}

}  // namespace
}  // namespace ppsbench::session
