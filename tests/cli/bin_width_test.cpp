// SPDX-License-Identifier: GPL-2.0-or-later
// One set of bins for every output (issue 27 item 4): the same capture with --bin-width W gives
// bins W wide in the text and Markdown histograms, the JSON histograms, the --plot SVG and the
// --html page, each run's counts adding up to its pulses; without it, every output has the
// same round default width.
#include <gtest/gtest.h>

#include <cmath>
#include <nlohmann/json.hpp>
#include <regex>

#include "cli.hpp"
#include "ppsbench/core/duration.hpp"
#include "ppsbench/render/units.hpp"

namespace ppsbench {
namespace {

using testing::contains;
using testing::run_ppsbench;
using testing::TempDir;

constexpr std::uint64_t pulses = 600;

// One histogram as an output shows it: its bin width (ns), its bins and its counts' total.
struct Shown {
    double width_ns = 0;
    std::size_t bins = 0;
    std::uint64_t total = 0;
};

double ns_per(const std::string& unit) {
    return unit == "ns" ? 1 : unit == "µs" ? 1e3 : unit == "ms" ? 1e6 : 1e9;
}

// The text chart (also inside Markdown's fence): "[ -9.00,  -6.00) │### 12" rows.
Shown from_chart(const std::string& out) {
    Shown shown;
    std::smatch header;
    EXPECT_TRUE(std::regex_search(out, header, std::regex("bins \\[from, to\\) in (\\S+),")))
        << out;
    const double scale = header.empty() ? 1 : ns_per(header[1]);
    const std::regex row("\\[ *([+-]?[0-9.]+), *([+-]?[0-9.]+)\\) │#* *([0-9]+)");
    for (auto it = std::sregex_iterator(out.begin(), out.end(), row); it != std::sregex_iterator();
         ++it) {
        const double width = (std::stod((*it)[2]) - std::stod((*it)[1])) * scale;
        if (shown.bins > 0) {
            EXPECT_NEAR(width, shown.width_ns, 1e-6 * shown.width_ns) << (*it)[0];
        }
        shown.width_ns = width;
        ++shown.bins;
        shown.total += std::stoull((*it)[3]);
    }
    return shown;
}

Shown from_json(const std::string& out) {
    const auto h = nlohmann::json::parse(out)["runs"][0]["histogram"];
    Shown shown;
    shown.width_ns = h["bin_width_ns"].get<double>();
    shown.bins = h["counts"].size();
    for (const auto& c : h["counts"]) {
        shown.total += c.get<std::uint64_t>();
    }
    const double edges = h["lower_edge_ns"].get<double>() / shown.width_ns;
    EXPECT_NEAR(edges, std::round(edges), 1e-9) << "edges are whole multiples of the width";
    EXPECT_EQ(h["underflow"], 0);
    EXPECT_EQ(h["overflow"], 0);
    return shown;
}

// The SVG (alone or in the page): the axis states the width; the run's outline has two points
// per bin between its two feet on the axis.
std::size_t svg_bins(const std::string& svg, double width_ns) {
    EXPECT_TRUE(contains(svg, "bins " + render::format_ns(width_ns) + " wide")) << width_ns;
    std::smatch polygon;
    if (!std::regex_search(svg, polygon, std::regex("<polygon points=\"([^\"]*)\""))) {
        ADD_FAILURE() << "no histogram outline";
        return 0;
    }
    const std::string points = polygon[1];
    const auto vertices = static_cast<std::size_t>(std::count(points.begin(), points.end(), ','));
    return (vertices - 2) / 2;
}

class BinWidth : public ::testing::TestWithParam<const char*> {
  protected:
    static void SetUpTestSuite() {
        dir_ = new TempDir;
        capture_ = dir_->file("rt.csv");
        ASSERT_EQ(run_ppsbench({"run", "-q", "-s", "sim:threaded", "--count",
                                std::to_string(pulses), "-o", capture_})
                      .exit_code,
                  0);
    }
    static void TearDownTestSuite() { delete dir_; }

    // `report` with the options, then the bin-width option when there is one.
    static testing::CommandResult report(std::vector<std::string> args) {
        args.insert(args.begin(), {"report", capture_});
        if (std::string(GetParam()) != "default") {
            args.insert(args.end(), {"--bin-width", GetParam()});
        }
        auto result = run_ppsbench(args);
        EXPECT_EQ(result.exit_code, 0) << result.err;
        return result;
    }

    static TempDir* dir_;
    static std::string capture_;
};

TempDir* BinWidth::dir_ = nullptr;
std::string BinWidth::capture_;

TEST_P(BinWidth, EveryOutputHasTheSameBinsAndCountsEveryPulse) {
    const auto text = from_chart(report({"--histogram"}).out);
    const auto markdown = from_chart(report({"--histogram", "--format", "markdown"}).out);
    const auto json = from_json(report({"--histogram", "--format", "json"}).out);
    if (std::string(GetParam()) != "default") {
        const double w =
            static_cast<double>(core::parse_duration(GetParam(), "--bin-width").count());
        EXPECT_DOUBLE_EQ(json.width_ns, w);
    }
    for (const auto& shown : {text, markdown}) {
        EXPECT_NEAR(shown.width_ns, json.width_ns, 1e-6 * json.width_ns);
        EXPECT_EQ(shown.bins, json.bins);
        EXPECT_EQ(shown.total, pulses);
    }
    EXPECT_EQ(json.total, pulses);

    const auto svg_path = dir_->file(std::string("p-") + GetParam() + ".svg");
    const auto html_path = dir_->file(std::string("p-") + GetParam() + ".html");
    report({"--plot", svg_path, "--html", html_path, "--force"});
    EXPECT_EQ(svg_bins(testing::read_text(svg_path), json.width_ns), json.bins);
    EXPECT_EQ(svg_bins(testing::read_text(html_path), json.width_ns), json.bins);
}

INSTANTIATE_TEST_SUITE_P(Widths, BinWidth,
                         ::testing::Values("default", "100ns", "1us", "2500ns", "3us"),
                         [](const auto& info) {
                             return std::string(info.param) == "default"
                                        ? std::string("Default")
                                        : "W" + std::string(info.param);
                         });

TEST(BinWidthDefault, IsTheOneTwoFiveStepOfTheSpanOverTwenty) {
    TempDir dir;
    const auto path = dir.file("stock.csv");
    ASSERT_EQ(
        run_ppsbench({"run", "-q", "-s", "sim:hardirq", "--count", "600", "-o", path}).exit_code,
        0);
    const auto document = nlohmann::json::parse(
        run_ppsbench({"report", path, "--format", "json", "--histogram"}).out);
    const auto& run = document["runs"][0];
    const double width = run["histogram"]["bin_width_ns"].get<double>();
    const double span = run["offset_ns"]["peak_to_peak"].get<double>();
    const double decade = std::pow(10.0, std::floor(std::log10(width)));
    const double mantissa = std::round(width / decade);
    EXPECT_TRUE(mantissa == 1 || mantissa == 2 || mantissa == 5) << width;
    EXPECT_GE(width, span / 20) << "at most 20 bins' worth of span";
    EXPECT_LT(width / 2.5, span / 20) << "the smallest round step that fits";
}

TEST(BinWidthRefusals, OnlyWhereNoHistogramIsBinnedOrTooManyBins) {
    TempDir dir;
    const auto path = dir.file("rt.csv");
    ASSERT_EQ(
        run_ppsbench({"run", "-q", "-s", "sim:threaded", "--count", "600", "-o", path}).exit_code,
        0);
    const auto none = run_ppsbench({"report", path, "--bin-width", "1us"});
    EXPECT_EQ(none.exit_code, 2);
    EXPECT_TRUE(contains(none.err,
                         "--bin-width 1us: it sets the bins of --histogram, --plot "
                         "and --html, and there is none of them"))
        << none.err;
    EXPECT_EQ(run_ppsbench({"compare", "--baseline", path, path, "--bin-width", "1us"}).exit_code,
              2);
    EXPECT_EQ(run_ppsbench({"gate", path, "--max-sigma", "1ms", "--bin-width", "1us"}).exit_code,
              2);
    EXPECT_EQ(run_ppsbench({"compare", "--baseline", path, path, "--bin-width", "1us", "--plot",
                            dir.file("c.svg")})
                  .exit_code,
              0);
    EXPECT_EQ(run_ppsbench({"gate", path, "--max-sigma", "1ms", "--bin-width", "1us", "--html",
                            dir.file("g.html")})
                  .exit_code,
              0);
    // 1 ns over a span of tens of µs would be tens of thousands of rows.
    const auto many = run_ppsbench({"report", path, "--histogram", "--bin-width", "1ns"});
    EXPECT_EQ(many.exit_code, 2);
    EXPECT_TRUE(std::regex_search(many.err, std::regex("--bin-width 1ns: the runs span [0-9]+ "
                                                       "ns, which would be [0-9]+ bins \\(at "
                                                       "most 10000\\); use --bin-width \\S+ or "
                                                       "wider")))
        << many.err;
    EXPECT_EQ(std::count(many.err.begin(), many.err.end(), '\n'), 1) << many.err;
}

}  // namespace
}  // namespace ppsbench
