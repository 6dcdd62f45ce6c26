// SPDX-License-Identifier: GPL-2.0-or-later
// How figures read: one unit per column, three significant figures, absent figures as "—".
#include "ppsbench/render/units.hpp"

#include <gtest/gtest.h>
#include <limits>
#include <sstream>

#include "ppsbench/render/renderer.hpp"

namespace ppsbench::render {
namespace {

constexpr double nan = std::numeric_limits<double>::quiet_NaN();

TEST(FormatNs, KeepsNanosecondsUpToTenMicroseconds) {
    EXPECT_EQ(format_ns(0), "0 ns");
    EXPECT_EQ(format_ns(440), "440 ns");
    EXPECT_EQ(format_ns(2134.4), "2134 ns");
    EXPECT_EQ(format_ns(9999), "9999 ns");
    EXPECT_EQ(format_ns(0.3), "0 ns");
}

TEST(FormatNs, ChoosesLargerUnitsWithThreeSignificantFigures) {
    EXPECT_EQ(format_ns(11'000), "11.0 µs");
    EXPECT_EQ(format_ns(38'240), "38.2 µs");
    EXPECT_EQ(format_ns(250'000), "250 µs");
    EXPECT_EQ(format_ns(12'500'000), "12.5 ms");
    EXPECT_EQ(format_ns(3.2e12), "3200 s");
}

TEST(FormatNs, SignsAndNegativesAndAbsentValues) {
    EXPECT_EQ(format_ns(-300, true), "-300 ns");
    EXPECT_EQ(format_ns(300, true), "+300 ns");
    EXPECT_EQ(format_ns(-38'240), "-38.2 µs");
    EXPECT_EQ(format_ns(nan), "—");
    EXPECT_EQ(format_ns(std::numeric_limits<double>::infinity()), "—");
}

TEST(FormatNs, NeverPrintsANegativeZero) {
    EXPECT_EQ(format_ns(-0.3), "0 ns");
    EXPECT_EQ(format_ns(-0.3, true), "0 ns");
    EXPECT_EQ(format_ns(-0.0, true), "0 ns");
    EXPECT_EQ(format_ns(0.4, true), "0 ns");
    EXPECT_EQ(format_ns(-0.6, true), "-1 ns");
    const double column[] = {38'000, -4};
    EXPECT_EQ(format_in_unit(-4, choose_time_unit(column), true), "0.0 µs");
    EXPECT_EQ(format_ratio(-0.001), "×0.00");
}

TEST(ChooseTimeUnit, OneUnitForTheWholeColumnFromItsLargestValue) {
    const double write_up_p2p[] = {11'000, 38'000};
    const auto unit = choose_time_unit(write_up_p2p);
    EXPECT_STREQ(unit.suffix, "µs");
    EXPECT_EQ(format_in_unit(11'000, unit), "11.0 µs");
    EXPECT_EQ(format_in_unit(38'000, unit), "38.0 µs");
    EXPECT_EQ(format_in_unit(440, unit), "0.4 µs");
    const double with_absent[] = {nan, 440, 2468};
    EXPECT_STREQ(choose_time_unit(with_absent).suffix, "ns");
    const double only_absent[] = {nan};
    EXPECT_STREQ(choose_time_unit(only_absent).suffix, "ns");
}

TEST(FormatRatio, WithAndWithoutInterval) {
    EXPECT_EQ(format_ratio(3.2554), "×3.26");
    EXPECT_EQ(format_ratio(12.34), "×12.3");
    EXPECT_EQ(format_ratio(nan), "—");
    EXPECT_EQ(format_cell(Cell::of_ratio(3.26, 3.1, 3.43), Quantity::ratio, {}),
              "×3.26 (3.10–3.43)");
}

TEST(Renderers, AbsentFiguresAreDashesInTextNullInJsonEmptyInCsv) {
    Table table;
    table.columns = {{"run", "run", Quantity::text}, {"RMS offset", "rms_ns", Quantity::time_ns}};
    table.rows = {{Cell::of_text("a|b"), Cell::of(nan)}, {Cell::of_text("c"), Cell::of(440)}};
    std::ostringstream text;
    make_renderer("text")->render(table, text);
    EXPECT_NE(text.str().find("a|b           —"), std::string::npos) << text.str();
    std::ostringstream markdown;
    make_renderer("markdown")->render(table, markdown);
    EXPECT_NE(markdown.str().find("| a\\|b | — |"), std::string::npos) << markdown.str();
    std::ostringstream csv;
    make_renderer("csv")->render(table, csv);
    EXPECT_EQ(csv.str(), "run,rms_ns\na|b,\nc,440\n");
    std::ostringstream json;
    make_renderer("json")->render(table, json);
    EXPECT_NE(json.str().find("\"rms_ns\": null"), std::string::npos) << json.str();
}

// Issue 27: with --edge both the clear edge's offsets (~100 ms) set the column's unit and the
// assert edge's RMS and p99 printed as "0 ms". A column keeps one unit only while none of its
// figures rounds to 0 in it; otherwise each row gets its own.
TEST(Renderers, ARowFarSmallerThanItsColumnGetsItsOwnUnit) {
    Table table;
    table.columns = {{"run", "run", Quantity::text},
                     {"RMS", "rms_ns", Quantity::time_ns},
                     {"p-p", "p2p_ns", Quantity::time_ns}};
    table.rows = {{Cell::of_text("assert"), Cell::of(6452), Cell::of(31'600)},
                  {Cell::of_text("clear"), Cell::of(100'000'000), Cell::of(34'300)}};
    std::ostringstream text;
    make_renderer("text")->render(table, text);
    EXPECT_NE(text.str().find("assert  6452 ns  31.6 µs"), std::string::npos) << text.str();
    EXPECT_NE(text.str().find("clear    100 ms  34.3 µs"), std::string::npos) << text.str();
    EXPECT_EQ(text.str().find(" 0 ms"), std::string::npos) << text.str();
    // Figures of one size keep the column's one unit, as the write-up's tables do.
    std::ostringstream markdown;
    make_renderer("markdown")->render(table, markdown);
    EXPECT_NE(markdown.str().find("| 6452 ns | 31.6 µs |"), std::string::npos) << markdown.str();
}

// Issue 27: --confidence 0.999999 printed "100 % CI", an interval no finite sample has.
TEST(ConfidencePercent, KeepsEveryDigitGivenAndNeverRoundsUpTo100) {
    EXPECT_EQ(confidence_percent(0.95), "95");
    EXPECT_EQ(confidence_percent(0.9), "90");
    EXPECT_EQ(confidence_percent(0.999), "99.9");
    EXPECT_EQ(confidence_percent(0.999999), "99.9999");
    EXPECT_EQ(confidence_percent(0.5), "50");
    for (double level = 0.9; level < 1; level = 1 - (1 - level) / 10) {
        EXPECT_NE(confidence_percent(level), "100") << level;
    }
}

// Issue 27: --max-ratio 1e308 printed a number of 309 digits in the check's name.
TEST(RatioLimitText, TwoDecimalsAsTypedAndExponentFormWhenHuge) {
    EXPECT_EQ(ratio_limit_text(1.25), "1.25");
    EXPECT_EQ(ratio_limit_text(1.5), "1.50");
    EXPECT_EQ(ratio_limit_text(1e308), "1e+308");
    EXPECT_LE(ratio_limit_text(std::numeric_limits<double>::max()).size(), 10U);
}

}  // namespace
}  // namespace ppsbench::render
