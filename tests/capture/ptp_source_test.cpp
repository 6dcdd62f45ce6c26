// SPDX-License-Identifier: GPL-2.0-or-later
// The PTP source against scripted PHC devices (fake_phc.hpp): the event streams and
// cross-timestamps below are what a free-running NIC clock gives, written out by hand from its
// model (no PHC exists on CI machines). The real ioctls run in the lab against the test
// module's PTP clock (docs/lab.md).
#include "../../src/capture/sources/ptp_source.hpp"

#include <gtest/gtest.h>

#include "fake_phc.hpp"
#include "ppsbench/capture/source_factory.hpp"
#include "ppsbench/core/error.hpp"

namespace ppsbench::capture {
namespace {

using fake::BorrowedPhc;
using fake::extts_event;
using fake::FakePhc;
using fake::Triple;

// A NIC clock set to TAI (37 s ahead of UTC) and running 100 ppm fast: PHC(t) for realtime t.
constexpr std::int64_t t0 = 1'780'000'000'000'000'000;
std::int64_t phc_at(std::int64_t realtime_ns) {
    return realtime_ns + 37'000'000'000 + (realtime_ns - t0) / 10'000;
}

// An EXTENDED2 sample taken at realtime t: five triples of 800 ns windows, one preempted.
std::vector<Triple> sample_at(std::int64_t t) {
    return {{t - 20'000, phc_at(t), t + 20'000},
            {t - 400, phc_at(t), t + 400},
            {t - 900, phc_at(t), t + 700},
            {t - 400, phc_at(t), t + 400},
            {t - 400, phc_at(t), t + 400}};
}

std::unique_ptr<FakePhc> nic(int n_ext_ts = 2, int n_pins = 4) {
    auto phc = std::make_unique<FakePhc>();
    phc->caps.n_ext_ts = n_ext_ts;
    phc->caps.n_pins = n_pins;
    for (int i = 0; i < n_pins; ++i) {
        ptp_pin_desc pin{};
        pin.index = static_cast<unsigned>(i);
        phc->pins.push_back(pin);
    }
    return phc;
}

std::string error_of(const std::function<void()>& open) {
    try {
        open();
    } catch (const core::Error& e) {
        return e.what();
    }
    return "no error";
}

TEST(PtpSource, PutsEachEdgeOnRealtimeThroughTheCrossTimestampsAroundIt) {
    // Sampled at open, half a second before the first edge, then 300 µs after each edge (when
    // the batch is read). Between samples the offset is interpolated, so the PHC's 100 ppm
    // (50 µs over that half second) does not reach the timestamps.
    auto phc = nic();
    phc->extended.push_back(sample_at(t0 - 500'000'000));
    for (int k = 0; k < 3; ++k) {
        const std::int64_t edge = t0 + k * 1'000'000'000LL;
        phc->batches.push_back({extts_event(phc_at(edge))});
        phc->extended.push_back(sample_at(edge + 300'000));
    }
    PtpSource source("ptp:/dev/ptp0", {"/dev/ptp0", 0, {}}, {}, std::move(phc), {});
    EXPECT_EQ(source.method(), CrossTimestampMethod::extended);
    EXPECT_EQ(source.info().clock, core::ClockId::realtime);
    EXPECT_EQ(source.info().details.at("cross_timestamp"), "extended");
    std::array<core::Pulse, 64> out{};
    for (int k = 0; k < 3; ++k) {
        ASSERT_EQ(source.wait(std::chrono::seconds{1}), WaitResult::ready);
        ASSERT_EQ(source.read(out), 1U);
        const std::int64_t edge = t0 + k * 1'000'000'000LL;
        EXPECT_NEAR(static_cast<double>(out[0].timestamp_ns), static_cast<double>(edge), 1.0);
        EXPECT_EQ(out[0].sequence, static_cast<std::uint64_t>(k + 1));
        const auto extras = source.last_extras();
        ASSERT_EQ(extras.size(), 2U);
        EXPECT_NEAR(static_cast<double>(extras[0]), static_cast<double>(edge - phc_at(edge)), 1.0);
        EXPECT_EQ(extras[1], 400);  // half the narrowest window, the preempted one passed over
    }
    EXPECT_EQ(source.extra_columns().size(), 2U);
    EXPECT_EQ(source.extra_columns()[0], "phc_offset_ns");
}

TEST(PtpSource, ABatchOfEdgesIsConvertedInOneReadAndOtherChannelsAreLeftOut) {
    auto phc = nic();
    phc->extended.push_back(sample_at(t0 - 10'000'000));
    phc->batches.push_back({extts_event(phc_at(t0)), extts_event(phc_at(t0 + 5), 1),
                            extts_event(phc_at(t0 + 1'000'000'000))});
    phc->extended.push_back(sample_at(t0 + 1'000'200'000));
    PtpSource source("ptp:/dev/ptp0", {"/dev/ptp0", 0, {}}, {}, std::move(phc), {});
    std::array<core::Pulse, 64> out{};
    ASSERT_EQ(source.read(out), 2U);
    EXPECT_NEAR(static_cast<double>(out[1].timestamp_ns), static_cast<double>(t0 + 1'000'000'000),
                1.0);
    EXPECT_EQ(out[1].sequence, 2U);
    EXPECT_EQ(source.last_extras().size(), 4U);
}

TEST(PtpSource, RequestsTheChosenEdgeAndSwitchesTheChannelOffOnClose) {
    auto phc = nic();
    phc->extended.push_back(sample_at(t0));
    SourceOptions options;
    options.edges = core::EdgeSelection::clear_only;
    {
        PtpSource source("ptp:/dev/ptp0,extts=1", {"/dev/ptp0", 1, {}}, options,
                         std::make_unique<BorrowedPhc>(*phc), {});
        ASSERT_EQ(phc->requests.size(), 1U);
        EXPECT_EQ(phc->requests[0].index, 1U);
        EXPECT_EQ(phc->requests[0].flags, unsigned{PTP_ENABLE_FEATURE | PTP_FALLING_EDGE});
    }
    ASSERT_EQ(phc->requests.size(), 2U);
    EXPECT_EQ(phc->requests[1].index, 1U);
    EXPECT_EQ(phc->requests[1].flags, 0U);
}

TEST(PtpSource, AssignsThePinForTheRunAndPutsEveryPinBackAfterwards) {
    auto phc = nic();
    phc->extended.push_back(sample_at(t0));
    // Pin 3 carries channel 0's input before the run and pin 2 a periodic output; the user
    // asks for pin 1 on channel 0.
    phc->pins[3].func = PTP_PF_EXTTS;
    phc->pins[2].func = PTP_PF_PEROUT;
    const auto before = phc->pins;
    {
        PtpSource source("ptp:/dev/ptp0,pin=1", {"/dev/ptp0", 0, 1U}, {},
                         std::make_unique<BorrowedPhc>(*phc), {});
        EXPECT_EQ(source.info().details.at("pin"), 1);
        EXPECT_EQ(phc->pins[1].func, unsigned{PTP_PF_EXTTS});
        EXPECT_EQ(phc->pins[3].func, unsigned{PTP_PF_NONE});  // the kernel took channel 0 from it
    }
    for (std::size_t i = 0; i < before.size(); ++i) {
        EXPECT_EQ(phc->pins[i].func, before[i].func) << "pin " << i;
        EXPECT_EQ(phc->pins[i].chan, before[i].chan) << "pin " << i;
    }
    ASSERT_EQ(phc->requests.size(), 2U);
    EXPECT_EQ(phc->requests.back().flags, 0U);
}

TEST(PtpSource, APinIsPutBackWhenOpeningFailsAfterAssigningIt) {
    auto phc = nic();
    phc->extended.push_back(sample_at(t0));
    phc->extts_error = EBUSY;  // the channel is refused after the pin was assigned
    const auto before = phc->pins;
    const std::string error = error_of([&] {
        PtpSource("ptp:/dev/ptp0,pin=2", {"/dev/ptp0", 0, 2U}, {},
                  std::make_unique<BorrowedPhc>(*phc), {});
    });
    EXPECT_NE(error.find("channel 0 is busy"), std::string::npos) << error;
    EXPECT_NE(error.find("ts2phc"), std::string::npos) << error;
    EXPECT_EQ(phc->pins[2].func, before[2].func);
}

TEST(PtpSource, PrefersThePreciseCrossTimestampAndFallsBackToBasic) {
    auto precise = nic();
    ptp_sys_offset_precise sample{};
    sample.device = fake::clock_time(phc_at(t0));
    sample.sys_realtime = fake::clock_time(t0);
    precise->precise_error = 0;
    precise->precise.push_back(sample);
    PtpSource a("ptp:/dev/ptp0", {"/dev/ptp0", 0, {}}, {}, std::move(precise), {});
    EXPECT_EQ(a.method(), CrossTimestampMethod::precise);

    auto basic = nic();
    basic->extended_error = EOPNOTSUPP;
    PtpSource b("ptp:/dev/ptp0", {"/dev/ptp0", 0, {}}, {}, std::move(basic), {});
    EXPECT_EQ(b.method(), CrossTimestampMethod::basic);

    auto none = nic();
    none->extended_error = EOPNOTSUPP;
    none->basic_error = EOPNOTSUPP;
    EXPECT_NE(error_of([&] {
                  PtpSource("ptp:/dev/ptp0", {"/dev/ptp0", 0, {}}, {}, std::move(none), {});
              }).find("cannot relate the clock to CLOCK_REALTIME"),
              std::string::npos);
}

TEST(CrossTimestamps, EachKindGivesOffsetAndHalfWindow) {
    ptp_sys_offset_extended extended{};
    extended.n_samples = 2;
    extended.ts[0][0] = fake::clock_time(1'000);
    extended.ts[0][1] = fake::clock_time(50'000);
    extended.ts[0][2] = fake::clock_time(9'000);
    extended.ts[1][0] = fake::clock_time(20'000);
    extended.ts[1][1] = fake::clock_time(70'100);
    extended.ts[1][2] = fake::clock_time(20'301);
    const auto e = from_extended(extended);
    EXPECT_EQ(e.phc_ns, 70'100);
    EXPECT_EQ(e.offset_ns, 20'150 - 70'100);
    EXPECT_EQ(e.uncertainty_ns, 151);  // a 301 ns window: ± 150.5, rounded up

    // PTP_SYS_OFFSET: system, PHC, system, PHC, system.
    ptp_sys_offset basic{};
    basic.n_samples = 2;
    for (const auto& [i, ns] : std::vector<std::pair<int, std::int64_t>>{
             {0, 100}, {1, 5'000}, {2, 700}, {3, 5'900}, {4, 900}}) {
        basic.ts[i] = fake::clock_time(ns);
    }
    const auto b = from_basic(basic);
    EXPECT_EQ(b.phc_ns, 5'900);
    EXPECT_EQ(b.offset_ns, 800 - 5'900);
    EXPECT_EQ(b.uncertainty_ns, 100);

    ptp_sys_offset_precise precise{};
    precise.device = fake::clock_time(37'000'000'123);
    precise.sys_realtime = fake::clock_time(100);
    EXPECT_EQ(from_precise(precise).offset_ns, 100 - 37'000'000'123);
    EXPECT_EQ(from_precise(precise).uncertainty_ns, 0);
}

TEST(PhcTimeBase, InterpolatesBetweenSamplesAndWidensBeyondThem) {
    PhcTimeBase base;
    base.add({1'000'000'000, -500, 10});
    base.add({2'000'000'000, -600, 20});  // the PHC gains 100 ns a second on realtime
    const auto middle = base.convert(1'500'000'000);
    EXPECT_EQ(middle.offset_ns, -550);
    EXPECT_EQ(middle.realtime_ns, 1'500'000'000 - 550);
    EXPECT_EQ(middle.uncertainty_ns, 20);
    // Half a second past the newer sample: extrapolated, and the line's slope times the
    // distance (50 ns) is added to what the sample itself is worth.
    const auto beyond = base.convert(2'500'000'000);
    EXPECT_EQ(beyond.offset_ns, -650);
    EXPECT_EQ(beyond.uncertainty_ns, 20 + 50);
    // Samples more than ten seconds apart are not a line: the newer alone is used.
    base.add({20'000'000'000, -900, 5});
    EXPECT_EQ(base.convert(19'000'000'000).offset_ns, -900);
}

TEST(PtpSource, SaysWhatIsMissingOrBusyInOneLine) {
    const PtpSpec ptp0{"/dev/ptp0", 0, {}};
    const auto open = [](std::unique_ptr<FakePhc> phc, const PtpSpec& where,
                         const PhcSharing& sharing = {}) {
        phc->extended.push_back(sample_at(t0));
        return error_of([&] { PtpSource("ptp:x", where, {}, std::move(phc), sharing); });
    };
    EXPECT_NE(open(nic(0, 0), ptp0).find("no external-timestamp channel (n_ext_ts = 0)"),
              std::string::npos);
    EXPECT_NE(open(nic(2, 0), {"/dev/ptp0", 2, {}}).find("extts=2: the clock has 2"),
              std::string::npos);
    EXPECT_NE(open(nic(1, 0), {"/dev/ptp0", 0, 0U}).find("no programmable pins"),
              std::string::npos);
    EXPECT_NE(open(nic(1, 4), {"/dev/ptp0", 0, 4U}).find("pin=4: the clock has 4"),
              std::string::npos);
    auto refused = nic();
    refused->setfunc_error = EOPNOTSUPP;
    EXPECT_NE(open(std::move(refused), {"/dev/ptp0", 0, 1U}).find("cannot be assigned"),
              std::string::npos);
    auto busy = nic();
    busy->extts_error = EBUSY;
    const std::string busy_error = open(std::move(busy), ptp0, {true, "ts2phc (pid 812)"});
    EXPECT_NE(busy_error.find("channel 0 is busy (ts2phc (pid 812) runs)"), std::string::npos)
        << busy_error;
    auto denied = nic();
    denied->extts_error = EACCES;
    EXPECT_NE(open(std::move(denied), ptp0).find("run as root"), std::string::npos);
    auto not_ptp = nic();
    not_ptp->caps_error = ENOTTY;
    EXPECT_NE(open(std::move(not_ptp), ptp0).find("not a PTP clock"), std::string::npos);
    // Before Linux 6.7 one queue serves every reader: ts2phc and ppsbench would split the edges.
    EXPECT_NE(open(nic(), ptp0, {false, "ts2phc (pid 812)"}).find("before Linux 6.7"),
              std::string::npos);
    SourceOptions both;
    both.edges = core::EdgeSelection::both;
    EXPECT_THROW(PtpSource("ptp:x", ptp0, both, nic(), {}), core::UsageError);
}

TEST(PtpSource, SharesTheChannelWithTs2phcOnKernelsWithAQueuePerReader) {
    auto phc = nic();
    phc->extended.push_back(sample_at(t0));
    {
        PtpSource source("ptp:/dev/ptp0", {"/dev/ptp0", 0, {}}, {},
                         std::make_unique<BorrowedPhc>(*phc), {true, "ts2phc (pid 812)"});
        EXPECT_EQ(source.info().details.at("other_reader"), "ts2phc (pid 812)");
    }
    // ts2phc still needs the channel: it is left enabled.
    ASSERT_EQ(phc->requests.size(), 1U);
    EXPECT_NE(phc->requests[0].flags, 0U);
}

TEST(PtpSource, AFailedReadMidRunKeepsWhatWasCaptured) {
    auto phc = nic();
    phc->extended.push_back(sample_at(t0));
    phc->read_error = ENODEV;
    PtpSource source("ptp:/dev/ptp0", {"/dev/ptp0", 0, {}}, {}, std::move(phc), {});
    std::array<core::Pulse, 8> out{};
    EXPECT_THROW(source.read(out), core::MeasurementError);
}

TEST(PtpSpec, ParsesTheDeviceChannelAndPin) {
    const auto spec = parse_ptp_spec("/dev/ptp1,extts=2,pin=3");
    EXPECT_EQ(spec.device, "/dev/ptp1");
    EXPECT_EQ(spec.channel, 2U);
    EXPECT_EQ(spec.pin, 3U);
    EXPECT_EQ(parse_ptp_spec("/dev/ptp0").channel, 0U);
    EXPECT_FALSE(parse_ptp_spec("/dev/ptp0").pin);
    EXPECT_THROW(parse_ptp_spec("/dev/ptp0,extts=x"), core::UsageError);
    EXPECT_THROW(parse_ptp_spec("/dev/ptp0,channel=1"), core::UsageError);
    EXPECT_THROW(parse_ptp_spec(",pin=1"), core::UsageError);
}

TEST(PtpSource, AMissingClockSaysHowToListThem) {
    const std::string error =
        error_of([] { open_source("ptp:/dev/ptp-ppsbench-none", SourceOptions{}); });
    EXPECT_NE(error.find("/dev/ptp-ppsbench-none: no such PTP hardware clock"), std::string::npos)
        << error;
    EXPECT_NE(error.find("ls /sys/class/ptp/"), std::string::npos);
}

}  // namespace
}  // namespace ppsbench::capture
