// SPDX-License-Identifier: GPL-2.0-or-later
#include "ppsbench/chrony/sampler.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>

#include "chronyd_fixture.hpp"

namespace ppsbench::chrony {
namespace {

using namespace std::chrono_literals;
using testing::ChronydConfig;
using testing::ChronydFixture;

#define SKIP_WITHOUT_CHRONYD()                                                               \
    if (!testing::chronyd_installed()) {                                                     \
        GTEST_SKIP() << testing::chronyd_path() << " is not installed (apt install chrony)"; \
    }

SamplerOptions options_for(const ChronydFixture& chronyd, std::string refid = "PPS") {
    SamplerOptions o;
    o.chronyc = chronyd.chronyc();
    o.refid = std::move(refid);
    return o;
}

struct ChronycView {
    std::string tracking, sources, sourcestats;
    friend bool operator==(const ChronycView&, const ChronycView&) = default;
};

// Two tracking fields move between clock updates: the remaining correction (chronyd slews its
// virtual clock continuously under -x) and the root dispersion (it grows with time since the
// update). Everything else changes only on an update.
TrackingSample without_moving_fields(TrackingSample t) {
    t.system_time_offset_ns = 0;
    t.root_dispersion_ns = 0;
    return t;
}

bool between(std::int64_t value, std::int64_t a, std::int64_t b) {
    return std::min(a, b) <= value && value <= std::max(a, b);
}

ChronycView ask_chronyc(const ChronydFixture& chronyd) {
    return {run_chronyc(chronyd.chronyc(), "tracking").out,
            run_chronyc(chronyd.chronyc(), "sources").out,
            run_chronyc(chronyd.chronyc(), "sourcestats").out};
}

TEST(ChronySampler, ReportsWhatChronycSaysAtTheSameMoment) {
    SKIP_WITHOUT_CHRONYD();
    ChronydFixture chronyd;
    ASSERT_TRUE(chronyd.wait_synchronised(15s)) << chronyd.chronyd_output();
    chronyd.wait_pulses(6, 10s);
    // With no new pulses chronyd makes no clock update, so its reports hold still; bracketing
    // the sampler between two chronyc calls proves "the same moment".
    chronyd.pause_feed();
    std::this_thread::sleep_for(1500ms);

    ChronySampler sampler(options_for(chronyd));
    std::optional<ChronySample> sample;
    // sourcestats' Offset is extrapolated to the moment chronyc asks (its estimated offset plus
    // the time since then times its frequency, chrony's sourcestats.c), so it moves between
    // the two chronyc calls on a loaded machine; every other column holds still while no pulse
    // comes, and the sampler's offset lies between the two.
    const auto without_offset = [](SourceStatsRow row) {
        row.offset_ns = 0;
        return row;
    };
    const auto rows_without_offset = [&](const std::string& text) {
        auto rows = parse_sourcestats(text);
        std::transform(rows.begin(), rows.end(), rows.begin(), without_offset);
        return rows;
    };
    ChronycView before, after;
    for (int attempt = 0; attempt < 3; ++attempt) {
        before = ask_chronyc(chronyd);
        sample = sampler.sample();
        after = ask_chronyc(chronyd);
        if (without_moving_fields(parse_tracking(before.tracking)) ==
                without_moving_fields(parse_tracking(after.tracking)) &&
            rows_without_offset(before.sourcestats) == rows_without_offset(after.sourcestats)) {
            break;
        }
    }
    const auto expected = parse_tracking(before.tracking);
    const auto expected_after = parse_tracking(after.tracking);
    ASSERT_EQ(without_moving_fields(expected), without_moving_fields(expected_after))
        << "chronyd kept updating";

    ASSERT_EQ(sample->status, ChronyStatus::ok) << sample->detail;
    EXPECT_FALSE(sampler.notice().has_value()) << "a first ok sample is not news";
    ASSERT_TRUE(sample->tracking);
    EXPECT_EQ(without_moving_fields(*sample->tracking), without_moving_fields(expected));
    EXPECT_TRUE(between(sample->tracking->system_time_offset_ns, expected.system_time_offset_ns,
                        expected_after.system_time_offset_ns));
    EXPECT_TRUE(between(sample->tracking->root_dispersion_ns, expected.root_dispersion_ns,
                        expected_after.root_dispersion_ns));
    EXPECT_EQ(sample->tracking->ref_id_hex(), "50505300");
    EXPECT_EQ(sample->tracking->ref_name, "PPS");
    EXPECT_EQ(sample->tracking->stratum, 1);
    EXPECT_EQ(sample->rms_offset_ns(), expected.rms_offset_ns);
    EXPECT_GT(expected.rms_offset_ns, 0);

    EXPECT_EQ(sample->pps_pick, PpsPick::refid);
    ASSERT_TRUE(sample->pps_source);
    EXPECT_EQ(sample->pps_source->name, "PPS");
    EXPECT_EQ(sample->pps_source->mode, SourceMode::refclock);
    EXPECT_EQ(sample->pps_source->state, SourceState::selected);
    ASSERT_TRUE(sample->pps_stats);
    const auto stats_before = parse_sourcestats(before.sourcestats);
    const auto stats_after = parse_sourcestats(after.sourcestats);
    ASSERT_EQ(stats_before.size(), 1U);
    ASSERT_EQ(stats_after.size(), 1U);
    EXPECT_EQ(without_offset(stats_before[0]), without_offset(stats_after[0]))
        << "chronyd kept updating";
    EXPECT_EQ(without_offset(*sample->pps_stats), without_offset(stats_after[0]));
    EXPECT_TRUE(
        between(sample->pps_stats->offset_ns, stats_before[0].offset_ns, stats_after[0].offset_ns))
        << sample->pps_stats->offset_ns << " ns is not between chronyc's "
        << stats_before[0].offset_ns << " and " << stats_after[0].offset_ns << " ns";
    EXPECT_GT(sample->pps_stats->std_dev_ns, 0);
}

TEST(ChronySampler, FallsBackToTheSelectedSourceWhenNoRefclockMatches) {
    SKIP_WITHOUT_CHRONYD();
    ChronydFixture chronyd;
    ASSERT_TRUE(chronyd.wait_synchronised(15s)) << chronyd.chronyd_output();
    ChronySampler sampler(options_for(chronyd, "GPS"));
    const auto sample = sampler.sample();
    ASSERT_EQ(sample.status, ChronyStatus::ok) << sample.detail;
    EXPECT_EQ(sample.pps_pick, PpsPick::selected);
    ASSERT_TRUE(sample.pps_source);
    EXPECT_EQ(sample.pps_source->name, "PPS");
}

TEST(ChronySampler, NoChronydIsNotRunningSaidOnce) {
    testing::TempDir empty;
    SamplerOptions o;
    o.chronyc.socket = (empty.path() / "chronyd.sock").string();
    ChronySampler sampler(o);
    const auto first = sampler.sample();
    EXPECT_EQ(first.status, ChronyStatus::chronyd_not_running) << first.detail;
    EXPECT_FALSE(first.tracking);
    ASSERT_TRUE(sampler.notice());
    EXPECT_NE(sampler.notice()->find("chronyd is not running"), std::string::npos);
    EXPECT_NE(sampler.notice()->find(o.chronyc.socket), std::string::npos);
    const auto second = sampler.sample();
    EXPECT_EQ(second.status, ChronyStatus::chronyd_not_running);
    EXPECT_FALSE(sampler.notice()) << "the same state is not reported twice";
}

TEST(ChronySampler, ChronycMissing) {
    SamplerOptions o;
    o.chronyc.program = "/nonexistent/ppsbench-test/chronyc";
    ChronySampler sampler(o);
    const auto sample = sampler.sample();
    EXPECT_EQ(sample.status, ChronyStatus::chronyc_missing);
    ASSERT_TRUE(sampler.notice());
    EXPECT_NE(sampler.notice()->find("No such file or directory"), std::string::npos)
        << *sampler.notice();
    EXPECT_NE(sampler.notice()->find("--chrony off"), std::string::npos);
}

TEST(ChronySampler, ChronydKilledMidRunIsDiedOnceThenBackToNothingNew) {
    SKIP_WITHOUT_CHRONYD();
    ChronydFixture chronyd;
    ASSERT_TRUE(chronyd.wait_synchronised(15s)) << chronyd.chronyd_output();
    ChronySampler sampler(options_for(chronyd));
    ASSERT_EQ(sampler.sample().status, ChronyStatus::ok);
    chronyd.kill_chronyd();
    const auto dead = sampler.sample();
    EXPECT_EQ(dead.status, ChronyStatus::died) << dead.detail;
    ASSERT_TRUE(sampler.notice());
    EXPECT_NE(sampler.notice()->find("stopped answering mid-run"), std::string::npos);
    EXPECT_EQ(sampler.sample().status, ChronyStatus::died);
    EXPECT_FALSE(sampler.notice());
}

TEST(ChronySampler, UnsynchronisedChronyd) {
    SKIP_WITHOUT_CHRONYD();
    ChronydConfig config;
    config.local = false;
    config.feed = false;
    ChronydFixture chronyd(config);
    ChronySampler sampler(options_for(chronyd));
    const auto sample = sampler.sample();
    EXPECT_EQ(sample.status, ChronyStatus::not_synchronised);
    ASSERT_TRUE(sample.tracking);
    EXPECT_EQ(sample.tracking->leap, LeapStatus::not_synchronised);
    EXPECT_EQ(sample.tracking->ref_id, refid_unsynchronised);
    EXPECT_FALSE(sample.rms_offset_ns());
    ASSERT_TRUE(sampler.notice());
    EXPECT_NE(sampler.notice()->find("not synchronised (leap status Not synchronised, "
                                     "reference 00000000)"),
              std::string::npos)
        << *sampler.notice();
    // The PPS refclock is listed even though it has no samples yet.
    EXPECT_EQ(sample.pps_pick, PpsPick::refid);
}

TEST(ChronySampler, LocalReferenceIsNotSynchronised) {
    SKIP_WITHOUT_CHRONYD();
    ChronydConfig config;
    config.feed = false;
    ChronydFixture chronyd(config);
    ChronySampler sampler(options_for(chronyd));
    const auto sample = sampler.sample();
    EXPECT_EQ(sample.status, ChronyStatus::not_synchronised);
    ASSERT_TRUE(sample.tracking);
    EXPECT_EQ(sample.tracking->ref_id, refid_local);
    EXPECT_EQ(sample.tracking->leap, LeapStatus::normal);
}

TEST(ChronySampler, HungChronydIsNotResponding) {
    SKIP_WITHOUT_CHRONYD();
    ChronydConfig config;
    config.feed = false;
    ChronydFixture chronyd(config);
    auto o = options_for(chronyd);
    o.chronyc.timeout = 300ms;
    ChronySampler sampler(o);
    ASSERT_EQ(sampler.sample().status, ChronyStatus::not_synchronised);
    chronyd.freeze();
    const auto start = std::chrono::steady_clock::now();
    const auto sample = sampler.sample();
    EXPECT_LT(std::chrono::steady_clock::now() - start, 2s);
    EXPECT_EQ(sample.status, ChronyStatus::not_responding) << sample.detail;
    ASSERT_TRUE(sampler.notice());
}

TEST(ChronySampler, DueAtStartThenEveryInterval) {
    SamplerOptions o;
    o.chronyc.program = "/nonexistent/chronyc";
    o.interval = std::chrono::seconds(16);
    ChronySampler sampler(o);
    const auto now = std::chrono::steady_clock::now();
    EXPECT_TRUE(sampler.due(now));
    sampler.sample();
    const auto after = std::chrono::steady_clock::now();
    EXPECT_FALSE(sampler.due(after + 15s));
    EXPECT_TRUE(sampler.due(after + 16s));
}

}  // namespace
}  // namespace ppsbench::chrony
