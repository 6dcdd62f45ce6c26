// SPDX-License-Identifier: GPL-2.0-or-later
// ppswatch's closing figures checked against the event lines it printed before them (issue 40).
// The logs here are written by ppswatch's printf rules (pps-tools ppswatch.c: fetch_source and
// print_stats); the figures they print are computed independently of the importer, in two
// passes in long double, and printed with printf's %g as ppswatch does.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "cli.hpp"
#include "ppsbench/core/error.hpp"
#include "ppsbench/import/ppswatch.hpp"

namespace ppsbench::import {
namespace {

using ppsbench::testing::contains;

std::string g(double value) {
    char text[64];
    std::snprintf(text, sizeof text, "%g", value);
    return text;
}

struct Printed {
    std::size_t total;
    long max_divergence;
    double mean;
    double sd;
};

// What ppswatch prints at the end for `offsets` (every fetched event), by a method other than
// the importer's: two passes in long double.
Printed figures_of(const std::vector<long>& offsets) {
    long double sum = 0;
    long max_divergence = 0;
    for (const long o : offsets) {
        sum += o;
        max_divergence = std::max(max_divergence, std::labs(o));
    }
    const long double n = static_cast<long double>(offsets.size());
    const long double mean = sum / n;
    long double squares = 0;
    for (const long o : offsets) {
        squares += (o - mean) * (o - mean);
    }
    return {offsets.size(), max_divergence, static_cast<double>(mean),
            static_cast<double>(std::sqrt(squares / n))};
}

// One ppswatch session as its terminal shows it. With `margin`, only the events at or beyond it
// are printed and the overflow lines appear, as ppswatch.c does.
std::string session(const std::vector<long>& offsets, const Printed& p, long margin = 0) {
    std::string text = "trying PPS source \"/dev/pps0\"\nfound PPS source \"/dev/pps0\"\n";
    if (margin != 0) {
        text += "using margin " + std::to_string(margin) + "\n";
    }
    std::size_t printed = 0;
    for (std::size_t i = 0; i < offsets.size(); ++i) {
        if (std::labs(offsets[i]) >= margin) {
            char line[128];
            std::snprintf(line, sizeof line, "timestamp: %ld, sequence: %zu, offset: % 6ld\n",
                          1700000000L + static_cast<long>(i), 100 + i, offsets[i]);
            text += line;
            ++printed;
        }
    }
    text += "^C\n\nTotal number of PPS signals: " + std::to_string(p.total) + "\n";
    if (margin != 0) {
        text += "Number of overflows:         " + std::to_string(printed) + " (50.000000%)\n";
        text += "Maximum unsynchronized time: 3\n";
    }
    text += "Maximum divergence: " + std::to_string(p.max_divergence) + "\n";
    text += "Mean value: " + g(p.mean) + "\nStandard deviation: " + g(p.sd) + "\n";
    return text;
}

CaptureImport import_text(const std::string& text, bool strict = false) {
    std::istringstream in(text);
    return import_ppswatch(in, "watch.txt", {.edge = "assert", .strict = strict});
}

std::string all_notes(const CaptureImport& imported) {
    std::string out;
    for (const auto& n : imported.notes) {
        out += n + "\n";
    }
    return out;
}

std::vector<long> random_offsets(std::mt19937_64& random) {
    const std::size_t n = 1 + random() % 400;
    const int shape = static_cast<int>(random() % 4);
    std::vector<long> offsets;
    std::normal_distribution<double> jitter(random() % 2000,
                                            1.0 + static_cast<double>(random() % 50000));
    for (std::size_t i = 0; i < n; ++i) {
        switch (shape) {
            case 0:  // a constant offset: SD 0
                offsets.push_back(-250);
                break;
            case 1:  // the widest ppswatch prints: up to half a second either way
                offsets.push_back(static_cast<long>(random() % 1000000001) - 500000000);
                break;
            default:
                offsets.push_back(std::clamp(std::lround(jitter(random)), -500000000L, 500000000L));
        }
    }
    return offsets;
}

TEST(PpswatchCheck, ClosingFiguresWrittenByPpswatchsRulesAgreeWithTheirLines) {
    std::mt19937_64 random(40);
    for (int round = 0; round < 300; ++round) {
        const auto offsets = random_offsets(random);
        const auto imported = import_text(session(offsets, figures_of(offsets)));
        SCOPED_TRACE(::testing::Message() << "round " << round << ": " << offsets.size());
        EXPECT_TRUE(imported.warnings.empty()) << imported.warnings.front();
        EXPECT_TRUE(contains(all_notes(imported),
                             "cross-checked: ppswatch's closing figures at "
                             "watch.txt:"))
            << all_notes(imported);
    }
}

// The same sessions with one printed figure moved by two units of its last digit: each is
// named as a contradiction, and --strict refuses it.
TEST(PpswatchCheck, AFigureTwoUnitsOffItsLinesIsAContradiction) {
    std::mt19937_64 random(41);
    for (int round = 0; round < 300; ++round) {
        const auto offsets = random_offsets(random);
        auto p = figures_of(offsets);
        const int which = static_cast<int>(random() % 3);
        const auto nudge = [](double v) {
            const double unit =
                v == 0 ? 1e-6 : std::pow(10.0, std::floor(std::log10(std::fabs(v))) - 5);
            return std::stod(g(v)) + 2 * unit;
        };
        std::string expected;
        if (which == 0) {
            p.max_divergence += 1;
            expected = "maximum divergence";
        } else if (which == 1) {
            p.mean = nudge(p.mean);
            expected = "mean";
        } else {
            p.sd = nudge(p.sd);
            expected = "standard deviation";
        }
        const auto text = session(offsets, p);
        SCOPED_TRACE(::testing::Message() << "round " << round << ", " << expected);
        const auto imported = import_text(text);
        ASSERT_EQ(imported.warnings.size(), 1U) << all_notes(imported);
        EXPECT_TRUE(contains(imported.warnings[0], "ppswatch's closing figures contradict"));
        EXPECT_TRUE(contains(imported.warnings[0], expected + " ")) << imported.warnings[0];
        EXPECT_THROW(import_text(text, true), core::InputError);
    }
}

// A paste that lost a line cannot be compared: a note says so, and the lines are imported as
// the file has them. With --margin ppswatch printed only the large offsets; what is judged is
// their count and the largest, which are always among them.
TEST(PpswatchCheck, ALostLineIsNotJudgedAndAMarginRunIsJudgedOnWhatItPrinted) {
    std::vector<long> offsets;
    for (long i = 0; i < 40; ++i) {
        offsets.push_back((i * 7919) % 5000 - 2500);
    }
    const auto p = figures_of(offsets);
    auto text = session(offsets, p);
    const auto cut = text.find("timestamp: 1700000005");
    text.erase(cut, text.find('\n', cut) + 1 - cut);
    const auto lost = import_text(text, true);
    EXPECT_TRUE(lost.warnings.empty());
    EXPECT_TRUE(contains(all_notes(lost), "count 40 signals, but 39 event lines precede them"))
        << all_notes(lost);

    const auto margin = import_text(session(offsets, p, 2000), true);
    EXPECT_TRUE(margin.warnings.empty());
    EXPECT_TRUE(contains(all_notes(margin), "cross-checked: ppswatch ran with --margin"))
        << all_notes(margin);
    // ppswatch counts an overflow after printing it: a Ctrl-C between the two leaves one line
    // more than the count. Not judged, so --strict does not refuse a genuine log over it.
    auto raced = session(offsets, p, 2000);
    const auto count_at = raced.find("Number of overflows:         ") + 29;
    const auto count_end = raced.find(' ', count_at);
    const auto printed = std::stoul(raced.substr(count_at, count_end - count_at));
    raced.replace(count_at, count_end - count_at, std::to_string(printed - 1));
    const auto race = import_text(raced, true);
    EXPECT_TRUE(race.warnings.empty());
    EXPECT_TRUE(contains(all_notes(race), "not cross-checked: ppswatch ran with --margin"))
        << all_notes(race);
}

// Two sessions pasted one after the other are two runs of ppswatch, each judged on its own lines.
TEST(PpswatchCheck, EachPastedSessionIsJudgedOnItsOwnLines) {
    const std::vector<long> a{-5414, 2930, -2725, 3870};
    const std::vector<long> b{100, 200, 300};
    auto pb = figures_of(b);
    pb.mean += 50;  // the second session's mean is wrong
    const auto imported = import_text(session(a, figures_of(a)) + session(b, pb));
    ASSERT_EQ(imported.warnings.size(), 1U);
    EXPECT_TRUE(contains(imported.warnings[0], "contradict the 3 event lines"))
        << imported.warnings[0];
    EXPECT_TRUE(contains(all_notes(imported), "(4 signals, maximum divergence 5414 ns"))
        << all_notes(imported);
}

}  // namespace
}  // namespace ppsbench::import
