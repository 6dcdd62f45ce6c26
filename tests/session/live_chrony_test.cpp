// SPDX-License-Identifier: GPL-2.0-or-later
// The live file's chrony series that the shipped alert rules read besides the bias: the offset
// chrony.conf applies to the run's PPS refclock, and whether chronyd follows that refclock.
// Each is written only when ppsbench can tell; an absent series keeps its alert silent rather
// than firing on a guess.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <regex>

#include "live_sources.hpp"
#include "ppsbench/session/live_metrics.hpp"

namespace ppsbench::session {
namespace {

nlohmann::json sample(const std::string& status, const std::string& pick,
                      const std::string& state) {
    nlohmann::json j{{"status", status}, {"pps_pick", pick}};
    if (!state.empty()) {
        j["pps_source"] = {{"name", "PPS"}, {"state", state}};
    }
    return j;
}

// The value of `name`'s only sample, or nullopt when the family is absent.
std::optional<double> value_of(const std::string& text, const std::string& name) {
    std::smatch match;
    if (!std::regex_search(text, match, std::regex("\n" + name + R"(\{[^}]*\} (\S+))"))) {
        return std::nullopt;
    }
    return std::stod(match[1]);
}

LiveMetricsOptions options() {
    LiveMetricsOptions o;
    o.interval = std::chrono::hours{1};  // no interval closes during a test
    o.label = "pi";
    return o;
}

class LiveChrony : public ::testing::Test {
  protected:
    capture::SourceInfo source_ = pps_source();
    LiveMetrics live_{options(), source_};
    std::string text() const { return live_.prometheus_text(); }
};

TEST_F(LiveChrony, TheConfiguredOffsetIsWrittenInSeconds) {
    live_.chrony_refclock({.refid = "PPS", .offset_s = 12e-6});
    EXPECT_EQ(value_of(text(), "ppsbench_live_chrony_refclock_offset_seconds"), 12e-6);
}

TEST_F(LiveChrony, ARefclockLineWithoutOffsetAppliesZero) {
    live_.chrony_refclock({.refid = "PPS0", .offset_s = 0.0});
    EXPECT_EQ(value_of(text(), "ppsbench_live_chrony_refclock_offset_seconds"), 0.0);
}

TEST_F(LiveChrony, NoRefclockFoundNoOffsetSeries) {
    live_.chrony_refclock({.refid = "", .offset_s = std::nullopt});
    live_.chrony_sample(sample("ok", "selected", "*"));
    const auto t = text();
    EXPECT_FALSE(value_of(t, "ppsbench_live_chrony_refclock_offset_seconds")) << t;
    EXPECT_FALSE(value_of(t, "ppsbench_live_chrony_pps_selected"))
        << "the selected source may or may not be the PPS refclock: unknown refid";
}

TEST_F(LiveChrony, SelectedOnlyWhenTheRefidsOwnRowIsTheSelectedOne) {
    live_.chrony_refclock({.refid = "PPS", .offset_s = 0.0});
    live_.chrony_sample(sample("ok", "refid", "*"));
    EXPECT_EQ(value_of(text(), "ppsbench_live_chrony_pps_selected"), 1.0);
    live_.chrony_sample(sample("ok", "refid", "+"));
    EXPECT_EQ(value_of(text(), "ppsbench_live_chrony_pps_selected"), 0.0)
        << "combined, not selected";
    live_.chrony_sample(sample("ok", "selected", "*"));
    EXPECT_EQ(value_of(text(), "ppsbench_live_chrony_pps_selected"), 0.0)
        << "the refid is not among the sources; chronyd follows another one";
    live_.chrony_sample(sample("not-synchronised", "refid", "?"));
    EXPECT_EQ(value_of(text(), "ppsbench_live_chrony_pps_selected"), 0.0);
}

TEST_F(LiveChrony, NoAnswerFromChronydNoSelectedSeries) {
    live_.chrony_refclock({.refid = "PPS", .offset_s = 0.0});
    live_.chrony_sample(sample("ok", "refid", "*"));
    for (const char* status : {"chronyd-not-running", "died", "not-responding", "chronyc-missing",
                               "unexpected-output"}) {
        live_.chrony_sample(sample(status, "none", ""));
        EXPECT_FALSE(value_of(text(), "ppsbench_live_chrony_pps_selected")) << status;
    }
}

}  // namespace
}  // namespace ppsbench::session
