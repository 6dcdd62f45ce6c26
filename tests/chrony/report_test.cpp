// SPDX-License-Identifier: GPL-2.0-or-later
#include "ppsbench/chrony/report.hpp"

#include <gtest/gtest.h>

#include "ppsbench/core/error.hpp"

namespace ppsbench::chrony {
namespace {

// Captured from Debian's chrony 4.3 synchronised to a SOCK refclock with refid PPS.
constexpr const char* tracking_csv =
    "50505300,PPS,1,1796031198.985659758,0.000000124,-0.000000840,0.000001138,0.112,-0.010,"
    "1.647,0.000000001,0.000003178,1.0,Normal\n";
constexpr const char* sources_csv =
    "#,*,PPS,0,0,77,0,-0.000000310,-0.000001135,0.000001039\n"
    "^,?,192.0.2.1,2,6,0,4294967295,0.000000000,0.000000000,0.000000000\n";
constexpr const char* sourcestats_csv = "PPS,6,4,5,-0.010,1.487,-0.000000002,0.000000567\n";

TEST(ParseTracking, ReadsEveryFieldExactly) {
    const auto t = parse_tracking(tracking_csv);
    EXPECT_EQ(t.ref_id, 0x50505300U);
    EXPECT_EQ(t.ref_id_hex(), "50505300");
    EXPECT_EQ(t.ref_id_text(), "PPS");
    EXPECT_EQ(t.ref_name, "PPS");
    EXPECT_EQ(t.stratum, 1);
    EXPECT_EQ(t.ref_time_ns, 1796031198985659758);
    EXPECT_EQ(t.system_time_offset_ns, 124);
    EXPECT_EQ(t.last_offset_ns, -840);
    EXPECT_EQ(t.rms_offset_ns, 1138);
    EXPECT_DOUBLE_EQ(t.frequency_ppm, 0.112);
    EXPECT_DOUBLE_EQ(t.residual_frequency_ppm, -0.010);
    EXPECT_DOUBLE_EQ(t.skew_ppm, 1.647);
    EXPECT_EQ(t.root_delay_ns, 1);
    EXPECT_EQ(t.root_dispersion_ns, 3178);
    EXPECT_DOUBLE_EQ(t.update_interval_s, 1.0);
    EXPECT_EQ(t.leap, LeapStatus::normal);
    EXPECT_TRUE(t.synchronised());
}

TEST(ParseTracking, UnsynchronisedAndLocalReferenceAreNotSynchronised) {
    const auto unsync = parse_tracking(
        "00000000,,0,0.000000000,0.000000000,0.000000000,0.000000000,0.000,0.000,0.000,"
        "1.000000000,1.000000000,0.0,Not synchronised\n");
    EXPECT_EQ(unsync.leap, LeapStatus::not_synchronised);
    EXPECT_FALSE(unsync.synchronised());
    const auto local = parse_tracking(
        "7F7F0101,,1,1796031203.180783064,-0.000000056,0.000000000,0.000000000,0.112,0.000,"
        "0.000,0.000000000,0.000000000,0.0,Normal\n");
    EXPECT_EQ(local.leap, LeapStatus::normal);
    EXPECT_FALSE(local.synchronised()) << "the local reference measures nothing";
}

TEST(ParseTracking, NamesTheFieldThatDoesNotParse) {
    std::string bad = tracking_csv;
    bad.replace(bad.find("0.000001138"), 11, "abc");
    try {
        parse_tracking(bad);
        FAIL() << "no error";
    } catch (const core::InputError& e) {
        EXPECT_STREQ(e.what(),
                     "chronyc -c tracking: line 1 field 7 (RMS offset) is 'abc', not a number of "
                     "seconds with at most nine decimals");
    }
}

TEST(ParseTracking, RejectsWrongFieldCountAndLeapStatus) {
    EXPECT_THROW(parse_tracking("50505300,PPS,1\n"), core::InputError);
    EXPECT_THROW(parse_tracking(""), core::InputError);
    std::string bad = tracking_csv;
    bad.replace(bad.find("Normal"), 6, "Weird");
    EXPECT_THROW(parse_tracking(bad), core::InputError);
    std::string two = std::string(tracking_csv) + tracking_csv;
    EXPECT_THROW(parse_tracking(two), core::InputError);
}

TEST(ParseSources, ReadsModeStateReachAndNeverReceived) {
    const auto rows = parse_sources(sources_csv);
    ASSERT_EQ(rows.size(), 2U);
    EXPECT_EQ(rows[0].mode, SourceMode::refclock);
    EXPECT_EQ(rows[0].state, SourceState::selected);
    EXPECT_EQ(rows[0].name, "PPS");
    EXPECT_EQ(rows[0].reach, 077);
    EXPECT_EQ(rows[0].last_rx_s, 0U);
    EXPECT_EQ(rows[0].adjusted_offset_ns, -310);
    EXPECT_EQ(rows[0].measured_offset_ns, -1135);
    EXPECT_EQ(rows[0].error_ns, 1039);
    EXPECT_EQ(rows[1].mode, SourceMode::server);
    EXPECT_EQ(rows[1].state, SourceState::unusable);
    EXPECT_EQ(rows[1].poll, 6);
    EXPECT_FALSE(rows[1].last_rx_s.has_value());
}

TEST(ParseSources, RejectsBadModeAndOctal) {
    EXPECT_THROW(parse_sources("@,*,PPS,0,0,77,0,0.0,0.0,0.0\n"), core::InputError);
    try {
        parse_sources("#,*,PPS,0,0,78,0,0.0,0.0,0.0\n");
        FAIL() << "no error";
    } catch (const core::InputError& e) {
        EXPECT_NE(std::string(e.what()).find("field 6 (reach) is '78', not an octal integer"),
                  std::string::npos)
            << e.what();
    }
}

TEST(ParseSourcestats, ReadsEveryField) {
    const auto rows = parse_sourcestats(sourcestats_csv);
    ASSERT_EQ(rows.size(), 1U);
    EXPECT_EQ(rows[0].name, "PPS");
    EXPECT_EQ(rows[0].samples, 6);
    EXPECT_EQ(rows[0].runs, 4);
    EXPECT_EQ(rows[0].span_s, 5);
    EXPECT_DOUBLE_EQ(rows[0].frequency_ppm, -0.010);
    EXPECT_DOUBLE_EQ(rows[0].frequency_skew_ppm, 1.487);
    EXPECT_EQ(rows[0].offset_ns, -2);
    EXPECT_EQ(rows[0].std_dev_ns, 567);
    EXPECT_TRUE(parse_sourcestats("").empty());
    EXPECT_THROW(parse_sourcestats("PPS,6,4,5,-0.010,1.487,-0.000000002\n"), core::InputError);
    EXPECT_THROW(parse_sourcestats("PPS,6,4,5,nan,1.487,-0.000000002,0.1\n"), core::InputError);
}

TEST(ParseSecondsNs, IsExactAndStrict) {
    EXPECT_EQ(parse_seconds_ns("0.000001138"), 1138);
    EXPECT_EQ(parse_seconds_ns("-0.000000840"), -840);
    EXPECT_EQ(parse_seconds_ns("1.5"), 1'500'000'000);
    EXPECT_EQ(parse_seconds_ns("12"), 12'000'000'000);
    EXPECT_EQ(parse_seconds_ns("1796031198.985659758"), 1796031198985659758);
    EXPECT_FALSE(parse_seconds_ns("1e-6"));
    EXPECT_FALSE(parse_seconds_ns("0.0000000001"));
    EXPECT_FALSE(parse_seconds_ns(""));
    EXPECT_FALSE(parse_seconds_ns("."));
    EXPECT_FALSE(parse_seconds_ns("1."));
    EXPECT_FALSE(parse_seconds_ns(" 1"));
    EXPECT_FALSE(parse_seconds_ns("99999999999999999999.0"));
}

}  // namespace
}  // namespace ppsbench::chrony
