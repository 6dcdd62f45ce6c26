// SPDX-License-Identifier: GPL-2.0-or-later
// A saved summary (`report --format json`) is a first-class input (issue 22): saving a run and
// reading it back gives every figure the registry names, a figure the document does not hold
// stays absent (never 0), an impossible figure is refused naming the summary file, and --run
// picks one run of several only when the choice is unambiguous.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <sstream>
#include <string>

#include "ppsbench/analysis/impossible_figure.hpp"
#include "ppsbench/analysis/metrics.hpp"
#include "ppsbench/analysis/report.hpp"
#include "ppsbench/analysis/report_document.hpp"
#include "ppsbench/analysis/run_analysis.hpp"
#include "ppsbench/core/error.hpp"
#include "ppsbench/render/run_tables.hpp"
#include "ppsbench/store/capture_reader.hpp"

namespace ppsbench::analysis {
namespace {

// A capture of `n` pulses one second apart with seeded jitter (up to ±`spread_ns`) around
// `center_ns`, every 97th pulse 40 µs late (outliers), every `duplicate_every`-th line
// written twice and, with `swap`, pulses 5 and 6 recorded in the wrong order.
RunAnalysis capture(std::uint64_t seed, int n = 600, std::int64_t center_ns = 0,
                    std::int64_t spread_ns = 3000, int duplicate_every = 0, bool swap = false) {
    std::mt19937_64 rng(seed);
    std::vector<std::string> lines;
    for (int i = 1; i <= n; ++i) {
        std::int64_t offset =
            center_ns +
            static_cast<std::int64_t>(rng() % static_cast<std::uint64_t>(2 * spread_ns)) -
            spread_ns;
        if (i % 97 == 0) {
            offset += 40'000;
        }
        const std::int64_t t = 1'767'225'600'000'000'000 + std::int64_t{i} * 1'000'000'000 + offset;
        lines.push_back(std::to_string(i) + ",assert," + std::to_string(t) + "\n");
        if (duplicate_every > 0 && i % duplicate_every == 0) {
            lines.push_back(lines.back());
        }
    }
    if (swap) {
        std::swap(lines[4], lines[5]);
    }
    std::string text = "# ppsbench capture 1\n# meta {\"source\":\"sim:test\",\"label\":\"seed " +
                       std::to_string(seed) + "\"}\nsequence,edge,timestamp_ns\n";
    for (const auto& line : lines) {
        text += line;
    }
    return analyze_capture(store::parse_capture_text(text, "capture.csv"), AnalysisSettings{});
}

std::vector<RunAnalysis> read_back(const nlohmann::json& document,
                                   const std::string& path = "saved.json") {
    std::istringstream in(document.dump());
    return read_report_document(in, path);
}

nlohmann::json saved(const std::vector<RunAnalysis>& runs) {
    return report_document(Report{runs, {}});
}

// Every registry metric and every stability figure at every computed τ.
std::vector<Metric> every_metric(const RunAnalysis& run) {
    std::vector<Metric> metrics = all_metrics();
    for (const auto& figure : stability_figures()) {
        for (const double tau : run.stats.stability->tau_s) {
            metrics.push_back(find_metric(std::string(figure.name) + "@" +
                                          std::to_string(std::lround(tau)) + "s"));
        }
    }
    return metrics;
}

// The metamorphic property: save, read back, and every figure is the same (or absent in both).
TEST(SavedSummary, ReadsBackEveryFigureOfTheRegistry) {
    for (std::uint64_t seed = 1; seed <= 20; ++seed) {
        const auto run = capture(seed, 300 + static_cast<int>(seed) * 17,
                                 static_cast<std::int64_t>(seed) * 311 - 3000, 500 + 200 * seed,
                                 seed % 3 == 0 ? 50 : 0, seed % 4 == 0);
        const auto back = read_back(saved({run})).at(0);
        ASSERT_TRUE(back.saved.has_value());
        for (const auto& metric : every_metric(run)) {
            const double want = metric.value(run);
            const double got = metric.value(back);
            if (std::isnan(want)) {
                EXPECT_TRUE(std::isnan(got)) << metric.key << " seed " << seed;
            } else {
                EXPECT_NEAR(got, want, 1e-9 * std::fabs(want)) << metric.key << " seed " << seed;
            }
        }
    }
}

TEST(SavedSummary, CountsDuplicatesAndPulsesOutOfOrder) {
    const auto run = capture(7, 600, 0, 3000, 10, true);
    EXPECT_EQ(find_metric("duplicates").value(run), 60);
    EXPECT_EQ(find_metric("out_of_order").value(run), 1);
    EXPECT_EQ(find_metric("pulses").value(run), 600);
    const auto document = saved({run});
    EXPECT_EQ(document["schema"], "ppsbench.report/2");
    EXPECT_EQ(document["runs"][0]["duplicates"], 60);
    EXPECT_EQ(document["runs"][0]["out_of_order"], 1);
}

// On main a summary without σ-without-outliers read back as 0 ns and passed a 1 µs limit.
TEST(SavedSummary, AFigureTheDocumentDoesNotHoldStaysAbsent) {
    auto document = saved({capture(3)});
    auto& run = document["runs"][0];
    run["offset_ns"].erase("stddev_without_outliers");
    run.erase("duplicates");
    run["out_of_order"] = nullptr;
    run.erase("clock_steps");
    run["stability"] = nullptr;
    run.erase("detrended_ns");
    const auto back = read_back(document).at(0);
    for (const char* key : {"sigma_no_outliers", "duplicates", "out_of_order", "clock_steps",
                            "adev@16s", "detrended_sigma", "rms_offset", "bias_median"}) {
        EXPECT_TRUE(std::isnan(find_metric(key).value(back))) << key;
    }
    EXPECT_FALSE(std::isnan(find_metric("sigma").value(back)));
}

// Saving a read-back summary again gives the same document figures: counts the statistics
// cannot hold (outliers, clock steps) and chrony's view survive, and an absent count stays null.
TEST(SavedSummary, SavingItAgainKeepsWhatItHeld) {
    auto first = saved({capture(8, 600, 0, 3000, 25)});
    first["runs"][0]["out_of_order"] = nullptr;
    first["runs"][0]["chrony"] = {{"rms_offset_ns", {{"end", 440}, {"mean", 450}}}};
    const auto again = saved(read_back(first));
    for (const char* key : {"pulses", "missed_pulses", "unseen_events", "outliers", "duplicates",
                            "out_of_order", "clock_steps", "chrony", "offset_ns", "stability"}) {
        EXPECT_EQ(again["runs"][0][key], first["runs"][0][key]) << key;
    }
    EXPECT_GT(first["runs"][0]["outliers"].get<int>(), 0);
    EXPECT_EQ(find_metric("rms_offset").value(read_back(again).at(0)), 440);
}

// The verbose tables show what the summary holds (outliers, the steps' sizes) and "—" for what
// it does not (the outlier threshold, how missed pulses were found), never a default 0.
TEST(SavedSummary, DetailTablesShowWhatItHoldsAndNoDefaultZeros) {
    auto document = saved({capture(9)});
    document["runs"][0]["clock_steps"] = {{{"timestamp_ns", 1}, {"size_ns", 1e6}}};
    const auto back = read_back(document);
    const auto outliers_row = [](const std::vector<render::Table>& tables) {
        for (const auto& table : tables) {
            if (table.title == "Outliers and clock steps") {
                return table.rows.at(0);
            }
        }
        return std::vector<render::Cell>{};
    };
    const auto row = outliers_row(render::detail_tables(back));
    ASSERT_EQ(row.size(), 4U);
    EXPECT_EQ(row[1].value, document["runs"][0]["outliers"].get<double>());
    EXPECT_GT(row[1].value, 0);
    EXPECT_TRUE(std::isnan(row[2].value));
    EXPECT_EQ(row[3].text, "+1000 µs");
}

// A /1 document (before duplicates, out_of_order and σ without outliers) is still a baseline;
// the figures it never had are absent.
TEST(SavedSummary, ThePreviousSchemaIsReadWithItsMissingFiguresAbsent) {
    auto document = saved({capture(4)});
    document["schema"] = "ppsbench.report/1";
    auto& run = document["runs"][0];
    run.erase("duplicates");
    run.erase("out_of_order");
    for (const char* series : {"offset_ns", "detrended_ns", "period_jitter_ns"}) {
        run[series].erase("stddev_without_outliers");
    }
    const auto back = read_back(document).at(0);
    EXPECT_TRUE(std::isnan(find_metric("duplicates").value(back)));
    EXPECT_TRUE(std::isnan(find_metric("sigma_no_outliers").value(back)));
    EXPECT_EQ(find_metric("pulses").value(back), 600);
}

// 60 pulses stamped on `clock` (the capture's meta "clock"), one second apart.
RunAnalysis capture_on(const std::string& clock) {
    std::string text = "# ppsbench capture 1\n# meta {\"source\":\"sim:test\",\"clock\":\"" +
                       clock + "\"}\nsequence,edge,timestamp_ns\n";
    for (int i = 1; i <= 60; ++i) {
        text += std::to_string(i) + ",assert," +
                std::to_string(1'767'225'637'000'000'000 + std::int64_t{i} * 1'000'000'000 +
                               (i % 7) * 100) +
                "\n";
    }
    return analyze_capture(store::parse_capture_text(text, "capture.csv"), AnalysisSettings{});
}

// A tai run has a phase offset, as a realtime run has: the summary says which clock it was, so
// a saved tai run is not read back as realtime (and a monotonic one stays without a phase).
TEST(SavedSummary, TheClockIsReadBackAsItWasCaptured) {
    for (const auto clock :
         {core::ClockId::realtime, core::ClockId::tai, core::ClockId::monotonic}) {
        const auto run = capture_on(std::string(core::to_string(clock)));
        ASSERT_EQ(run.stats.clock, clock);
        const auto document = saved({run});
        EXPECT_EQ(document["runs"][0]["clock"], core::to_string(clock));
        const auto back = read_back(document).at(0);
        EXPECT_EQ(back.stats.clock, clock) << core::to_string(clock);
        EXPECT_EQ(back.stats.offset_ns.has_value(), run.stats.offset_ns.has_value());
    }
    // A summary from before "clock" existed: realtime with a phase offset, else monotonic.
    for (const auto clock : {core::ClockId::realtime, core::ClockId::monotonic}) {
        auto document = saved({capture_on(std::string(core::to_string(clock)))});
        document["runs"][0].erase("clock");
        EXPECT_EQ(read_back(document).at(0).stats.clock, clock);
    }
}

// The cadence and free_running come back; a summary saved before they were written (a /1 one,
// or /2 before them) still reads, as every edge and a disciplined clock.
TEST(SavedSummary, CadenceAndFreeRunningReadBackAndMayBeAbsent) {
    auto document = saved({capture(6)});
    EXPECT_EQ(document["runs"][0]["cadence"], "every-edge");
    EXPECT_EQ(document["runs"][0]["free_running"], false);
    document["runs"][0]["cadence"] = "sampled";
    document["runs"][0]["free_running"] = true;
    document["runs"][0]["drift_judged"] = false;
    const auto back = read_back(document).at(0);
    EXPECT_EQ(back.stats.cadence, core::Cadence::sampled);
    EXPECT_TRUE(back.stats.free_running);
    EXPECT_FALSE(back.stats.drift_judged);
    EXPECT_EQ(saved({back})["runs"][0]["cadence"], "sampled");  // saved again, kept
    for (const char* schema : {"ppsbench.report/1", "ppsbench.report/2"}) {
        auto old = saved({capture(6)});
        old["schema"] = schema;
        old["runs"][0].erase("cadence");
        old["runs"][0].erase("free_running");
        old["runs"][0].erase("drift_judged");
        const auto read = read_back(old).at(0);
        EXPECT_EQ(read.stats.cadence, core::Cadence::every_edge) << schema;
        EXPECT_FALSE(read.stats.free_running) << schema;
        EXPECT_TRUE(read.stats.drift_judged) << schema;
    }
}

void expect_refused(const nlohmann::json& document, const std::string& reason) {
    try {
        read_back(document, "edited.json");
        ADD_FAILURE() << "accepted; wanted " << reason;
    } catch (const core::InputError& e) {
        const std::string what = e.what();
        EXPECT_EQ(what.rfind("edited.json: ", 0), 0U) << what;
        EXPECT_NE(what.find(reason), std::string::npos) << what;
        EXPECT_EQ(what.find("capture.csv"), std::string::npos) << what;  // not the capture
    }
}

TEST(SavedSummary, AnUnknownClockIsRefusedNamingTheSummaryFile) {
    auto document = saved({capture(5)});
    document["runs"][0]["clock"] = "gps";
    expect_refused(document, "\"clock\" is \"gps\", not \"realtime\", \"tai\" or \"monotonic\"");
    document["runs"][0]["clock"] = 3;
    expect_refused(document, "\"clock\" is 3, not");
}

TEST(SavedSummary, AnImpossibleFigureIsRefusedNamingTheSummaryFile) {
    const auto good = saved({capture(5)});
    const auto edited = [&](const char* series, const char* key, nlohmann::json value) {
        auto document = good;
        document["runs"][0][series][key] = std::move(value);
        return document;
    };
    expect_refused(edited("offset_ns", "stddev", -5), "offset_ns: stddev -5 is negative");
    expect_refused(edited("offset_ns", "stddev", 1e6), "is larger than peak_to_peak");
    expect_refused(edited("detrended_ns", "median", 1e9), "are out of order");
    expect_refused(edited("offset_ns", "peak_to_peak", 1e9), "is not max − min");
    expect_refused(edited("offset_ns", "stddev", "NaN"), "\"offset_ns\".\"stddev\" is string");
    auto percentiles = good;
    percentiles["runs"][0]["offset_ns"]["abs_percentiles"]["p90"] = 1e7;
    expect_refused(percentiles, "abs_percentiles are out of order");
    auto stability = good;
    stability["runs"][0]["stability"]["adev"][2] = -1e-9;
    expect_refused(stability, "stability: adev -1e-09 is negative");
    auto cadence = good;
    cadence["runs"][0]["cadence"] = "sometimes";
    expect_refused(cadence, "\"cadence\" is \"sometimes\", not \"every-edge\"");
    auto free = good;
    free["runs"][0]["free_running"] = 1;
    expect_refused(free, "\"free_running\" is number, not true or false");
    auto judged = good;
    judged["runs"][0]["drift_judged"] = "yes";
    expect_refused(judged, "\"drift_judged\" is string, not true or false");
}

// Every figure of an analysed run is possible: the check cannot refuse what analyze() makes.
TEST(SavedSummary, NoAnalysedRunHoldsAnImpossibleFigure) {
    for (std::uint64_t seed = 1; seed <= 30; ++seed) {
        const auto run = capture(seed, 3 + static_cast<int>(seed) * 23,
                                 -40'000 + static_cast<std::int64_t>(seed) * 2000,
                                 1 + static_cast<std::int64_t>(seed) * 97);
        const auto why = impossible_figure(run.stats);
        EXPECT_FALSE(why.has_value()) << "seed " << seed << ": " << why.value_or("");
    }
}

std::vector<RunAnalysis> three_runs(const std::string& second_label) {
    auto runs = std::vector<RunAnalysis>{capture(1), capture(2), capture(3)};
    runs[0].label = "Stock kernel";
    runs[1].label = second_label;
    runs[2].label = "PREEMPT_RT";
    return read_back(saved(runs));
}

std::string refusal(const std::vector<RunAnalysis>& runs, const std::string& selector) {
    try {
        select_run(runs, selector, "both.json");
    } catch (const core::UsageError& e) {
        return e.what();
    }
    return "accepted";
}

TEST(SavedSummary, RunPicksOneRunByNumberOrUniqueLabel) {
    const auto runs = three_runs("Stock kernel, again");
    EXPECT_EQ(select_run(runs, "2", "both.json").label, "Stock kernel, again");
    EXPECT_EQ(select_run(runs, "PREEMPT_RT", "both.json").label, "PREEMPT_RT");
    EXPECT_EQ(select_run(runs, "3", "both.json").saved->index, 3U);
    EXPECT_NE(refusal(runs, "4").find("--run 4: both.json holds 3 runs, so there is no run 4"),
              std::string::npos);
    EXPECT_NE(refusal(runs, "0").find("no run 0"), std::string::npos);
    EXPECT_NE(refusal(runs, "RT").find("has no run labelled \"RT\"; its runs: 1 \"Stock kernel\""),
              std::string::npos);
}

TEST(SavedSummary, RunRefusesAnAmbiguousChoice) {
    const auto repeated = three_runs("Stock kernel");
    EXPECT_NE(refusal(repeated, "Stock kernel").find("has 2 runs labelled \"Stock kernel\""),
              std::string::npos);
    EXPECT_EQ(select_run(repeated, "2", "both.json").saved->index, 2U);
    const auto empty = three_runs("");
    EXPECT_NE(refusal(empty, "").find("cannot pick by an empty label"), std::string::npos);
    const auto numeric = three_runs("3");
    EXPECT_NE(refusal(numeric, "3").find("has a run labelled \"3\" that is not run 3"),
              std::string::npos);
    EXPECT_EQ(select_run(numeric, "2", "both.json").label, "3");
}

}  // namespace
}  // namespace ppsbench::analysis
