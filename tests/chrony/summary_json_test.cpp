// SPDX-License-Identifier: GPL-2.0-or-later
#include <gtest/gtest.h>

#include <vector>

#include "ppsbench/chrony/json.hpp"
#include "ppsbench/chrony/summary.hpp"
#include "ppsbench/core/error.hpp"

namespace ppsbench::chrony {
namespace {

ChronySample ok_sample(std::int64_t t, std::int64_t rms, std::int64_t std_dev) {
    ChronySample s;
    s.wall_time_ns = t;
    s.status = ChronyStatus::ok;
    TrackingSample tr;
    tr.ref_id = 0x50505300;
    tr.ref_name = "PPS";
    tr.stratum = 1;
    tr.rms_offset_ns = rms;
    tr.system_time_offset_ns = -12;
    tr.frequency_ppm = -0.793;
    tr.skew_ppm = 3.609;
    tr.leap = LeapStatus::normal;
    s.tracking = tr;
    SourceRow src;
    src.mode = SourceMode::refclock;
    src.state = SourceState::selected;
    src.name = "PPS";
    src.reach = 0377;
    src.last_rx_s = 1;
    s.pps_source = src;
    SourceStatsRow st;
    st.name = "PPS";
    st.samples = 6;
    st.std_dev_ns = std_dev;
    s.pps_stats = st;
    s.pps_pick = PpsPick::refid;
    return s;
}

ChronySample failed_sample(std::int64_t t, ChronyStatus status, std::string detail) {
    ChronySample s;
    s.wall_time_ns = t;
    s.status = status;
    s.detail = std::move(detail);
    return s;
}

TEST(ChronySummary, EndMeanAndEachStateChangeOnce) {
    const std::vector<ChronySample> samples{
        failed_sample(1, ChronyStatus::not_synchronised, "leap status Not synchronised"),
        ok_sample(2, 400, 300),
        ok_sample(3, 600, 500),
        failed_sample(4, ChronyStatus::died, "Could not open connection to daemon"),
        failed_sample(5, ChronyStatus::died, "Could not open connection to daemon"),
    };
    const auto s = summarize(samples);
    EXPECT_EQ(s.samples, 5U);
    EXPECT_EQ(s.synchronised_samples, 2U);
    EXPECT_EQ(s.final_status, ChronyStatus::died);
    ASSERT_EQ(s.changes.size(), 3U);
    EXPECT_EQ(s.changes[0].status, ChronyStatus::not_synchronised);
    EXPECT_EQ(s.changes[1].status, ChronyStatus::ok);
    EXPECT_EQ(s.changes[2],
              (StatusChange{4, ChronyStatus::died, "Could not open connection to daemon"}));
    EXPECT_EQ(s.rms_offset_end_ns(), 600);
    EXPECT_DOUBLE_EQ(*s.rms_offset_mean_ns, 500.0);
    EXPECT_EQ(s.rms_offset_max_ns, 600);
    EXPECT_EQ(s.pps_stats_end->std_dev_ns, 500);
    EXPECT_DOUBLE_EQ(*s.pps_std_dev_mean_ns, 400.0);

    const nlohmann::json j = s;
    EXPECT_EQ(j["status"], "died");
    EXPECT_EQ(j["rms_offset_ns"]["end"], 600);
    EXPECT_EQ(j["rms_offset_ns"]["mean"], 500.0);
    EXPECT_EQ(j["reference"]["ref_id"], "50505300");
    EXPECT_EQ(j["reference"]["name"], "PPS");
    EXPECT_EQ(j["reference"]["leap"], "Normal");
    EXPECT_EQ(j["pps"]["std_dev_ns"]["end"], 500);
    EXPECT_EQ(j["pps"]["pick"], "refid");
    EXPECT_EQ(j["changes"].size(), 3U);
    EXPECT_EQ(j["system_time_offset_ns"], -12);
}

TEST(ChronySummary, NoSynchronisedSampleGivesNulls) {
    const std::vector<ChronySample> samples{
        failed_sample(1, ChronyStatus::chronyc_missing, "cannot run chronyc")};
    const auto s = summarize(samples);
    EXPECT_FALSE(s.end);
    EXPECT_FALSE(s.rms_offset_mean_ns);
    const nlohmann::json j = s;
    EXPECT_TRUE(j["rms_offset_ns"]["end"].is_null());
    EXPECT_TRUE(j["reference"].is_null());
    EXPECT_TRUE(j["pps"].is_null());
    EXPECT_EQ(j["status"], "chronyc-missing");
    EXPECT_EQ(summarize({}).samples, 0U);
}

TEST(ChronySampleJson, RoundTripsExactly) {
    for (const auto& sample :
         {ok_sample(1767225600000000000, 1138, 567),
          failed_sample(17, ChronyStatus::not_responding, "no answer within 3000 ms")}) {
        const nlohmann::json j = sample;
        EXPECT_EQ(j["v"], 1);
        const auto back = nlohmann::json::parse(j.dump()).get<ChronySample>();
        EXPECT_EQ(back, sample);
    }
    auto never = ok_sample(1, 2, 3);
    never.pps_source->last_rx_s.reset();
    EXPECT_EQ(nlohmann::json(never).get<ChronySample>(), never);
}

TEST(ChronySampleJson, BadInputIsAnInputErrorNamingTheField) {
    nlohmann::json j = ok_sample(1, 2, 3);
    j["status"] = "weird";
    try {
        (void)j.get<ChronySample>();
        FAIL() << "no error";
    } catch (const core::InputError& e) {
        EXPECT_STREQ(e.what(), "chrony JSON: status 'weird' is not known");
    }
    j = ok_sample(1, 2, 3);
    j["tracking"].erase("rms_offset_ns");
    EXPECT_THROW((void)j.get<ChronySample>(), core::InputError);
    j = ok_sample(1, 2, 3);
    j["v"] = 2;
    EXPECT_THROW((void)j.get<ChronySample>(), core::InputError);
}

// Seen after the capture metadata finding of fuzz/capture_reader_fuzz: nlohmann casts a float into
// an integer field, undefined behaviour when it is out of range; a wrapped negative reach or
// stratum was taken as is.
TEST(ChronySampleJson, ANumberTheFieldCannotHoldIsAnInputError) {
    nlohmann::json j = ok_sample(1, 2, 3);
    j["tracking"]["ref_time_ns"] = 1.796e35;
    try {
        (void)j.get<ChronySample>();
        FAIL() << "no error";
    } catch (const core::InputError& e) {
        EXPECT_STREQ(e.what(),
                     "chrony JSON: ref_time_ns is 1.796e+35, not a whole number in range");
    }
    j = ok_sample(1, 2, 3);
    j["pps_source"]["last_rx_s"] = -1;
    EXPECT_THROW((void)j.get<ChronySample>(), core::InputError);
    j = ok_sample(1, 2, 3);
    j["pps_stats"]["samples"] = 4294967296;
    EXPECT_THROW((void)j.get<ChronySample>(), core::InputError);
    j = ok_sample(1, 2, 3);
    j["time_ns"] = 17.0;
    EXPECT_EQ(j.get<ChronySample>().wall_time_ns, 17) << "a whole float in range is read";
}

}  // namespace
}  // namespace ppsbench::chrony
