// SPDX-License-Identifier: GPL-2.0-or-later
// Strict options (issue 12): counts, limits and sizes refuse negatives and absurd values, time
// limits need a unit, output paths are checked before the work starts and name the real
// problem, labels are printable UTF-8; every refusal is exit 2 and leaves no file behind.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>

#include "cli.hpp"

namespace ppsbench {
namespace {

using testing::contains;
using testing::run_ppsbench;
using testing::TempDir;

struct OptionRefusal {
    std::vector<std::string> args;
    std::string reason;
};

void expect_refusals(const TempDir& dir, const std::vector<OptionRefusal>& cases) {
    for (const auto& c : cases) {
        const auto result = run_ppsbench(c.args);
        EXPECT_EQ(result.exit_code, 2) << c.reason << "\n" << result.out << result.err;
        EXPECT_TRUE(contains(result.err, c.reason))
            << "wanted " << c.reason << "\ngot " << result.err;
        EXPECT_EQ(std::count(result.err.begin(), result.err.end(), '\n'), 1) << result.err;
    }
    for (const auto& entry : std::filesystem::directory_iterator(dir.path())) {
        if (entry.path().filename() != "stock.csv" && entry.path().filename() != "adir" &&
            entry.path().filename() != "taken.svg") {
            ADD_FAILURE() << "a refused command left " << entry.path() << " behind";
        }
    }
}

TEST(StrictOptions, RunRefusesAbsurdCountsPeriodsAndLabelsBeforeCreatingAFile) {
    TempDir dir;
    const auto out = dir.file("out.csv");
    const std::vector<std::string> sim{"run", "-q", "-s", "sim:hardirq", "-o", out};
    auto with = [&](std::vector<std::string> extra) {
        auto args = sim;
        args.insert(args.end(), extra.begin(), extra.end());
        return args;
    };
    expect_refusals(
        dir, {
                 // main: planned_count 18446744073709551611 and a capture until the disk is full
                 {with({"--count", "-5"}), "--count -5: use a whole number from 1 to 1000000000"},
                 {with({"--count", "1e3"}), "--count 1e3"},
                 {with({"--count", "99999999999"}), "--count 99999999999"},
                 // main: 10⁹ pulses planned and timestamps that went backwards
                 {with({"--period", "1ns", "--duration", "1s"}), "--period 1ns: use a period"},
                 {with({"--period", "2h"}), "--period 2h"},
                 {with({"--period", "1ms", "--duration", "1000d"}), "more than the 1000000000"},
                 {with({"--duration", "10"}), "--duration: '10' has no unit"},
                 {with({"--seed", "-1"}), "--seed -1"},
                 // main: an internal JSON error, exit 1 and a 0-byte file blocking the re-run
                 {with({"--count", "5", "--label", "bad\xff"}), "--label: the label is not valid"},
                 {with({"--count", "5", "--label", "two\nlines"}), "control character"},
                 {with({"--count", "5", "--label", "\xc0\xaf"}), "not valid UTF-8"},
             });
    const auto ok = run_ppsbench(with({"--count", "5", "--label", "6.1 PREEMPT_RT µs ✓"}));
    EXPECT_EQ(ok.exit_code, 0) << ok.err;
}

TEST(StrictOptions, OutputPathsNameTheRealProblem) {
    TempDir dir;
    std::filesystem::create_directory(dir.path() / "adir");
    const auto stock = dir.file("stock.csv");
    ASSERT_EQ(
        run_ppsbench({"run", "-q", "-s", "sim:hardirq", "--count", "150", "-o", stock}).exit_code,
        0);
    testing::write_text(dir.file("taken.svg"), "keep me");
    const std::vector<std::string> run{"run", "-q", "-s", "sim:hardirq", "--count", "5"};
    auto run_to = [&](const std::string& path) {
        auto args = run;
        args.insert(args.end(), {"-o", path});
        return args;
    };
    expect_refusals(
        dir, {
                 // main: "file exists; pass --force"
                 {run_to(dir.file("adir")), "-o " + dir.file("adir") + ": is a directory"},
                 // main: "the directory does not exist"
                 {run_to("/proc/x.csv"), "/proc is on the virtual file system proc"},
                 {run_to("/sys/x.csv"), "virtual file system sysfs"},
                 {run_to(dir.file("missing/x.csv")),
                  "the folder " + dir.file("missing") + " does not exist; create it first"},
                 {run_to(stock), "the file exists; pass --force"},
                 // main: a file named "-" appeared
                 {run_to("-"), "-o -: this output is written to a file, not to standard output"},
                 {{"gate", stock, "--max-sigma", "1ms", "--junit", "-"},
                  "--junit -: this output is written to a file"},
                 // main: SVG written into a .png
                 {{"report", stock, "--plot", dir.file("p.png")}, "plots are written as SVG"},
                 // main: --plot and --junit overwrote files without --force
                 {{"report", stock, "--plot", dir.file("taken.svg")},
                  "--plot " + dir.file("taken.svg") + ": the file exists"},
                 {{"report", stock, "--prometheus", dir.file("adir")}, "is a directory"},
                 {{"compare", "--baseline", stock, stock, "--plot", dir.file("no/p.svg")},
                  "does not exist"},
                 {{"gate", stock, "--max-sigma", "3us", "--junit", stock},
                  "--junit " + stock + " is also the input " + stock},
             });
    EXPECT_EQ(testing::read_text(dir.file("taken.svg")), "keep me");
    const auto forced = run_ppsbench({"report", stock, "--plot", dir.file("taken.svg"), "--force"});
    EXPECT_EQ(forced.exit_code, 0) << forced.err;
    EXPECT_TRUE(contains(testing::read_text(dir.file("taken.svg")), "<svg"));
}

// main: Boost read "-o=x.csv" as -o with the value "=x.csv" and the run created "=x.csv". A
// short option followed by '=' is refused, naming the spellings that work, and writes nothing;
// "-o x.csv" and "-ox.csv" still work, and after "--" a word like it is positional.
TEST(StrictOptions, AShortOptionWithAnEqualsSignIsRefusedNotMadeAFileName) {
    TempDir dir;
    const auto in_dir = [&](const std::string& arguments) {
        return testing::run_program({"sh", "-c",
                                     "cd '" + dir.path().string() + "' && exec '" +
                                         std::string(PPSBENCH_BINARY) + "' " + arguments});
    };
    const auto refused = in_dir("run -q -s sim:hardirq --count 5 -o=x.csv");
    EXPECT_EQ(refused.exit_code, 2) << refused.out << refused.err;
    EXPECT_TRUE(contains(refused.err,
                         "-o=x.csv: a short option takes no '=' (its value would be \"=x.csv\"); "
                         "write -o x.csv, or --output=x.csv"))
        << refused.err;
    EXPECT_EQ(std::count(refused.err.begin(), refused.err.end(), '\n'), 1) << refused.err;
    EXPECT_TRUE(std::filesystem::is_empty(dir.path()));

    EXPECT_EQ(in_dir("run -q -s sim:hardirq --count 5 -o x.csv").exit_code, 0);
    EXPECT_EQ(in_dir("run -q -s sim:hardirq --count 5 -oy.csv").exit_code, 0);
    EXPECT_TRUE(std::filesystem::exists(dir.path() / "x.csv"));
    EXPECT_TRUE(std::filesystem::exists(dir.path() / "y.csv"));
    const auto format = in_dir("report x.csv -f=json");
    EXPECT_EQ(format.exit_code, 2);
    EXPECT_TRUE(contains(format.err, "write -f json, or --format=json")) << format.err;
    // After "--", "-o=x.csv" is a file name like any other: report says it does not exist.
    const auto positional = in_dir("report -- -o=x.csv");
    EXPECT_EQ(positional.exit_code, 2);
    EXPECT_FALSE(contains(positional.err, "short option")) << positional.err;
}

// main: a bad --junit path was found only after the gate ran and printed its verdict.
TEST(StrictOptions, GateChecksTheJunitPathBeforeJudging) {
    TempDir dir;
    const auto stock = dir.file("stock.csv");
    ASSERT_EQ(
        run_ppsbench({"run", "-q", "-s", "sim:hardirq", "--count", "150", "-o", stock}).exit_code,
        0);
    const auto result = run_ppsbench(
        {"gate", stock, "--max-sigma", "3us", "--junit", dir.file("nowhere/gate.xml")});
    EXPECT_EQ(result.exit_code, 2) << result.err;
    EXPECT_EQ(result.out, "") << "nothing judged before the path was known to work";
    EXPECT_TRUE(contains(result.err, "--junit")) << result.err;
}

}  // namespace
}  // namespace ppsbench
