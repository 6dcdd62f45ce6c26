// SPDX-License-Identifier: GPL-2.0-or-later
#include "ppsbench/sysinfo/json.hpp"

#include <gtest/gtest.h>

#include "fixtures.hpp"

namespace ppsbench::sysinfo {
namespace {

using testing::load_fixture;

TEST(FingerprintJson, CarriesTheFactsBehindTheThreadedIrqVerdict) {
    const auto json = to_json(load_fixture("rpi-rt-old"));
    EXPECT_EQ(json.at("schema"), "ppsbench.fingerprint/1");
    EXPECT_EQ(json.at("label"), "6.1.0-27-rt-arm64 PREEMPT_RT, PPS IRQ threaded");
    EXPECT_EQ(json.at("timestamp_context"), "thread");
    EXPECT_EQ(json.at("kernel").at("preempt_rt"), true);
    EXPECT_EQ(json.at("kernel").at("forced_irq_threading"), true);
    const auto& pps = json.at("pps");
    EXPECT_EQ(pps.at("kind"), "pps-gpio");
    EXPECT_EQ(pps.at("handler"), "single");
    EXPECT_EQ(pps.at("assert").at("sequence"), 86399);
    EXPECT_TRUE(pps.at("clear").is_null());
    EXPECT_TRUE(pps.at("pulse_check").is_null());
    const auto& thread = pps.at("irq").at("thread");
    EXPECT_EQ(thread.at("comm"), "irq/41-pps@12.-1");
    EXPECT_EQ(thread.at("policy"), "SCHED_FIFO");
    EXPECT_EQ(thread.at("rt_priority"), 50);
    EXPECT_EQ(thread.at("last_cpu"), 3);
}

TEST(FingerprintJson, UnknownIsNull) {
    const auto json = to_json(load_fixture("no-pps"));
    EXPECT_TRUE(json.at("pps").is_null());
    EXPECT_TRUE(json.at("chrony").at("version").is_null());
    EXPECT_TRUE(json.at("kernel").at("realtime_sysfs").is_null());
    EXPECT_TRUE(json.at("kernel").at("isolcpus").is_null());
}

TEST(DoctorJson, SummarisesVerdicts) {
    const auto fp = load_fixture("x86-threadirqs");
    const auto verdicts = diagnose(fp);
    const auto json = doctor_json(fp, verdicts);
    EXPECT_EQ(json.at("schema"), "ppsbench.doctor/1");
    EXPECT_EQ(json.at("verdicts").size(), verdicts.size());
    EXPECT_EQ(json.at("summary").at("fail"), 1);
    EXPECT_EQ(json.at("summary").at("warn"), 5);
    EXPECT_EQ(json.at("summary").at("ok"), 4);  // with chrony-refclock-edge (issue 24)
    EXPECT_EQ(json.at("summary").at("unknown"), 0);
    EXPECT_EQ(json.at("system").at("pps").at("kind"), "pps-ldisc");
    const auto& first = json.at("verdicts").at(0);
    EXPECT_EQ(first.at("check"), "pps-device");
    EXPECT_EQ(first.at("severity"), "ok");
    EXPECT_TRUE(first.at("fix").is_null());
}

// Found by fuzz/fingerprint_fuzz: a snapshot's bytes that are not UTF-8 (here a Latin-1
// chrony.conf and kernel version) made `doctor --format json` end with an internal error
// (nlohmann::json type_error 316), and would have done the same to `run`'s capture metadata.
TEST(DoctorJson, TextThatIsNotUtf8IsCarriedWithReplacementCharacters) {
    testing::FixtureCopy copy("x86-threadirqs");
    copy.write("/etc/chrony/chrony.conf",
               "refclock PPS /dev/pps0 refid PPS # r\xe9"
               "cepteur\n");
    copy.write("/proc/sys/kernel/version", "#1 SMP PREEMPT_DYNAMIC Debian \xbd\n");
    FingerprintOptions options;
    options.sysroot = copy.root();
    options.snapshot = true;
    options.pulse_wait = std::chrono::milliseconds(0);
    const auto fp = read_fingerprint(options);
    const auto json = doctor_json(fp, diagnose(fp));
    std::string text;
    ASSERT_NO_THROW(text = json.dump());
    EXPECT_EQ(json.at("system").at("chrony").at("refclocks").at(0).at("text"),
              "refclock PPS /dev/pps0 refid PPS # r\uFFFDcepteur");
    EXPECT_EQ(json.at("system").at("kernel").at("version"), "#1 SMP PREEMPT_DYNAMIC Debian \uFFFD");
}

}  // namespace
}  // namespace ppsbench::sysinfo
