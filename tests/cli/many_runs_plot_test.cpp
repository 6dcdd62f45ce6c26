// SPDX-License-Identifier: GPL-2.0-or-later
// Twelve runs in one --plot and --plot-stability (issue 27): every run has its own look (colour,
// line pattern, marker), and no label is drawn over another. The SVGs are read back as text:
// the writers emit one element per line in a fixed form.
#include <gtest/gtest.h>

#include <algorithm>
#include <regex>
#include <set>

#include "cli.hpp"

namespace ppsbench {
namespace {

using testing::read_text;
using testing::run_ppsbench;
using testing::TempDir;

constexpr int runs = 12;

std::vector<std::string> twelve_captures(const TempDir& dir) {
    std::vector<std::string> files;
    const char* models[] = {"hardirq", "threaded", "nothread"};
    for (int i = 0; i < runs; ++i) {
        files.push_back(dir.file("run" + std::to_string(i) + ".csv"));
        const auto result =
            run_ppsbench({"run", "-s", std::string("sim:") + models[i % 3], "--seed",
                          std::to_string(i + 1), "--count", "300", "--label",
                          "run " + std::to_string(i + 1), "-o", files.back(), "-q"});
        EXPECT_EQ(result.exit_code, 0) << result.err;
    }
    return files;
}

std::vector<std::smatch> matches(const std::string& text, const std::regex& pattern) {
    return {std::sregex_iterator(text.begin(), text.end(), pattern), std::sregex_iterator()};
}

std::string group(const std::string& svg, const std::string& id) {
    const auto from = svg.find("<g id=\"" + id + "\">");
    return svg.substr(from, svg.find("</g>\n<g id=", from + 1) - from);
}

class ManyRuns : public ::testing::Test {
  protected:
    static void SetUpTestSuite() {
        dir_ = new TempDir;
        auto args = twelve_captures(*dir_);
        args.insert(args.begin(), "report");
        args.insert(args.end(), {"--plot", dir_->file("plot.svg"), "--plot-stability",
                                 dir_->file("stability.svg")});
        const auto result = run_ppsbench(args);
        ASSERT_EQ(result.exit_code, 0) << result.err;
    }
    static void TearDownTestSuite() { delete dir_; }
    static TempDir* dir_;
};
TempDir* ManyRuns::dir_ = nullptr;

TEST_F(ManyRuns, EveryHistogramOutlineLooksDifferent) {
    const auto svg = read_text(dir_->file("plot.svg"));
    std::set<std::string> looks;
    const std::regex outline(
        R"~(<polygon [^>]*stroke="(#[0-9A-F]+)" stroke-width="1.5"( stroke-dasharray="[^"]+")?)~");
    // Named: the matches point into it, so it must outlive the loop.
    const auto histogram = group(svg, "histogram");
    for (const auto& m : matches(histogram, outline)) {
        looks.insert(m[1].str() + m[2].str());
    }
    EXPECT_EQ(looks.size(), static_cast<std::size_t>(runs));
}

TEST_F(ManyRuns, EveryStabilityCurveLooksDifferent) {
    const auto svg = read_text(dir_->file("stability.svg"));
    std::set<std::string> looks;
    const std::regex curve(
        R"~(<g stroke="(#[0-9A-F]+)" fill="#[0-9A-F]+"><polyline points="[^"]*" fill="none" stroke-width="1.6"( stroke-dasharray="[^"]+")?/><(circle|rect|path))~");
    const auto adev = group(svg, "ADEV");
    for (const auto& m : matches(adev, curve)) {
        looks.insert(m[1].str() + m[2].str() + m[3].str());
    }
    EXPECT_EQ(looks.size(), static_cast<std::size_t>(runs));
}

// Text baselines in one column (the strips' scale labels at the left, the run names inside the
// strips) at least a 10 px line apart: 10-11 px type does not overprint.
void expect_apart(std::vector<double> ys, const char* what) {
    std::sort(ys.begin(), ys.end());
    ASSERT_GE(ys.size(), 2U) << what;
    for (std::size_t i = 1; i < ys.size(); ++i) {
        EXPECT_GE(ys[i] - ys[i - 1], 10.0) << what << " at y " << ys[i - 1] << " and " << ys[i];
    }
}

TEST_F(ManyRuns, NoStripLabelOverprintsAnother) {
    const auto strips = group(read_text(dir_->file("plot.svg")), "timeseries");
    std::vector<double> scale;
    std::vector<double> names;
    for (const auto& m :
         matches(strips, std::regex(R"~(<text x="84" y="([0-9.]+)" text-anchor="end")~"))) {
        scale.push_back(std::stod(m[1]));
    }
    for (const auto& m :
         matches(strips, std::regex(R"~(<text x="96" y="([0-9.]+)" font-size="11")~"))) {
        names.push_back(std::stod(m[1]));
    }
    EXPECT_EQ(scale.size(), 2U * runs);
    EXPECT_EQ(names.size(), static_cast<std::size_t>(runs));
    expect_apart(scale, "strip scale labels");
    expect_apart(names, "run names");
}

TEST_F(ManyRuns, TheLegendLeavesTheHistogramsAndNamesEveryRun) {
    const auto svg = read_text(dir_->file("plot.svg"));
    const auto legend = group(svg, "legend");
    const auto entries =
        matches(legend, std::regex(R"~(<text x="([0-9.]+)" y="([0-9.]+)">run \d+ \(simulated\))~"));
    EXPECT_EQ(entries.size(), static_cast<std::size_t>(runs));
    std::set<std::pair<std::string, std::string>> places;
    for (const auto& m : entries) {
        EXPECT_GT(std::stod(m[2]), 700.0) << "under the time series, not over the histograms";
        EXPECT_TRUE(places.insert({m[1], m[2]}).second) << "two entries at one place";
    }
}

}  // namespace
}  // namespace ppsbench
