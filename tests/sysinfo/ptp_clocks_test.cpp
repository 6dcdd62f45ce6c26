// SPDX-License-Identifier: GPL-2.0-or-later
// The doctor's list of PTP hardware clocks, read from fake sysfs trees: a TimeHAT-style i226
// whose SDP0 pin carries channel 0's input, a clock without external timestamps, and the
// linuxptp programs found in /proc.
#include <gtest/gtest.h>

#include <sstream>

#include "fixtures.hpp"
#include "ppsbench/sysinfo/doctor_text.hpp"
#include "ppsbench/sysinfo/fingerprint.hpp"
#include "ppsbench/sysinfo/json.hpp"

namespace ppsbench::sysinfo {
namespace {

using testing::FixtureCopy;

FingerprintOptions no_program_options(const std::filesystem::path& root) {
    FingerprintOptions options;
    options.sysroot = root;
    options.pulse_wait = std::chrono::milliseconds(0);
    options.run_command = [](const std::vector<std::string>&) { return std::nullopt; };
    return options;
}

// Two PHCs on top of the no-PPS fixture: ptp10 (to check the order) and ptp2.
void add_clocks(const FixtureCopy& tree) {
    tree.write("/sys/class/ptp/ptp2/clock_name", "igc\n");
    tree.write("/sys/class/ptp/ptp2/n_external_timestamps", "2\n");
    tree.write("/sys/class/ptp/ptp2/n_periodic_outputs", "2\n");
    tree.write("/sys/class/ptp/ptp2/n_programmable_pins", "4\n");
    tree.write("/sys/class/ptp/ptp2/pps_available", "0\n");
    tree.write("/sys/class/ptp/ptp2/pins/SDP0", "1 0\n");
    tree.write("/sys/class/ptp/ptp2/pins/SDP1", "2 1\n");
    tree.write("/sys/class/ptp/ptp2/pins/SDP2", "0 0\n");
    tree.write("/sys/class/ptp/ptp2/pins/SDP3", "0 0\n");
    tree.write("/sys/class/ptp/ptp2/device/net/eth1/ifindex", "3\n");
    tree.write("/sys/class/ptp/ptp10/clock_name", "ptp_kvm\n");
    tree.write("/sys/class/ptp/ptp10/n_external_timestamps", "0\n");
    tree.write("/sys/class/ptp/ptp10/n_programmable_pins", "0\n");
    tree.write("/sys/class/ptp/ptp10/pps_available", "1\n");
}

TEST(PtpClocks, ListsEachClockWithItsChannelsPinsAndInterface) {
    FixtureCopy tree("no-pps");
    add_clocks(tree);
    const auto fp = read_fingerprint(no_program_options(tree.root()));
    ASSERT_EQ(fp.ptp.clocks.size(), 2U);
    const auto& igc = fp.ptp.clocks[0];
    EXPECT_EQ(igc.id, "ptp2");
    EXPECT_EQ(igc.clock_name, "igc");
    EXPECT_EQ(igc.external_timestamps, 2);
    EXPECT_EQ(igc.periodic_outputs, 2);
    EXPECT_EQ(igc.programmable_pins, 4);
    EXPECT_FALSE(igc.pps_available);
    ASSERT_EQ(igc.pins.size(), 4U);
    EXPECT_EQ(igc.pins[0].name, "SDP0");
    EXPECT_EQ(igc.pins[0].function, "external timestamps");
    EXPECT_EQ(igc.pins[1].function, "periodic output");
    EXPECT_EQ(igc.pins[1].channel, 1);
    EXPECT_EQ(igc.pins[2].function, "none");
    EXPECT_EQ(igc.interfaces, std::vector<std::string>{"eth1"});
    const auto& kvm = fp.ptp.clocks[1];
    EXPECT_EQ(kvm.id, "ptp10");
    EXPECT_EQ(kvm.external_timestamps, 0);
    EXPECT_EQ(kvm.periodic_outputs, -1);  // not exposed
    EXPECT_TRUE(kvm.pps_available);
}

TEST(PtpClocks, SaysWhichLinuxptpProgramsRun) {
    FixtureCopy tree("no-pps");
    tree.write("/proc/812/comm", "ts2phc\n");
    tree.write("/proc/813/comm", "phc2sys\n");
    const auto fp = read_fingerprint(no_program_options(tree.root()));
    ASSERT_EQ(fp.ptp.tools.size(), 3U);
    EXPECT_EQ(fp.ptp.tools[0].name, "ts2phc");
    EXPECT_TRUE(fp.ptp.tools[0].running);
    EXPECT_EQ(fp.ptp.tools[0].pid, 812);
    EXPECT_TRUE(fp.ptp.tools[1].running);
    EXPECT_EQ(fp.ptp.tools[2].name, "ptp4l");
    EXPECT_FALSE(fp.ptp.tools[2].running);
}

TEST(PtpClocks, AppearInTheDoctorsJsonAndText) {
    FixtureCopy tree("no-pps");
    add_clocks(tree);
    tree.write("/proc/812/comm", "ts2phc\n");
    const auto fp = read_fingerprint(no_program_options(tree.root()));
    const auto json = to_json(fp);
    ASSERT_EQ(json["ptp"]["clocks"].size(), 2U);
    EXPECT_EQ(json["ptp"]["clocks"][0]["device"], "/dev/ptp2");
    EXPECT_EQ(json["ptp"]["clocks"][0]["pins"][0]["function"], "external timestamps");
    EXPECT_TRUE(json["ptp"]["clocks"][1]["periodic_outputs"].is_null());
    EXPECT_EQ(json["ptp"]["tools"][0]["pid"], 812);
    std::ostringstream text;
    write_doctor_text(text, fp, {});
    // Rows are wrapped at the terminal width: checked piece by piece.
    EXPECT_NE(text.str().find("/dev/ptp2 igc (eth1): 2 external-timestamp channel(s), 4 pin(s)"),
              std::string::npos)
        << text.str();
    EXPECT_NE(text.str().find("ppsbench run --source ptp:/dev/ptp2"), std::string::npos);
    EXPECT_EQ(text.str().find("--source ptp:/dev/ptp10"), std::string::npos);  // no channel
    EXPECT_NE(text.str().find("ts2phc running (PID 812), phc2sys not running"), std::string::npos);
}

TEST(PtpClocks, NoClockIsSaidPlainly) {
    FixtureCopy tree("no-pps");
    const auto fp = read_fingerprint(no_program_options(tree.root()));
    EXPECT_TRUE(fp.ptp.clocks.empty());
    std::ostringstream text;
    write_doctor_text(text, fp, {});
    EXPECT_NE(text.str().find("none (/sys/class/ptp is empty)"), std::string::npos);
}

}  // namespace
}  // namespace ppsbench::sysinfo
