// SPDX-License-Identifier: GPL-2.0-or-later
// Text read back from files reaches no output raw (issue 39): a capture's label or source with
// an escape, a carriage return, a newline or a bidirectional override could write a fake "PASS"
// line on a terminal, break a table row or make the JUnit file ill-formed (CI then rejects it
// and never shows the failure). Each is shown escaped (\x1b, \u202e); --label refuses them.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "cli.hpp"

namespace ppsbench {
namespace {

using testing::contains;
using testing::read_text;
using testing::run_ppsbench;
using testing::TempDir;
using testing::write_text;

// A capture of 200 pulses whose meta line carries `label` and `source`.
std::string capture_named(const TempDir& dir, const std::string& label, const std::string& source) {
    std::string text = "# ppsbench capture 1\n# meta " +
                       nlohmann::json{{"source", source}, {"label", label}}.dump() +
                       "\nsequence,edge,timestamp_ns\n";
    for (int i = 0; i < 200; ++i) {
        text += std::to_string(i + 1) + ",assert," +
                std::to_string((1'767'225'600LL + i) * 1'000'000'000 + 100 * (i % 7)) + "\n";
    }
    write_text(dir.file("hostile.csv"), text);
    return dir.file("hostile.csv");
}

bool has_raw_control(const std::string& text) {
    for (const char c : text) {
        const auto u = static_cast<unsigned char>(c);
        if ((u < 0x20 && c != '\n') || u == 0x7f) {
            return true;
        }
    }
    return contains(text, "\u202e");
}

TEST(TextFromFiles, ALabelWithControlCharactersIsShownEscaped) {
    TempDir dir;
    const std::string fake = "x\x1b[1A\r  [pass] all good\ngate: PASS \u202eLIAF";
    const auto path = capture_named(dir, fake, "replay:/tmp/a\x1b[2Kb.csv");
    const auto gate =
        run_ppsbench({"gate", path, "--max-sigma", "1ns", "--junit", dir.file("junit.xml")});
    EXPECT_EQ(gate.exit_code, 1) << gate.err;
    EXPECT_FALSE(has_raw_control(gate.out)) << gate.out;
    EXPECT_TRUE(
        contains(gate.out, "gate: x\\x1b[1A\\x0d  [pass] all good\\x0agate: PASS \\u202eLIAF"))
        << gate.out;
    const auto junit = read_text(dir.file("junit.xml"));
    EXPECT_FALSE(has_raw_control(junit.substr(junit.find("<testsuite")))) << junit;
    for (const char* format : {"text", "markdown", "csv", "json"}) {
        SCOPED_TRACE(format);
        const auto report = run_ppsbench({"report", "--format", format, path});
        ASSERT_EQ(report.exit_code, 0) << report.err;
        EXPECT_FALSE(has_raw_control(report.out)) << report.out;
    }
    const auto page = dir.file("page.html");
    ASSERT_EQ(run_ppsbench({"report", path, "--html", page}).exit_code, 0);
    EXPECT_FALSE(has_raw_control(read_text(page)));
}

TEST(TextFromFiles, LabelRefusesABidirectionalOverride) {
    TempDir dir;
    const auto result = run_ppsbench({"run", "-q", "-s", "sim:hardirq", "--count", "5", "-o",
                                      dir.file("x.csv"), "--label", "PASS \u202eLIAF"});
    EXPECT_EQ(result.exit_code, 2) << result.out;
    EXPECT_TRUE(contains(result.err, "a bidirectional override")) << result.err;
}

}  // namespace
}  // namespace ppsbench
