// SPDX-License-Identifier: GPL-2.0-or-later
// The boot files of an image, parsed as the Raspberry Pi firmware and GRUB read them.
#include "sysinfo/boot_files.hpp"

#include <gtest/gtest.h>

#include <map>

namespace ppsbench::sysinfo::detail {
namespace {

std::optional<std::string> no_include(const std::string&) {
    return std::nullopt;
}

TEST(ConfigTxt, FindsOverlaysWithTheirLineAndSection) {
    const auto overlays = parse_config_txt(
        "# comment\ndtoverlay=vc4-kms-v3d\n[cm4]\notg_mode=1\n[all]\n"
        "dtoverlay=pps-gpio,gpiopin=18  # the GPS\n",
        "/boot/firmware/config.txt", no_include);
    ASSERT_EQ(overlays.size(), 2U);
    EXPECT_EQ(overlays[0].name, "vc4-kms-v3d");
    EXPECT_EQ(overlays[0].section, "all");
    EXPECT_EQ(overlays[1].name, "pps-gpio");
    EXPECT_EQ(overlays[1].text, "pps-gpio,gpiopin=18");
    EXPECT_EQ(overlays[1].line, 6);
    EXPECT_EQ(overlays[1].file, "/boot/firmware/config.txt");
}

TEST(ConfigTxt, DtparamLinesAfterAnOverlayBelongToIt) {
    const auto overlays = parse_config_txt(
        "dtoverlay=pps-gpio\ndtparam=gpiopin=4\ndtparam=capture_clear\n", "config.txt", no_include);
    ASSERT_EQ(overlays.size(), 1U);
    EXPECT_EQ(overlays[0].text, "pps-gpio,gpiopin=4,capture_clear");
}

TEST(ConfigTxt, ACommentedOutOverlayIsNotAnOverlay) {
    EXPECT_TRUE(parse_config_txt("#dtoverlay=pps-gpio,gpiopin=18\n", "c", no_include).empty());
}

TEST(ConfigTxt, OverlaysInABoardSectionAreMarkedWithIt) {
    const auto overlays =
        parse_config_txt("[pi4]\ndtoverlay=pps-gpio,gpiopin=18\n", "c", no_include);
    ASSERT_EQ(overlays.size(), 1U);
    EXPECT_EQ(overlays[0].section, "pi4");
}

TEST(ConfigTxt, FollowsIncludeRelativeToItsDirectory) {
    std::vector<std::string> asked;
    const auto overlays = parse_config_txt(
        "include extra.txt\n", "/boot/firmware/config.txt", [&](const std::string& path) {
            asked.push_back(path);
            return std::optional<std::string>(
                path.ends_with("extra.txt") ? "dtoverlay=pps-gpio,gpiopin=18\n" : "");
        });
    ASSERT_EQ(asked.size(), 1U);
    EXPECT_EQ(asked[0], "/boot/firmware/extra.txt");
    ASSERT_EQ(overlays.size(), 1U);
    EXPECT_EQ(overlays[0].file, "/boot/firmware/extra.txt");
}

TEST(ConfigTxt, AnIncludeLoopEnds) {
    const auto overlays = parse_config_txt(
        "include config.txt\ndtoverlay=x\n", "/b/config.txt", [](const std::string&) {
            return std::optional<std::string>("include config.txt\ndtoverlay=x\n");
        });
    EXPECT_FALSE(overlays.empty());
    EXPECT_LT(overlays.size(), 20U);
}

TEST(GrubCmdline, JoinsLinuxAndLinuxDefault) {
    const auto cmdline =
        grub_cmdline({"GRUB_DEFAULT=0\nGRUB_CMDLINE_LINUX_DEFAULT=\"quiet\"\n"
                      "GRUB_CMDLINE_LINUX=\"threadirqs isolcpus=3\"\n"});
    ASSERT_TRUE(cmdline);
    EXPECT_EQ(*cmdline, "threadirqs isolcpus=3 quiet");
}

TEST(GrubCmdline, LaterFilesExtendEarlierAssignments) {
    // Debian's grub.d snippets append this way.
    const auto cmdline =
        grub_cmdline({"GRUB_CMDLINE_LINUX_DEFAULT='quiet'\n# GRUB_CMDLINE_LINUX=\"nope\"\n",
                      "GRUB_CMDLINE_LINUX_DEFAULT=\"$GRUB_CMDLINE_LINUX_DEFAULT threadirqs\"\n",
                      "export GRUB_CMDLINE_LINUX=\"${GRUB_CMDLINE_LINUX}nohz_full=3\"\n"});
    ASSERT_TRUE(cmdline);
    EXPECT_EQ(*cmdline, "nohz_full=3 quiet threadirqs");
}

TEST(GrubCmdline, NothingAssignedIsNothing) {
    EXPECT_FALSE(grub_cmdline({"GRUB_TIMEOUT=5\n"}));
}

}  // namespace
}  // namespace ppsbench::sysinfo::detail
