// SPDX-License-Identifier: GPL-2.0-or-later
// --html on report, compare and gate, through the binary: one self-contained page beside the
// unchanged standard output, refused over an existing file without --force, and labels that
// cannot inject markup into it or into the Markdown table (rendered by Debian's cmark-gfm).
// tests/page/browser_test.sh renders the same page in headless Chromium.
#include <gtest/gtest.h>

#include <filesystem>
#include <regex>
#include <set>

#include "cli.hpp"

namespace ppsbench {
namespace {

using testing::contains;
using testing::count_of;
using testing::read_text;
using testing::run_ppsbench;
using testing::run_program;
using testing::TempDir;

const std::string fixtures = std::string(PPSBENCH_SOURCE_DIR) + "/tests/report/fixtures/";
const std::string lab = std::string(PPSBENCH_SOURCE_DIR) + "/examples/lab/captures/";

// Every markup a label could try: raw HTML, emphasis, a link, a cell end, an entity, an autolink.
const std::string hostile_label =
    "<script>alert(1)</script> *x* _y_ [x](http://y) | &lt; www.z.org";

std::vector<std::string> compare_args() {
    return {"compare", "--baseline", fixtures + "stock.csv", fixtures + "rt.csv",
            fixtures + "rt-nothread.csv"};
}

TEST(HtmlPage, ComparePageHoldsTheTablePlotsAndNotesAndStdoutIsUnchanged) {
    TempDir dir;
    const auto plain = run_ppsbench(compare_args());
    auto args = compare_args();
    args.insert(args.end(), {"--html", dir.file("page.html")});
    const auto with_page = run_ppsbench(args);
    ASSERT_EQ(with_page.exit_code, 0) << with_page.err;
    EXPECT_EQ(with_page.out, plain.out);  // the page is an extra file, not a different report
    const auto page = read_text(dir.file("page.html"));
    EXPECT_TRUE(page.starts_with("<!DOCTYPE html>\n<html lang=\"en\">"));
    EXPECT_TRUE(contains(page, "<caption>Compared with Stock kernel (baseline)"));
    EXPECT_TRUE(contains(page, "<th scope=\"col\">σ vs baseline</th>"));
    EXPECT_TRUE(contains(page, "<th scope=\"row\">PREEMPT_RT (simulated)</th>"));
    EXPECT_TRUE(contains(page, "×3.32 (3.06–3.60)")) << "the ratio and its interval";
    EXPECT_EQ(count_of(page, "<svg "), 2U) << "the offset plot and σ(τ)";
    EXPECT_TRUE(
        contains(page, "<svg viewBox=\"0 0 960 760\" role=\"img\"><title>PPS phase offset"));
    EXPECT_TRUE(contains(page, "role=\"img\"><title>Stability of the PPS phase"));
    EXPECT_TRUE(contains(page, "SIMULATED"));
    EXPECT_TRUE(contains(page, "@media print"));
    EXPECT_TRUE(contains(page, "prefers-color-scheme: dark"));
    EXPECT_TRUE(contains(page, "<li id=\"note-1\">"));
    EXPECT_TRUE(contains(page, "Phase offset: o = t − P·round(t / P)"));
    // Self-contained: nothing to fetch, nothing to run, no fixed black ink in the plots.
    EXPECT_FALSE(std::regex_search(page, std::regex("https?://|<script|<link|<img")));
    EXPECT_FALSE(contains(page, "stroke=\"#333\""));
    EXPECT_FALSE(contains(page, "fill=\"white\""));
    // Two plots in one page: no id twice.
    std::set<std::string> ids;
    const std::regex id(R"~( id="([^"]+)")~");
    for (auto it = std::sregex_iterator(page.begin(), page.end(), id); it != std::sregex_iterator();
         ++it) {
        EXPECT_TRUE(ids.insert((*it)[1]).second) << "duplicate id " << (*it)[1];
    }
}

TEST(HtmlPage, ADeviceRunShowsItsKernelAndTheRecordedFingerprint) {
    TempDir dir;
    const auto result =
        run_ppsbench({"report", lab + "rt-threaded.pps-b.csv", "--html", dir.file("page.html")});
    ASSERT_EQ(result.exit_code, 0) << result.err;
    const auto page = read_text(dir.file("page.html"));
    EXPECT_TRUE(contains(page, "<td>6.1.0-57-rt-amd64</td><td>yes</td><td>thread</td>"));
    EXPECT_TRUE(contains(page, "PPS interrupt handler: single (pps_gpio_irq_handler)"));
    EXPECT_TRUE(contains(page, "irq/24-pps-gpio-lab (SCHED_FIFO priority 50)"));
    EXPECT_FALSE(contains(page, "SIMULATED"));
}

TEST(HtmlPage, GatePageCarriesTheVerdictAndTheExitStatusStays) {
    TempDir dir;
    const auto result =
        run_ppsbench({"gate", "--baseline", fixtures + "stock.csv", fixtures + "rt.csv",
                      "--max-ratio", "1.25", "--html", dir.file("gate.html")});
    EXPECT_EQ(result.exit_code, 1) << result.err;
    const auto page = read_text(dir.file("gate.html"));
    EXPECT_TRUE(contains(page, "<p class=\"verdict fail\">REGRESSION — 1 of 1 checks failed</p>"));
    EXPECT_TRUE(contains(page, "<strong class=\"fail\">FAIL</strong>"));
    EXPECT_TRUE(contains(page, "<caption>Baseline and current run"));
}

TEST(HtmlPage, AnExistingFileIsRefusedWithoutForce) {
    TempDir dir;
    const auto path = dir.file("page.html");
    testing::write_text(path, "keep me");
    for (const auto& command :
         {std::vector<std::string>{"report", fixtures + "stock.csv"}, compare_args(),
          std::vector<std::string>{"gate", fixtures + "rt.csv", "--max-sigma", "1ms"}}) {
        auto args = command;
        args.insert(args.end(), {"--html", path});
        const auto refused = run_ppsbench(args);
        EXPECT_EQ(refused.exit_code, 2) << command.front();
        EXPECT_TRUE(contains(refused.err, "--html " + path)) << refused.err;
        EXPECT_TRUE(contains(refused.err, "--force")) << refused.err;
        EXPECT_EQ(read_text(path), "keep me");
    }
    auto args = compare_args();
    args.insert(args.end(), {"--html", path, "--force"});
    EXPECT_EQ(run_ppsbench(args).exit_code, 0);
    EXPECT_TRUE(read_text(path).starts_with("<!DOCTYPE html>"));
}

std::string capture_with_hostile_label(const TempDir& dir) {
    const auto path = dir.file("hostile.csv");
    const auto run = run_ppsbench(
        {"run", "-s", "sim:hardirq", "--count", "200", "--label", hostile_label, "-o", path, "-q"});
    EXPECT_EQ(run.exit_code, 0) << run.err;
    return path;
}

TEST(HtmlPage, ALabelIsTextNotMarkup) {
    TempDir dir;
    const auto capture = capture_with_hostile_label(dir);
    const auto result = run_ppsbench({"report", capture, "--html", dir.file("page.html")});
    ASSERT_EQ(result.exit_code, 0) << result.err;
    const auto page = read_text(dir.file("page.html"));
    EXPECT_TRUE(contains(page,
                         "&lt;script&gt;alert(1)&lt;/script&gt; *x* _y_ [x](http://y) | "
                         "&amp;lt; www.z.org"));
    EXPECT_FALSE(contains(page, "<script"));
}

// GitHub renders the pasted table with cmark-gfm and these extensions.
TEST(MarkdownTable, ALabelRendersAsItsOwnTextThroughCmarkGfm) {
    if (run_program({"sh", "-c", "command -v cmark-gfm"}).exit_code != 0) {
        GTEST_SKIP() << "cmark-gfm is not installed (apt install cmark-gfm)";
    }
    TempDir dir;
    const auto capture = capture_with_hostile_label(dir);
    const auto markdown = run_ppsbench({"report", capture, "--format", "markdown"});
    ASSERT_EQ(markdown.exit_code, 0) << markdown.err;
    testing::write_text(dir.file("table.md"), markdown.out);
    const auto html = run_program(
        {"sh", "-c",
         "cmark-gfm -e table -e autolink -e strikethrough -e tagfilter " + dir.file("table.md")});
    ASSERT_EQ(html.exit_code, 0) << html.err;
    // The row's label cell, exactly the label as text (HTML-escaped by cmark-gfm).
    EXPECT_TRUE(contains(html.out,
                         "<td>&lt;script&gt;alert(1)&lt;/script&gt; *x* _y_ [x](http://y) | "
                         "&amp;lt; www.z.org (simulated)</td>"))
        << html.out;
    const auto table = html.out.substr(0, html.out.find("</table>"));
    EXPECT_FALSE(contains(html.out, "<script")) << html.out;
    EXPECT_FALSE(contains(table, "<em>")) << table;
    EXPECT_FALSE(contains(html.out, "<a ")) << html.out;
    // The table kept its columns: the '|' did not end the label's cell.
    const auto header = table.substr(0, table.find("</thead>"));
    const auto header_cells = count_of(header, "<th>") + count_of(header, "<th ");
    const auto first_row = table.substr(table.find("<tbody>"));
    EXPECT_EQ(count_of(first_row.substr(0, first_row.find("</tr>")), "<td"), header_cells);
}

}  // namespace
}  // namespace ppsbench
