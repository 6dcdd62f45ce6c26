// SPDX-License-Identifier: GPL-2.0-or-later
// What the renderers show of a run's metadata (RunAnalysis::meta, the typed `# meta` line):
// a key the line lacks, a fingerprint that could not be read ("system": null) and a saved
// summary, which carries no metadata at all, each print as they did when the renderers looked
// the keys up in the JSON.
#include <gtest/gtest.h>

#include <cmath>
#include <sstream>
#include <string>

#include "ppsbench/analysis/report.hpp"
#include "ppsbench/analysis/report_document.hpp"
#include "ppsbench/analysis/run_analysis.hpp"
#include "ppsbench/render/prometheus_export.hpp"
#include "ppsbench/render/run_tables.hpp"
#include "ppsbench/store/capture_reader.hpp"

namespace ppsbench::analysis {
namespace {

// A hand-made capture: META as its `# meta` line, five pulses one second apart.
RunAnalysis capture_with_meta(const std::string& meta) {
    std::string text = "# ppsbench capture 1\n# meta " + meta + "\nsequence,edge,timestamp_ns\n";
    for (int i = 1; i <= 5; ++i) {
        text += std::to_string(i) + ",assert," + std::to_string(i) + "000000100\n";
    }
    return analyze_capture(store::parse_capture_text(text, "hand.csv"), AnalysisSettings{});
}

RunAnalysis saved_summary(const RunAnalysis& run) {
    std::istringstream in(report_document(Report{{run}, {}}).dump());
    return read_report_document(in, "saved.json").at(0);
}

// The run's sample of ppsbench_run_start_timestamp_seconds, the last family.
render::PrometheusSample start_sample(const RunAnalysis& run) {
    return render::prometheus_families({run}).back().samples.at(0);
}

TEST(RunMetadata, AFingerprintThatCouldNotBeReadIsNullAndNoConfigurationRow) {
    const auto run = capture_with_meta(R"({"source":"pps:/dev/pps0","system":null})");
    ASSERT_TRUE(run.meta.has_value());
    EXPECT_TRUE(report_document(Report{{run}, {}})["runs"][0]["system"].is_null());
    EXPECT_FALSE(render::configuration_table({run}).has_value());
}

TEST(RunMetadata, AFingerprintIsSavedAsRecordedAndShownInTheConfigurationTable) {
    const auto run = capture_with_meta(
        R"({"source":"pps:/dev/pps0","system":{"label":"6.1.0-rt PREEMPT_RT","extra":[1]}})");
    const auto saved = report_document(Report{{run}, {}})["runs"][0]["system"];
    EXPECT_EQ(saved, nlohmann::json::parse(R"({"label":"6.1.0-rt PREEMPT_RT","extra":[1]})"));
    const auto table = render::configuration_table({run});
    ASSERT_TRUE(table.has_value());
    ASSERT_EQ(table->rows.size(), 1U);
    EXPECT_EQ(table->rows[0][1].text, "6.1.0-rt PREEMPT_RT");
    EXPECT_EQ(table->rows[0][2].text, "—");  // no timestamp_context in this fingerprint
    EXPECT_EQ(table->rows[0][3].text, "pps:/dev/pps0");
    // The fingerprint names the run when nobody gave a label.
    EXPECT_EQ(run.label, "6.1.0-rt PREEMPT_RT");
}

TEST(RunMetadata, AMissingSourceIsADashInTheConfigurationTable) {
    const auto run = capture_with_meta(R"({"system":{"timestamp_context":"hardirq"}})");
    const auto table = render::configuration_table({run});
    ASSERT_TRUE(table.has_value());
    EXPECT_EQ(table->rows[0][1].text, "—");
    EXPECT_EQ(table->rows[0][2].text, "hardirq");
    EXPECT_EQ(table->rows[0][3].text, "—");
}

TEST(RunMetadata, PrometheusLabelsAndStartOfACapture) {
    const auto run = capture_with_meta(
        R"({"source":"sim:threaded","host":"pi5","start_realtime_ns":1700000000500000000})");
    const auto sample = start_sample(run);
    EXPECT_EQ(sample.labels.at("source"), "sim:threaded");
    EXPECT_EQ(sample.labels.at("host"), "pi5");
    EXPECT_DOUBLE_EQ(sample.value, 1700000000.5);
}

TEST(RunMetadata, ACaptureWithoutHostOrStartHasAnEmptyHostAndNoStartSample) {
    const auto run = capture_with_meta(R"({"source":"sim:threaded"})");
    const auto sample = start_sample(run);
    EXPECT_EQ(sample.labels.at("host"), "");
    EXPECT_TRUE(std::isnan(sample.value));  // write_prometheus leaves a NaN sample out
}

TEST(RunMetadata, ASavedSummaryCarriesNoMetadataAndRendersAsBefore) {
    const auto run = capture_with_meta(
        R"({"source":"pps:/dev/pps0","host":"pi5","start_realtime_ns":1700000000000000000,)"
        R"("system":{"label":"6.1.0-rt PREEMPT_RT","timestamp_context":"hardirq"}})");
    const auto summary = saved_summary(run);
    EXPECT_FALSE(summary.meta.has_value());
    // The summary keeps the figures only: saving it again writes "system": null, it has no
    // configuration row, and its Prometheus series have empty source and host and no start.
    EXPECT_TRUE(report_document(Report{{summary}, {}})["runs"][0]["system"].is_null());
    EXPECT_FALSE(render::configuration_table({summary}).has_value());
    const auto sample = start_sample(summary);
    EXPECT_EQ(sample.labels.at("source"), "");
    EXPECT_EQ(sample.labels.at("host"), "");
    EXPECT_TRUE(std::isnan(sample.value));
}

}  // namespace
}  // namespace ppsbench::analysis
