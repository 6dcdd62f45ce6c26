// SPDX-License-Identifier: GPL-2.0-or-later
// doctor --sysroot on an image (issue 24, item 8): a mounted Raspberry Pi OS SD card printed
// "boot options not set: threadirqs", "[FAIL] add dtoverlay=pps-gpio to config.txt" and "chrony
// installed, not running" although its boot files held both and nothing runs in an image. The
// image is read as an image: its boot files, and "cannot tell" for the running system.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <sstream>

#include "fixtures.hpp"
#include "ppsbench/sysinfo/diagnose.hpp"
#include "ppsbench/sysinfo/doctor_text.hpp"
#include "ppsbench/sysinfo/fingerprint.hpp"
#include "ppsbench/sysinfo/json.hpp"

namespace ppsbench::sysinfo {
namespace {

using testing::FixtureCopy;
using ::testing::HasSubstr;
using ::testing::Not;

SystemFingerprint load_image(const std::filesystem::path& root) {
    FingerprintOptions options;
    options.sysroot = root;
    options.snapshot = true;
    options.pulse_wait = std::chrono::milliseconds(0);
    options.run_command = [](const std::vector<std::string>&) { return std::nullopt; };
    return read_fingerprint(options);
}

const Verdict* find_verdict(const std::vector<Verdict>& verdicts, const std::string& check) {
    for (const auto& verdict : verdicts) {
        if (verdict.check == check) {
            return &verdict;
        }
    }
    return nullptr;
}

std::string doctor_text(const SystemFingerprint& fp) {
    std::ostringstream out;
    write_doctor_text(out, fp, diagnose(fp));
    return out.str();
}

TEST(Image, PiOsImageIsReadFromItsBootFiles) {
    const auto fp = load_image(testing::fixture("rpi-image"));
    EXPECT_TRUE(fp.image);
    EXPECT_EQ(fp.boot.cmdline_file, "/boot/firmware/cmdline.txt");
    EXPECT_EQ(fp.kernel.cmdline_source, "/boot/firmware/cmdline.txt");
    EXPECT_TRUE(fp.kernel.threadirqs);
    EXPECT_EQ(fp.boot.config_file, "/boot/firmware/config.txt");
    EXPECT_EQ(fp.boot.kernels,
              (std::vector<std::string>{"6.1.0-rpi7-rpi-2712", "6.1.0-rpi7-rpi-v8"}));
    EXPECT_TRUE(fp.chrony.enabled);
}

TEST(Image, PiOsImageGetsNoNegativeVerdictFromWhatItCannotShow) {
    const auto fp = load_image(testing::fixture("rpi-image"));
    const auto verdicts = diagnose(fp);
    EXPECT_FALSE(has_failure(verdicts));
    ASSERT_NE(find_verdict(verdicts, "pps-device"), nullptr);
    EXPECT_EQ(find_verdict(verdicts, "pps-device")->severity, Severity::ok);
    EXPECT_THAT(find_verdict(verdicts, "pps-device")->message,
                HasSubstr("dtoverlay=pps-gpio,gpiopin=18"));
    ASSERT_NE(find_verdict(verdicts, "running-system"), nullptr);
    EXPECT_EQ(find_verdict(verdicts, "running-system")->severity, Severity::unknown);
    ASSERT_NE(find_verdict(verdicts, "chrony-running"), nullptr);
    EXPECT_EQ(find_verdict(verdicts, "chrony-running")->severity, Severity::unknown);
    EXPECT_THAT(find_verdict(verdicts, "chrony-running")->message, HasSubstr("enabled at boot"));
    EXPECT_EQ(find_verdict(verdicts, "chrony-refclock")->severity, Severity::ok);
    for (const auto& verdict : verdicts) {
        EXPECT_NE(verdict.severity, Severity::warn) << verdict.check << ": " << verdict.message;
    }
    const auto text = doctor_text(fp);
    EXPECT_THAT(text, HasSubstr("boot options      threadirqs; not set: isolcpus, nohz_full, "
                                "irqaffinity (from\n                    "
                                "/boot/firmware/cmdline.txt)"));
    EXPECT_THAT(text, HasSubstr("cannot tell from an image"));
    EXPECT_THAT(text, Not(HasSubstr("not running")));
    EXPECT_THAT(text, Not(HasSubstr("[FAIL]")));
    EXPECT_THAT(text, HasSubstr("0 fail, 0 warn, 2 ok, 2 cannot tell"));
    EXPECT_EQ(short_label(fp),
              "image (not booted), kernels 6.1.0-rpi7-rpi-2712, 6.1.0-rpi7-rpi-v8, boots with "
              "threadirqs");
    const auto json = doctor_json(fp, diagnose(fp));
    EXPECT_EQ(json.at("summary").at("unknown"), 2);
    EXPECT_EQ(json.at("system").at("image"), true);
    EXPECT_EQ(json.at("system").at("boot").at("overlays").size(), 2U);
}

TEST(Image, OlderPiOsLayoutKeepsTheBootFilesInBoot) {
    FixtureCopy tree("rpi-image");
    std::filesystem::rename(tree.root() / "boot/firmware/cmdline.txt",
                            tree.root() / "boot/cmdline.txt");
    std::filesystem::rename(tree.root() / "boot/firmware/config.txt",
                            tree.root() / "boot/config.txt");
    const auto fp = load_image(tree.root());
    EXPECT_EQ(fp.kernel.cmdline_source, "/boot/cmdline.txt");
    EXPECT_TRUE(fp.kernel.threadirqs);
    const auto verdicts = diagnose(fp);
    EXPECT_EQ(find_verdict(verdicts, "pps-device")->severity, Severity::ok);
}

TEST(Image, TheBootPartitionMountedOnItsOwnIsReadToo) {
    FixtureCopy tree("rpi-image");
    const auto boot = tree.root() / "boot/firmware";
    const auto fp = load_image(boot);
    EXPECT_TRUE(fp.image);
    EXPECT_EQ(fp.kernel.cmdline_source, "/cmdline.txt");
    const auto verdicts = diagnose(fp);
    EXPECT_EQ(find_verdict(verdicts, "pps-device")->severity, Severity::ok);
}

TEST(Image, AConfigTxtWithoutThePpsOverlayWarnsWithTheLineToAdd) {
    FixtureCopy tree("rpi-image");
    tree.write("/boot/firmware/config.txt", "dtoverlay=vc4-kms-v3d\n#dtoverlay=pps-gpio\n");
    const auto verdicts = diagnose(load_image(tree.root()));
    const auto* device = find_verdict(verdicts, "pps-device");
    ASSERT_NE(device, nullptr);
    EXPECT_EQ(device->severity, Severity::warn);
    EXPECT_THAT(device->fix, HasSubstr("dtoverlay=pps-gpio,gpiopin=<pin>"));
    EXPECT_FALSE(has_failure(verdicts));
}

TEST(Image, APcImageReadsGrubAndCannotTellItsPpsDevice) {
    FixtureCopy tree("rpi-image");
    tree.remove("/boot/firmware");
    tree.write("/etc/default/grub",
               "GRUB_CMDLINE_LINUX_DEFAULT=\"quiet\"\nGRUB_CMDLINE_LINUX=\"\"\n");
    tree.write("/etc/default/grub.d/rt.cfg",
               "GRUB_CMDLINE_LINUX=\"$GRUB_CMDLINE_LINUX threadirqs\"\n");
    const auto fp = load_image(tree.root());
    EXPECT_EQ(fp.kernel.cmdline_source, "/etc/default/grub");
    EXPECT_TRUE(fp.kernel.threadirqs);
    const auto verdicts = diagnose(fp);
    EXPECT_EQ(find_verdict(verdicts, "pps-device")->severity, Severity::unknown);
    EXPECT_FALSE(has_failure(verdicts));
}

TEST(Image, ASystemdLinkToAnAbsoluteTargetCountsAsEnabled) {
    // A real image's link points at /lib/systemd/system/chrony.service, which this host may not
    // have: the link itself is the evidence.
    FixtureCopy tree("rpi-image");
    const auto link = tree.root() / "etc/systemd/system/multi-user.target.wants/chrony.service";
    std::filesystem::remove(link);
    std::filesystem::create_symlink("/nonexistent/lib/systemd/system/chrony.service", link);
    EXPECT_TRUE(load_image(tree.root()).chrony.enabled);
    std::filesystem::remove(link);
    EXPECT_FALSE(load_image(tree.root()).chrony.enabled);
}

TEST(Image, ChronyMissingFromTheImageIsSaid) {
    FixtureCopy tree("rpi-image");
    tree.remove("/usr/sbin/chronyd");
    const auto verdicts = diagnose(load_image(tree.root()));
    const auto* chrony = find_verdict(verdicts, "chrony-running");
    ASSERT_NE(chrony, nullptr);
    EXPECT_EQ(chrony->severity, Severity::warn);
    EXPECT_THAT(chrony->message, HasSubstr("not installed in the image"));
}

TEST(Image, ASnapshotOfARunningSystemIsNotAnImage) {
    const auto fp = load_image(testing::fixture("rpi-stock"));
    EXPECT_FALSE(fp.image);
    EXPECT_EQ(fp.kernel.cmdline_source, "/proc/cmdline");
    const auto verdicts = diagnose(fp);
    EXPECT_EQ(find_verdict(verdicts, "running-system"), nullptr);
}

}  // namespace
}  // namespace ppsbench::sysinfo
