// SPDX-License-Identifier: GPL-2.0-or-later
// Golden outputs: every report format from fixed (simulated, seeded) captures, so a change to a
// figure or to the layout shows up as a diff in review. To accept an intended change:
//   PPSBENCH_UPDATE_GOLDEN=1 ctest -R Golden   (then review `git diff tests/report/golden`)
#include <gtest/gtest.h>
#include <cmath>
#include <cstdlib>
#include <regex>

#include "cli.hpp"

namespace ppsbench::report {
namespace {

const std::string fixtures = std::string(PPSBENCH_SOURCE_DIR) + "/tests/report/fixtures/";
const std::string golden_dir = std::string(PPSBENCH_SOURCE_DIR) + "/tests/report/golden/";

std::string stable(std::string text) {
    // File paths differ between checkouts; everything else must not.
    for (std::size_t at; (at = text.find(fixtures)) != std::string::npos;) {
        text.replace(at, fixtures.size(), "<fixtures>/");
    }
    return text;
}

// Equal text, except that numbers written at full precision (CSV, JSON) may differ in their last
// bits between optimisation levels (the sanitizer build runs at -O0): those compare within 1e-9
// relative.
bool same_output(const std::string& actual, const std::string& expected) {
    static const std::regex number(R"([-+]?[0-9]+\.[0-9]+(e[-+]?[0-9]+)?|[-+]?[0-9]+e[-+]?[0-9]+)");
    const auto skeleton = [&](const std::string& text) {
        return std::regex_replace(text, number, "#");
    };
    if (skeleton(actual) != skeleton(expected)) {
        return false;
    }
    std::sregex_iterator a(actual.begin(), actual.end(), number);
    std::sregex_iterator e(expected.begin(), expected.end(), number);
    for (; a != std::sregex_iterator() && e != std::sregex_iterator(); ++a, ++e) {
        const double x = std::stod(a->str());
        const double y = std::stod(e->str());
        if (std::fabs(x - y) > 1e-9 * std::max(std::fabs(x), std::fabs(y)) + 1e-9) {
            return false;
        }
    }
    return true;
}

void expect_golden(const std::string& name, const std::vector<std::string>& args) {
    const auto result = testing::run_ppsbench(args);
    ASSERT_EQ(result.exit_code, 0) << result.err;
    const std::string output = stable(result.out);
    const std::string path = golden_dir + name;
    if (std::getenv("PPSBENCH_UPDATE_GOLDEN") != nullptr) {
        testing::write_text(path, output);
        return;
    }
    const std::string expected = testing::read_text(path);
    EXPECT_TRUE(same_output(output, expected))
        << output << "\n--- differs from ---\n"
        << expected << "\noutput of 'ppsbench " << args[0] << "' differs from " << path
        << " (PPSBENCH_UPDATE_GOLDEN=1 to accept an intended change)";
}

// A file an option writes (an SVG plot), compared like stdout.
void expect_golden_file(const std::string& name, std::vector<std::string> args,
                        const std::string& option) {
    testing::TempDir dir;
    const std::string written = dir.file(name);
    args.insert(args.end(), {option, written});
    const auto result = testing::run_ppsbench(args);
    ASSERT_EQ(result.exit_code, 0) << result.err;
    const std::string output = testing::read_text(written);
    const std::string path = golden_dir + name;
    if (std::getenv("PPSBENCH_UPDATE_GOLDEN") != nullptr) {
        testing::write_text(path, output);
        return;
    }
    EXPECT_TRUE(same_output(output, testing::read_text(path)))
        << option << " output differs from " << path
        << " (PPSBENCH_UPDATE_GOLDEN=1 to accept an intended change)";
}

class ReportGolden : public ::testing::TestWithParam<std::string> {};

TEST_P(ReportGolden, ReportOfFourRuns) {
    const auto& format = GetParam();
    expect_golden("report." + format,
                  {"report", "--format", format, fixtures + "stock.csv", fixtures + "rt.csv",
                   fixtures + "rt-nothread.csv", fixtures + "faulty.csv"});
}

TEST_P(ReportGolden, CompareAgainstTheStockKernel) {
    const auto& format = GetParam();
    expect_golden("compare." + format,
                  {"compare", "--format", format, "--baseline", fixtures + "stock.csv",
                   fixtures + "rt.csv", fixtures + "rt-nothread.csv"});
}

TEST_P(ReportGolden, VerboseReportOfAFaultyRun) {
    const auto& format = GetParam();
    if (format == "json") {
        GTEST_SKIP() << "--format json is the schema document, covered by ReportOfFourRuns";
    }
    expect_golden("report-verbose." + format,
                  {"report", "--verbose", "--format", format, fixtures + "faulty.csv"});
}

INSTANTIATE_TEST_SUITE_P(EveryFormat, ReportGolden,
                         ::testing::Values("text", "markdown", "csv", "json"));

TEST(ReportGolden, TextHistogram) {
    expect_golden("histogram.txt",
                  {"report", "--histogram", "--metrics", "sigma", fixtures + "rt.csv"});
}

TEST(ReportGolden, MarkdownHistogramIsFenced) {
    expect_golden("histogram.markdown",
                  {"report", "--format", "markdown", "--histogram", "--metrics", "sigma",
                   fixtures + "stock.csv", fixtures + "rt.csv"});
}

// GitHub's renderer is cmark-gfm: run the real one over what people paste. Tables must become
// <table>, the histogram must stay preformatted rather than run into a paragraph.
TEST(MarkdownOutput, RendersAsIntendedByARealGfmRenderer) {
    testing::TempDir dir;
    const auto report = testing::run_ppsbench({"report", "--format", "markdown", "--verbose",
                                               fixtures + "faulty.csv", fixtures + "rt.csv"});
    const auto histogram = testing::run_ppsbench(
        {"report", "--format", "markdown", "--histogram", fixtures + "rt.csv"});
    testing::write_text(dir.file("report.md"), report.out);
    testing::write_text(dir.file("histogram.md"), histogram.out);
    const auto count = [](const std::string& html, const std::string& tag) {
        std::size_t n = 0;
        for (auto at = html.find(tag); at != std::string::npos; at = html.find(tag, at + 1)) {
            ++n;
        }
        return n;
    };
    const auto verbose_html =
        testing::run_program({"cmark-gfm", "-e", "table", dir.file("report.md")});
    ASSERT_EQ(verbose_html.exit_code, 0) << verbose_html.err;
    EXPECT_EQ(count(verbose_html.out, "<table>"), 7U) << verbose_html.out;
    // A row in each of the six per-run tables, and one per τ in the stability table.
    EXPECT_GE(count(verbose_html.out, "<td>PREEMPT_RT (simulated)</td>"), 7U);
    const auto histogram_html =
        testing::run_program({"cmark-gfm", "-e", "table", dir.file("histogram.md")});
    ASSERT_EQ(histogram_html.exit_code, 0) << histogram_html.err;
    EXPECT_EQ(count(histogram_html.out, "<table>"), 1U);
    EXPECT_EQ(count(histogram_html.out, "<pre><code class=\"language-text\">"), 1U)
        << histogram_html.out;
    // Every bar line is inside the preformatted block, none in a paragraph.
    const auto pre = histogram_html.out.find("<pre>");
    EXPECT_EQ(histogram_html.out.find("│", 0), histogram_html.out.find("│", pre));
    EXPECT_EQ(histogram_html.out.find("<p>[", 0), std::string::npos);
}

TEST(ReportGolden, StabilityPlot) {
    expect_golden_file("stability.svg",
                       {"compare", "--baseline", fixtures + "stock.csv", fixtures + "rt.csv",
                        fixtures + "rt-nothread.csv", fixtures + "faulty.csv"},
                       "--plot-stability");
}

}  // namespace
}  // namespace ppsbench::report
